"""Service tier: an insurer's claims desk specified like a product document (9 routes, bearer
tokens with holder, adjuster and manager roles, seeded policies, claims with strict integer
cents, normalised policy numbers and date-times shown in UTC, a repeated status filter and
offset pagination with a total header, partial edits where null clears, withdrawal, assignment
and decisions with a deductible, a summary, and one `{"error": ...}` format).

Most rules are ones the obvious FastAPI app gets silently wrong on the pinned packages (see
`_core_body_after_auth`): auth before a malformed body, bodies without a JSON Content-Type, exact paths,
HEAD, a complete `Allow`, `true`-only booleans and JSON-only integers, a pattern checked after
upper-casing, date-times that are not numbers, `Z` rather than `+00:00`, a repeated query
parameter. The parameters change the people, the policies' limits, deductibles and start dates,
the page sizes, the validation status, the description bound and which of two refusals wins."""

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
TOKENS = {"${t_h1}": "${h1}", "${t_h2}": "${h2}", "${t_a1}": "${a1}", "${t_a2}": "${a2}",
          "${t_m}": "${m}"}
ROLES = {"${h1}": "holder", "${h2}": "holder", "${a1}": "adjuster", "${a2}": "adjuster",
         "${m}": "manager"}
POLICIES = {number: {"number": number, "holder": holder, "active": active, "starts_on": starts,
                     "limit_cents": limit, "deductible_cents": deductible}
            for number, holder, active, starts, limit, deductible in ${policies__repr}}
CLAIMS: dict[int, dict] = {}
NEXT_ID = {"claim": 1}
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
STATUSES = ("submitted", "in_review", "approved", "denied")
Status = Literal["submitted", "in_review", "approved", "denied"]

Holder = role("holder")
Adjuster = role("adjuster")
Manager = role("manager")


def new_id() -> int:
    NEXT_ID["claim"] += 1
    return NEXT_ID["claim"] - 1


def trim(value):
    return value.strip() if isinstance(value, str) else value


class ClaimIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    policy: str
    kind: Literal["collision", "theft", "water"]
    amount_cents: StrictInt = Field(ge=1)
    incident_at: AwareDatetime
    description: str = Field(min_length=1, max_length=${description_max})
    reference: str | None = Field(default=None, min_length=1, max_length=40)

    @field_validator("policy")
    @classmethod
    def policy_number(cls, value):
        # Upper-cased before the pattern is checked: `p-1001` is `P-1001`.
        number = value.strip().upper()
        if not re.fullmatch(r"P-[0-9]{4}", number):
            raise ValueError("a policy number is P- and four digits")
        return number

    @field_validator("incident_at", mode="before")
    @classmethod
    def incident_text(cls, value):
        return iso_text_only(value)

    @field_validator("description", "reference", mode="before")
    @classmethod
    def trimmed(cls, value):
        return trim(value)


class ClaimPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # An absent field is unchanged; a null description is invalid, a null reference clears it.
    description: str = Field(default=None, min_length=1, max_length=${description_max})
    reference: str | None = Field(default=None, min_length=1, max_length=40)

    @field_validator("description", "reference", mode="before")
    @classmethod
    def trimmed(cls, value):
        return trim(value)

    @model_validator(mode="after")
    def changes_something(self):
        if not self.model_fields_set:
            raise ValueError("an edit changes at least one field")
        return self


class AssignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    adjuster: str


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    outcome: Literal["approved", "denied"]


ClaimBody = json_body(ClaimIn)
PatchBody = json_body(ClaimPatch)
AssignBody = json_body(AssignIn)
DecisionBody = json_body(DecisionIn)


def ensure_active(policy: dict, claim: ClaimIn) -> None:
    if not policy["active"]:
        raise Failure(409, "policy_lapsed")


def ensure_within_limit(policy: dict, claim: ClaimIn) -> None:
    if claim.amount_cents > policy["limit_cents"]:
        raise Failure(409, "over_limit")


def ensure_covered(policy: dict, claim: ClaimIn) -> None:
    if claim.incident_at < datetime.fromisoformat(policy["starts_on"] + "T00:00:00+00:00"):
        raise Failure(409, "not_covered")


def visible_claim(claim_id: int, name: str) -> dict:
    claim = CLAIMS.get(claim_id)
    if claim is None or (ROLES[name] == "holder" and claim["holder"] != name):
        raise Failure(404, "unknown_claim")
    return claim


def editable_claim(claim_id: int, name: str) -> dict:
    claim = visible_claim(claim_id, name)
    if claim["status"] != "submitted":
        raise Failure(409, "claim_locked")
    return claim


def payout(claim: dict) -> int:
    return max(claim["amount_cents"] - POLICIES[claim["policy"]]["deductible_cents"], 0)


