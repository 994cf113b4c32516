"""Service tier: a community garden's plot office specified like a product document (11 routes:
API keys with two roles, the garden's documents served at `/docs`, plots with strict integers
and decimal fees, sorting that refuses a repeated `sort`, offset pagination with a total,
leases over calendar dates with a length bound, an overlap rule, a per-gardener limit, and one
`{"error": {...}}` format for every failure, the router's own 404/405 included).

Pitfall density: several stated behaviours are where the natural FastAPI 0.165 / Pydantic 2.14
implementation is silently wrong (each verified on the pins): Swagger UI owns `GET /docs`
unless the docs are moved; Starlette's 405 `Allow` names only the first matching route's
methods; a `Decimal` is written as a JSON string by Pydantic (and a whole one as an integer by
`jsonable_encoder`); Pydantic's `date` takes midnight date-times and timestamps; a scalar query
parameter silently takes the last of repeated values; `APIKeyHeader(auto_error=False)` turns an
empty header into a missing one; trailing slashes redirect; `/openapi.json` is served.

The parameters change what a correct app answers: the members, the documents, the validation
status, the fee and area bounds, the page sizes, the longest lease, the lease limit, which of
two lease refusals wins, and the fee period."""

from datetime import date, timedelta

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
    ids_reused,
    other_validation_status,
    router_errors_in_fastapi_format,
)

REFERENCE = '''\
import math
import re
from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

# API key -> member
MEMBERS = {key: {"name": name, "role": role} for name, key, role in ${members__repr}}
DOCS = {slug: {"slug": slug, "title": title, "text": text} for slug, title, text in ${docs__repr}}
PLOTS: dict[int, dict] = {}
LEASES: dict[int, dict] = {}
NEXT = {"plot": 1, "lease": 1}
INVALID_STATUS = ${invalid_status}
METHOD_ORDER = ["GET", "POST", "PATCH", "DELETE"]
PERIOD_DAYS = ${period_days}

# the service's own /docs route: FastAPI's interactive docs would answer it first
app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, redirect_slashes=False)


''' + late_body.ROUTE_CLASS + '''

''' + REFUSALS + '''

def served_methods(request: Request) -> str:
    # Starlette's Allow names only the first matching route's methods
    methods = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(m for m in METHOD_ORDER if m in methods)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    if exc.status_code == 405:
        return error_body(405, "method_not_allowed", {"Allow": served_methods(request)})
    return error_body(exc.status_code, "no_route", exc.headers)


''' + INVALID_INPUT + '''

def calendar_text(value):
    # only the text YYYY-MM-DD: Pydantic's date also takes midnight datetimes and timestamps
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a date written YYYY-MM-DD")
    return value


def ascii_number(value):
    # Decimal would also read "1_0" and digits of other scripts ("١٢") in a string
    if isinstance(value, str) and (not value.isascii() or "_" in value):
        raise ValueError("a number in ASCII digits")
    return value


Day = Annotated[date, BeforeValidator(calendar_text)]
Fee = Annotated[Decimal, BeforeValidator(ascii_number), Field(gt=0, le=${fee_max}, decimal_places=2)]
Area = Annotated[StrictInt, Field(ge=${area_min}, le=${area_max})]
Bed = Literal["ground", "raised", "greenhouse"]
SortKey = Literal["number", "-number", "fee", "-fee"]


class PlotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: Annotated[StrictInt, Field(ge=1, le=999)]
    bed: Bed
    area_m2: Area
    fee: Fee


class PlotChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bed: Bed = None
    area_m2: Area = None
    fee: Fee = None


class LeaseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: Day
    end: Day

    @field_validator("end")
    @classmethod
    def sensible_range(cls, end: date, info):
        start = info.data.get("start")
        if start is not None and not 0 <= (end - start).days < ${max_days}:
            raise ValueError("the end is on or after the start, within ${max_days} days")
        return end


def member(x_api_key: Annotated[str | None, Header()] = None) -> dict:
    if x_api_key is None:
        raise Refusal(401, "key_missing", {"WWW-Authenticate": "ApiKey"})
    if x_api_key not in MEMBERS:  # an empty key is a wrong key, not a missing one
        raise Refusal(401, "key_invalid", {"WWW-Authenticate": "ApiKey"})
    return MEMBERS[x_api_key]


''' + roles_block('member', 'AnyMember', {'Manager': 'manager', 'Gardener': 'gardener'}) + '''

def find_plot(plot_id: int) -> dict:
    if plot_id not in PLOTS:
        raise Refusal(404, "plot_not_found")
    return PLOTS[plot_id]


def leases_of(plot: dict) -> list[dict]:
    return [lease for lease in LEASES.values() if lease["plot_id"] == plot["id"]]


def plot_out(plot: dict) -> dict:
    return {"id": plot["id"], "number": plot["number"], "bed": plot["bed"],
            "area_m2": plot["area_m2"], "fee": float(plot["fee"]),
            "leased": bool(leases_of(plot))}


def lease_out(lease: dict) -> dict:
    return {"id": lease["id"], "plot_id": lease["plot_id"], "gardener": lease["gardener"],
            "start": lease["start"].isoformat(), "end": lease["end"].isoformat(),
            "total_fee": float(lease["total_fee"])}


@app.get("/me")
def me(user: AnyMember):
    return user


@app.get("/docs")
def list_docs(user: AnyMember):
    return [{"slug": d["slug"], "title": d["title"]} for _, d in sorted(DOCS.items())]


@app.get("/docs/{slug}")
def read_doc(slug: str, user: AnyMember):
    if slug not in DOCS:
        raise Refusal(404, "doc_not_found")
    return DOCS[slug]


@app.get("/plots")
def list_plots(
    user: AnyMember,
    bed: Bed | None = None,
    leased: bool | None = None,
    sort: Annotated[list[SortKey], Query(max_length=1)] = ["number"],
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
):
    key = sort[-1]
    plots = sorted(PLOTS.values(), key=lambda p: p["number"])
    plots.sort(key=lambda p: p[key.lstrip("-")], reverse=key.startswith("-"))
    if bed is not None:
        plots = [p for p in plots if p["bed"] == bed]
    if leased is not None:
        plots = [p for p in plots if bool(leases_of(p)) == leased]
    return {"total": len(plots), "items": [plot_out(p) for p in plots[offset:offset + limit]]}


@app.post("/plots", status_code=201)
def create_plot(user: Manager, body: PlotIn, response: Response):
    if any(p["number"] == body.number for p in PLOTS.values()):
        raise Refusal(409, "number_taken")
    plot = body.model_dump() | {"id": NEXT["plot"]}
    NEXT["plot"] += 1
    PLOTS[plot["id"]] = plot
    response.headers["Location"] = f"/plots/{plot['id']}"
    return plot_out(plot)


@app.get("/plots/{plot_id}")
def read_plot(plot_id: int, user: AnyMember):
    return plot_out(find_plot(plot_id))


@app.patch("/plots/{plot_id}")
def change_plot(plot_id: int, user: Manager, body: PlotChange):
    plot = find_plot(plot_id)
    plot.update(body.model_dump(exclude_unset=True))
    return plot_out(plot)


@app.delete("/plots/{plot_id}", status_code=204)
def delete_plot(plot_id: int, user: Manager):
    plot = find_plot(plot_id)
    if leases_of(plot):
        raise Refusal(409, "plot_leased")
    del PLOTS[plot_id]
    return Response(status_code=204)


def plot_free(plot: dict, user: dict, body: LeaseIn) -> None:
    if any(lease["start"] <= body.end and body.start <= lease["end"] for lease in leases_of(plot)):
        raise Refusal(409, "plot_taken")


def below_limit(plot: dict, user: dict, body: LeaseIn) -> None:
    if sum(lease["gardener"] == user["name"] for lease in LEASES.values()) >= ${max_leases}:
        raise Refusal(409, "lease_limit")


@app.post("/plots/{plot_id}/lease", status_code=201)
def lease_plot(plot_id: int, user: Gardener, body: LeaseIn, response: Response):
    plot = find_plot(plot_id)
    for check in ${lease_checks}:
        check(plot, user, body)
    periods = math.ceil(((body.end - body.start).days + 1) / PERIOD_DAYS)
    lease = {"id": NEXT["lease"], "plot_id": plot["id"], "gardener": user["name"],
             "start": body.start, "end": body.end, "total_fee": plot["fee"] * periods}
    NEXT["lease"] += 1
    LEASES[lease["id"]] = lease
    response.headers["Location"] = f"/leases/{lease['id']}"
    return lease_out(lease)


@app.get("/leases")
def list_leases(user: AnyMember):
    return [lease_out(lease) for _, lease in sorted(LEASES.items())
            if user["role"] == "manager" or lease["gardener"] == user["name"]]


@app.delete("/leases/{lease_id}", status_code=204)
def end_lease(lease_id: int, user: AnyMember):
    lease = LEASES.get(lease_id)
    if lease is None or (user["role"] != "manager" and lease["gardener"] != user["name"]):
        raise Refusal(404, "lease_not_found")
    del LEASES[lease_id]
    return Response(status_code=204)


''' + RESULT_ROW + '''

client = TestClient(app)
manager, gardener = {"X-Api-Key": ${m1_key__repr}}, {"X-Api-Key": ${g1_key__repr}}
plot = client.post("/plots", json={"number": 7, "bed": "raised", "area_m2": ${area_min},
                                   "fee": ${sample_fee__json}}, headers=manager)
result = [
    row(plot) + [plot.headers.get("location")],
    row(client.post(plot.headers.get("location", "/plots/0") + "/lease",
                    json={"start": "2031-04-01", "end": "2031-05-15"}, headers=gardener)),
    row(client.get("/docs", headers=gardener)),
    row(client.get("/plots", params={"sort": "-fee"}, headers=gardener)),
]
'''

