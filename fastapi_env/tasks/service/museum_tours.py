"""Service tier: a museum's guided-tour desk specified like a product document (10 routes and a
HEAD: form sign-in issuing bearer tokens, curators and visitors, tours with normalised codes,
offset-aware start times returned in UTC, strict integers, ETag / If-None-Match / If-Match,
paginated and filtered lists with `X-Total-Count`, bookings with capacity rules, and one
`{"error": {...}}` format for every failure, the router's own included).

Pitfall density: several stated behaviours are where the natural FastAPI 0.165 / Pydantic 2.14
implementation is silently wrong (each verified on the pins): an empty form field counts as
missing; `StringConstraints` checks `pattern` before `to_lower`; an `AwareDatetime` keeps its
offset and a dict return writes UTC as `+00:00`; `int` query values accept `7.0`, `+7` and
` 7 `; an int `Literal` in the query refuses every string; a list query parameter without
`Query()` is read from the body; `@app.get` does not answer HEAD; trailing slashes redirect;
a handler for FastAPI's HTTPException misses the router's 404/405.

The parameters change what a correct app answers: the users, the code length, the capacity
bound, the page sizes and default, the seats per booking, the validation status, which of two
booking refusals wins, and the languages."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.service._core_nested_errors import (
    INVALID_INPUT,
    PROBE_HELPERS,
    REFUSALS,
    RESULT_ROW,
    role_not_checked,
    roles_block,
    whole_location_fields,
)
from fastapi_env.tasks.traps import (
    checks_of_the_other_order,
    extras_ignored,
    head_not_served,
    ids_reused,
    other_validation_status,
    router_error_traps,
    slashes_redirected,
)

REFERENCE = '''\
import re
import secrets
from datetime import timezone
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import (AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field,
                      StrictInt)
from starlette.exceptions import HTTPException as StarletteHTTPException

# user name (lower case) -> canonical name, password, role
USERS = {name.lower(): {"name": name, "password": password, "role": role}
         for name, password, role in ${users__repr}}
SESSIONS: dict[str, dict] = {}
TOURS: dict[int, dict] = {}
BOOKINGS: dict[int, dict] = {}
NEXT = {"tour": 1, "booking": 1}
INVALID_STATUS = ${invalid_status}
PAGE_SIZES = ${page_sizes__repr}
CODE = re.compile(r"[a-z]{${code_min},${code_max}}-[0-9]{2}")
Language = Literal[${language_literal}]

app = FastAPI(redirect_slashes=False)


''' + late_body.ROUTE_CLASS + '''

''' + REFUSALS + '''

@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "no_route" if exc.status_code == 404 else "method_not_allowed"
    return error_body(exc.status_code, code, exc.headers)


''' + INVALID_INPUT + '''

def tour_code(value: str) -> str:
    # trimmed and lower-cased first: "ABC-12" is a valid code
    code = value.strip().lower()
    if not CODE.fullmatch(code):
        raise ValueError("not a tour code")
    return code


def title(value: str) -> str:
    value = value.strip()
    if not 1 <= len(value) <= 60:
        raise ValueError("1-60 characters")
    return value


def not_a_number(value):
    # AwareDatetime reads a number, or a string of digits, as Unix seconds in UTC: the spec
    # wants a date-time with its offset.
    if not isinstance(value, str) or re.fullmatch(r"\\s*[-+]?\\d+(\\.\\d*)?\\s*", value):
        raise ValueError("a date-time with a UTC offset")
    return value


def in_utc(value):
    return value.astimezone(timezone.utc)


def utc_text(value) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def plain_digits(value: str) -> int:
    # only ASCII digits: Pydantic's int would also take " 7 ", "+7" and "7.0"
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise ValueError("a positive number in plain digits")
    return int(value)


def page_size(value: str) -> int:
    if value not in [str(size) for size in PAGE_SIZES]:
        raise ValueError("not an offered page size")
    return int(value)


Code = Annotated[str, AfterValidator(tour_code)]
Title = Annotated[str, AfterValidator(title)]
StartsAt = Annotated[AwareDatetime, BeforeValidator(not_a_number), AfterValidator(in_utc)]
Capacity = Annotated[StrictInt, Field(ge=1, le=${cap_max})]


class TourIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Code
    title: Title
    language: Language
    starts_at: StartsAt
    capacity: Capacity


class TourChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Title = None
    starts_at: StartsAt = None
    capacity: Capacity = None


class BookingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: Annotated[StrictInt, Field(ge=1, le=${max_seats})]


def caller(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    user = SESSIONS.get(token) if scheme.lower() == "bearer" else None
    if user is None:
        raise Refusal(401, "unauthorized", {"WWW-Authenticate": "Bearer"})
    return user


''' + roles_block('caller', 'AnyUser', {'Curator': 'curator', 'Visitor': 'visitor'}) + '''

def find_tour(tour_id: int) -> dict:
    if tour_id not in TOURS:
        raise Refusal(404, "tour_not_found")
    return TOURS[tour_id]


def booked(tour: dict) -> int:
    return sum(b["seats"] for b in BOOKINGS.values() if b["tour_id"] == tour["id"])


def etag(tour: dict) -> str:
    return '"%d"' % tour["version"]


def tour_out(tour: dict) -> dict:
    return {"id": tour["id"], "code": tour["code"], "title": tour["title"],
            "language": tour["language"], "starts_at": utc_text(tour["starts_at"]),
            "capacity": tour["capacity"], "booked": booked(tour), "version": tour["version"]}


def tag_matches(header: str | None, tour: dict) -> bool:
    tags = [tag.strip().removeprefix("W/") for tag in (header or "").split(",")]
    return "*" in tags or etag(tour) in tags


@app.post("/login")
async def login(request: Request):
    form = await request.form()
    missing = [f"body.{key}" for key in ("password", "username") if key not in form]
    # a form field not listed for the route makes the body invalid, as in a JSON body
    unknown = [f"body.{key}" for key in form if key not in ("password", "username")]
    if missing or unknown:
        raise Refusal(INVALID_STATUS, "invalid_input", fields=sorted(set(missing + unknown)))
    # a field sent empty is present: it is a wrong login, not a missing field
    user = USERS.get(str(form["username"]).lower())
    if user is None or user["password"] != form["password"]:
        raise Refusal(401, "bad_login")
    token = secrets.token_urlsafe(24)
    SESSIONS[token] = user
    return {"token": token, "name": user["name"], "role": user["role"]}


@app.get("/me")
def me(user: AnyUser):
    return {"name": user["name"], "role": user["role"]}


@app.post("/tours", status_code=201)
def create_tour(user: Curator, body: TourIn, response: Response):
    if any(t["code"] == body.code for t in TOURS.values()):
        raise Refusal(409, "code_taken")
    tour = body.model_dump() | {"id": NEXT["tour"], "version": 1}
    NEXT["tour"] += 1
    TOURS[tour["id"]] = tour
    response.headers["Location"] = f"/tours/{tour['id']}"
    response.headers["ETag"] = etag(tour)
    return tour_out(tour)


@app.get("/tours")
def list_tours(
    user: AnyUser,
    response: Response,
    language: Annotated[list[Language] | None, Query()] = None,
    q: str | None = None,
    page: Annotated[str, AfterValidator(plain_digits)] = 1,
    per_page: Annotated[str, AfterValidator(page_size)] = ${per_page_default},
):
    tours = sorted(TOURS.values(), key=lambda t: (t["starts_at"], t["id"]))
    if language is not None:
        tours = [t for t in tours if t["language"] in language]
    if q is not None and q.strip():
        tours = [t for t in tours if q.strip().lower() in t["title"].lower()]
    response.headers["X-Total-Count"] = str(len(tours))
    first = (page - 1) * per_page
    return {"page": page, "per_page": per_page,
            "items": [tour_out(t) for t in tours[first:first + per_page]]}


@app.api_route("/tours/{tour_id}", methods=["GET", "HEAD"])
def read_tour(tour_id: int, user: AnyUser,
              if_none_match: Annotated[str | None, Header()] = None):
    tour = find_tour(tour_id)
    if tag_matches(if_none_match, tour):
        return Response(status_code=304, headers={"ETag": etag(tour)})
    return JSONResponse(tour_out(tour), headers={"ETag": etag(tour)})


@app.patch("/tours/{tour_id}")
def change_tour(tour_id: int, user: Curator, body: TourChange, response: Response,
                if_match: Annotated[str | None, Header()] = None):
    tour = find_tour(tour_id)
    if if_match is not None and not tag_matches(if_match, tour):
        raise Refusal(412, "version_mismatch", {"ETag": etag(tour)})
    changes = body.model_dump(exclude_unset=True)
    if changes.get("capacity", tour["capacity"]) < booked(tour):
        raise Refusal(409, "capacity_below_booked")
    if any(tour[key] != value for key, value in changes.items()):
        tour.update(changes)
        tour["version"] += 1
    response.headers["ETag"] = etag(tour)
    return tour_out(tour)


@app.delete("/tours/{tour_id}", status_code=204)
def delete_tour(tour_id: int, user: Curator):
    tour = find_tour(tour_id)
    if booked(tour):
        raise Refusal(409, "tour_has_bookings")
    del TOURS[tour_id]
    return Response(status_code=204)


def not_booked_yet(tour: dict, user: dict, seats: int) -> None:
    if any(b["tour_id"] == tour["id"] and b["visitor"] == user["name"]
           for b in BOOKINGS.values()):
        raise Refusal(409, "already_booked")


def seats_left(tour: dict, user: dict, seats: int) -> None:
    if booked(tour) + seats > tour["capacity"]:
        raise Refusal(409, "not_enough_seats")


@app.post("/tours/{tour_id}/bookings", status_code=201)
def book(tour_id: int, user: Visitor, body: BookingIn, response: Response):
    tour = find_tour(tour_id)
    for check in ${booking_checks}:
        check(tour, user, body.seats)
    booking = {"id": NEXT["booking"], "tour_id": tour["id"], "visitor": user["name"],
               "seats": body.seats}
    NEXT["booking"] += 1
    BOOKINGS[booking["id"]] = booking
    response.headers["Location"] = f"/bookings/{booking['id']}"
    return booking


@app.get("/bookings")
def list_bookings(user: AnyUser):
    return [b for b in sorted(BOOKINGS.values(), key=lambda b: b["id"])
            if user["role"] == "curator" or b["visitor"] == user["name"]]


@app.delete("/bookings/{booking_id}", status_code=204)
def cancel_booking(booking_id: int, user: AnyUser):
    booking = BOOKINGS.get(booking_id)
    if booking is None or (user["role"] != "curator" and booking["visitor"] != user["name"]):
        raise Refusal(404, "booking_not_found")
    del BOOKINGS[booking_id]
    return Response(status_code=204)


''' + RESULT_ROW + '''

def login_as(name: str, password: str) -> dict:
    r = client.post("/login", data={"username": name, "password": password})
    return {"Authorization": "Bearer " + str(r.json().get("token"))}


client = TestClient(app)
curator, visitor = login_as(${c1__repr}, ${c1_pw__repr}), login_as(${v1__repr}, ${v1_pw__repr})
tour = client.post("/tours", headers=curator, json={
    "code": " ${sample_code} ", "title": " Night at the Museum ", "language": ${lang1__repr},
    "starts_at": "2031-03-14T19:30:00+02:00", "capacity": ${cap_max}})
result = [
    row(tour) + [tour.headers.get("location"), tour.headers.get("etag")],
    row(client.post(tour.headers.get("location", "/tours/0") + "/bookings",
                    json={"seats": ${max_seats}},
                    headers=visitor)),
    row(client.get("/tours", params={"per_page": ${per_page_second}}, headers=visitor)),
    row(client.get("/me", headers=visitor)),
]
'''

PROBES = PROBE_HELPERS + """

