"""Repair tier, large: a veterinary clinic service (owners, pets, vets' schedules,
appointments, invoices) as a package of eleven modules in /workspace with sixteen planted bugs,
most of them lines that read as right: an error handler registered for FastAPI's HTTPException
(so 404s of unknown paths miss the error format), a handler that drops the exception's headers,
a router included without its staff dependency, a collection route at "/" (307), a GET route
without HEAD, lax ints and Unix-second datetimes, a closing-time bound off by one, back-to-back
bookings refused, a filter applied after paging, a case-sensitive sort, ids from the row count,
an email case-fold missing, an empty payment key let through, `dict.fromkeys` sharing one list,
and `response_model_exclude_none` hiding a null. Each bug is one requirement's trap; the setup
is the reference with all of them."""

from fastapi_env.tasks import Edit, Requirement, probe_rows
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.repair import _plumbing

PKG = "clinic"

INIT = '''\
"""Veterinary clinic service: owners, pets, vets' schedules, appointments and invoices."""
'''

ROUTERS_INIT = '''\
"""The clinic's routers, one module per area."""
'''

CONFIG = '''\
"""Clinic settings: who may call, opening hours, paging and booking limits."""

STAFF = {
    "${tok_desk}": {"name": "${desk}", "role": "reception", "vet_id": None},
    "${tok_vet1}": {"name": "${vet1}", "role": "vet", "vet_id": 1},
    "${tok_vet2}": {"name": "${vet2}", "role": "vet", "vet_id": 2},
}
VETS = {1: "${vet1}", 2: "${vet2}"}
DAYS = ("mon", "tue", "wed", "thu", "fri")

OPEN_HOUR = ${open_hour}
CLOSE_HOUR = ${close_hour}
MIN_MINUTES = ${min_minutes}
MAX_MINUTES = ${max_minutes}
PAGE_DEFAULT = ${page_default}
PAGE_MAX = ${page_max}
PAYMENT_KEY = "${payment_key}"
API_VERSION = "${api_version}"
'''

ERRORS = '''\
"""One error format for every failure: {"error": {"code", "message"}} (422s add "fields")."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

CODES = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
}


def error_body(code: str, message: str, **extra) -> dict:
    return {"error": {"code": code, "message": message, **extra}}


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    code = CODES.get(exc.status_code, "error")
    return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code,
                        headers=exc.headers)


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    fields = [list(error["loc"]) for error in exc.errors()]
    body = error_body("validation_failed", "invalid request", fields=fields)
    return JSONResponse(body, status_code=422)


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
'''

SECURITY = '''\
"""Bearer tokens of the clinic's staff, and role checks."""

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Request
''' + late_body.IMPORT + '''from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from . import config

bearer = HTTPBearer(auto_error=False)
CHALLENGE = {"WWW-Authenticate": "Bearer"}


''' + late_body.ROUTE_CLASSES + '''


def current_staff(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> dict:
    if credentials is None:
        raise HTTPException(401, "missing token", headers=CHALLENGE)
    staff = config.STAFF.get(credentials.credentials)
    if staff is None:
        raise HTTPException(401, "invalid token", headers=CHALLENGE)
    return staff


Staff = Annotated[dict, Depends(current_staff)]


def require_role(role: str) -> Callable[[dict], dict]:
    def check(staff: Staff) -> dict:
        if staff["role"] != role:
            raise HTTPException(403, f"{role} only")
        return staff

    return check


Reception = Annotated[dict, Depends(require_role("reception"))]
Vet = Annotated[dict, Depends(require_role("vet"))]
'''

DEPS = '''\
"""Dependencies shared by the routers: paging and record look-ups."""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Query

from . import config
from .store import db


@dataclass
class Page:
    limit: int
    offset: int

    def slice(self, rows: list) -> list:
        return rows[self.offset:self.offset + self.limit]


def paging(
    limit: Annotated[int, Query(ge=1, le=config.PAGE_MAX)] = config.PAGE_DEFAULT,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Page:
    return Page(limit, offset)


Paging = Annotated[Page, Depends(paging)]


def find(table: str, record_id: int, what: str) -> dict:
    record = getattr(db, table).get(record_id)
    if record is None:
        raise HTTPException(404, f"{what} not found")
    return record


def vet_exists(vet_id: int) -> int:
    if vet_id not in config.VETS:
        raise HTTPException(404, "vet not found")
    return vet_id
'''

STORE = '''\
"""In-memory tables. Ids are never reused, even after a delete."""

from . import config


class Store:
    def __init__(self) -> None:
        self.owners: dict[int, dict] = {}
        self.pets: dict[int, dict] = {}
        self.appointments: dict[int, dict] = {}
        self.invoices: dict[int, dict] = {}
        self.breaks = {vet_id: {day: [] for day in config.DAYS} for vet_id in config.VETS}
        self.last_id = dict.fromkeys(["owners", "pets", "appointments", "invoices"], 0)

    def add(self, table: str, record: dict) -> dict:
        rows = getattr(self, table)
        self.last_id[table] += 1
        record["id"] = self.last_id[table]
        rows[record["id"]] = record
        return record


db = Store()
'''

SCHEMAS = r'''\
"""Request and response bodies."""

import re
from typing import Annotated, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    field_validator,
)

from . import config

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Species = Literal["cat", "dog", "rabbit", "bird"]
Day = Literal["mon", "tue", "wed", "thu", "fri"]
ISO_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OwnerIn(Strict):
    name: Name
    email: str
    phone: str | None = None

    @field_validator("email")
    @classmethod
    def normalise_email(cls, value: str) -> str:
        value = value.strip().lower()
        local, at, domain = value.partition("@")
        if not (local and at and domain) or "@" in domain:
            raise ValueError("not an email address")
        return value


class Owner(BaseModel):
    id: int
    name: str
    email: str
    phone: str | None


class OwnerPage(BaseModel):
    items: list[Owner]
    total: int


class PetIn(Strict):
    owner_id: StrictInt
    name: Name
    species: Species
    weight_grams: StrictInt = Field(ge=1, le=${max_weight})
    chip_id: str | None = None


class Pet(BaseModel):
    id: int
    owner_id: int
    name: str
    species: Species
    weight_grams: int
    chip_id: str | None


class PetPage(BaseModel):
    items: list[Pet]
    total: int


class BreakIn(Strict):
    day: Day
    hour: StrictInt = Field(ge=config.OPEN_HOUR, lt=config.CLOSE_HOUR)


class Schedule(BaseModel):
    vet_id: int
    name: str
    open_hour: int
    close_hour: int
    breaks: dict[str, list[int]]


class AppointmentIn(Strict):
    pet_id: StrictInt
    vet_id: StrictInt
    starts_at: AwareDatetime
    minutes: StrictInt = Field(ge=config.MIN_MINUTES, le=config.MAX_MINUTES)

    @field_validator("starts_at", mode="before")
    @classmethod
    def starts_at_is_text(cls, value: object) -> object:
        if not isinstance(value, str) or not ISO_TEXT.fullmatch(value):
            raise ValueError("starts_at must be an ISO 8601 text with an offset")
        return value


class Appointment(BaseModel):
    id: int
    pet_id: int
    vet_id: int
    starts_at: AwareDatetime
    minutes: int
    status: Literal["booked", "cancelled"]


class InvoiceLine(Strict):
    item: Name
    cents: StrictInt = Field(ge=1)
    qty: StrictInt = Field(ge=1, le=99)


class InvoiceIn(Strict):
    appointment_id: StrictInt
    lines: list[InvoiceLine] = Field(min_length=1)


class Invoice(BaseModel):
    id: int
    appointment_id: int
    lines: list[InvoiceLine]
    total_cents: int
    paid: bool
'''

OWNERS = '''\
"""Owners: reception registers them; all staff may read them."""

from fastapi import APIRouter, HTTPException, Response

from ..deps import Paging, find
from ..schemas import Owner, OwnerIn, OwnerPage
from ..security import CallerFirstRoute, Reception
from ..store import db

router = APIRouter(prefix="/owners", tags=["owners"], route_class=CallerFirstRoute)


@router.post("", status_code=201, response_model=Owner)
def register_owner(body: OwnerIn, response: Response, staff: Reception):
    if any(owner["email"] == body.email for owner in db.owners.values()):
        raise HTTPException(409, "email already registered")
    owner = db.add("owners", body.model_dump())
    response.headers["Location"] = f"/owners/{owner['id']}"
    return owner


@router.get("", response_model=OwnerPage)
def list_owners(page: Paging):
    ordered = sorted(db.owners.values(), key=lambda owner: (owner["name"].casefold(), owner["id"]))
    return {"items": page.slice(ordered), "total": len(ordered)}


@router.get("/{owner_id}", response_model=Owner)
def read_owner(owner_id: int):
    return find("owners", owner_id, "owner")
'''

