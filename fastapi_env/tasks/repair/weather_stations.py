"""Repair tier: a weather-station registry, a package of six modules in /workspace whose twelve
planted bugs are quiet: each is the idiomatic construct a developer writes from the docs, and
each reads right, but on the pinned FastAPI and Starlette it answers what the prompt forbids.
The error handler registered for FastAPI's `HTTPException`, so Starlette's routing 404 and 405
keep `{"detail"}`; list and create at `"/"` under the router's prefix, so `/stations` is a 307;
`@router.get` for a route the prompt wants answering HEAD (FastAPI adds no HEAD: 405); a
`JSONResponse` returned from a route declared `status_code=201` (the response's own 200 wins);
form fields sent empty replaced by their defaults (FastAPI does that before validation), where
the prompt wants 422; `?limit=` a 422 `int_parsing`, where the prompt wants the default; a
`list[str]` query and a `list[str]` header, which FastAPI never splits on commas; a logout that
deletes the cookie on the injected `Response` and returns another one (the header is lost);
`set_cookie`'s default `SameSite=lax`; `RedirectResponse`'s default 307 for a permanent move;
and `/{code}` declared before `/{code}.csv`, whose `{code}` matches `abc.csv`. Each is one
requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""Weather stations: a registry of stations, the readings their loggers upload, CSV exports."""
'''

STORE = '''\
"""The registry's state, in memory: operators and their sessions, stations, readings."""
import itertools

OPERATORS = {"${op_user}": "${op_pass}"}  # operator -> password
SESSIONS: dict[str, str] = {}  # session token -> operator
SERIAL = itertools.count(1)  # numbers the session tokens
STATIONS: dict[str, dict] = {}  # code -> station
RETIRED: dict[str, str] = {}  # a code given up by a rename -> the station's current code
READINGS: dict[str, list[dict]] = {}  # station code -> its readings, oldest first
'''

MODELS = '''\
"""Request bodies and what the routes show."""
from typing import Annotated

from pydantic import BaseModel, Field

Code = Annotated[str, Field(pattern=r"^[a-z][a-z0-9]{2,7}$$")]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Region = Annotated[str, Field(pattern=r"^[a-z]{1,20}$$")]


class StationIn(BaseModel):
    code: Code
    name: Name
    region: Region


class StationPatch(BaseModel):
    # None defaults are not validated, so a field sent as null is still refused
    name: Name = None
    region: Region = None


class Rename(BaseModel):
    code: Code


class Station(BaseModel):
    code: str
    name: str
    region: str
    readings: int


class Reading(BaseModel):
    seq: int
    temp: float
    humidity: int | None
    flags: list[str]
'''

ERRORS = '''\
"""One error format: `{"error": <message>}`."""
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException


def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
'''

SESSION = '''\
"""Operators' sessions: a form sign-in that sets a cookie, and the dependency reading it."""
import hashlib
from typing import Annotated

from fastapi import APIRouter, Cookie, Depends, Form, HTTPException, Request, Response
''' + late_body.IMPORT + '''
from . import store

COOKIE = "${cookie}"
router = APIRouter()
SessionToken = Annotated[str | None, Cookie(alias=COOKIE)]


''' + late_body.ROUTE_CLASSES + '''


def current_operator(token: SessionToken = None) -> str:
    name = store.SESSIONS.get(token or "")
    if name is None:
        raise HTTPException(401, "not signed in")
    return name


Operator = Annotated[str, Depends(current_operator)]


@router.post("/session")
def sign_in(username: Annotated[str, Form()], password: Annotated[str, Form()],
            response: Response) -> dict:
    if store.OPERATORS.get(username) != password:
        raise HTTPException(401, "invalid credentials")
    token = hashlib.sha256(f"{username}:{next(store.SERIAL)}".encode()).hexdigest()[:32]
    store.SESSIONS[token] = username
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
    return {"operator": username}


@router.delete("/session", status_code=204)
def sign_out(response: Response, token: SessionToken = None) -> None:
    store.SESSIONS.pop(token or "", None)
    response.delete_cookie(COOKIE)
'''

# The blank-limit guard: in the reference, and what _BLANK_LIMIT removes from it.
LIMIT_GUARD = '''\
def blank_is_default(value: object) -> object:
    return DEFAULT_LIMIT if value == "" else value


Limit = Annotated[int, BeforeValidator(blank_is_default), Query(ge=1, le=MAX_LIMIT)]
'''

CSV_ROUTE = '''\
@router.get("/{code}.csv")
def export_readings(code: str) -> Response:
    lines = ["seq,temp,humidity,flags"]
    for reading in store.READINGS[find(code)]:
        humidity = "" if reading["humidity"] is None else str(reading["humidity"])
        lines.append(f"{reading['seq']},{reading['temp']},{humidity},{';'.join(reading['flags'])}")
    return Response("\\n".join(lines) + "\\n", media_type="text/csv")
'''

READ_ROUTE = '''\
@router.api_route("/{code}", methods=["GET", "HEAD"], response_model=Station)
def read_station(code: str):
    if code in store.RETIRED:
        return RedirectResponse(f"/stations/{store.RETIRED[code]}", status_code=301)
    return shown(find(code))
'''

STATIONS = '''\
"""The station registry: list, create, read, rename, delete, and each station's CSV export."""
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BeforeValidator

from . import store
from .models import Rename, Station, StationIn, StationPatch
from .session import CallerFirstRoute, Operator

DEFAULT_LIMIT = ${def_limit}
MAX_LIMIT = ${max_limit}
router = APIRouter(prefix="/stations", route_class=CallerFirstRoute)


