"""Repair tier, quiet bugs: an EV charging service (stations with a price per kWh, charging
sessions with a cost), a package of eight modules in /workspace whose twelve planted bugs are
not visible as wrong lines: each is the idiomatic Pydantic or `decimal` construct a competent
developer writes from the docs, which on the pinned packages does something the prompt
excludes. `HttpUrl` re-renders the URL it is given (host lower-cased, a bare host gains `/`, a
default port goes); a `Decimal` keeps the scale it was sent with (`0.5` is shown as
"0.5", `1.0` as "1.0"); a lax `Decimal` and `float` read strings (and `true`) as numbers; `sum()`
over no costs is the int 0, shown as "0"; `UUID` accepts upper case, no hyphens, braces and a
`urn:uuid:` prefix; `AwareDatetime` reads a number or a string of digits as Unix seconds;
`timedelta` reads a number of seconds, `"01:30:00"` and `"0 days, 1:30:00"`; a `float` with only `gt=0`
takes `1e400`, which Python's JSON reader makes infinite; `\\d` in a pattern matches every
Unicode digit (Arabic-Indic, full-width); a `date` query parameter reads `0`, a string of digits
(Unix seconds at midnight) and a midnight date-time; `Decimal.quantize` rounds half to even by
default; `Decimal(float)` is the binary float's exact value, so 12.35 becomes 12.3499... Each bug
is one requirement's trap; the setup is the reference with all of them. Not planted, but
required and trapped: the reference prices any finite energy in a 400-digit decimal context
(in the default one of 28 digits, `quantize` to the cent raises once a cost reaches 1e26, and
sums past 28 digits round and show an exponent)."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""EV charging: stations with a price per kWh, and the charging sessions at them."""
'''

STORE = '''\
"""In-memory state: the stations, and the sessions recorded at them."""
STATIONS: dict[str, dict] = {}  # code -> station
SESSIONS: dict[str, dict] = {}  # session id -> session
'''

MONEY = '''\
"""What a session costs and what a station has earned."""
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal, localcontext

CENT = Decimal("0.01")
# Decimal's default context keeps 28 digits, and quantize raises past them: a finite energy
# (below 1.8e308) times a price, to the cent, has up to 312 digits, and sums a few more.
DIGITS = 400


def cost(price: Decimal, energy_kwh: float) -> Decimal:
    with localcontext(prec=DIGITS):
        return (price * Decimal(str(energy_kwh))).quantize(CENT, rounding=ROUND_HALF_UP)


def revenue(sessions: Iterable[dict]) -> Decimal:
    with localcontext(prec=DIGITS):
        return sum((session["cost"] for session in sessions), Decimal("0.00"))
'''

# fields.py is spliced from named blocks: each guard the reference has and a planted bug
# removes is written once, here, and named again by its edit.
FIELDS_IMPORTS = '''\
import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Annotated
from uuid import UUID

from pydantic import (AfterValidator, AwareDatetime, BeforeValidator, Field, HttpUrl,
                      StringConstraints, TypeAdapter, ValidationError)

from .money import CENT
'''
URL_GUARD = '''
HTTP_URL = TypeAdapter(HttpUrl)


def as_sent(text: str) -> str:
    try:
        HTTP_URL.validate_python(text)
    except ValidationError:
        raise ValueError("an http or https URL") from None
    return text


Url = Annotated[str, AfterValidator(as_sent)]
'''
NUMBER_GUARDS = '''

def json_number(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("a JSON number")
    return value


def cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT)


'''
TEXT_TIME_GUARD = r'''def date_time_text(value: object) -> object:
    if not isinstance(value, str) or re.fullmatch(r"\s*[+-]?[0-9]+(\.[0-9]*)?\s*", value):
        raise ValueError("a date-time with a UTC offset, as text")
    return value


Moment = Annotated[AwareDatetime, BeforeValidator(date_time_text), '''
DURATION_GUARD = '''


def iso_duration(value: object) -> object:
    if not isinstance(value, str) or not value.startswith("P"):
        raise ValueError("an ISO 8601 duration")
    return value


Duration = Annotated[timedelta, BeforeValidator(iso_duration),
                     Field(ge=timedelta(minutes=1), le='''
UUID_GUARD = '''
CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def canonical(value: object) -> object:
    if not isinstance(value, str) or not CANONICAL_UUID.fullmatch(value):
        raise ValueError("a UUID in canonical form")
    return value


SessionId = Annotated[UUID, BeforeValidator(canonical)]
'''

FIELDS = ('"""The values a request may carry, and the form each is kept in."""\n'
          + FIELDS_IMPORTS + '''
NAME_MAX = ${name_max}
PRICE_LIMIT = ${price_limit}
MAX_HOURS = ${max_hours}

Code = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,5}-[0-9]{1,4}$$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                        max_length=NAME_MAX)]
''' + URL_GUARD + NUMBER_GUARDS + '''\
Price = Annotated[Decimal, BeforeValidator(json_number),
                  Field(gt=0, lt=PRICE_LIMIT, decimal_places=2), AfterValidator(cents)]
Energy = Annotated[float, BeforeValidator(json_number), Field(gt=0, allow_inf_nan=False)]


def in_utc(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc)


''' + TEXT_TIME_GUARD + '''AfterValidator(in_utc)]''' + DURATION_GUARD + '''\
timedelta(hours=MAX_HOURS))]
''' + UUID_GUARD)

MODELS = '''\
"""Request bodies, and what the responses show."""
from datetime import datetime, timedelta
from decimal import Decimal

from pydantic import BaseModel

from .fields import Code, Duration, Energy, Moment, Name, Price, SessionId, Url