PETS = '''\
"""Pets: reception registers and removes them; all staff may read them."""

from fastapi import APIRouter, Response

from ..deps import Paging, find
from ..schemas import Pet, PetIn, PetPage, Species
from ..security import CallerFirstRoute, Reception
from ..store import db

router = APIRouter(prefix="/pets", tags=["pets"], route_class=CallerFirstRoute)


@router.post("", status_code=201, response_model=Pet)
def register_pet(body: PetIn, response: Response, staff: Reception):
    find("owners", body.owner_id, "owner")
    pet = db.add("pets", body.model_dump())
    response.headers["Location"] = f"/pets/{pet['id']}"
    return pet


@router.get("", response_model=PetPage)
def list_pets(page: Paging, species: Species | None = None, owner_id: int | None = None):
    matching = [
        pet for _, pet in sorted(db.pets.items())
        if species in (None, pet["species"]) and owner_id in (None, pet["owner_id"])
    ]
    return {"items": page.slice(matching), "total": len(matching)}


@router.api_route("/{pet_id}", methods=["GET", "HEAD"], response_model=Pet)
def read_pet(pet_id: int):
    return find("pets", pet_id, "pet")


@router.delete("/{pet_id}", status_code=204)
def remove_pet(pet_id: int, staff: Reception):
    find("pets", pet_id, "pet")
    del db.pets[pet_id]
'''

VETS = '''\
"""Vets' weekly schedules: opening hours and each vet's break hours."""

from fastapi import APIRouter, Depends, HTTPException

from .. import config
from ..deps import vet_exists
from ..schemas import BreakIn, Schedule
from ..security import CallerFirstRoute, Staff
from ..store import db

router = APIRouter(prefix="/vets", tags=["vets"], route_class=CallerFirstRoute)


def schedule_of(vet_id: int) -> dict:
    breaks = {day: sorted(hours) for day, hours in db.breaks[vet_id].items()}
    return {"vet_id": vet_id, "name": config.VETS[vet_id], "open_hour": config.OPEN_HOUR,
            "close_hour": config.CLOSE_HOUR, "breaks": breaks}


@router.get("/{vet_id}/schedule", response_model=Schedule)
def read_schedule(vet_id: int = Depends(vet_exists)):
    return schedule_of(vet_id)


@router.post("/{vet_id}/breaks", status_code=201, response_model=Schedule)
def add_break(body: BreakIn, staff: Staff, vet_id: int = Depends(vet_exists)):
    if staff["vet_id"] != vet_id:
        raise HTTPException(403, "only the vet edits their breaks")
    hours = db.breaks[vet_id][body.day]
    if body.hour in hours:
        raise HTTPException(409, "break already set")
    hours.append(body.hour)
    return schedule_of(vet_id)
'''

APPOINTMENTS = '''\
"""Appointments: reception books them inside opening hours, outside the vet's breaks and
without overlapping the vet's other bookings."""

from datetime import datetime, timedelta, timezone
from typing import Literal

from fastapi import APIRouter, HTTPException

from .. import config
from ..deps import find, vet_exists
from ..schemas import Appointment, AppointmentIn
from ..security import CallerFirstRoute, Reception, Staff
from ..store import db

router = APIRouter(prefix="/appointments", tags=["appointments"], route_class=CallerFirstRoute)


def end_of(start: datetime, minutes: int) -> datetime:
    return start + timedelta(minutes=minutes)


def check_opening_hours(start: datetime, end: datetime) -> None:
    opening = start.replace(hour=config.OPEN_HOUR, minute=0, second=0, microsecond=0)
    closing = start.replace(hour=config.CLOSE_HOUR, minute=0, second=0, microsecond=0)
    if start.weekday() >= len(config.DAYS) or start < opening or end > closing:
        raise HTTPException(409, "outside opening hours")


def check_breaks(vet_id: int, start: datetime, end: datetime) -> None:
    day = config.DAYS[start.weekday()]
    for hour in db.breaks[vet_id][day]:
        pause = start.replace(hour=hour, minute=0, second=0, microsecond=0)
        if start < pause + timedelta(hours=1) and pause < end:
            raise HTTPException(409, "vet is on a break")


def check_free(vet_id: int, start: datetime, end: datetime) -> None:
    for other in db.appointments.values():
        if other["vet_id"] != vet_id or other["status"] != "booked":
            continue
        if start < end_of(other["starts_at"], other["minutes"]) and other["starts_at"] < end:
            raise HTTPException(409, "slot taken")


@router.post("", status_code=201, response_model=Appointment)
def book(body: AppointmentIn, staff: Reception):
    find("pets", body.pet_id, "pet")
    vet_exists(body.vet_id)
    start = body.starts_at.astimezone(timezone.utc)
    end = end_of(start, body.minutes)
    check_opening_hours(start, end)
    check_breaks(body.vet_id, start, end)
    check_free(body.vet_id, start, end)
    record = body.model_dump() | {"starts_at": start, "status": "booked"}
    return db.add("appointments", record)


@router.get("", response_model=list[Appointment])
def list_appointments(vet_id: int | None = None,
                      status: Literal["booked", "cancelled"] | None = None):
    chosen = [a for a in db.appointments.values()
              if vet_id in (None, a["vet_id"]) and status in (None, a["status"])]
    return sorted(chosen, key=lambda a: (a["starts_at"], a["id"]))


@router.post("/{appointment_id}/cancel", response_model=Appointment)
def cancel(appointment_id: int, staff: Staff):
    appointment = find("appointments", appointment_id, "appointment")
    if staff["role"] != "reception" and staff["vet_id"] != appointment["vet_id"]:
        raise HTTPException(403, "not your appointment")
    if appointment["status"] == "cancelled":
        raise HTTPException(409, "already cancelled")
    appointment["status"] = "cancelled"
    return appointment
'''

INVOICES = '''\
"""Invoices: the appointment's vet writes them; the payment terminal marks them paid."""

import hmac
from typing import Annotated, Literal

from fastapi import APIRouter, Header, HTTPException

from .. import config
from ..deps import find
from ..schemas import Invoice, InvoiceIn
from ..security import CallerFirstRoute, Vet
from ..store import db

router = APIRouter(prefix="/invoices", tags=["invoices"], route_class=CallerFirstRoute)


@router.get("", response_model=list[Invoice])
def list_invoices(paid: Literal["true", "false"] | None = None):
    wanted = None if paid is None else paid == "true"
    return [invoice for _, invoice in sorted(db.invoices.items())
            if wanted in (None, invoice["paid"])]


@router.post("", status_code=201, response_model=Invoice)
def write_invoice(body: InvoiceIn, staff: Vet):
    appointment = find("appointments", body.appointment_id, "appointment")
    if appointment["vet_id"] != staff["vet_id"]:
        raise HTTPException(403, "not your appointment")
    if appointment["status"] != "booked":
        raise HTTPException(409, "appointment cancelled")
    lines = [line.model_dump() for line in body.lines]
    total = sum(line["cents"] * line["qty"] for line in lines)
    record = {"appointment_id": body.appointment_id, "lines": lines, "total_cents": total,
              "paid": False}
    return db.add("invoices", record)


@router.get("/{invoice_id}", response_model=Invoice)
def read_invoice(invoice_id: int):
    return find("invoices", invoice_id, "invoice")


@router.post("/{invoice_id}/pay", response_model=Invoice)
def pay(invoice_id: int, x_payment_key: Annotated[str | None, Header()] = None):
    invoice = find("invoices", invoice_id, "invoice")
    if x_payment_key is None or not hmac.compare_digest(
            x_payment_key.encode(), config.PAYMENT_KEY.encode()):
        raise HTTPException(403, "bad payment key")
    if invoice["paid"]:
        raise HTTPException(409, "already paid")
    invoice["paid"] = True
    return invoice
'''

# Adds the version header to every response, errors included.
_MIDDLEWARE = '''\
@app.middleware("http")
async def api_version(request: Request, call_next):
    response = await call_next(request)
    response.headers["X-Clinic-Api"] = config.API_VERSION
    return response


STAFF_ONLY = [Depends(current_staff)]
'''

MAIN = '''\
"""The clinic application: error format, routers, the staff check on every area."""

from fastapi import Depends, FastAPI, Request

from . import config, errors
from .routers import appointments, invoices, owners, pets, vets
from .security import current_staff

app = FastAPI(title="Clinic")
errors.install(app)


''' + _MIDDLEWARE + '''app.include_router(owners.router, dependencies=STAFF_ONLY)
app.include_router(pets.router, dependencies=STAFF_ONLY)
app.include_router(vets.router, dependencies=STAFF_ONLY)
app.include_router(appointments.router, dependencies=STAFF_ONLY)
app.include_router(invoices.router, dependencies=STAFF_ONLY)
'''

SOLUTION = """\
from fastapi.testclient import TestClient

from clinic.main import app""" + _plumbing.RESULT_CLIENT + '''\
desk = {"Authorization": "Bearer ${tok_desk}"}
owner = client.post("/owners", headers=desk,
                    json={"name": "${owner_name}", "email": "${owner_email}"})
owner_id = body(owner).get("id") if isinstance(body(owner), dict) else None
pet = client.post("/pets", headers=desk, json={
    "owner_id": owner_id, "name": "${pet_name}", "species": "${pet_species}",
    "weight_grams": ${pet_weight}})
listing = client.get("/pets", headers=desk)
result = [
    [owner.status_code, body(owner), owner.headers.get("location")],
    [pet.status_code, body(pet)],
    [listing.status_code, body(listing)],
]
'''

