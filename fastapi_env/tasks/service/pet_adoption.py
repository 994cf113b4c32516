"""Service tier: an animal shelter network's adoption service specified like a product document
(13 routes, cookie sessions with login and logout, staff bound to a shelter and self-registered
adopters, a public animal catalogue with repeatable and ranged filters and limit/offset paging
with a total-count header, partial updates where null is invalid, adoption applications with a
state machine, one live application per adopter per animal, reservations and completion that
rejects the rivals; errors as codes with a field map for validation)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import rows_without_top_ids
from fastapi_env.tasks.traps import check_order, checks_reversed, extras_ignored, without_location

REFERENCE = '''\
import re
import secrets
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

COOKIE = "${cookie}"
SPECIES = ("dog", "cat", "rabbit", "bird")
LIMIT_DEFAULT, LIMIT_MAX = ${limit_default}, ${limit_max}

USERS = {
    1: {"id": 1, "email": "${st1}", "password": "${st1_pw}", "name": "${st1_name}",
        "role": "staff", "shelter_id": 1},
    2: {"id": 2, "email": "${st2}", "password": "${st2_pw}", "name": "${st2_name}",
        "role": "staff", "shelter_id": 2},
    3: {"id": 3, "email": "${a1}", "password": "${a1_pw}", "name": "${a1_name}",
        "role": "adopter", "shelter_id": None},
    4: {"id": 4, "email": "${a2}", "password": "${a2_pw}", "name": "${a2_name}",
        "role": "adopter", "shelter_id": None},
}
SHELTERS = [{"id": 1, "name": "${shelter1}"}, {"id": 2, "name": "${shelter2}"}]
ANIMALS = {
    1: {"id": 1, "shelter_id": 1, "name": "Biscuit", "species": "dog", "age_months": ${age1}, "status": "available"},
    2: {"id": 2, "shelter_id": 1, "name": "Mochi", "species": "cat", "age_months": ${age2}, "status": "available"},
    3: {"id": 3, "shelter_id": 2, "name": "Pepper", "species": "rabbit", "age_months": ${age3}, "status": "available"},
    4: {"id": 4, "shelter_id": 2, "name": "Rex", "species": "dog", "age_months": ${age4}, "status": "available"},
    5: {"id": 5, "shelter_id": 1, "name": "Luna", "species": "cat", "age_months": ${age5}, "status": "adopted"},
    6: {"id": 6, "shelter_id": 2, "name": "Tofu", "species": "cat", "age_months": ${age6}, "status": "available"},
}
APPLICATIONS: dict[int, dict] = {}
SESSIONS: dict[str, int] = {}  # session token -> user id
NEXT = {"user": 5, "animal": 7, "application": 1}
LIVE = ("pending", "approved")

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Refusal(Exception):
    def __init__(self, status: int, code: str):
        self.status, self.code = status, code


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return JSONResponse({"code": exc.code}, status_code=exc.status)


@app.exception_handler(StarletteHTTPException)
async def on_http_error(request: Request, exc: StarletteHTTPException):
    code = {404: "no_such_route", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return JSONResponse({"code": code}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][-1]) if len(error["loc"]) > 1 else "body"
        fields.setdefault(name, error["type"])  # the first problem of each field
    return JSONResponse({"code": "invalid", "fields": fields}, status_code=422)


def email_form(value: str) -> str:
    # Checked after lowercasing: a pattern in the constraints would see the raw case.
    if not re.fullmatch(r"[^@ ]+@[^@ ]+\\.[a-z]+", value):
        raise ValueError("not an email address")
    return value


class AdopterIn(BaseModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True),
                     AfterValidator(email_form)]
    password: str = Field(min_length=8, max_length=64)
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class LoginIn(BaseModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True)]
    password: str


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]
Age = Annotated[int, Field(ge=0, le=${age_max})]


class AnimalIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    species: str
    age_months: Age

    @field_validator("species")
    @classmethod
    def known_species(cls, value: str) -> str:
        if value.lower() not in SPECIES:
            raise ValueError("unknown species")
        return value.lower()


class AnimalPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name | None = None  # null passes here so that the route can name it
    age_months: Age | None = None


class ApplicationIn(BaseModel):
    message: Annotated[str, StringConstraints(strip_whitespace=True, max_length=${message_max})] = ""


def current_user(request: Request) -> dict:
    user_id = SESSIONS.get(request.cookies.get(COOKIE, ""))
    if user_id is None:
        raise Refusal(401, "login_required")
    return USERS[user_id]


def staff(user: Annotated[dict, Depends(current_user)]) -> dict:
    if user["role"] != "staff":
        raise Refusal(403, "staff_only")
    return user


def adopter(user: Annotated[dict, Depends(current_user)]) -> dict:
    if user["role"] != "adopter":
        raise Refusal(403, "adopters_only")
    return user


AnyUser = Annotated[dict, Depends(current_user)]
Staff = Annotated[dict, Depends(staff)]
Adopter = Annotated[dict, Depends(adopter)]


def public(user: dict) -> dict:
    return {k: user[k] for k in ("id", "email", "name", "role", "shelter_id")}


def animal_of(animal_id: int) -> dict:
    if animal_id not in ANIMALS:
        raise Refusal(404, "animal_not_found")
    return ANIMALS[animal_id]


def sees(user: dict, application: dict) -> bool:
    if user["role"] == "staff":
        return ANIMALS[application["animal_id"]]["shelter_id"] == user["shelter_id"]
    return application["adopter_id"] == user["id"]


def paged(items: list, limit: int, offset: int, response: Response) -> list:
    response.headers["X-Total-Count"] = str(len(items))
    return items[offset:offset + limit]


Limit = Annotated[int, Query(ge=1, le=LIMIT_MAX)]
Offset = Annotated[int, Query(ge=0)]


@app.post("/adopters", status_code=201)
def register(body: AdopterIn, response: Response):
    if any(u["email"] == body.email for u in USERS.values()):
        raise Refusal(409, "email_taken")
    user = {"id": NEXT["user"], "email": body.email, "password": body.password,
            "name": body.name, "role": "adopter", "shelter_id": None}
    NEXT["user"] += 1
    USERS[user["id"]] = user
    response.headers["Location"] = f"/adopters/{user['id']}"
    return public(user)


@app.post("/session")
def login(body: LoginIn, response: Response):
    user = next((u for u in USERS.values() if u["email"] == body.email), None)
    if user is None or user["password"] != body.password:
        raise Refusal(401, "bad_login")
    token = secrets.token_urlsafe(16)
    SESSIONS[token] = user["id"]
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax")
    return public(user)


@app.delete("/session", status_code=204)
def logout(request: Request, user: AnyUser):
    SESSIONS.pop(request.cookies[COOKIE])
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


@app.get("/me")
def me(user: AnyUser):
    return public(user)


@app.get("/shelters")
def shelters():
    return SHELTERS


@app.get("/animals")
def list_animals(
    response: Response,
    species: Annotated[list[str] | None, Query()] = None,
    min_age: Annotated[int | None, Query(ge=0)] = None,
    max_age: Annotated[int | None, Query(ge=0)] = None,
    status: Literal["available", "reserved", "adopted"] | None = None,
    limit: Limit = LIMIT_DEFAULT,
    offset: Offset = 0,
):
    if min_age is not None and max_age is not None and min_age > max_age:
        raise Refusal(${range_status}, "bad_age_range")
    wanted = {s.lower() for s in species} if species else None
    found = [a for a in ANIMALS.values()
             if (wanted is None or a["species"] in wanted)
             and (min_age is None or a["age_months"] >= min_age)
             and (max_age is None or a["age_months"] <= max_age)
             and (status is None or a["status"] == status)]
    found.sort(key=lambda a: (${sort_key}, a["id"]))
    return paged(found, limit, offset, response)


@app.get("/animals/{animal_id}")
def read_animal(animal_id: int):
    return animal_of(animal_id)


@app.post("/animals", status_code=201)
def add_animal(body: AnimalIn, user: Staff, response: Response):
    animal = {"id": NEXT["animal"], "shelter_id": user["shelter_id"], **body.model_dump(),
              "status": "available"}
    NEXT["animal"] += 1
    ANIMALS[animal["id"]] = animal
    response.headers["Location"] = f"/animals/{animal['id']}"
    return animal


@app.patch("/animals/{animal_id}")
def update_animal(animal_id: int, body: AnimalPatch, user: Staff):
    nulls = sorted(name for name in body.model_fields_set if getattr(body, name) is None)
    if nulls:
        raise RequestValidationError([{"type": "null_not_allowed", "loc": ("body", name),
                                       "msg": "may not be null", "input": None}
                                      for name in nulls])
    animal = animal_of(animal_id)
    if animal["shelter_id"] != user["shelter_id"]:
        raise Refusal(403, "other_shelter")
    if animal["status"] == "adopted":
        raise Refusal(409, "animal_adopted")
    animal.update(body.model_dump(exclude_unset=True))
    return animal


def check_available(animal: dict, user: dict) -> None:
    if animal["status"] != "available":
        raise Refusal(409, "not_available")


def check_duplicate(animal: dict, user: dict) -> None:
    if any(a["animal_id"] == animal["id"] and a["adopter_id"] == user["id"]
           and a["status"] in LIVE for a in APPLICATIONS.values()):
        raise Refusal(409, "duplicate_application")


@app.post("/animals/{animal_id}/applications", status_code=201)
def apply(animal_id: int, body: ApplicationIn, user: Adopter, response: Response):
    animal = animal_of(animal_id)
    for check in (${apply_checks}):
        check(animal, user)
    application = {"id": NEXT["application"], "animal_id": animal_id,
                   "adopter_id": user["id"], "status": "pending", "message": body.message}
    NEXT["application"] += 1
    APPLICATIONS[application["id"]] = application
    response.headers["Location"] = f"/applications/{application['id']}"
    return application


@app.get("/applications")
def list_applications(
    user: AnyUser,
    response: Response,
    status: Literal["pending", "approved", "rejected", "withdrawn", "completed"] | None = None,
    limit: Limit = LIMIT_DEFAULT,
    offset: Offset = 0,
):
    found = [a for a in APPLICATIONS.values() if sees(user, a)
             and (status is None or a["status"] == status)]
    found.sort(key=lambda a: -a["id"])
    return paged(found, limit, offset, response)


def visible_application(application_id: int, user: dict) -> dict:
    application = APPLICATIONS.get(application_id)
    if application is None or not sees(user, application):
        raise Refusal(404, "application_not_found")
    return application


@app.get("/applications/{application_id}")
def read_application(application_id: int, user: AnyUser):
    return visible_application(application_id, user)


# action -> (role taking it, states it starts from, state it leads to)
TRANSITIONS = {
    "approve": ("staff", ("pending",), "approved"),
    "reject": ("staff", ("pending", "approved"), "rejected"),
    "complete": ("staff", ("approved",), "completed"),
    "withdraw": ("adopter", ("pending", "approved"), "withdrawn"),
}


@app.post("/applications/{application_id}/{action}")
def act(application_id: int, action: Literal["approve", "reject", "complete", "withdraw"],
        user: AnyUser):
    application = visible_application(application_id, user)
    actor, sources, target = TRANSITIONS[action]
    if user["role"] != actor:
        raise Refusal(403, "not_allowed")
    if application["status"] not in sources:
        raise Refusal(409, "invalid_transition")
    animal = ANIMALS[application["animal_id"]]
    if action == "approve" and animal["status"] != "available":
        raise Refusal(409, "animal_reserved")
    if application["status"] == "approved":
        animal["status"] = "available"  # the reservation ends with the approval
    application["status"] = target
    if target == "approved":
        animal["status"] = "reserved"
    if target == "completed":
        animal["status"] = "adopted"
        for rival in APPLICATIONS.values():
            if rival["animal_id"] == animal["id"] and rival["status"] == "pending":
                rival["status"] = "rejected"
    return application


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.get("/animals", params={"species": "CAT"})),
    row(client.post("/session", json={"email": "  ${a1_upper}  ", "password": "${a1_pw}"})),
    row(client.post("/animals/1/applications", json={"message": "  I have a garden  "})),
    row(client.post("/animals", json={"name": "Nemo", "species": "fish", "age_months": 2})),
]
'''

PROBES = '''\
COOKIE = "${cookie}"


''' + rows_without_top_ids(("id", "animal_id", "adopter_id")) + '''

def _gist(r):
    body = r.json()
    if not isinstance(body, dict):
        return [r.status_code, "ok"]
    return [r.status_code, body.get("fields", body.get("code", "ok"))]


def _session(token):
    return {"Cookie": f"{COOKIE}={token}"}


def _login(client, email, password):
    """Log in and return the session as a header; the client's own cookie jar stays empty."""
    r = client.post("/session", json={"email": email, "password": password})
    token = r.cookies.get(COOKIE)
    client.cookies.clear()
    return _session(token or "none")