class StationIn(BaseModel):
    code: Code
    name: Name
    info_url: Url
    price_per_kwh: Price


class StationPatch(BaseModel):
    name: Name = None
    info_url: Url = None
    price_per_kwh: Price = None


class Station(BaseModel):
    code: str
    name: str
    info_url: Url
    price_per_kwh: Decimal
    sessions: int
    revenue: Decimal


class SessionIn(BaseModel):
    session_id: SessionId
    started_at: Moment
    duration: Duration
    energy_kwh: Energy


class Session(BaseModel):
    session_id: str
    station: str
    started_at: datetime
    duration: timedelta
    ended_at: datetime
    energy_kwh: float
    cost: Decimal
'''

ERRORS = '''\
"""One error format: {"error": message}; a request that fails validation lists its fields."""
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException


def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    fields = sorted({".".join(str(part) for part in error["loc"][:2])
                     for error in exc.errors()})
    return JSONResponse({"error": "invalid request", "fields": fields}, status_code=422)


def install(app: FastAPI) -> None:
    """Starlette's HTTPException, so that the router's own 404 and 405 are formatted too."""
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
'''

STATIONS = '''\
"""Stations: created by the operator, each with its own price per kWh."""
from fastapi import APIRouter, HTTPException

from . import money, store
from .models import Station, StationIn, StationPatch

router = APIRouter(prefix="/stations")


def find(code: str) -> dict:
    station = store.STATIONS.get(code)
    if station is None:
        raise HTTPException(404, "station not found")
    return station


def shown(station: dict) -> dict:
    """The station with its session count and revenue."""
    mine = [s for s in store.SESSIONS.values() if s["station"] == station["code"]]
    return {**station, "sessions": len(mine), "revenue": money.revenue(mine)}


@router.post("", status_code=201, response_model=Station)
def create_station(body: StationIn):
    if body.code in store.STATIONS:
        raise HTTPException(409, "station exists")
    store.STATIONS[body.code] = body.model_dump()
    return shown(store.STATIONS[body.code])


@router.get("", response_model=list[Station])
def list_stations():
    return [shown(store.STATIONS[code]) for code in sorted(store.STATIONS)]


@router.get("/{code}", response_model=Station)
def read_station(code: str):
    return shown(find(code))


@router.patch("/{code}", response_model=Station)
def change_station(code: str, patch: StationPatch):
    """Only the fields sent change; a new price applies to the sessions recorded after it."""
    station = find(code)
    station.update(patch.model_dump(exclude_unset=True))
    return shown(station)
'''

SESSIONS_DOC = '''\
"""Charging sessions, recorded at a station once they end, priced when recorded."""
'''
SESSIONS_IMPORTS = '''\
import re
from datetime import date
from typing import Annotated

from fastapi import APIRouter, HTTPException, Response
from pydantic import BeforeValidator
'''
DAY_GUARD = '''\
def calendar_day(value: object) -> object:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a date, YYYY-MM-DD")
    return value


@router.get("/stations/{code}/sessions", response_model=list[Session])
def list_sessions(code: str, on: Annotated[date | None, BeforeValidator(calendar_day)] = None):
'''

SESSIONS = SESSIONS_DOC + SESSIONS_IMPORTS + '''
from . import money, store
from .models import Session, SessionIn
from .stations import find

router = APIRouter()


@router.post("/stations/{code}/sessions", status_code=201, response_model=Session)
def start_session(code: str, body: SessionIn):
    """Record a session that has ended; it costs its energy at the station's price now."""
    station = find(code)
    key = str(body.session_id)
    if key in store.SESSIONS:
        raise HTTPException(409, "session exists")
    store.SESSIONS[key] = {
        "session_id": key, "station": station["code"], "started_at": body.started_at,
        "duration": body.duration, "ended_at": body.started_at + body.duration,
        "energy_kwh": body.energy_kwh,
        "cost": money.cost(station["price_per_kwh"], body.energy_kwh),
    }
    return store.SESSIONS[key]


@router.get("/sessions/{session_id}", response_model=Session)
def read_session(session_id: str):
    session = store.SESSIONS.get(session_id)
    if session is None:
        raise HTTPException(404, "session not found")
    return session


@router.delete("/sessions/{session_id}", status_code=204)
def delete_session(session_id: str) -> Response:
    if store.SESSIONS.pop(session_id, None) is None:
        raise HTTPException(404, "session not found")
    return Response(status_code=204)


''' + DAY_GUARD + '''\
    """The station's sessions by start; with `on`, only those of that day in UTC."""
    find(code)
    chosen = [s for s in store.SESSIONS.values()
              if s["station"] == code and (on is None or s["started_at"].date() == on)]
    return sorted(chosen, key=lambda s: (s["started_at"], s["session_id"]))
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from charging import sessions, stations
from charging.errors import install