FILES = {
    f"{PKG}/__init__.py": INIT,
    f"{PKG}/config.py": CONFIG,
    f"{PKG}/errors.py": ERRORS,
    f"{PKG}/security.py": SECURITY,
    f"{PKG}/deps.py": DEPS,
    f"{PKG}/store.py": STORE,
    f"{PKG}/schemas.py": SCHEMAS,
    f"{PKG}/main.py": MAIN,
    f"{PKG}/routers/__init__.py": ROUTERS_INIT,
    f"{PKG}/routers/owners.py": OWNERS,
    f"{PKG}/routers/pets.py": PETS,
    f"{PKG}/routers/vets.py": VETS,
    f"{PKG}/routers/appointments.py": APPOINTMENTS,
    f"{PKG}/routers/invoices.py": INVOICES,
}


def _in(module: str, name: str, old: str, new: str) -> Edit:
    return Edit(name, old, new, file=f"{PKG}/{module}.py")


_HANDLER_CLASS = _in("errors", "handler registered for FastAPI's HTTPException", """\
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
""", """\
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
""")
_HEADERS_DROPPED = _in("errors", "error handler drops the exception's headers",
                       "status_code=exc.status_code,\n                        headers=exc.headers)",
                       "status_code=exc.status_code)")
_INVOICES_OPEN = _in("main", "invoices router included without the staff check",
                     "app.include_router(invoices.router, dependencies=STAFF_ONLY)",
                     "app.include_router(invoices.router)")
_SCHEDULE_SLASH = _in("routers/vets", "schedule route declared with a trailing slash",
                      '@router.get("/{vet_id}/schedule", response_model=Schedule)',
                      '@router.get("/{vet_id}/schedule/", response_model=Schedule)')
_NO_HEAD = _in("routers/pets", "pet read answers GET only",
               '@router.api_route("/{pet_id}", methods=["GET", "HEAD"], response_model=Pet)',
               '@router.get("/{pet_id}", response_model=Pet)')
_LAX_WEIGHT = _in("schemas", "weight is a lax int",
                  "weight_grams: StrictInt = Field(", "weight_grams: int = Field(")
_UNIX_SECONDS = _in("schemas", "starts_at numbers reach the datetime parser",
                    "if not isinstance(value, str) or not ISO_TEXT.fullmatch(value):",
                    "if isinstance(value, str) and not ISO_TEXT.fullmatch(value):")
_CLOSE_BOUND = _in("routers/appointments", "a booking may not end at closing time",
                   "start < opening or end > closing", "start < opening or end >= closing")
_BACK_TO_BACK = _in("routers/appointments", "back-to-back bookings overlap",
                    'if start < end_of(other["starts_at"], other["minutes"]) and '
                    'other["starts_at"] < end:',
                    'if start <= end_of(other["starts_at"], other["minutes"]) and '
                    'other["starts_at"] <= end:')
_FILTER_AFTER_PAGE = _in("routers/pets", "pets filtered after paging", '''\
    matching = [
        pet for _, pet in sorted(db.pets.items())
        if species in (None, pet["species"]) and owner_id in (None, pet["owner_id"])
    ]
    return {"items": page.slice(matching), "total": len(matching)}''', '''\
    pets = page.slice([pet for _, pet in sorted(db.pets.items())])
    matching = [
        pet for pet in pets
        if species in (None, pet["species"]) and owner_id in (None, pet["owner_id"])
    ]
    return {"items": matching, "total": len(matching)}''')
_CASE_SORT = _in("routers/owners", "owners sorted case-sensitively",
                 'key=lambda owner: (owner["name"].casefold(), owner["id"])',
                 'key=lambda owner: (owner["name"], owner["id"])')
_ID_REUSE = _in("store", "ids counted from the table size", '''\
        self.last_id = dict.fromkeys(["owners", "pets", "appointments", "invoices"], 0)

    def add(self, table: str, record: dict) -> dict:
        rows = getattr(self, table)
        self.last_id[table] += 1
        record["id"] = self.last_id[table]''', '''\

    def add(self, table: str, record: dict) -> dict:
        rows = getattr(self, table)
        record["id"] = len(rows) + 1''')
_EMAIL_CASE = _in("schemas", "email only trimmed, not lowercased",
                  "value = value.strip().lower()", "value = value.strip()")
_EMPTY_KEY = _in("routers/invoices", "a missing payment key passes",
                 "if x_payment_key is None or not hmac.compare_digest(\n",
                 "if x_payment_key and not hmac.compare_digest(\n")
# compare_digest refuses str with non-ASCII characters (a header's Latin-1 byte): a 500.
_KEY_AS_TEXT = _in("routers/invoices", "payment key compared as text",
                   "x_payment_key.encode(), config.PAYMENT_KEY.encode()",
                   "x_payment_key, config.PAYMENT_KEY")
_SHARED_DAYS = _in("store", "every day shares one break list",
                   "{day: [] for day in config.DAYS}", "dict.fromkeys(config.DAYS, [])")
_NULL_HIDDEN = _in("routers/pets", "a new pet's null chip_id is left out",
                   '@router.post("", status_code=201, response_model=Pet)',
                   '@router.post("", status_code=201, response_model=Pet, '
                   'response_model_exclude_none=True)')

# The version header set by a dependency of the routers instead of a middleware: it reaches
# successful responses only.
_MAIN_HEAD = MAIN[MAIN.index("from fastapi"):MAIN.index(_MIDDLEWARE) + len(_MIDDLEWARE)]
_VERSION_ON_SUCCESS = _in(
    "main", "version header set by a dependency, lost on errors", _MAIN_HEAD,
    _MAIN_HEAD.replace("Depends, FastAPI, Request", "Depends, FastAPI, Response").replace(
        _MIDDLEWARE, '''\
def api_version(response: Response) -> None:
    response.headers["X-Clinic-Api"] = config.API_VERSION


STAFF_ONLY = [Depends(current_staff), Depends(api_version)]
'''))
# A lax bool takes 1, yes, on, True...: the edit spans the imports so that `Literal` goes too.
_INVOICES_HEAD = INVOICES[INVOICES.index("from typing"):INVOICES.index("@router.post")]
_LAX_PAID = _in("routers/invoices", "paid filter is a lax bool", _INVOICES_HEAD,
                _INVOICES_HEAD.replace("Annotated, Literal", "Annotated").replace("""\
def list_invoices(paid: Literal["true", "false"] | None = None):
    wanted = None if paid is None else paid == "true"
    return [invoice for _, invoice in sorted(db.invoices.items())
            if wanted in (None, invoice["paid"])]""", """\
def list_invoices(paid: bool | None = None):
    return [invoice for _, invoice in sorted(db.invoices.items())
            if paid in (None, invoice["paid"])]"""))

PLANTED = (_HANDLER_CLASS, _HEADERS_DROPPED, _INVOICES_OPEN, _SCHEDULE_SLASH, _NO_HEAD,
           _LAX_WEIGHT, _UNIX_SECONDS, _CLOSE_BOUND, _BACK_TO_BACK, _FILTER_AFTER_PAGE,
           _CASE_SORT, _ID_REUSE, _EMAIL_CASE, _EMPTY_KEY, _SHARED_DAYS, _NULL_HIDDEN,
           _VERSION_ON_SUCCESS, _LAX_PAID)