@app.post("/claims", status_code=201)
def create_claim(name: Holder, claim: ClaimBody, response: Response):
    policy = POLICIES.get(claim.policy)
    if policy is None or policy["holder"] != name:
        raise Failure(404, "unknown_policy")
    for check in (${claim_checks}):
        check(policy, claim)
    ensure_covered(policy, claim)
    record = {"id": new_id(), "policy": policy["number"], "holder": name, "kind": claim.kind,
              "amount_cents": claim.amount_cents, "incident_at": utc_text(claim.incident_at),
              "description": claim.description, "reference": claim.reference,
              "status": "submitted", "adjuster": None, "payout_cents": None}
    CLAIMS[record["id"]] = record
    response.headers["Location"] = f"/claims/{record['id']}"
    return record


@app.api_route("/claims", methods=["GET", "HEAD"])
def list_claims(name: Caller, response: Response,
                status: Annotated[list[Status] | None, Query()] = None,
                limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
                offset: Annotated[int, Query(ge=0)] = 0):
    shown = [c for c in sorted(CLAIMS.values(), key=lambda c: c["id"])
             if (ROLES[name] != "holder" or c["holder"] == name)
             and (not status or c["status"] in status)]
    response.headers["X-Total-Count"] = str(len(shown))
    return shown[offset:offset + limit]


@app.api_route("/claims/{claim_id}", methods=["GET", "HEAD"])
def read_claim(claim_id: int, name: Caller):
    return visible_claim(claim_id, name)


@app.patch("/claims/{claim_id}")
def edit_claim(claim_id: int, name: Holder, change: PatchBody):
    claim = editable_claim(claim_id, name)
    claim.update(change.model_dump(include=change.model_fields_set))
    return claim


@app.delete("/claims/{claim_id}", status_code=204)
def withdraw_claim(claim_id: int, name: Holder):
    editable_claim(claim_id, name)
    del CLAIMS[claim_id]


@app.post("/claims/{claim_id}/assign")
def assign_claim(claim_id: int, name: Manager, assignment: AssignBody):
    claim = visible_claim(claim_id, name)
    if ROLES.get(assignment.adjuster) != "adjuster":
        raise Failure(404, "unknown_adjuster")
    if claim["status"] != "submitted":
        raise Failure(409, "not_assignable")
    claim.update(status="in_review", adjuster=assignment.adjuster)
    return claim


@app.post("/claims/{claim_id}/decision")
def decide_claim(claim_id: int, name: Adjuster, decision: DecisionBody):
    claim = visible_claim(claim_id, name)
    if claim["adjuster"] != name:
        raise Failure(403, "not_assigned")
    if claim["status"] != "in_review":
        raise Failure(409, "not_in_review")
    claim["status"] = decision.outcome
    claim["payout_cents"] = payout(claim) if decision.outcome == "approved" else 0
    return claim


@app.api_route("/policies", methods=["GET", "HEAD"])
def list_policies(name: Caller, active: Literal["true", "false"] | None = None):
    wanted = None if active is None else active == "true"
    return [p for p in sorted(POLICIES.values(), key=lambda p: p["number"])
            if (ROLES[name] != "holder" or p["holder"] == name)
            and (wanted is None or p["active"] == wanted)]


@app.api_route("/reports/summary", methods=["GET", "HEAD"])
def summary(name: Manager):
    by_status = {s: sum(c["status"] == s for c in CLAIMS.values()) for s in STATUSES}
    paid = sum(c["payout_cents"] for c in CLAIMS.values() if c["status"] == "approved")
    return {"by_status": by_status, "paid_cents": paid}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
h1 = {"Authorization": "Bearer ${t_h1}"}
result = [
    row(client.post("/claims", json={"policy": ${shown_policy__json}, "kind": "${shown_kind}",
                                     "amount_cents": ${shown_amount},
                                     "incident_at": "${shown_at}",
                                     "description": "  Rear bumper  "}, headers=h1)),
    row(client.get("/claims/1", headers=h1)),
    row(client.get("/policies", headers=h1)),
]
'''

PROBES = '''\
import json

''' + ROW_HELPERS + '''
H1, H2 = _bearer("${t_h1}"), _bearer("${t_h2}")
A1, A2, M = _bearer("${t_a1}"), _bearer("${t_a2}"), _bearer("${t_m}")
HOLDER, STAFF = H1, M
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
LIMIT1, DED1, LIMIT2 = ${limit1}, ${ded1}, ${limit2}
CREATE_PATH = "/claims"
CREATE_BODY = {"policy": "P-1001", "kind": "theft", "amount_cents": 5000,
               "incident_at": "2026-05-01T12:00:00Z", "description": "bike stolen"}


def _create_body():
    return CREATE_BODY


def _claim(client, who=H1, **changes):
    body = CREATE_BODY | {"policy": "P-1001" if who == H1 else "P-1002"} | changes
    return client.post("/claims", json=body, headers=who)


def _some_id(client):
    return _claim(client).json()["id"]


def _review(client, claim_id, adjuster="${a1}"):
    return client.post(f"/claims/{claim_id}/assign", json={"adjuster": adjuster}, headers=M)