app = FastAPI()
install(app)
app.include_router(stations.router)
app.include_router(sessions.router)''' + RESULT_CLIENT + '''\
made = client.post("/stations", json={
    "code": "${code1}", "name": "${name1}", "info_url": "${url1}",
    "price_per_kwh": ${price1},
})
started = client.post("/stations/${code1}/sessions", json={
    "session_id": "${sid1}", "started_at": "${start1}",
    "duration": "${dur1}", "energy_kwh": ${kwh1},
})
viewed = client.get("/stations/${code1}")
listed = client.get("/stations/${code1}/sessions", params={"on": "${day1}"})
result = [
    [made.status_code, body(made)],
    [started.status_code, body(started)],
    [viewed.status_code, body(viewed)],
    [listed.status_code, body(listed)],
]
'''

_in = editor("charging")

# The planted bugs, in the order they are applied to make the setup.
_URL_NORMALISED = _in("fields", "info_url typed as HttpUrl, which re-renders it", URL_GUARD,
                      "Url = HttpUrl\n")
_PRICE_SCALE_KEPT = _in("fields", "price kept with the scale it was sent with",
                        "decimal_places=2), AfterValidator(cents)]", "decimal_places=2)]")
_PRICE_FROM_STRING = _in("fields", "price read from a string (lax Decimal)",
                         "Price = Annotated[Decimal, BeforeValidator(json_number),\n"
                         "                  Field(", "Price = Annotated[Decimal, Field(")
_ENERGY_FROM_STRING = _in("fields", "energy read from a string or a boolean (lax float)",
                          "Energy = Annotated[float, BeforeValidator(json_number), ",
                          "Energy = Annotated[float, ")
_ENERGY_INFINITE = _in("fields", "energy may be infinite (1e400)",
                       "Field(gt=0, allow_inf_nan=False)]", "Field(gt=0)]")
_UNIX_SECONDS = _in("fields", "started_at reads Unix seconds", TEXT_TIME_GUARD,
                    "Moment = Annotated[AwareDatetime, ")
_LAX_DURATION = _in("fields", "duration reads seconds and clock times (plain timedelta)",
                    DURATION_GUARD, """
Duration = Annotated[timedelta, Field(ge=timedelta(minutes=1),
                                      le=""")
_ANY_UUID_SPELLING = _in("fields", "session id typed as UUID, which reads any spelling",
                         UUID_GUARD, "SessionId = UUID\n")
_UNICODE_DIGITS = _in("fields", "code digits written as \\d, which matches any Unicode digit",
                      "-[0-9]{1,4}$$", "-\\d{1,4}$$")
_LAX_DAY = _in("sessions", "the day filter typed as a plain date", DAY_GUARD, '''\
@router.get("/stations/{code}/sessions", response_model=list[Session])
def list_sessions(code: str, on: date | None = None):
''')
_HALF_EVEN = _in("money", "cost quantized with the default rounding (half to even)",
                 ", rounding=ROUND_HALF_UP)", ")")
_BINARY_ENERGY = _in("money", "cost computed on the energy's binary float value",
                     "Decimal(str(energy_kwh))", "Decimal(energy_kwh)")
_REVENUE_INT_ZERO = _in("money", "revenue summed from the int 0",
                        'sum((session["cost"] for session in sessions), Decimal("0.00"))',
                        'sum(session["cost"] for session in sessions)')
# Planted with them, so that the setup defines and imports nothing it does not use.
_UNUSED_GONE = (
    _in("fields", "unused guards gone", NUMBER_GUARDS, ""),
    _in("fields", "unused imports gone", FIELDS_IMPORTS, '''\
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Annotated
from uuid import UUID

from pydantic import AfterValidator, AwareDatetime, Field, HttpUrl, StringConstraints
'''),
    _in("sessions", "unused imports gone from sessions", SESSIONS_IMPORTS, '''\
from datetime import date