PROBES = probe_rows.ROWS_422_LOC_AND_HEAD + '''\
DESK = {"Authorization": "Bearer ${tok_desk}"}
VET1 = {"Authorization": "Bearer ${tok_vet1}"}
VET2 = {"Authorization": "Bearer ${tok_vet2}"}
MONDAY = "${monday}"


def _err(r):
    """Status, error code and message (a 422's field locations instead of its message)."""
    body = _body(r)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        error = body["error"]
        detail = error.get("fields") if r.status_code == 422 else error.get("message")
        return [r.status_code, error.get("code"), detail]
    return [r.status_code, body]


def _sc(r):
    """Status and error code (None on success): no ids, which earlier requests shift."""
    body = _body(r)
    error = body.get("error") if isinstance(body, dict) else None
    return [r.status_code, error.get("code") if isinstance(error, dict) else None]


def _owner(client, tag):
    r = client.post("/owners", headers=DESK, json={"name": f"Owner {tag}",
                                                   "email": f"{tag}@${mail_domain}"})
    return r.json()["id"]


def _pet(client, owner_id, species="cat", name="Tom"):
    r = client.post("/pets", headers=DESK, json={"owner_id": owner_id, "name": name,
                                                 "species": species, "weight_grams": 900})
    return r.json()["id"]


def _at(hour, minute=0, day=MONDAY):
    return f"{day}T{hour:02d}:{minute:02d}:00Z"


def _book(client, pet_id, vet_id, starts_at, minutes):
    return client.post("/appointments", headers=DESK, json={
        "pet_id": pet_id, "vet_id": vet_id, "starts_at": starts_at, "minutes": minutes})


def probe_unknown_paths_use_error_format(client):
    return [_row(client.get("/clinic", headers=DESK)),
            _row(client.get("/owners/1/pets", headers=DESK)),
            _err(client.get("/owners/98765", headers=DESK))]


def probe_error_headers_kept(client):
    missing = client.get("/owners", headers={"Authorization": "Basic ${tok_desk}"})
    wrong = client.get("/pets", headers={"Authorization": "Bearer ${tok_desk}x"})
    not_allowed = client.get("/invoices/1/pay", headers=DESK)
    return [_err(missing) + [missing.headers.get("www-authenticate")],
            _err(wrong) + [wrong.headers.get("www-authenticate")],
            _err(not_allowed) + [not_allowed.headers.get("allow")]]


def probe_invoices_need_a_token(client):
    owner_id = _owner(client, "inv-auth")
    booked = _book(client, _pet(client, owner_id), 1, _at(${open_hour} + 1), ${min_minutes})
    invoice = client.post("/invoices", headers=VET1, json={
        "appointment_id": booked.json()["id"], "lines": [{"item": "exam", "cents": 4500,
                                                         "qty": 1}]})
    path = f"/invoices/{invoice.json()['id']}"
    return [[invoice.status_code, invoice.json()["total_cents"]],
            _err(client.get(path)), _err(client.get(path, headers={"Authorization": "Bearer "})),
            [client.get(path, headers=DESK).status_code],
            _err(client.post(f"{path}/pay", headers={"X-Payment-Key": "${payment_key}"}))]


def probe_paths_without_redirects(client):
    plain = client.post("/owners", headers=DESK, json={"name": "Slash Less",
                                                       "email": "slash@${mail_domain}"},
                        follow_redirects=False)
    listing = client.get("/owners", headers=DESK, follow_redirects=False)
    pets = client.get("/pets", headers=DESK, follow_redirects=False)
    created = _body(plain)
    owner_id = created.get("id") if isinstance(created, dict) else None
    schedule = client.get("/vets/2/schedule", headers=DESK, follow_redirects=False)
    unknown = client.get("/vets/9/schedule", headers=DESK, follow_redirects=False)
    return [[plain.status_code, plain.headers.get("location") == f"/owners/{owner_id}"],
            [listing.status_code, pets.status_code],
            [schedule.status_code, schedule.headers.get("location"), _body(schedule)],
            _err(unknown)]


def probe_head_on_pet(client):
    pet_id = _pet(client, _owner(client, "head"))
    found = client.head(f"/pets/{pet_id}", headers=DESK)
    missing = client.head("/pets/98765", headers=DESK)
    return [[found.status_code, found.content.decode(), found.headers.get("content-type")],
            [missing.status_code, missing.content.decode()]]


def probe_weight_is_a_json_integer(client):
    owner_id = _owner(client, "weight")
    rows = []
    for weight in ["900", 900.0, True, 0, ${max_weight} + 1, 1, ${max_weight}]:
        r = client.post("/pets", headers=DESK, json={"owner_id": owner_id, "name": "W",
                                                     "species": "dog", "weight_grams": weight})
        rows.append([repr(weight), r.status_code,
                     r.json().get("weight_grams") if r.status_code == 201 else
                     r.json().get("error", {}).get("fields")])
    return rows


def probe_starts_at_is_iso_text(client):
    pet_id = _pet(client, _owner(client, "iso"))
    rows = []
    for starts_at in [${monday_epoch_open}, "${monday_epoch_open}", "${monday}T${open_pad}:00:00",
                      "${monday}T${open_pad}:00:00Z"]:
        r = _book(client, pet_id, 2, starts_at, ${min_minutes})
        rows.append([repr(starts_at), r.status_code, r.json().get("starts_at") if
                     r.status_code == 201 else r.json().get("error", {}).get("fields")])
    return rows


def probe_opening_hours_bounds(client):
    pet_id = _pet(client, _owner(client, "hours"))
    rows = []
    for starts_at, minutes, vet_id in [
        (_at(${close_hour} - 1), 60, 1), (_at(${close_hour} - 1, 1), 60, 1),
        (_at(${open_hour} - 1, 59), ${min_minutes}, 1), (_at(${open_hour}), ${min_minutes}, 1),
        (_at(${open_hour}, day="${saturday}"), ${min_minutes}, 1),
        ("${monday}T${close_pad}:30:00+01:00", ${min_minutes}, 2),
    ]:
        r = _book(client, pet_id, vet_id, starts_at, minutes)
        rows.append([starts_at, minutes] + _sc(r) +
                    [r.json().get("starts_at") if r.status_code == 201 else None])
    return rows


def probe_back_to_back_bookings(client):
    pet_id = _pet(client, _owner(client, "b2b"))
    first = _book(client, pet_id, 2, _at(${open_hour} + 3), 30)
    after = _book(client, pet_id, 2, _at(${open_hour} + 3, 30), 30)
    before = _book(client, pet_id, 2, _at(${open_hour} + 2, 30), 30)
    clash = _book(client, pet_id, 2, _at(${open_hour} + 3, 59), ${min_minutes})
    other_vet = _book(client, pet_id, 1, _at(${open_hour} + 3), 30)
    cancel = client.post(f"/appointments/{first.json()['id']}/cancel", headers=VET2)
    again = _book(client, pet_id, 2, _at(${open_hour} + 3), 30)
    rows = [_sc(r) for r in (first, after, before, clash, other_vet, cancel, again)]
    return rows + [[cancel.json().get("status"), again.json().get("starts_at")]]


def probe_pet_filters_before_paging(client):
    owner_id = _owner(client, "paging")
    for index in range(${page_max} + 2):
        _pet(client, owner_id, "rabbit" if index % 2 else "bird", f"P{index}")
    rows = []
    for query in [f"?owner_id={owner_id}&species=rabbit&limit=2", f"?owner_id={owner_id}&species=bird&offset=1",
                  f"?owner_id={owner_id}&limit=${page_max}", f"?owner_id={owner_id}",
                  "?limit=${page_max}&offset=0&species=bird&owner_id=" + str(owner_id)]:
        r = client.get(f"/pets{query}", headers=DESK)
        body = r.json()
        rows.append([query.replace(str(owner_id), "X"), r.status_code,
                     [p["name"] for p in body.get("items", []) if p["owner_id"] == owner_id],
                     body.get("total") if "owner_id" in query else None])
    rows.append(_err(client.get(f"/pets?limit={${page_max} + 1}", headers=DESK)))
    rows.append(_err(client.get("/pets?limit=0", headers=DESK)))
    return rows


def probe_owners_sorted_case_insensitively(client):
    for name, tag in [("${sort_a}", "s1"), ("${sort_b}", "s2"), ("${sort_c}", "s3"),
                      ("${sort_b}", "s4")]:
        client.post("/owners", headers=DESK, json={"name": name, "email": f"{tag}@sort.test"})
    r = client.get("/owners?limit=${page_max}", headers=DESK)
    listed = []
    offset = 0
    while True:
        page = client.get(f"/owners?limit=${page_max}&offset={offset}", headers=DESK).json()
        listed += page["items"]
        offset += ${page_max}
        if offset >= page["total"]:
            break
    return [[r.status_code, len(r.json()["items"])],
            [[o["name"], o["email"]] for o in listed if o["email"].endswith("@sort.test")]]


def probe_ids_never_reused(client):
    owner_id = _owner(client, "ids")
    first = _pet(client, owner_id, name="First")
    last = _pet(client, owner_id, name="Last")
    removed = client.delete(f"/pets/{last}", headers=DESK)
    again = client.delete(f"/pets/{last}", headers=DESK)
    newer = _pet(client, owner_id, name="Newer")
    return [[removed.status_code], _err(again), [newer - last, newer - first],
            [client.get(f"/pets/{first}", headers=DESK).json()["name"]],
            _err(client.get(f"/pets/{last}", headers=DESK))]


def probe_emails_case_insensitive(client):
    first = client.post("/owners", headers=DESK, json={"name": "Case", "email": " ${case_email} "})
    dup = client.post("/owners", headers=DESK, json={"name": "Case 2",
                                                     "email": "${case_email}".lower()})
    bad = client.post("/owners", headers=DESK, json={"name": "Bad", "email": "a@b@c"})
    return [[first.status_code, first.json().get("email")], _err(dup), _err(bad)]


def probe_payment_needs_the_key(client):
    owner_id = _owner(client, "pay")
    booked = _book(client, _pet(client, owner_id), 2, _at(${open_hour} + 5), ${min_minutes})
    invoice = client.post("/invoices", headers=VET2, json={
        "appointment_id": booked.json()["id"],
        "lines": [{"item": "vaccine", "cents": 1250, "qty": 2}, {"item": "exam", "cents": 3000,
                                                                 "qty": 1}]})
    path = f"/invoices/{invoice.json()['id']}/pay"
    rows = [[invoice.status_code, invoice.json()["total_cents"]]]
    for key in [None, "", "${payment_key}".upper(), "${payment_key}"[:-1] + "\u00e9",
                "${payment_key}", "${payment_key}"]:
        headers = DESK if key is None else DESK | {"X-Payment-Key": key.encode("latin-1")}
        r = client.post(path, headers=headers)
        rows.append([key] + _sc(r) + [r.json().get("paid")])
    return rows


def probe_breaks_per_day(client):
    first = client.post("/vets/1/breaks", headers=VET1, json={"day": "tue", "hour": ${break_hour}})
    twice = client.post("/vets/1/breaks", headers=VET1, json={"day": "tue", "hour": ${break_hour}})
    other_day = client.post("/vets/1/breaks", headers=VET1, json={"day": "thu", "hour": ${open_hour}})
    foreign = client.post("/vets/2/breaks", headers=VET1, json={"day": "mon", "hour": ${open_hour}})
    desk = client.post("/vets/1/breaks", headers=DESK, json={"day": "mon", "hour": ${open_hour}})
    schedule = client.get("/vets/1/schedule", headers=DESK)
    pet_id = _pet(client, _owner(client, "break"))
    monday = _book(client, pet_id, 1, _at(${break_hour}), ${min_minutes})
    tuesday = _book(client, pet_id, 1, _at(${break_hour}, day="${tuesday}"), ${min_minutes})
    return [[first.status_code, first.json()["breaks"]], _err(twice),
            [other_day.status_code], _err(foreign), _err(desk), _row(schedule),
            _sc(monday), _err(tuesday)]


def probe_new_pet_shows_null_chip(client):
    owner_id = _owner(client, "chip")
    r = client.post("/pets", headers=DESK, json={"owner_id": owner_id, "name": "Chipless",
                                                 "species": "dog", "weight_grams": 5000})
    tagged = client.post("/pets", headers=DESK, json={"owner_id": owner_id, "name": "Chipped",
                                                      "species": "cat", "weight_grams": 4000,
                                                      "chip_id": "${chip}"})
    body = r.json()
    return [[r.status_code, sorted(body), body.get("chip_id", "absent")],
            [tagged.status_code, tagged.json().get("chip_id")]]

def probe_auth_before_everything(client):
    lower = client.get("/owners?limit=1", headers={"Authorization": "bearer ${tok_vet2}"})
    return [_err(client.post("/pets", json={})),
            _err(client.get("/owners/98765")),
            _err(client.post("/appointments", headers=VET1, json={})),
            _err(client.post("/owners", headers=VET1, json={"name": "Vet Made",
                                                            "email": "vetmade@${mail_domain}"})),
            _err(client.delete("/pets/98765", headers=VET2)),
            [lower.status_code]]


def probe_cancel_rules(client):
    pet_id = _pet(client, _owner(client, "cancel"))
    late = _book(client, pet_id, 2, _at(${close_hour} - 2), 20).json()["id"]
    _book(client, pet_id, 2, _at(${open_hour} + 4), 20)
    _book(client, pet_id, 2, _at(${open_hour} + 2), 20)
    rows = [_err(client.post(f"/appointments/{late}/cancel", headers=VET1)),
            _sc(client.post(f"/appointments/{late}/cancel", headers=VET2)),
            _err(client.post(f"/appointments/{late}/cancel", headers=DESK)),
            _err(client.post("/appointments/98765/cancel", headers=DESK))]
    for query in ["?vet_id=2&status=booked", "?vet_id=2&status=cancelled"]:
        listed = client.get(f"/appointments{query}", headers=DESK).json()
        rows.append([query, [a["starts_at"] for a in listed if a["pet_id"] == pet_id]])
    rows.append(_err(client.get("/appointments?status=done", headers=DESK)))
    return rows


def probe_invoice_rules(client):
    pet_id = _pet(client, _owner(client, "invoice"))
    mine = _book(client, pet_id, 1, _at(${open_hour} + 2, 30), 20).json()["id"]
    dropped = _book(client, pet_id, 1, _at(${open_hour} + 5), 20).json()["id"]
    client.post(f"/appointments/{dropped}/cancel", headers=DESK)
    line = [{"item": " exam ", "cents": 2000, "qty": 3}]
    written = client.post("/invoices", headers=VET1, json={"appointment_id": mine,
                                                           "lines": line})
    rows = [_sc(written), [written.json().get("total_cents"), written.json().get("lines"),
                           written.json().get("paid")]]
    for headers, body in [
        (VET2, {"appointment_id": mine, "lines": line}),
        (DESK, {"appointment_id": mine, "lines": line}),
        (VET1, {"appointment_id": dropped, "lines": line}),
        (VET1, {"appointment_id": 98765, "lines": line}),
        (VET1, {"appointment_id": mine, "lines": []}),
        (VET1, {"appointment_id": mine, "lines": [{"item": "x", "cents": 5, "qty": 100}]}),
    ]:
        rows.append(_err(client.post("/invoices", headers=headers, json=body)))
    rows.append(_err(client.get("/invoices/98765", headers=DESK)))
    return rows


def probe_unknown_keys_refused(client):
    owner = client.post("/owners", headers=DESK, json={"name": "Extra", "email":
                                                       "extra@${mail_domain}", "vip": True})
    pet = client.post("/pets", headers=DESK, json={"owner_id": 1, "name": "X", "species": "cat",
                                                   "weight_grams": 10, "colour": "red"})
    phone = client.post("/owners", headers=DESK, json={"name": "  Phone Owner ", "email":
                                                       "phone@${mail_domain}", "phone": "555"})
    return [_err(owner), _err(pet), [phone.status_code, phone.json().get("name"),
                                     phone.json().get("phone")]]


def probe_version_header_everywhere(client):
    rows = []
    for method, path, headers in [("GET", "/owners?limit=1", DESK), ("GET", "/owners", {}),
                                  ("GET", "/nowhere", DESK), ("GET", "/pets?limit=0", DESK),
                                  ("POST", "/owners", VET1), ("GET", "/owners/98765", DESK)]:
        r = client.request(method, path, headers=headers)
        rows.append([method, path, r.status_code, r.headers.get("x-clinic-api")])
    return rows


def probe_invoice_paid_filter(client):
    pet_id = _pet(client, _owner(client, "paid"))
    mine = []
    for minute, cents in [(0, 111), (30, 222)]:
        booked = _book(client, pet_id, 2, _at(${open_hour} + 1, minute), ${min_minutes})
        invoice = client.post("/invoices", headers=VET2, json={
            "appointment_id": booked.json()["id"],
            "lines": [{"item": "check", "cents": cents, "qty": 1}]})
        mine.append(invoice.json()["id"])
    client.post(f"/invoices/{mine[1]}/pay", headers=DESK | {"X-Payment-Key": "${payment_key}"})
    rows = []
    for query in ["", "?paid=true", "?paid=false", "?paid=1", "?paid=yes", "?paid=True"]:
        r = client.get(f"/invoices{query}", headers=DESK)
        body = r.json()
        rows.append([query, r.status_code, [i["total_cents"] for i in body if i["id"] in mine]
                     if isinstance(body, list) else _err(r)])
    return rows


def probe_booking_failure_order(client):
    pet_id = _pet(client, _owner(client, "order"))
    client.post("/vets/2/breaks", headers=VET2, json={"day": "wed", "hour": ${open_hour}})
    taken = _book(client, pet_id, 2, _at(${open_hour} + 1, 15, day="${wednesday}"), 30)
    rows = [_sc(taken)]
    for pet, vet, starts_at, minutes in [
        (98765, 9, _at(${open_hour}), ${min_minutes}),
        (98765, 2, _at(${open_hour} - 1), ${min_minutes}),
        (pet_id, 9, _at(${open_hour} - 1), ${min_minutes}),
        (pet_id, 2, _at(${open_hour} - 1, 30, day="${wednesday}"), 60),
        (pet_id, 2, _at(${open_hour}, 45, day="${wednesday}"), 45),
    ]:
        rows.append(_err(_book(client, pet, vet, starts_at, minutes)))
    return rows


def probe_break_edges(client):
    pet_id = _pet(client, _owner(client, "edges"))
    client.post("/vets/2/breaks", headers=VET2, json={"day": "wed", "hour": ${break_hour}})
    rows = []
    for hour, minute, minutes in [(${break_hour} - 1, 45, 15), (${break_hour} - 1, 50, 15),
                                  (${break_hour}, 59, ${min_minutes}), (${break_hour} + 1, 0, 15),
                                  (${break_hour} - 1, 0, 90)]:
        r = _book(client, pet_id, 2, _at(hour, minute, day="${wednesday}"), minutes)
        rows.append([hour, minute, minutes] + _sc(r))
        if r.status_code == 201:
            client.post(f"/appointments/{r.json()['id']}/cancel", headers=DESK)
    return rows


def probe_break_hour_range(client):
    rows = []
    for hour in [${open_hour} - 1, ${open_hour}, ${close_hour_less}, ${close_hour}]:
        r = client.post("/vets/2/breaks", headers=VET2, json={"day": "fri", "hour": hour})
        rows.append([hour] + (_err(r) if r.status_code >= 400 else _sc(r)))
    return rows


def probe_break_route_order(client):
    bad = {"day": "sat", "hour": ${open_hour}}
    good = {"day": "thu", "hour": ${close_hour_less}}
    return [_err(client.post("/vets/9/breaks", headers=VET1, json=bad)),
            _err(client.post("/vets/9/breaks", headers=DESK, json=good)),
            _err(client.post("/vets/2/breaks", headers=VET1, json=bad)),
            _err(client.post("/vets/2/breaks", headers=DESK, json=bad)),
            _err(client.post("/vets/2/breaks", headers=VET1, json=good)),
            _err(client.post("/vets/2/breaks", json=bad))]


def probe_cancel_order(client):
    pet_id = _pet(client, _owner(client, "cancel-order"))
    booked = _book(client, pet_id, 1, _at(${open_hour} + 7, 30, day="${tuesday}"), 20).json()["id"]
    path = f"/appointments/{booked}/cancel"
    rows = [_sc(client.post(path, headers=VET1))]
    return rows + [_err(client.post(path, headers=VET2)), _err(client.post(path, headers=VET1)),
                   _err(client.post("/appointments/98765/cancel", headers=VET2)),
                   _err(client.post("/appointments/x/cancel", headers=VET2))]


def probe_owner_paging_bounds(client):
    for index in range(${page_max} + 1):
        client.post("/owners", headers=DESK, json={"name": f"Pager {index}",
                                                   "email": f"pager{index}@${mail_domain}"})
    rows = []
    for query in ["", "?limit=1", "?limit=${page_max}", "?offset=0&limit=1", "?limit=0",
                  f"?limit={${page_max} + 1}", "?offset=-1", "?limit=x"]:
        r = client.get(f"/owners{query}", headers=DESK)
        rows.append([query, r.status_code, len(r.json()["items"]) if r.status_code == 200
                     else r.json().get("error", {}).get("fields")])
    return rows


def probe_owner_phone(client):
    rows = []
    for tag, extra in [("no-phone", {}), ("null-phone", {"phone": None}),
                       ("text-phone", {"phone": "+44 20 7946 0018"}), ("int-phone", {"phone": 5550}),
                       ("bool-phone", {"phone": True})]:
        r = client.post("/owners", headers=DESK, json={"name": f"Phone {tag}",
                                                       "email": f"{tag}@${mail_domain}"} | extra)
        body = r.json()
        if r.status_code != 201:
            rows.append([tag] + _err(r))
            continue
        read = client.get(f"/owners/{body['id']}", headers=DESK).json()
        rows.append([tag, r.status_code, sorted(body), body.get("phone", "absent"),
                     read.get("phone", "absent")])
    return rows


def probe_docs_need_no_token(client):
    rows = []
    for path in ["/openapi.json", "/docs", "/redoc"]:
        for headers in [{}, {"Authorization": "Bearer ${tok_desk}x"}]:
            r = client.get(path, headers=headers)
            rows.append([path, bool(headers), r.status_code,
                         (r.headers.get("content-type") or "").split(";")[0]])
    return rows


def _late(r):
    """`_err` with the challenge; a 422 as the first part of each field location (FastAPI
    locates a body that is not JSON in more than one way)."""
    body = _body(r)
    if r.status_code == 422 and isinstance(body, dict) and isinstance(body.get("error"), dict):
        fields = body["error"].get("fields") or []
        return [422, body["error"].get("code"), sorted({str(f[0]) for f in fields if f})]
    return _err(r) + [r.headers.get("www-authenticate")]
''' + late_body.probe_source(
    [("POST", "/owners"), ("POST", "/pets"), ("POST", "/vets/1/breaks"),
     ("POST", "/appointments"), ("POST", "/invoices")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer nope"}'),
     ("reception", "DESK"), ("vet 1", "VET1")], row="_late")