def _adopter(client, local):
    """A fresh adopter: their session header and id."""
    r = client.post("/adopters", json={"email": f"{local}@example.org",
                                       "password": "secret-" + local, "name": local.title()})
    return _login(client, f"{local}@example.org", "secret-" + local), r.json().get("id")


def _st1(client):
    return _login(client, "${st1}", "${st1_pw}")


def _st2(client):
    return _login(client, "${st2}", "${st2_pw}")


def _animal(client, who, name, species="dog", age=12):
    r = client.post("/animals", json={"name": name, "species": species, "age_months": age},
                    headers=who)
    return r.json()["id"]


def _apply(client, who, animal_id, message=None):
    body = {} if message is None else {"message": message}
    return client.post(f"/animals/{animal_id}/applications", json=body, headers=who)


def _act(client, who, application_id, action):
    return client.post(f"/applications/{application_id}/{action}", headers=who)


def probe_register(client):
    r = client.post("/adopters", json={"email": "  Nova.Reyes@Example.ORG ",
                                       "password": "x" * 8, "name": "  Nova  "})
    body = r.json()
    rows = [[r.status_code, body, r.headers.get("location")]]
    r = client.post("/adopters", json={"email": "omar@example.org", "password": "y" * 64,
                                       "name": "O"})
    rows.append([r.status_code, r.json()["id"] == body["id"] + 1])
    return rows