from fastapi import APIRouter, HTTPException, Response
'''),
    _in("money", "unused rounding import gone",
        "from decimal import ROUND_HALF_UP, Decimal, localcontext",
        "from decimal import Decimal, localcontext"),
)

FILES = {"charging/__init__.py": INIT, "charging/store.py": STORE, "charging/money.py": MONEY, "charging/fields.py": FIELDS,
         "charging/models.py": MODELS, "charging/errors.py": ERRORS,
         "charging/stations.py": STATIONS, "charging/sessions.py": SESSIONS}
PLANTED = (_URL_NORMALISED, _PRICE_SCALE_KEPT, _PRICE_FROM_STRING, _ENERGY_FROM_STRING,
           _ENERGY_INFINITE, _UNIX_SECONDS, _LAX_DURATION, _ANY_UUID_SPELLING, _UNICODE_DIGITS,
           _LAX_DAY, _HALF_EVEN, _BINARY_ENERGY, _REVENUE_INT_ZERO, *_UNUSED_GONE)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
PRICE_LIMIT = ${price_limit}
MAX_HOURS = ${max_hours}
NAME_MAX = ${name_max}
START = "${start1}"


def _sid(probe, n):
    """A canonical session id of its own for each probe and number."""
    return f"{probe:08x}-{n:04x}-4000-8000-{probe * 1000 + n:012x}"


def _station(client, code, price=0.4, url="https://ev.example.org/s", name="Probe"):
    return client.post("/stations", json={"code": code, "name": name, "info_url": url,
                                          "price_per_kwh": price})


def _session(client, code, sid, **fields):
    sent = {"session_id": sid, "started_at": START, "duration": "PT30M", "energy_kwh": 10.5}
    return client.post(f"/stations/{code}/sessions", json={**sent, **fields})


def _field(r, name):
    return r.json()[name] if r.status_code in (200, 201) else _row(r)


def probe_errors_have_one_format(client):
    _station(client, "ERR-1")
    rows = []
    for r in [client.get("/stations/NONE-1"), client.get("/sessions/" + _sid(1, 99)),
              client.get("/stations/NONE-1/sessions"),
              _session(client, "NONE-1", _sid(1, 1)), client.get("/nowhere"),
              client.delete("/stations"), client.put("/stations/ERR-1")]:
        rows.append(_row(r))
    return rows


def probe_invalid_requests_list_fields(client):
    rows = []
    for sent in [{}, {"code": "bad", "name": "", "info_url": "nope", "price_per_kwh": -1},
                 {"code": "VAL-1", "name": "ok", "info_url": "https://a.example/",
                  "price_per_kwh": 0.3, "extra": 1}]:
        rows.append([_field(client.post("/stations", json=sent), "code")])
    rows.append(_row(client.post("/stations", content=b"[1, 2]",
                                 headers={"content-type": "application/json"})))
    rows.append(_row(_session(client, "NONE-2", "nope", duration="PT0S", energy_kwh=-2)))
    return rows


def probe_codes_are_checked(client):
    rows = []
    for code in ["AB-1", "ABCDE-1234", "A-1", "ABCDEF-1", "AB-12345", "ab-1", "AB1", "AB-",
                 " AB-2", "AB-3 ", "ÄB-4"]:
        rows.append([code, _field(_station(client, code), "code")])
    rows.append(_row(client.get("/stations/ab-1")))
    return rows


def probe_code_digits_are_ascii(client):
    rows = []
    for code in ["DIG-12", "DIG-\\u0661\\u0662", "DIG-\\uff13\\uff14", "DIG-\\u0967"]:
        rows.append([code, _field(_station(client, code), "code")])
    return rows


def probe_codes_are_unique(client):
    rows = [[_field(_station(client, "UNQ-1", name="first"), "name")],
            _row(_station(client, "UNQ-1", name="second")),
            [client.get("/stations/UNQ-1").json()["name"]],
            [_field(_station(client, "UNQ-10", name="other"), "name")]]
    return rows


def probe_names_are_trimmed(client):
    rows = []
    for n, name in enumerate(["  Harbour  ", "", "   ", "x" * NAME_MAX, "x" * (NAME_MAX + 1),
                              " " + "y" * NAME_MAX + " "]):
        rows.append([len(name), _field(_station(client, f"NAM-{n}", name=name), "name")])
    return rows


def probe_urls_are_kept_as_sent(client):
    rows = []
    for n, url in enumerate(["https://Charge.Example.ORG", "http://ev.example.net:80/map",
                             "https://ev.example.com:443/a/b?c=1", "https://ev.example.org",
                             "https://ev.example.org/station/7#map", "ftp://ev.example.org/x",
                             "ev.example.org/x", "https://"]):
        r = _station(client, f"URL-{n}", url=url)
        rows.append([url, _field(r, "info_url")])
    rows.append([client.get("/stations/URL-0").json().get("info_url")])
    r = client.patch("/stations/URL-4", json={"info_url": "https://EV.example.org:443"})
    rows.append([_field(r, "info_url")])
    rows.append([s["info_url"] for s in client.get("/stations").json()
                 if s["code"].startswith("URL-")])
    return rows


def probe_prices_show_two_decimals(client):
    rows = []
    for n, price in enumerate([0.45, 0.5, 1, 1.0, 1.10, 0.05]):
        rows.append([price, _field(_station(client, f"PRC-{n}", price=price), "price_per_kwh")])
    rows.append([client.get("/stations/PRC-1").json().get("price_per_kwh")])
    r = client.patch("/stations/PRC-0", json={"price_per_kwh": 0.7})
    rows.append([_field(r, "price_per_kwh")])
    return rows


def probe_price_bounds(client):
    rows = []
    for n, price in enumerate([0, -0.5, 0.01, 0.455, PRICE_LIMIT, PRICE_LIMIT - 0.01,
                               PRICE_LIMIT + 1]):
        rows.append([price, _station(client, f"PRB-{n}", price=price).status_code])
    return rows


def probe_numbers_are_not_strings(client):
    rows = []
    for n, price in enumerate(["0.45", " 0.45 ", "4.5E-1", True, None]):
        rows.append([price, _field(_station(client, f"NUM-{n}", price=price), "price_per_kwh")])
    _station(client, "NUM-9")
    r = client.patch("/stations/NUM-9", json={"price_per_kwh": "0.45"})
    rows.append(["patch", _field(r, "price_per_kwh")])
    for n, energy in enumerate(["12.5", True, "1e1", 12.5]):
        rows.append([energy, _field(_session(client, "NUM-9", _sid(2, n), energy_kwh=energy),
                                    "energy_kwh")])
    return rows


def probe_energy_is_finite(client):
    _station(client, "FIN-1")
    rows = []
    for n, text in enumerate(["1e400", "-1e400", "1e6", "0", "0.001"]):
        sent = ('{"session_id": "%s", "started_at": "%s", "duration": "PT30M", '
                '"energy_kwh": %s}' % (_sid(3, n), START, text))
        r = client.post("/stations/FIN-1/sessions", content=sent.encode(),
                        headers={"content-type": "application/json"})
        rows.append([text, _field(r, "energy_kwh")])
    rows.append([client.get("/stations/FIN-1").json().get("sessions")])
    return rows


def probe_revenue_of_no_sessions(client):
    made = _station(client, "REV-1", price=0.3)
    rows = [[made.status_code, made.json().get("revenue")],
            [client.get("/stations/REV-1").json().get("revenue")],
            [s["revenue"] for s in client.get("/stations").json() if s["code"] == "REV-1"]]
    _session(client, "REV-1", _sid(4, 1), energy_kwh=10.5)
    rows.append([client.get("/stations/REV-1").json().get("revenue")])
    return rows


def probe_cost_rounds_half_up(client):
    rows = []
    for n, (price, energy) in enumerate([(0.45, 12.5), (0.25, 0.5), (0.65, 2.5), (1.05, 0.5),
                                         (0.4, 10.25), (1.3, 0.125)]):
        _station(client, f"HLF-{n}", price=price)
        r = _session(client, f"HLF-{n}", _sid(5, n), energy_kwh=energy)
        rows.append([price, energy, _field(r, "cost"),
                     client.get(f"/stations/HLF-{n}").json().get("revenue")])
    return rows


def probe_cost_uses_written_decimals(client):
    rows = []
    for n, (price, energy) in enumerate([(0.5, 12.35), (0.5, 0.87), (1.75, 17.7),
                                         (0.35, 2.9), (1.45, 0.3)]):
        _station(client, f"DEC-{n}", price=price)
        r = _session(client, f"DEC-{n}", _sid(6, n), energy_kwh=energy)
        rows.append([price, energy, _field(r, "cost")])
    return rows


def probe_large_energies_are_priced(client):
    _station(client, "BIG-1", price=0.45)
    _station(client, "BIG-2", price=0.45)
    rows = []
    for n, text in enumerate(["2.2e26", "2.3e26", "1e30", "123456789e300",
                              "1.7976931348623157e308"]):
        sent = ('{"session_id": "%s", "started_at": "%s", "duration": "PT30M", '
                '"energy_kwh": %s}' % (_sid(18, n), START, text))
        r = client.post("/stations/BIG-%d/sessions" % (1 + n // 3), content=sent.encode(),
                        headers={"content-type": "application/json"})
        rows.append([text, _field(r, "cost")])
    for code in ["BIG-1", "BIG-2"]:
        shown = client.get("/stations/" + code).json()
        rows.append([code, shown.get("sessions"), shown.get("revenue")])
    return rows


def probe_session_ids_are_canonical(client):
    _station(client, "SID-1")
    base = "9b2e4c7a-1d3f-4a5b-8c6d-7e8f9a0b1c2"
    rows = []
    for n, sid in enumerate([base + "0", (base + "1").upper(), (base + "2").replace("-", ""),
                             "{" + base + "3}", "urn:uuid:" + base + "4", base[:-1],
                             "9B2e4c7a-1d3f-4a5b-8c6d-7e8f9a0b1c25", base + "6"]):
        rows.append([sid, _field(_session(client, "SID-1", sid), "session_id")])
    rows.append([_field(client.get("/sessions/" + base + "0"), "session_id")])
    rows.append(_row(client.get("/sessions/" + (base + "0").upper())))
    return rows


def probe_session_ids_are_unique(client):
    _station(client, "DUP-1")
    _station(client, "DUP-2")
    sid = _sid(7, 1)
    rows = [[_field(_session(client, "DUP-1", sid, energy_kwh=1.5), "energy_kwh")],
            _row(_session(client, "DUP-1", sid, energy_kwh=2.5)),
            _row(_session(client, "DUP-2", sid, energy_kwh=3.5)),
            [client.get("/sessions/" + sid).json().get("energy_kwh")],
            [client.get("/stations/DUP-2").json().get("sessions")]]
    return rows


def probe_started_at_needs_an_offset(client):
    _station(client, "OFS-1")
    rows = []
    for n, moment in enumerate(["2026-07-01T09:30:00", "2026-07-01", "tomorrow", None,
                                "2026-07-01T09:30:00Z", "2026-07-01T09:30:00-03:30"]):
        rows.append([moment, _field(_session(client, "OFS-1", _sid(8, n), started_at=moment),
                                    "started_at")])
    return rows


def probe_started_at_is_not_unix_seconds(client):
    _station(client, "UNX-1")
    rows = []
    for n, moment in enumerate([1782900000, "1782900000", 1782900000.5, "1782900000000",
                                START]):
        rows.append([moment, _field(_session(client, "UNX-1", _sid(9, n), started_at=moment),
                                    "started_at")])
    return rows


def probe_times_are_shown_in_utc(client):
    _station(client, "UTC-1")
    rows = []
    for n, (moment, duration) in enumerate([("2026-07-01T23:30:00+02:00", "PT90M"),
                                            ("2026-12-31T23:50:00-01:00", "PT20M"),
                                            ("2026-03-01T00:00:00Z", "PT1H")]):
        r = _session(client, "UTC-1", _sid(10, n), started_at=moment, duration=duration)
        rows.append([moment, r.json().get("started_at"), r.json().get("ended_at")])
    shown = client.get("/sessions/" + _sid(10, 0)).json()
    rows.append([shown.get("started_at"), shown.get("ended_at")])
    return rows


def probe_duration_bounds(client):
    _station(client, "DUR-1")
    rows = []
    for n, duration in enumerate(["PT1M", "PT59S", "PT90M", f"PT{MAX_HOURS}H",
                                  f"PT{MAX_HOURS}H1S", f"PT{MAX_HOURS * 60 - 1}M", "P1DT1H",
                                  "PT0S", "-PT1H"]):
        rows.append([duration, _field(_session(client, "DUR-1", _sid(11, n), duration=duration),
                                      "duration")])
    return rows


def probe_duration_is_iso_8601(client):
    _station(client, "ISO-1")
    rows = []
    for n, duration in enumerate([5400, 5400.0, "5400", "01:30:00", "01:30", "0 days, 1:30:00",
                                  "PT1H30M"]):
        rows.append([duration, _field(_session(client, "ISO-1", _sid(12, n), duration=duration),
                                      "duration")])
    return rows


def probe_sessions_listed_by_utc_day(client):
    _station(client, "DAY-1")
    _station(client, "DAY-2")
    for n, moment in enumerate(["2026-05-02T01:00:00+03:00", "2026-05-01T08:00:00Z",
                                "2026-05-01T23:30:00-02:00", "2026-05-01T08:00:00+00:00",
                                "2026-05-01T12:00:00+02:00"]):
        _session(client, "DAY-1", _sid(13, 5 - n), started_at=moment)
    _session(client, "DAY-2", _sid(13, 9), started_at="2026-05-01T09:00:00Z")
    rows = []
    for day in [None, "2026-05-01", "2026-05-02", "2026-05-03"]:
        r = client.get("/stations/DAY-1/sessions", params={} if day is None else {"on": day})
        rows.append([day, [[s["session_id"][-2:], s["started_at"]] for s in r.json()]])
    rows.append(_row(client.get("/stations/NONE-3/sessions", params={"on": "2026-05-01"})))
    return rows


def probe_day_is_a_calendar_date(client):
    _station(client, "CAL-1")
    _session(client, "CAL-1", _sid(14, 1), started_at="2026-06-01T10:00:00Z")
    _session(client, "CAL-1", _sid(14, 2), started_at="1970-01-01T10:00:00Z")
    rows = []
    for day in ["2026-06-01", "0", "1780272000", "2026-06-01T00:00:00Z", "2026-06-01T00:00:00",
                "2026-06-31", "", "20260601"]:
        r = client.get("/stations/CAL-1/sessions", params={"on": day})
        rows.append([day, r.status_code, [s["session_id"][-2:] for s in r.json()]
                     if r.status_code == 200 else r.json()])
    return rows


def probe_patch_changes_sent_fields(client):
    _station(client, "PAT-1", price=0.4, name="before")
    first = _session(client, "PAT-1", _sid(16, 1), energy_kwh=10.5).json().get("cost")
    rows = [[first]]
    for patch in [{}, {"name": "  after  "}, {"name": None}, {"price_per_kwh": None},
                  {"info_url": None}, {"name": ""}, {"price_per_kwh": 0.8}]:
        rows.append([patch, _field(client.patch("/stations/PAT-1", json=patch), "name")])
    later = _session(client, "PAT-1", _sid(16, 2), energy_kwh=10.5).json().get("cost")
    shown = client.get("/stations/PAT-1").json()
    rows.append([later, client.get("/sessions/" + _sid(16, 1)).json().get("cost"),
                 shown.get("name"), shown.get("sessions"), shown.get("revenue")])
    rows.append(_row(client.patch("/stations/NONE-4", json={"name": "x"})))
    return rows


def probe_deleted_sessions_are_gone(client):
    _station(client, "DEL-1")
    _session(client, "DEL-1", _sid(17, 1))
    _session(client, "DEL-1", _sid(17, 2))
    r = client.delete("/sessions/" + _sid(17, 1))
    rows = [[r.status_code, r.content.decode()],
            _row(client.get("/sessions/" + _sid(17, 1))),
            _row(client.delete("/sessions/" + _sid(17, 1))),
            [client.get("/stations/DEL-1").json().get("sessions")],
            [[s["session_id"][-2:] for s in client.get("/stations/DEL-1/sessions").json()]]]
    return rows


def probe_stations_listed_in_code_order(client):
    for code in ["ZZZ-9", "AAA-10", "AAA-9", "MMM-1"]:
        _station(client, code)
    _session(client, "MMM-1", _sid(15, 1))
    _session(client, "MMM-1", _sid(15, 2))
    listed = client.get("/stations").json()
    return [[s["code"], s["sessions"]] for s in listed
            if s["code"] in ("ZZZ-9", "AAA-10", "AAA-9", "MMM-1")]
'''