def _decide(client, claim_id, outcome, who=A1):
    return client.post(f"/claims/{claim_id}/decision", json={"outcome": outcome}, headers=who)


def _shown(claim):
    return {k: v for k, v in claim.items() if k != "id"}
''' + listed_ids_helper("/claims") + plumbing_probes(
    exact=[("GET", "/claims/"), ("POST", "/claims/"), ("GET", "/policies/"),
           ("DELETE", "/claims/1/")],
    methods=[("PUT", "/claims"), ("DELETE", "/claims"), ("PUT", "/claims/1"),
             ("POST", "/claims/1"), ("GET", "/claims/1/assign"), ("PATCH", "/policies"),
             ("DELETE", "/reports/summary")],
    heads=["/policies", "/claims", "/claims/{id}", "/reports/summary"],
    bodies=[("POST", "/claims"), ("PATCH", "/claims/{id}"), ("POST", "/claims/{id}/assign"),
            ("POST", "/claims/{id}/decision")],
    callers="STAFF, HOLDER, A1") + '''

def probe_summary(client):
    # First of the family's probes: before them no claim is in review or decided.
    before = client.get("/reports/summary", headers=M).json()
    made = [_claim(client, H2, amount_cents=DED1 + 100 * k).json()["id"] for k in (1, 2, 3)]
    for claim_id in made:
        _review(client, claim_id, "${a2}")
    _decide(client, made[0], "approved", A2)
    _decide(client, made[1], "denied", A2)
    after = client.get("/reports/summary", headers=M).json()
    return [[sorted(after), sorted(before["by_status"]), sorted(after["by_status"])],
            [{s: after["by_status"][s] - before["by_status"].get(s, 0) for s in after["by_status"]}],
            [after["paid_cents"] - before["paid_cents"]]]



def probe_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer"},
                    {"Authorization": "Bearer nope"}, _bearer("${h1}"),
                    _bearer("${t_h1}".upper()), {"Authorization": "bearer ${t_h1}"},
                    {"Authorization": "BEARER ${t_h1}"}, {"Authorization": "Basic ${t_h1}"},
                    {"Authorization": "${t_h1}"}]:
        r = client.get("/policies", headers=headers)
        rows.append([headers.get("Authorization"), r.status_code, r.headers.get("www-authenticate"),
                     r.json() if r.status_code != 200 else len(r.json())])
    for method, path in [("POST", "/claims"), ("GET", "/claims"), ("GET", "/claims/abc"),
                         ("PATCH", "/claims/1"), ("DELETE", "/claims/1"),
                         ("POST", "/claims/1/assign"), ("POST", "/claims/1/decision"),
                         ("GET", "/reports/summary")]:
        r = client.request(method, path, json={}, headers={"Authorization": "Bearer ${h1}"})
        rows.append([method, path, _code(r), r.headers.get("www-authenticate")])
    return rows


def probe_roles(client):
    rows = []
    for who in (H1, A1, M):
        rows += [_code(client.post("/claims", json={}, headers=who)),
                 _code(client.patch("/claims/99999", json={}, headers=who)),
                 _code(client.delete("/claims/99999", headers=who)),
                 _code(client.post("/claims/99999/assign", json={}, headers=who)),
                 _code(client.post("/claims/99999/decision", json={}, headers=who)),
                 _code(client.get("/reports/summary", headers=who))]
    return rows


def probe_error_format(client):
    return [_row(client.get("/nowhere", headers=H1)), _row(client.get("/claims/abc", headers=H1)),
            _row(client.post("/claims", json={"kind": "fire", "amount_cents": 0, "colour": 1},
                             headers=H1)),
            _row(client.post("/claims", json=[1], headers=H1)),
            _row(client.post("/claims", headers=H1)),
            _row(client.get("/claims", params={"limit": "ten", "offset": "-"}, headers=M))]


def probe_claim_create(client):
    r = _claim(client, H1, reference=None, description="  hail on roof ")
    claim = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/claims/{claim['id']}", _shown(claim)]]
    r = _claim(client, H2, reference=" RX-7 ")
    rows.append([r.status_code, _shown(r.json())])
    rows += [_code(_claim(client, H2, policy="P-1001")), _code(_claim(client, H1, policy="P-1002")),
             _code(_claim(client, H1, policy="P-9999"))]
    r = _claim(client, H1, description="d" * ${description_max})
    rows += [[r.status_code, len(r.json().get("description", ""))],
             _code(_claim(client, H1, description="d" * (${description_max} + 1))),
             _code(_claim(client, H1, description="   ")),
             _code(_claim(client, H1, reference=""))]
    return rows


def probe_policy_number(client):
    rows = []
    for number in [" p-1001 ", "p-1001", "P-1001", "P-1001 ", "p1001", "P-10011", "PX-1001", "",
                   1001]:
        r = _claim(client, H1, policy=number)
        rows.append([number, _code(r) if r.status_code != 201 else [201, r.json()["policy"]]])
    return rows