''' + LIMIT_GUARD + '''

def shown(code: str) -> dict:
    return {**store.STATIONS[code], "readings": len(store.READINGS[code])}


def find(code: str) -> str:
    if code not in store.STATIONS:
        raise HTTPException(404, "station not found")
    return code


def taken(code: str) -> bool:
    return code in store.STATIONS or code in store.RETIRED


@router.get("", response_model=list[Station])
def list_stations(region: Annotated[list[str], Query()] = [], limit: Limit = DEFAULT_LIMIT):
    wanted = {part.strip() for value in region for part in value.split(",")} - {""}
    codes = [code for code in sorted(store.STATIONS)
             if not wanted or store.STATIONS[code]["region"] in wanted]
    return [shown(code) for code in codes[:limit]]


@router.post("", status_code=201, response_model=Station)
def create_station(body: StationIn, _: Operator):
    if taken(body.code):
        raise HTTPException(409, "code taken")
    store.STATIONS[body.code] = body.model_dump()
    store.READINGS[body.code] = []
    return JSONResponse(shown(body.code), status_code=201,
                        headers={"Location": f"/stations/{body.code}"})


''' + CSV_ROUTE + '''

''' + READ_ROUTE + '''

@router.post("/{code}/rename", response_model=Station)
def rename_station(code: str, body: Rename, _: Operator):
    find(code)
    if taken(body.code):
        raise HTTPException(409, "code taken")
    store.STATIONS[body.code] = {**store.STATIONS.pop(code), "code": body.code}
    store.READINGS[body.code] = store.READINGS.pop(code)
    for old, current in store.RETIRED.items():
        if current == code:
            store.RETIRED[old] = body.code
    store.RETIRED[code] = body.code
    return shown(body.code)


@router.delete("/{code}", status_code=204)
def delete_station(code: str, _: Operator) -> None:
    del store.STATIONS[find(code)]
    del store.READINGS[code]
    for old in [old for old, current in store.RETIRED.items() if current == code]:
        del store.RETIRED[old]


@router.patch("/{code}", response_model=Station)
def change_station(code: str, patch: StationPatch, _: Operator):
    store.STATIONS[find(code)].update(patch.model_dump(exclude_unset=True))
    return shown(code)
'''

# The blank-field guard: in the reference, and what _BLANK_FIELDS removes from it.
BLANK_GUARD = '''\
async def no_blank_fields(request: Request) -> None:
    form = await request.form()
    blank = [key for key, value in form.multi_items() if value == ""]
    if blank:
        raise RequestValidationError([{"type": "missing", "loc": ("body", key),
                                       "msg": "Field required", "input": ""} for key in blank])


@router.post("/stations/{code}/readings", status_code=201, response_model=Reading,
             dependencies=[Depends(station_key), Depends(no_blank_fields)])
'''

READINGS = '''\
"""Readings, uploaded as forms by the stations' loggers with the network's upload key."""
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError

from . import store
from .models import Reading
from .stations import find

UPLOAD_KEY = "${upload_key}"
router = APIRouter()


def station_key(x_station_key: Annotated[str | None, Header()] = None) -> None:
    if x_station_key != UPLOAD_KEY:
        raise HTTPException(401, "invalid station key")


''' + BLANK_GUARD + '''\
def upload_reading(code: str, temp: Annotated[float, Form(ge=-90, le=60)],
                   humidity: Annotated[int | None, Form(ge=0, le=100)] = None,
                   x_reading_flags: Annotated[list[str], Header()] = []):
    readings = store.READINGS[find(code)]
    flags = sorted({part.strip() for value in x_reading_flags for part in value.split(",")} - {""})
    reading = {"seq": len(readings) + 1, "temp": temp, "humidity": humidity, "flags": flags}
    readings.append(reading)
    return reading


@router.get("/stations/{code}/readings", response_model=list[Reading])
def list_readings(code: str, response: Response, flag: str | None = None):
    readings = store.READINGS[find(code)]
    response.headers["X-Total-Count"] = str(len(readings))
    return [reading for reading in readings if flag is None or flag in reading["flags"]]


@router.get("/stations/{code}/summary")
def summarise(code: str) -> dict:
    readings = store.READINGS[find(code)]
    temps = [reading["temp"] for reading in readings]
    humidities = [reading["humidity"] for reading in readings if reading["humidity"] is not None]
    mean = round(sum(humidities) / len(humidities), 1) if humidities else None
    return {"readings": len(readings), "min_temp": min(temps, default=None),
            "max_temp": max(temps, default=None), "mean_humidity": mean}
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from meteo import readings, session, stations
from meteo.errors import install

app = FastAPI()
install(app)
app.include_router(session.router)
app.include_router(stations.router)
app.include_router(readings.router)''' + RESULT_CLIENT + '''\
signed_in = client.post("/session", data={"username": "${op_user}", "password": "${op_pass}"})
created = client.post("/stations", json={"code": "${code1}", "name": "${name1}",
                                         "region": "${region1}"})
uploaded = client.post("/stations/${code1}/readings",
                       data={"temp": "${temp1}", "humidity": "${hum1}"},
                       headers={"X-Station-Key": "${upload_key}",
                                "X-Reading-Flags": "${flags1}"})