PROMPT = '''\
`/workspace` holds the service of a veterinary clinic: `solution.py` and the package `clinic/`
it imports (`config.py`, `errors.py`, `security.py`, `deps.py`, `store.py`, `schemas.py`,
`main.py` and the routers in `clinic/routers/`). It should behave as described below but does
not, in several places. Find and fix every deviation (edit or rewrite any file; keep the
package's layout if you like); `solution.py` must keep defining `app` and `result`. State
lives in memory and carries from one request to the next.

## Staff and tokens
Every route of the clinic needs `Authorization: Bearer <token>` (the scheme name is
case-insensitive): `${tok_desk}` is `${desk}` (role reception), `${tok_vet1}` is vet 1
`${vet1}`, `${tok_vet2}` is vet 2 `${vet2}` (role vet). No header, another scheme or an empty token is
401 with message `missing token`; an unknown token 401 `invalid token`; both carry
`WWW-Authenticate: Bearer`. The token is checked before anything else a route does (before
404s of unknown ids and before 422s, a body that is not JSON included), but a path the service does not have is 404 and a known
path with a method it does not serve is 405 whatever the token. FastAPI's own documentation
routes are not the clinic's and need no token: `GET /openapi.json` (the OpenAPI schema, JSON),
`GET /docs` and `GET /redoc` (HTML pages) answer 200 as FastAPI serves them, with or without an
`Authorization` header, which they do not check. A route for one role only
("reception only", "vets only" below) answers other staff 403 right after the token check,
before validating the body (even one that is not JSON) or looking up ids; the rules "only that vet" and "the
appointment's vet" are checked after the vet or appointment is found (404 first).

## Errors
Every error, FastAPI's and Starlette's own included (unknown paths, 405s), has the body
`{"error": {"code": <code>, "message": <text>}}` and keeps the headers that come with it
(`WWW-Authenticate` on 401s, `Allow` on 405s). Codes: 401 `unauthorized`, 403 `forbidden`,
404 `not_found` (message `Not Found` for an unknown path, `<thing> not found` for an unknown
id: `owner`, `pet`, `appointment`, `invoice`, `vet`), 405 `method_not_allowed` (message
`Method Not Allowed`), 409
`conflict`. Request validation failures are 422 with `{"error": {"code":
"validation_failed", "message": "invalid request", "fields": [<loc>, ...]}}`, one `loc` (as
FastAPI reports it, e.g. `["body", "weight_grams"]`) per failing field; a body that is not
JSON is such a 422 too, its locations starting with `"body"`. Bodies refuse unknown keys
(422). Wherever a body field below is a number, only a JSON integer is valid: strings,
floats (`900.0`) and booleans are 422.

Every response, errors and 404s of unknown paths included, carries the header
`X-Clinic-Api: ${api_version}`.

Every path written in this document is served at exactly that path, never with a redirect
(to a form with a trailing slash or any other); what a path with an added trailing slash
answers is left open.

## Paging
`GET /owners` and `GET /pets` take `limit` (1 to ${page_max}, default ${page_default}) and
`offset` (0 or more, default 0); outside those bounds is 422. They answer
`{"items": [...], "total": <n>}` where `total` counts every record matching the filters and
`items` is the requested page of them.

## Owners
- `POST /owners` (reception only, 403 `reception only` otherwise): `{"name", "email",
  "phone"?}`; name 1 to 60 characters after trimming; email trimmed and lowercased, exactly one
  `@` with text on both sides; phone a JSON string or null (default null; numbers and
  booleans are 422). 201 with `{"id", "name", "email", "phone"}` (every key present, `phone`
  null included) and `Location: /owners/<id>`. An email already registered
  (compared after trimming and lowercasing) is 409 `email already registered`.
- `GET /owners`: all owners, ordered by name case-insensitively, ties by id.
- `GET /owners/{id}`: 200 with the owner.

## Pets
- `POST /pets` (reception only): `{"owner_id", "name", "species", "weight_grams",
  "chip_id"?}`; species `cat`, `dog`, `rabbit` or `bird`; weight 1 to ${max_weight};
  chip_id a string or null (default null); an unknown owner is 404 `owner not found`. 201 with
  `{"id", "owner_id", "name", "species", "weight_grams", "chip_id"}` (every key present,
  `chip_id` null included) and `Location: /pets/<id>`.
- `GET /pets?species=&owner_id=`: pets by id, only those matching the filters given, then
  paged.
- `GET /pets/{id}` and `HEAD /pets/{id}` (the same status and headers, no body).
- `DELETE /pets/{id}` (reception only): 204; 404 once gone. Ids of owners, pets,
  appointments and invoices start at 1 and are never reused, even after a delete.

## Vets' schedules
The clinic is open Monday to Friday from ${open_hour}:00 to ${close_hour}:00 UTC.
- `GET /vets/{vet_id}/schedule`: `{"vet_id", "name", "open_hour", "close_hour", "breaks":
  {"mon": [...], "tue": [...], "wed": [...], "thu": [...], "fri": [...]}}`, each day's break
  hours ascending; a break hour `h` blocks `h:00` to `h+1:00` of that day only.
- `POST /vets/{vet_id}/breaks` `{"day": "mon".."fri", "hour": ${open_hour}..${close_hour_less}}`
  (an integer hour; outside that range is 422). After the token, in this order: an unknown vet
  is 404 `vet not found`; then an invalid body is 422; then anyone but that vet (reception too)
  is 403 `only the vet edits their breaks`; then a break already set is 409 `break already
  set`. Else 201 with the schedule.

## Appointments
- `POST /appointments` (reception only, 403 `reception only`): `{"pet_id", "vet_id", "starts_at", "minutes"}`.
  `starts_at` is a text `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` followed by `Z` or an
  offset `+HH:MM`/`-HH:MM`; anything else (numbers, digit strings, no offset) is 422.
  `minutes` ${min_minutes} to ${max_minutes}. Then, in this order: unknown pet 404, unknown
  vet 404; 409 `outside opening hours` unless it starts and ends on a weekday within opening
  hours (ending exactly at closing time is fine); 409 `vet is on a break` if it overlaps one of
  the vet's break hours on that day (by any part: a break `h` is hit by a booking that starts
  before `h+1:00` and ends after `h:00`); 409 `slot taken` if it overlaps another booked (not
  cancelled) appointment of the same vet (one ending exactly when the other starts does not
  overlap). 201 with `{"id", "pet_id", "vet_id", "starts_at", "minutes", "status":
  "booked"}`, `starts_at` converted to UTC and shown as `YYYY-MM-DDTHH:MM:SSZ`.
- `GET /appointments?vet_id=&status=` (status `booked` or `cancelled`): a list ordered by
  start, ties by id.
- `POST /appointments/{id}/cancel` (reception or the appointment's vet): after the token, in
  this order: an unknown id is 404 `appointment not found`; then anyone else is 403 `not your
  appointment` (also when it is already cancelled); then 409 `already cancelled` the second
  time. Else 200 with it, status `cancelled`.

## Invoices
- `POST /invoices` (vets only, 403 `vet only` otherwise): `{"appointment_id", "lines": [{"item",
  "cents", "qty"}, ...]}` (at least one line; item 1 to 60 characters, cents 1 or more, qty 1
  to 99); unknown appointment 404; another vet's appointment 403 `not your appointment`; a
  cancelled one 409 `appointment cancelled`. 201 with `{"id", "appointment_id", "lines",
  "total_cents", "paid": false}`, total the sum of cents times qty.
- `GET /invoices?paid=`: invoices by id; `paid`, if given, is exactly `true` or `false`
  (anything else is 422) and keeps only the paid or the unpaid ones.
- `GET /invoices/{id}`: 200 with it.
- `POST /invoices/{id}/pay` needs a staff token as every route does, and the header
  `X-Payment-Key: ${payment_key}` (exact): 404 for an unknown invoice first, then 403 `bad
  payment key` if the header is missing, empty or different; 409 `already paid`; else 200
  with `paid` true.

## `result`
Three rows, each from a request as `${desk}`:
1. `[status, body, Location header]` of `POST /owners` `{"name": "${owner_name}", "email":
   "${owner_email}"}`
2. `[status, body]` of `POST /pets` for that owner, name `${pet_name}`, species
   `${pet_species}`, weight ${pet_weight}
3. `[status, body]` of `GET /pets`
'''

