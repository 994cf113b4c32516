"""Service tier: a hiring team's job applications specified like a product document (9 routes,
bearer tokens with candidate, recruiter and manager roles, seeded jobs, applications with handles
lower-cased before they are checked, strict integer years and `YYYY-MM-DD`-only dates in the
body, a stage pipeline where only the manager makes offers, a repeated stage filter and offset
pagination with a total header, partial edits where null clears, soft withdrawal, rejection
with a reason, a pipeline report, and one `{"error": ...}` format).

Most rules are ones the obvious FastAPI app gets silently wrong on the pinned packages (see
`_core_body_after_auth`): auth before a malformed body, bodies without a JSON Content-Type, exact paths,
HEAD, a complete `Allow`, a pattern checked after lower-casing, JSON-only integers, dates that
Pydantic's `date` would also take as numbers or midnight date-times, a repeated query parameter
and `true`-only booleans. The parameters change the people, the jobs' experience bounds, the
page sizes, the validation status, the note bound and which of two refusals wins."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.service._core_body_after_auth import (
    ACCESS_AND_ERRORS,
    CORE,
    ROW_HELPERS,
    listed_ids_helper,
    paging_requirement,
    plumbing_probes,
    plumbing_requirements,
    plumbing_traps,
    token_table,
)
from fastapi_env.tasks.traps import (
    empty_edits_accepted,
    lax_integers,
    null_fields_ignored,
    pattern_checked_before_case,
    repeated_filter_traps,
)

REFERENCE = CORE + '''\
from datetime import date

TOKENS = {"${t_c1}": "${c1}", "${t_c2}": "${c2}", "${t_r}": "${r}", "${t_m}": "${m}"}
ROLES = {"${c1}": "candidate", "${c2}": "candidate", "${r}": "recruiter", "${m}": "manager"}
JOBS = {code: {"code": code, "title": title, "open": is_open, "min_years": years}
        for code, title, is_open, years in ${jobs__repr}}
JobCode = Literal[${job_literal}]
APPLICATIONS: dict[int, dict] = {}
NEXT_ID = {"application": 1}
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
PIPELINE = ("applied", "screening", "interview", "offer")
STAGES = PIPELINE + ("rejected", "withdrawn")
ACTIVE = ("applied", "screening", "interview")  # these may still move on or be withdrawn
Stage = Literal["applied", "screening", "interview", "offer", "rejected", "withdrawn"]
HANDLE = re.compile(r"[a-z0-9-]{3,20}")

Candidate = role("candidate")
Staff = role("recruiter", "manager")
Manager = role("manager")


def new_id() -> int:
    NEXT_ID["application"] += 1
    return NEXT_ID["application"] - 1


def trim(value):
    return value.strip() if isinstance(value, str) else value


def day_text(value):
    """`YYYY-MM-DD` text only: Pydantic's own date also takes numbers and midnight date-times."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a date is written YYYY-MM-DD")
    return date.fromisoformat(value).isoformat()


class Fields(BaseModel):
    @field_validator("handle", check_fields=False)
    @classmethod
    def handle_text(cls, value):
        # Trimmed and lower-cased before it is checked: ` Ada-L ` is `ada-l`.
        handle = value.strip().lower()
        if not HANDLE.fullmatch(handle):
            raise ValueError("a handle is 3-20 of a-z, 0-9 and -")
        return handle

    @field_validator("available_from", mode="before", check_fields=False)
    @classmethod
    def available_text(cls, value):
        return day_text(value)

    @field_validator("note", mode="before", check_fields=False)
    @classmethod
    def trimmed(cls, value):
        return trim(value)


class ApplicationIn(Fields):
    model_config = ConfigDict(extra="forbid")
    job: str
    handle: str
    years_experience: StrictInt = Field(ge=0, le=50)
    available_from: str
    note: str | None = Field(default=None, min_length=1, max_length=${note_max})


class ApplicationPatch(Fields):
    model_config = ConfigDict(extra="forbid")
    # An absent field is unchanged; a null note clears it, a null date is invalid.
    available_from: str = None
    note: str | None = Field(default=None, min_length=1, max_length=${note_max})

    @model_validator(mode="after")
    def changes_something(self):
        if not self.model_fields_set:
            raise ValueError("an edit changes at least one field")
        return self


class RejectionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=1, max_length=200)

    @field_validator("reason", mode="before")
    @classmethod
    def trimmed(cls, value):
        return trim(value)


ApplicationBody = json_body(ApplicationIn)
PatchBody = json_body(ApplicationPatch)
RejectionBody = json_body(RejectionIn)