station = client.get("/stations/${code1}")
result = [
    [signed_in.status_code, body(signed_in)],
    [created.status_code, body(created)],
    [uploaded.status_code, body(uploaded)],
    [station.status_code, body(station)],
]
'''

_in = editor("meteo")

# Moves a route, so it comes before the edits inside the moved routes (with_edits applies them
# in order).
_CSV_SHADOWED = _in("stations", "/{code} declared before /{code}.csv",
                    CSV_ROUTE + "\n\n" + READ_ROUTE, READ_ROUTE + "\n\n" + CSV_ROUTE)
_FASTAPI_HANDLER = _in("errors", "handler registered for FastAPI's HTTPException",
                       "from fastapi import FastAPI, Request\n"
                       "from fastapi.responses import JSONResponse\n"
                       "from starlette.exceptions import HTTPException\n",
                       "from fastapi import FastAPI, HTTPException, Request\n"
                       "from fastapi.responses import JSONResponse\n")
_SLASH_ROUTES = _in("stations", "list and create at / under the prefix", '("", ', '("/", ',
                    count=2)
_NO_HEAD = _in("stations", "station read declared with router.get",
               '@router.api_route("/{code}", methods=["GET", "HEAD"], response_model=Station)',
               '@router.get("/{code}", response_model=Station)')
_CREATED_AS_200 = _in("stations", "create returns a JSONResponse without its 201",
                      "JSONResponse(shown(body.code), status_code=201,\n"
                      "                        headers=",
                      "JSONResponse(shown(body.code), headers=")
_BLANK_LIMIT = _in("stations", "an empty limit is a 422", LIMIT_GUARD,
                   "Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT)]\n")
# Planted with it, so the setup imports nothing it does not use.
_LIMIT_IMPORT_GONE = _in("stations", "BeforeValidator no longer imported",
                         "RedirectResponse\nfrom pydantic import BeforeValidator\n",
                         "RedirectResponse\n")
_REGION_UNSPLIT = _in("stations", "region values not split on commas",
                      'wanted = {part.strip() for value in region for part in value.split(",")}'
                      ' - {""}', "wanted = set(region)")
_REDIRECT_307 = _in("stations", "retired codes redirect with RedirectResponse's default",
                    'RedirectResponse(f"/stations/{store.RETIRED[code]}", status_code=301)',
                    'RedirectResponse(f"/stations/{store.RETIRED[code]}")')
_LAX_COOKIE = _in("session", "session cookie without SameSite=strict",
                  "response.set_cookie(COOKIE, token, httponly=True, samesite=\"strict\")",
                  "response.set_cookie(COOKIE, token, httponly=True)")
_LOGOUT_COOKIE_LOST = _in("session", "logout returns a new Response, losing the cookie deletion",
                          '''\
def sign_out(response: Response, token: SessionToken = None) -> None:
    store.SESSIONS.pop(token or "", None)
    response.delete_cookie(COOKIE)
''', '''\
def sign_out(response: Response, token: SessionToken = None) -> Response:
    store.SESSIONS.pop(token or "", None)
    response.delete_cookie(COOKIE)
    return Response(status_code=204)
''')
_BLANK_FIELDS = _in("readings", "empty form fields read as absent", BLANK_GUARD, '''\
@router.post("/stations/{code}/readings", status_code=201, response_model=Reading,
             dependencies=[Depends(station_key)])