_REQS = (
    ("Unknown paths are 404 in the clinic's error format.",
     "unknown_paths_use_error_format", _HANDLER_CLASS),
    ("Errors keep their headers: `WWW-Authenticate: Bearer` on 401s, `Allow` on 405s.",
     "error_headers_kept", _HEADERS_DROPPED),
    ("Invoice routes, like every route, need a staff token.",
     "invoices_need_a_token", _INVOICES_OPEN),
    ("Paths are served exactly as written, without redirects: `POST /owners` is 201 with "
     "`Location`, `GET /vets/{id}/schedule` is 200.",
     "paths_without_redirects", _SCHEDULE_SLASH),
    ("`HEAD /pets/{id}` answers like GET without a body.", "head_on_pet", _NO_HEAD),
    ("`weight_grams` is a JSON integer from 1 to ${max_weight}.",
     "weight_is_a_json_integer", _LAX_WEIGHT),
    ("`starts_at` is ISO 8601 text with an offset; numbers and digit strings are 422; it is "
     "shown in UTC.", "starts_at_is_iso_text", _UNIX_SECONDS),
    ("A booking must lie within opening hours on a weekday; ending at closing time is fine.",
     "opening_hours_bounds", _CLOSE_BOUND),
    ("Bookings of one vet must not overlap; back-to-back is fine; cancelled ones free the slot.",
     "back_to_back_bookings", _BACK_TO_BACK),
    ("`GET /pets` filters first, then pages; `total` counts the matches; limit 1 to "
     "${page_max}, default ${page_default}.", "pet_filters_before_paging", _FILTER_AFTER_PAGE),
    ("Owners are listed by name case-insensitively, ties by id.",
     "owners_sorted_case_insensitively", _CASE_SORT),
    ("Ids are never reused after a delete; a deleted pet is 404.",
     "ids_never_reused", _ID_REUSE),
    ("Emails are stored lowercased and compared case-insensitively (409 on a duplicate).",
     "emails_case_insensitive", _EMAIL_CASE),
    ("Paying needs the exact payment key; a missing or empty one is 403.",
     "payment_needs_the_key", (_EMPTY_KEY, _KEY_AS_TEXT)),
    ("A vet's break blocks that day only; only the vet sets it; twice is 409.",
     "breaks_per_day", _SHARED_DAYS),
    ("A new pet's body shows `chip_id` even when it is null.",
     "new_pet_shows_null_chip", _NULL_HIDDEN),
    ("Every response, errors and unknown paths included, has `X-Clinic-Api: ${api_version}`.",
     "version_header_everywhere", _VERSION_ON_SUCCESS),
    ("`GET /invoices?paid=` takes exactly `true` or `false`; other values are 422.",
     "invoice_paid_filter", _LAX_PAID),
)