_DATA = [
    {"code1": "VOLT-12", "name1": "Harbour Street", "url1": "https://charge.example.org/volt-12",
     "price1": 0.45, "sid1": "3f2b8c1e-7d4a-4e6b-9a5c-1b2d3e4f5a6b",
     "start1": "2026-07-01T23:30:00+02:00", "dur1": "PT90M", "kwh1": 12.5, "day1": "2026-07-01"},
    {"code1": "AMP-7", "name1": "Depot North", "url1": "https://ev.example.net/amp/7",
     "price1": 0.65, "sid1": "c0ffee00-1234-4abc-8def-0123456789ab",
     "start1": "2026-03-15T00:20:00+01:00", "dur1": "PT45M", "kwh1": 2.5, "day1": "2026-03-14"},
    {"code1": "EVC-301", "name1": "Mall Level 2", "url1": "https://stations.example.com/evc-301",
     "price1": 0.85, "sid1": "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9",
     "start1": "2026-11-30T18:05:00-05:00", "dur1": "PT2H", "kwh1": 4.5, "day1": "2026-11-30"},
]
_RULES = [
    {"name_max": 40, "price_limit": 2, "max_hours": 8},
    {"name_max": 60, "price_limit": 5, "max_hours": 12},
    {"name_max": 24, "price_limit": 10, "max_hours": 24},
]

