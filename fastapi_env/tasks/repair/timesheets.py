"""Repair tier: timesheets where employees log hours per week number and managers approve, a
package of six modules in /workspace with nine planted bugs (a summary route without its
return type so Decimal hours become floats, a PATCH dumped without exclude_unset so unsent
fields fall back to their defaults, a yield dependency whose commit is referenced but never
called, an error handler whose response has no JSON media type, a week bound off by one,
zero hours accepted, a create route left at 200, a weekly cap reached one step early, PATCH
allowed on submitted entries). Each bug is one requirement's trap; the setup is the reference
with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROWS_422_LOC
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor

INIT = '''\
"""Timesheets: hours per ISO week number, submitted by employees, reviewed by managers."""
'''

MODELS = '''\
from decimal import Decimal
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, BaseModel, Field

MAX_WEEK = ${max_week}
CENT = Decimal("0.01")


def two_places(hours: Decimal) -> Decimal:
    return hours.quantize(CENT)  # "7.5" is shown as "7.50"


Hours = Annotated[Decimal, Field(gt=0, le=Decimal("${entry_max}"), decimal_places=2),
                  AfterValidator(two_places)]
Week = Annotated[int, Path(ge=1, le=MAX_WEEK)]


class EntryIn(BaseModel):
    week: int = Field(ge=1, le=MAX_WEEK)
    project: str = Field(min_length=1, max_length=30)
    hours: Hours
    note: str | None = None


class EntryPatch(BaseModel):
    # None defaults are not validated, so a key sent as null is still refused
    project: str = Field(None, min_length=1, max_length=30)
    hours: Hours = None
    note: str | None = None


class Entry(BaseModel):
    id: int
    employee: str
    week: int
    project: str
    hours: Decimal
    note: str | None
    status: str


class Submitted(BaseModel):
    week: int
    submitted: int
    total: Decimal


class WeekSummary(BaseModel):
    week: int
    total: Decimal
    by_project: dict[str, Decimal]
'''

STORE = '''\
import itertools
from decimal import Decimal

USERS = {  # token -> user; a manager reviews the entries of their team
    "${tok_e1}": {"name": "${e1}", "team": []},
    "${tok_e2}": {"name": "${e2}", "team": []},
    "${tok_m1}": {"name": "${m1}", "team": ["${e1}", "${e2}"]},
    "${tok_m2}": {"name": "${m2}", "team": ["${m1}"]},
}
WEEKLY_CAP = Decimal("${weekly_cap}")
ENTRIES: dict[int, dict] = {}
_ids = itertools.count(1)


def add(entry: dict) -> dict:
    entry_id = next(_ids)
    ENTRIES[entry_id] = {"id": entry_id, **entry}
    return ENTRIES[entry_id]


def week_hours(employee: str, week: int, leaving_out: int | None = None) -> Decimal:
    return sum((e["hours"] for e in ENTRIES.values()
                if e["employee"] == employee and e["week"] == week and e["id"] != leaving_out),
               Decimal("0.00"))


class Transaction:
    """Changes are made on copies; only commit() writes them to ENTRIES."""

    def __init__(self):
        self.staged: dict[int, dict] = {}

    def entry(self, entry_id: int) -> dict | None:
        if entry_id not in ENTRIES:
            return None
        return self.staged.setdefault(entry_id, dict(ENTRIES[entry_id]))

    def commit(self) -> None:
        ENTRIES.update(self.staged)
'''

ERRORS = '''\
import json

from fastapi import FastAPI, Request, Response


class SheetError(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


def sheet_error(request: Request, exc: SheetError) -> Response:
    return Response(json.dumps({"detail": exc.message}), status_code=exc.status,
                    media_type="application/json")


def install(app: FastAPI) -> None:
    app.add_exception_handler(SheetError, sheet_error)
'''

DEPS = '''\
from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from . import store

bearer = HTTPBearer()


def current_user(credentials: Annotated[HTTPAuthorizationCredentials, Depends(bearer)]) -> dict:
    user = store.USERS.get(credentials.credentials)
    if user is None:
        raise HTTPException(401, "invalid token", headers={"WWW-Authenticate": "Bearer"})
    return user


def unit_of_work():
    tx = store.Transaction()
    yield tx
    tx.commit()


Me = Annotated[dict, Depends(current_user)]
Tx = Annotated[store.Transaction, Depends(unit_of_work)]
'''

ROUTES = '''\
from typing import Literal

from fastapi import APIRouter

from . import store
from .deps import Me, Tx
from .errors import SheetError
from .models import Entry, EntryIn, EntryPatch, Submitted, Week, WeekSummary

router = APIRouter()


def check_cap(employee: str, week: int, hours, leaving_out: int | None = None) -> None:
    if store.week_hours(employee, week, leaving_out) + hours > store.WEEKLY_CAP:
        raise SheetError(409, "weekly limit exceeded")


def load(entry_id: int, me: dict) -> dict:
    entry = store.ENTRIES.get(entry_id)
    if entry is None:
        raise SheetError(404, "no such entry")
    if entry["employee"] != me["name"] and entry["employee"] not in me["team"]:
        raise SheetError(403, "forbidden")
    return entry


@router.post("/entries", status_code=201, response_model=Entry)
def log_hours(body: EntryIn, me: Me):
    check_cap(me["name"], body.week, body.hours)
    return store.add(body.model_dump() | {"employee": me["name"], "status": "draft"})


@router.get("/entries/{entry_id}", response_model=Entry)
def read_entry(entry_id: int, me: Me):
    return load(entry_id, me)


@router.patch("/entries/{entry_id}", response_model=Entry)
def change_entry(entry_id: int, patch: EntryPatch, me: Me):
    entry = load(entry_id, me)
    if entry["employee"] != me["name"]:
        raise SheetError(403, "forbidden")
    if entry["status"] != "draft":
        raise SheetError(409, "entry locked")
    changed = entry | patch.model_dump(exclude_unset=True)
    check_cap(me["name"], entry["week"], changed["hours"], leaving_out=entry_id)
    entry.update(changed)
    return entry


@router.post("/weeks/{week}/submit", response_model=Submitted)
def submit_week(week: Week, me: Me):
    drafts = [e for e in store.ENTRIES.values()
              if e["employee"] == me["name"] and e["week"] == week and e["status"] == "draft"]
    for entry in drafts:
        entry["status"] = "submitted"
    return {"week": week, "submitted": len(drafts), "total": store.week_hours(me["name"], week)}


@router.get("/weeks/{week}/summary")
def week_summary(week: Week, me: Me) -> WeekSummary:
    mine = [e for e in store.ENTRIES.values() if e["employee"] == me["name"] and e["week"] == week]
    projects = sorted({e["project"] for e in mine})
    return {"week": week, "total": store.week_hours(me["name"], week),
            "by_project": {p: sum(e["hours"] for e in mine if e["project"] == p)
                           for p in projects}}


@router.post("/entries/{entry_id}/{decision}", response_model=Entry)
def review(entry_id: int, decision: Literal["approve", "reject"], me: Me, tx: Tx):
    entry = tx.entry(entry_id)
    if entry is None:
        raise SheetError(404, "no such entry")
    if entry["employee"] not in me["team"]:
        raise SheetError(403, "forbidden")
    if entry["status"] != "submitted":
        raise SheetError(409, "not submitted")
    entry["status"] = "approved" if decision == "approve" else "rejected"
    return entry
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sheets.errors import install
from sheets.routes import router

app = FastAPI()
install(app)
app.include_router(router)''' + RESULT_CLIENT + '''\
me = {"Authorization": "Bearer ${tok_e1}"}
first = client.post("/entries", headers=me,
                    json={"week": ${week1}, "project": "${project1}", "hours": ${hours1__json}})
second = client.post("/entries", headers=me,
                     json={"week": ${week1}, "project": "${project2}", "hours": ${hours2__json},
                           "note": "${note2}"})
summary = client.get("/weeks/${week1}/summary", headers=me)
result = [
    [first.status_code, body(first)],
    [second.status_code, body(second)],
    [summary.status_code, body(summary)],
]
'''

_in = editor("sheets")

_SUMMARY_FLOATS = _in("routes", "summary without its return type",
                      "def week_summary(week: Week, me: Me) -> WeekSummary:",
                      "def week_summary(week: Week, me: Me):")
_PATCH_DEFAULTS = _in("routes", "patch dumped without exclude_unset",
                      "changed = entry | patch.model_dump(exclude_unset=True)",
                      "changed = entry | patch.model_dump()")
_NO_COMMIT = _in("deps", "commit referenced, never called", "    tx.commit()\n",
                 "    tx.commit\n")
_ERROR_MEDIA = _in("errors", "error response without a media type", '''\
    return Response(json.dumps({"detail": exc.message}), status_code=exc.status,
                    media_type="application/json")''', '''\
    return Response(json.dumps({"detail": exc.message}), status_code=exc.status)''')
_WEEK_BOUND = _in("models", "body week bound excludes the last week",
                  "week: int = Field(ge=1, le=MAX_WEEK)", "week: int = Field(ge=1, lt=MAX_WEEK)")
_ZERO_HOURS = _in("models", "zero hours accepted", "Field(gt=0, le=Decimal", "Field(ge=0, le=Decimal")
_CREATED_200 = _in("routes", "create route left at 200",
                   '@router.post("/entries", status_code=201, response_model=Entry)',
                   '@router.post("/entries", response_model=Entry)')
_CAP_EARLY = _in("routes", "weekly cap reached one step early",
                 "+ hours > store.WEEKLY_CAP:", "+ hours >= store.WEEKLY_CAP:")
_LOCK_MISSING = _in("routes", "submitted entries still editable", '''\
    if entry["status"] != "draft":
        raise SheetError(409, "entry locked")
''', "")

FILES = {"sheets/__init__.py": INIT, "sheets/models.py": MODELS, "sheets/store.py": STORE,
         "sheets/errors.py": ERRORS, "sheets/deps.py": DEPS, "sheets/routes.py": ROUTES}
PLANTED = (_SUMMARY_FLOATS, _PATCH_DEFAULTS, _NO_COMMIT, _ERROR_MEDIA, _WEEK_BOUND, _ZERO_HOURS,
           _CREATED_200, _CAP_EARLY, _LOCK_MISSING)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROWS_422_LOC + '''\
from decimal import Decimal


def _row(r):
    """Status and body, an entry's id left out: ids depend on what earlier probes created."""
    body = _body(r)
    if isinstance(body, dict):
        body = {key: value for key, value in body.items() if key != "id"}
    return [r.status_code, body]