_EXTRA = (
    Requirement("The token comes first (401 before 404s and 422s); reception-only routes are "
                "403 for vets before their bodies are validated; the scheme is "
                "case-insensitive.", probes=("auth_before_everything",), traps=(
                    _in("routers/appointments", "booking role checked in the body",
                        "def book(body: AppointmentIn, staff: Reception):\n",
                        "def book(body: AppointmentIn, staff: Staff):\n"
                        "    if staff[\"role\"] != \"reception\":\n"
                        "        raise HTTPException(403, \"reception only\")\n"),
                    )),
    Requirement("Cancelling: reception or the appointment's vet (403 otherwise), 409 the "
                "second time; the list filters by vet and status, ordered by start.",
                probes=("cancel_rules",), traps=(
                    _in("routers/appointments", "any vet cancels",
                        'if staff["role"] != "reception" and staff["vet_id"] != '
                        'appointment["vet_id"]:',
                        'if staff["role"] not in ("reception", "vet"):'),
                    _in("routers/appointments", "appointments listed by id",
                        'key=lambda a: (a["starts_at"], a["id"])', 'key=lambda a: a["id"]'))),
    Requirement("Invoices: the appointment's own vet only, not for cancelled ones, at least one "
                "line, qty 1 to 99; total is cents times qty summed.",
                probes=("invoice_rules",), traps=(
                    _in("routers/invoices", "total ignores qty",
                        'sum(line["cents"] * line["qty"] for line in lines)',
                        'sum(line["cents"] for line in lines)'),
                    _in("routers/invoices", "cancelled appointments invoiced",
                        '    if appointment["status"] != "booked":\n'
                        '        raise HTTPException(409, "appointment cancelled")\n', ""))),
    Requirement("Bodies refuse unknown keys (422 naming the key); names are trimmed.",
                probes=("unknown_keys_refused",), traps=(
                    _in("schemas", "bodies ignore unknown keys",
                        '    model_config = ConfigDict(extra="forbid")\n',
                        '    model_config = ConfigDict(extra="ignore")\n'),)),
)


