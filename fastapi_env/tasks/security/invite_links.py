"""Security tier: organisations that grow through signed invitation links. Hidden probes try
forged, tampered and re-signed tokens (a role or organisation changed, Unicode digits,
non-ASCII signatures), replays by a member, links used up or revoked, role escalation through
the invite, mass assignment, lax integers, and reading or revoking another organisation's
invites."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_OF_BODY_OR_NONE
from fastapi_env.tasks.security._error_handlers import ERROR_HANDLERS
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import hashlib
import hmac
import re
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StrictInt

NAMES = ["${admin_a}", "${member_a}", "${admin_b}", "${outsider}"]
TOKENS = {f"t-{name}": name for name in NAMES + [f"guest{n}" for n in range(1, 13)]}
LOW, HIGH = "${low}", "${high}"
MEMBERS = {1: {"${admin_a}": HIGH, "${member_a}": LOW}, 2: {"${admin_b}": HIGH}}
KEY = b"${key}"
INVITES: dict[int, dict] = {}
NEXT_ID = [1]
NUMBER = re.compile(r"[1-9][0-9]*")  # ASCII digits only: `\\\\d` also matches other scripts' digits

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

''' + ERROR_HANDLERS + '''

def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "unauthorized")
    return TOKENS[token]


User = Annotated[str, Depends(caller)]


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["${low}", "${high}"]
    max_uses: StrictInt = Field(1, ge=1, le=${max_uses_cap})


class AcceptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str


def signature(invite_id: str, org_id: str, role: str) -> str:
    message = f"{invite_id}.{org_id}.{role}".encode()
    return hmac.new(KEY, message, hashlib.sha256).hexdigest()[:${sig_len}]


def role_in(org_id: int, user: str) -> str:
    role = MEMBERS.get(org_id, {}).get(user)
    if role is None:  # an organisation the caller is not in does not exist for them
        raise HTTPException(404, "unknown_org")
    return role


def admin_of(org_id: int, user: str) -> None:
    if role_in(org_id, user) != HIGH:
        raise HTTPException(403, "forbidden")


def shown(invite: dict) -> dict:
    return {k: invite[k] for k in ("id", "role", "max_uses", "uses", "revoked")}


@app.post("/orgs/{org_id}/invites", status_code=201)
def create_invite(org_id: int, body: InviteIn, user: User):
    role = role_in(org_id, user)
    if role != HIGH and (body.role == HIGH or not ${members_invite}):
        raise HTTPException(403, "forbidden")
    invite = {"id": NEXT_ID[0], "org_id": org_id, "role": body.role,
              "max_uses": body.max_uses, "uses": 0, "revoked": False}
    NEXT_ID[0] += 1
    INVITES[invite["id"]] = invite
    token = f"{invite['id']}.{org_id}.{body.role}."
    token += signature(str(invite["id"]), str(org_id), body.role)
    return {k: invite[k] for k in ("id", "org_id", "role", "max_uses", "uses")} | {"token": token}


@app.get("/orgs/{org_id}/invites")
def list_invites(org_id: int, user: User):
    admin_of(org_id, user)
    return [shown(i) for _, i in sorted(INVITES.items()) if i["org_id"] == org_id]


@app.delete("/orgs/{org_id}/invites/{invite_id}", status_code=204)
def revoke(org_id: int, invite_id: int, user: User):
    admin_of(org_id, user)
    invite = INVITES.get(invite_id)
    if invite is None or invite["org_id"] != org_id:
        raise HTTPException(404, "unknown_invite")
    invite["revoked"] = True
    return Response(status_code=204)


@app.get("/orgs/{org_id}/members")
def members(org_id: int, user: User):
    role_in(org_id, user)
    return [{"user": name, "role": role} for name, role in sorted(MEMBERS[org_id].items())]


@app.post("/invites/accept")
def accept(body: AcceptIn, user: User):
    parts = body.token.split(".")
    if (len(parts) != 4 or not NUMBER.fullmatch(parts[0]) or not NUMBER.fullmatch(parts[1])
            or parts[2] not in (LOW, HIGH)):
        raise HTTPException(400, "malformed")
    invite_id, org_id, role, given = parts
    expected = signature(invite_id, org_id, role)
    if not hmac.compare_digest(given.encode(), expected.encode()):  # bytes: str must be ASCII
        raise HTTPException(403, "bad_signature")
    invite = INVITES.get(int(invite_id))
    # The token's claims must match what was stored: never trust its role or organisation.
    if invite is None or invite["org_id"] != int(org_id) or invite["role"] != role:
        raise HTTPException(404, "unknown_invite")
    if invite["revoked"]:
        raise HTTPException(410, "revoked")
    if invite["uses"] >= invite["max_uses"]:
        raise HTTPException(410, "used_up")
    if user in MEMBERS[invite["org_id"]]:
        raise HTTPException(409, "already_member")
    invite["uses"] += 1
    MEMBERS[invite["org_id"]][user] = invite["role"]
    return {"org_id": invite["org_id"], "role": invite["role"],
            "uses_left": invite["max_uses"] - invite["uses"]}


client = TestClient(app)
made = client.post("/orgs/1/invites", json={"role": "${low}", "max_uses": 2},
                   headers={"Authorization": "Bearer t-${admin_a}"})
token = made.json()["token"]
result = [
    [made.status_code, {k: v for k, v in made.json().items() if k != "token"}, token],
    [client.post("/invites/accept", json={"token": token},
                 headers={"Authorization": "Bearer t-${outsider}"}).json()],
    [client.get("/orgs/1/members", headers={"Authorization": "Bearer t-${outsider}"}).json()],
]
'''

PROBES = ROWS_OF_BODY_OR_NONE + '''\
import hashlib
import hmac

ADMIN_A = {"Authorization": "Bearer t-${admin_a}"}
MEMBER_A = {"Authorization": "Bearer t-${member_a}"}
ADMIN_B = {"Authorization": "Bearer t-${admin_b}"}
OUTSIDER = {"Authorization": "Bearer t-${outsider}"}
LOW, HIGH = "${low}", "${high}"


def _sign(invite_id, org_id, role):
    message = f"{invite_id}.{org_id}.{role}".encode()
    return hmac.new(b"${key}", message, hashlib.sha256).hexdigest()[:${sig_len}]


def _invite(client, org_id=1, role=LOW, max_uses=1, headers=ADMIN_A):
    made = client.post(f"/orgs/{org_id}/invites", json={"role": role, "max_uses": max_uses},
                       headers=headers).json()
    return made["id"], made["token"]


def _accept(client, token, headers=OUTSIDER):
    return _row(client.post("/invites/accept", json={"token": token}, headers=headers))


def _guest(number):
    """A user in no organisation yet: each probe accepts with guests of its own."""
    return {"Authorization": f"Bearer t-guest{number}"}


def probe_tokens_required(client):
    rows = []
    for headers in [{}, {"Authorization": "Bearer"}, {"Authorization": "Bearer t-ghost"},
                    {"Authorization": "bearer t-${admin_a}"}, {"Authorization": "t-${admin_a}"},
                    {"Authorization": "Bearer ${admin_a}"}]:
        rows.append(_row(client.post("/orgs/1/invites", json={"role": 5}, headers=headers)))
        rows.append(_row(client.post("/invites/accept", json={}, headers=headers)))
        rows.append(_row(client.get("/orgs/1/members", headers=headers)))
    return rows


def probe_invite_created(client):
    r = client.post("/orgs/1/invites", json={"role": HIGH, "max_uses": 3}, headers=ADMIN_A)
    body = r.json()
    expected = f"{body['id']}.1.{HIGH}." + _sign(body["id"], 1, HIGH)
    second = client.post("/orgs/1/invites", json={"role": LOW}, headers=ADMIN_A).json()
    return [[r.status_code, sorted(body), body["org_id"], body["role"], body["max_uses"],
             body["uses"], body["token"] == expected, second["id"] - body["id"],
             second["max_uses"], len(body["token"].split(".")[3])]]


def probe_max_uses_strict(client):
    rows = []
    for value in ["2", True, 2.0, 0, ${max_uses_cap}, ${max_uses_cap} + 1, -1, None]:
        r = client.post("/orgs/1/invites", json={"role": LOW, "max_uses": value}, headers=ADMIN_A)
        rows.append([value, r.status_code, _body(r).get("max_uses", _body(r))])
    return rows


def probe_orgs_isolated(client):
    theirs, _ = _invite(client, org_id=1)
    rows = []
    for method, path, body in [("POST", "/orgs/1/invites", {"role": LOW}),
                               ("GET", "/orgs/1/invites", None),
                               ("DELETE", f"/orgs/1/invites/{theirs}", None),
                               ("GET", "/orgs/1/members", None),
                               ("GET", "/orgs/99/members", None),
                               ("POST", "/orgs/99/invites", {"role": LOW})]:
        r = client.request(method, path, json=body, headers=ADMIN_B)
        rows.append([method, path.replace(str(theirs), "<id>"), _row(r)])
    rows.append(_row(client.get("/orgs/2/members", headers=OUTSIDER)))
    rows.append([[i["revoked"] for i in client.get("/orgs/1/invites", headers=ADMIN_A).json()
                  if i["id"] == theirs]])
    return rows


def probe_no_escalation_by_invite(client):
    rows = []
    for role in [HIGH, LOW]:
        r = client.post("/orgs/1/invites", json={"role": role}, headers=MEMBER_A)
        rows.append([role, r.status_code, _body(r).get("error", "created")])
    rows.append(_row(client.get("/orgs/1/invites", headers=MEMBER_A)))
    rows.append(_row(client.delete("/orgs/1/invites/1", headers=MEMBER_A)))
    return rows


def probe_no_mass_assignment(client):
    rows = []
    for body in [{"role": LOW, "org_id": 2}, {"role": LOW, "uses": -5},
                 {"role": LOW, "token": "x"}, {"role": "root"}, {}, {"role": LOW.upper()}]:
        r = client.post("/orgs/1/invites", json=body, headers=ADMIN_A)
        rows.append([sorted(body), _row(r)])
    rows.append(_row(client.post("/invites/accept", json={"token": "1.1.x.y", "role": HIGH},
                                 headers=OUTSIDER)))
    return rows


def probe_malformed_tokens(client):
    invite_id, token = _invite(client)
    sig = token.split(".")[3]
    arabic_one = "\\u0661"
    rows = []
    for label, text in [("three parts", f"{invite_id}.1.{LOW}"), ("five parts", token + ".x"),
                        ("empty", ""), ("leading zero", f"0{invite_id}.1.{LOW}.{sig}"),
                        ("arabic-indic digits", f"{invite_id}.{arabic_one}.{LOW}.{_sign(invite_id, arabic_one, LOW)}"),
                        ("plus sign", f"+{invite_id}.1.{LOW}.{_sign('+' + str(invite_id), 1, LOW)}"),
                        ("space", f" {invite_id}.1.{LOW}.{sig}"), ("unknown role", f"{invite_id}.1.root.{sig}"),
                        ("role in upper case", f"{invite_id}.1.{LOW.upper()}.{sig}")]:
        rows.append([label, _accept(client, text)])
    rows.append(_row(client.post("/invites/accept", json={"token": 7}, headers=OUTSIDER)))
    return rows


def probe_signatures_exact(client):
    invite_id, token = _invite(client, max_uses=2)
    sig = token.split(".")[3]
    rows = []
    for label, text in [("role changed", f"{invite_id}.1.{HIGH}.{sig}"),
                        ("org changed", f"{invite_id}.2.{LOW}.{sig}"),
                        ("id changed", f"{invite_id + 1000}.1.{LOW}.{sig}"),
                        ("upper-case hex", token[: -len(sig)] + sig.upper()),
                        ("truncated", token[:-1]), ("empty signature", token[: -len(sig)]),
                        ("non-ASCII signature", token[: -len(sig)] + "\\u00e9" * len(sig)),
                        ("another key", token[: -len(sig)] + hmac.new(b"guess", f"{invite_id}.1.{LOW}".encode(), hashlib.sha256).hexdigest()[:${sig_len}])]:
        rows.append([label, _accept(client, text)])
    rows.append(_accept(client, token, _guest(1)))
    return rows


def probe_claims_checked(client):
    invite_id, token = _invite(client, role=LOW, max_uses=3)
    rows = []
    for label, claims in [("role raised", (invite_id, 1, HIGH)), ("other org", (invite_id, 2, LOW)),
                          ("no such invite", (invite_id + 1000, 1, LOW))]:
        forged = ".".join(str(c) for c in claims) + "." + _sign(*claims)
        rows.append([label, _accept(client, forged, _guest(2))])
    rows.append(_row(client.get("/orgs/2/members", headers=_guest(2))))
    return rows


def probe_revocation(client):
    invite_id, token = _invite(client, max_uses=2)
    other_org_id, _ = _invite(client, org_id=2, headers=ADMIN_B)
    rows = [_row(client.delete(f"/orgs/2/invites/{invite_id}", headers=ADMIN_B)),
            _row(client.delete(f"/orgs/1/invites/{other_org_id}", headers=ADMIN_A)),
            _row(client.delete("/orgs/1/invites/99999", headers=ADMIN_A)),
            _row(client.delete(f"/orgs/1/invites/{invite_id}", headers=ADMIN_A)),
            _row(client.delete(f"/orgs/1/invites/{invite_id}", headers=ADMIN_A)),
            _accept(client, token, _guest(3))]
    return rows


def probe_uses_counted(client):
    invite_id, token = _invite(client, org_id=2, max_uses=2, headers=ADMIN_B)
    rows = [_accept(client, token, _guest(4)), _accept(client, token, _guest(5)),
            _accept(client, token, _guest(6))]
    listed = [i for i in client.get("/orgs/2/invites", headers=ADMIN_B).json() if i["id"] == invite_id]
    rows.append([listed[0]["uses"], listed[0]["max_uses"]])
    return rows


def probe_members_do_not_replay(client):
    invite_id, token = _invite(client, org_id=2, role=HIGH, max_uses=2, headers=ADMIN_B)
    low_id, low = _invite(client, org_id=2, role=LOW, max_uses=2, headers=ADMIN_B)
    rows = [_accept(client, low, _guest(7)), _accept(client, low, _guest(7)),
            _accept(client, token, _guest(7)), _accept(client, token, ADMIN_B)]
    listed = {i["id"]: i["uses"] for i in client.get("/orgs/2/invites", headers=ADMIN_B).json()}
    rows.append([listed[invite_id], listed[low_id]])
    return rows


def probe_accept_order(client):
    invite_id, token = _invite(client, max_uses=1)
    rows = [_accept(client, token, _guest(8))]
    client.delete(f"/orgs/1/invites/{invite_id}", headers=ADMIN_A)
    rows.append(_accept(client, token, ADMIN_B))
    rows.append(_accept(client, token, ADMIN_A))
    _, used = _invite(client, max_uses=1)
    rows.append(_accept(client, used, _guest(9)))
    rows.append(_accept(client, used, ADMIN_A))
    return rows


def probe_members_listed(client):
    _, token = _invite(client, org_id=2, role=LOW, headers=ADMIN_B)
    joined = _accept(client, token, _guest(10))
    listed = client.get("/orgs/2/members", headers=_guest(10)).json()
    names = [m["user"] for m in listed]
    return [joined, [names == sorted(names), {"user": "guest10", "role": LOW} in listed,
                     {"user": "${admin_b}", "role": HIGH} in listed],
            _row(client.get("/orgs/1/members", headers=_guest(10)))]


def probe_invites_listed(client):
    first, _ = _invite(client, org_id=2, role=HIGH, max_uses=3, headers=ADMIN_B)
    second, token = _invite(client, org_id=2, role=LOW, headers=ADMIN_B)
    elsewhere, _ = _invite(client, org_id=1)
    client.delete(f"/orgs/2/invites/{first}", headers=ADMIN_B)
    _accept(client, token, _guest(11))
    listed = client.get("/orgs/2/invites", headers=ADMIN_B).json()
    ids = [i["id"] for i in listed]
    return [[[{k: v for k, v in i.items() if k != "id"} for i in listed
              if i["id"] in (first, second)]], [sorted(listed[0]), elsewhere in ids,
                                                ids == sorted(ids)]]
''' + late_body.probe_source(
    [("POST", "/orgs/1/invites"), ("POST", "/invites/accept")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer t-ghost"}'),
     ("${low}", "MEMBER_A"), ("${high}", "ADMIN_A")])

PROMPT = '''\
Build the HTTP API of a workspace where organisations grow through signed invitation links.
State is in memory.

## Users, organisations, errors
Requests carry `Authorization: Bearer t-<name>` for one of the users `${admin_a}`,
`${member_a}`, `${admin_b}`, `${outsider}` and `guest1` to `guest12` (so `${admin_a}` sends
`Authorization: Bearer t-${admin_a}`, the word `Bearer` spelt exactly so); anything else
(missing, another scheme or spelling such as `bearer`, an unknown name)
is 401 `unauthorized`, before any other check (a body that is not JSON included). Organisation 1 starts with `${admin_a}` (role
`${high}`) and `${member_a}` (role `${low}`); organisation 2 with `${admin_b}` (`${high}`);
the others belong to none.
Every error body is `{"error": <code>}`; an invalid body (one that is not JSON included) or
path is 422 `invalid` (checked before the rules below). An organisation the caller does not belong to is answered exactly
like one that does not exist: 404 `unknown_org`, on every `/orgs/...` route. A `${high}`-only
route used by a `${low}` is 403 `forbidden`.

## Invitations
- `POST /orgs/{org_id}/invites` `{"role", "max_uses"}` and no other field: `role` is
  `${low}` or `${high}`; `max_uses` a JSON integer from 1 to ${max_uses_cap} (default 1; a
  string, a float such as `2.0` or a boolean is invalid). ${members_rule} 201 with
  `{"id", "org_id", "role", "max_uses", "uses", "token"}`: `uses` 0, ids 1, 2, ... over all
  organisations in creation order. The token is `<id>.<org_id>.<role>.<signature>`, the
  signature being the first ${sig_len} characters of the lowercase hex HMAC-SHA256, keyed with
  the bytes of `${key}`, of the text `<id>.<org_id>.<role>`. Only this answer shows a token.
- `GET /orgs/{org_id}/invites` (`${high}` only): 200, the organisation's invitations by id,
  each `{"id", "role", "max_uses", "uses", "revoked"}`.
- `DELETE /orgs/{org_id}/invites/{invite_id}` (`${high}` only): 204, empty body; the
  invitation is revoked (again: 204). An invitation of another organisation, or none, is 404
  `unknown_invite`.
- `GET /orgs/{org_id}/members`: 200, `[{"user", "role"}, ...]` ordered by user name.

## Accepting
`POST /invites/accept` `{"token"}` and no other field (any listed user; an invalid body is
the 422 above), then checked in this order:
1. 400 `malformed` unless the token is four `.`-separated parts: the id and the organisation
   id written with the ASCII digits `0`-`9` and no leading zero, the role `${low}` or
   `${high}` exactly;
2. 403 `bad_signature` unless the fourth part is exactly the signature of the first three;
3. 404 `unknown_invite` unless an invitation with this id exists for this organisation with
   this role (a token is never trusted beyond what was stored);
4. 410 `revoked`; 5. 410 `used_up` once it has been accepted `max_uses` times;
6. 409 `already_member` when the caller already belongs to the organisation (with any role:
   an invitation never changes a member's role, and this uses nothing up).
Then the caller joins the organisation with the invitation's role: 200
`{"org_id", "role", "uses_left"}`.

## result
`${admin_a}` creates `{"role": "${low}", "max_uses": 2}` in organisation 1; rows:
1. `[status code, the body without "token", the token]`;
2. `[body]` of `${outsider}` accepting that token;
3. `[body]` of `GET /orgs/1/members` as `${outsider}`.
'''

_MEMBERS_SHORT = {True: "a `${low}` invites only `${low}`s.", False: "only a `${high}` invites."}
_MEMBERS_RULE = {
    True: "A `${low}` may invite only `${low}`s (inviting a `${high}` is 403 `forbidden`); a "
          "`${high}` may invite either.",
    False: "Only a `${high}` may invite (anyone else in the organisation gets 403 `forbidden`).",
}


def _derive(p):
    rule = _MEMBERS_RULE[p["members_invite"]]
    short = _MEMBERS_SHORT[p["members_invite"]]
    return {"members_rule": rule.replace("${low}", p["low"]).replace("${high}", p["high"]),
            "members_short": short.replace("${low}", p["low"]).replace("${high}", p["high"])}


FAMILY = Family(
    id="security/invite_links",
    title="Signed invitation links that cannot be forged, replayed or used to climb roles",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"admin_a": "ada", "member_a": "max", "admin_b": "bea", "outsider": "otto",
              "low": "member", "high": "admin", "key": "invite-key-1", "sig_len": 32,
              "max_uses_cap": 5, "members_invite": True},
    space={
        "users": [{"admin_a": "ada", "member_a": "max", "admin_b": "bea", "outsider": "otto"},
                  {"admin_a": "rui", "member_a": "li", "admin_b": "zoe", "outsider": "kim"}],
        "roles": [{"low": "member", "high": "admin"}, {"low": "viewer", "high": "owner"}],
        "key": [{"key": "invite-key-1", "sig_len": 32}, {"key": "k2-links", "sig_len": 20}],
        "max_uses_cap": [5, 10],
        "members_invite": [True, False],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("Every route needs `Authorization: Bearer t-<listed name>`; else 401 "
                    "`unauthorized`, before any other check.",
                    probes="tokens_required", security=True,
                    traps=(Edit("bearer scheme in any case",
                                '    if scheme != "Bearer" or token not in TOKENS:',
                                '    if scheme.lower() != "bearer" or token not in TOKENS:'),
                           Edit("token checked after the body",
                                "def accept(body: AcceptIn, user: User):\n",
                                "def accept(body: AcceptIn, authorization: Annotated[str | None, Header()] = None):\n"
                                "    user = caller(authorization)\n"))),
        Requirement("The token is checked before the body, even a body that is not JSON (then "
                    "422 `invalid`, before the role and organisation rules).",
                    probes="credentials_before_json", security=True,
                    traps=late_body.body_decoded_first()),
        Requirement("Creating an invitation answers 201 with its fields and a token signed as "
                    "stated.",
                    probes="invite_created",
                    traps=Edit("signature without the organisation",
                               '    message = f"{invite_id}.{org_id}.{role}".encode()\n    return hmac',
                               '    message = f"{invite_id}.{role}".encode()\n    return hmac')),
        Requirement("`max_uses` is a JSON integer from 1 to ${max_uses_cap}: strings, floats "
                    "and booleans are invalid.",
                    probes="max_uses_strict",
                    traps=(Edit("lax integer", "    max_uses: StrictInt = Field(", "    max_uses: int = Field("),
                           Edit("cap off by one", "Field(1, ge=1, le=${max_uses_cap})",
                                "Field(1, ge=1, le=${max_uses_cap} - 1)"))),
        Requirement("Another organisation is 404 `unknown_org` on every route, whatever the "
                    "caller's role elsewhere.",
                    probes="orgs_isolated", security=True,
                    traps=(Edit("any organisation's admin",
                                "    if role_in(org_id, user) != HIGH:",
                                "    if HIGH not in [m.get(user) for m in MEMBERS.values()]:"),
                           Edit("members of any organisation listed",
                                "    role_in(org_id, user)\n    return [",
                                "    if org_id not in MEMBERS:\n        raise HTTPException(404, \"unknown_org\")\n    return ["))),
        Requirement("An invitation never grants more than its creator may: ${members_short}",
                    probes="no_escalation_by_invite", security=True,
                    traps=Edit("anyone invites any role",
                               "    if role != HIGH and (body.role == HIGH or not ${members_invite}):",
                               "    if role != HIGH and body.role == HIGH and False:")),
        Requirement("Bodies with any other field are 422 `invalid` (no body sets an "
                    "organisation, a use count or a token).",
                    probes="no_mass_assignment", security=True,
                    traps=extras_ignored("invite body ignores extra fields", "InviteIn")),
        Requirement("A token not of the stated shape (ASCII digits, no leading zero, a known "
                    "role) is 400 `malformed`.",
                    probes="malformed_tokens",
                    traps=(Edit("any Unicode digit", 'NUMBER = re.compile(r"[1-9][0-9]*")',
                                'NUMBER = re.compile(r"[1-9]\\d*|\\d")'),
                           Edit("ids read with int()",
                                "not NUMBER.fullmatch(parts[0]) or not NUMBER.fullmatch(parts[1])",
                                "not parts[0].strip().lstrip('+').isdigit() or not parts[1].strip().isdigit()"))),
        Requirement("Only the exact signature is accepted; anything else is 403 "
                    "`bad_signature`.",
                    probes="signatures_exact", security=True,
                    traps=(Edit("signature compared as text",
                                "    if not hmac.compare_digest(given.encode(), expected.encode()):  # bytes: str must be ASCII\n",
                                "    if not hmac.compare_digest(given, expected):\n"),
                           Edit("signature in any case",
                                "    if not hmac.compare_digest(given.encode(), expected.encode()):  # bytes: str must be ASCII\n",
                                "    if given.lower() != expected:\n"))),
        Requirement("A correctly signed token is honoured only as stored: its role and "
                    "organisation must match the invitation's.",
                    probes="claims_checked", security=True,
                    traps=Edit("claims trusted",
                               '    if invite is None or invite["org_id"] != int(org_id) or invite["role"] != role:\n',
                               "    if invite is None:\n")),
        Requirement("A revoked invitation is 410 `revoked`; an invitation is revoked only "
                    "through its own organisation.",
                    probes="revocation", security=True,
                    traps=Edit("revoke by id alone",
                               '    if invite is None or invite["org_id"] != org_id:\n        raise HTTPException(404, "unknown_invite")',
                               '    if invite is None:\n        raise HTTPException(404, "unknown_invite")')),
        Requirement("An invitation takes exactly `max_uses` acceptances, then 410 `used_up`.",
                    probes="uses_counted", security=True,
                    traps=Edit("one use too many",
                               '    if invite["uses"] >= invite["max_uses"]:',
                               '    if invite["uses"] > invite["max_uses"]:')),
        Requirement("A member accepting again is 409 `already_member`: no role change, no use.",
                    probes="members_do_not_replay", security=True,
                    traps=(Edit("accepting again changes the role",
                                '    if user in MEMBERS[invite["org_id"]]:\n        raise HTTPException(409, "already_member")\n',
                                '    if MEMBERS[invite["org_id"]].get(user) == invite["role"]:\n        raise HTTPException(409, "already_member")\n'),
                           Edit("use spent before the membership check",
                                '    if user in MEMBERS[invite["org_id"]]:\n        raise HTTPException(409, "already_member")\n    invite["uses"] += 1\n',
                                '    invite["uses"] += 1\n    if user in MEMBERS[invite["org_id"]]:\n        raise HTTPException(409, "already_member")\n'))),
        Requirement("Acceptance failures come in the stated order (revoked before used up "
                    "before already a member).",
                    probes="accept_order",
                    traps=Edit("membership checked first",
                               '    if invite["revoked"]:\n        raise HTTPException(410, "revoked")\n',
                               '    if user in MEMBERS[invite["org_id"]]:\n        raise HTTPException(409, "already_member")\n'
                               '    if invite["revoked"]:\n        raise HTTPException(410, "revoked")\n')),
        Requirement("Members are listed by user name with their roles.",
                    probes="members_listed",
                    traps=Edit("members in joining order",
                               "for name, role in sorted(MEMBERS[org_id].items())]",
                               "for name, role in MEMBERS[org_id].items()]")),
        Requirement("The invitation list shows uses and revocation, by id, never a token.",
                    probes="invites_listed", security=True,
                    traps=Edit("invitations of every organisation listed",
                               '    return [shown(i) for _, i in sorted(INVITES.items()) if i["org_id"] == org_id]',
                               '    return [shown(i) for _, i in sorted(INVITES.items())]')),
    ),
)