def ensure_open(job: dict, application: ApplicationIn) -> None:
    if not job["open"]:
        raise Failure(409, "job_closed")


def ensure_qualified(job: dict, application: ApplicationIn) -> None:
    if application.years_experience < job["min_years"]:
        raise Failure(409, "under_qualified")


def ensure_new(job: dict, application: ApplicationIn) -> None:
    if any(a["job"] == job["code"] and a["handle"] == application.handle
           and a["stage"] in ACTIVE + ("offer",) for a in APPLICATIONS.values()):
        raise Failure(409, "already_applied")


def visible(application_id: int, name: str) -> dict:
    found = APPLICATIONS.get(application_id)
    if found is None or (ROLES[name] == "candidate" and found["candidate"] != name):
        raise Failure(404, "unknown_application")
    return found


@app.api_route("/jobs", methods=["GET", "HEAD"])
def list_jobs(name: Caller, open: Literal["true", "false"] | None = None):
    wanted = None if open is None else open == "true"
    return [j for code, j in sorted(JOBS.items()) if wanted is None or j["open"] == wanted]


@app.post("/applications", status_code=201)
def apply(name: Candidate, application: ApplicationBody, response: Response):
    job = JOBS.get(application.job.strip().upper())
    if job is None:
        raise Failure(404, "unknown_job")
    for check in (${apply_checks}):
        check(job, application)
    ensure_new(job, application)
    record = {"id": new_id(), "job": job["code"], "candidate": name,
              "handle": application.handle, "years_experience": application.years_experience,
              "available_from": application.available_from, "note": application.note,
              "stage": "applied", "reason": None}
    APPLICATIONS[record["id"]] = record
    response.headers["Location"] = f"/applications/{record['id']}"
    return record


@app.api_route("/applications", methods=["GET", "HEAD"])
def list_applications(name: Caller, response: Response,
                      stage: Annotated[list[Stage] | None, Query()] = None,
                      job: JobCode | None = None,
                      limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
                      offset: Annotated[int, Query(ge=0)] = 0):
    shown = [a for a in sorted(APPLICATIONS.values(), key=lambda a: a["id"])
             if (ROLES[name] != "candidate" or a["candidate"] == name)
             and (not stage or a["stage"] in stage)
             and (job is None or a["job"] == job)]
    response.headers["X-Total-Count"] = str(len(shown))
    return shown[offset:offset + limit]


@app.api_route("/applications/{application_id}", methods=["GET", "HEAD"])
def read_application(application_id: int, name: Caller):
    return visible(application_id, name)


@app.patch("/applications/{application_id}")
def edit_application(application_id: int, name: Candidate, change: PatchBody):
    application = visible(application_id, name)
    if application["stage"] != "applied":
        raise Failure(409, "not_editable")
    application.update(change.model_dump(include=change.model_fields_set))
    return application


@app.delete("/applications/{application_id}", status_code=204)
def withdraw(application_id: int, name: Candidate):
    application = visible(application_id, name)
    if application["stage"] not in ACTIVE:
        raise Failure(409, "not_active")
    application["stage"] = "withdrawn"


@app.post("/applications/{application_id}/advance")
def advance(application_id: int, name: Staff):
    application = visible(application_id, name)
    if application["stage"] not in ACTIVE:
        raise Failure(409, "not_active")
    following = PIPELINE[PIPELINE.index(application["stage"]) + 1]
    if following == "offer" and ROLES[name] != "manager":
        raise Failure(403, "manager_only")
    application["stage"] = following
    return application


@app.post("/applications/{application_id}/reject")
def reject(application_id: int, name: Staff, rejection: RejectionBody):
    application = visible(application_id, name)
    if application["stage"] not in ACTIVE:
        raise Failure(409, "not_active")
    application.update(stage="rejected", reason=rejection.reason)
    return application


@app.api_route("/reports/pipeline", methods=["GET", "HEAD"])
def pipeline(name: Manager, job: JobCode):
    of_job = [a for a in APPLICATIONS.values() if a["job"] == job]
    return {"job": job, "total": len(of_job),
            "by_stage": {s: sum(a["stage"] == s for a in of_job) for s in STAGES}}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
c1 = {"Authorization": "Bearer ${t_c1}"}
result = [
    row(client.post("/applications", json={"job": "${shown_job}", "handle": ${shown_handle__json},
                                           "years_experience": ${shown_years},
                                           "available_from": "2026-09-01"}, headers=c1)),
    row(client.get("/applications/1", headers=c1)),
    row(client.get("/jobs", headers=c1)),
]
'''

PROBES = '''\
import json