''')
_BLANK_IMPORTS_GONE = _in("readings", "Request and RequestValidationError no longer imported",
                          "HTTPException, Request, Response\n"
                          "from fastapi.exceptions import RequestValidationError\n",
                          "HTTPException, Response\n")
_FLAGS_UNSPLIT = _in("readings", "flag headers not split on commas",
                     'flags = sorted({part.strip() for value in x_reading_flags '
                     'for part in value.split(",")} - {""})',
                     "flags = sorted(set(x_reading_flags))")

FILES = {"meteo/__init__.py": INIT, "meteo/store.py": STORE, "meteo/models.py": MODELS,
         "meteo/errors.py": ERRORS, "meteo/session.py": SESSION, "meteo/stations.py": STATIONS,
         "meteo/readings.py": READINGS}
PLANTED = (_CSV_SHADOWED, _FASTAPI_HANDLER, _SLASH_ROUTES, _NO_HEAD, _CREATED_AS_200,
           _BLANK_LIMIT, _LIMIT_IMPORT_GONE, _REGION_UNSPLIT, _REDIRECT_307, _LAX_COOKIE,
           _LOGOUT_COOKIE_LOST, _BLANK_FIELDS, _BLANK_IMPORTS_GONE, _FLAGS_UNSPLIT)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
OPERATOR = {"username": "${op_user}", "password": "${op_pass}"}
KEY = {"X-Station-Key": "${upload_key}"}
COOKIE = "${cookie}"
DEF_LIMIT = ${def_limit}
MAX_LIMIT = ${max_limit}


def _sign_in(client):
    return client.post("/session", data=OPERATOR)


def _station(client, code, region="north", name="Probe station"):
    _sign_in(client)
    return client.post("/stations", json={"code": code, "name": name, "region": region})


def _upload(client, code, data, headers=()):
    return client.post(f"/stations/{code}/readings", data=data,
                       headers=[*KEY.items(), *headers])


def _cookie(r):
    """A Set-Cookie header as its name and its attributes (lower case, sorted), without the
    value and the clock's expires."""
    header = r.headers.get("set-cookie")
    if header is None:
        return None
    name, *attributes = [part.strip() for part in header.split(";")]
    return [name.split("=")[0], sorted(a.lower() for a in attributes
                                       if not a.lower().startswith("expires="))]


def _codes(r):
    return [r.status_code, [s["code"] for s in r.json()]] if r.status_code == 200 else _brief(r)


def probe_sign_in_sets_the_cookie(client):
    client.cookies.clear()
    r = _sign_in(client)
    rows = [[r.status_code, _body(r), _cookie(r)]]
    for data in [{"username": "${op_user}", "password": "wrong"},
                 {"username": "nobody", "password": "${op_pass}"},
                 {"username": "${op_user}"}, {}]:
        client.cookies.clear()
        r = client.post("/session", data=data)
        rows.append([data, _brief(r), _cookie(r)])
    return rows


def probe_sign_out_clears_the_cookie(client):
    client.cookies.clear()
    _sign_in(client)
    token = client.cookies.get(COOKIE)
    r = client.delete("/session")
    cookie = _cookie(r)
    rows = [_head(r), [cookie and cookie[0], cookie is not None and "max-age=0" in cookie[1]]]
    client.cookies.clear()
    stale = client.post("/stations", headers={"Cookie": f"{COOKIE}={token}"},
                        json={"code": "stale1", "name": "Stale", "region": "north"})
    rows.append(_row(stale))
    rows.append(_head(client.delete("/session")))
    return rows


def probe_operator_routes_need_a_session(client):
    _station(client, "opsa")
    client.cookies.clear()
    body = {"code": "opsb", "name": "Ops", "region": "north"}
    rows = [_row(client.post("/stations", json=body)),
            _row(client.post("/stations", json={"code": "X"})),
            _row(client.post("/stations/opsa/rename", json={"code": "opsc"})),
            _row(client.post("/stations", json=body, headers={"Cookie": f"{COOKIE}=forged"})),
            _row(client.post("/stations/opsa/rename", json={"code": "opsc"},
                             headers={"Cookie": f"{COOKIE}=forged"})),
            _row(client.delete("/stations/opsa")),
            _row(client.get("/stations/opsa"))]
    return rows


def probe_router_errors_are_shaped(client):
    rows = []
    for method, path in [("GET", "/nowhere"), ("GET", "/stations/a/b/c"),
                         ("GET", "/stations/abc/rename"), ("PATCH", "/stations/abc/rename"),
                         ("GET", "/stations/nosuch")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, _body(r), r.headers.get("allow")])
    return rows


def probe_stations_answer_without_redirect(client):
    _sign_in(client)
    rows = [[client.get("/stations?region=zzz", follow_redirects=False).status_code],
            _row(client.post("/stations", follow_redirects=False,
                             json={"code": "slash1", "name": "Slash", "region": "slashes"}))]
    rows.append(_row(client.get("/stations?region=slashes", follow_redirects=False)))
    return rows


def probe_create_a_station(client):
    r = _station(client, "mk01", region="east", name="Made")
    rows = [[r.status_code, _body(r), r.headers.get("location")]]
    rows.append(_row(_station(client, "mk01", name="Again")))
    for code, name, region in [("ab", "n", "east"), ("abcdefghi", "n", "east"),
                               ("Abc", "n", "east"), ("1abc", "n", "east"), ("ab-c", "n", "east"),
                               ("mk02", "", "east"), ("mk03", "n" * 41, "east"),
                               ("mk04", "n", "East"), ("mk05", "n", ""), ("mk06", "n", "r" * 21)]:
        rows.append([code, _brief(_station(client, code, region=region, name=name))])
    r = _station(client, "mk07abcd", region="r" * 20, name="n" * 40)
    rows.append([r.status_code, _body(r), r.headers.get("location")])
    rows.append(_brief(client.post("/stations", json={"code": "mk08"})))
    rows.append(_row(client.get("/stations/mk01")))
    return rows


def probe_region_filter(client):
    for code, region in [("rga1", "rgalpha"), ("rgb1", "rgbeta"), ("rgc1", "rggamma"),
                         ("rga2", "rgalpha")]:
        _station(client, code, region=region)
    rows = []
    for query in ["region=rgalpha", "region=rgalpha,rgbeta", "region=rgbeta&region=rggamma",
                  "region=rggamma, rgalpha", "region=rgbeta,,&region=", "region=rgdelta",
                  "region=rgbeta,rgdelta&region=rgalpha"]:
        rows.append([query, _codes(client.get(f"/stations?{query}&limit={MAX_LIMIT}"))])
    every = client.get(f"/stations?limit={MAX_LIMIT}")
    for query in ["region=", "region=,&region= "]:
        r = client.get(f"/stations?{query}&limit={MAX_LIMIT}")
        rows.append([query, r.status_code, r.status_code == 200 and r.json() == every.json()])
    return rows


def probe_limit_bounds_and_default(client):
    for n in range(DEF_LIMIT + 2):
        _station(client, f"lim{n:02d}", region="limits")
    rows = []
    for limit in [None, "", 1, DEF_LIMIT + 1, MAX_LIMIT, 0, MAX_LIMIT + 1, "x", -1]:
        query = "region=limits" if limit is None else f"region=limits&limit={limit}"
        r = client.get(f"/stations?{query}")
        rows.append([query, len(r.json()) if r.status_code == 200 else _brief(r)])
    return rows


def probe_head_answers_like_get(client):
    _station(client, "headp", region="heads", name="Head probe")
    _station(client, "headq", region="heads")
    client.post("/stations/headq/rename", json={"code": "headr"})
    rows = []
    for code in ["headp", "headq", "nohead"]:
        got = client.get(f"/stations/{code}", follow_redirects=False)
        head = client.head(f"/stations/{code}", follow_redirects=False)
        rows.append([code, _head(head, "content-type", "location"),
                     head.headers.get("content-length") == got.headers.get("content-length"),
                     got.status_code])
    return rows


def probe_retired_codes_redirect(client):
    _station(client, "rdold")
    r = client.post("/stations/rdold/rename", json={"code": "rdnew"})
    rows = [_row(r)]
    moved = client.get("/stations/rdold", follow_redirects=False)
    rows.append([moved.status_code, moved.headers.get("location")])
    rows.append(_row(client.get("/stations/rdold")))
    return rows


def probe_rename_rules(client):
    _station(client, "rna")
    _station(client, "rnz")
    for temp in ["1.5", "2.5"]:
        _upload(client, "rna", {"temp": temp})
    rows = [_row(client.post("/stations/rna/rename", json={"code": "rnb"})),
            _row(client.post("/stations/rnb/rename", json={"code": "rnc"}))]
    for code in ["rna", "rnb", "rnc"]:
        rows.append([code, _row(client.get(f"/stations/{code}")),
                     client.get(f"/stations/{code}", follow_redirects=False).headers.get("location")])
    for code, new in [("rna", "rnd"), ("nosuch", "rnd"), ("rnc", "rnc"), ("rnz", "rna"),
                      ("rnz", "rnc"), ("rnz", "BAD")]:
        rows.append([code, new, _brief(client.post(f"/stations/{code}/rename",
                                                   json={"code": new}))])
    rows.append(_row(_station(client, "rnb")))
    rows.append(_row(_upload(client, "rna", {"temp": "3"})))
    rows.append(_row(client.get("/stations/rna.csv")))
    return rows


def probe_csv_export(client):
    _station(client, "csvp")
    _station(client, "csvq")
    _upload(client, "csvp", {"temp": "12.5", "humidity": "80"}, [("X-Reading-Flags", "heated")])
    _upload(client, "csvp", {"temp": "-3"})
    _upload(client, "csvp", {"temp": "0", "humidity": "0"},
            [("X-Reading-Flags", "iced"), ("X-Reading-Flags", "estimated")])
    rows = []
    for code in ["csvp", "csvq", "nocsv"]:
        r = client.get(f"/stations/{code}.csv")
        rows.append([code, r.status_code, r.headers.get("content-type"), _body(r)])
    return rows


def probe_upload_readings(client):
    _station(client, "upp")
    rows = [_row(client.post("/stations/upp/readings", data={"temp": "20"})),
            _row(client.post("/stations/upp/readings", data={"temp": "20"},
                             headers={"X-Station-Key": "nope"})),
            _row(client.post("/stations/upp/readings", data={"temp": "abc"},
                             headers={"X-Station-Key": "nope"}))]
    for data in [{"temp": "20"}, {"temp": "20.5", "humidity": "55"}, {"temp": "-90"},
                 {"temp": "60", "humidity": "100"}, {"temp": "60.5"}, {"temp": "-91"},
                 {"temp": "5", "humidity": "101"}, {"temp": "5", "humidity": "-1"},
                 {"temp": "5", "humidity": "5.5"}, {"humidity": "5"}, {"temp": "warm"}]:
        rows.append([data, _brief(_upload(client, "upp", data))])
    rows.append(_row(_upload(client, "noup", {"temp": "5"})))
    rows.append(_brief(_upload(client, "noup", {"temp": "abc"})))
    rows.append(_row(client.get("/stations/upp")))
    return rows


def probe_empty_fields_refused(client):
    _station(client, "blankp")
    rows = []
    for data in [{"temp": "", "humidity": "5"}, {"temp": "5", "humidity": ""},
                 {"temp": "5", "humidity": "7"}]:
        rows.append([data, _brief(_upload(client, "blankp", data))])
    rows.append(_row(client.get("/stations/blankp")))
    return rows


def probe_flags_from_headers(client):
    _station(client, "flagp")
    rows = []
    for headers in [[("X-Reading-Flags", "gusty, calibrated")],
                    [("X-Reading-Flags", "wet"), ("X-Reading-Flags", "calibrated, wet")],
                    [("X-Reading-Flags", " , iced ,,")], [("X-Reading-Flags", "")], [],
                    [("X-Reading-Flags", "solo")]]:
        r = _upload(client, "flagp", {"temp": "4"}, headers)
        rows.append([[list(h) for h in headers],
                     r.json().get("flags") if r.status_code == 201 else _row(r)])
    return rows


def probe_list_readings(client):
    _station(client, "lstp")
    _station(client, "lstq")
    for temp, flags in [("1", ["wet"]), ("2", []), ("3", ["wet", "iced"]), ("4", ["iced"])]:
        _upload(client, "lstp", {"temp": temp}, [("X-Reading-Flags", f) for f in flags])
    rows = []
    for path in ["lstp/readings", "lstp/readings?flag=iced", "lstp/readings?flag=wet",
                 "lstp/readings?flag=dry", "lstq/readings", "nolst/readings"]:
        r = client.get(f"/stations/{path}")
        shown = [x["temp"] for x in r.json()] if r.status_code == 200 else _body(r)
        rows.append([path, r.status_code, shown, r.headers.get("x-total-count")])
    return rows


def probe_change_a_station(client):
    _station(client, "chg", region="west", name="Before")
    rows = []
    for patch in [{}, {"name": "After"}, {"region": "east"}, {"name": "Both", "region": "south"},
                  {"name": None}, {"region": None}, {"name": ""}, {"name": "n" * 41},
                  {"region": "East"}, {"code": "other"}]:
        rows.append([patch, _brief(client.patch("/stations/chg", json=patch))])
    rows.append(_row(client.patch("/stations/nochg", json={"name": "x"})))
    client.cookies.clear()
    rows.append(_row(client.patch("/stations/chg", json={"name": "Anon"})))
    rows.append(_row(client.get("/stations/chg")))
    return rows


def probe_summary(client):
    _station(client, "sump")
    _station(client, "sumq")
    for data in [{"temp": "4.5", "humidity": "50"}, {"temp": "-2"}, {"temp": "11", "humidity": "55"},
                 {"temp": "0.25", "humidity": "56"}]:
        _upload(client, "sump", data)
    _upload(client, "sumr", {"temp": "1"})
    return [_row(client.get(f"/stations/{code}/summary")) for code in ["sump", "sumq", "nosum"]]


def probe_delete_a_station(client):
    _station(client, "dela")
    _upload(client, "dela", {"temp": "2"})
    client.post("/stations/dela/rename", json={"code": "delb"})
    rows = [_head(client.delete("/stations/dela")), _head(client.delete("/stations/delb"))]
    for code in ["dela", "delb"]:
        rows.append([code, _row(client.get(f"/stations/{code}", follow_redirects=False))])
    rows.append([_body(_station(client, "dela"))])
    rows.append([_body(_station(client, "delb"))])
    rows.append(_head(client.delete("/stations/delb")))
    rows.append(_row(client.delete("/stations/delb")))
    client.cookies.clear()
    rows.append(_row(client.delete("/stations/dela")))
    rows.append(_row(client.get("/stations/dela")))
    return rows


def probe_read_a_station(client):
    _station(client, "readp", region="south", name="Read probe")
    _upload(client, "readp", {"temp": "8"})
    return [_row(client.get("/stations/readp")), _row(client.get("/stations/nosuch"))]


def _late(r):
    """A 422 as where its errors lie (FastAPI names a body that is not JSON in more than one
    way); anything else as `_row`."""
    if r.status_code == 422:
        return [422, sorted({str(e["loc"][0]) for e in r.json()["detail"]})]
    return _row(r)
''' + late_body.probe_source(
    [("POST", "/stations"), ("POST", "/stations/latep/rename"), ("PATCH", "/stations/latep")],
    [("no cookie", "{}"), ("forged cookie", '{"Cookie": f"{COOKIE}=forged"}'),
     ("operator", '{"Cookie": f"{COOKIE}={token}"}')], row="_late",
    prepare="    _station(client, \"latep\")\n"
            "    token = client.cookies.get(COOKIE)\n"
            "    client.cookies.clear()\n")