def probe_register_validation(client):
    rows = []
    good = {"email": "val@example.org", "password": "p" * 8, "name": "Val"}
    for change in [{"email": "no-at-sign.org"}, {"email": "two@@example.org"},
                   {"email": "spa ce@example.org"}, {"password": "p" * 7},
                   {"password": "p" * 65}, {"name": "   "}, {"name": "n" * 41},
                   {"email": 5, "password": None}]:
        rows.append([change, _row(client.post("/adopters", json=good | change))])
    for body in [{}, [], "text"]:
        rows.append([body, _row(client.post("/adopters", json=body))])
    return rows


def probe_email_taken(client):
    client.post("/adopters", json={"email": "dupe@example.org", "password": "p" * 8,
                                   "name": "Dupe"})
    return [[email, _row(client.post("/adopters", json={"email": email, "password": "q" * 8,
                                                         "name": "Again"}))]
            for email in ["dupe@example.org", " DUPE@example.org", "${st2}", "${a1_upper}"]]


def probe_login(client):
    r = client.post("/session", json={"email": "${st1}", "password": "${st1_pw}"})
    cookie = r.headers.get("set-cookie", "")
    token = r.cookies.get(COOKIE)
    client.cookies.clear()
    parts = sorted(p.strip().lower() for p in cookie.split(";")[1:])
    rows = [[r.status_code, r.json(), cookie.startswith(f"{COOKIE}="), parts,
             isinstance(token, str) and len(token) >= 16]]
    rows.append(_row(client.get("/me", headers=_session(token))))
    r = client.post("/session", json={"email": " ${a2_upper}", "password": "${a2_pw}"})
    rows.append([r.status_code, r.json().get("email"), COOKIE in r.cookies])
    client.cookies.clear()
    for body in [{"email": "${a2}", "password": "${a2_pw}".upper()},
                 {"email": "nobody@example.org", "password": "${a2_pw}"},
                 {"email": "${a2}", "password": "${a2_pw} "}]:
        r = client.post("/session", json=body)
        rows.append([r.status_code, r.json(), "set-cookie" in r.headers])
    rows.append(_gist(client.post("/session", json={"email": "${a2}"})))
    return rows


def probe_session_required(client):
    rows = []
    routes = [("GET", "/me"), ("DELETE", "/session"), ("POST", "/animals"),
              ("PATCH", "/animals/1"), ("POST", "/animals/1/applications"),
              ("GET", "/applications"), ("GET", "/applications/1"),
              ("POST", "/applications/1/approve"), ("POST", "/applications/1/withdraw")]
    for headers in [{}, _session(""), _session("forged-token"), _session("1"),
                    {"Cookie": "session_id=whatever"},
                    {"Authorization": "Bearer ${a1_pw}"}]:
        for method, path in routes:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json()])
    return rows


def probe_logout(client):
    who = _login(client, "${a1}", "${a1_pw}")
    other = _login(client, "${a1}", "${a1_pw}")
    r = client.delete("/session", headers=who)
    cookie = r.headers.get("set-cookie", "")
    rows = [[r.status_code, r.content == b"", cookie.startswith(f'{COOKIE}=""')
             or cookie.startswith(f"{COOKIE}=;"), "max-age=0" in cookie.lower()]]
    client.cookies.clear()
    rows.append(_row(client.get("/me", headers=who)))
    rows.append(_row(client.delete("/session", headers=who)))
    rows.append([client.get("/me", headers=other).status_code])
    return rows


def probe_roles_before_validation(client):
    adopter, _ = _adopter(client, "rolecheck")
    st1 = _st1(client)
    return [_row(client.post("/animals", json={}, headers=adopter)),
            _row(client.post("/animals", json={"name": "Ok", "species": "dog",
                                               "age_months": 1}, headers=adopter)),
            _row(client.patch("/animals/abc", json={"name": None}, headers=adopter)),
            _row(client.post("/animals/1/applications", json={"message": 5}, headers=st1)),
            _row(client.post("/animals/xyz/applications", json={}, headers=st1))]


''' + late_body.probe_source(
    [("POST", "/animals"), ("PATCH", "/animals/1"), ("POST", "/animals/1/applications")],
    [("no session", "{}"), ("staff", "ST1"), ("adopter", "AD1")],
    prepare='    ST1, AD1 = _st1(client), _login(client, "${a1}", "${a1_pw}")\n') + '''


def probe_me(client):
    return [_row(client.get("/me", headers=_st2(client))),
            _row(client.get("/me", headers=_login(client, "${a2}", "${a2_pw}")))]


def probe_catalogue_order_and_paging(client):
    rows = []
    for params in [{}, {"limit": 2}, {"limit": 2, "offset": 2}, {"offset": 5},
                   {"offset": 50}, {"limit": ${limit_max}}]:
        r = client.get("/animals", params=params)
        rows.append([params, r.status_code, [a["name"] for a in r.json()],
                     r.headers.get("x-total-count")])
    rows.append([[k for k in client.get("/animals").json()[0]]])
    return rows


def probe_catalogue_species(client):
    rows = []
    for params in [{"species": "dog"}, {"species": "Dog"}, {"species": ["cat", "RABBIT"]},
                   {"species": ["dog", "dog"]}, {"species": "fish"}, {"species": ""},
                   {"species": "cat", "status": "adopted"}, {"status": "available",
                                                             "limit": 1}]:
        r = client.get("/animals", params=params)
        rows.append([params, [a["id"] for a in r.json()], r.headers.get("x-total-count")])
    return rows


def probe_catalogue_ages(client):
    rows = []
    for params in [{"min_age": ${age2}}, {"max_age": ${age2}}, {"min_age": ${age2} + 1},
                   {"min_age": ${age1}, "max_age": ${age1}},
                   {"min_age": ${age3}, "max_age": ${age4}},
                   {"min_age": 50, "max_age": 49}, {"min_age": 0, "max_age": 0},
                   {"min_age": 50, "max_age": 49, "limit": 0}]:
        r = client.get("/animals", params=params)
        rows.append([params, _gist(r) if r.status_code != 200 else
                     [[a["id"] for a in r.json()], r.headers.get("x-total-count")]])
    return rows


def probe_catalogue_validation(client):
    rows = []
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1},
                   {"min_age": -1}, {"max_age": "old"}, {"status": "Available"},
                   {"limit": "x", "offset": "y"}]:
        rows.append([params, _row(client.get("/animals", params=params))])
    return rows


def probe_read_animal(client):
    return [_row(client.get("/animals/3")), _row(client.get("/animals/5")),
            _row(client.get("/animals/999")), _row(client.get("/animals/three")),
            _row(client.get("/shelters"))]