PROBES = PROBE_HELPERS + """

M1, M2 = {"X-Api-Key": ${m1_key__repr}}, {"X-Api-Key": ${m2_key__repr}}
G1, G2, G3 = {"X-Api-Key": ${g1_key__repr}}, {"X-Api-Key": ${g2_key__repr}}, {"X-Api-Key": ${g3_key__repr}}
_NUMBERS = iter(range(100, 999))


def _plot_body(**fields):
    return {"number": next(_NUMBERS), "bed": "ground", "area_m2": ${area_min}, "fee": 10} | fields


def _plot(client, **fields):
    return client.post("/plots", json=_plot_body(**fields), headers=M1).json()["id"]


def _lease(client, plot, start, end, who=G1):
    return client.post(f"/plots/{plot}/lease", json={"start": start, "end": end}, headers=who)


def _numbers(client, plots, **params):
    seen, offset = [], 0
    while True:
        body = client.get("/plots", params={"limit": ${limit_max}, "offset": offset} | params,
                          headers=G1).json()
        seen += [plots.index(p["id"]) for p in body["items"] if p["id"] in plots]
        offset += ${limit_max}
        if not body["items"] or offset > 2000:
            return seen
""" + late_body.probe_source(
    [("POST", "/plots"), ("PATCH", "/plots/1"), ("POST", "/plots/1/lease")],
    [("no key", "{}"), ("manager", "M1"), ("gardener", "G1")]) + """


def probe_keys(client):
    rows = []
    for headers in [{}, {"X-Api-Key": ""}, {"X-Api-Key": "nope"},
                    {"X-Api-Key": ${g1_key__repr}.upper()}, {"X-Api-Key": ${g1_key__repr} + "x"},
                    {"X-Api-Key": ${g1_name__repr}}, {"Authorization": "Bearer " + ${g1_key__repr}}]:
        for method, path in [("GET", "/me"), ("GET", "/docs"), ("GET", "/docs/x"),
                             ("POST", "/plots"), ("GET", "/plots"), ("GET", "/plots/1"),
                             ("PATCH", "/plots/1"), ("POST", "/plots/1/lease"),
                             ("GET", "/leases"), ("DELETE", "/leases/1")]:
            r = client.request(method, path, headers=headers, json={"start": 3})
            rows.append([method, path, _with_headers(r, "www-authenticate")])
    return rows


def probe_roles(client):
    return [_row(client.post("/plots", json={}, headers=G1)),
            _row(client.patch("/plots/abc", json={"fee": -1}, headers=G2)),
            _row(client.delete("/plots/99999", headers=G3)),
            _row(client.post("/plots", json=_plot_body(), headers=G1)),
            _row(client.post("/plots/1/lease", json={}, headers=M1)),
            _row(client.post("/plots/x/lease", json={"start": "2031-01-01", "end": "2031-01-02"},
                             headers=M2))]


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (M1, M2, G1, G2, G3)]


def probe_docs(client):
    rows = [_with_headers(client.get("/docs", headers=h), "content-type") for h in (G2, M1)]
    rows.append(_row(client.get("/docs", headers={})))
    for slug in [${doc1__repr}, ${doc2__repr}, ${doc1__repr}.upper(), "nope"]:
        rows.append([slug, _row(client.get(f"/docs/{slug}", headers=G3))])
    return rows


def probe_unpublished(client):
    return [[path, _row(client.get(path, headers=G1))]
            for path in ["/openapi.json", "/redoc", "/docs/oauth2-redirect", "/swagger"]]


def probe_method_not_allowed(client):
    plot = _plot(client)
    rows = []
    for method, path in [("PUT", "/plots"), ("DELETE", "/plots"), ("PUT", f"/plots/{plot}"),
                         ("POST", f"/plots/{plot}"), ("GET", f"/plots/{plot}/lease"),
                         ("POST", "/docs"), ("PATCH", "/leases/1"), ("POST", "/me"),
                         ("GET", "/nowhere"), ("GET", f"/plots/{plot}/leases")]:
        r = client.request(method, path, headers=G1)
        rows.append([method, path.replace(str(plot), "<id>"), _with_headers(r, "allow")])
    return rows


def probe_trailing_slash(client):
    plot = _plot(client)
    rows = []
    for method, path in [("GET", "/plots/"), ("GET", "/docs/"), ("GET", f"/plots/{plot}/"),
                         ("POST", "/plots/"), ("GET", "/me/")]:
        r = client.request(method, path, headers=M1, follow_redirects=False)
        location = (r.headers.get("location") or "").replace(str(plot), "<id>")
        rows.append([method, path.replace(str(plot), "<id>"), _row(r), location])
    return rows


def probe_validation_format(client):
    return [_row(client.post("/plots", json={}, headers=M1)),
            _row(client.post("/plots", json=["x"], headers=M1)),
            _row(client.get("/plots/abc", headers=M1)),
            _row(client.get("/plots", params={"limit": 0, "offset": -1, "bed": "pot"}, headers=M1)),
            _row(client.patch("/plots/1", json={"fee": "cheap", "owner": "x"}, headers=M1)),
            _row(client.post("/plots/1/lease", json={"start": "2031-01-01"}, headers=G1)),
            _row(client.get("/plots", params={"sort": ["fee", "up"]}, headers=M1)),
            _row(client.get("/plots", params={"sort": "up"}, headers=M1))]


def probe_plot_fields(client):
    rows = []
    for fields in [{"number": 0}, {"number": 999}, {"number": 1000}, {"number": "5"},
                   {"area_m2": ${area_min} - 1}, {"area_m2": ${area_min}}, {"area_m2": ${area_max}},
                   {"area_m2": ${area_max} + 1}, {"area_m2": "${area_min}"},
                   {"area_m2": float(${area_min})}, {"area_m2": True}, {"bed": "Raised"},
                   {"bed": "greenhouse"}, {"bed": None}, {"colour": "red"}]:
        r = client.post("/plots", json=_plot_body(**fields), headers=M1)
        rows.append([fields, r.status_code, [r.json()["area_m2"], r.json()["bed"]]
                     if r.status_code == 201 else r.json()])
        if r.status_code == 201:
            client.delete(f"/plots/{r.json()['id']}", headers=M1)
    return rows


def probe_fee_input(client):
    rows = []
    for fee in [0, 0.01, -1, ${fee_max}, ${fee_max} + 0.01, 12.345, "12.5", "7", True, None,
                "ten", 9.999]:
        r = client.post("/plots", json=_plot_body(fee=fee), headers=M1)
        rows.append([fee, r.status_code, r.json()["fee"] if r.status_code == 201 else r.json()])
    return rows


def probe_fee_text(client):
    rows = []
    for fee in ["1_0", "1_2.5", "\u0661\u0662", "\u0661\u0662.\u0665", "\uff11\uff12", " 12.5 ",
                "+12.5", "1E1", "12.500"]:
        r = client.post("/plots", json=_plot_body(fee=fee), headers=M1)
        rows.append([fee, r.status_code, r.json()["fee"] if r.status_code == 201 else r.json()])
    return rows


def probe_fee_output(client):
    rows = []
    for fee in [12, "12.50", 0.5, "${fee_max}"]:
        plot = client.post("/plots", json=_plot_body(fee=fee), headers=M1).json()["id"]
        rows.append([fee, client.get(f"/plots/{plot}", headers=G1).json()["fee"]])
    plot = _plot(client, fee=3)
    changed = client.patch(f"/plots/{plot}", json={"fee": "4.10"}, headers=M2).json()["fee"]
    lease = _lease(client, plot, "2031-01-01", "2031-01-01", G3).json()
    client.delete(f"/leases/{lease['id']}", headers=G3)
    rows.append(["patched", changed, lease["total_fee"]])
    return rows


def probe_create_plot(client):
    r = client.post("/plots", json={"number": 42, "bed": "raised", "area_m2": ${area_max},
                                    "fee": 9.5}, headers=M2)
    body = r.json()
    return [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/plots/{body['id']}"],
            _row(client.post("/plots", json={"number": 42, "bed": "ground", "area_m2": ${area_min},
                                             "fee": 1}, headers=M1))]


def probe_sort(client):
    plots = [_plot(client, number=n, fee=f) for n, f in [(640, 5), (610, 7), (620, 5), (630, 9)]]
    rows = []
    for sort in [None, "number", "-number", "fee", "-fee"]:
        rows.append([sort, _numbers(client, plots, **({"sort": sort} if sort else {}))])
    for sort in [["fee", "-fee"], ["number", "number"], "Fee", ""]:
        rows.append([sort, _row(client.get("/plots", params={"sort": sort}, headers=G1))])
    return rows


def probe_filters(client):
    plots = [_plot(client, bed=bed) for bed in ("greenhouse", "greenhouse", "raised")]
    _lease(client, plots[1], "2031-02-01", "2031-02-10", G2)
    rows = []
    for params in [{"bed": "greenhouse"}, {"bed": "greenhouse", "leased": "false"},
                   {"leased": "true"}, {"leased": "1"}, {"leased": "no"}, {"bed": "raised"}]:
        rows.append([params, _numbers(client, plots, **params)])
    rows.append(_row(client.get("/plots", params={"leased": "maybe"}, headers=G1)))
    rows.append([client.get(f"/plots/{plots[1]}", headers=G1).json()["leased"]])
    for lease in client.get("/leases", headers=G2).json():
        client.delete(f"/leases/{lease['id']}", headers=G2)
    return rows


def probe_pagination(client):
    for n in range(${limit_default} + 2):
        _plot(client, number=900 + n, bed="raised", fee=1)
    rows = []
    for params in [{}, {"offset": 2}, {"offset": ${limit_default}, "limit": 1},
                   {"offset": 50}, {"limit": ${limit_max}}]:
        body = client.get("/plots", params={"sort": "-number"} | params, headers=G1).json()
        rows.append([params, body["total"] >= ${limit_default} + 2,
                     [p["number"] for p in body["items"] if p["number"] >= 900]])
    rows.append(client.get("/plots", params={"bed": "raised", "leased": "false",
                                             "limit": 1}, headers=G1).json()["total"] > 1)
    rows[-1] = ["total over pages", rows[-1]]
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1}]:
        rows.append([params, _row(client.get("/plots", params=params, headers=G1))])
    return rows


def probe_plot_routes(client):
    plot = _plot(client, bed="raised", area_m2=${area_min}, fee=8)
    rows = [_row(client.patch(f"/plots/{plot}", json={"area_m2": ${area_max}}, headers=M2)),
            _row(client.patch(f"/plots/{plot}", json={}, headers=M2)),
            _row(client.patch(f"/plots/{plot}", json={"fee": None}, headers=M2)),
            _row(client.patch(f"/plots/{plot}", json={"number": 5}, headers=M2)),
            _row(client.patch("/plots/99999", json={}, headers=M2)),
            _row(client.get("/plots/99999", headers=G1))]
    for row in rows[:2]:
        row[1].pop("id")
    leased = _plot(client)
    last = _plot(client)
    lease = _lease(client, leased, "2031-03-01", "2031-03-02", G3).json()["id"]
    rows += [_row(client.delete(f"/plots/{leased}", headers=M1)),
             _row(client.delete(f"/plots/{last}", headers=M1)),
             _row(client.delete(f"/plots/{last}", headers=M1)),
             [_plot(client) - last]]
    client.delete(f"/leases/{lease}", headers=G3)
    return rows


def probe_lease_dates(client):
    plot = _plot(client)
    rows = []
    for n, (start, end) in enumerate([
            ("2031-06-01T00:00:00", "2031-06-02"), ("2031-06-01", 1938211200),
            ("2031-6-1", "2031-06-02"), ("2031-06-31", "2031-07-01"), (20310601, "2031-06-02"),
            (" 2031-06-01", "2031-06-02"), ("2031-06-01", "2031-06-02")]):
        r = _lease(client, plot, start, end, G2)
        rows.append([n, r.status_code, [r.json()["start"], r.json()["end"]]
                     if r.status_code == 201 else r.json()])
        if r.status_code == 201:
            client.delete(f"/leases/{r.json()['id']}", headers=G2)
    return rows


def probe_lease_range(client):
    rows = []
    for start, end in [("2031-08-10", "2031-08-09"), ("2031-08-10", "2031-08-10"),
                       ("2031-01-01", "${last_allowed}"), ("2031-01-01", "${first_refused}")]:
        r = _lease(client, _plot(client), start, end, G3)
        rows.append([start, end, r.status_code,
                     r.json()["end"] if r.status_code == 201 else r.json()])
        if r.status_code == 201:
            client.delete(f"/leases/{r.json()['id']}", headers=G3)
    return rows


def probe_lease(client):
    plot = _plot(client, fee="7.25")
    rows = []
    for start, end in [("2032-01-01", "2032-01-01"), ("2032-02-01", "${period_end}"),
                       ("2032-05-01", "${period_over}")]:
        r = _lease(client, plot, start, end, G1)
        body = r.json()
        rows.append([r.status_code, {k: v for k, v in body.items() if k not in ("id", "plot_id")},
                     body["plot_id"] == plot,
                     r.headers.get("location") == f"/leases/{body['id']}"])
        client.delete(f"/leases/{body['id']}", headers=G1)
    rows.append(_row(_lease(client, 99999, "2032-01-01", "2032-01-02", G1)))
    return rows


def probe_lease_rules(client):
    plot, other = _plot(client), _plot(client)
    first = _lease(client, plot, "2033-03-10", "2033-03-20", G2).json()["id"]
    rows = [_row(_lease(client, plot, "2033-03-20", "2033-03-25", G3)),
            _row(_lease(client, plot, "2033-03-01", "2033-03-10", G3)),
            _row(_lease(client, plot, "2033-03-12", "2033-03-13", G2))]
    after = _lease(client, plot, "2033-03-21", "2033-03-22", G3)
    rows.append([after.status_code, after.json()["start"]])
    client.delete(f"/leases/{after.json()['id']}", headers=G3)
    client.delete(f"/leases/{first}", headers=G2)
    held = [_lease(client, _plot(client), "2033-05-01", "2033-05-02", G2).json()["id"]
            for _ in range(${max_leases})]
    rows.append(_row(_lease(client, other, "2033-06-01", "2033-06-02", G2)))
    client.delete(f"/leases/{held[0]}", headers=G2)
    rows.append(_row(_lease(client, other, "2033-06-01", "2033-06-02", G2))[:1])
    for lease in client.get("/leases", headers=G2).json():
        client.delete(f"/leases/{lease['id']}", headers=G2)
    return rows


def probe_lease_precedence(client):
    plot = _plot(client)
    for n in range(${max_leases}):
        _lease(client, plot if n == 0 else _plot(client), "2034-01-01", "2034-01-05", G1)
    return [_row(_lease(client, plot, "2034-01-03", "2034-01-04", G1))]


def probe_leases(client):
    plot = _plot(client)
    mine = _lease(client, plot, "2035-01-01", "2035-01-02", G2).json()["id"]
    theirs = _lease(client, plot, "2035-02-01", "2035-02-02", G3).json()["id"]
    rows = [[n, [lease["gardener"] for lease in client.get("/leases", headers=h).json()
                 if lease["id"] in (mine, theirs)]] for n, h in enumerate((G1, G2, G3, M1))]
    rows += [_row(client.delete(f"/leases/{theirs}", headers=G2)),
             _row(client.delete(f"/leases/{theirs}", headers=G3)),
             _row(client.delete(f"/leases/{theirs}", headers=G3)),
             _row(client.delete(f"/leases/{mine}", headers=M2)),
             [client.get(f"/plots/{plot}", headers=G1).json()["leased"]],
             [_lease(client, plot, "2035-03-01", "2035-03-02", G2).json()["id"] - mine]]
    return rows
"""