''' + ROW_HELPERS + '''
C1, C2 = _bearer("${t_c1}"), _bearer("${t_c2}")
R, M = _bearer("${t_r}"), _bearer("${t_m}")
HOLDER, STAFF = C1, M
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
SENIOR, SENIOR_YEARS = "J-101", ${senior_years}
CREATE_PATH = "/applications"
HANDLES = iter(range(1, 100000))


def _handle():
    return f"probe-{next(HANDLES)}"


def _create_body():
    return {"job": "J-102", "handle": _handle(), "years_experience": 1,
            "available_from": "2026-10-01"}


def _apply(client, who=C1, **changes):
    return client.post("/applications", json=_create_body() | changes, headers=who)


def _some_id(client):
    return _apply(client).json()["id"]


def _advance(client, application_id, who=R):
    return client.post(f"/applications/{application_id}/advance", headers=who)


def _shown(application):
    return {k: v for k, v in application.items() if k not in ("id", "handle")}
''' + listed_ids_helper("/applications") + plumbing_probes(
    exact=[("GET", "/applications/"), ("POST", "/applications/"), ("GET", "/jobs/"),
           ("POST", "/applications/1/advance/")],
    methods=[("PUT", "/applications"), ("DELETE", "/applications"), ("PUT", "/applications/1"),
             ("POST", "/applications/1"), ("GET", "/applications/1/reject"), ("POST", "/jobs"),
             ("DELETE", "/reports/pipeline")],
    heads=["/jobs", "/applications", "/applications/{id}", "/reports/pipeline?job=J-102"],
    bodies=[("POST", "/applications"), ("PATCH", "/applications/{id}"),
            ("POST", "/applications/{id}/reject")]) + '''

def probe_pipeline_report(client):
    # First of the family's probes: before them no application has left `applied`.
    before = client.get("/reports/pipeline", params={"job": "J-104"}, headers=M).json()
    made = [_apply(client, C2, job="J-104", years_experience=10).json()["id"] for _ in range(4)]
    _advance(client, made[0])
    client.post(f"/applications/{made[1]}/reject", json={"reason": "no"}, headers=R)
    client.delete(f"/applications/{made[2]}", headers=C2)
    after = client.get("/reports/pipeline", params={"job": "J-104"}, headers=M).json()
    rows = [[sorted(before), sorted(before["by_stage"]), before["total"]],
            [after["job"], after["total"], after["by_stage"]]]
    for params in [{}, {"job": "j-104"}, {"job": "J-999"}]:
        rows.append([params, _code(client.get("/reports/pipeline", params=params, headers=M))])
    return rows


def probe_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer"},
                    {"Authorization": "Bearer nope"}, _bearer("${c1}"),
                    _bearer("${t_c1}".upper()), {"Authorization": "bearer ${t_c1}"},
                    {"Authorization": "BEARER ${t_c1}"}, {"Authorization": "Basic ${t_c1}"},
                    {"Authorization": " ${t_c1}"}]:
        r = client.get("/jobs", headers=headers)
        rows.append([headers.get("Authorization"), r.status_code, r.headers.get("www-authenticate"),
                     r.json() if r.status_code != 200 else len(r.json())])
    for method, path in [("POST", "/applications"), ("GET", "/applications"),
                         ("GET", "/applications/abc"), ("PATCH", "/applications/1"),
                         ("DELETE", "/applications/1"), ("POST", "/applications/1/advance"),
                         ("POST", "/applications/1/reject"), ("GET", "/reports/pipeline")]:
        r = client.request(method, path, json={}, headers={"Authorization": "Bearer ${c1}"})
        rows.append([method, path, _code(r), r.headers.get("www-authenticate")])
    return rows


def probe_roles(client):
    rows = []
    for who in (C1, R, M):
        rows += [_code(client.post("/applications", json={}, headers=who)),
                 _code(client.patch("/applications/99999", json={}, headers=who)),
                 _code(client.delete("/applications/99999", headers=who)),
                 _code(client.post("/applications/99999/advance", headers=who)),
                 _code(client.post("/applications/99999/reject", json={}, headers=who)),
                 _code(client.get("/reports/pipeline", params={"job": "x"}, headers=who))]
    return rows


def probe_error_format(client):
    return [_row(client.get("/nowhere", headers=C1)),
            _row(client.get("/applications/abc", headers=C1)),
            _row(client.post("/applications", json={"years_experience": -1, "colour": 1,
                                                    "handle": "x"}, headers=C1)),
            _row(client.post("/applications", json=[1], headers=C1)),
            _row(client.post("/applications", headers=C1)),
            _row(client.get("/applications", params={"limit": "ten", "job": "J-9"}, headers=M))]