def probe_add_animal(client):
    st2 = _st2(client)
    r = client.post("/animals", json={"name": "  Clover ", "species": "Rabbit",
                                      "age_months": 0}, headers=st2)
    body = r.json()
    rows = [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/animals/{body['id']}"]]
    second = _animal(client, _st1(client), "Basil")
    rows.append([second == body["id"] + 1, client.get(f"/animals/{second}").json()["shelter_id"]])
    return rows


def probe_animal_validation(client):
    st1 = _st1(client)
    good = {"name": "Valid", "species": "cat", "age_months": 5}
    rows = []
    for change in [{"species": "fish"}, {"species": "CAT"}, {"age_months": -1},
                   {"age_months": ${age_max}}, {"age_months": ${age_max} + 1},
                   {"name": "  "}, {"name": "n" * 31}, {"shelter_id": 2},
                   {"status": "adopted"}, {"age_months": "ten", "name": ""}]:
        r = client.post("/animals", json=good | change, headers=st1)
        rows.append([change, r.status_code, r.json().get("fields", r.json().get("status"))])
    return rows


def probe_patch_partial(client):
    st1 = _st1(client)
    animal_id = _animal(client, st1, "Patchy", "bird", 7)
    path = f"/animals/{animal_id}"
    rows = [_row(client.patch(path, json={"age_months": 8}, headers=st1))]
    rows.append(_row(client.patch(path, json={"name": "  Patch  "}, headers=st1)))
    rows.append(_row(client.patch(path, json={}, headers=st1)))
    for body in [{"name": None}, {"age_months": None, "name": "Ok"},
                 {"name": None, "age_months": None}, {"species": "cat"},
                 {"age_months": ${age_max} + 1}]:
        rows.append([body, _row(client.patch(path, json=body, headers=st1))])
    rows.append(_row(client.get(path)))
    return rows


def probe_patch_rules(client):
    st1, st2 = _st1(client), _st2(client)
    return [_row(client.patch("/animals/999", json={"name": "Ghost"}, headers=st1)),
            _row(client.patch("/animals/3", json={"name": "Stolen"}, headers=st1)),
            _row(client.patch("/animals/5", json={"name": "Again"}, headers=st1)),
            _row(client.patch("/animals/5", json={"name": "Again"}, headers=st2)),
            _row(client.patch("/animals/999", json={"name": None}, headers=st1)),
            _row(client.get("/animals/3"))]


def probe_apply(client):
    who, adopter_id = _adopter(client, "applicant")
    animal_id = _animal(client, _st2(client), "Applied", "cat", 20)
    r = _apply(client, who, animal_id, "  We love cats  ")
    body = r.json()
    rows = [[r.status_code, _without_ids(body), body["animal_id"] == animal_id,
             body["adopter_id"] == adopter_id,
             r.headers.get("location") == f"/applications/{body['id']}"]]
    other = _apply(client, who, _animal(client, _st2(client), "Applied too"))
    rows.append([other.status_code, other.json()["message"], other.json()["id"] == body["id"] + 1])
    rows.append(_gist(_apply(client, who, animal_id, "m" * (${message_max} + 1))))
    rows.append(_row(_apply(client, who, 999)))
    return rows


def probe_apply_refusals(client):
    who, _ = _adopter(client, "refused")
    st1 = _st1(client)
    animal_id = _animal(client, st1, "Wanted")
    first = _apply(client, who, animal_id).json()["id"]
    rows = [_row(_apply(client, who, animal_id)), _row(_apply(client, who, 5))]
    rival, _ = _adopter(client, "rival")
    _act(client, st1, _apply(client, rival, _animal(client, st1, "Taken")).json()["id"],
         "approve")
    taken = client.get("/animals", params={"status": "reserved", "limit": ${limit_max}}).json()
    rows.append([len(taken) >= 1])
    rows.append(_row(_apply(client, who, taken[-1]["id"])))
    _act(client, who, first, "withdraw")
    rows.append([_apply(client, who, animal_id).status_code])
    return rows


def probe_apply_precedence(client):
    who, _ = _adopter(client, "bothways")
    st2 = _st2(client)
    animal_id = _animal(client, st2, "Doubly refused")
    application = _apply(client, who, animal_id).json()["id"]
    _act(client, st2, application, "approve")
    return [_row(_apply(client, who, animal_id))]


def probe_reapply(client):
    who, _ = _adopter(client, "persistent")
    st1 = _st1(client)
    animal_id = _animal(client, st1, "Second chance")
    first = _apply(client, who, animal_id).json()["id"]
    _act(client, st1, first, "reject")
    second = _apply(client, who, animal_id)
    rows = [[second.status_code, second.json().get("status")]]
    _act(client, who, second.json()["id"], "withdraw")
    rows.append([_apply(client, who, animal_id).status_code])
    return rows


def probe_application_visibility(client):
    who, _ = _adopter(client, "private")
    nosy, _ = _adopter(client, "nosy")
    application = _apply(client, who, _animal(client, _st1(client), "Seen")).json()["id"]
    path = f"/applications/{application}"
    rows = []
    for name, headers in [("owner", who), ("other adopter", nosy), ("shelter staff", _st1(client)),
                          ("other staff", _st2(client))]:
        r = client.get(path, headers=headers)
        rows.append([name, r.status_code, r.json().get("status", r.json().get("code"))])
    rows.append(_row(client.get("/applications/99999", headers=who)))
    rows.append(_row(client.post(f"{path}/withdraw", headers=nosy)))
    rows.append(_row(client.post(f"{path}/approve", headers=_st2(client))))
    return rows


def probe_actors(client):
    who, _ = _adopter(client, "actor")
    st1 = _st1(client)
    application = _apply(client, who, _animal(client, st1, "Acted on")).json()["id"]
    rows = [[action, _row(_act(client, who, application, action))]
            for action in ("approve", "reject", "complete")]
    rows.append(_row(_act(client, st1, application, "withdraw")))
    rows.append(_row(_act(client, st1, application, "adopt")))
    rows.append(_row(_act(client, st1, 99999, "adopt")))
    return rows


def probe_transitions(client):
    who, _ = _adopter(client, "stepper")
    st2 = _st2(client)
    rows = []
    pending = _apply(client, who, _animal(client, st2, "Complete too early")).json()["id"]
    rows.append(["complete pending", _row(_act(client, st2, pending, "complete"))])
    rejected = _apply(client, who, _animal(client, st2, "Rejected twice")).json()["id"]
    _act(client, st2, rejected, "reject")
    for action in ("reject", "approve", "complete"):
        rows.append([f"{action} rejected", _row(_act(client, st2, rejected, action))])
    rows.append(["withdraw rejected", _row(_act(client, who, rejected, "withdraw"))])
    approved = _apply(client, who, _animal(client, st2, "Approved twice")).json()["id"]
    _act(client, st2, approved, "approve")
    rows.append(["approve approved", _row(_act(client, st2, approved, "approve"))])
    done = _act(client, st2, approved, "complete")
    rows.append(["complete approved", done.status_code, done.json().get("status")])
    rows.append(["withdraw completed", _row(_act(client, who, approved, "withdraw"))])
    return rows


def probe_reservation(client):
    first, _ = _adopter(client, "reserver")
    second, _ = _adopter(client, "latecomer")
    st1 = _st1(client)
    animal_id = _animal(client, st1, "Reserved pet")
    a = _apply(client, first, animal_id).json()["id"]
    b = _apply(client, second, animal_id).json()["id"]
    r = _act(client, st1, a, "approve")
    rows = [[r.status_code, r.json()["status"], client.get(f"/animals/{animal_id}").json()["status"]]]
    rows.append(_row(_act(client, st1, b, "approve")))
    rows.append([client.get(f"/applications/{b}", headers=second).json()["status"]])
    return rows


def probe_completion(client):
    winner, _ = _adopter(client, "winner")
    pending, _ = _adopter(client, "hopeful")
    quitter, _ = _adopter(client, "quitter")
    st2 = _st2(client)
    animal_id = _animal(client, st2, "Adopted pet")
    won = _apply(client, winner, animal_id).json()["id"]
    hoped = _apply(client, pending, animal_id).json()["id"]
    quit_ = _apply(client, quitter, animal_id).json()["id"]
    _act(client, quitter, quit_, "withdraw")
    other = _apply(client, pending, _animal(client, st2, "Other pet")).json()["id"]
    _act(client, st2, won, "approve")
    _act(client, st2, won, "complete")
    return [[client.get(f"/animals/{animal_id}").json()["status"]],
            [client.get(f"/applications/{i}", headers=st2).json()["status"]
             for i in (won, hoped, quit_, other)]]


def probe_release(client):
    who, _ = _adopter(client, "releaser")
    st1 = _st1(client)
    rows = []
    for name, actor_is_staff, action in [("Released by withdraw", False, "withdraw"),
                                         ("Released by reject", True, "reject")]:
        animal_id = _animal(client, st1, name)
        application = _apply(client, who, animal_id).json()["id"]
        _act(client, st1, application, "approve")
        before = client.get(f"/animals/{animal_id}").json()["status"]
        r = _act(client, st1 if actor_is_staff else who, application, action)
        rows.append([action, before, r.status_code, r.json().get("status"),
                     client.get(f"/animals/{animal_id}").json()["status"]])
    return rows


def probe_list_applications(client):
    who, _ = _adopter(client, "lister")
    st2 = _st2(client)
    made = [_apply(client, who, _animal(client, st2, f"Listed {i}")).json()["id"]
            for i in range(3)]
    _act(client, st2, made[1], "reject")
    rows = []
    for params in [{}, {"status": "rejected"}, {"status": "pending"}, {"limit": 1},
                   {"limit": 1, "offset": 1}, {"offset": 3}, {"status": "Pending"}]:
        r = client.get("/applications", params=params, headers=who)
        body = r.json()
        rows.append([params, r.status_code,
                     [made.index(a["id"]) for a in body] if isinstance(body, list) else body,
                     r.headers.get("x-total-count")])
    staff_view = client.get("/applications", params={"limit": ${limit_max}},
                            headers=st2).json()
    st1_view = client.get("/applications", params={"limit": ${limit_max}},
                          headers=_st1(client)).json()
    rows.append([all(i in [a["id"] for a in staff_view] for i in made),
                 any(a["id"] in made for a in st1_view)])
    return rows
'''


def derive(p):
    order = check_order(p["apply_order"],
                        {"available": "check_available", "duplicate": "check_duplicate"},
                        {"available": "not_available", "duplicate": "duplicate_application"},
                        "apply_checks")
    ages = dict(zip(("age1", "age2", "age3", "age4", "age5", "age6"), p["ages"], strict=True))
    return ages | order | {
        "sort_key": {"age": 'a["age_months"]', "name": 'a["name"]'}[p["sort"]],
        "sort_text": {"age": "by age (youngest first), then id",
                      "name": "by name, then id"}[p["sort"]],
        "a1_upper": p["a1"].upper(), "a2_upper": p["a2"].upper(),
    }


PROMPT = '''\
Build the HTTP API of an animal shelter network's adoption service, as specified below. Keep
all state in memory, starting from the data given here.

## Accounts and sessions
Users have an id, an email, a password, a name, a role (`staff` or `adopter`) and, for staff,
the id of their shelter. Emails are stored trimmed and lowercased and compared that way;
passwords exactly. The users so far (new adopters get ids 5, 6, ... in order):

| id | email | password | name | role | shelter |
|---|---|---|---|---|---|
| 1 | `${st1}` | `${st1_pw}` | ${st1_name} | staff | 1 |
| 2 | `${st2}` | `${st2_pw}` | ${st2_name} | staff | 2 |
| 3 | `${a1}` | `${a1_pw}` | ${a1_name} | adopter | |
| 4 | `${a2}` | `${a2_pw}` | ${a2_name} | adopter | |

A user's public form is `{"id", "email", "name", "role", "shelter_id"}` (`shelter_id` null for
adopters).