PROMPT = '''\
Build the HTTP API of a community garden's plot office, as specified below. All state is in
memory; the service starts with the members and documents given here and no plots or leases.

## Members and keys
Every route needs the member's key in the `X-Api-Key` header (compared exactly):

| member | key | role |
|---|---|---|
${member_table}

Without the header: 401 `key_missing`; with any other value, an empty one included: 401
`key_invalid`; both with the header `WWW-Authenticate: ApiKey`. Routes marked *manager* or
*gardener* answer 403 `forbidden` to the other role. `GET /me` answers 200 `{"name", "role"}`.
The order of checks on every route: the key, the role, input validation, then whether the
things the request names exist, then the route's own rules. That holds for a body that is not
JSON too: without a valid key it is 401, with the other role's key 403.

## Errors
Every error body is `{"error": {"code": <code>, "status": <the status code>}}`. Invalid input
is ${invalid_status} `invalid_input`, whose `error` object has one more key, `"fields"`: the
sorted, distinct locations of the problems, each the first two parts of the location joined by
a dot (`"body.fee"`, `"query.limit"`, `"path.plot_id"`; just `"body"` when the body is missing,
is not JSON, or its JSON is not an object). A body field not listed for a route makes the body invalid; so does `null` for any
field. A path that matches no route is 404 `no_route`: that includes any path ending in `/` (no
redirects) and every path not listed here (the service publishes no API documentation or schema
of its own). A known path with a method it does not serve is 405 `method_not_allowed` whose
`Allow` header lists every method the path serves, in the order GET, POST, PATCH, DELETE,
separated by `, ` (for `/plots`: `GET, POST`).

## Documents
The garden's documents:

| slug | title | text |
|---|---|---|
${doc_table}

- `GET /docs`: 200, `[{"slug", "title"}]` sorted by slug.
- `GET /docs/{slug}`: 200 `{"slug", "title", "text"}`; an unknown slug: 404 `doc_not_found`.

## Plots
A plot is `{"id", "number", "bed", "area_m2", "fee", "leased"}`; ids are 1, 2, ... in creation
order and never reused; `leased` says whether the plot has any lease.
- `number`: a JSON integer from 1 to 999 (`"5"`, `5.0`, `true` invalid), unique (409
  `number_taken`);
- `bed`: `ground`, `raised` or `greenhouse`;
- `area_m2`: a JSON integer from ${area_min} to ${area_max} (`"12"`, `12.0`, `true` invalid);
- `fee` (per ${period_days}-day period): a number greater than 0 and at most ${fee_max}, with at most
  two decimals (`12.345` is invalid; a number written as a JSON string, like `"12.5"`, is
  accepted, surrounding spaces, a sign and an exponent included, but only in ASCII digits and
  without `_`: `"1_0"` and `"١٢"` are invalid). It is always returned as a JSON number with a fraction part: `12.5` for `12.50`,
  `12.0` for `12`.

Routes:
- `POST /plots` (*manager*), body with the four input fields: 201 with the plot and
  `Location: /plots/<id>`.
- `GET /plots`: 200 `{"total", "items"}`. Optional query parameters: `bed`; `leased`
  (FastAPI's standard booleans); `sort`, one of `number`, `-number`, `fee`, `-fee` (a leading
  `-` for descending; ties by number ascending; default `number`), given at most once (a
  repeated `sort` is invalid); `offset` >= 0 (default 0) and `limit` 1-${limit_max} (default
  ${limit_default}). `total` counts the plots matching the filters over all pages.
- `GET /plots/{plot_id}`: 200 with the plot.
- `PATCH /plots/{plot_id}` (*manager*): any of `bed`, `area_m2`, `fee` (same rules); fields left
  out keep their values. 200 with the plot.
- `DELETE /plots/{plot_id}` (*manager*): 204 with no body; a plot with a lease: 409
  `plot_leased`.
An unknown plot id is 404 `plot_not_found` on all of them.

## Leases
A lease is `{"id", "plot_id", "gardener", "start", "end", "total_fee"}`; ids are 1, 2, ... and
never reused.
- `POST /plots/{plot_id}/lease` (*gardener*), body `{"start", "end"}`: dates written exactly
  `YYYY-MM-DD` (JSON strings; anything else, a date-time or a number included, is invalid). The
  `end` is on or after the `start` and the lease lasts at most ${max_days} days counting both
  (otherwise `body.end` is invalid). The plot's leases may not share a day (409 `plot_taken`);
  a gardener holds at most ${max_leases} leases (409 `lease_limit`); when both apply,
  `${first_refusal}` wins. 201 with the lease and `Location: /leases/<id>`; `total_fee` is the
  plot's fee times the number of ${period_days}-day periods started (a JSON number like `fee`).
- `GET /leases`: 200, a gardener's own leases (a manager's: everyone's), by id.
- `DELETE /leases/{lease_id}`: the gardener who holds it or any manager; 204 with no body.
  Another gardener's lease or an unknown id: 404 `lease_not_found`.

## result
One row per request, each `[status code, JSON body]` unless said otherwise:
1. `POST /plots` as `${m1_name}` with `{"number": 7, "bed": "raised", "area_m2": ${area_min},
   "fee": ${sample_fee}}`: `[status code, JSON body, Location header]`
2. `POST <the Location of row 1>/lease` as `${g1_name}` with `{"start": "2031-04-01",
   "end": "2031-05-15"}`
3. `GET /docs` as `${g1_name}`
4. `GET /plots?sort=-fee` as `${g1_name}`
'''