_ADD_BREAK = VETS[VETS.index("@router.post"):]
_OWNERS_LIST = OWNERS[OWNERS.index("from ..deps"):OWNERS.index('@router.get("/{owner_id}"')]
_CANCEL_LOOKUP = """\
    appointment = find("appointments", appointment_id, "appointment")
    if staff["role"] != "reception" and staff["vet_id"] != appointment["vet_id"]:
        raise HTTPException(403, "not your appointment")
"""
_ALREADY_CANCELLED = """\
    if appointment["status"] == "cancelled":
        raise HTTPException(409, "already cancelled")
"""
_ORDER_TRAPS = (
    _in("routers/appointments", "booking checks the vet before the pet",
        '    find("pets", body.pet_id, "pet")\n    vet_exists(body.vet_id)\n',
        '    vet_exists(body.vet_id)\n    find("pets", body.pet_id, "pet")\n'),
    _in("routers/appointments", "booking checks breaks before opening hours",
        "    check_opening_hours(start, end)\n    check_breaks(body.vet_id, start, end)\n",
        "    check_breaks(body.vet_id, start, end)\n    check_opening_hours(start, end)\n"),
    _in("routers/appointments", "booking checks other bookings before breaks",
        "    check_breaks(body.vet_id, start, end)\n    check_free(body.vet_id, start, end)\n",
        "    check_free(body.vet_id, start, end)\n    check_breaks(body.vet_id, start, end)\n"),
)
_BREAK_EDGE_TRAPS = (
    _in("routers/appointments", "only a start inside a break clashes",
        "if start < pause + timedelta(hours=1) and pause < end:",
        "if pause <= start < pause + timedelta(hours=1):"),
    _in("routers/appointments", "touching a break clashes",
        "if start < pause + timedelta(hours=1) and pause < end:",
        "if start <= pause + timedelta(hours=1) and pause <= end:"),
)
_BREAK_RANGE_TRAPS = (
    _in("schemas", "break hours reach closing time",
        "hour: StrictInt = Field(ge=config.OPEN_HOUR, lt=config.CLOSE_HOUR)",
        "hour: StrictInt = Field(ge=config.OPEN_HOUR, le=config.CLOSE_HOUR)"),
    _in("schemas", "break hours start at midnight",
        "hour: StrictInt = Field(ge=config.OPEN_HOUR, lt=config.CLOSE_HOUR)",
        "hour: StrictInt = Field(ge=0, lt=config.CLOSE_HOUR)"),
)
# The vet's own check moved into a dependency: it then runs before the body is validated.
_BREAK_ORDER_TRAPS = (
    _in("routers/vets", "the vet's own check runs before the body is read", _ADD_BREAK,
        '''\
def own_vet(staff: Staff, vet_id: int = Depends(vet_exists)) -> int:
    if staff["vet_id"] != vet_id:
        raise HTTPException(403, "only the vet edits their breaks")
    return vet_id


''' + _ADD_BREAK.replace('''\
def add_break(body: BreakIn, staff: Staff, vet_id: int = Depends(vet_exists)):
    if staff["vet_id"] != vet_id:
        raise HTTPException(403, "only the vet edits their breaks")
''', '''\
def add_break(body: BreakIn, vet_id: int = Depends(own_vet)):
''')),
    _in("routers/vets", "unknown vet looked up after the body is read",
        "def add_break(body: BreakIn, staff: Staff, vet_id: int = Depends(vet_exists)):\n",
        "def add_break(body: BreakIn, staff: Staff, vet_id: int):\n    vet_exists(vet_id)\n"),
)
_CANCEL_ORDER_TRAPS = (
    _in("routers/appointments", "already cancelled checked before the vet",
        _CANCEL_LOOKUP + _ALREADY_CANCELLED,
        _CANCEL_LOOKUP.replace(_CANCEL_LOOKUP.split("\n")[0] + "\n",
                               _CANCEL_LOOKUP.split("\n")[0] + "\n" + _ALREADY_CANCELLED)),
    _in("routers/appointments", "a vet's 403 comes before the unknown id", _CANCEL_LOOKUP, """\
    found = db.appointments.get(appointment_id) or {}
    if staff["role"] != "reception" and staff["vet_id"] != found.get("vet_id"):
        raise HTTPException(403, "not your appointment")
    appointment = find("appointments", appointment_id, "appointment")
"""),
)
# Owners read their own limit and offset, without the shared paging bounds.
_OWNER_PAGING_TRAPS = (
    _in("routers/owners", "owners paged without bounds", _OWNERS_LIST,
        _OWNERS_LIST.replace("from ..deps import Paging, find", "from ..deps import Page, config, find")
        .replace("def list_owners(page: Paging):\n",
                 "def list_owners(limit: int = config.PAGE_DEFAULT, offset: int = 0):\n"
                 "    page = Page(limit, offset)\n")),
)
_PHONE_TRAPS = (
    _in("schemas", "phone defaults to an empty text",
        "    phone: str | None = None\n", '    phone: str | None = ""\n'),
    _in("routers/owners", "a new owner's null phone is left out",
        '@router.post("", status_code=201, response_model=Owner)',
        '@router.post("", status_code=201, response_model=Owner, '
        'response_model_exclude_none=True)'),
)

# "Every route needs a token" read as covering FastAPI's documentation: turned off, or put
# behind the staff check (FastAPI's recipe for guarded docs).
_DOCS_TRAPS = (
    _in("main", "documentation routes turned off", 'app = FastAPI(title="Clinic")\n',
        'app = FastAPI(title="Clinic", openapi_url=None)\n'),
    _in("main", "documentation behind the staff token", 'app = FastAPI(title="Clinic")\n', '''\
app = FastAPI(title="Clinic", docs_url=None, redoc_url=None, openapi_url=None)


@app.get("/openapi.json", include_in_schema=False, dependencies=[Depends(current_staff)])
def openapi_schema() -> dict:
    return app.openapi()


@app.get("/docs", include_in_schema=False, dependencies=[Depends(current_staff)])
def swagger_page():
    from fastapi.openapi.docs import get_swagger_ui_html

    return get_swagger_ui_html(openapi_url="/openapi.json", title="Clinic")
'''),
)

_GAPS = (
    Requirement("Booking failures come in the stated order: unknown pet, unknown vet, outside "
                "opening hours, on a break, slot taken.", probes=("booking_failure_order",),
                traps=_ORDER_TRAPS),
    Requirement("A break blocks bookings that overlap its hour at all; one ending at the "
                "break's start or starting at its end is fine.", probes=("break_edges",),
                traps=_BREAK_EDGE_TRAPS),
    Requirement("A break hour runs from ${open_hour} to ${close_hour_less}; outside is 422.",
                probes=("break_hour_range",), traps=_BREAK_RANGE_TRAPS),
    Requirement("Setting a break: unknown vet 404, then the body's 422, then 403 for anyone but "
                "that vet.", probes=("break_route_order",), traps=_BREAK_ORDER_TRAPS),
    Requirement("Cancelling: unknown id 404, then 403 for another vet (even once cancelled), "
                "then 409.", probes=("cancel_order",), traps=_CANCEL_ORDER_TRAPS),
    Requirement("`GET /owners` pages with limit 1 to ${page_max} (default ${page_default}) and "
                "offset 0 or more; outside is 422.", probes=("owner_paging_bounds",),
                traps=_OWNER_PAGING_TRAPS),
    Requirement("An owner's phone is a text or null, null by default and always shown.",
                probes=("owner_phone",), traps=_PHONE_TRAPS),
    Requirement("FastAPI's documentation routes (`/openapi.json`, `/docs`, `/redoc`) answer 200 "
                "without checking a token.", probes=("docs_need_no_token",), traps=_DOCS_TRAPS),
    Requirement("A body that is not JSON is a 422 only after the token and the role are "
                "checked.", probes=("credentials_before_json",), traps=(
                    _in("routers/owners", "owner bodies decoded before the token",
                        ', tags=["owners"], route_class=CallerFirstRoute)', ', tags=["owners"])'),
                    _in("routers/invoices", "invoice bodies decoded before the token",
                        ', tags=["invoices"], route_class=CallerFirstRoute)',
                        ', tags=["invoices"])'))),
)


def _derive(p: dict) -> dict:
    import datetime

    monday = datetime.date.fromisoformat(p["monday"])
    opening = datetime.datetime(monday.year, monday.month, monday.day, p["open_hour"],
                                tzinfo=datetime.UTC)
    return {"tuesday": str(monday + datetime.timedelta(days=1)),
            "wednesday": str(monday + datetime.timedelta(days=2)),
            "friday": str(monday + datetime.timedelta(days=4)),
            "saturday": str(monday + datetime.timedelta(days=5)),
            "monday_epoch_open": int(opening.timestamp()),
            "open_pad": f"{p['open_hour']:02d}", "close_pad": f"{p['close_hour']:02d}",
            "close_hour_less": p["close_hour"] - 1, "break_hour": p["open_hour"] + 6}


_SPACE = {
    "staff": [
        {"tok_desk": "desk-4411", "desk": "Rita", "tok_vet1": "vet-ada-72", "vet1": "Ada",
         "tok_vet2": "vet-ben-19", "vet2": "Ben", "payment_key": "till-8841",
         "api_version": "2026-03"},
        {"tok_desk": "rcp-0932", "desk": "Omar", "tok_vet1": "dr-lee-55", "vet1": "Lee",
         "tok_vet2": "dr-kim-08", "vet2": "Kim", "payment_key": "pos-2207",
         "api_version": "3.1"},
    ],
    "hours": [
        {"open_hour": 8, "close_hour": 18, "min_minutes": 15, "max_minutes": 90,
         "monday": "2026-03-02"},
        {"open_hour": 9, "close_hour": 17, "min_minutes": 10, "max_minutes": 120,
         "monday": "2026-06-15"},
    ],
    "paging": [{"page_default": 3, "page_max": 5}, {"page_default": 2, "page_max": 4}],
    "data": [
        {"owner_name": "Mara Quinn", "owner_email": "Mara.Quinn@Example.org",
         "pet_name": "Pixel", "pet_species": "cat", "pet_weight": 4200, "max_weight": 90000,
         "mail_domain": "pets.test", "sort_a": "abbott", "sort_b": "Baker", "sort_c": "cole",
         "case_email": "Vera.Lind@Farm.Test", "chip": "985-112"},
        {"owner_name": "Jon Park", "owner_email": "JON@park.example", "pet_name": "Bolt",
         "pet_species": "dog", "pet_weight": 23000, "max_weight": 120000,
         "mail_domain": "clinic.test", "sort_a": "alvarez", "sort_b": "Brandt",
         "sort_c": "costa", "case_email": "Ida.Holm@Stall.Test", "chip": "276-09"},
    ],
}

FAMILY = _plumbing.repair_family(
    id="repair/vet_clinic",
    title="Repair a large veterinary clinic service that misbehaves",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_SPACE["staff"][0], **_SPACE["hours"][0], **_SPACE["paging"][0],
              **_SPACE["data"][0]},
    space=_SPACE,
    derive=_derive,
    instances=8,
    requirements=tuple(Requirement(text, probes=(probe,),
                                   traps=trap if isinstance(trap, tuple) else (trap,))
                       for text, probe, trap in _REQS) + _EXTRA + _GAPS,
)