- `POST /adopters` `{"email", "password", "name"}` (anyone): `email` trimmed and lowercased,
  then of the form `local@domain.tld` (no spaces, exactly one `@`, the part after the last dot
  made of letters a-z only); `password` 8-64 characters; `name` trimmed, then 1-40 characters.
  409 `email_taken` if any user has that email. 201 with the new adopter's public form and
  `Location: /adopters/<id>`.
- `POST /session` `{"email", "password"}` (anyone): logs in. 200 with the user's public form and
  a session cookie named `${cookie}` holding a new unguessable token, with exactly the
  attributes `HttpOnly`, `Path=/` and `SameSite=lax` (no expiry, no `Secure`). A wrong email or password: 401 `bad_login`, no cookie. Each login starts
  a separate session.
- `DELETE /session`: ends the caller's session: 204 with an empty body and a `Set-Cookie` that
  deletes `${cookie}`; the token stops working (other sessions of the same user keep working).
- `GET /me`: 200 with the caller's public form.

Routes below marked *session* need the `${cookie}` cookie of a live session: otherwise 401
`login_required`. Routes marked *staff* or *adopter* need that role as well: 403 `staff_only`
or `adopters_only`. The session is checked first, then the role, before anything else about the
request (path, query and body included, even a body that is not JSON). `DELETE /session` and
`GET /me` are *session* routes.

## Errors
Every error body is `{"code": <code>}`. Invalid bodies, path or query parameters are 422
`{"code": "invalid", "fields": {<name>: <type>}}`: one entry per invalid field or parameter,
named by the last part of its location (`"body"` when the body itself is missing, is not JSON,
or is not a JSON object), holding the Pydantic error `type` of its first problem. Presence, type, length and
range rules report Pydantic's own types (`missing`, `string_type`, `int_type`, `int_parsing`,
`string_too_short`, `string_too_long`, `greater_than_equal`, `less_than_equal`,
`extra_forbidden`, `model_attributes_type` for a body that is not JSON or not an object; lengths are
those of the trimmed text); a value outside a fixed list of choices (a status, an action) is
`literal_error`; an email or a species that breaks its rule is `value_error`. Path
parameters, queries and bodies are validated before any other refusal of a route.