MEMBER_SETS = {
    "first": [["Hana", "k-hana-3141", "manager"], ["Rolf", "k-rolf-2718", "manager"],
              ["Mira", "k-mira-1618", "gardener"], ["Joss", "k-joss-1414", "gardener"],
              ["Elif", "k-elif-1732", "gardener"]],
    "second": [["Tariq", "plot-key-77a", "manager"], ["Greta", "plot-key-31c", "manager"],
               ["Ole", "plot-key-05f", "gardener"], ["Ines", "plot-key-62d", "gardener"],
               ["Kai", "plot-key-18b", "gardener"]],
}
DOC_SETS = {
    "rules": [["water", "Watering", "Hoses only before 9 am."],
              ["compost", "Compost", "Green waste goes to bay 2."],
              ["bees", "Bees", "Hives are fenced; keep 3 m away."]],
    "terms": [["tools", "Tool shed", "Return tools the same day."],
              ["paths", "Paths", "Keep paths clear of pots."],
              ["fees", "Fees", "Fees are due at the start of a period."],
              ["ash", "Bonfires", "No fires on any plot."]],
}
CHECKS = {"plot_taken": "(plot_free, below_limit)", "lease_limit": "(below_limit, plot_free)"}


def derive(p):
    members = MEMBER_SETS[p["member_set"]]
    managers = [m for m in members if m[2] == "manager"]
    gardeners = [m for m in members if m[2] == "gardener"]
    docs = DOC_SETS[p["doc_set"]]
    first = date(2031, 1, 1)
    return {
        "members": members,
        "member_table": "\n".join(f"| {n} | {k} | {r} |" for n, k, r in members),
        "m1_key": managers[0][1], "m2_key": managers[1][1], "g1_key": gardeners[0][1],
        "g2_key": gardeners[1][1], "g3_key": gardeners[2][1], "g1_name": gardeners[0][0],
        "m1_name": managers[0][0],
        "docs": docs,
        "doc_table": "\n".join(f"| {s} | {t} | {x} |" for s, t, x in docs),
        "doc1": docs[0][0], "doc2": docs[1][0],
        "sample_fee": p["fee_max"] // 4,
        "last_allowed": (first + timedelta(days=p["max_days"] - 1)).isoformat(),
        "first_refused": (first + timedelta(days=p["max_days"])).isoformat(),
        "period_end": (date(2032, 2, 1) + timedelta(days=p["period_days"] - 1)).isoformat(),
        "period_over": (date(2032, 5, 1) + timedelta(days=p["period_days"])).isoformat(),
        "lease_checks": CHECKS[p["first_refusal"]],
    }