def probe_amount_integers(client):
    rows = []
    for amount in [1500, 1, 0, -20, True, "1500", 1500.0, 1500.5, None]:
        r = _claim(client, H1, amount_cents=amount)
        rows.append([amount, _code(r) if r.status_code != 201 else
                     [201, r.json()["amount_cents"], type(r.json()["amount_cents"]).__name__]])
    return rows


def probe_incident_input(client):
    rows = []
    for moment in ["2026-05-01T10:00:00+05:30", "2026-05-01T10:00:00", "2026-05-01",
                   1777000000, "soon", None]:
        r = _claim(client, H1, incident_at=moment)
        rows.append([moment, r.status_code, r.json().get("fields", r.json().get("incident_at"))])
    return rows


def probe_incident_utc(client):
    rows = []
    for moment in ["2026-05-02T01:30:00+02:00", "2026-05-01T20:15:00-05:00",
                   "2026-05-03T08:00:00Z", "2026-05-03T08:00:00+00:00"]:
        created = _claim(client, H1, incident_at=moment).json()
        read = client.get(f"/claims/{created['id']}", headers=A2).json()
        rows.append([moment, created["incident_at"], read["incident_at"]])
    return rows


def probe_claim_checks(client):
    over = LIMIT2 + 1
    return [
        ["lapsed and over", _code(_claim(client, H1, policy="P-1003", amount_cents=over))],
        ["lapsed", _code(_claim(client, H1, policy="P-1003"))],
        ["over", _code(_claim(client, H1, amount_cents=LIMIT1 + 1))],
        ["at limit", _claim(client, H1, amount_cents=LIMIT1).status_code],
        ["before start", _code(_claim(client, H1, incident_at="${before_start}"))],
        ["at start", _claim(client, H1, incident_at="${at_start}").status_code],
        ["foreign and lapsed", _code(_claim(client, H2, policy="P-1003", amount_cents=over))],
        ["lapsed, over, before", _code(_claim(client, H1, policy="P-1003", amount_cents=over,
                                              incident_at="2020-01-01T00:00:00Z"))],
    ]


def probe_claim_visibility(client):
    mine, theirs = _claim(client, H1).json()["id"], _claim(client, H2).json()["id"]
    rows = []
    for label, who in [("h1", H1), ("h2", H2), ("a2", A2), ("m", M)]:
        ids = _ids(client, who)
        rows.append([label, mine in ids, theirs in ids,
                     _code(client.get(f"/claims/{mine}", headers=who))[0],
                     _code(client.get(f"/claims/{theirs}", headers=who))[0]])
    rows.append(_code(client.get("/claims/99999", headers=M)))
    return rows


def probe_status_filter(client):
    made = [_claim(client, H2).json()["id"] for _ in range(4)]
    for claim_id in made[1:]:
        _review(client, claim_id)
    _decide(client, made[2], "approved")
    _decide(client, made[3], "denied")
    rows = [[query, [made.index(i) for i in _ids(client, H2, params) if i in made]]
            for query, params in [
                ("none", {}), ("submitted", {"status": "submitted"}),
                ("approved+denied", {"status": ["approved", "denied"]}),
                ("in_review+submitted", {"status": ["in_review", "submitted"]})]]
    rows.append(_code(client.get("/claims", params={"status": ["approved", "paid"]}, headers=H2)))
    return rows


def probe_pagination(client):
    for _ in range(LIMIT_DEFAULT + 2):
        _claim(client, H2)
    total = int(client.get("/claims", headers=H2).headers["x-total-count"])
    rows = []
    for params in [{}, {"limit": 1}, {"limit": LIMIT_MAX}, {"offset": total - 1},
                   {"offset": total}, {"offset": total + 5, "limit": 2}]:
        r = client.get("/claims", params=params, headers=H2)
        rows.append([params, r.status_code, len(r.json()),
                     r.headers.get("x-total-count") == str(total)])
    ids = [c["id"] for c in client.get("/claims", params={"offset": total - 3}, headers=H2).json()]
    rows.append([ids == sorted(ids), len(ids)])
    for params in [{"limit": 0}, {"limit": LIMIT_MAX + 1}, {"offset": -1}, {"limit": -1, "offset": -1}]:
        rows.append([params, _code(client.get("/claims", params=params, headers=H2))])
    return rows


def probe_partial_edit(client):
    claim_id = _claim(client, H1, reference="REF-1").json()["id"]
    rows = []
    for change in [{"description": "  water under sink "}, {"reference": "  NEW-2 "},
                   {"reference": None}, {"description": "final"}, {"description": None},
                   {"reference": ""}, {}, {"description": "x", "colour": "red"},
                   {"description": "d" * (${description_max} + 1)}]:
        r = client.patch(f"/claims/{claim_id}", json=change, headers=H1)
        body = r.json()
        rows.append([change, r.status_code, body.get("fields", [body.get("description"),
                                                                body.get("reference")])])
    return rows