E1 = {"Authorization": "Bearer ${tok_e1}"}
E2 = {"Authorization": "Bearer ${tok_e2}"}
M1 = {"Authorization": "Bearer ${tok_m1}"}
M2 = {"Authorization": "Bearer ${tok_m2}"}
MAX, CAP, LAST = Decimal("${entry_max}"), Decimal("${weekly_cap}"), ${max_week}


def _log(client, who, week, hours, project="probe", **extra):
    return client.post("/entries", headers=who,
                       json={"week": week, "project": project, "hours": hours, **extra})


def _typed(r):
    return [r.status_code, r.headers.get("content-type"), _body(r)]


def probe_hours_shown_as_strings(client):
    made = [_log(client, E2, 3, hours, project=project).json()
            for hours, project in [(7.5, "zeta"), ("0.25", "alpha"), (1, "zeta")]]
    rows = [[entry.get("hours") for entry in made]]
    rows.append(_row(client.get("/weeks/3/summary", headers=E2)))
    rows.append(_row(client.get("/weeks/4/summary", headers=E2)))
    rows.append(_row(client.get("/weeks/3/summary", headers=E1)))
    rows.append(_row(client.post("/weeks/3/submit", headers=E2)))
    return rows


def probe_patch_changes_only_sent_keys(client):
    entry_id = _log(client, E1, 5, 4, project="alpha", note="kick-off").json()["id"]
    rows = []
    for patch in [{"hours": "5"}, {"project": "beta", "hours": "6"}, {},
                  {"note": "review"}, {"project": "gamma"}, {"note": None},
                  {"project": None}, {"hours": None}, {"project": ""}]:
        r = client.patch(f"/entries/{entry_id}", headers=E1, json=patch)
        rows.append([patch, _brief(r)])
    rows.append(_row(client.get(f"/entries/{entry_id}", headers=E1)))
    return rows