## Shelters and animals
`GET /shelters` (anyone): 200 `[{"id": 1, "name": "${shelter1}"}, {"id": 2, "name":
"${shelter2}"}]`.

An animal is `{"id", "shelter_id", "name", "species", "age_months", "status"}`; `species` is
one of `dog`, `cat`, `rabbit`, `bird`, `status` one of `available`, `reserved`, `adopted`.
New animals get ids 7, 8, ... in order:

| id | shelter | name | species | age_months | status |
|---|---|---|---|---|---|
| 1 | 1 | Biscuit | dog | ${age1} | available |
| 2 | 1 | Mochi | cat | ${age2} | available |
| 3 | 2 | Pepper | rabbit | ${age3} | available |
| 4 | 2 | Rex | dog | ${age4} | available |
| 5 | 1 | Luna | cat | ${age5} | adopted |
| 6 | 2 | Tofu | cat | ${age6} | available |

- `GET /animals` (anyone): 200, the animals sorted ${sort_text}, filtered by the optional
  query parameters: `species` (may be repeated; an animal matches any of the values, ignoring
  letter case), `min_age` and `max_age` (integers >= 0, inclusive bounds on `age_months`),
  `status` (exactly one of the three statuses). Paged by `limit` (1-${limit_max}, default
  ${limit_default}) and `offset` (>= 0, default 0; past the end the page is empty). The header
  `X-Total-Count` gives the number of matching animals before paging. When both bounds are
  given and `min_age` is greater than `max_age`: ${range_status} `bad_age_range`.
- `GET /animals/{animal_id}` (anyone): 200 with it; 404 `animal_not_found`.
- `POST /animals` *staff* `{"name", "species", "age_months"}`: `name` trimmed then 1-30
  characters; `species` one of the four ignoring letter case, stored lowercase; `age_months`
  an integer from 0 to ${age_max}; no other fields. The animal joins the caller's shelter as
  `available`. 201 with it and `Location: /animals/<id>`.
- `PATCH /animals/{animal_id}` *staff* with any of `name` and `age_months` (same rules; no
  other fields): changes only the fields sent; sending `null` for one is invalid (422 with the
  type `null_not_allowed` for it); `{}` changes nothing. Then 404 `animal_not_found`; 403
  `other_shelter` for another shelter's animal; 409 `animal_adopted` for an adopted animal.
  200 with the animal.

## Adoption applications
An application is `{"id", "animal_id", "adopter_id", "status", "message"}`, ids 1, 2, ... in
order; `status` is one of `pending`, `approved`, `rejected`, `withdrawn`, `completed`. An
adopter sees their own applications, staff those for their shelter's animals; an application
the caller may not see is answered exactly like a missing one.

- `POST /animals/{animal_id}/applications` *adopter* `{"message"}`: `message` optional
  (default `""`), trimmed, then at most ${message_max} characters. Then 404
  `animal_not_found`; then ${first_check}, then ${second_check}, where `not_available` means
  the animal is not `available` and `duplicate_application` that the caller already has a
  `pending` or `approved` application for it. 201 with the application (`pending`) and
  `Location: /applications/<id>`.
- `GET /applications` *session*: 200, the applications the caller sees, newest (highest id)
  first, filtered by the optional `status` (exact), paged and counted like `/animals` (same
  `limit`, `offset` and `X-Total-Count`).
- `GET /applications/{application_id}` *session*: 200 with it; 404 `application_not_found`.
- `POST /applications/{application_id}/{action}` *session*, where `action` is one of
  `approve`, `reject`, `complete` (staff) and `withdraw` (adopter). In this order: 404
  `application_not_found`; 403 `not_allowed` when the caller's role does not take that
  action; 409 `invalid_transition` unless the application's status allows it: `approve` from
  `pending`; `reject` and `withdraw` from `pending` or `approved`; `complete` from `approved`.
  Approving needs the animal to be `available`, else 409 `animal_reserved`. Effects:
  approving reserves the animal (`reserved`); rejecting or withdrawing an approved application
  makes the animal `available` again; completing makes it `adopted` and rejects every other
  `pending` application for it. 200 with the application in its new status.