# The callers never show in a row: each data set carries its own, so no two instances differ
# by the credentials alone.
_SETS = {
    "data": [
        {"op_user": "ines", "op_pass": "rain-gauge-7", "cookie": "meteo_session",
         "upload_key": "stn-4f9a", "code1": "alp01", "name1": "Alpine Ridge", "region1": "alps",
         "temp1": "-4.5", "hum1": "81", "flags1": "heated, calibrated"},
        {"op_user": "tomas", "op_pass": "anemo2026", "cookie": "wx_sid",
         "upload_key": "k9-logger", "code1": "cst7", "name1": "Harbour Mole",
         "region1": "coast", "temp1": "17.25", "hum1": "64",
         "flags1": "estimated,estimated, gusty"},
        {"op_user": "noor", "op_pass": "hygro.meter", "cookie": "station_ops",
         "upload_key": "upl-77c2", "code1": "dsrt3", "name1": "Dune Field", "region1": "desert",
         "temp1": "41", "hum1": "9", "flags1": "dusty,"},
    ],
    "limits": [
        {"def_limit": 3, "max_limit": 10}, {"def_limit": 5, "max_limit": 25},
        {"def_limit": 4, "max_limit": 8},
    ],
}

PROMPT = '''\
`/workspace` holds a weather-station registry: `solution.py` and the package `meteo/` it
imports (`store.py`, `models.py`, `errors.py`, `session.py`, `stations.py`, `readings.py`).
It should behave as described below but does not, in several ways. Find and fix every deviation
(edit or rewrite any file); `solution.py` must keep defining `app` and `result`. State lives in
memory and carries from one request to the next; there are no stations at start.

**Errors** are `{"error": <message>}` for every error the app answers, those of FastAPI's and
Starlette's routing included: an unknown path is 404 `{"error": "Not Found"}`, a method a path
does not serve is 405 `{"error": "Method Not Allowed"}` keeping its `Allow` header. Request
validation errors stay FastAPI's standard 422 `{"detail": [...]}`.

**Operators** sign in with the form `POST /session` (`application/x-www-form-urlencoded`,
fields `username` and `password`); the one operator is `${op_user}`, password `${op_pass}`.
The right pair is 200 `{"operator": "${op_user}"}` with
`Set-Cookie: ${cookie}=<token>; HttpOnly; Path=/; SameSite=strict` (exactly these attributes);
any other pair is 401 `{"error": "invalid credentials"}` and sets no cookie; a missing field is
422. `DELETE /session` ends the session of the cookie sent, if any: 204 with an empty body and
a `Set-Cookie` for `${cookie}` with `Max-Age=0`, which removes the cookie; the old token no
longer works. Routes marked *operator* need the cookie of a live session, checked before the
request body is validated, even a body that is not JSON: without one they are 401 `{"error":
"not signed in"}`; with one, a body that is not JSON is a 422 like any other invalid body.

**Stations** are shown as `{"code", "name", "region", "readings"}` (`readings`: how many
readings the station has). A `code` is 3 to 8 characters: a lower-case letter, then lower-case
letters or digits; `name` is 1 to 40 characters; `region` 1 to 20 lower-case letters; anything
else is 422.
- `GET /stations`: 200 with the stations in code order. `region` (optional) filters: it may be
  repeated and each value may hold several regions separated by commas
  (`?region=north,coast&region=alps`); spaces around a region and empty items are ignored, and
  a station matches when its region is any of those given; no region given (or only empty
  ones) means every station. `limit`, an integer from 1 to ${max_limit}, caps how many are
  returned: ${def_limit} when absent, and also when sent empty (`?limit=`); anything else is 422.
- `POST /stations` (*operator*) with the JSON body `{"code", "name", "region"}`: 201 with the
  station (`readings` 0) and `Location: /stations/<code>`; a code a station has or had (a
  retired code, below) is 409 `{"error": "code taken"}`.
- Both answer at exactly `/stations` themselves, never with a redirect.
- `GET /stations/{code}`: 200 with the station; an unknown code is 404
  `{"error": "station not found"}`. `HEAD /stations/{code}` answers exactly as `GET` would
  (status and headers) with an empty body.
- `POST /stations/{code}/rename` (*operator*) with `{"code": <new code>}`: 200 with the station
  under its new code, its readings kept. The old code is retired: `GET` (and `HEAD`)
  `/stations/<retired code>` is 301 with `Location: /stations/<current code>`, the station's
  current code even after further renames. Every other route answers a retired code as an
  unknown one (404 `station not found`), renaming included; a new code that is taken (by a
  station or as a retired code) is 409 `code taken`.
- `PATCH /stations/{code}` (*operator*) with any of `name` and `region` (by the rules above;
  null is 422): only the keys sent change, other keys are ignored; 200 with the station.
- `DELETE /stations/{code}` (*operator*): 204 with an empty body. The station, its readings and
  its retired codes are gone: they are unknown codes from then on (404), free to be used again.
- `GET /stations/{code}.csv`: 200 with `Content-Type: text/csv; charset=utf-8` and the
  station's readings as CSV: the line `seq,temp,humidity,flags`, then one line per reading in
  `seq` order (`temp` as in the reading's JSON, such as `3.0`; `humidity` empty when absent;
  the flags joined by `;`), every line ending in `\\n`. An unknown code is 404.

**Readings** are uploaded by the stations' loggers.
- `POST /stations/{code}/readings`, a form (`application/x-www-form-urlencoded`) with `temp`
  (a number from -90 to 60, required) and `humidity` (an integer from 0 to 100, optional). A
  field sent empty (`humidity=`) is 422: a logger with a failed sensor leaves the field out.
  The header `X-Station-Key: ${upload_key}` is required: missing or wrong, 401
  `{"error": "invalid station key"}`. The key is checked first, then the form, then the
  station (unknown: 404 `station not found`). The optional header `X-Reading-Flags` holds
  flags separated by commas and may be repeated; the reading's `flags` are the distinct
  non-empty flags, spaces around them trimmed, sorted. 201 with
  `{"seq", "temp", "humidity", "flags"}`: `seq` numbers the station's readings from 1,
  `humidity` is null when absent, `flags` is `[]` without flags.
- `GET /stations/{code}/readings`: 200 with the station's readings (as uploads show them) in
  `seq` order; `flag` (optional) keeps those whose `flags` hold it. The header `X-Total-Count`
  is how many readings the station has, whatever the filter. An unknown code is 404.
- `GET /stations/{code}/summary`: 200 `{"readings", "min_temp", "max_temp", "mean_humidity"}`:
  how many readings, the lowest and highest `temp`, and the mean of the humidities the readings
  have (those without one left out), as Python's `round(mean, 1)`; each null when there is
  nothing to take it from. An unknown code is 404.

`result` has four rows, each `[status, body]`, made in this order by one client that keeps
cookies:
1. `POST /session` with `username=${op_user}&password=${op_pass}`
2. `POST /stations` with `{"code": "${code1}", "name": "${name1}", "region": "${region1}"}`
3. `POST /stations/${code1}/readings` with `temp=${temp1}&humidity=${hum1}` and the headers
   `X-Station-Key: ${upload_key}` and `X-Reading-Flags: ${flags1}`
4. `GET /stations/${code1}`
'''