FAMILY = Family(
    id="service/garden_plots",
    title="Garden plot office: API keys, a /docs resource, full Allow, decimal fees, leases",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"member_set": "first", "doc_set": "rules", "invalid_status": 422, "fee_max": 50,
              "area_min": 4, "area_max": 60, "limit_max": 20, "limit_default": 5,
              "max_days": 90, "max_leases": 2, "first_refusal": "plot_taken", "period_days": 28},
    space={
        "member_set": ["first", "second"],
        "doc_set": ["rules", "terms"],
        "invalid_status": [422, 400],
        "fee_max": [50, 120],
        "area": [{"area_min": 4, "area_max": 60}, {"area_min": 2, "area_max": 40}],
        "limits": [{"limit_max": 20, "limit_default": 5}, {"limit_max": 10, "limit_default": 3}],
        "max_days": [90, 180],
        "max_leases": [2, 3],
        "first_refusal": ["plot_taken", "lease_limit"],
        "period_days": [28, 30],
    },
    derive=derive,
    instances=11,
    requirements=(
        Requirement("Every route needs a member's `X-Api-Key`: absent is 401 `key_missing`, any "
                    "other value (empty included) 401 `key_invalid`, both with "
                    "`WWW-Authenticate: ApiKey`.",
                    probes="keys",
                    traps=(Edit("empty key counts as missing", "    if x_api_key is None:",
                                "    if not x_api_key:"),
                           Edit("no WWW-Authenticate on key_invalid",
                                'raise Refusal(401, "key_invalid", {"WWW-Authenticate": "ApiKey"})',
                                'raise Refusal(401, "key_invalid")'))),
        Requirement("The key and the role are checked before the body, even a body that is "
                    "not JSON (then invalid input naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Manager and gardener routes answer 403 `forbidden` to the other role, "
                    "before validating the input.",
                    probes="roles",
                    traps=(role_not_checked("gardeners manage plots", "Manager", "manager",
                                            "AnyMember"),
                           role_not_checked("managers lease", "Gardener", "gardener", "AnyMember"))),
        Requirement("`GET /me` names the caller and role.",
                    probes="me",
                    traps=Edit("me in lower case", "def me(user: AnyMember):\n    return user",
                               'def me(user: AnyMember):\n    return {"name": user["name"].lower(), '
                               '"role": user["role"]}')),
        Requirement("`GET /docs` lists the garden's documents by slug and `GET /docs/{slug}` "
                    "reads one (404 `doc_not_found`).",
                    probes="docs",
                    traps=(Edit("interactive docs kept at /docs",
                                "docs_url=None, redoc_url=None, openapi_url=None, ", ""),
                           Edit("documents unsorted",
                                'for _, d in sorted(DOCS.items())]', "for d in DOCS.values()]"),
                           Edit("unknown document in the router's words",
                                'raise Refusal(404, "doc_not_found")', 'raise Refusal(404, "no_route")'))),
        Requirement("The service publishes no schema or documentation pages: `/openapi.json` "
                    "and `/redoc` are 404 `no_route`.",
                    probes="unpublished",
                    traps=Edit("schema published", "redoc_url=None, openapi_url=None, ",
                               "redoc_url=None, ")),
        Requirement("Unknown paths are 404 `no_route`; a wrong method is 405 `method_not_allowed` "
                    "whose `Allow` lists every method of the path in the order GET, POST, PATCH, "
                    "DELETE.",
                    probes="method_not_allowed",
                    traps=(router_errors_in_fastapi_format(),
                           Edit("Allow of the first route only",
                                '{"Allow": served_methods(request)}', "exc.headers"))),
        Requirement("A path ending in `/` is 404 `no_route`, not a redirect.",
                    probes="trailing_slash",
                    traps=Edit("trailing slash redirected", "openapi_url=None, redirect_slashes=False)",
                               "openapi_url=None)")),
        Requirement("Invalid input is ${invalid_status} `invalid_input` with the sorted, distinct "
                    "`where.name` fields.",
                    probes="validation_format",
                    traps=(other_validation_status(),
                           whole_location_fields())),
        Requirement("Plot numbers are JSON integers 1-999, areas JSON integers ${area_min}-${area_max}, "
                    "beds exact; plot bodies take no other field and no null.",
                    probes="plot_fields",
                    traps=(Edit("area lax", "Area = Annotated[StrictInt, Field(",
                                "Area = Annotated[int, Field("),
                           Edit("area bound one too high", "le=${area_max})]",
                                "le=${area_max} + 1)]"),
                           extras_ignored("plot extras ignored", "PlotIn"))),
        Requirement("Fees are numbers (or numeric strings) above 0 and at most ${fee_max} with "
                    "at most two decimals.",
                    probes="fee_input",
                    traps=(Edit("fee decimals unchecked", ", decimal_places=2)]", ")]"),
                           Edit("fee maximum exclusive", "Field(gt=0, le=${fee_max},",
                                "Field(gt=0, lt=${fee_max},"))),
        Requirement("A fee written as a string is read only in ASCII digits, without `_`.",
                    probes="fee_text",
                    traps=Edit("fee text read as Python's Decimal",
                               "Fee = Annotated[Decimal, BeforeValidator(ascii_number), ",
                               "Fee = Annotated[Decimal, ")),
        Requirement("Fees and lease totals are returned as JSON numbers with a fraction part "
                    "(`12.0` for `12`).",
                    probes="fee_output",
                    traps=(Edit("fee as Pydantic writes a Decimal",
                                '"fee": float(plot["fee"]),', '"fee": str(plot["fee"]),'),
                           Edit("whole fees as integers",
                                '"fee": float(plot["fee"]),',
                                '"fee": __import__("fastapi").encoders.jsonable_encoder(plot["fee"]),'),
                           Edit("totals as Pydantic writes a Decimal",
                                '"total_fee": float(lease["total_fee"])}',
                                '"total_fee": str(lease["total_fee"])}'))),
        Requirement("`POST /plots` answers 201 with the plot and `Location: /plots/<id>`; plot "
                    "numbers are unique (409 `number_taken`).",
                    probes="create_plot",
                    traps=(Edit("no Location on plots",
                                "    response.headers[\"Location\"] = f\"/plots/{plot['id']}\"\n", ""),
                           Edit("duplicate numbers allowed",
                                '    if any(p["number"] == body.number for p in PLOTS.values()):\n'
                                '        raise Refusal(409, "number_taken")\n', ""))),
        Requirement("`sort` orders by number or fee, `-` for descending, ties by number; a "
                    "repeated `sort` is invalid.",
                    probes="sort",
                    traps=(Edit("repeated sort: the last one wins",
                                "sort: Annotated[list[SortKey], Query(max_length=1)]",
                                "sort: Annotated[list[SortKey], Query()]"),
                           Edit("ties in creation order",
                                'plots = sorted(PLOTS.values(), key=lambda p: p["number"])',
                                'plots = sorted(PLOTS.values(), key=lambda p: p["id"])'),
                           Edit("descending by reversing",
                                'plots.sort(key=lambda p: p[key.lstrip("-")], '
                                'reverse=key.startswith("-"))',
                                'plots.sort(key=lambda p: p[key.lstrip("-")])\n'
                                '    if key.startswith("-"):\n        plots.reverse()'))),
        Requirement("`bed` and `leased` filter the plots.",
                    probes="filters",
                    traps=(Edit("leased filter ignored",
                                "    if leased is not None:\n        plots = [",
                                "    if False:\n        plots = ["),
                           Edit("bed filter ignored",
                                "    if bed is not None:\n        plots = [",
                                "    if False:\n        plots = ["))),
        Requirement("Pages: `offset` >= 0, `limit` 1-${limit_max} (default ${limit_default}); "
                    "`total` counts all matches.",
                    probes="pagination",
                    traps=(Edit("total counts the page",
                                'return {"total": len(plots),',
                                'return {"total": len(plots[offset:offset + limit]),'),
                           Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"),
                           Edit("default page size off by one", "Query(ge=1, le=${limit_max})] = ${limit_default},",
                                "Query(ge=1, le=${limit_max})] = ${limit_default} + 1,"))),
        Requirement("`PATCH` changes only the fields sent; `DELETE` is 204 unless the plot has a "
                    "lease (409 `plot_leased`); plot ids are never reused.",
                    probes="plot_routes",
                    traps=(Edit("omitted fields reset", "plot.update(body.model_dump(exclude_unset=True))",
                                "plot.update(body.model_dump())"),
                           Edit("leased plots deleted",
                                '    if leases_of(plot):\n        raise Refusal(409, "plot_leased")\n', ""),
                           ids_reused("plot ids reused", "plot = body.model_dump() | ", "PLOTS",
                                      "plot"))),
        Requirement("Lease dates are JSON strings written exactly `YYYY-MM-DD`.",
                    probes="lease_dates",
                    traps=Edit("dates as Pydantic parses them",
                               "Day = Annotated[date, BeforeValidator(calendar_text)]", "Day = date")),
        Requirement("A lease ends on or after its start and lasts at most ${max_days} days "
                    "counting both (else `body.end` is invalid).",
                    probes="lease_range",
                    traps=(Edit("last day not counted",
                                "not 0 <= (end - start).days < ${max_days}:",
                                "not 0 <= (end - start).days <= ${max_days}:"),
                           Edit("end before start allowed",
                                "not 0 <= (end - start).days < ${max_days}:",
                                "not (end - start).days < ${max_days}:"))),
        Requirement("`POST /plots/{plot_id}/lease` answers 201 with `Location: /leases/<id>` "
                    "and `total_fee` = fee x started ${period_days}-day periods; unknown plots 404.",
                    probes="lease",
                    traps=(Edit("periods rounded", "periods = math.ceil(", "periods = round("),
                           Edit("no Location on leases",
                                "    response.headers[\"Location\"] = f\"/leases/{lease['id']}\"\n",
                                ""))),
        Requirement("A plot's leases may not share a day (409 `plot_taken`); a gardener holds "
                    "at most ${max_leases} leases (409 `lease_limit`).",
                    probes="lease_rules",
                    traps=(Edit("touching leases allowed",
                                'lease["start"] <= body.end and body.start <= lease["end"]',
                                'lease["start"] < body.end and body.start < lease["end"]'),
                           Edit("one lease too many",
                                ">= ${max_leases}:", "> ${max_leases}:"))),
        Requirement("When a lease is refused for both reasons, `${first_refusal}` wins.",
                    probes="lease_precedence",
                    traps=Edit("lease checks in the other order",
                               "for check in ${lease_checks}:",
                               checks_of_the_other_order(CHECKS, "first_refusal"))),
        Requirement("`GET /leases` lists a gardener's own (a manager's: all); a lease is ended "
                    "by its gardener or a manager (else 404 `lease_not_found`); ids never reused.",
                    probes="leases",
                    traps=(Edit("gardeners list every lease",
                                'if user["role"] == "manager" or lease["gardener"] == user["name"]]',
                                "]"),
                           Edit("anyone ends leases",
                                'if lease is None or (user["role"] != "manager" and '
                                'lease["gardener"] != user["name"]):',
                                "if lease is None:"),
                           ids_reused("lease ids reused", "lease = ", "LEASES", "lease"))),
    ),
)