def probe_application_create(client):
    r = _apply(client, C1, job=" j-101 ", years_experience=SENIOR_YEARS, note="  remote ok ")
    rows = [[r.status_code, r.headers.get("location") == f"/applications/{r.json()['id']}",
             _shown(r.json())]]
    r = _apply(client, C2, note=None)
    rows.append([r.status_code, _shown(r.json())])
    rows += [_code(_apply(client, C1, job="J-999")), _code(_apply(client, C1, job=""))]
    for note in ["n" * ${note_max}, "n" * (${note_max} + 1), "   "]:
        r = _apply(client, C1, note=note)
        rows.append([r.status_code, len(r.json().get("note") or "") if r.status_code == 201
                     else r.json()["fields"]])
    return rows


def probe_handle(client):
    rows = []
    for handle in ["  Ada-Lovelace ", "bo-2", "CY-3", "ab", "a" * 20, "A" * 21, "ada_l",
                   "ada l", "", 42]:
        r = _apply(client, C1, handle=handle)
        rows.append([handle, [201, r.json()["handle"]] if r.status_code == 201 else _code(r)])
    return rows


def probe_years_integers(client):
    rows = []
    for years in [0, 50, 51, -1, True, "3", 3.0, 3.5, None]:
        r = _apply(client, C1, years_experience=years)
        rows.append([years, [201, r.json()["years_experience"],
                             type(r.json()["years_experience"]).__name__]
                     if r.status_code == 201 else _code(r)])
    return rows


def probe_available_from(client):
    rows = []
    for value in ["2026-10-01", "2026-10-01T00:00:00", "2026-10-01T00:00:00Z", 0, 1790812800,
                  "1790812800", "20261001", "2026-02-30", "2026-1-5", None]:
        r = _apply(client, C1, available_from=value)
        rows.append([value, [201, r.json()["available_from"]] if r.status_code == 201
                     else _code(r)])
    return rows


def probe_apply_checks(client):
    junior = SENIOR_YEARS - 1
    return [
        ["closed and junior", _code(_apply(client, C1, job="J-103", years_experience=0))],
        ["closed", _code(_apply(client, C1, job="J-103", years_experience=40))],
        ["junior", _code(_apply(client, C1, job=SENIOR, years_experience=junior))],
        ["just enough", _apply(client, C1, job=SENIOR, years_experience=SENIOR_YEARS).status_code],
        ["unknown and junior", _code(_apply(client, C1, job="J-777", years_experience=0))],
    ]


def probe_duplicates(client):
    handle = _handle()
    first = _apply(client, C1, handle=handle).json()["id"]
    rows = [_code(_apply(client, C2, handle=handle.upper())),
            [_apply(client, C1, handle=handle, job="J-104", years_experience=20).status_code]]
    client.delete(f"/applications/{first}", headers=C1)
    again = _apply(client, C1, handle=handle)
    rows.append([again.status_code])
    client.post(f"/applications/{again.json()['id']}/reject", json={"reason": "x"}, headers=R)
    rows.append([_apply(client, C2, handle=handle).status_code])
    return rows


def probe_visibility(client):
    mine, theirs = _apply(client, C1).json()["id"], _apply(client, C2).json()["id"]
    rows = []
    for label, who in [("c1", C1), ("c2", C2), ("r", R), ("m", M)]:
        ids = _ids(client, who)
        rows.append([label, mine in ids, theirs in ids,
                     client.get(f"/applications/{mine}", headers=who).status_code,
                     _code(client.get(f"/applications/{theirs}", headers=who))])
    rows.append(_code(client.get("/applications/99999", headers=M)))
    return rows


def probe_stage_filter(client):
    made = [_apply(client, C2, job="J-104", years_experience=20).json()["id"] for _ in range(4)]
    _advance(client, made[1])
    _advance(client, made[2])
    _advance(client, made[2])
    client.delete(f"/applications/{made[3]}", headers=C2)
    rows = [[query, [made.index(i) for i in _ids(client, C2, params) if i in made]]
            for query, params in [
                ("none", {}), ("applied", {"stage": "applied"}),
                ("screening+interview", {"stage": ["screening", "interview"]}),
                ("withdrawn+applied", {"stage": ["withdrawn", "applied"], "job": "J-104"}),
                ("other job", {"stage": "applied", "job": "J-102"})]]
    rows.append(_code(client.get("/applications", params={"stage": ["applied", "hired"]},
                                 headers=C2)))
    return rows


