"""Security tier: organisations with owner, admin and member roles behind signed session tokens;
hidden probes try mass assignment (`role`, `org_id`, `is_owner` in bodies), role escalation (an
admin granting owner or touching an admin, a member promoting themselves), forged, tampered and
logged-out tokens, reaching an organisation one is not in, removing or demoting the last owner,
and filling an organisation past its bound."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROWS_WITHOUT_HIDDEN
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import hashlib
import hmac
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

SECRET = b"${secret}"
PASSWORDS = ${passwords__repr}
RANK = {"owner": 0, "admin": 1, "member": 2}
ADMIN_GRANTS = ${admin_grants__repr}
MAX_MEMBERS = ${max_members}
Role = Literal["owner", "admin", "member"]

sessions: dict[int, str] = {}  # active session number -> user
last_session = [0]
orgs: dict[int, dict] = {}
members: dict[int, dict[str, str]] = {}  # org id -> user -> role
last_org = [0]

app = FastAPI()


def error(status: int, code: str) -> HTTPException:
    return HTTPException(status, code)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"status": exc.status_code, "code": exc.detail},
                        status_code=exc.status_code)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"status": 422, "code": "invalid"}, status_code=422)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoginIn(Strict):
    user: str
    password: str


class OrgIn(Strict):
    name: str = Field(min_length=${name_min}, max_length=${name_max})


class MemberIn(Strict):
    user: str
    role: Role = "member"


class RoleIn(Strict):
    role: Role


def signature(payload: str) -> str:
    return hmac.new(SECRET, payload.encode(), hashlib.sha256).hexdigest()


def caller(authorization: Annotated[str | None, Header()] = None) -> tuple[str, int]:
    """The caller and their session, from `Bearer <user>.<session>.<signature>`."""
    scheme, _, token = (authorization or "").partition(" ")
    user, _, rest = token.partition(".")
    number, _, sig = rest.partition(".")
    if (scheme != "Bearer" or not number.isdigit() or number != str(int(number))
            or not hmac.compare_digest(sig.encode(), signature(f"{user}.{number}").encode())
            or sessions.get(int(number)) != user):
        raise error(401, "unauthenticated")
    return user, int(number)


Session = Annotated[tuple[str, int], Depends(caller)]


def user_of(session: Session) -> str:
    return session[0]


User = Annotated[str, Depends(user_of)]


def membership(org_id: int, user: User) -> tuple[int, str, str]:
    """(org id, caller, caller's role); an org the caller is not in does not exist for them."""
    role = members.get(org_id, {}).get(user)
    if role is None:
        raise error(404, "not_found")
    return org_id, user, role


Member = Annotated[tuple[int, str, str], Depends(membership)]


def manager(member: Member) -> tuple[int, str, str]:
    if member[2] == "member":
        raise error(403, "forbidden")
    return member


Manager = Annotated[tuple[int, str, str], Depends(manager)]


def owner(member: Member) -> tuple[int, str, str]:
    if member[2] != "owner":
        raise error(403, "forbidden")
    return member


def org_out(org_id: int) -> dict:
    return {"id": org_id, "name": orgs[org_id]["name"], "members": len(members[org_id])}


def owners(org_id: int) -> int:
    return sum(role == "owner" for role in members[org_id].values())


def target_role(org_id: int, user: str) -> str:
    role = members[org_id].get(user)
    if role is None:
        raise error(404, "not_found")
    return role


def may_set(actor_role: str, old_role: str | None, new_role: str) -> bool:
    """Whether a caller with actor_role may give new_role to someone who has old_role (None:
    not yet a member)."""
    if actor_role == "owner":
        return True
    return old_role in (None, "member") and new_role in ADMIN_GRANTS


@app.post("/login")
def login(body: LoginIn):
    if PASSWORDS.get(body.user) != body.password:
        raise error(401, "unauthenticated")
    last_session[0] += 1
    sessions[last_session[0]] = body.user
    number = last_session[0]
    return {"token": f"{body.user}.{number}.{signature(f'{body.user}.{number}')}"}


@app.post("/logout", status_code=204)
def logout(session: Session):
    del sessions[session[1]]


@app.get("/me")
def me(session: Session):
    user = session[0]
    return {"user": user, "session": session[1],
            "orgs": sorted(org for org, people in members.items() if user in people)}


@app.post("/orgs", status_code=201)
def create_org(body: OrgIn, user: User):
    last_org[0] += 1
    orgs[last_org[0]] = {"name": body.name}
    members[last_org[0]] = {user: "owner"}
    return org_out(last_org[0])


@app.get("/orgs")
def list_orgs(user: User):
    return [org_out(org) | {"role": people[user]}
            for org, people in sorted(members.items()) if user in people]


@app.get("/orgs/{org_id}")
def read_org(member: Member):
    return org_out(member[0])


@app.patch("/orgs/{org_id}")
def rename_org(member: Manager, body: OrgIn):
    orgs[member[0]]["name"] = body.name
    return org_out(member[0])


@app.delete("/orgs/{org_id}", status_code=204)
def delete_org(member: Annotated[tuple[int, str, str], Depends(owner)]):
    del orgs[member[0]], members[member[0]]


@app.get("/orgs/{org_id}/members")
def list_members(member: Member):
    people = members[member[0]]
    return [{"user": user, "role": people[user]} for user in sorted(people, key=${member_key})]


@app.post("/orgs/{org_id}/members", status_code=201)
def add_member(member: Manager, body: MemberIn):
    org_id, _, actor_role = member
    if body.user not in PASSWORDS:
        raise RequestValidationError([{"type": "user", "loc": ("body", "user")}])
    if not may_set(actor_role, None, body.role):
        raise error(403, "forbidden")
    if body.user in members[org_id]:
        raise error(409, "conflict")
    if len(members[org_id]) >= MAX_MEMBERS:
        raise error(409, "full")
    members[org_id][body.user] = body.role
    return {"user": body.user, "role": body.role}


@app.patch("/orgs/{org_id}/members/{user}")
def change_role(member: Manager, user: str, body: RoleIn):
    org_id, actor, actor_role = member
    old_role = target_role(org_id, user)
    if user == actor:
        allowed = actor_role == "owner"
    else:
        allowed = may_set(actor_role, old_role, body.role)
    if not allowed:
        raise error(403, "forbidden")
    if old_role == "owner" and body.role != "owner" and owners(org_id) == 1:
        raise error(409, "last_owner")
    members[org_id][user] = body.role
    return {"user": user, "role": body.role}


@app.delete("/orgs/{org_id}/members/{user}", status_code=204)
def remove_member(member: Member, user: str):
    org_id, actor, actor_role = member
    old_role = target_role(org_id, user)
    if user != actor and (actor_role == "member"
                          or (actor_role == "admin" and old_role != "member")):
        raise error(403, "forbidden")
    if old_role == "owner" and owners(org_id) == 1:
        raise error(409, "last_owner")
    del members[org_id][user]


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
token = client.post("/login", json={"user": "${u1}", "password": "${p1}"}).json()["token"]
as1 = {"Authorization": f"Bearer {token}"}
result = [
    [token],
    row(client.post("/login", json={"user": "${u1}", "password": "${p2}"})),
    row(client.post("/orgs", json={"name": "${org1}"}, headers=as1)),
    row(client.post("/orgs/1/members", json={"user": "${u2}"}, headers=as1)),
    row(client.get("/orgs/1/members", headers=as1)),
    row(client.get("/orgs/1", headers={"Authorization": f"Bearer {token}x"})),
]
'''

PROBES = '''\
import hashlib
import hmac

SECRET = b"${secret}"
PASSWORDS = ${passwords__repr}
U1, U2, U3, U4, U5, U6, U7 = ${users__repr}
ADMIN_GRANTS = ${admin_grants__repr}
MAX_MEMBERS = ${max_members}
HIDDEN = ("id", "session")
''' + ROWS_WITHOUT_HIDDEN + '''

def _login(client, user):
    token = client.post("/login", json={"user": user, "password": PASSWORDS[user]}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _sign(payload):
    return hmac.new(SECRET, payload.encode(), hashlib.sha256).hexdigest()


def _org(client, headers, name="Probe org", people=()):
    """A new org owned by the caller, with (user, role) members added by the caller."""
    org = client.post("/orgs", json={"name": name}, headers=headers).json()["id"]
    for user, role in people:
        r = client.post(f"/orgs/{org}/members", json={"user": user, "role": role}, headers=headers)
        assert r.status_code == 201, r.text
    return org


def _roles(client, headers, org):
    return {m["user"]: m["role"] for m in client.get(f"/orgs/{org}/members",
                                                     headers=headers).json()}


def probe_login(client):
    rows = []
    for body in [{"user": U1, "password": PASSWORDS[U1]}, {"user": U1, "password": PASSWORDS[U2]},
                 {"user": U1.upper(), "password": PASSWORDS[U1]},
                 {"user": U1, "password": PASSWORDS[U1] + " "}, {"user": "ghost", "password": ""},
                 {"user": U1}, {"user": U1, "password": PASSWORDS[U1], "role": "owner"}]:
        r = client.post("/login", json=body)
        token = r.json().get("token", "") if r.status_code == 200 else ""
        user, _, rest = token.partition(".")
        number, _, sig = rest.partition(".")
        rows.append([r.status_code, sorted(r.json()), user,
                     bool(token) and sig == _sign(f"{user}.{number}")])
    first = client.post("/login", json={"user": U2, "password": PASSWORDS[U2]}).json()["token"]
    second = client.post("/login", json={"user": U2, "password": PASSWORDS[U2]}).json()["token"]
    n1, n2 = int(first.split(".")[1]), int(second.split(".")[1])
    rows.append([n2 - n1])
    me = client.get("/me", headers={"Authorization": f"Bearer {second}"})
    rows.append([me.status_code, me.json()["user"], me.json()["session"] == n2])
    return rows


def probe_tokens_cannot_be_forged(client):
    real = _login(client, U1)["Authorization"].split(" ", 1)[1]
    user, number, sig = real.split(".")
    other = _login(client, U2)["Authorization"].split(" ", 1)[1]
    o_user, o_number, o_sig = other.split(".")
    forged = [None, "", "Bearer", "Bearer ", f"bearer {real}", f"Bearer  {real}",
              f"Bearer {real} ", f"Token {real}", f"Bearer {U1}", f"Bearer {user}.{number}",
              f"Bearer {user}.{number}.", f"Bearer {user}.{number}.{sig.upper()}",
              f"Bearer {user}.{number}.{sig[:-1]}", f"Bearer {user}.{number}.{sig}0",
              f"Bearer {user}.{number}.{sig}.x", f"Bearer {o_user}.{number}.{sig}",
              f"Bearer {o_user}.{number}.{_sign(o_user + '.' + number)}",
              f"Bearer {user}.{o_number}.{_sign(user + '.' + o_number)}",
              f"Bearer {user}.999999.{_sign(user + '.999999')}",
              f"Bearer {user}.0{number}.{_sign(user + '.0' + number)}",
              f"Bearer {user}.+{number}.{_sign(user + '.+' + number)}",
              f"Bearer {user.upper()}.{number}.{_sign(user.upper() + '.' + number)}"]
    rows = []
    for value in forged:
        headers = {} if value is None else {"Authorization": value}
        row = [forged.index(value)]
        for method, path in [("GET", "/me"), ("GET", "/orgs"), ("POST", "/orgs"),
                             ("GET", "/orgs/1/members"), ("POST", "/orgs/1/members")]:
            r = client.request(method, path, headers=headers, json={"name": "forged org"})
            row.append(_row(r))
        rows.append(row)
    rows.append(_row(client.get("/me", headers={"Authorization": f"Bearer {real}"})))
    rows.append(_row(client.post("/logout", headers={"Authorization": f"Bearer {real}"})))
    rows.append(_row(client.get("/me", headers={"Authorization": f"Bearer {real}"})))
    return rows


def probe_logout_ends_the_session(client):
    a = _login(client, U3)
    b = _login(client, U3)
    rows = [_row(client.post("/logout", headers=a)), _row(client.get("/me", headers=a)),
            _row(client.post("/logout", headers=a)), _row(client.get("/me", headers=b))]
    c = _login(client, U3)
    rows.append([int(c["Authorization"].split(".")[1]) > int(a["Authorization"].split(".")[1])])
    return rows


def probe_orgs_and_membership(client):
    h1, h4 = _login(client, U1), _login(client, U4)
    r = client.post("/orgs", json={"name": "Zeta works"}, headers=h4)
    org = r.json()["id"]
    rows = [_row(r), _row(client.get(f"/orgs/{org}", headers=h4)),
            [[o["role"] for o in client.get("/orgs", headers=h4).json() if o["id"] == org]],
            [org in client.get("/me", headers=h4).json()["orgs"]]]
    for method, path, body in [("GET", f"/orgs/{org}", None),
                               ("GET", f"/orgs/{org}/members", None),
                               ("PATCH", f"/orgs/{org}", {"name": "taken over"}),
                               ("DELETE", f"/orgs/{org}", None),
                               ("POST", f"/orgs/{org}/members", {"user": U1, "role": "owner"}),
                               ("PATCH", f"/orgs/{org}/members/{U4}", {"role": "member"}),
                               ("DELETE", f"/orgs/{org}/members/{U4}", None)]:
        rows.append([method, _row(client.request(method, path, json=body, headers=h1))])
    rows.append([org in [o["id"] for o in client.get("/orgs", headers=h1).json()]])
    rows.append(_row(client.get("/orgs/987654", headers=h4)))
    return rows


def probe_org_names(client):
    h = _login(client, U2)
    rows = []
    for name in ["", "n" * (${name_min} - 1), "n" * ${name_min}, "n" * ${name_max},
                 "n" * (${name_max} + 1), 42]:
        r = client.post("/orgs", json={"name": name}, headers=h)
        rows.append([name if isinstance(name, int) else len(name), r.status_code])
    org = _org(client, h, "rename me")
    for name in ["n" * (${name_max} + 1), "renamed"]:
        rows.append(_row(client.patch(f"/orgs/{org}", json={"name": name}, headers=h)))
    return rows


def probe_bodies_cannot_set_protected_fields(client):
    h = _login(client, U1)
    org = _org(client, h, "mass org", [(U2, "member")])
    h2 = _login(client, U2)
    rows = []
    for body in [{"name": "x" * ${name_min}, "owner": U2}, {"name": "x" * ${name_min}, "id": 1},
                 {"name": "x" * ${name_min}, "members": []}]:
        rows.append([sorted(body), _row(client.post("/orgs", json=body, headers=h))])
    for body in [{"user": U3, "role": "member", "org_id": org + 1},
                 {"user": U3, "is_owner": True}, {"user": U3, "role": "member", "id": 3}]:
        rows.append([sorted(body), _row(client.post(f"/orgs/{org}/members", json=body,
                                                    headers=h))])
    for body in [{"role": "admin", "user": U3}, {"role": "member", "is_owner": True},
                 {"role": "member", "org_id": org}]:
        rows.append([sorted(body), _row(client.patch(f"/orgs/{org}/members/{U2}", json=body,
                                                     headers=h))])
    rows.append([_row(client.patch(f"/orgs/{org}", json={"name": "xxxxx", "is_owner": True},
                                   headers=h))])
    rows.append([_row(client.patch(f"/orgs/{org}", json={"name": "xxxxx", "owner": U2},
                                   headers=h2))])
    rows.append([_roles(client, h, org)])
    return rows


def probe_members_listing(client):
    h = _login(client, U5)
    org = _org(client, h, "listing org", [(U2, "member"), (U1, "admin"), (U4, "member"),
                                          (U3, "owner")])
    rows = [_row(client.get(f"/orgs/{org}/members", headers=h)),
            _row(client.get(f"/orgs/{org}/members", headers=_login(client, U4))),
            _row(client.get(f"/orgs/{org}", headers=_login(client, U2)))]
    return rows


def probe_owner_grants_anything(client):
    h = _login(client, U1)
    org = _org(client, h, "owner org")
    rows = [_row(client.post(f"/orgs/{org}/members", json={"user": user, "role": role},
                             headers=h))
            for user, role in [(U2, "owner"), (U3, "admin"), (U4, "member"), (U4, "admin"),
                               (U5, "superuser"), ("nobody", "member"), (U1, "member")]]
    rows.append(_row(client.post(f"/orgs/{org}/members", json={"user": U5}, headers=h)))
    for user, role in [(U3, "member"), (U4, "owner"), (U4, "admin")]:
        rows.append(_row(client.patch(f"/orgs/{org}/members/{user}", json={"role": role},
                                      headers=h)))
    rows.append([_roles(client, h, org)])
    return rows


def probe_admins_manage_only_members(client):
    h = _login(client, U1)
    org = _org(client, h, "admin org", [(U2, "admin"), (U3, "member"), (U4, "admin")])
    ha = _login(client, U2)
    rows = []
    for role in ["owner", "admin", "member"]:
        r = client.post(f"/orgs/{org}/members", json={"user": U5, "role": role}, headers=ha)
        rows.append(["add", role, _row(r)])
        if r.status_code == 201:
            client.delete(f"/orgs/{org}/members/{U5}", headers=h)
    for user, role in [(U3, "owner"), (U3, "admin"), (U3, "member"), (U4, "member"),
                       (U1, "admin"), (U1, "member")]:
        rows.append(["set", user, role, _row(client.patch(f"/orgs/{org}/members/{user}",
                                                          json={"role": role}, headers=ha))])
        client.patch(f"/orgs/{org}/members/{U3}", json={"role": "member"}, headers=h)
    for user in [U4, U1, U3]:
        rows.append(["remove", user, _row(client.delete(f"/orgs/{org}/members/{user}",
                                                         headers=ha))])
    rows.append(["rename", _row(client.patch(f"/orgs/{org}", json={"name": "by admin"},
                                             headers=ha))])
    rows.append(["delete", _row(client.delete(f"/orgs/{org}", headers=ha))])
    rows.append([_roles(client, h, org)])
    return rows


def probe_nobody_promotes_themselves(client):
    h = _login(client, U1)
    org = _org(client, h, "self org", [(U2, "admin"), (U3, "member")])
    ha, hm = _login(client, U2), _login(client, U3)
    rows = []
    for headers, user, role in [(hm, U3, "admin"), (hm, U3, "owner"), (hm, U3, "member"),
                                (ha, U2, "owner"), (ha, U2, "admin"), (ha, U2, "member")]:
        rows.append([user, role, _row(client.patch(f"/orgs/{org}/members/{user}",
                                                   json={"role": role}, headers=headers))])
    for headers, user, role in [(hm, U4, "member"), (hm, U2, "member")]:
        rows.append([_row(client.post(f"/orgs/{org}/members", json={"user": user, "role": role},
                                      headers=headers))])
    rows.append([_row(client.delete(f"/orgs/{org}/members/{U2}", headers=hm))])
    rows.append([_row(client.patch(f"/orgs/{org}", json={"name": "by member"}, headers=hm))])
    rows.append([_roles(client, h, org)])
    return rows


def probe_last_owner_stays(client):
    h = _login(client, U4)
    org = _org(client, h, "owners org", [(U5, "admin")])
    h5 = _login(client, U5)
    rows = [_row(client.patch(f"/orgs/{org}/members/{U4}", json={"role": "admin"}, headers=h)),
            _row(client.delete(f"/orgs/{org}/members/{U4}", headers=h)),
            _row(client.patch(f"/orgs/{org}/members/{U4}", json={"role": "owner"}, headers=h)),
            _row(client.patch(f"/orgs/{org}/members/{U5}", json={"role": "owner"}, headers=h)),
            _row(client.patch(f"/orgs/{org}/members/{U4}", json={"role": "member"}, headers=h)),
            _row(client.delete(f"/orgs/{org}/members/{U4}", headers=h5)),
            _row(client.patch(f"/orgs/{org}/members/{U4}", json={"role": "owner"}, headers=h5)),
            _row(client.delete(f"/orgs/{org}/members/{U5}", headers=h5)),
            _row(client.patch(f"/orgs/{org}/members/{U5}", json={"role": "member"}, headers=h5)),
            [_roles(client, h5, org)]]
    return rows


def probe_members_leave_and_org_deletion(client):
    h = _login(client, U3)
    org = _org(client, h, "leaving org", [(U1, "member"), (U2, "admin")])
    h1, h2 = _login(client, U1), _login(client, U2)
    rows = [_row(client.delete(f"/orgs/{org}/members/{U1}", headers=h1)),
            _row(client.get(f"/orgs/{org}", headers=h1)),
            _row(client.delete(f"/orgs/{org}/members/{U2}", headers=h2)),
            _row(client.delete(f"/orgs/{org}/members/{U1}", headers=h)),
            _row(client.delete(f"/orgs/{org}/members/nobody", headers=h)),
            _row(client.get(f"/orgs/{org}", headers=h)),
            _row(client.delete(f"/orgs/{org}", headers=h)),
            _row(client.get(f"/orgs/{org}", headers=h)),
            _row(client.delete(f"/orgs/{org}", headers=h)),
            [org in client.get("/me", headers=h).json()["orgs"]]]
    again = client.post("/orgs", json={"name": "after delete"}, headers=h).json()["id"]
    rows.append([again > org])
    return rows


def probe_member_limit(client):
    h = _login(client, U1)
    org = _org(client, h, "full org")
    people = [U2, U3, U4, U5, U6, U7]
    rows = []
    for user in people[:MAX_MEMBERS - 1]:
        rows.append(_row(client.post(f"/orgs/{org}/members", json={"user": user}, headers=h)))
    for user in people[MAX_MEMBERS - 1:]:
        rows.append(_row(client.post(f"/orgs/{org}/members", json={"user": user}, headers=h)))
    rows.append(_row(client.post(f"/orgs/{org}/members", json={"user": U2}, headers=h)))
    rows.append(_row(client.get(f"/orgs/{org}", headers=h)))
    client.delete(f"/orgs/{org}/members/{people[0]}", headers=h)
    rows.append(_row(client.post(f"/orgs/{org}/members", json={"user": people[MAX_MEMBERS - 1]},
                                 headers=h)))
    return rows


def probe_checks_in_order(client):
    h = _login(client, U1)
    org = _org(client, h, "order org", [(U2, "member"), (U3, "admin")])
    hm, ha, h5 = _login(client, U2), _login(client, U3), _login(client, U5)
    return [_row(client.post(f"/orgs/{org}/members", json={"user": 5, "role": "x"})),
            _row(client.post(f"/orgs/{org}/members", json={"user": 5}, headers=h5)),
            _row(client.post(f"/orgs/{org}/members", json={"user": 5}, headers=hm)),
            _row(client.post(f"/orgs/{org}/members", json={"user": U4, "role": "x"}, headers=ha)),
            _row(client.post(f"/orgs/{org}/members", json={"user": "ghost", "role": "owner"},
                             headers=ha)),
            _row(client.post(f"/orgs/{org}/members", json={"user": U2, "role": "owner"},
                             headers=ha)),
            _row(client.patch(f"/orgs/{org}/members/{U5}", json={"role": "x"}, headers=hm)),
            _row(client.patch(f"/orgs/{org}/members/{U5}", json={"role": "x"}, headers=h)),
            _row(client.patch(f"/orgs/{org}/members/{U1}", json={"role": "x"}, headers=ha)),
            _row(client.patch(f"/orgs/{org}", json={"name": ""}, headers=hm)),
            _row(client.delete(f"/orgs/{org}", headers=ha)),
            _row(client.delete("/orgs/987654", headers=ha)),
            _row(client.patch(f"/orgs/{org}/members/{U5}", json={"role": "admin"}, headers=ha)),
            _row(client.delete(f"/orgs/{org}/members/{U5}", headers=hm))]
'''

PROMPT = '''\
Build an API for organisations and their members. Seven users exist, each with a password:
${user_table}

**Sessions.** `POST /login` `{"user", "password"}` (both exactly as in the table) starts a
session: sessions are numbered 1, 2, 3, ... across all users, and the answer is 200
`{"token": "<user>.<n>.<signature>"}`, where `<n>` is the session number in decimal and the
signature is the lower-case hexadecimal HMAC-SHA256 of the text `<user>.<n>` under the key
`${secret}` (UTF-8). A wrong user or password is 401. Every other route needs
`Authorization: Bearer <token>` exactly so (the scheme as written, one space), where the token
is exactly one that login issued (same user, same session number written the same way, same
signature) for a session still active; anything else is 401. `POST /logout` ends the caller's
session (204); its token is then rejected. `GET /me` is 200
`{"user", "session", "orgs"}`: the session number and the ids of the caller's organisations,
ascending.

**Errors** have the body `{"status": <status code>, "code": <code>}`: 401 `"unauthenticated"`,
403 `"forbidden"`, 404 `"not_found"`, 409 `"conflict"`, `"full"` or `"last_owner"`, and 422
`"invalid"` for any body, path or query parameter that is not valid as described. A body with
any field not listed for its route is 422.

**Organisations.** `{"id", "name", "members"}`, members being how many it has; names are
${name_min}-${name_max} characters. Ids count 1, 2, 3, ... and are never reused. Each member
has one role: `owner`, `admin` or `member`. An organisation the caller is not a member of is
404 on every route, as if it did not exist.

**Who may do what.** Any member reads the organisation and its members and may leave it
(remove themselves). Owners and admins rename it; only owners delete it. Owners add anyone
with any role, change any other member's role and remove anyone. An admin manages plain
members only: adds users with role ${grants_text}, changes a `member`'s role to
${grants_text}, and removes `member`s; any other add, change or removal by an admin is 403.
Members manage no one (403). Nobody changes their own role except an owner. An organisation
always keeps at least one owner: demoting or removing its last owner (the owner themselves
included) is 409 `"last_owner"`. An organisation has at most ${max_members} members.

**Routes.**
- `POST /orgs` `{"name"}`: 201 with the organisation; the caller is its owner.
- `GET /orgs`: 200, the caller's organisations by id, each with `"role"` (the caller's) added.
- `GET /orgs/{id}`: 200 with it. `PATCH /orgs/{id}` `{"name"}`: 200 with it.
  `DELETE /orgs/{id}`: 204.
- `GET /orgs/{id}/members`: 200, `[{"user", "role"}]` ${order_text}.
- `POST /orgs/{id}/members` `{"user", "role"?}` (role default `member`): 201 `{"user", "role"}`.
  An unknown user is 422; a user already in it is 409 `"conflict"`; adding to a full one is 409
  `"full"`.
- `PATCH /orgs/{id}/members/{user}` `{"role"}`: 200 `{"user", "role"}`.
- `DELETE /orgs/{id}/members/{user}`: 204. A user who is not a member (on either route) is 404.

When several failures apply, the first of these wins: 401; 404 for the organisation; 403 for
a caller whose role may never use the route (a plain member adding members, changing roles
or renaming; an admin deleting); 422; 404 for the named member; any other 403; 409. When
adding, an unknown user (422) comes before the 403 for a role the caller may not grant, and
a user already in it (`"conflict"`) before `"full"`.

`result`: rows, as `${u1}` (after logging in with their password) unless said otherwise:
1. `[token]`, the token from `POST /login` with `${u1}`'s password
2. `[status code, JSON body]` of `POST /login` for `${u1}` with `${u2}`'s password
3. `[status code, JSON body]` of `POST /orgs` with `{"name": "${org1}"}`
4. `[status code, JSON body]` of `POST /orgs/1/members` with `{"user": "${u2}"}`
5. `[status code, JSON body]` of `GET /orgs/1/members`
6. `[status code, JSON body]` of `GET /orgs/1` with the token from row 1 followed by `x`
'''

_USERS = [["ada", "bo", "cy", "di", "ed", "fay", "gus"],
          ["kai", "lia", "max", "noa", "oli", "pat", "quin"]]
_PASSWORDS = ["pw-{}-1", "{}!secret"]


def _derive(p):
    users = _USERS[p["user_set"]]
    passwords = {u: _PASSWORDS[p["user_set"]].format(u) for u in users}
    grants = p["admin_grants"]
    return {
        "users": users, "u1": users[0], "u2": users[1],
        "p1": passwords[users[0]], "p2": passwords[users[1]], "passwords": passwords,
        "user_table": "\n".join(["", "| user | password |", "|---|---|"]
                                + [f"| `{u}` | `{pw}` |" for u, pw in passwords.items()]),
        "grants_text": " or ".join(f"`{g}`" for g in grants),
        "member_key": "lambda user: (RANK[people[user]], user)" if p["by_rank"] else "None",
        "order_text": ("owners first, then admins, then members, each group by user name"
                       if p["by_rank"] else "by user name"),
    }


_SELF_RULE = '''    if user == actor:
        if actor_role != "owner":
            raise error(403, "forbidden")'''
_LAST_OWNER_PATCH = '''    if old_role == "owner" and body.role != "owner" and owners(org_id) == 1:
        raise error(409, "last_owner")'''
_LAST_OWNER_DELETE = '''    if old_role == "owner" and owners(org_id) == 1:
        raise error(409, "last_owner")
    del'''
_OWNER_GRANTS = '''    if actor_role == "owner":
        return True'''
_ADD_CHECKS = '''    if not may_set(actor_role, None, body.role):
        raise error(403, "forbidden")
    if body.user in members[org_id]:
        raise error(409, "conflict")'''

FAMILY = Family(
    id="security/org_members",
    title="Organisations whose roles resist escalation, mass assignment and forged tokens",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"user_set": 0, "secret": "org-key-1", "admin_grants": ["member"],
              "max_members": 5, "by_rank": False, "name_min": 3, "name_max": 40,
              "org1": "Acme"},
    space={
        "user_set": [0, 1],
        "secret": ["org-key-1", "s3cr3t/x"],
        "admin_grants": [["member"], ["member", "admin"]],
        "max_members": [5, 6],
        "by_rank": [False, True],
        "name_min": [{"name_min": 3, "name_max": 40}, {"name_min": 2, "name_max": 24}],
        "org1": ["Acme", "Initech"],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement(
            "Login checks user and password exactly (else 401) and answers a token "
            "`<user>.<n>.<signature>` with sessions numbered 1, 2, 3, ... and the lower-case "
            "hex HMAC-SHA256 signature of `<user>.<n>`.",
            probes=("login",),
            traps=(Edit("user name case ignored",
                        "    if PASSWORDS.get(body.user) != body.password:",
                        "    if PASSWORDS.get(body.user.lower()) != body.password:"),
                   Edit("upper-case signature", "hashlib.sha256).hexdigest()",
                        "hashlib.sha256).hexdigest().upper()"),
                   Edit("password trimmed", "    if PASSWORDS.get(body.user) != body.password:",
                        "    if PASSWORDS.get(body.user) != body.password.strip():")),
            security=True),
        Requirement(
            "Only a token exactly as login issued it, for a session still active and of that "
            "user, is accepted; any altered, re-signed or malformed token is 401.",
            probes=("tokens_cannot_be_forged",),
            traps=(Edit("signature is enough", "            or sessions.get(int(number)) != user):",
                        "            or False):"),
                   Edit("signature case ignored",
                        "hmac.compare_digest(sig.encode(), signature(",
                        "hmac.compare_digest(sig.lower().encode(), signature("),
                   Edit("session number loosely read", ' or number != str(int(number))', ''),
                   Edit("scheme case ignored", 'if (scheme != "Bearer" or',
                        'if (scheme.lower() != "bearer" or')),
            security=True),
        Requirement(
            "Logout (204) ends only the caller's session: its token is 401 afterwards, the "
            "user's other sessions go on, and numbers are not reused.",
            probes=("logout_ends_the_session",),
            traps=(Edit("logout keeps the session", "    del sessions[session[1]]", "    pass"),
                   Edit("logout ends every session", "    del sessions[session[1]]",
                        "    for number in [n for n, u in sessions.items() if u == session[0]]:\n"
                        "        del sessions[number]")),
            security=True),
        Requirement(
            "An organisation the caller is not a member of is 404 on every route and absent "
            "from their `/orgs` and `/me`.",
            probes=("orgs_and_membership",),
            traps=(Edit("any org readable", """    role = members.get(org_id, {}).get(user)
    if role is None:""", """    if org_id not in members:
        raise error(404, "not_found")
    role = members[org_id].get(user, "member")
    if role is None:"""),
                   Edit("outsiders told 403", """    if role is None:
        raise error(404, "not_found")
    return org_id, user, role""", """    if role is None:
        raise error(403 if org_id in members else 404,
                    "forbidden" if org_id in members else "not_found")
    return org_id, user, role""")),
            security=True),
        Requirement(
            "Organisation names are ${name_min}-${name_max} characters on creation and rename; "
            "a new organisation is 201 with its creator as owner.",
            probes=("org_names",),
            traps=(Edit("name unbounded",
                        "name: str = Field(min_length=${name_min}, max_length=${name_max})",
                        "name: str = Field(min_length=${name_min})"),
                   Edit("name minimum off", "min_length=${name_min}, max_length",
                        lambda p: f"min_length={p['name_min'] - 1}, max_length"))),
        Requirement(
            "A body can never set a role, owner, org id or flag it does not list: any unlisted "
            "field is 422, on every route that takes a body.",
            probes=("bodies_cannot_set_protected_fields",),
            traps=(extras_ignored("member body ignores extras", "MemberIn", "Strict"),
                   extras_ignored("role body ignores extras", "RoleIn", "Strict"),
                   extras_ignored("org body ignores extras", "OrgIn", "Strict")),
            security=True),
        Requirement(
            "Members are listed ${order_text}; `GET /orgs` gives the caller's role and each "
            "organisation counts its members.",
            probes=("members_listing",),
            traps=(Edit("other member order", "key=${member_key})",
                        lambda p: "key=" + ("None" if p["by_rank"] else
                                            "lambda user: (RANK[people[user]], user)") + ")"),
                   Edit("member count off", '"members": len(members[org_id])}',
                        '"members": len(members[org_id]) - 1}'))),
        Requirement(
            "An owner adds anyone with any role (default `member`) and changes any other "
            "member's role; unknown users and roles are 422, a second add 409 `conflict`.",
            probes=("owner_grants_anything",),
            traps=(Edit("owners cannot grant owner", _OWNER_GRANTS,
                        '    if actor_role == "owner":\n        return new_role != "owner"'),
                   Edit("default role admin", 'role: Role = "member"', 'role: Role = "admin"'),
                   Edit("unknown users added", """    if body.user not in PASSWORDS:
        raise RequestValidationError([{"type": "user", "loc": ("body", "user")}])
""", ""))),
        Requirement(
            "An admin adds users only as ${grants_text}, changes only a `member`'s role and "
            "only to ${grants_text}, removes only `member`s, and cannot delete the "
            "organisation (403).",
            probes=("admins_manage_only_members",),
            traps=(Edit("admins grant any role", _OWNER_GRANTS,
                        '    if actor_role in ("owner", "admin"):\n        return True'),
                   Edit("admins change admins", 'return old_role in (None, "member") and',
                        'return old_role != "owner" and'),
                   Edit("admins remove admins",
                        '(actor_role == "admin" and old_role != "member")',
                        '(actor_role == "admin" and old_role == "owner")'),
                   Edit("admins delete", "def delete_org(member: Annotated[tuple[int, str, str], "
                        "Depends(owner)]):", "def delete_org(member: Manager):")),
            security=True),
        Requirement(
            "Nobody but an owner changes their own role, and plain members manage no one "
            "(403).",
            probes=("nobody_promotes_themselves",),
            traps=(Edit("self changes allowed", '        allowed = actor_role == "owner"',
                        "        allowed = True"),
                   Edit("members may add members", "def add_member(member: Manager, "
                        "body: MemberIn):", "def add_member(member: Member, body: MemberIn):\n"
                        "    member = (member[0], member[1], \"admin\" if member[2] == "
                        "\"member\" else member[2])")),
            security=True),
        Requirement(
            "Demoting or removing an organisation's last owner is 409 `last_owner`, whoever "
            "asks; with another owner it is allowed.",
            probes=("last_owner_stays",),
            traps=(Edit("last owner demotable", _LAST_OWNER_PATCH + "\n", ""),
                   Edit("last owner may leave", _LAST_OWNER_DELETE, "    del"),
                   Edit("members counted as owners",
                        'and body.role != "owner" and owners(org_id) == 1:',
                        'and body.role != "owner" and len(members[org_id]) == 1:')),
            security=True),
        Requirement(
            "Any member may leave (204); an owner deletes the organisation (204, then 404); "
            "organisation ids are never reused.",
            probes=("members_leave_and_org_deletion",),
            traps=(Edit("members cannot leave", "    if user != actor and (actor_role == "
                        '"member"', '    if (actor_role == "member"'),
                   Edit("org ids reused", "    last_org[0] += 1\n",
                        "    last_org[0] = max(orgs, default=0) + 1\n"))),
        Requirement(
            "An organisation has at most ${max_members} members: one more is 409 `full`, after "
            "`conflict`; leaving frees a place.",
            probes=("member_limit",),
            traps=(Edit("limit off by one", "    if len(members[org_id]) >= MAX_MEMBERS:",
                        "    if len(members[org_id]) > MAX_MEMBERS:"),
                   Edit("full before conflict", _ADD_CHECKS + """
    if len(members[org_id]) >= MAX_MEMBERS:
        raise error(409, "full")""", """    if not may_set(actor_role, None, body.role):
        raise error(403, "forbidden")
    if len(members[org_id]) >= MAX_MEMBERS:
        raise error(409, "full")
    if body.user in members[org_id]:
        raise error(409, "conflict")"""))),
        Requirement(
            "With several failures: 401; 404 for the organisation; 403 for a role that may "
            "never use the route; 422; 404 for the named member; other 403s; 409.",
            probes=("checks_in_order",),
            traps=(Edit("role changes validated first",
                        "def change_role(member: Manager, user: str, body: RoleIn):",
                        "def change_role(member: Member, user: str, body: RoleIn):\n"
                        "    manager(member)"),
                   Edit("grant checked before the user",
                        """    if body.user not in PASSWORDS:
        raise RequestValidationError([{"type": "user", "loc": ("body", "user")}])
    if not may_set(actor_role, None, body.role):
        raise error(403, "forbidden")""", """    if not may_set(actor_role, None, body.role):
        raise error(403, "forbidden")
    if body.user not in PASSWORDS:
        raise RequestValidationError([{"type": "user", "loc": ("body", "user")}])"""),
                   Edit("rule before the named member", """    old_role = target_role(org_id, user)
    if user != actor and""", """    old_role = members[org_id].get(user, "owner")
    if user != actor and"""))),
    ),
)