PROMPT = '''\
`/workspace` holds an EV charging service: `solution.py` and the package `charging/` it imports
(`store.py`, `money.py`, `fields.py`, `models.py`, `errors.py`, `stations.py`, `sessions.py`).
It should behave as described below but does not, in several ways. Find and fix
every deviation (edit or rewrite any file); `solution.py` must keep defining `app` and `result`.
State lives in memory and carries from one request to the next; there are no stations at start.

**Errors.** Every error but a failed validation is `{"error": <message>}` with its status,
FastAPI's router errors included (an unknown path is 404 `{"error": "Not Found"}`, a wrong
method 405 `{"error": "Method Not Allowed"}`); the service's own are 404 `station not found`,
404 `session not found`, 409 `station exists` and 409 `session exists`. A request that fails
validation is 422 `{"error": "invalid request", "fields": [...]}`, whatever else is wrong with
it: `fields` holds, sorted and without repeats, the first two parts of each error's location
joined with `.` (`"body.energy_kwh"`, `"query.on"`; `"body"` for a body that is not an
object). Unknown body fields are ignored.

**Money** (`price_per_kwh`, `cost`, `revenue`) is always shown as a JSON string with exactly two
decimals (`"0.40"`, `"12.00"`, `"0.00"`).

**Stations** are shown as `{"code", "name", "info_url", "price_per_kwh", "sessions",
"revenue"}`: `sessions` counts the station's sessions and `revenue` is the sum of their costs.
- `POST /stations` with `{"code", "name", "info_url", "price_per_kwh"}`: 201 with the station;
  a code already taken is 409.
  - `code`: 2 to 5 upper-case letters `A`-`Z`, `-`, then 1 to 4 digits `0`-`9` (`"VOLT-12"`);
    codes in paths match exactly.
  - `name`: 1 to ${name_max} characters once surrounding spaces are removed; stored trimmed.
  - `info_url`: an absolute `http` or `https` URL, stored and shown exactly as sent.
  - `price_per_kwh`: a JSON number (a string is 422) greater than 0 and below ${price_limit},
    with at most two decimals.
- `GET /stations`: 200 with every station, in code order. `GET /stations/{code}`: 200 with the
  station.
- `PATCH /stations/{code}` with any of `name`, `info_url` and `price_per_kwh`, each as on
  creation (null is 422): only the fields sent change; 200 with the station. A new price
  applies to the sessions recorded after it: costs already recorded stay as they are.

**Sessions** are shown as `{"session_id", "station", "started_at", "duration", "ended_at",
"energy_kwh", "cost"}`, `station` being the station's code.
- `POST /stations/{code}/sessions` with `{"session_id", "started_at", "duration",
  "energy_kwh"}`: 201 with the session; an unknown station is 404, a `session_id` already used
  (at any station) is 409.
  - `session_id`: a UUID chosen by the client, in canonical form: 36 characters, lower-case
    hexadecimal digits in groups of 8, 4, 4, 4 and 12 joined by `-`; any other form is 422.
  - `started_at`: a JSON string holding a date-time with a UTC offset (one without an offset is
    422, and so is a number or a string of digits, such as Unix seconds).
  - `duration`: a JSON string holding an ISO 8601 duration (`"PT45M"`, `"PT1H30M"`) from 1
    minute to ${max_hours} hours, both included; a number, or a clock time such as
    `"01:30:00"`, is 422.
  - `energy_kwh`: a finite JSON number greater than 0, however large (a string is 422, and so
    is a number too large to be finite, such as `1e400`).
  - `cost` is `price_per_kwh` times `energy_kwh`, the two taken as the decimal numbers written
    in the requests, rounded half up to the cent.
  - `started_at` and `ended_at` (`started_at` plus `duration`) are shown in UTC, in FastAPI's
    standard form ending in `Z` (`"2026-07-01T07:30:00Z"`); `duration` in FastAPI's standard
    ISO 8601 form (`"PT90M"` is shown as `"PT1H30M"`, `"PT24H"` as `"P1D"`); `energy_kwh` as
    the JSON number sent.
- `GET /sessions/{session_id}`: 200 with the session; the id matches only in its canonical
  form (any other spelling is 404). `DELETE /sessions/{session_id}`: 204 with an empty body;
  the session is gone and no longer counts for its station.
- `GET /stations/{code}/sessions`: 200 with the station's sessions in order of `started_at`,
  then `session_id`. The optional query parameter `on` keeps only those whose `started_at` falls
  on that date in UTC; it is a calendar date `YYYY-MM-DD` (anything else, such as a number or a
  date-time, or an empty value, is 422).

`result` has four rows, each `[status, body]`:
1. `POST /stations` with
   `{"code": "${code1}", "name": "${name1}", "info_url": "${url1}", "price_per_kwh": ${price1}}`
2. `POST /stations/${code1}/sessions` with
   `{"session_id": "${sid1}", "started_at": "${start1}", "duration": "${dur1}", "energy_kwh": ${kwh1}}`
3. `GET /stations/${code1}`
4. `GET /stations/${code1}/sessions?on=${day1}`
'''