def probe_reviews_are_saved(client):
    approve_id = _log(client, E1, 7, 2).json()["id"]
    reject_id = _log(client, E2, 7, 3).json()["id"]
    client.post("/weeks/7/submit", headers=E1)
    client.post("/weeks/7/submit", headers=E2)
    rows = [_row(client.post(f"/entries/{approve_id}/approve", headers=M1)),
            [client.get(f"/entries/{approve_id}", headers=E1).json()["status"]],
            _row(client.post(f"/entries/{approve_id}/approve", headers=M1)),
            _row(client.post(f"/entries/{approve_id}/reject", headers=M1)),
            _row(client.post(f"/entries/{reject_id}/reject", headers=M1)),
            [client.get(f"/entries/{reject_id}", headers=M1).json()["status"]],
            _row(client.post(f"/entries/{reject_id}/approve", headers=M1))]
    return rows


def probe_errors_are_json(client):
    draft_id = _log(client, E1, 9, 1).json()["id"]
    locked_id = _log(client, E2, 9, 1).json()["id"]
    client.post("/weeks/9/submit", headers=E2)
    rows = [_typed(client.get("/entries/999", headers=E1)),
            _typed(client.get(f"/entries/{draft_id}", headers=E2)),
            _typed(client.patch(f"/entries/{locked_id}", headers=E2, json={"note": "x"})),
            _typed(client.post(f"/entries/{draft_id}/approve", headers=M1)),
            _typed(client.post("/entries/999/approve", headers=M1)),
            _typed(client.post(f"/entries/{locked_id}/approve", headers=E1)),
            _typed([_log(client, E1, 10, str(MAX)) for _ in range(int(CAP // MAX) + 1)][-1]),
            _typed(client.get("/entries/1", headers={"Authorization": "Bearer nope"}))]
    return rows


def probe_week_bounds(client):
    rows = []
    for week in [0, 1, LAST, LAST + 1, -1]:
        r = _log(client, E2, week, "0.50")
        rows.append([week, _brief(r) if r.status_code not in (200, 201) else r.json()["week"]])
    for week in [0, 1, LAST, LAST + 1]:
        r = client.get(f"/weeks/{week}/summary", headers=E2)
        rows.append([week, _brief(r) if r.status_code != 200 else [200, r.json()["week"]]])
    rows.append(_brief(client.post(f"/weeks/{LAST + 1}/submit", headers=E2)))
    return rows


def probe_hours_rules(client):
    rows = []
    for hours in [0, "0", "0.00", -1, "0.01", str(MAX), str(MAX + Decimal("0.01")), "1.505",
                  "abc", None, 2.25]:
        r = _log(client, E1, 11, hours)
        rows.append([hours, _brief(r) if r.status_code not in (200, 201) else r.json()["hours"]])
    return rows


def probe_create_is_201(client):
    r = _log(client, E2, 12, "2", project="ops", note="")
    entry_id = r.json()["id"]
    return [[r.status_code, sorted(r.json())],
            [client.get(f"/entries/{entry_id}", headers=E2).json()["status"]],
            [_log(client, E2, 12, "1").json()["id"] - entry_id]]


def probe_weekly_cap_inclusive(client):
    full, rest = int(CAP // MAX), CAP % MAX
    made = [_log(client, E1, 13, str(MAX)) for _ in range(full)]
    if rest:
        made.append(_log(client, E1, 13, str(rest)))
    rows = [[r.json().get("hours") for r in made]]
    rows.append(_row(_log(client, E1, 13, "0.01")))
    last = made[-1].json()["id"]
    rows.append(_row(client.patch(f"/entries/{last}", headers=E1,
                                  json={"hours": made[-1].json()["hours"]})))
    rows.append(_row(client.patch(f"/entries/{last}", headers=E1, json={"hours": "0.50"})))
    rows.append([_log(client, E2, 13, str(MAX)).json().get("hours")])
    rows.append(_row(client.post("/weeks/13/submit", headers=E1)))
    return rows


def probe_submitted_entries_locked(client):
    locked = _log(client, E1, 17, 3, project="old").json()["id"]
    rows = [_row(client.post("/weeks/17/submit", headers=E1))]
    draft = _log(client, E1, 17, 1).json()["id"]
    rows.append(_row(client.patch(f"/entries/{locked}", headers=E1, json={"project": "new"})))
    rows.append(_row(client.patch(f"/entries/{locked}", headers=E1, json={})))
    rows.append([client.patch(f"/entries/{draft}", headers=E1, json={"note": "ok"}).status_code])
    rows.append(_row(client.get(f"/entries/{locked}", headers=E1)))
    rows.append(_row(client.post("/weeks/17/submit", headers=E1)))
    rows.append(_row(client.post("/weeks/17/submit", headers=E1)))
    return rows


def probe_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer nope"},
                    {"Authorization": "${tok_e1}"}, {"Authorization": "Basic ${tok_e1}"},
                    {"Authorization": "bearer ${tok_e1}"}]:
        r = client.get("/entries/999", headers=headers)
        rows.append([r.status_code, _body(r), r.headers.get("www-authenticate")])
    return rows


def probe_who_reads_and_reviews(client):
    mine = _log(client, E1, 19, 1).json()["id"]
    client.post("/weeks/19/submit", headers=E1)
    rows = [[client.get(f"/entries/{mine}", headers=who).status_code
             for who in [E1, E2, M1, M2]]]
    rows.append(_row(client.patch(f"/entries/{mine}", headers=M1, json={})))
    rows.append(_row(client.post(f"/entries/{mine}/approve", headers=E1)))
    rows.append(_row(client.post(f"/entries/{mine}/approve", headers=M2)))
    rows.append(_row(client.get("/entries/999", headers=M2)))
    own = _log(client, M1, 19, 1).json()["id"]
    client.post("/weeks/19/submit", headers=M1)
    rows.append([client.get(f"/entries/{own}", headers=who).status_code for who in [E1, M2]])
    rows.append(_row(client.post(f"/entries/{own}/approve", headers=M1)))
    rows.append(_row(client.post(f"/entries/{own}/approve", headers=M2)))
    return rows
'''

_SETS = {
    "people": [
        {"e1": "ines", "e2": "karl", "m1": "mona", "m2": "otto", "tok_e1": "tk-ines",
         "tok_e2": "tk-karl", "tok_m1": "tk-mona", "tok_m2": "tk-otto"},
        {"e1": "raj", "e2": "sofia", "m1": "tess", "m2": "umar", "tok_e1": "r4j-1",
         "tok_e2": "s0f-2", "tok_m1": "t3s-3", "tok_m2": "um4-4"},
    ],
    "limits": [{"max_week": 52, "entry_max": "10.00", "weekly_cap": "40.00"},
               {"max_week": 53, "entry_max": "12.00", "weekly_cap": "37.50"},
               {"max_week": 53, "entry_max": "8.00", "weekly_cap": "20.00"}],
    "first": [{"week1": 14, "project1": "apollo", "hours1": 7.5, "project2": "zeus",
               "hours2": "2.25", "note2": "standup"},
              {"week1": 27, "project1": "harbor", "hours1": "6", "project2": "atlas",
               "hours2": 0.5, "note2": "on call"}],
}

FAMILY = Family(
    id="repair/timesheets",
    title="Repair a timesheet service with manager approval that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a timesheet service: `solution.py` and the package `sheets/` it imports
(`models.py`, `store.py`, `errors.py`, `deps.py`, `routes.py`). It should behave as described
below but does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next; there are no entries at start.

**Users** send `Authorization: Bearer <token>`: `${tok_e1}` is `${e1}`, `${tok_e2}` is
`${e2}`, `${tok_m1}` is `${m1}` (manager of `${e1}` and `${e2}`), `${tok_m2}` is `${m2}`
(manager of `${m1}`). Everyone logs their own hours. A missing header or another scheme (the scheme name is
case-insensitive) is FastAPI's standard 401 `{"detail": "Not authenticated"}`; an unknown token 401 `{"detail": "invalid token"}`;
both with `WWW-Authenticate: Bearer`. Every other error is `{"detail": <message>}` sent as
`Content-Type: application/json`: 403 `forbidden`, 404 `no such entry`, 409 `entry locked`,
`not submitted` or `weekly limit exceeded`; request validation errors are FastAPI's standard
422. When several things are wrong, the first of this order wins: 401, 422, 404, 403, 409.

**Entries** are shown as `{"id", "employee", "week", "project", "hours", "note", "status"}`.
Ids are 1, 2, 3, ... in order of creation. `hours` is always shown as a JSON string with
exactly two decimals (`"7.50"`), in every response that shows hours. Status goes `draft` ->
`submitted` -> `approved` or `rejected`. An employee's hours in one week, all their entries
of that week whatever the status, may total at most ${weekly_cap}: a create or change that
would go over it is 409 `weekly limit exceeded` (reaching it exactly is fine).
- `POST /entries` with `{"week": 1 to ${max_week}, "project": 1 to 30 characters, "hours":
  a number or numeric string above 0, at most ${entry_max}, with at most two decimals,
  "note"?: string or null (default null)}`: 201 with the entry, the caller's, `draft`.
- `GET /entries/{id}`: 200; only the entry's employee and that employee's manager may read it
  (403 otherwise).
- `PATCH /entries/{id}`, only by the entry's employee (403 otherwise): the body may hold
  `project`, `hours` (same rules as above, null refused) and `note` (null clears it); only the
  keys sent change. 409 `entry locked` unless the entry is a `draft`. 200 with the entry.
- `POST /weeks/{week}/submit` (week 1 to ${max_week}): the caller's draft entries of that week
  become `submitted`; 200 `{"week", "submitted": <how many changed>, "total": <the caller's
  hours that week>}`.
- `GET /weeks/{week}/summary` (week 1 to ${max_week}): 200 `{"week", "total", "by_project":
  {<project>: <hours>, ...}}` over the caller's entries of that week, projects in alphabetical
  order (total `"0.00"` and `{}` for an empty week).
- `POST /entries/{id}/approve` and `POST /entries/{id}/reject`: only the employee's manager
  (403 otherwise); 409 `not submitted` unless the entry is `submitted`; 200 with the entry,
  now `approved` or `rejected`, and it stays so.

`result` has three rows, each `[status, body]`, all as `${e1}`:
1. `POST /entries` with `{"week": ${week1}, "project": "${project1}", "hours": ${hours1__json}}`
2. `POST /entries` with `{"week": ${week1}, "project": "${project2}", "hours": ${hours2__json},
   "note": "${note2}"}`
3. `GET /weeks/${week1}/summary`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["people"][0], **_SETS["limits"][0], **_SETS["first"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("Hours are JSON strings with two decimals everywhere, the week summary "
                    "included.",
                    probes=("hours_shown_as_strings",), traps=(_SUMMARY_FLOATS,)),
        Requirement("A PATCH changes only the keys it sends; null is refused for `project` and "
                    "`hours`.",
                    probes=("patch_changes_only_sent_keys",),
                    traps=(_PATCH_DEFAULTS,
                           _in("models", "patch project accepts null",
                               "    project: str = Field(None, min_length=1, max_length=30)",
                               "    project: str | None = Field(None, min_length=1, "
                               "max_length=30)"))),
        Requirement("An approval or rejection is saved and stays.",
                    probes=("reviews_are_saved",), traps=(_NO_COMMIT,)),
        Requirement('Errors other than 401 and 422 are `{"detail"}` with `Content-Type: '
                    "application/json`.",
                    probes=("errors_are_json",), traps=(_ERROR_MEDIA,)),
        Requirement("Weeks are 1 to ${max_week}, in the body and in the path.",
                    probes=("week_bounds",),
                    traps=(_WEEK_BOUND,
                           _in("models", "path week bound excludes the last week",
                               "Week = Annotated[int, Path(ge=1, le=MAX_WEEK)]",
                               "Week = Annotated[int, Path(ge=1, lt=MAX_WEEK)]"))),
        Requirement("Hours are above 0, at most ${entry_max}, with at most two decimals.",
                    probes=("hours_rules",),
                    traps=(_ZERO_HOURS,
                           _in("models", "any number of decimals",
                               ", decimal_places=2)", ")"))),
        Requirement("Creating an entry is 201.", probes=("create_is_201",),
                    traps=(_CREATED_200,)),
        Requirement("A week's hours may reach ${weekly_cap} exactly; a change is weighed "
                    "without the entry's old hours.",
                    probes=("weekly_cap_inclusive",),
                    traps=(_CAP_EARLY,
                           _in("routes", "a change counts the entry's old hours too",
                               'changed["hours"], leaving_out=entry_id)',
                               'changed["hours"])'))),
        Requirement("Only drafts can be changed (409 `entry locked`).",
                    probes=("submitted_entries_locked",), traps=(_LOCK_MISSING,)),
        Requirement("A missing or non-Bearer header is 401 `Not authenticated`, an unknown "
                    "token 401 `invalid token`, both with `WWW-Authenticate: Bearer`.",
                    probes=("tokens",),
                    traps=(_in("deps", "unknown token without challenge",
                               'raise HTTPException(401, "invalid token", headers='
                               '{"WWW-Authenticate": "Bearer"})',
                               'raise HTTPException(401, "invalid token")'),)),
        Requirement("Only the employee and their manager read an entry; only the employee "
                    "changes it; only the manager reviews it; 404 before 403 before 409.",
                    probes=("who_reads_and_reviews",),
                    traps=(_in("routes", "any manager reviews", '''\
    if entry["employee"] not in me["team"]:
        raise SheetError(403, "forbidden")
    if entry["status"] != "submitted":''', '''\
    if not me["team"]:
        raise SheetError(403, "forbidden")
    if entry["status"] != "submitted":'''),)),
    ),
)