FAMILY = repair_family(
    id="repair/weather_stations",
    title="Repair a weather-station registry whose idiomatic code misbehaves on edge requests",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_SETS["data"][0], **_SETS["limits"][0]},
    space=_SETS,
    instances=9,
    requirements=(
        Requirement("Signing in with the right form fields is 200 and sets the session cookie "
                    "with exactly `HttpOnly; Path=/; SameSite=strict`; a wrong pair is 401 "
                    "without a cookie, a missing field 422.",
                    probes=("sign_in_sets_the_cookie",), traps=(_LAX_COOKIE,)),
        Requirement("Signing out is 204 with an empty body and a `Set-Cookie` with `Max-Age=0` "
                    "for the session cookie; the old token no longer works.",
                    probes=("sign_out_clears_the_cookie",),
                    traps=(_LOGOUT_COOKIE_LOST,
                           _in("session", "sign-out leaves the session live",
                               '    store.SESSIONS.pop(token or "", None)\n', ""))),
        Requirement("Creating, renaming and deleting need a live session, checked before validation: "
                    "401 `not signed in` otherwise.",
                    probes=("operator_routes_need_a_session",),
                    traps=(_in("session", "any cookie passes for a session",
                               "    if name is None:\n", "    if token is None:\n"),)),
        Requirement("The session is checked before the body even when the body is not JSON "
                    "(then a 422 for an operator).",
                    probes=("credentials_before_json",),
                    traps=(_in("stations", "station bodies decoded before the session",
                               'router = APIRouter(prefix="/stations", route_class=CallerFirstRoute)',
                               'router = APIRouter(prefix="/stations")'),)),
        Requirement("Unknown paths and unserved methods are `{\"error\": \"Not Found\"}` 404 and "
                    "`{\"error\": \"Method Not Allowed\"}` 405 with `Allow`.",
                    probes=("router_errors_are_shaped",), traps=(_FASTAPI_HANDLER,)),
        Requirement("`GET` and `POST /stations` answer at `/stations` itself, not by a redirect.",
                    probes=("stations_answer_without_redirect",), traps=(_SLASH_ROUTES,)),
        Requirement("`POST /stations` is 201 with the station and `Location`; a taken code is "
                    "409; code, name and region outside their rules are 422.",
                    probes=("create_a_station",),
                    traps=(_CREATED_AS_200,
                           _in("models", "codes up to nine characters",
                               '[a-z0-9]{2,7}$$")]', '[a-z0-9]{2,8}$$")]'))),
        Requirement("The `region` filter reads repeated parameters and comma-separated values, "
                    "trims them and ignores empty items.",
                    probes=("region_filter",), traps=(_REGION_UNSPLIT,)),
        Requirement("`limit` is 1 to ${max_limit}, ${def_limit} when absent or sent empty; other "
                    "values are 422.",
                    probes=("limit_bounds_and_default",),
                    traps=(_BLANK_LIMIT,
                           _in("stations", "limit one short of its maximum",
                               "Query(ge=1, le=MAX_LIMIT)", "Query(ge=1, lt=MAX_LIMIT)"))),
        Requirement("`HEAD /stations/{code}` answers as `GET` would, with an empty body.",
                    probes=("head_answers_like_get",), traps=(_NO_HEAD,)),
        Requirement("A retired code is a 301 to the station's current code.",
                    probes=("retired_codes_redirect",), traps=(_REDIRECT_307,)),
        Requirement("Renames keep the readings, follow later renames, and treat retired codes as "
                    "unknown (404) and as taken (409).",
                    probes=("rename_rules",),
                    traps=(_in("stations", "earlier codes left pointing at a retired one", '''\
    for old, current in store.RETIRED.items():
        if current == code:
            store.RETIRED[old] = body.code
''', ""),
                           _in("stations", "retired codes free again",
                               "    return code in store.STATIONS or code in store.RETIRED\n",
                               "    return code in store.STATIONS\n"))),
        Requirement("`GET /stations/{code}.csv` is the readings as `text/csv; charset=utf-8`; "
                    "an unknown code is 404.",
                    probes=("csv_export",),
                    traps=(_CSV_SHADOWED,
                           _in("stations", "CSV flags joined by commas",
                               "{';'.join(reading['flags'])}", "{','.join(reading['flags'])}"))),
        Requirement("Uploads need the station key first, then a valid form (temp -90 to 60, "
                    "humidity 0 to 100), then a known station; 201 with the reading.",
                    probes=("upload_readings",),
                    traps=(_in("readings", "any station key accepted",
                               "    if x_station_key != UPLOAD_KEY:\n",
                               "    if x_station_key is None:\n"),
                           _in("readings", "temperature bound excludes 60",
                               "Form(ge=-90, le=60)", "Form(ge=-90, lt=60)"))),
        Requirement("A reading field sent empty is 422 and stores nothing.",
                    probes=("empty_fields_refused",), traps=(_BLANK_FIELDS,)),
        Requirement("`X-Reading-Flags` is split on commas across repeated headers, trimmed, "
                    "deduplicated and sorted.",
                    probes=("flags_from_headers",), traps=(_FLAGS_UNSPLIT,)),
        Requirement("`GET /stations/{code}/readings` lists the readings in `seq` order, `flag` "
                    "keeps those carrying it, and `X-Total-Count` counts all of them.",
                    probes=("list_readings",),
                    traps=(_in("readings", "the total counts the filtered list", '''\
    response.headers["X-Total-Count"] = str(len(readings))
    return [reading for reading in readings if flag is None or flag in reading["flags"]]
''', '''\
    shown = [reading for reading in readings if flag is None or flag in reading["flags"]]
    response.headers["X-Total-Count"] = str(len(shown))
    return shown
'''),)),
        Requirement("`PATCH /stations/{code}` (operator) changes only the `name` and `region` "
                    "sent, within their rules; null is 422.",
                    probes=("change_a_station",),
                    traps=(_in("models", "a patched region unchecked", "    region: Region = None",
                               "    region: str = None"),
                           _in("stations", "a patch replaces the unsent fields too",
                               "patch.model_dump(exclude_unset=True)", "patch.model_dump()"))),
        Requirement("`GET /stations/{code}/summary` counts the readings, gives the extreme "
                    "temperatures and the mean of the humidities present, rounded.",
                    probes=("summary",),
                    traps=(_in("readings", "absent humidity counted as 0",
                               'reading["humidity"] for reading in readings '
                               'if reading["humidity"] is not None]',
                               'reading["humidity"] or 0 for reading in readings]'),)),
        Requirement("`DELETE /stations/{code}` (operator) is 204 with an empty body; the station, "
                    "its readings and its retired codes are gone, and the codes are free again.",
                    probes=("delete_a_station",),
                    traps=(_in("stations", "retired codes outlive their station", '''\
    for old in [old for old, current in store.RETIRED.items() if current == code]:
        del store.RETIRED[old]
''', ""),)),
        Requirement("`GET /stations/{code}` is 200 with the station and its readings count; an "
                    "unknown code is 404 `station not found`.",
                    probes=("read_a_station",),
                    traps=(_in("stations", "readings counted from zero",
                               '"readings": len(store.READINGS[code])}',
                               '"readings": len(store.READINGS[code]) - 1}'),)),
    ),
)
