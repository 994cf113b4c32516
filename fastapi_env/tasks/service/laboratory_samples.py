"""Service tier: a clinical laboratory's sample tracking specified like a product document
(8 routes, bearer tokens with clinicians, technicians and a manager, samples keyed by a
normalised barcode, collection times given with any offset and shown in UTC, a status machine
with a history, page/page_size paging over a sorted list with exact boolean and empty-tolerant
filters, and a flat `{"error": code}` format).

Pitfalls a natural implementation meets on the pinned packages (each one a requirement):
`StringConstraints` checks `pattern` before `to_upper`; a plain datetime in a dict is sent with
`+00:00`, not `Z`; `Literal` page sizes refuse every query value; `int` path ids accept `1.0`
and `+1`; `bool` query values accept `1` and `yes`; an empty query value arrives as `""`; plus
the shared ones of `_core_dotted_fields` (HEAD, trailing slashes, router headers, bodies without a
Content-Type). The parameters change the barcode form, the tests and their minimum volumes,
the page sizes, which statuses may be rejected, and the names."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.service._core_dotted_fields import (
    PROBES_HEAD,
    PROMPT_RULES,
    REFERENCE_HEAD,
    common_requirements,
    credentials_before_json_requirement,
    validation_format_requirement,
)
from fastapi_env.tasks.traps import ids_recomputed

REFERENCE = REFERENCE_HEAD + '''
TOKENS = {"${tok_m}": {"name": "${name_m}", "role": "manager"},
          "${tok_t}": {"name": "${name_t}", "role": "technician"},
          "${tok_a}": {"name": "${name_a}", "role": "clinician"},
          "${tok_b}": {"name": "${name_b}", "role": "clinician"}}
TESTS = ${tests__repr}
STATUSES = ("registered", "received", "testing", "completed", "rejected")
MOVES = {"registered": {"received"}, "received": {"testing"}, "testing": {"completed"}}
for status in ${reject_from__repr}:
    MOVES.setdefault(status, set()).add("rejected")
PAGE_SIZES = ${page_sizes__repr}
SAMPLES: dict[int, dict] = {}
NEXT_ID = [1]

TestCode = Literal[${test_literals}]
Status = Literal["registered", "received", "testing", "completed", "rejected"]
Trimmed = Annotated[str, Field(min_length=1, max_length=40)]


class SampleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    patient: Trimmed
    test: TestCode
    collected_at: datetime
    volume_ul: int = Field(ge=1, le=10000)
    urgent: bool = False
    barcode: str = Field(pattern=r"^[A-Z]{${bc_letters}}-[0-9]{${bc_digits}}$$")

    @field_validator("barcode", mode="before")
    @classmethod
    def normalise_barcode(cls, value):
        # Trimmed and upper-cased before the pattern is checked.
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("patient", mode="before")
    @classmethod
    def trim_patient(cls, value):
        return trimmed(value)

    @field_validator("collected_at", mode="before")
    @classmethod
    def text_only(cls, value):
        if not isinstance(value, str):
            raise ValueError("an ISO 8601 text")
        return value

    @field_validator("collected_at")
    @classmethod
    def with_offset(cls, value: datetime):
        if value.tzinfo is None:
            raise ValueError("an offset is required")
        return value.astimezone(timezone.utc)


class SamplePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    patient: Trimmed = None
    urgent: bool = None

    @field_validator("patient", mode="before")
    @classmethod
    def trim_patient(cls, value):
        return trimmed(value)


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Status
    reason: str | None = None


def utc_text(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def public(sample: dict) -> dict:
    return {**sample, "collected_at": utc_text(sample["collected_at"])}


def one_page_size(value: int) -> int:
    if value not in PAGE_SIZES:
        raise ValueError("not an offered page size")
    return value


SampleId = Annotated[str, Path(pattern=r"^[0-9]+$$")]
PageSize = Annotated[int, AfterValidator(one_page_size), Query()]


def visible(who: dict, sample: dict) -> bool:
    return who["role"] != "clinician" or sample["ordered_by"] == who["name"]


def sample_for(who: dict, sample_id: str) -> dict:
    """Samples a clinician did not order answer exactly like missing ones."""
    sample = SAMPLES.get(int(sample_id))
    if sample is None or not visible(who, sample):
        raise Refused(404, "unknown_sample")
    return sample


@app.post("/samples", status_code=201)
def register(body: SampleIn, who: Annotated[dict, allowed("clinician", "manager")],
             response: Response):
    if any(s["barcode"] == body.barcode for s in SAMPLES.values()):
        raise Refused(409, "barcode_taken")
    if body.volume_ul < TESTS[body.test]:
        raise Refused(409, "insufficient_volume")
    sample = {"id": NEXT_ID[0], **body.model_dump(), "status": "registered",
              "ordered_by": who["name"]}
    sample["history"] = [{"from": None, "to": "registered", "by": who["name"], "reason": None}]
    NEXT_ID[0] += 1
    SAMPLES[sample["id"]] = sample
    response.headers["Location"] = f"/samples/{sample['id']}"
    return view(sample)


def view(sample: dict) -> dict:
    return {k: v for k, v in public(sample).items() if k != "history"}


def ignore_empty(value):
    return None if value == "" else value


@readable("/samples")
def list_samples(
    who: Caller,
    status: Literal["registered", "received", "testing", "completed", "rejected", ""] | None = None,
    test: Literal[${test_literals}, ""] | None = None,
    urgent: Literal["true", "false", ""] | None = None,
    patient: str | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: PageSize = ${page_default},
):
    status, test, urgent, patient = map(ignore_empty, (status, test, urgent, patient))
    found = [s for s in SAMPLES.values() if visible(who, s)
             and (status is None or s["status"] == status)
             and (test is None or s["test"] == test)
             and (urgent is None or s["urgent"] == (urgent == "true"))
             and (patient is None or s["patient"] == patient)]
    found.sort(key=lambda s: (not s["urgent"], s["collected_at"], s["id"]))
    start = (page - 1) * page_size
    return {"items": [view(s) for s in found[start:start + page_size]], "page": page,
            "page_size": page_size, "total": len(found)}


@readable("/samples/{sample_id}")
def read_sample(sample_id: SampleId, who: Caller):
    return view(sample_for(who, sample_id))


@app.patch("/samples/{sample_id}")
def edit_sample(sample_id: SampleId, body: SamplePatch,
                who: Annotated[dict, allowed("clinician", "manager")]):
    sample = sample_for(who, sample_id)
    if sample["status"] != "registered":
        raise Refused(409, "not_editable")
    sample.update(body.model_dump(exclude_unset=True))
    return view(sample)


@app.delete("/samples/{sample_id}", status_code=204)
def delete_sample(sample_id: SampleId, who: Annotated[dict, allowed("manager")]):
    sample = sample_for(who, sample_id)
    if sample["status"] in ("received", "testing"):
        raise Refused(409, "sample_locked")
    del SAMPLES[sample["id"]]
    return Response(status_code=204)


@app.post("/samples/{sample_id}/transitions")
def move_sample(sample_id: SampleId, body: MoveIn,
                who: Annotated[dict, allowed("technician", "manager")]):
    sample = sample_for(who, sample_id)
    if body.to not in MOVES.get(sample["status"], set()):
        raise Refused(409, "invalid_transition")
    reason = body.reason.strip() if body.reason is not None else ""
    if body.to == "rejected" and not reason:
        raise Refused(400, "reason_required")
    sample["history"].append({"from": sample["status"], "to": body.to, "by": who["name"],
                              "reason": reason if body.to == "rejected" else None})
    sample["status"] = body.to
    return view(sample)


@readable("/samples/{sample_id}/history")
def sample_history(sample_id: SampleId, who: Caller):
    return sample_for(who, sample_id)["history"]


@readable("/stats")
def stats(who: Annotated[dict, allowed("technician", "manager")]):
    counts = [{"status": status, "count": sum(s["status"] == status for s in SAMPLES.values())}
              for status in STATUSES]
    open_urgent = sum(s["urgent"] and s["status"] not in ("completed", "rejected")
                      for s in SAMPLES.values())
    return {"by_status": counts, "urgent_open": open_urgent}


client = TestClient(app)
a_h, t_h = {"Authorization": "Bearer ${tok_a}"}, {"Authorization": "Bearer ${tok_t}"}
result = [
    row(client.post("/samples", json={"barcode": "${bc_example}", "patient": "P-1",
                                      "test": "${test1}", "collected_at": "2026-03-01T09:15:00+00:00",
                                      "volume_ul": ${vol1}}, headers=a_h)),
    row(client.post("/samples/1/transitions", json={"to": "received"}, headers=t_h)),
    row(client.get("/samples/1/history", headers=a_h)),
    row(client.get("/stats", headers=a_h)),
]
'''

PROBES = PROBES_HEAD + '''

M = {"Authorization": "Bearer ${tok_m}"}
T = {"Authorization": "Bearer ${tok_t}"}
A = {"Authorization": "Bearer ${tok_a}"}
B = {"Authorization": "Bearer ${tok_b}"}
''' + late_body.probe_source(
    [("POST", "/samples"), ("PATCH", "/samples/1"), ("POST", "/samples/1/transitions")],
    [("no token", "{}"), ("technician", "T"), ("clinician", "A")]) + '''

TESTS = ${tests__repr}
T1, T2, T3 = ${test1__repr}, ${test2__repr}, ${test3__repr}
SIZES = ${page_sizes__repr}
DEFAULT_SIZE = ${page_default}
COUNTER = [0]


def _barcode():
    """A fresh valid barcode: every probe uses its own."""
    COUNTER[0] += 1
    return "${bc_prefix}-" + str(${bc_base} + COUNTER[0])


def _body(**extra):
    body = {"barcode": _barcode(), "patient": "probe", "test": T1,
            "collected_at": "2026-04-01T08:00:00Z", "volume_ul": TESTS[T1] + 1}
    return body | extra


def _new(client, headers=A, **extra):
    return client.post("/samples", json=_body(**extra), headers=headers).json()["id"]


def _move(client, sample_id, to, headers=T, reason=None):
    body = {"to": to} | ({"reason": reason} if reason is not None else {})
    return client.post(f"/samples/{sample_id}/transitions", json=body, headers=headers)


def _walk(client, sample_id, *statuses):
    for status in statuses:
        _move(client, sample_id, status)


def probe_validation_format(client):
    return [_row(client.post("/samples", json={"barcode": 5, "test": "NOPE", "ward": 1}, headers=A)),
            _row(client.post("/samples", json=[], headers=A)),
            _row(client.post("/samples", headers=A)),
            _row(client.get("/samples", params={"page": "x", "status": "lost"}, headers=A)),
            _row(client.patch("/samples/1", json={"urgent": None, "patient": ""}, headers=M))]


def probe_roles(client):
    sample = _new(client)
    rows = [_code(client.post("/samples", json={}, headers=T)),
            _code(client.post("/samples", json=_body(), headers=T)),
            _code(client.patch(f"/samples/{sample}", json={"x": 1}, headers=T)),
            _code(client.delete(f"/samples/{sample}", headers=T)),
            _code(client.delete("/samples/abc", headers=A)),
            _code(client.post(f"/samples/{sample}/transitions", json={}, headers=A)),
            _code(client.post("/samples/999999/transitions", json={"to": "received"}, headers=B)),
            _code(client.get("/stats", headers=A)), _code(client.get("/stats", headers=B))]
    return rows


def probe_register(client):
    body = _body(patient="  Ada  ", urgent=True, volume_ul=TESTS[T2] + 7, test=T2)
    r = client.post("/samples", json=body, headers=A)
    got = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/samples/{got.get('id')}",
             {k: v for k, v in got.items() if k not in ("id", "barcode")}]]
    later = client.post("/samples", json=_body(), headers=M).json()
    rows.append([later["id"] - got["id"], later["ordered_by"], later["urgent"], later["status"]])
    for patient in ["   ", "x" * 41, " " + "x" * 40 + " "]:
        r = client.post("/samples", json=_body(patient=patient), headers=A)
        rows.append([len(patient), r.status_code, r.json().get("fields")])
    return rows


def probe_barcodes(client):
    rows = []
    for raw in ["  ${bc_lower}  ", "${bc_mixed}", "${bc_example}x", "${bc_short}", "${bc_long}",
                "${bc_nohyphen}", "", "   "]:
        r = client.post("/samples", json=_body(barcode=raw), headers=A)
        rows.append([raw, r.status_code, r.json().get("barcode", r.json().get("fields"))])
    return rows


def probe_barcode_taken(client):
    code = _barcode()
    first = client.post("/samples", json=_body(barcode=code), headers=A)
    rows = [first.status_code]
    for raw in [code, code.lower(), " " + code.lower() + " "]:
        rows.append(_code(client.post("/samples", json=_body(barcode=raw), headers=B)))
    return [rows]


def probe_collected_at(client):
    rows = []
    for moment in ["2026-03-01T10:30:00+02:00", "2026-03-01T08:30:00Z",
                   "2026-02-28T23:45:10-05:00", "2026-03-01T08:30:00.250000+00:00",
                   "2026-03-01T08:30:00", 1772353800, "2026-03-01", "yesterday"]:
        r = client.post("/samples", json=_body(collected_at=moment), headers=A)
        got = r.json()
        rows.append([moment, r.status_code, got.get("collected_at", got.get("fields"))])
        if r.status_code == 201:
            again = client.get(f"/samples/{got['id']}", headers=A).json()
            rows.append(["read", again["collected_at"]])
    return rows


def probe_volumes_and_tests(client):
    rows = []
    for test in (T1, T2, T3):
        for volume in (TESTS[test] - 1, TESTS[test]):
            r = client.post("/samples", json=_body(test=test, volume_ul=volume), headers=A)
            rows.append([test, volume, _code(r)])
    for extra in [{"test": T1.lower()}, {"volume_ul": 0}, {"volume_ul": 10001},
                  {"volume_ul": 10000}]:
        rows.append([extra, _code(client.post("/samples", json=_body(**extra), headers=A))])
    return rows


def probe_path_ids(client):
    sample = _new(client)
    rows = []
    for raw in [str(sample), f"{sample}.0", f"+{sample}", f" {sample}", f"{sample}_0", "abc",
                "999999", "-1"]:
        r = client.get(f"/samples/{raw}", headers=A)
        rows.append([raw == str(sample), _code(r)])
    rows.append(_code(client.get(f"/samples/{sample}.0/history", headers=A)))
    return rows


def probe_read_scope(client):
    sample = _new(client, headers=A)
    rows = [[name, _code(client.get(f"/samples/{sample}", headers=h)),
             _code(client.get(f"/samples/{sample}/history", headers=h))]
            for name, h in [("a", A), ("b", B), ("t", T), ("m", M)]]
    rows.append(_code(client.patch(f"/samples/{sample}", json={"urgent": True}, headers=B)))
    return rows


def _tagged(client, patient, specs):
    """Creates samples for one patient: (urgent, collected_at, test, who) each."""
    ids = []
    for urgent, moment, test, who in specs:
        ids.append(_new(client, headers=who, patient=patient, urgent=urgent,
                        collected_at=moment, test=test, volume_ul=TESTS[test] + 1))
    return ids


def _listed(client, headers, **params):
    r = client.get("/samples", params=params, headers=headers)
    body = r.json()
    if r.status_code != 200:
        return _code(r)
    return [[s["id"] for s in body["items"]], body["total"], body["page"], body["page_size"]]


def probe_list_order(client):
    ids = _tagged(client, "order", [(False, "2026-05-01T10:00:00+02:00", T1, A),
                                    (False, "2026-05-01T07:30:00Z", T1, A),
                                    (True, "2026-05-02T00:00:00Z", T1, A),
                                    (False, "2026-05-01T08:00:00Z", T2, B),
                                    (True, "2026-05-01T23:00:00-03:00", T1, A)])
    rank = {sample: n for n, sample in enumerate(ids)}
    rows = []
    for headers in (A, B, T):
        got = _listed(client, headers, patient="order")
        rows.append([[rank[s] for s in got[0]], got[1]])
    return rows


def probe_list_filters(client):
    ids = _tagged(client, "filters", [(True, "2026-06-01T08:00:00Z", T1, A),
                                      (False, "2026-06-01T09:00:00Z", T2, A),
                                      (False, "2026-06-01T10:00:00Z", T1, A)])
    _move(client, ids[2], "received")
    rank = {sample: n for n, sample in enumerate(ids)}
    rows = []
    for params in [{"test": T1}, {"status": "received"}, {"status": "registered", "test": T1},
                   {"test": T3}]:
        got = _listed(client, A, patient="filters", **params)
        rows.append([params, [rank[s] for s in got[0]], got[1]])
    return rows


def probe_urgent_filter(client):
    ids = _tagged(client, "urgency", [(True, "2026-06-02T08:00:00Z", T1, A),
                                      (False, "2026-06-02T09:00:00Z", T1, A)])
    rank = {sample: n for n, sample in enumerate(ids)}
    rows = []
    for value in ["true", "false", "1", "0", "yes", "True", "on"]:
        got = _listed(client, A, patient="urgency", urgent=value)
        rows.append([value, [rank[s] for s in got[0]] if isinstance(got[0], list) else got])
    return rows


def probe_empty_filters(client):
    ids = _tagged(client, "empty", [(True, "2026-06-03T08:00:00Z", T1, A),
                                    (False, "2026-06-03T09:00:00Z", T2, A)])
    rank = {sample: n for n, sample in enumerate(ids)}
    rows = []
    for params in [{"status": ""}, {"test": ""}, {"urgent": ""}, {"status": "", "test": "",
                                                                  "urgent": ""}]:
        got = _listed(client, A, patient="empty", **params)
        rows.append([params, [rank[s] for s in got[0]] if isinstance(got[0], list) else got])
    return rows


def probe_pagination(client):
    count = SIZES[0] + 2
    ids = _tagged(client, "pages", [(False, f"2026-07-01T{k:02d}:00:00Z", T1, B)
                                    for k in range(count)])
    rank = {sample: n for n, sample in enumerate(ids)}
    rows = []
    for params in [{}, {"page_size": SIZES[0]}, {"page_size": SIZES[0], "page": 2},
                   {"page_size": SIZES[0], "page": 3}, {"page_size": SIZES[-1]},
                   {"page_size": str(SIZES[1])}]:
        got = _listed(client, B, patient="pages", **params)
        rows.append([params, [rank[s] for s in got[0]], got[1:]])
    for params in [{"page_size": SIZES[0] + 1}, {"page_size": 0}, {"page": 0},
                   {"page_size": f"{SIZES[0]}.5"}]:
        rows.append([params, _listed(client, B, patient="pages", **params)])
    return rows


def probe_patch(client):
    sample = _new(client, urgent=True, patient="before")
    rows = [_row(client.patch(f"/samples/{sample}", json={"patient": "  after "}, headers=A))]
    rows[-1][1] = [rows[-1][1].get("patient"), rows[-1][1].get("urgent")]
    r = client.patch(f"/samples/{sample}", json={}, headers=M)
    rows.append([r.status_code, r.json().get("patient"), r.json().get("urgent")])
    r = client.patch(f"/samples/{sample}", json={"urgent": False}, headers=A)
    rows.append([r.status_code, r.json().get("patient"), r.json().get("urgent")])
    rows.append(_code(client.patch(f"/samples/{sample}", json={"test": T2}, headers=A)))
    return rows


def probe_patch_locked(client):
    sample = _new(client)
    _move(client, sample, "received")
    return [_code(client.patch(f"/samples/{sample}", json={"urgent": True}, headers=A)),
            _code(client.patch("/samples/999999", json={"urgent": True}, headers=M)),
            _code(client.patch(f"/samples/{sample}", json={"urgent": "maybe"}, headers=M))]


def probe_transitions(client):
    sample = _new(client)
    rows = []
    for to in ["testing", "completed", "registered", "received", "received", "testing",
               "received", "completed", "completed", "testing"]:
        r = _move(client, sample, to, headers=M if to == "testing" else T)
        rows.append([to, _code(r), r.json().get("status")])
    rows.append(_code(_move(client, 999999, "received")))
    rows.append(_code(_move(client, sample, "lost")))
    return rows


def probe_rejections(client):
    rows = []
    for path in [[], ["received"], ["received", "testing"], ["received", "testing", "completed"]]:
        sample = _new(client)
        _walk(client, sample, *path)
        rows.append([path, _code(_move(client, sample, "rejected", reason="haemolysed")),
                     client.get(f"/samples/{sample}", headers=T).json()["status"]])
    sample = _new(client)
    for reason in [None, "", "   "]:
        rows.append([reason, _code(_move(client, sample, "rejected", reason=reason))])
    rows.append(_code(_move(client, sample, "rejected", reason="  clotted ")))
    rows.append([client.get(f"/samples/{sample}/history", headers=A).json()[-1]])
    return rows


def probe_history(client):
    sample = _new(client, headers=B)
    _walk(client, sample, "received")
    _move(client, sample, "testing", headers=M)
    _move(client, sample, "received")
    r = client.get(f"/samples/{sample}/history", headers=B)
    return [[r.status_code, r.json()], _code(client.get("/samples/999999/history", headers=M))]


def probe_delete(client):
    rows = []
    for path in [[], ["received"], ["received", "testing"], ["received", "testing", "completed"]]:
        sample = _new(client)
        _walk(client, sample, *path)
        r = client.delete(f"/samples/{sample}", headers=M)
        rows.append([path, _row(r), _code(client.get(f"/samples/{sample}", headers=M))])
    gone = _new(client)
    client.delete(f"/samples/{gone}", headers=M)
    rows.append(_code(client.delete(f"/samples/{gone}", headers=M)))
    rows.append([_new(client) - gone])
    return rows


def probe_stats(client):
    before = client.get("/stats", headers=T).json()
    ids = [_new(client, urgent=k < 3) for k in range(5)]
    _walk(client, ids[0], "received", "testing", "completed")
    _walk(client, ids[1], "received")
    _move(client, ids[2], "rejected", reason="leak")
    _walk(client, ids[3], "received", "testing")
    after = client.get("/stats", headers=M).json()
    return [[[a["status"], a["count"] - b["count"]]
             for a, b in zip(after["by_status"], before["by_status"])],
            [after["urgent_open"] - before["urgent_open"]]]
'''

PROMPT = '''\
Build the HTTP API of a clinical laboratory that tracks the samples clinicians send it. All
state is in memory; the service starts with no samples and with these accounts:

| token | name | role |
|---|---|---|
| `${tok_m}` | `${name_m}` | manager |
| `${tok_t}` | `${name_t}` | technician |
| `${tok_a}` | `${name_a}` | clinician |
| `${tok_b}` | `${name_b}` | clinician |

Clinicians see only the samples they registered themselves: any other sample is, to them,
exactly like a sample that does not exist. Technicians and the manager see every sample.

## Requests and errors
''' + PROMPT_RULES + '''
## Tests
A sample is taken for one test. The tests and the least volume (in microlitres) each needs:

${tests_table}

## Samples
A sample is `{"id", "barcode", "patient", "test", "collected_at", "volume_ul", "urgent",
"status", "ordered_by"}`. Ids are 1, 2, ... in creation order and never reused, even after a
deletion. `ordered_by` is the name of whoever registered it.

- `barcode`: trimmed and upper-cased first, then it must be ${bc_rule}, e.g.
  `"  ${bc_lower} "` is stored as `${bc_upper}`.
- `patient`: text, trimmed, then 1-40 characters.
- `test`: one of the test codes above, exactly as written there.
- `collected_at`: an ISO 8601 date-time *text* with a UTC offset (`Z` or `+02:00`, ...); a
  date-time without an offset, a bare date or a number is invalid. Responses always give it
  converted to UTC as `YYYY-MM-DDTHH:MM:SSZ` (fractions of a second dropped):
  `"2026-03-01T10:30:00+02:00"` is shown as `"2026-03-01T08:30:00Z"`.
- `volume_ul`: an integer 1-10000. `urgent`: a boolean, default `false`.
- `status`: `registered`, `received`, `testing`, `completed` or `rejected`.

Sample ids in paths (`{sample_id}` below) are written in decimal digits only: anything else
(`abc`, `1.0`, `+1`, ` 1`, `-1`) is a 422 with field `path.sample_id`.

### Routes
- `POST /samples` (clinicians and the manager) `{"barcode", "patient", "test", "collected_at",
  "volume_ul", "urgent"}` (`urgent` optional): 409 `barcode_taken` if a sample (any status)
  has that barcode; 409 `insufficient_volume` if `volume_ul` is below the test's least volume;
  else 201 with the sample (status `registered`) and `Location: /samples/<id>`.
- `GET /samples`: 200 `{"items": [...], "page", "page_size", "total"}`: the samples the caller
  sees, filtered, sorted urgent ones first, then by `collected_at` (the moment, earliest first),
  then by id; `total` counts all that match the filters, `items` holds page `page` (1-based).
  Query parameters, all optional:
  - `status`, `test` (valid values only), `patient` (exact, as stored), `urgent` (exactly
    `true` or `false`; any other text, `1`, `yes` or `True` included, is a 422 `query.urgent`);
  - a filter given with an empty value (`?status=`, `?urgent=`, ...) is ignored, as if absent;
  - `page`: an integer >= 1, default 1; a page past the end has no items;
  - `page_size`: one of ${page_sizes_text} (default ${page_default}); any other value is a 422
    `query.page_size`.
- `GET /samples/{sample_id}`: 200 with the sample, else 404 `unknown_sample`.
- `PATCH /samples/{sample_id}` (clinicians and the manager) `{"patient", "urgent"}`, both
  optional, neither may be null: 404 `unknown_sample`; 409 `not_editable` unless the status is
  `registered`; else the fields sent change (only those) and the answer is 200 with the sample.
- `DELETE /samples/{sample_id}` (manager): 404 `unknown_sample`; 409 `sample_locked` while
  the status is `received` or `testing`; else 204 with an empty body.
- `POST /samples/{sample_id}/transitions` (technicians and the manager) `{"to", "reason"}`
  (`to` a status, `reason` optional text): 404 `unknown_sample`; 409 `invalid_transition`
  unless the move is allowed (below); 400 `reason_required` when `to` is `rejected` and the
  reason is missing or blank after trimming; else the status changes and the answer is 200
  with the sample. Allowed moves: `registered` -> `received` -> `testing` -> `completed`, and
  to `rejected` from ${reject_text}. Nothing else (no move back, none out of `completed` or
  `rejected`, none to the current status).
- `GET /samples/{sample_id}/history`: 200, the list of the sample's status changes, oldest
  first, as `{"from", "to", "by", "reason"}` (the first is `{"from": null, "to": "registered",
  "by": <ordered_by>, "reason": null}`; `reason` is the trimmed reason of a rejection, else
  null); 404 `unknown_sample`.
- `GET /stats` (technicians and the manager): 200 `{"by_status": [{"status", "count"}, ...],
  "urgent_open"}` with all five statuses in the order listed above (zero counts included) and
  `urgent_open` the number of urgent samples neither completed nor rejected.

## result
One row per request, `[status code, JSON body]`:
1. `POST /samples` as `${name_a}` with `{"barcode": "${bc_example}", "patient": "P-1", "test":
   "${test1}", "collected_at": "2026-03-01T09:15:00+00:00", "volume_ul": ${vol1}}`
2. `POST /samples/1/transitions` as `${name_t}` with `{"to": "received"}`
3. `GET /samples/1/history` as `${name_a}`
4. `GET /stats` as `${name_a}`
'''


def _derive(p):
    letters_min, _, letters_max = p["bc_letters"].partition(",")
    digits_min, _, digits_max = p["bc_digits"].partition(",")
    letters_max, digits_max = int(letters_max or letters_min), int(digits_max or digits_min)
    letters_min, digits_min = int(letters_min), int(digits_min)

    def span(low, high, what):
        return f"{low} {what}" if low == high else f"{low} to {high} {what}"

    base = 10 ** (digits_max - 1)
    tests = p["tests"]
    codes = sorted(tests)
    names = {"m": p["name_m"], "t": p["name_t"], "a": p["name_a"], "b": p["name_b"]}
    reject = p["reject_from"]
    return {f"tok_{k}": p["tp"] + v for k, v in names.items()} | {
        "bc_rule": f"{span(letters_min, letters_max, 'letters')} `A-Z`, a hyphen and "
                   f"{span(digits_min, digits_max, 'digits')}",
        "bc_prefix": "QX", "bc_base": base,
        "bc_upper": "AB-" + "1" * digits_min, "bc_lower": "ab-" + "1" * digits_min,
        "bc_mixed": "aB-" + "2" * digits_max,
        "bc_example": "CD-" + "7" * digits_max,
        "bc_short": "AB-" + "1" * (digits_min - 1), "bc_long": "AB-" + "1" * (digits_max + 1),
        "bc_nohyphen": "AB" + "1" * digits_min,
        "tests_table": "\n".join(["| test | least volume_ul |", "|---|---|"]
                                 + [f"| `{c}` | {tests[c]} |" for c in codes]),
        "test_literals": ", ".join(repr(c) for c in codes),
        "test1": codes[0], "test2": codes[1], "test3": codes[2], "vol1": tests[codes[0]] + 50,
        "page_sizes_text": ", ".join(str(s) for s in p["page_sizes"]),
        "reject_text": " and ".join(f"`{s}`" for s in reject) if len(reject) < 3
        else ", ".join(f"`{s}`" for s in reject[:-1]) + f" and `{reject[-1]}`",
        "field_example": "barcode", "id_name": "sample_id", "query_example": "page",
        "list_path": "/samples", "post_only": "/samples/1/transitions",
        "item_path": "/samples/999999",
        "plain_body": {"barcode": "ZZ-" + "9" * digits_max, "patient": "plain", "test": codes[0],
                       "collected_at": "2026-01-01T00:00:00Z", "volume_ul": tests[codes[0]]},
        "plain_keys": ["barcode", "test", "status", "ordered_by"], "bad_query": "?page=0",
        "auth_routes": [["GET", "/samples"], ["POST", "/samples"], ["GET", "/samples/1"],
                        ["PATCH", "/samples/1"], ["DELETE", "/samples/1"],
                        ["POST", "/samples/1/transitions"], ["GET", "/samples/1/history"],
                        ["GET", "/stats"]],
    }


def _sort_trap():
    return Edit("sorted by the collection text",
                'found.sort(key=lambda s: (not s["urgent"], s["collected_at"], s["id"]))',
                'found.sort(key=lambda s: (not s["urgent"], s["id"]))')


FAMILY = Family(
    id="service/laboratory_samples",
    title="A clinical laboratory's sample tracking from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"name_m": "morgan", "name_t": "tariq", "name_a": "dr_ana", "name_b": "dr_ben",
              "tp": "lab-", "bc_letters": "2", "bc_digits": "4,6",
              "tests": {"CBC": 200, "GLU": 100, "LIPID": 500},
              "page_sizes": [5, 10, 20], "page_default": 10,
              "reject_from": ["registered", "received"]},
    space={
        "names": [{"name_m": "morgan", "name_t": "tariq", "name_a": "dr_ana", "name_b": "dr_ben",
                   "tp": "lab-"},
                  {"name_m": "helga", "name_t": "ivo", "name_a": "dr_kim", "name_b": "dr_lee",
                   "tp": "tk_"}],
        "barcode": [{"bc_letters": "2", "bc_digits": "4,6"}, {"bc_letters": "2,3", "bc_digits": "5"}],
        "tests": [{"tests": {"CBC": 200, "GLU": 100, "LIPID": 500}},
                  {"tests": {"HBA1C": 150, "TSH": 400, "CRP": 250}}],
        "pages": [{"page_sizes": [5, 10, 20], "page_default": 10},
                  {"page_sizes": [4, 8, 12], "page_default": 4}],
        "reject_from": [["registered", "received"], ["registered", "received", "testing"]],
    },
    derive=_derive,
    instances=12,
    requirements=common_requirements() + (
        validation_format_requirement(),
        credentials_before_json_requirement(),
        Requirement("Roles: technicians may not register or edit, clinicians may not move, "
                    "delete or read stats (403 `forbidden`, before validation and lookups).",
                    probes=("roles",),
                    traps=(Edit("role checked after validation", '''def move_sample(sample_id: SampleId, body: MoveIn,
                who: Annotated[dict, allowed("technician", "manager")]):
''', '''def move_sample(sample_id: SampleId, body: MoveIn, who: Caller):
    if who["role"] not in ("technician", "manager"):
        raise Refused(403, "forbidden")
'''),
                           Edit("technicians register", 'who: Annotated[dict, allowed("clinician", "manager")],\n             response',
                                'who: Annotated[dict, allowed("clinician", "manager", "technician")],\n             response'))),
        Requirement("Registering answers 201 with the sample (patient trimmed to 1-40, status "
                    "`registered`, `ordered_by` the caller) and `Location: /samples/<id>`.",
                    probes=("register",),
                    traps=(Edit("no Location for samples",
                                '''    response.headers["Location"] = f"/samples/{sample['id']}"\n''', ""),
                           Edit("patient kept untrimmed", '''    @field_validator("patient", mode="before")
    @classmethod
    def trim_patient(cls, value):
        return trimmed(value)

    @field_validator("collected_at", mode="before")''', '''    @field_validator("collected_at", mode="before")'''))),
        Requirement("Barcodes are trimmed and upper-cased before they must be ${bc_rule}.",
                    probes=("barcodes",),
                    traps=(Edit("pattern checked before upper-casing", '''    barcode: str = Field(pattern=r"^[A-Z]{${bc_letters}}-[0-9]{${bc_digits}}$$")

    @field_validator("barcode", mode="before")
    @classmethod
    def normalise_barcode(cls, value):
        # Trimmed and upper-cased before the pattern is checked.
        return value.strip().upper() if isinstance(value, str) else value
''', '''    barcode: Annotated[str, __import__("pydantic").StringConstraints(
        strip_whitespace=True, to_upper=True, pattern=r"^[A-Z]{${bc_letters}}-[0-9]{${bc_digits}}$$")]
'''),
                           Edit("barcode digits unbounded", '-[0-9]{${bc_digits}}$$")', '-[0-9]+$$")'))),
        Requirement("A barcode any sample has (after normalising) is 409 `barcode_taken`.",
                    probes=("barcode_taken",),
                    traps=(Edit("barcodes may repeat", '''    if any(s["barcode"] == body.barcode for s in SAMPLES.values()):
        raise Refused(409, "barcode_taken")
''', ""),)),
        Requirement("`collected_at` needs an offset, is text only, and is shown in UTC as "
                    "`YYYY-MM-DDTHH:MM:SSZ`.",
                    probes=("collected_at",),
                    traps=(Edit("times sent as Python formats them", '''def public(sample: dict) -> dict:
    return {**sample, "collected_at": utc_text(sample["collected_at"])}''', '''def public(sample: dict) -> dict:
    return dict(sample)'''),
                           Edit("numbers taken as timestamps", '''        if not isinstance(value, str):
            raise ValueError("an ISO 8601 text")
''', ""),
                           Edit("naive times accepted", '''        if value.tzinfo is None:
            raise ValueError("an offset is required")
''', '''        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
'''))),
        Requirement("Each test needs its least volume (409 `insufficient_volume` below it); "
                    "test codes are exact; volumes are 1-10000.",
                    probes=("volumes_and_tests",),
                    traps=(Edit("volume must exceed the least", "if body.volume_ul < TESTS[body.test]:",
                                "if body.volume_ul <= TESTS[body.test]:"),
                           Edit("volume unbounded above", "Field(ge=1, le=10000)", "Field(ge=1)"))),
        Requirement("Path sample ids are decimal digits only: `1.0`, `+1`, ` 1` are 422 "
                    "`path.sample_id`.",
                    probes=("path_ids",),
                    traps=(Edit("path ids parsed as integers", 'SampleId = Annotated[str, Path(pattern=r"^[0-9]+$$")]',
                                "SampleId = int"),)),
        Requirement("A clinician's view of another clinician's sample is 404 `unknown_sample`, "
                    "like a missing one.",
                    probes=("read_scope",),
                    traps=(Edit("clinicians see every sample",
                                'return who["role"] != "clinician" or sample["ordered_by"] == who["name"]',
                                "return True"),)),
        Requirement("`GET /samples` sorts urgent first, then by the collection moment, then id, "
                    "within the caller's samples.",
                    probes=("list_order",),
                    traps=(_sort_trap(),)),
        Requirement("`status`, `test` and `patient` filter the list; `total` counts the matches.",
                    probes=("list_filters",),
                    traps=(Edit("status filter ignored", 'and (status is None or s["status"] == status)', ""),)),
        Requirement("`urgent` is exactly `true` or `false`: `1`, `yes`, `True` are 422 "
                    "`query.urgent`.",
                    probes=("urgent_filter",),
                    traps=(Edit("urgent parsed as a boolean",
                                '    urgent: Literal["true", "false", ""] | None = None,\n',
                                '    urgent: bool | None = None,\n'),)),
        Requirement("A filter given with an empty value is ignored.",
                    probes=("empty_filters",),
                    traps=(Edit("empty status refused",
                                '"completed", "rejected", ""] | None = None,',
                                '"completed", "rejected"] | None = None,'),
                           Edit("empty filters kept",
                                "    status, test, urgent, patient = map(ignore_empty, (status, test, urgent, patient))\n",
                                "    urgent = ignore_empty(urgent)\n"))),
        Requirement("Pages: `page` >= 1 (default 1), `page_size` one of ${page_sizes_text} "
                    "(default ${page_default}), else 422.",
                    probes=("pagination",),
                    traps=(Edit("page sizes as a literal type",
                                "    page_size: PageSize = ${page_default},\n",
                                "    page_size: Literal[${page_sizes_text}] = ${page_default},\n"),
                           Edit("pages counted from 0", "start = (page - 1) * page_size",
                                "start = page * page_size"))),
        Requirement("PATCH changes only the fields sent, and only while `registered` (409 "
                    "`not_editable`).",
                    probes=("patch", "patch_locked"),
                    traps=(Edit("unsent fields reset", "sample.update(body.model_dump(exclude_unset=True))",
                                "sample.update(body.model_dump(exclude_none=True) | {\"urgent\": bool(body.urgent)})"),
                           Edit("locked samples editable", '''    if sample["status"] != "registered":
        raise Refused(409, "not_editable")
''', ""))),
        Requirement("Transitions follow registered -> received -> testing -> completed; other "
                    "moves are 409 `invalid_transition`.",
                    probes=("transitions",),
                    traps=(Edit("moves back allowed", 'MOVES = {"registered": {"received"}, "received": {"testing"}, "testing": {"completed"}}',
                                'MOVES = {"registered": {"received"}, "received": {"testing", "registered"}, "testing": {"completed", "received"}}'),)),
        Requirement("Rejection is allowed from ${reject_text} only, and needs a non-blank "
                    "reason (400 `reason_required`), stored trimmed.",
                    probes=("rejections",),
                    traps=(Edit("blank reasons accepted", 'if body.to == "rejected" and not reason:',
                                'if body.to == "rejected" and body.reason is None:'),
                           Edit("completed samples rejectable",
                                "for status in ${reject_from__repr}:",
                                'for status in ${reject_from__repr} + ["completed"]:'))),
        Requirement("The history lists every change oldest first with who made it.",
                    probes=("history",),
                    traps=(Edit("history newest first", 'return sample_for(who, sample_id)["history"]',
                                'return sample_for(who, sample_id)["history"][::-1]'),)),
        Requirement("Deleting: 409 `sample_locked` while received or testing, else 204; ids are "
                    "never reused.",
                    probes=("delete",),
                    traps=(Edit("completed samples locked", 'if sample["status"] in ("received", "testing"):',
                                'if sample["status"] in ("received", "testing", "completed"):'),
                           ids_recomputed("ids reused after deletion",
                                      'sample = {"id": NEXT_ID[0], **body.model_dump(),',
                                      "NEXT_ID[0]", "SAMPLES"))),
        Requirement("Stats list all five statuses in order with counts, and the open urgent "
                    "samples.",
                    probes=("stats",),
                    traps=(Edit("rejected urgent samples counted open",
                                'not in ("completed", "rejected")', '!= "completed"'),)),
    ),
)