def probe_pagination(client):
    for _ in range(LIMIT_DEFAULT + 2):
        _apply(client, C2)
    total = int(client.get("/applications", headers=C2).headers["x-total-count"])
    rows = []
    for params in [{}, {"limit": 1}, {"limit": LIMIT_MAX}, {"offset": total - 1},
                   {"offset": total}, {"offset": total + 5, "limit": 2}]:
        r = client.get("/applications", params=params, headers=C2)
        rows.append([params, r.status_code, len(r.json()),
                     r.headers.get("x-total-count") == str(total)])
    ids = [a["id"] for a in client.get("/applications", params={"offset": total - 3},
                                       headers=C2).json()]
    rows.append([ids == sorted(ids), len(ids)])
    for params in [{"limit": 0}, {"limit": LIMIT_MAX + 1}, {"offset": -1}]:
        rows.append([params, _code(client.get("/applications", params=params, headers=C2))])
    return rows


def probe_partial_edit(client):
    application = _apply(client, C1, note="hello").json()["id"]
    rows = []
    for change in [{"note": "  new note "}, {"available_from": "2027-01-15"}, {"note": None},
                   {"available_from": None}, {"available_from": "2027-01-15T00:00:00"}, {},
                   {"note": "x", "job": "J-101"}, {"note": ""}]:
        r = client.patch(f"/applications/{application}", json=change, headers=C1)
        body = r.json()
        rows.append([change, r.status_code, body.get("fields", [body.get("available_from"),
                                                                body.get("note")])])
    return rows


def probe_edit_rules(client):
    application = _apply(client, C1).json()["id"]
    rows = [_code(client.patch(f"/applications/{application}", json={"note": "x"}, headers=C2)),
            _code(client.patch("/applications/99999", json={"note": "x"}, headers=C1))]
    _advance(client, application)
    rows += [_code(client.patch(f"/applications/{application}", json={"note": "x"}, headers=C1)),
             [client.get(f"/applications/{application}", headers=C1).json()["note"]]]
    return rows


def probe_withdraw(client):
    first = _apply(client, C1).json()["id"]
    r = client.delete(f"/applications/{first}", headers=C1)
    rows = [[r.status_code, r.content == b""],
            [client.get(f"/applications/{first}", headers=C1).json()["stage"]],
            _code(client.delete(f"/applications/{first}", headers=C1)),
            _code(client.delete(f"/applications/{first}", headers=C2))]
    second = _apply(client, C1).json()["id"]
    _advance(client, second)
    _advance(client, second)
    r = client.delete(f"/applications/{second}", headers=C1)
    rows.append([r.status_code, second > first])
    return rows


def probe_advance(client):
    application = _apply(client, C1).json()["id"]
    rows = [_code(client.post("/applications/99999/advance", headers=R))]
    for who in (R, R, R, M, M):
        r = _advance(client, application, who)
        rows.append([r.status_code, r.json().get("stage", r.json().get("error"))])
    other = _apply(client, C1).json()["id"]
    client.post(f"/applications/{other}/reject", json={"reason": "x"}, headers=M)
    rows.append(_code(_advance(client, other, M)))
    return rows


def probe_reject(client):
    application = _apply(client, C2).json()["id"]
    rows = [_code(client.post("/applications/99999/reject", json={"reason": "x"}, headers=R))]
    for body in [{"reason": "   "}, {"reason": "r" * 201}, {}, {"reason": "ok", "extra": 1}]:
        rows.append([body, _code(client.post(f"/applications/{application}/reject", json=body,
                                             headers=R))])
    r = client.post(f"/applications/{application}/reject", json={"reason": "  not a fit "},
                    headers=M)
    rows.append([r.status_code, r.json()["stage"], r.json()["reason"]])
    rows.append(_code(client.post(f"/applications/{application}/reject", json={"reason": "x"},
                                  headers=R)))
    return rows


def probe_jobs(client):
    rows = []
    for value in [None, "true", "false", "yes", "1", "True", "on", ""]:
        params = {} if value is None else {"open": value}
        r = client.get("/jobs", params=params, headers=C2)
        rows.append([value, r.status_code, [j["code"] for j in r.json()]
                     if r.status_code == 200 else r.json()])
    rows.append(client.get("/jobs", headers=R).json())
    return rows
'''


PROMPT = '''\
Build the HTTP API of a hiring team's job applications. All state is in memory. Jobs are fixed
(the table below); there are no applications at the start, and application ids are 1, 2, ... in
creation order, never reused.