## result
One row per request, `[status code, JSON body]`, in this order, sent with the session cookie of
the last successful login (none before the first):
1. `GET /animals?species=CAT`
2. `POST /session` with `{"email": "  ${a1_upper}  ", "password": "${a1_pw}"}`
3. `POST /animals/1/applications` with `{"message": "  I have a garden  "}`
4. `POST /animals` with `{"name": "Nemo", "species": "fish", "age_months": 2}`
'''

PEOPLE = [
    {"cookie": "pawsid", "st1": "ines@harbor.org", "st1_pw": "kennel-11", "st1_name": "Ines",
     "st2": "tomas@hillside.org", "st2_pw": "leash-222", "st2_name": "Tomas",
     "a1": "maya@mail.com", "a1_pw": "whiskers9", "a1_name": "Maya",
     "a2": "leo@mail.com", "a2_pw": "fetch-the-ball", "a2_name": "Leo",
     "shelter1": "Harbor Rescue", "shelter2": "Hillside Haven"},
    {"cookie": "shelter_session", "st1": "olga@northpaw.net", "st1_pw": "crate:train",
     "st1_name": "Olga", "st2": "wes@southtail.net", "st2_pw": "grooming-7",
     "st2_name": "Wes", "a1": "priya@post.io", "a1_pw": "adopt-me-1", "a1_name": "Priya",
     "a2": "jon@post.io", "a2_pw": "Purrfect1", "a2_name": "Jon",
     "shelter1": "North Paw", "shelter2": "South Tail"},
    {"cookie": "sid", "st1": "ana@cityark.org", "st1_pw": "ark-of-pets", "st1_name": "Ana",
     "st2": "bo@meadow.org", "st2_pw": "meadow-run", "st2_name": "Bo",
     "a1": "kai@inbox.dev", "a1_pw": "hamster-wheel", "a1_name": "Kai",
     "a2": "zoe@inbox.dev", "a2_pw": "Tail-Wag-2", "a2_name": "Zoe",
     "shelter1": "City Ark", "shelter2": "Meadow Friends"},
]

FAMILY = Family(
    id="service/pet_adoption",
    title="An animal shelter adoption service with cookie sessions and an application workflow",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | {"ages": [14, 3, 30, 96, 48, 12], "sort": "age",
                          "limit_default": 3, "limit_max": 10, "range_status": 400,
                          "apply_order": "available,duplicate", "age_max": 240,
                          "message_max": 200},
    space={
        "people": PEOPLE,
        "ages": [[14, 3, 30, 96, 48, 12], [40, 7, 7, 120, 18, 2], [2, 60, 24, 24, 5, 90]],
        "sort": ["age", "name"],
        "paging": [{"limit_default": 3, "limit_max": 10}, {"limit_default": 5, "limit_max": 20}],
        "range_status": [400, 422],
        "apply_order": ["available,duplicate", "duplicate,available"],
        "age_max": [240, 300],
        "message_max": [200, 120],
    },
    derive=derive,
    instances=8,
    requirements=(
        Requirement("Registering answers 201 with the public form (email lowercased and "
                    "trimmed, name trimmed), `Location`, ids from 5.",
                    probes="register",
                    traps=(Edit("email case kept", "email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True),\n",
                                "email: Annotated[str, StringConstraints(strip_whitespace=True),\n"),
                           Edit("email pattern before lowercasing", """    email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True),
                     AfterValidator(email_form)]""", """    email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True,
                                            pattern=r"^[^@ ]+@[^@ ]+\\.[a-z]+$$")]"""),
                           without_location("adopter without Location",
                                            '''response.headers["Location"] = f"/adopters/{user['id']}"'''),
                           Edit("password in the reply", "    return public(user)\n\n\n@app.post(\"/session\")",
                                "    return user\n\n\n@app.post(\"/session\")"))),
        Requirement("Registration is validated (email form, password 8-64, name 1-40 trimmed); "
                    "422 lists each invalid field with its first error type.",
                    probes="register_validation",
                    traps=(Edit("fields as a list of names",
                                'return JSONResponse({"code": "invalid", "fields": fields}, status_code=422)',
                                'return JSONResponse({"code": "invalid", "fields": sorted(fields)}, status_code=422)'),
                           Edit("password unbounded", "password: str = Field(min_length=8, max_length=64)",
                                "password: str = Field(min_length=8)"),
                           Edit("full locations", 'name = str(error["loc"][-1]) if len(error["loc"]) > 1 else "body"',
                                'name = ".".join(map(str, error["loc"]))'))),
        Requirement("An email any user has (after normalising) is 409 `email_taken`.",
                    probes="email_taken",
                    traps=Edit("only adopters' emails taken",
                               'if any(u["email"] == body.email for u in USERS.values()):',
                               'if any(u["email"] == body.email for u in USERS.values() if u["role"] == "adopter"):')),
        Requirement("Login sets the `${cookie}` cookie (HttpOnly, Path=/, SameSite=lax) and "
                    "returns the public form; email normalised, password exact; else 401 "
                    "`bad_login` without a cookie.",
                    probes="login",
                    traps=(Edit("cookie readable by scripts",
                                'response.set_cookie(COOKIE, token, httponly=True, samesite="lax")',
                                'response.set_cookie(COOKIE, token, samesite="lax")'),
                           Edit("login email not normalised", '''class LoginIn(BaseModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True)]''', '''class LoginIn(BaseModel):
    email: str'''),
                           Edit("password ignores case", 'if user is None or user["password"] != body.password:',
                                'if user is None or user["password"].lower() != body.password.lower():'))),
        Requirement("Session routes need a live session cookie: else 401 `login_required`, "
                    "before the role or the request is checked.",
                    probes="session_required",
                    traps=Edit("any cookie accepted", '''    user_id = SESSIONS.get(request.cookies.get(COOKIE, ""))
    if user_id is None:''', '''    user_id = SESSIONS.get(request.cookies.get(COOKIE, ""), 3 if request.cookies.get(COOKIE) else None)
    if user_id is None:''')),
        Requirement("Logout answers 204, deletes the cookie and ends only that session.",
                    probes="logout",
                    traps=(Edit("session survives logout", "    SESSIONS.pop(request.cookies[COOKIE])\n", ""),
                           Edit("cookie left in place", '    response.delete_cookie(COOKIE, httponly=True, samesite="lax")\n', ""),
                           Edit("logout ends every session", "    SESSIONS.pop(request.cookies[COOKIE])\n",
                                "    for token in [t for t, u in SESSIONS.items() if u == user['id']]:\n"
                                "        SESSIONS.pop(token)\n"))),
        Requirement("The session and the role are checked before the body, even a body that is "
                    "not JSON (then 422 `{\"body\": \"model_attributes_type\"}`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Staff and adopter routes answer 403 `staff_only` / `adopters_only` before "
                    "validating the request.",
                    probes="roles_before_validation",
                    traps=(Edit("one forbidden code", 'raise Refusal(403, "adopters_only")',
                                'raise Refusal(403, "staff_only")'),
                           Edit("role checked after the body",
                                "def add_animal(body: AnimalIn, user: Staff, response: Response):\n",
                                "def add_animal(body: AnimalIn, user: AnyUser, response: Response):\n"
                                "    staff(user)\n"))),
        Requirement("`GET /me` gives the caller's public form.",
                    probes="me",
                    traps=Edit("me with the password", "def me(user: AnyUser):\n    return public(user)",
                               "def me(user: AnyUser):\n    return user")),
        Requirement("`GET /animals` is public, sorted ${sort_text}, paged by `limit` (default "
                    "${limit_default}) and `offset` with `X-Total-Count` before paging.",
                    probes="catalogue_order_and_paging",
                    traps=(Edit("animals by id", "found.sort(key=lambda a: (${sort_key}, a[\"id\"]))",
                                "found.sort(key=lambda a: a[\"id\"])"),
                           Edit("total of the page", '''def paged(items: list, limit: int, offset: int, response: Response) -> list:
    response.headers["X-Total-Count"] = str(len(items))
    return items[offset:offset + limit]''', '''def paged(items: list, limit: int, offset: int, response: Response) -> list:
    page = items[offset:offset + limit]
    response.headers["X-Total-Count"] = str(len(page))
    return page'''),
                           Edit("offset counted in pages", "return items[offset:offset + limit]",
                                "return items[offset * limit:offset * limit + limit]"))),
        Requirement("`species` may repeat and ignores case; `status` filters exactly.",
                    probes="catalogue_species",
                    traps=(Edit("one species only", "species: Annotated[list[str] | None, Query()] = None,",
                                "species: str | None = None,"),
                           Edit("species case-sensitive", "wanted = {s.lower() for s in species} if species else None",
                                "wanted = set(species) if species else None"))),
        Requirement("Age bounds are inclusive; `min_age` above `max_age` is ${range_status} "
                    "`bad_age_range` (after validation).",
                    probes="catalogue_ages",
                    traps=(Edit("min age exclusive", 'a["age_months"] >= min_age)', 'a["age_months"] > min_age)'),
                           Edit("max age exclusive", 'a["age_months"] <= max_age)', 'a["age_months"] < max_age)'),
                           Edit("reversed range lists nothing", '''        raise Refusal(${range_status}, "bad_age_range")''', "        pass"))),
        Requirement("Catalogue parameters are validated: `limit` 1-${limit_max}, `offset` and "
                    "ages >= 0, `status` exact.",
                    probes="catalogue_validation",
                    traps=(Edit("limit unbounded", "Limit = Annotated[int, Query(ge=1, le=LIMIT_MAX)]",
                                "Limit = Annotated[int, Query(ge=1)]"),
                           Edit("negative offset", "Offset = Annotated[int, Query(ge=0)]",
                                "Offset = Annotated[int, Query()]"))),
        Requirement("An animal is read by anyone; unknown is 404 `animal_not_found`; shelters "
                    "are listed.",
                    probes="read_animal",
                    traps=Edit("unknown animal null", '''    if animal_id not in ANIMALS:
        raise Refusal(404, "animal_not_found")
    return ANIMALS[animal_id]''', "    return ANIMALS.get(animal_id)")),
        Requirement("Staff add animals to their own shelter: 201, name trimmed, species "
                    "lowercased, `available`, `Location`, ids from 7.",
                    probes="add_animal",
                    traps=(Edit("species stored as sent", "        return value.lower()", "        return value"),
                           without_location("animal without Location",
                                            '''response.headers["Location"] = f"/animals/{animal['id']}"'''))),
        Requirement("Animal bodies: known species, age 0-${age_max}, name 1-30 trimmed, no "
                    "other fields.",
                    probes="animal_validation",
                    traps=(extras_ignored("animal extras ignored", "AnimalIn"),
                           Edit("age unbounded", "Age = Annotated[int, Field(ge=0, le=${age_max})]",
                                "Age = Annotated[int, Field(ge=0)]"))),
        Requirement("PATCH changes only the fields sent; `null` is 422 `null_not_allowed`; `{}` "
                    "changes nothing.",
                    probes="patch_partial",
                    traps=(Edit("absent fields cleared", "animal.update(body.model_dump(exclude_unset=True))",
                                "animal.update(body.model_dump())"),
                           Edit("null ignored", "    if nulls:\n", "    if False:\n"))),
        Requirement("PATCH refusals: 404, then 403 `other_shelter`, then 409 `animal_adopted`.",
                    probes="patch_rules",
                    traps=(Edit("any shelter's animal", '''    if animal["shelter_id"] != user["shelter_id"]:
        raise Refusal(403, "other_shelter")