FAMILY = repair_family(
    id="repair/charging_sessions",
    title="Repair an EV charging service whose bugs are in what its types accept and render",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_DATA[0], **_RULES[0]},
    space={"data": _DATA, "rules": _RULES},
    instances=9,
    requirements=(
        Requirement("Every error but a validation failure is `{\"error\": message}`, router "
                    "errors included.",
                    probes=("errors_have_one_format",),
                    traps=(_in("errors", "handler registered for FastAPI's HTTPException",
                               "from starlette.exceptions import HTTPException",
                               "from fastapi import HTTPException"),)),
        Requirement("A failed validation is 422 `{\"error\": \"invalid request\", \"fields\"}`, "
                    "each location's first two parts joined with `.`, sorted, no repeats.",
                    probes=("invalid_requests_list_fields",),
                    traps=(_in("errors", "fields without the location's source",
                               'str(part) for part in error["loc"][:2]',
                               'str(part) for part in error["loc"][1:2]'),)),
        Requirement("A code is 2 to 5 letters A-Z, `-`, 1 to 4 digits; paths match exactly.",
                    probes=("codes_are_checked",),
                    traps=(_in("fields", "code pattern not anchored at the end",
                               "-[0-9]{1,4}$$", "-[0-9]{1,4}"),)),
        Requirement("A code's digits are `0`-`9` only: other Unicode digits are 422.",
                    probes=("code_digits_are_ascii",), traps=(_UNICODE_DIGITS,)),
        Requirement("A code already taken is 409 `station exists` and the station is "
                    "unchanged.",
                    probes=("codes_are_unique",),
                    traps=(_in("stations", "create overwrites a taken code", '''\
    if body.code in store.STATIONS:
        raise HTTPException(409, "station exists")
''', ""),)),
        Requirement("A name is 1 to ${name_max} characters once trimmed, and stored trimmed.",
                    probes=("names_are_trimmed",),
                    traps=(_in("fields", "name not trimmed",
                               "StringConstraints(strip_whitespace=True, min_length=1,",
                               "StringConstraints(min_length=1,"),)),
        Requirement("`info_url` is an http(s) URL, stored and shown exactly as sent.",
                    probes=("urls_are_kept_as_sent",), traps=(_URL_NORMALISED,)),
        Requirement("`price_per_kwh` is shown with exactly two decimals.",
                    probes=("prices_show_two_decimals",), traps=(_PRICE_SCALE_KEPT,)),
        Requirement("`price_per_kwh` is greater than 0, below ${price_limit}, with at most two "
                    "decimals.",
                    probes=("price_bounds",),
                    traps=(_in("fields", "price limit included",
                               "Field(gt=0, lt=PRICE_LIMIT,",
                               "Field(gt=0, le=PRICE_LIMIT,"),)),
        Requirement("`price_per_kwh` and `energy_kwh` are JSON numbers: strings (and booleans) "
                    "are 422.",
                    probes=("numbers_are_not_strings",),
                    traps=(_PRICE_FROM_STRING, _ENERGY_FROM_STRING)),
        Requirement("`energy_kwh` is finite: `1e400` is 422.",
                    probes=("energy_is_finite",), traps=(_ENERGY_INFINITE,)),
        Requirement("A station without sessions has revenue `\"0.00\"`.",
                    probes=("revenue_of_no_sessions",), traps=(_REVENUE_INT_ZERO,)),
        Requirement("`cost` is rounded half up to the cent.",
                    probes=("cost_rounds_half_up",), traps=(_HALF_EVEN,)),
        Requirement("`cost` uses `energy_kwh` as the decimal number written (12.35, not the "
                    "float nearest to it).",
                    probes=("cost_uses_written_decimals",), traps=(_BINARY_ENERGY,)),
        Requirement("Any finite `energy_kwh`, however large, is priced to the cent, and "
                    "revenue sums such costs exactly, both with two decimals.",
                    probes=("large_energies_are_priced",),
                    traps=(_in("money", "cost quantized in the default 28-digit context",
                               "    with localcontext(prec=DIGITS):\n        return (price",
                               "    return (price"),
                           _in("money", "revenue summed in the default 28-digit context",
                               "    with localcontext(prec=DIGITS):\n        return sum(",
                               "    return sum("))),
        Requirement("`session_id` is a UUID in canonical form only; other spellings are 422, "
                    "and paths match the canonical form only.",
                    probes=("session_ids_are_canonical",), traps=(_ANY_UUID_SPELLING,)),
        Requirement("A `session_id` already used at any station is 409 `session exists`.",
                    probes=("session_ids_are_unique",),
                    traps=(_in("sessions", "session ids unique per station only",
                               "    if key in store.SESSIONS:",
                               "    if store.SESSIONS.get(key, {}).get(\"station\") == "
                               "station[\"code\"]:"),)),
        Requirement("A `started_at` without a UTC offset is 422.",
                    probes=("started_at_needs_an_offset",),
                    traps=(_in("fields", "naive started_at accepted",
                               "Moment = Annotated[AwareDatetime,",
                               "Moment = Annotated[datetime,"),)),
        Requirement("A `started_at` given as a number or a string of digits (Unix seconds) is "
                    "422.",
                    probes=("started_at_is_not_unix_seconds",), traps=(_UNIX_SECONDS,)),
        Requirement("`started_at` and `ended_at` are shown in UTC ending in `Z`.",
                    probes=("times_are_shown_in_utc",),
                    traps=(_in("fields", "times kept in their own offset",
                               ", AfterValidator(in_utc)]", "]"),)),
        Requirement("`duration` is from 1 minute to ${max_hours} hours, both included, shown in "
                    "FastAPI's ISO 8601 form.",
                    probes=("duration_bounds",),
                    traps=(_in("fields", "duration limit excluded",
                               "le=timedelta(hours=MAX_HOURS)",
                               "lt=timedelta(hours=MAX_HOURS)"),)),
        Requirement("`duration` is an ISO 8601 string: a number or a clock time is 422.",
                    probes=("duration_is_iso_8601",), traps=(_LAX_DURATION,)),
        Requirement("A station's sessions are listed by `started_at` then `session_id`, `on` "
                    "keeping those on that UTC date.",
                    probes=("sessions_listed_by_utc_day",),
                    traps=(_in("sessions", "sessions listed as stored",
                               "return sorted(chosen, key=lambda s: (s[\"started_at\"], "
                               "s[\"session_id\"]))", "return chosen"),)),
        Requirement("`on` is a calendar date `YYYY-MM-DD`: a number or a date-time is 422.",
                    probes=("day_is_a_calendar_date",), traps=(_LAX_DAY,)),
        Requirement("A PATCH changes only the fields sent (null is 422); a new price applies "
                    "to later sessions only.",
                    probes=("patch_changes_sent_fields",),
                    traps=(_in("stations", "patch sets every field",
                               "patch.model_dump(exclude_unset=True)", "patch.model_dump()"),
                           _in("models", "patch name accepts null", "    name: Name = None",
                               "    name: Name | None = None"))),
        Requirement("`DELETE /sessions/{id}` is 204 with an empty body; the session is gone.",
                    probes=("deleted_sessions_are_gone",),
                    traps=(_in("sessions", "delete leaves the session",
                               "store.SESSIONS.pop(session_id, None)",
                               "store.SESSIONS.get(session_id)"),)),
        Requirement("Stations are listed in code order with their session counts.",
                    probes=("stations_listed_in_code_order",),
                    traps=(_in("stations", "stations listed as stored",
                               "[shown(store.STATIONS[code]) for code in sorted(store.STATIONS)]",
                               "[shown(station) for station in store.STATIONS.values()]"),)),
    ),
)