''' + ACCESS_AND_ERRORS + '''
## Jobs
`{"code", "title", "open", "min_years"}`:

${jobs_table}

- `GET /jobs` (anyone): 200, the jobs sorted by code. The optional query parameter `open` is
  exactly `true` or `false` (any other value, `1`, `yes` or `True` included, is invalid) and
  keeps the jobs with that `open`.

## Applications
`{"id", "job", "candidate", "handle", "years_experience", "available_from", "note", "stage",
"reason"}`; stage `applied`, `screening`, `interview`, `offer`, `rejected` or `withdrawn`;
`reason` is null unless rejected. An application is *active* while `applied`, `screening` or
`interview`.

Application bodies, fields:
- `job`: a string naming the job: it is trimmed and upper-cased, then looked up (no such job is
  404 `unknown_job`, below, not an invalid request);
- `handle`: a string; it is trimmed and lower-cased, and the result must be 3-20 characters of
  `a-z`, `0-9` and `-` (` Ada-L ` is `ada-l`);
- `years_experience`: a JSON integer, 0-50 (`"3"`, `3.0` and `true` are invalid);
- `available_from`: a real date written exactly `YYYY-MM-DD` as a string (`2026-10-01T00:00:00`,
  numbers and `2026-02-30` are invalid), shown as sent;
- `note`: optional, a string trimmed then 1-${note_max} characters, or null (the default).

Routes:
- `POST /applications` (candidate) with an application body: 404 `unknown_job`; then
  ${first_check}; then ${second_check}; then 409 `already_applied` when an application for the
  same job with the same handle is active or at `offer`. (409 `job_closed`: the job is not open;
  409 `under_qualified`: fewer years than its `min_years`.) Else 201 with the application
  (stage `applied`, `candidate` the caller) and `Location: /applications/<id>`.
- `GET /applications` (anyone): 200, sorted by id: a candidate's own applications, everyone's for
  the recruiter and the manager. Query parameters: `stage`, repeatable
  (`?stage=applied&stage=offer` keeps both; each must be one of the six stages), `job` (exactly a
  job code), `limit` 1-${limit_max} (default ${limit_default}) and `offset` >= 0 (default 0). The
  header `X-Total-Count` is the number of applications matching before `limit` and `offset`
  apply.
- `GET /applications/{application_id}` (anyone): 200 with it; 404 `unknown_application` when
  there is none or, for a candidate, it is another candidate's.