''', ""),
                           Edit("adopted animals editable", '''    if animal["status"] == "adopted":
        raise Refusal(409, "animal_adopted")
''', ""))),
        Requirement("Applying answers 201 with a `pending` application (message trimmed, "
                    "default empty) and `Location`; unknown animals are 404.",
                    probes="apply",
                    traps=(without_location("application without Location",
                                            '''response.headers["Location"] = f"/applications/{application['id']}"'''),
                           Edit("message default null", 'max_length=${message_max})] = ""',
                                'max_length=${message_max})] | None = None'))),
        Requirement("An unavailable animal is 409 `not_available`; a live application of the "
                    "same adopter for it is 409 `duplicate_application`.",
                    probes="apply_refusals",
                    traps=(Edit("duplicates allowed", '''    if any(a["animal_id"] == animal["id"] and a["adopter_id"] == user["id"]
           and a["status"] in LIVE for a in APPLICATIONS.values()):
        raise Refusal(409, "duplicate_application")''', "    pass"),
                           Edit("reserved animals open", 'if animal["status"] != "available":\n        raise Refusal(409, "not_available")',
                                'if animal["status"] == "adopted":\n        raise Refusal(409, "not_available")'))),
        Requirement("When both apply, ${first_check} is answered before ${second_check}.",
                    probes="apply_precedence",
                    traps=checks_reversed("apply checks swapped", "apply_checks")),
        Requirement("After a rejection or withdrawal the adopter may apply again.",
                    probes="reapply",
                    traps=Edit("any past application blocks",
                               'and a["status"] in LIVE for a in APPLICATIONS.values()):',
                               'for a in APPLICATIONS.values()):')),
        Requirement("Applications are seen by their adopter and their shelter's staff; others "
                    "get 404 `application_not_found`, on actions too.",
                    probes="application_visibility",
                    traps=(Edit("staff see every shelter", '''    if user["role"] == "staff":
        return ANIMALS[application["animal_id"]]["shelter_id"] == user["shelter_id"]''', '''    if user["role"] == "staff":
        return True'''),
                           Edit("hidden applications forbidden", '''    if application is None or not sees(user, application):
        raise Refusal(404, "application_not_found")''', '''    if application is None:
        raise Refusal(404, "application_not_found")
    if not sees(user, application):
        raise Refusal(403, "not_allowed")'''))),
        Requirement("Staff approve, reject and complete, adopters withdraw (else 403 "
                    "`not_allowed`, after the 404); other actions are 422.",
                    probes="actors",
                    traps=(Edit("adopters act as staff", '''    if user["role"] != actor:
        raise Refusal(403, "not_allowed")
''', ""),
                           Edit("status before role", '''    if user["role"] != actor:
        raise Refusal(403, "not_allowed")
    if application["status"] not in sources:
        raise Refusal(409, "invalid_transition")''', '''    if application["status"] not in sources:
        raise Refusal(409, "invalid_transition")
    if user["role"] != actor:
        raise Refusal(403, "not_allowed")'''))),
        Requirement("Only the listed transitions are allowed; others are 409 "
                    "`invalid_transition`.",
                    probes="transitions",
                    traps=(Edit("complete from pending", '"complete": ("staff", ("approved",), "completed"),',
                                '"complete": ("staff", ("pending", "approved"), "completed"),'),
                           Edit("rejected reopened", '"approve": ("staff", ("pending",), "approved"),',
                                '"approve": ("staff", ("pending", "rejected"), "approved"),'),
                           Edit("completed withdrawable", '"withdraw": ("adopter", ("pending", "approved"), "withdrawn"),',
                                '"withdraw": ("adopter", ("pending", "approved", "completed"), "withdrawn"),'))),
        Requirement("Approving reserves the animal; approving another application for it is "
                    "409 `animal_reserved`.",
                    probes="reservation",
                    traps=(Edit("second approval allowed", '''    if action == "approve" and animal["status"] != "available":
        raise Refusal(409, "animal_reserved")
''', ""),
                           Edit("approval leaves it available", '''    if target == "approved":
        animal["status"] = "reserved"
''', ""))),
        Requirement("Completing adopts the animal and rejects its other pending applications "
                    "only.",
                    probes="completion",
                    traps=(Edit("rivals left pending", '''        for rival in APPLICATIONS.values():
            if rival["animal_id"] == animal["id"] and rival["status"] == "pending":
                rival["status"] = "rejected"
''', ""),
                           Edit("rivals rejected everywhere",
                                'if rival["animal_id"] == animal["id"] and rival["status"] == "pending":',
                                'if rival["status"] == "pending":'))),
        Requirement("Rejecting or withdrawing an approved application frees the animal.",
                    probes="release",
                    traps=Edit("reservation kept", '''    if application["status"] == "approved":
        animal["status"] = "available"  # the reservation ends with the approval
''', "")),
        Requirement("`GET /applications` lists the caller's visible applications newest first, "
                    "filtered by `status`, paged with `X-Total-Count`.",
                    probes="list_applications",
                    traps=(Edit("applications oldest first", 'found.sort(key=lambda a: -a["id"])',
                                'found.sort(key=lambda a: a["id"])'),
                           Edit("staff list every shelter",
                                '''    found = [a for a in APPLICATIONS.values() if sees(user, a)''',
                                '''    found = [a for a in APPLICATIONS.values() if (user["role"] == "staff" or sees(user, a))'''))),
    ),
)