def probe_edit_rules(client):
    claim_id = _claim(client, H1).json()["id"]
    rows = [_code(client.patch(f"/claims/{claim_id}", json={"description": "x"}, headers=H2)),
            _code(client.patch("/claims/99999", json={"description": "x"}, headers=H1))]
    _review(client, claim_id)
    rows += [_code(client.patch(f"/claims/{claim_id}", json={"description": "x"}, headers=H1)),
             _code(client.patch(f"/claims/{claim_id}", json={}, headers=H1)),
             [client.get(f"/claims/{claim_id}", headers=H1).json()["description"]]]
    return rows


def probe_withdraw(client):
    first = _claim(client, H1).json()["id"]
    r = client.delete(f"/claims/{first}", headers=H1)
    rows = [[r.status_code, r.content == b""],
            _code(client.get(f"/claims/{first}", headers=H1)),
            _code(client.delete(f"/claims/{first}", headers=H1))]
    second = _claim(client, H1).json()["id"]
    rows.append(["new id", second > first])
    rows.append(_code(client.delete(f"/claims/{second}", headers=H2)))
    _review(client, second)
    rows.append(_code(client.delete(f"/claims/{second}", headers=H1)))
    return rows


def probe_assign(client):
    claim_id = _claim(client, H1).json()["id"]
    rows = [_code(client.post("/claims/99999/assign", json={"adjuster": "${a1}"}, headers=M)),
            _code(_review(client, claim_id, "${a1}".upper())),
            _code(_review(client, claim_id, "${m}")), _code(_review(client, claim_id, "${h1}")),
            _code(client.post(f"/claims/{claim_id}/assign", json={}, headers=M))]
    r = _review(client, claim_id, "${a2}")
    rows.append([r.status_code, r.json()["status"], r.json()["adjuster"]])
    rows += [_code(_review(client, claim_id, "${a1}")), _code(_review(client, claim_id, "nobody")),
             [client.get(f"/claims/{claim_id}", headers=H1).json()["adjuster"]]]
    return rows


def probe_decision(client):
    small = _claim(client, H1, amount_cents=DED1 - 1).json()["id"]
    big = _claim(client, H1, amount_cents=DED1 + 777).json()["id"]
    exact = _claim(client, H1, amount_cents=DED1).json()["id"]
    denied = _claim(client, H1).json()["id"]
    rows = [_code(_decide(client, small, "approved")), _code(_decide(client, 99999, "approved"))]
    for claim_id in (small, big, exact, denied):
        _review(client, claim_id)
    rows += [_code(_decide(client, big, "approved", A2)),
             _code(_decide(client, big, "paid"))]
    for claim_id, outcome in [(small, "approved"), (big, "approved"), (exact, "approved"),
                              (denied, "denied")]:
        r = _decide(client, claim_id, outcome)
        rows.append([r.status_code, r.json()["status"], r.json()["payout_cents"]])
    rows += [_code(_decide(client, big, "denied")),
             [client.get(f"/claims/{big}", headers=H1).json()["payout_cents"]]]
    return rows


def probe_policies(client):
    rows = []
    for who in (H1, H2, A1):
        r = client.get("/policies", headers=who)
        rows.append([r.status_code, r.json()])
    for value in ["true", "false", "yes", "1", "TRUE", "True", "on", ""]:
        r = client.get("/policies", params={"active": value}, headers=M)
        rows.append([value, r.status_code, [p["number"] for p in r.json()]
                     if r.status_code == 200 else r.json()])
    return rows

'''


PROMPT = '''\
Build the HTTP API of an insurer's claims desk. All state is in memory. Policies are fixed (the
table below); there are no claims at the start, and claim ids are 1, 2, ... in creation order,
never reused (a withdrawn claim's id is not given again).

''' + ACCESS_AND_ERRORS + '''
## Policies
`{"number", "holder", "active", "starts_on", "limit_cents", "deductible_cents"}`:

${policy_table}

- `GET /policies` (anyone): 200, sorted by number: a holder's own policies, everyone's for
  adjusters and the manager. The optional query parameter `active` is exactly `true` or `false`
  (any other value, `1`, `yes` or `True` included, is invalid) and keeps the policies with that
  `active`.

## Claims
`{"id", "policy", "holder", "kind", "amount_cents", "incident_at", "description", "reference",
"status", "adjuster", "payout_cents"}`; status `submitted`, `in_review`, `approved` or
`denied`; `adjuster` and `payout_cents` are null until set.

Claim bodies, fields:
- `policy`: a string; it is trimmed and upper-cased, and the result must be `P-` and four
  digits (` p-1001 ` is `P-1001`);
- `kind`: `collision`, `theft` or `water`;
- `amount_cents`: a JSON integer, at least 1 (`"1500"`, `1500.0` and `true` are invalid);
- `incident_at`: a string, an ISO 8601 date-time with a UTC offset or `Z` (a date-time without
  one, a bare date and numbers are invalid); the claim shows it converted to UTC, as
  `YYYY-MM-DDTHH:MM:SSZ` (`2026-05-02T01:30:00+02:00` is shown `2026-05-01T23:30:00Z`);
- `description`: a string, trimmed, then 1-${description_max} characters;
- `reference`: optional, a string trimmed then 1-40 characters, or null (the default).

Routes:
- `POST /claims` (holder) with a claim body: 404 `unknown_policy` when no policy has that number
  or it is another holder's; then ${first_check}; then ${second_check}; then 409 `not_covered`
  when the incident is before the policy's start (`starts_on` at 00:00 UTC). (409
  `policy_lapsed`: the policy is not active; 409 `over_limit`: the amount is above its
  `limit_cents`.) Else 201 with the claim (status `submitted`, `holder` the caller) and
  `Location: /claims/<id>`.