- `PATCH /applications/{application_id}` (candidate) with a JSON object of `available_from`
  and/or `note` (same rules as above): an absent field is unchanged; `"note": null` clears the
  note; `"available_from": null` is invalid, and so is `{}`. 404 `unknown_application` (missing
  or another candidate's); then 409 `not_editable` unless it is `applied`. Else 200 with it.
- `DELETE /applications/{application_id}` (candidate): withdraws it: the same 404; then 409
  `not_active` unless it is active; else 204 with no body; it stays readable as `withdrawn`.
- `POST /applications/{application_id}/advance` (recruiter, manager), no body: 404
  `unknown_application`; then 409 `not_active` unless it is active; then, when the next stage is
  `offer`, 403 `manager_only` for the recruiter. Else 200 with it, moved to the next stage
  (`applied`, `screening`, `interview`, `offer`).
- `POST /applications/{application_id}/reject` (recruiter, manager) `{"reason"}` (trimmed, then
  1-200 characters): 404 `unknown_application`; then 409 `not_active`; else 200 with it, now
  `rejected` with that reason.
- `GET /reports/pipeline` (manager) with the query parameter `job` (required, exactly a job
  code): 200 `{"job", "total", "by_stage"}`: the number of that job's applications, and of them
  per stage (all six stages present).

## result
One row per request, `[status code, JSON body]`, each as `${c1}`:
1. `POST /applications` with `{"job": "${shown_job}", "handle": ${shown_handle__json},
   "years_experience": ${shown_years}, "available_from": "2026-09-01"}`
2. `GET /applications/1`
3. `GET /jobs`
'''


def _derive(p):
    people = token_table(p, {"c1": "candidate", "c2": "candidate", "r": "recruiter",
                             "m": "manager"})
    jobs = [["J-101", "Backend engineer", True, p["senior_years"]],
            ["J-102", "Designer", True, 0],
            ["J-103", "Data analyst", False, 2],
            ["J-104", "Support lead", True, p["lead_years"]]]
    table = "\n".join(["| code | title | open | min_years |", "|---|---|---|---|"]
                      + [f"| `{c}` | {t} | {str(o).lower()} | {y} |" for c, t, o, y in jobs])
    order = p["apply_order"].split(",")
    codes = {"open": "409 `job_closed`", "years": "409 `under_qualified`"}
    functions = {"open": "ensure_open", "years": "ensure_qualified"}
    return people | {
        "jobs": jobs, "jobs_table": table,
        "job_literal": ", ".join(f'"{job[0]}"' for job in jobs),
        "apply_checks": ", ".join(functions[k] for k in order) + ",",
        "first_check": codes[order[0]], "second_check": codes[order[1]]}


PLUMBING = plumbing_traps(
    first_get='@app.api_route("/jobs", methods=["GET", "HEAD"])',
    body_param="def apply(name: Candidate, application: ApplicationBody, response: Response):",
    plain_param="def apply(name: Candidate, application: ApplicationIn, response: Response):")

REQUIREMENTS = plumbing_requirements(
    PLUMBING,
    token_trap=Edit("names accepted as tokens",
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n",
                    "    token = {v: k for k, v in TOKENS.items()}.get(token, token)\n"
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n"),
    role_traps=(Edit("role checked after the body",
                     "def reject(application_id: int, name: Staff, rejection: RejectionBody):",
                     "def reject(application_id: int, rejection: RejectionBody, name: Staff):"),
                Edit("the recruiter reads the report", 'Manager = role("manager")',
                     'Manager = role("manager", "recruiter")')),
) + (
    Requirement("`POST /applications` answers 201 with `Location`, the job code normalised, the "
                "note trimmed and bounded; 404 `unknown_job`.",
                probes=("application_create",),
                traps=(Edit("no Location for applications",
                            "    response.headers[\"Location\"] = f\"/applications/{record['id']}\"\n",
                            ""),
                       Edit("job codes exact", "JOBS.get(application.job.strip().upper())",
                            "JOBS.get(application.job)"))),
    Requirement("Handles are trimmed and lower-cased before they must be 3-20 of `a-z 0-9 -`.",
                probes=("handle",),
                traps=pattern_checked_before_case("handle", "to_lower", "^[a-z0-9-]{3,20}$$")),
    Requirement("`years_experience` is a JSON integer, 0-50: strings, floats and booleans are "
                "invalid.",
                probes=("years_integers",),
                traps=(lax_integers("years_experience: StrictInt = Field(ge=0, le=50)"),
                       Edit("zero years refused", "years_experience: StrictInt = Field(ge=0, le=50)",
                            "years_experience: StrictInt = Field(ge=1, le=50)"))),
    Requirement("`available_from` is a real date written `YYYY-MM-DD`: numbers and midnight "
                "date-times are invalid.",
                probes=("available_from",),
                traps=(Edit("lenient dates", """    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a date is written YYYY-MM-DD")
    return date.fromisoformat(value).isoformat()""", """    return __import__("pydantic").TypeAdapter(date).validate_python(value).isoformat()"""),)),
    Requirement("`POST /applications` refuses ${first_check}, then ${second_check}.",
                probes=("apply_checks",),
                traps=(Edit("apply checks swapped", "    for check in (${apply_checks}):",
                            "    for check in reversed((${apply_checks})):"),
                       Edit("experience bound exclusive",
                            'if application.years_experience < job["min_years"]:',
                            'if application.years_experience <= job["min_years"]:'))),
    Requirement("409 `already_applied` for an active or offered application to the job with the "
                "same handle; withdrawn and rejected ones do not count.",
                probes=("duplicates",),
                traps=(Edit("finished applications count",
                            '           and a["stage"] in ACTIVE + ("offer",) for a in APPLICATIONS.values()):',
                            "           for a in APPLICATIONS.values()):"),
                       Edit("duplicates across jobs",
                            'if any(a["job"] == job["code"] and a["handle"] == application.handle',
                            'if any(a["handle"] == application.handle'))),
    Requirement("Candidates see only their own applications (404 `unknown_application` "
                "otherwise); staff see all.",
                probes=("visibility",),
                traps=(Edit("candidates list every application",
                            '             if (ROLES[name] != "candidate" or a["candidate"] == name)\n'
                            "             and (not stage",
                            "             if (not stage"),
                       Edit("candidates read every application",
                            '    if found is None or (ROLES[name] == "candidate" and found["candidate"] != name):',
                            "    if found is None:"))),
    Requirement("`GET /applications` keeps any of the repeated `stage` values, and `job`.",
                probes=("stage_filter",),
                traps=repeated_filter_traps(
                    "stage: Annotated[list[Stage] | None, Query()] = None,", "stage", "Stage")),
    paging_requirement(),
    Requirement("`PATCH` changes only the fields sent; a null note clears it; a null date and "
                "`{}` are invalid.",
                probes=("partial_edit",),
                traps=(null_fields_ignored("application"),
                       empty_edits_accepted())),
    Requirement("Only the candidate edits, and only while `applied` (409 `not_editable`).",
                probes=("edit_rules",),
                traps=(Edit("edits after screening",
                            '    if application["stage"] != "applied":\n'
                            '        raise Failure(409, "not_editable")\n', ""),)),
    Requirement("Withdrawing an active application answers 204 with no body and keeps it as "
                "`withdrawn`; else 409 `not_active`.",
                probes=("withdraw",),
                traps=(Edit("withdrawing deletes", '    application["stage"] = "withdrawn"',
                            "    del APPLICATIONS[application_id]"),
                       Edit("withdrawal answers 200",
                            '@app.delete("/applications/{application_id}", status_code=204)',
                            '@app.delete("/applications/{application_id}")'))),
    Requirement("Advancing moves an active application one stage on; only the manager makes an "
                "offer (403 `manager_only`).",
                probes=("advance",),
                traps=(Edit("recruiters make offers",
                            '    if following == "offer" and ROLES[name] != "manager":\n'
                            '        raise Failure(403, "manager_only")\n', ""),)),
    Requirement("Rejecting needs a trimmed reason of 1-200 characters and an active application.",
                probes=("reject",),
                traps=(Edit("reasons not trimmed", '''    reason: str = Field(min_length=1, max_length=200)

    @field_validator("reason", mode="before")
    @classmethod
    def trimmed(cls, value):
        return trim(value)
''', '''    reason: str = Field(min_length=1, max_length=200)
'''),
                       Edit("finished applications rejected", '''def reject(application_id: int, name: Staff, rejection: RejectionBody):
    application = visible(application_id, name)
    if application["stage"] not in ACTIVE:
        raise Failure(409, "not_active")
''', '''def reject(application_id: int, name: Staff, rejection: RejectionBody):
    application = visible(application_id, name)
'''))),
    Requirement("The pipeline report counts the job's applications under all six stages; `job` "
                "is a required exact code.",
                probes=("pipeline_report",),
                traps=(Edit("stages without applications left out",
                            '"by_stage": {s: sum(a["stage"] == s for a in of_job) for s in STAGES}}',
                            '"by_stage": {s: sum(a["stage"] == s for a in of_job) for s in STAGES\n'
                            '                         if any(a["stage"] == s for a in of_job)}}'),
                       Edit("withdrawn left out of the total", '"total": len(of_job),',
                            '"total": sum(a["stage"] != "withdrawn" for a in of_job),'))),
    Requirement("`GET /jobs` lists the jobs by code; `open` is exactly `true` or `false`.",
                probes=("jobs",),
                traps=(Edit("open as a lenient boolean",
                            'def list_jobs(name: Caller, open: Literal["true", "false"] | None = None):\n'
                            '    wanted = None if open is None else open == "true"',
                            "def list_jobs(name: Caller, open: bool | None = None):\n"
                            "    wanted = open"),)),
)


FAMILY = Family(
    id="service/job_applications",
    title="A hiring team's job applications from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"c1": "zoe", "c2": "yann", "r": "rosa", "m": "marc", "tp": "ja-",
              "invalid_status": 422, "limit_max": 40, "limit_default": 10,
              "senior_years": 5, "lead_years": 3, "apply_order": "open,years", "note_max": 300,
              "shown_job": " j-102", "shown_handle": " Zoe-Dev ", "shown_years": 2},
    space={
        # Tokens never show in a response: their prefix varies with the names, which do.
        "people": [{"c1": "zoe", "c2": "yann", "r": "rosa", "m": "marc", "tp": "ja-"},
                   {"c1": "ivy", "c2": "hugh", "r": "gail", "m": "femi", "tp": "hire."}],
        "invalid_status": [422, 400],
        "pages": [{"limit_max": 40, "limit_default": 10}, {"limit_max": 25, "limit_default": 6}],
        "bounds": [{"senior_years": 5, "lead_years": 3}, {"senior_years": 8, "lead_years": 6}],
        "apply_order": ["open,years", "years,open"],
        "note_max": [300, 120],
        "shown": [{"shown_job": " j-102", "shown_handle": " Zoe-Dev ", "shown_years": 2},
                  {"shown_job": "J-104 ", "shown_handle": "NEW-HIRE", "shown_years": 9}],
    },
    derive=_derive,
    instances=12,
    requirements=REQUIREMENTS,
)