C1, C2 = (${c1__repr}, ${c1_pw__repr}), (${c2__repr}, ${c2_pw__repr})
V1, V2, V3 = (${v1__repr}, ${v1_pw__repr}), (${v2__repr}, ${v2_pw__repr}), (${v3__repr}, ${v3_pw__repr})
LANG1, LANG2, LANG3 = ${lang1__repr}, ${lang2__repr}, ${lang3__repr}
_SESSIONS = {}
_CODES = iter(range(10**4))


def _as(client, who):
    if who not in _SESSIONS:
        _SESSIONS[who] = _login(client, *who)
    return _SESSIONS[who]


def _code():
    n = next(_CODES)
    return "abcdefghijklmnop"[n // 100] * ${code_min} + f"-{n % 100:02d}"
""" + late_body.probe_source(
    [("POST", "/tours"), ("PATCH", "/tours/1"), ("POST", "/tours/1/bookings")],
    [("no token", "{}"), ("curator", "_as(client, C1)"), ("visitor", "_as(client, V1)")]) + """


def _tour_body(label, **fields):
    return {"code": _code(), "title": label, "language": LANG1,
            "starts_at": "2032-01-01T10:00:00Z", "capacity": 10} | fields


def _tour(client, label, **fields):
    r = client.post("/tours", json=_tour_body(label, **fields), headers=_as(client, C1))
    return r.json()["id"]


def _titles(client, q, **params):
    r = client.get("/tours", params={"q": q, "per_page": ${page_sizes__repr}[-1]} | params,
                   headers=_as(client, V1))
    return [t["title"] for t in r.json()["items"]]


def _book(client, tour, seats, who=V1):
    return client.post(f"/tours/{tour}/bookings", json={"seats": seats}, headers=_as(client, who))


def _signed_in(r):
    body = r.json()
    if r.status_code != 200:
        return [r.status_code, body]
    return [r.status_code, body["name"], body["role"], isinstance(body["token"], str)]


def probe_login(client):
    name, password = C2
    rows = [_signed_in(client.post("/login", data={"username": u, "password": p}))
            for u, p in [(name, password), (name.upper(), password), (V2[0].lower(), V2[1]),
                         (name, password.upper()), (name, password + " "), (" " + name, password),
                         ("nobody", password), (V1[0], V2[1])]]
    first, second = _login(client, *V3), _login(client, *V3)
    rows.append([first != second, _row(client.get("/me", headers=first)),
                 _row(client.get("/me", headers=second))])
    return rows


def probe_login_fields(client):
    name, password = V1
    rows = []
    for data in [{"username": name, "password": ""}, {"username": "", "password": password},
                 {"username": "", "password": ""}, {"username": name}, {"password": password},
                 {}]:
        rows.append([sorted(data), _row(client.post("/login", data=data))])
    rows.append(_row(client.post("/login", json={"username": name, "password": password})))
    return rows


def probe_login_extra_fields(client):
    name, password = V1
    rows = []
    for extra in [{"role": "curator"}, {"Username": name}, {"token": ""},
                  {"role": "curator", "a": "1"}]:
        data = {"username": name, "password": password} | extra
        rows.append([sorted(extra), _row(client.post("/login", data=data))])
    rows.append(_row(client.post("/login", data={"username": name, "role": "visitor"})))
    return rows


def probe_tokens(client):
    token = _as(client, V2)["Authorization"].split(" ", 1)[1]
    rows = []
    for headers in [{}, {"Authorization": "Bearer"}, {"Authorization": "Bearer "},
                    {"Authorization": "Bearer nope"}, {"Authorization": token},
                    {"Authorization": "Basic " + token}, {"Authorization": "Bearer " + token + "x"},
                    {"Authorization": "Bearer " + V2[0]}]:
        for method, path in [("GET", "/me"), ("POST", "/tours"), ("GET", "/tours"),
                             ("GET", "/tours/1"), ("PATCH", "/tours/1"), ("DELETE", "/tours/1"),
                             ("POST", "/tours/1/bookings"), ("GET", "/bookings"),
                             ("DELETE", "/bookings/1")]:
            r = client.request(method, path, headers=headers, json={"seats": "x"})
            rows.append([method, path, _with_headers(r, "www-authenticate")])
    rows.append(_row(client.get("/me", headers={"Authorization": "bEARER " + token})))
    return rows


def probe_roles(client):
    visitor, curator = _as(client, V1), _as(client, C2)
    return [_row(client.post("/tours", json={}, headers=visitor)),
            _row(client.post("/tours", json=_tour_body("Role check"), headers=visitor)),
            _row(client.patch("/tours/abc", json={"capacity": 0}, headers=visitor)),
            _row(client.delete("/tours/99999", headers=visitor)),
            _row(client.post("/tours/1/bookings", json={"seats": 1}, headers=curator)),
            _row(client.post("/tours/x/bookings", json={}, headers=curator)),
            _row(client.post("/tours", json=[], headers={}))]


def probe_me(client):
    return [_row(client.get("/me", headers=_as(client, who))) for who in (C1, C2, V1, V2, V3)]


def probe_router_errors(client):
    rows = []
    for method, path in [("GET", "/nowhere"), ("GET", "/tours/1/guides"), ("PUT", "/login"),
                         ("POST", "/me"), ("GET", "/bookings/1"), ("PUT", "/bookings")]:
        r = client.request(method, path, headers=_as(client, V1))
        rows.append([method, path, _with_headers(r, "allow")])
    return rows


def probe_trailing_slash(client):
    tour = _tour(client, "Slash tour")
    rows = []
    for method, path in [("GET", "/tours/"), ("GET", "/me/"), ("POST", "/login/"),
                         ("GET", f"/tours/{tour}/"), ("GET", "/bookings/")]:
        r = client.request(method, path, headers=_as(client, C1), follow_redirects=False)
        location = (r.headers.get("location") or "").replace(str(tour), "<id>")
        rows.append([method, path.replace(str(tour), "<id>"), _row(r), location])
    return rows


def probe_validation_format(client):
    curator = _as(client, C1)
    return [_row(client.post("/tours", json={}, headers=curator)),
            _row(client.post("/tours", json=[1], headers=curator)),
            _row(client.get("/tours/abc", headers=curator)),
            _row(client.get("/tours", params={"page": "0", "per_page": "x"}, headers=curator)),
            _row(client.patch("/tours/1", json={"capacity": "big", "guide": "Al"},
                              headers=curator)),
            _row(client.post("/tours/1/bookings", json={}, headers=_as(client, V1))),
            _row(client.get("/tours", params={"language": ["xx"]}, headers=curator))]


def probe_codes(client):
    rows = []
    for code in [" ${probe_code} ", "${probe_code_stored}", "${min_code}", "${long_code}",
                 "${short_code}", "${probe_letters}-1", "${probe_letters}-123",
                 "${probe_letters}12", "\u00c4${probe_letters_tail}-12", 42]:
        r = client.post("/tours", json=_tour_body("Code check", code=code), headers=_as(client, C1))
        rows.append([code, r.status_code, r.json()["code"] if r.status_code == 201 else r.json()])
    return rows


def probe_starts_at(client):
    rows = []
    for value in ["2032-06-01T00:30:00+01:00", "2032-06-01T23:45:00-05:30", "2032-06-01T08:00:00Z",
                  "2032-06-01T08:00:00.999+00:00", "2032-06-01T08:00:00", "2032-06-01",
                  "soon", None, 1970000000, "1970000000"]:
        r = client.post("/tours", json=_tour_body("Time check", starts_at=value),
                        headers=_as(client, C1))
        rows.append([value, r.status_code,
                     r.json()["starts_at"] if r.status_code == 201 else r.json()])
    return rows


def probe_tour_fields(client):
    rows = []
    for fields in [{"title": "   "}, {"title": " " + "t" * 60 + " "}, {"title": "t" * 61},
                   {"capacity": 0}, {"capacity": 1}, {"capacity": ${cap_max}},
                   {"capacity": ${cap_max} + 1}, {"capacity": "12"}, {"capacity": 12.0},
                   {"capacity": True}, {"language": LANG1.upper()}, {"language": LANG3},
                   {"guide": "Al"}, {"title": None}]:
        r = client.post("/tours", json=_tour_body("Field check", **fields), headers=_as(client, C1))
        body = r.json()
        rows.append([fields if len(str(fields)) < 40 else "long", r.status_code,
                     [len(body["title"]), body["capacity"], body["language"]]
                     if r.status_code == 201 else body])
    return rows


def probe_create_tour(client):
    r = client.post("/tours", json=_tour_body("  Create check  ", language=LANG2,
                                              starts_at="2033-02-03T04:05:06+00:00"),
                    headers=_as(client, C2))
    body = r.json()
    return [[r.status_code, {k: v for k, v in body.items() if k not in ("id", "code")},
             r.headers.get("location") == f"/tours/{body['id']}", r.headers.get("etag")]]


def probe_list_order(client):
    ids = [_tour(client, f"Order {n}", starts_at=at) for n, at in enumerate([
        "2034-01-01T12:00:00Z", "2034-01-01T11:00:00Z", "2034-01-01T13:00:00+02:00",
        "2034-01-01T12:00:00+00:00"])]
    rows = [_titles(client, "order")]
    client.patch(f"/tours/{ids[0]}", json={"starts_at": "2034-01-01T10:59:59Z"},
                 headers=_as(client, C1))
    rows.append(_titles(client, "order"))
    return rows


def probe_language_filter(client):
    for n, lang in enumerate([LANG1, LANG2, LANG3, LANG2]):
        _tour(client, f"Polyglot {n}", language=lang)
    rows = []
    for langs in [[LANG2], [LANG1, LANG3], [LANG3, LANG2, LANG3], []]:
        rows.append([langs, _titles(client, "polyglot", language=langs)])
    rows.append(_row(client.get("/tours", params={"language": [LANG1, "xx"]},
                                headers=_as(client, V1))))
    return rows


def probe_search_and_total(client):
    for title in ["Roman Coins", "coins of gaul", "Greek Vases"] + [
            f"Coin hoard {n}" for n in range(${per_page_smallest})]:
        _tour(client, title)
    rows = []
    for q in ["coins", " COINS ", "vases", "of g", "zzz", "coin"]:
        r = client.get("/tours", params={"q": q, "per_page": ${per_page_smallest}},
                       headers=_as(client, V1))
        rows.append([q, [t["title"] for t in r.json()["items"]], r.headers.get("x-total-count")])
    return rows


def probe_pages(client):
    for n in range(${per_page_smallest} + 2):
        _tour(client, f"Paged {n}", starts_at=f"2035-01-01T10:{n:02d}:00Z")
    rows = []
    for page in ["1", "2", "3", "7.0", "+2", " 2 ", "0", "-1", "two", "2e0"]:
        r = client.get("/tours", params={"q": "paged", "page": page,
                                         "per_page": ${per_page_smallest}},
                       headers=_as(client, V1))
        body = r.json()
        rows.append([page, r.status_code,
                     [body["page"], [t["title"] for t in body["items"]],
                      r.headers.get("x-total-count")] if r.status_code == 200 else body])
    return rows


def probe_page_sizes(client):
    for n in range(3):
        _tour(client, f"Sized {n}")
    rows = []
    for size in [str(s) for s in ${page_sizes__repr}] + ["${per_page_smallest}.0", " ${per_page_smallest}", "0", "-5", "${not_a_size}"]:
        r = client.get("/tours", params={"q": "sized", "per_page": size}, headers=_as(client, V1))
        body = r.json()
        rows.append([size, r.status_code, [body["per_page"], len(body["items"])]
                     if r.status_code == 200 else body])
    r = client.get("/tours", params={"q": "sized"}, headers=_as(client, V1))
    rows.append(["default", r.json()["per_page"]])
    return rows


def probe_conditional_get(client):
    tour = _tour(client, "Etag tour")
    client.patch(f"/tours/{tour}", json={"capacity": 11}, headers=_as(client, C1))
    rows = []
    for tag in [None, '"2"', '"1"', 'W/"2"', '"1", "2"', '"1",W/"2"', "*", "2", '"3"']:
        headers = _as(client, V1) | ({"If-None-Match": tag} if tag else {})
        r = client.get(f"/tours/{tour}", headers=headers)
        rows.append([tag, r.status_code, r.headers.get("etag"), r.content == b"",
                     r.json()["version"] if r.status_code == 200 else None])
    rows.append(_row(client.get("/tours/99999", headers=_as(client, V1))))
    return rows


def probe_head(client):
    tour = _tour(client, "Head tour")
    got = client.get(f"/tours/{tour}", headers=_as(client, V2))
    rows = []
    for headers in [_as(client, V2), _as(client, V2) | {"If-None-Match": '"1"'}, {}]:
        r = client.head(f"/tours/{tour}", headers=headers)
        rows.append([r.status_code, r.headers.get("etag"), r.headers.get("content-type"),
                     r.headers.get("www-authenticate"), r.content.decode()])
    rows.append([got.headers.get("content-length") == client.head(
        f"/tours/{tour}", headers=_as(client, V2)).headers.get("content-length")])
    r = client.head("/tours/99999", headers=_as(client, V2))
    rows.append([r.status_code, r.content.decode()])
    return rows


def probe_patch(client):
    tour = _tour(client, "Patch tour", capacity=6)
    curator = _as(client, C2)
    rows = []
    for body in [{"title": " Patched tour "}, {"title": "Patched tour"}, {},
                 {"starts_at": "2032-01-01T11:00:00+01:00"}, {"capacity": 8},
                 {"title": None}, {"capacity": 0}, {"code": "zz-99"}]:
        r = client.patch(f"/tours/{tour}", json=body, headers=curator)
        rows.append([body, r.status_code, r.headers.get("etag"),
                     [r.json()[k] for k in ("title", "capacity", "version")]
                     if r.status_code == 200 else r.json()])
    rows.append(_row(client.patch("/tours/99999", json={}, headers=curator)))
    return rows


def probe_if_match(client):
    tour = _tour(client, "Match tour")
    curator = _as(client, C1)
    client.patch(f"/tours/{tour}", json={"capacity": 12}, headers=curator)
    rows = []
    for tag in ['"1"', '"2"', 'W/"3"', '"9", "4"', "*", "6"]:
        r = client.patch(f"/tours/{tour}", json={"capacity": 13 + len(rows)},
                         headers=curator | {"If-Match": tag})
        rows.append([tag, r.status_code, r.headers.get("etag"),
                     r.json()["version"] if r.status_code == 200 else r.json()])
    rows.append(_row(client.patch("/tours/99999", json={}, headers=curator | {"If-Match": '"1"'})))
    return rows


def probe_capacity_below_booked(client):
    tour = _tour(client, "Crowded tour", capacity=${max_seats} + 1)
    _book(client, tour, ${max_seats})
    curator = _as(client, C1)
    below = client.patch(f"/tours/{tour}", json={"capacity": ${max_seats} - 1}, headers=curator)
    equal = client.patch(f"/tours/{tour}", json={"capacity": ${max_seats}}, headers=curator)
    return [_row(below), [equal.status_code, equal.json()["capacity"], equal.json()["booked"]]]


def probe_delete_tour(client):
    busy, empty = _tour(client, "Busy tour"), _tour(client, "Empty tour")
    _book(client, busy, 1, who=V2)
    curator = _as(client, C2)
    return [_row(client.delete(f"/tours/{empty}", headers=curator)),
            _row(client.delete(f"/tours/{empty}", headers=curator)),
            _row(client.get(f"/tours/{empty}", headers=curator)),
            _row(client.delete(f"/tours/{busy}", headers=curator)),
            [_tour(client, "After delete") - empty]]


def probe_book(client):
    tour = _tour(client, "Booked tour", capacity=${cap_max})
    rows = []
    for who, seats in [(V1, 0), (V1, ${max_seats} + 1), (V1, "2"), (V1, 2.0), (V1, True),
                       (V1, ${max_seats}), (V2, 1)]:
        r = _book(client, tour, seats, who)
        rows.append([seats, r.status_code, r.json() if r.status_code >= 400 else
                     [r.json()["visitor"], r.json()["seats"],
                      r.headers.get("location") == f"/bookings/{r.json()['id']}"]])
    rows.append(["booked", client.get(f"/tours/{tour}", headers=_as(client, V3)).json()["booked"]])
    rows.append(_row(_book(client, 99999, 1, V3)))
    return rows


def probe_booking_limits(client):
    tour = _tour(client, "Small tour", capacity=${max_seats} + 1)
    return [_row(_book(client, tour, ${max_seats}, V1))[:1],
            _row(_book(client, tour, 1, V1)), _row(_book(client, tour, 2, V2)),
            _row(_book(client, tour, 1, V2))[:1], _row(_book(client, tour, 1, V3))]


def probe_booking_precedence(client):
    tour = _tour(client, "Full tour", capacity=${max_seats})
    _book(client, tour, ${max_seats}, V3)
    return [_row(_book(client, tour, 1, V3))]


def probe_bookings(client):
    tour = _tour(client, "Listed tour", capacity=${cap_max})
    mine, theirs = _book(client, tour, 1, V1).json()["id"], _book(client, tour, 2, V2).json()["id"]
    rows = [[who[0], [b["visitor"] for b in client.get("/bookings", headers=_as(client, who)).json()
                      if b["id"] in (mine, theirs)]] for who in (V1, V2, V3, C1)]
    rows.append(_row(client.delete(f"/bookings/{theirs}", headers=_as(client, V1))))
    rows.append(_row(client.delete(f"/bookings/{mine}", headers=_as(client, V1))))
    rows.append(_row(client.delete(f"/bookings/{mine}", headers=_as(client, V1))))
    rows.append(_row(client.delete(f"/bookings/{theirs}", headers=_as(client, C2))))
    rows.append(["booked", client.get(f"/tours/{tour}", headers=_as(client, V1)).json()["booked"]])
    rows.append([_book(client, tour, 1, V3).json()["id"] - theirs])
    return rows
"""

PROMPT = '''\
Build the HTTP API of a museum's guided-tour desk, as specified below. All state is in memory;
the service starts with the users given here and no tours or bookings.

## Signing in
`POST /login` takes an HTML form (`application/x-www-form-urlencoded`) with the fields
`username` and `password`:

| username | password | role |
|---|---|---|
${user_table}

User names are matched ignoring case (no trimming), passwords exactly. A right pair answers 200
`{"token": <a new opaque string>, "name": <the name as spelled in this table>, "role"}`; each
sign-in gives a new token and earlier ones stay valid. A wrong pair, including a field sent
with an empty value, is 401 `bad_login`. A field that is not sent at all is invalid input (see
Errors) naming `body.username` and/or `body.password`; a body that is not a form sends no field.
Any other form field (`role`, say) is invalid input too, naming it (`body.role`), with or
without the two fields.

Every other route needs `Authorization: Bearer <token>` (the word `Bearer` in any case).
Missing, malformed or unknown tokens are 401 `unauthorized` with the header
`WWW-Authenticate: Bearer`. Routes marked *curator* or *visitor* answer 403 `forbidden` to
the other role. `GET /me` answers 200 `{"name", "role"}`.

The order of checks on every route: the token, the role, input validation, then whether the
things the request names exist, then the route's own rules. That holds for a body that is not
JSON too: without a valid token it is 401, with the other role's token 403.

## Errors
Every error body is `{"error": {"code": <code>, "status": <the status code>}}`. Invalid input
is ${invalid_status} `invalid_input`, whose `error` object has one more key, `"fields"`: the
sorted, distinct locations of the problems, each the first two parts of the location joined by
a dot (`"body.capacity"`, `"query.page"`, `"path.tour_id"`; just `"body"` when the body is
missing, is not JSON, or its JSON is not an object). A body field not listed for a route makes the body invalid; so does `null` for
any field. A path that matches no route is 404 `no_route`, and that includes any path ending in
`/` (such paths are not redirected); a known path with another method is 405
`method_not_allowed` with the `Allow` header.

## Tours
A tour is `{"id", "code", "title", "language", "starts_at", "capacity", "booked", "version"}`.
Ids are 1, 2, ... in creation order, never reused. `booked` is the sum of the seats of the
tour's bookings; `version` starts at 1.
- `code`: trimmed and lower-cased, the result must be ${code_min_text} ASCII letters, a hyphen
  and two digits (`" ${sample_code} "` is stored as `"${sample_code_stored}"`). Codes are unique: 409 `code_taken`.
- `title`: trimmed, then 1-60 characters.
- `language`: one of ${language_list} (exactly).
- `starts_at`: a JSON string holding a date-time with a UTC offset (one without is invalid, and
  so is a number or a string of digits such as Unix seconds), e.g.
  `"2031-03-14T19:30:00+02:00"`. It is always returned in UTC, to the second, as
  `YYYY-MM-DDTHH:MM:SSZ` (that one becomes `"2031-03-14T17:30:00Z"`); fractions of a second
  are dropped.
- `capacity`: a JSON integer from 1 to ${cap_max} (`"12"`, `12.0` and `true` are invalid).

Routes:
- `POST /tours` (*curator*), body with all five input fields: 201 with the tour, the header
  `Location: /tours/<id>` and `ETag: "<version>"` (the version in double quotes, e.g. `"1"`).
- `GET /tours` (anyone signed in): 200 `{"page", "per_page", "items"}`, the tours ordered by
  `starts_at`, then id, with the header `X-Total-Count` (the number of tours matching the
  filters, over all pages). Query parameters, all optional:
  - `language`, which may be repeated: tours in any of the languages given (each must be one
    of the languages above);
  - `q`: tours whose title contains it, ignoring case, after trimming (empty: no filter);
  - `page`: a whole number >= 1 written in plain ASCII digits only (`7.0`, `+7`, ` 7 `
    are invalid), default 1; a page past the end has no items;
  - `per_page`: one of ${page_size_list}, written in plain digits like `page` (so
    `${per_page_smallest}.0` and ` ${per_page_smallest}` are invalid), default ${per_page_default}; any
    other value is invalid.
- `GET /tours/{tour_id}` (anyone signed in): 200 with the tour and its `ETag`. With an
  `If-None-Match` header listing the current ETag (a comma-separated list; a `W/` prefix is
  ignored) or `*`: 304 with the `ETag` and no body. The route also answers `HEAD`: the same
  status and headers as `GET` would give, and no body.
- `PATCH /tours/{tour_id}` (*curator*): a body with any of `title`, `starts_at`, `capacity`
  (same rules); fields left out keep their values. The version goes up by one only when a
  value actually changes. With an `If-Match` header (same matching as `If-None-Match`) that
  does not match the current ETag: 412 `version_mismatch` with the current `ETag`. A capacity
  below `booked`: 409 `capacity_below_booked`. 200 with the tour and its (new) `ETag`.
- `DELETE /tours/{tour_id}` (*curator*): 204 with no body; a tour with bookings: 409
  `tour_has_bookings`.
An unknown tour id is 404 `tour_not_found` on all of them.

## Bookings
A booking is `{"id", "tour_id", "visitor", "seats"}`; ids are 1, 2, ... and never reused.
- `POST /tours/{tour_id}/bookings` (*visitor*), body `{"seats"}`, a JSON integer from 1 to
  ${max_seats} (strictly, as for `capacity`): 201 with the booking and `Location: /bookings/<id>`. A visitor books a tour at
  most once (409 `already_booked`) and the tour's booked seats may not exceed its capacity
  (409 `not_enough_seats`); when both apply, `${first_refusal}` wins.
- `GET /bookings`: 200, a visitor's own bookings (a curator's: everyone's), by id.
- `DELETE /bookings/{booking_id}`: the visitor who made it or any curator; 204 with no body,
  the seats become free. Another visitor's booking or an unknown id: 404 `booking_not_found`.

## result
Sign in as `${c1}` and as `${v1}` (no rows), then one row per request, each `[status code,
JSON body]` unless said otherwise:
1. `POST /tours` as `${c1}` with `{"code": " ${sample_code} ", "title": " Night at the Museum ",
   "language": "${lang1}", "starts_at": "2031-03-14T19:30:00+02:00", "capacity": ${cap_max}}`:
   `[status code, JSON body, Location header, ETag header]`
2. `POST <the Location of row 1>/bookings` as `${v1}` with `{"seats": ${max_seats}}`
3. `GET /tours?per_page=${per_page_second}` as `${v1}`
4. `GET /me` as `${v1}`
'''

USER_SETS = {
    "first": [["Ines", "opal-7", "curator"], ["Marek", "basalt-2", "curator"],
              ["Yuki", "cedar-5", "visitor"], ["Tom", "flint-9", "visitor"],
              ["Ada", "moss-4", "visitor"]],
    "second": [["Oluwa", "quartz-3", "curator"], ["Bea", "slate-8", "curator"],
               ["Nils", "amber-1", "visitor"], ["Priya", "jade-6", "visitor"],
               ["Lou", "onyx-2", "visitor"]],
}
CHECKS = {"already_booked": "(not_booked_yet, seats_left)",
          "not_enough_seats": "(seats_left, not_booked_yet)"}


def derive(p):
    curators = [u for u in USER_SETS[p["user_set"]] if u[2] == "curator"]
    visitors = [u for u in USER_SETS[p["user_set"]] if u[2] == "visitor"]
    low, high = p["code_min"], p["code_max"]
    sample = "NIGHT"[:high] + "-07"
    probe_letters = ("RQ" + "X" * high)[:high]
    languages = p["languages"]
    return {
        "users": USER_SETS[p["user_set"]],
        "user_table": "\n".join(f"| {n} | {pw} | {r} |" for n, pw, r in USER_SETS[p["user_set"]]),
        "c1": curators[0][0], "c1_pw": curators[0][1], "c2": curators[1][0],
        "c2_pw": curators[1][1], "v1": visitors[0][0], "v1_pw": visitors[0][1],
        "v2": visitors[1][0], "v2_pw": visitors[1][1], "v3": visitors[2][0],
        "v3_pw": visitors[2][1],
        "code_min_text": f"{low} to {high}" if low != high else str(low),
        "sample_code": sample, "sample_code_stored": sample.lower(),
        "probe_letters": probe_letters, "probe_letters_tail": probe_letters[1:],
        "probe_code": probe_letters + "-21", "probe_code_stored": probe_letters.lower() + "-21",
        "min_code": ("KX" + "Z" * low)[:low] + "-34", "long_code": "L" * (high + 1) + "-01",
        "short_code": "S" * (low - 1) + "-01",
        "lang1": languages[0], "lang2": languages[1], "lang3": languages[2],
        "language_literal": ", ".join(repr(lang) for lang in languages),
        "language_list": ", ".join(f"`{lang}`" for lang in languages),
        "page_size_list": ", ".join(str(s) for s in p["page_sizes"]),
        "page_sizes_literal": ", ".join(str(s) for s in p["page_sizes"]),
        "per_page_default": p["page_sizes"][0], "per_page_second": p["page_sizes"][1],
        "per_page_smallest": min(p["page_sizes"]), "not_a_size": p["page_sizes"][0] + 1,
        "booking_checks": CHECKS[p["first_refusal"]],
    }



FAMILY = Family(
    id="service/museum_tours",
    title="Museum tour desk: form sign-in, bearer tokens, UTC times, ETags and HEAD, bookings",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"user_set": "first", "code_min": 2, "code_max": 4, "cap_max": 40,
              "page_sizes": [10, 25, 50], "max_seats": 4, "invalid_status": 422,
              "first_refusal": "already_booked", "languages": ["en", "fr", "de"]},
    space={
        "user_set": ["first", "second"],
        "codes": [{"code_min": 2, "code_max": 4}, {"code_min": 3, "code_max": 3},
                  {"code_min": 2, "code_max": 3}],
        "cap_max": [40, 25],
        "page_sizes": [[10, 25, 50], [5, 20], [4, 8, 12]],
        "max_seats": [4, 6],
        "invalid_status": [422, 400],
        "first_refusal": ["already_booked", "not_enough_seats"],
        "languages": [["en", "fr", "de"], ["nl", "en", "es", "it"]],
    },
    derive=derive,
    instances=11,
    requirements=(
        Requirement("`POST /login` signs a user in from form fields (name ignoring case, "
                    "password exactly) with a new token each time; `GET /me` names the caller.",
                    probes=("login", "me"),
                    traps=(Edit("user names case-sensitive",
                                'user = USERS.get(str(form["username"]).lower())',
                                'user = next((u for u in USERS.values() '
                                'if u["name"] == form["username"]), None)'),
                           Edit("one token per user", "token = secrets.token_urlsafe(24)",
                                'token = "session-" + user["name"].lower()'),
                           Edit("me in lower case",
                                'def me(user: AnyUser):\n    return {"name": user["name"],',
                                'def me(user: AnyUser):\n    return {"name": user["name"].lower(),'))),
        Requirement("A login field sent empty is 401 `bad_login`; one not sent is invalid "
                    "input naming it.",
                    probes="login_fields",
                    traps=Edit("empty fields count as missing",
                               'for key in ("password", "username") if key not in form]',
                               'for key in ("password", "username") if not form.get(key)]')),
        Requirement("A login form field other than `username` and `password` is invalid input "
                    "naming it.",
                    probes="login_extra_fields",
                    traps=Edit("extra login fields ignored",
                               '    if missing or unknown:\n',
                               '    if missing:\n')),
        Requirement("Other routes need a bearer token of a signed-in user (scheme in any case): "
                    "else 401 `unauthorized` with `WWW-Authenticate: Bearer`.",
                    probes="tokens",
                    traps=(Edit("scheme case-sensitive", 'if scheme.lower() == "bearer" else None',
                                'if scheme == "Bearer" else None'),
                           Edit("no WWW-Authenticate on 401",
                                'raise Refusal(401, "unauthorized", {"WWW-Authenticate": "Bearer"})',
                                'raise Refusal(401, "unauthorized")'))),
        Requirement("Curator and visitor routes answer 403 `forbidden` to the other role, "
                    "before validating the input.",
                    probes="roles",
                    traps=(role_not_checked("visitors manage tours", "Curator", "curator", "AnyUser"),
                           role_not_checked("curators book", "Visitor", "visitor", "AnyUser"))),
        Requirement("The token and the role are checked before the body, even a body that is "
                    "not JSON (then invalid input naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Unknown paths are 404 `no_route` and wrong methods 405 `method_not_allowed` "
                    "with `Allow`, in the service's error format.",
                    probes="router_errors",
                    traps=router_error_traps("    return error_body(exc.status_code, code, exc.headers)")),
        Requirement("A path ending in `/` is 404 `no_route`, not a redirect.",
                    probes="trailing_slash", traps=slashes_redirected(name="trailing slash redirected")),
        Requirement("Invalid input is ${invalid_status} `invalid_input` with the sorted, distinct "
                    "`where.name` fields.",
                    probes="validation_format",
                    traps=(other_validation_status(),
                           whole_location_fields())),
        Requirement("Tour codes are trimmed and lower-cased before they must match "
                    "${code_min_text} letters, a hyphen and two digits; codes are unique.",
                    probes="codes",
                    traps=(Edit("pattern checked before lower-casing",
                                "Code = Annotated[str, AfterValidator(tour_code)]",
                                "Code = Annotated[str, __import__('pydantic').StringConstraints("
                                "strip_whitespace=True, to_lower=True, "
                                "pattern=r'^[a-z]{${code_min},${code_max}}-[0-9]{2}$$')]"),
                           Edit("duplicate codes allowed",
                                '    if any(t["code"] == body.code for t in TOURS.values()):\n'
                                '        raise Refusal(409, "code_taken")\n', ""))),
        Requirement("`starts_at` needs a UTC offset and is returned in UTC as "
                    "`YYYY-MM-DDTHH:MM:SSZ`, fractions dropped.",
                    probes="starts_at",
                    traps=(Edit("UTC written as +00:00",
                                'return value.strftime("%Y-%m-%dT%H:%M:%SZ")',
                                "return value.isoformat()"),
                           Edit("offset not converted",
                                "return value.astimezone(timezone.utc)", "return value"),
                           Edit("fractions kept",
                                'return value.strftime("%Y-%m-%dT%H:%M:%SZ")',
                                'return value.isoformat().replace("+00:00", "Z")'),
                           Edit("offset optional",
                                "StartsAt = Annotated[AwareDatetime, BeforeValidator(not_a_number), "
                                "AfterValidator(in_utc)]",
                                "StartsAt = Annotated[__import__('datetime').datetime, "
                                "BeforeValidator(not_a_number), "
                                "AfterValidator(lambda v: in_utc(v if v.tzinfo else "
                                "v.replace(tzinfo=timezone.utc)))]"),
                           Edit("Unix seconds read as times",
                                "BeforeValidator(not_a_number), AfterValidator(in_utc)]",
                                "AfterValidator(in_utc)]"))),
        Requirement("Titles are trimmed to 1-60 characters, capacities JSON integers 1-${cap_max}, "
                    "languages exact; tour bodies take no other field and no null.",
                    probes="tour_fields",
                    traps=(Edit("capacity lax",
                                "Capacity = Annotated[StrictInt, Field(ge=1, le=${cap_max})]",
                                "Capacity = Annotated[int, Field(ge=1, le=${cap_max})]"),
                           Edit("capacity bound one too high",
                                "Capacity = Annotated[StrictInt, Field(ge=1, le=${cap_max})]",
                                "Capacity = Annotated[StrictInt, Field(ge=1, le=${cap_max} + 1)]"),
                           Edit("title length before trimming",
                                "    value = value.strip()\n    if not 1 <= len(value) <= 60:",
                                "    if not 1 <= len(value.strip()) or len(value) > 60:\n"
                                "        raise ValueError('length')\n    value = value.strip()\n"
                                "    if False:"),
                           extras_ignored("tour extras ignored", "TourIn"))),
        Requirement("`POST /tours` answers 201 with the tour, `Location: /tours/<id>` and "
                    "`ETag: \"1\"`.",
                    probes="create_tour",
                    traps=(Edit("no Location on tours",
                                "    response.headers[\"Location\"] = f\"/tours/{tour['id']}\"\n", ""),
                           Edit("ETag unquoted", "return '\"%d\"' % tour[\"version\"]",
                                "return '%d' % tour[\"version\"]"))),
        Requirement("`GET /tours` orders by `starts_at`, then id, and follows changed times.",
                    probes="list_order",
                    traps=(Edit("tours by id",
                                'key=lambda t: (t["starts_at"], t["id"]))',
                                'key=lambda t: t["id"])'),
                           Edit("ties by newest",
                                'key=lambda t: (t["starts_at"], t["id"]))',
                                'key=lambda t: (t["starts_at"], -t["id"]))'))),
        Requirement("A repeated `language` filter matches any of the languages given.",
                    probes="language_filter",
                    traps=Edit("language list read from the body",
                               "language: Annotated[list[Language] | None, Query()] = None,",
                               "language: list[Language] | None = None,")),
        Requirement("`q` filters titles by a trimmed, case-insensitive substring; "
                    "`X-Total-Count` counts every match.",
                    probes="search_and_total",
                    traps=(Edit("total counts the page",
                                'response.headers["X-Total-Count"] = str(len(tours))',
                                'response.headers["X-Total-Count"] = str(len(tours[(page - 1) '
                                '* per_page:page * per_page]))'),
                           Edit("search case-sensitive",
                                'if q.strip().lower() in t["title"].lower()]',
                                'if q.strip() in t["title"]]'))),
        Requirement("`page` is a whole number >= 1 in plain digits only (default 1).",
                    probes="pages",
                    traps=Edit("page parsed as an integer",
                               "page: Annotated[str, AfterValidator(plain_digits)] = 1,",
                               "page: Annotated[int, Query(ge=1)] = 1,")),
        Requirement("`per_page` is one of ${page_size_list} (default ${per_page_default}); "
                    "any other value is invalid.",
                    probes="page_sizes",
                    traps=(Edit("page sizes as an int Literal",
                                "per_page: Annotated[str, AfterValidator(page_size)]",
                                "per_page: Literal[${page_sizes_literal}]"),
                           Edit("page sizes parsed as integers",
                                "per_page: Annotated[str, AfterValidator(page_size)]",
                                "per_page: Annotated[int, AfterValidator(lambda v: page_size(str(v)))]"))),
        Requirement("`GET /tours/{tour_id}` sends the `ETag`; a matching `If-None-Match` (list, "
                    "weak or `*`) is 304 with the `ETag` and no body.",
                    probes="conditional_get",
                    traps=(Edit("If-None-Match compared exactly",
                                "    if tag_matches(if_none_match, tour):",
                                "    if if_none_match == etag(tour):"),
                           Edit("304 without ETag",
                                'return Response(status_code=304, headers={"ETag": etag(tour)})',
                                "return Response(status_code=304)"))),
        Requirement("`HEAD /tours/{tour_id}` answers as `GET` would, without a body.",
                    probes="head",
                    traps=head_not_served('@app.api_route("/tours/{tour_id}", methods=["GET", "HEAD"])')),
        Requirement("`PATCH` changes only the fields sent, bumps the version only on a real "
                    "change, refuses `null` and a capacity below `booked` (409).",
                    probes=("patch", "capacity_below_booked"),
                    traps=(Edit("version bumped by every PATCH",
                                "    if any(tour[key] != value for key, value in changes.items()):",
                                "    if True:"),
                           Edit("omitted fields reset", "changes = body.model_dump(exclude_unset=True)",
                                "changes = body.model_dump()"),
                           Edit("capacity may not equal booked",
                                'if changes.get("capacity", tour["capacity"]) < booked(tour):',
                                'if changes.get("capacity", tour["capacity"]) <= booked(tour):'))),
        Requirement("A non-matching `If-Match` is 412 `version_mismatch` with the current `ETag`.",
                    probes="if_match",
                    traps=(Edit("If-Match ignored",
                                "    if if_match is not None and not tag_matches(if_match, tour):",
                                "    if False:"),
                           Edit("412 without ETag",
                                'raise Refusal(412, "version_mismatch", {"ETag": etag(tour)})',
                                'raise Refusal(412, "version_mismatch")'))),
        Requirement("`DELETE /tours/{tour_id}` is 204, 409 `tour_has_bookings` while booked; "
                    "tour ids are never reused.",
                    probes="delete_tour",
                    traps=(Edit("booked tours deleted",
                                '    if booked(tour):\n        raise Refusal(409, "tour_has_bookings")\n',
                                ""),
                           ids_reused("tour ids reused", "tour = body.model_dump() | ", "TOURS",
                                      "tour"))),
        Requirement("A visitor books 1-${max_seats} seats (a JSON integer): 201 with "
                    "`Location: /bookings/<id>`; unknown tours 404.",
                    probes="book",
                    traps=(Edit("seats lax",
                                "seats: Annotated[StrictInt, Field(ge=1, le=${max_seats})]",
                                "seats: Annotated[int, Field(ge=1, le=${max_seats})]"),
                           Edit("no Location on bookings",
                                "    response.headers[\"Location\"] = f\"/bookings/{booking['id']}\"\n",
                                ""))),
        Requirement("One booking per visitor and tour (409 `already_booked`); booked seats "
                    "never exceed the capacity (409 `not_enough_seats`).",
                    probes="booking_limits",
                    traps=(Edit("capacity one seat short",
                                'if booked(tour) + seats > tour["capacity"]:',
                                'if booked(tour) + seats >= tour["capacity"]:'),
                           Edit("rebooking allowed",
                                '        raise Refusal(409, "already_booked")', "        pass"))),
        Requirement("When a booking is both a repeat and too large, `${first_refusal}` wins.",
                    probes="booking_precedence",
                    traps=Edit("booking checks in the other order",
                               "for check in ${booking_checks}:",
                               checks_of_the_other_order(CHECKS, "first_refusal"))),
        Requirement("`GET /bookings` lists a visitor's own (a curator's: all); a booking is "
                    "cancelled by its visitor or a curator (else 404), freeing its seats; ids "
                    "are never reused.",
                    probes="bookings",
                    traps=(Edit("visitors list every booking",
                                'if user["role"] == "curator" or b["visitor"] == user["name"]]',
                                "]"),
                           Edit("anyone cancels",
                                'if booking is None or (user["role"] != "curator" and '
                                'booking["visitor"] != user["name"]):',
                                "if booking is None:"),
                           ids_reused("booking ids reused", "booking = ", "BOOKINGS", "booking"))),
    ),
)