- `GET /claims` (anyone): 200, sorted by id: a holder's own claims, everyone's for adjusters and
  the manager. Query parameters: `status`, repeatable (`?status=approved&status=denied` keeps
  both; each must be one of the four statuses), `limit` 1-${limit_max} (default
  ${limit_default}) and `offset` >= 0 (default 0). The header `X-Total-Count` is the number of
  claims matching before `limit` and `offset` apply.
- `GET /claims/{claim_id}` (anyone): 200 with the claim; 404 `unknown_claim` when there is none
  or, for a holder, it is another holder's.
- `PATCH /claims/{claim_id}` (holder) with a JSON object of `description` and/or `reference`
  (same rules as above): an absent field is unchanged; `"reference": null` clears the
  reference; `"description": null` is invalid, and so is `{}`. 404 `unknown_claim` (missing or
  another holder's); then 409 `claim_locked` unless the claim is `submitted`. Else 200 with the
  claim.
- `DELETE /claims/{claim_id}` (holder): withdraws it (it is gone): the same 404 and 409 as
  `PATCH`; else 204 with no body.
- `POST /claims/{claim_id}/assign` (manager) `{"adjuster": "<name>"}`: 404 `unknown_claim`; then
  404 `unknown_adjuster` unless the name is exactly an adjuster's; then 409 `not_assignable`
  unless the claim is `submitted`. Else 200 with the claim, now `in_review` with that adjuster.
- `POST /claims/{claim_id}/decision` (adjuster) `{"outcome": "approved" | "denied"}`: 404
  `unknown_claim`; then 403 `not_assigned` unless the caller is the claim's adjuster; then 409
  `not_in_review` unless it is `in_review`. Else 200 with the claim: its status is the outcome,
  and `payout_cents` is the amount minus the policy's deductible, never below 0, when approved,
  and 0 when denied.
- `GET /reports/summary` (manager): 200 `{"by_status": {<each of the four statuses>: <number of
  claims>}, "paid_cents": <sum of the payouts of approved claims>}` (every status present).

## result
One row per request, `[status code, JSON body]`, each as `${h1}`:
1. `POST /claims` with `{"policy": ${shown_policy__json}, "kind": "${shown_kind}",
   "amount_cents": ${shown_amount}, "incident_at": "${shown_at}", "description": "  Rear
   bumper  "}`
2. `GET /claims/1`
3. `GET /policies`
'''


def _derive(p):
    people = token_table(p, {"h1": "holder", "h2": "holder", "a1": "adjuster",
                             "a2": "adjuster", "m": "manager"})
    policies = [["P-1001", p["h1"], True, p["start1"], p["limit1"], p["ded1"]],
                ["P-1002", p["h2"], True, "2026-02-01", p["limit2"], p["ded2"]],
                ["P-1003", p["h1"], False, "2025-06-01", p["limit2"], p["ded2"]],
                ["P-2004", p["h2"], False, "2024-03-15", p["limit1"], p["ded1"]]]
    table = "\n".join(["| number | holder | active | starts_on | limit_cents | deductible_cents |",
                       "|---|---|---|---|---|---|"]
                      + [f"| `{n}` | `{h}` | {str(a).lower()} | {s} | {lim} | {d} |"
                         for n, h, a, s, lim, d in policies])
    order = p["claim_order"].split(",")
    codes = {"lapsed": "409 `policy_lapsed`", "over": "409 `over_limit`"}
    functions = {"lapsed": "ensure_active", "over": "ensure_within_limit"}
    return people | {
        "policies": policies, "policy_table": table,
        # Just before the start in UTC, though on the start date locally; and at the start.
        "before_start": f"{p['start1']}T01:30:00+02:00", "at_start": f"{p['start1']}T00:00:00Z",
        "claim_checks": ", ".join(functions[k] for k in order) + ",",
        "first_check": codes[order[0]], "second_check": codes[order[1]]}


PLUMBING = plumbing_traps(
    first_get='@app.api_route("/policies", methods=["GET", "HEAD"])',
    body_param="def create_claim(name: Holder, claim: ClaimBody, response: Response):",
    plain_param="def create_claim(name: Holder, claim: ClaimIn, response: Response):")

REQUIREMENTS = plumbing_requirements(
    PLUMBING,
    token_trap=Edit("names accepted as tokens",
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n",
                    "    token = {v: k for k, v in TOKENS.items()}.get(token, token)\n"
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n"),
    role_traps=(Edit("role checked after the body",
                     "def assign_claim(claim_id: int, name: Manager, assignment: AssignBody):",
                     "def assign_claim(claim_id: int, assignment: AssignBody, name: Manager):"),
                Edit("adjusters act as managers", 'Manager = role("manager")', 'Manager = role("manager", "adjuster")')),
) + (
    Requirement("`POST /claims` answers 201 with the claim and `Location`; another holder's or "
                "an unknown policy is 404 `unknown_policy`; texts are trimmed and bounded.",
                probes=("claim_create",),
                traps=(Edit("no Location for claims",
                            "    response.headers[\"Location\"] = f\"/claims/{record['id']}\"\n", ""),
                       Edit("another holder's policy accepted",
                            '    if policy is None or policy["holder"] != name:',
                            "    if policy is None:"))),
    Requirement("Policy numbers are trimmed and upper-cased before they must be `P-` and four "
                "digits.",
                probes=("policy_number",),
                traps=pattern_checked_before_case("policy", "to_upper", "^P-[0-9]{4}$$")),
    Requirement("`amount_cents` is a JSON integer of at least 1: strings, floats and booleans are "
                "invalid.",
                probes=("amount_integers",),
                traps=(lax_integers("amount_cents: StrictInt = Field(ge=1)"),
                       Edit("zero amount allowed", "amount_cents: StrictInt = Field(ge=1)",
                            "amount_cents: StrictInt = Field(ge=0)"))),
    Requirement("`incident_at` is an ISO 8601 string with an offset: naive date-times, dates and "
                "numbers are invalid.",
                probes=("incident_input",),
                traps=(Edit("numbers taken as Unix seconds", "        return iso_text_only(value)\n",
                            "        return value\n"),
                       Edit("naive date-times accepted", "    incident_at: AwareDatetime\n",
                            "    incident_at: datetime\n"))),
    Requirement("A claim shows `incident_at` converted to UTC as `YYYY-MM-DDTHH:MM:SSZ`.",
                probes=("incident_utc",),
                traps=(Edit("incident shown as sent", '"incident_at": utc_text(claim.incident_at)',
                            '"incident_at": claim.incident_at.isoformat()'),
                       Edit("UTC shown as +00:00", '"incident_at": utc_text(claim.incident_at)',
                            '"incident_at": claim.incident_at.astimezone(timezone.utc).isoformat()'))),
    Requirement("`POST /claims` refuses ${first_check}, then ${second_check}, then 409 "
                "`not_covered` for an incident before the start in UTC.",
                probes=("claim_checks",),
                traps=(Edit("claim checks swapped", "    for check in (${claim_checks}):",
                            "    for check in reversed((${claim_checks})):"),
                       Edit("start compared with the local date",
                            'if claim.incident_at < datetime.fromisoformat(policy["starts_on"] + "T00:00:00+00:00"):',
                            'if claim.incident_at.date().isoformat() < policy["starts_on"]:'))),
    Requirement("Holders see only their own claims (404 `unknown_claim` otherwise); staff see "
                "all.",
                probes=("claim_visibility",),
                traps=(Edit("holders list every claim",
                            '             if (ROLES[name] != "holder" or c["holder"] == name)\n'
                            '             and (not status',
                            '             if (not status'),
                       Edit("holders read every claim",
                            '    if claim is None or (ROLES[name] == "holder" and claim["holder"] != name):',
                            "    if claim is None:"))),
    Requirement("`GET /claims` keeps the claims of any of the repeated `status` values.",
                probes=("status_filter",),
                traps=repeated_filter_traps(
                    "status: Annotated[list[Status] | None, Query()] = None,", "status", "Status")),
    paging_requirement(),
    Requirement("`PATCH` changes only the fields sent; a null reference clears it; a null "
                "description and `{}` are invalid.",
                probes=("partial_edit",),
                traps=(null_fields_ignored("claim"),
                       empty_edits_accepted())),
    Requirement("Only the claim's holder edits it (404 otherwise), and only while `submitted` "
                "(409 `claim_locked`).",
                probes=("edit_rules",),
                traps=(Edit("edits after submission",
                            "    claim = editable_claim(claim_id, name)\n    claim.update(",
                            "    claim = visible_claim(claim_id, name)\n    claim.update("),)),
    Requirement("`DELETE` withdraws a submitted claim: 204 with no body; it is gone; ids are never "
                "reused.",
                probes=("withdraw",),
                traps=(Edit("withdrawal answers 200",
                            '@app.delete("/claims/{claim_id}", status_code=204)',
                            '@app.delete("/claims/{claim_id}")'),
                       Edit("ids reused", '    NEXT_ID["claim"] += 1\n    return NEXT_ID["claim"] - 1',
                            "    return max(CLAIMS, default=0) + 1"))),
    Requirement("Assigning needs an exact adjuster name (404 `unknown_adjuster`) and a submitted "
                "claim (409 `not_assignable`).",
                probes=("assign",),
                traps=(Edit("any person assignable",
                            'if ROLES.get(assignment.adjuster) != "adjuster":',
                            "if assignment.adjuster not in ROLES:"),
                       Edit("claims reassigned",
                            '    if claim["status"] != "submitted":\n'
                            '        raise Failure(409, "not_assignable")\n', ""))),
    Requirement("Decisions: 403 `not_assigned`, then 409 `not_in_review`; payout is the amount "
                "less the deductible, at least 0, and 0 when denied.",
                probes=("decision",),
                traps=(Edit("payout below zero",
                            'return max(claim["amount_cents"] - POLICIES[claim["policy"]]["deductible_cents"], 0)',
                            'return claim["amount_cents"] - POLICIES[claim["policy"]]["deductible_cents"]'),
                       Edit("denied payout null",
                            'payout(claim) if decision.outcome == "approved" else 0',
                            'payout(claim) if decision.outcome == "approved" else None'),
                       Edit("review checked before the adjuster",
                            '    if claim["adjuster"] != name:\n'
                            '        raise Failure(403, "not_assigned")\n'
                            '    if claim["status"] != "in_review":\n'
                            '        raise Failure(409, "not_in_review")\n',
                            '    if claim["status"] != "in_review":\n'
                            '        raise Failure(409, "not_in_review")\n'
                            '    if claim["adjuster"] != name:\n'
                            '        raise Failure(403, "not_assigned")\n'))),
    Requirement("`GET /policies` lists a holder's own policies (all for staff) by number; "
                "`active` is exactly `true` or `false`.",
                probes=("policies",),
                traps=(Edit("active as a lenient boolean",
                            'active: Literal["true", "false"] | None = None):\n'
                            '    wanted = None if active is None else active == "true"',
                            "active: bool | None = None):\n    wanted = active"),
                       Edit("holders list every policy",
                            '            if (ROLES[name] != "holder" or p["holder"] == name)\n'
                            "            and (wanted",
                            "            if (wanted"))),
    Requirement("The summary counts claims under every status and sums approved payouts.",
                probes=("summary",),
                traps=(Edit("statuses without claims left out",
                            'by_status = {s: sum(c["status"] == s for c in CLAIMS.values()) for s in STATUSES}',
                            'by_status = {s: sum(c["status"] == s for c in CLAIMS.values()) for s in STATUSES\n'
                            '                 if any(c["status"] == s for c in CLAIMS.values())}'),
                       Edit("amounts summed instead of payouts",
                            'paid = sum(c["payout_cents"] for c',
                            'paid = sum(c["amount_cents"] for c'))),
)


FAMILY = Family(
    id="service/insurance_claims",
    title="An insurer's claims desk from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"h1": "hana", "h2": "omar", "a1": "ada", "a2": "ben", "m": "mia", "tp": "tk-",
              "invalid_status": 422, "limit_max": 50, "limit_default": 10,
              "limit1": 500000, "ded1": 25000, "limit2": 200000, "ded2": 10000,
              "start1": "2026-01-01", "claim_order": "lapsed,over", "description_max": 200,
              "shown_policy": " p-1001", "shown_kind": "collision", "shown_amount": 120000,
              "shown_at": "2026-03-04T09:15:00+02:00"},
    space={
        # Tokens never show in a response: their prefix varies with the names, which do.
        "people": [{"h1": "hana", "h2": "omar", "a1": "ada", "a2": "ben", "m": "mia", "tp": "tk-"},
                   {"h1": "lena", "h2": "paul", "a1": "cruz", "a2": "dina", "m": "vera",
                    "tp": "ins."}],
        "invalid_status": [422, 400],
        "pages": [{"limit_max": 50, "limit_default": 10}, {"limit_max": 20, "limit_default": 5}],
        "cover": [{"limit1": 500000, "ded1": 25000, "limit2": 200000, "ded2": 10000,
                   "start1": "2026-01-01"},
                  {"limit1": 300000, "ded1": 50000, "limit2": 150000, "ded2": 5000,
                   "start1": "2026-01-10"}],
        "claim_order": ["lapsed,over", "over,lapsed"],
        "description_max": [200, 120],
        "shown": [{"shown_policy": " p-1001", "shown_kind": "collision", "shown_amount": 120000,
                   "shown_at": "2026-03-04T09:15:00+02:00"},
                  {"shown_policy": "P-1001 ", "shown_kind": "water", "shown_amount": 90000,
                   "shown_at": "2026-02-28T22:40:00-03:00"}],
    },
    derive=_derive,
    instances=12,
    requirements=REQUIREMENTS,
)
