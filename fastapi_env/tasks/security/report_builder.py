"""Security tier: an order-report builder over an in-memory SQLite table, where the caller
chooses the columns, the sort keys, a literal search and saved reports. Hidden probes try SQL
through column names, sort keys, filter values and saved reports, reading a column the reports
never show, another tenant's rows and totals, and SQLite's own defaults (a bound ORDER BY,
double-quoted unknown names, LIKE wildcards and ASCII-only case folding, NULL ordering, the sum
of nothing)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_OF_BODY_OR_NONE
from fastapi_env.tasks.security._error_handlers import ERROR_HANDLERS, table

# The report's query parameters (the key-order trap moves the key after them).
_REPORT_PARAMS = '''\
    col: Annotated[list[str] | None, Query()] = None,
    sort: str = "id",
    q: Annotated[str | None, Query(min_length=1, max_length=40)] = None,
    status: str | None = None,
    min_amount: Annotated[int, Query(ge=0)] = 0,
    limit: Limit = ${limit_default},
    offset: Offset = 0,
'''

REFERENCE = '''\
import sqlite3
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

KEYS = {"${key_a}": "${tenant_a}", "${key_b}": "${tenant_b}"}
VISIBLE = ["id", "customer", "region", "status", "amount"]
TEXT = {"customer", "region", "status"}
GROUPS = {"region", "status"}
ORDERS = ${orders__repr}
SAVED: dict[int, dict] = {}
NEXT_SAVED = [1]

db = sqlite3.connect(":memory:", check_same_thread=False)
db.create_function("fold", 1, lambda text: None if text is None else text.casefold(),
                   deterministic=True)
db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, tenant TEXT, customer TEXT, "
           "region TEXT, status TEXT, amount INTEGER, ${hidden} INTEGER)")
db.executemany("INSERT INTO orders (tenant, customer, region, status, amount, ${hidden}) "
               "VALUES (?, ?, ?, ?, ?, ?)", ORDERS)

# no API documentation or schema of its own: every path but the four routes is unknown
app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, redirect_slashes=False)


''' + late_body.ROUTE_CLASS + '''

''' + ERROR_HANDLERS + '''

@app.exception_handler(StarletteHTTPException)
async def router_error(request: Request, exc: StarletteHTTPException):
    # the router's own 404 and 405 (FastAPI's HTTPException, a subclass, is `refused`)
    code = "not_found" if exc.status_code == 404 else "method_not_allowed"
    return JSONResponse({"error": code}, status_code=exc.status_code, headers=exc.headers)


def tenant(key: Annotated[str | None, Header(alias="${key_header}")] = None) -> str:
    if key not in KEYS:
        raise HTTPException(401, "unauthorized")
    return KEYS[key]


Tenant = Annotated[str, Depends(tenant)]


def chosen_columns(columns: list[str]) -> list[str]:
    for name in columns:
        if name not in VISIBLE:  # a whitelist: nothing but these names reaches the SQL
            raise HTTPException(400, "unknown_column")
    if len(set(columns)) != len(columns):
        raise HTTPException(400, "duplicate_column")
    return columns or VISIBLE


def sort_keys(sort: str) -> list[tuple[str, bool]]:
    keys = []
    for part in sort.split(","):
        descending = part.startswith("-")
        name = part[1:] if descending else part
        if name not in VISIBLE or any(name == k for k, _ in keys):
            raise HTTPException(400, "bad_sort")
        keys.append((name, descending))
    if len(keys) > ${max_sort}:
        raise HTTPException(400, "bad_sort")
    return keys


def order_by(keys: list[tuple[str, bool]]) -> str:
    terms = []
    for name, descending in keys:
        collate = " COLLATE NOCASE" if name in TEXT else ""
        terms.append(f"{name}{collate} {'DESC' if descending else 'ASC'} NULLS LAST")
    if all(name != "id" for name, _ in keys):
        terms.append("id ASC")  # ties: oldest order first, whatever the direction
    return ", ".join(terms)


# SQLite integers are 64-bit: a larger (valid) bound is clamped, not an OverflowError
SQL_MAX = 2**63 - 1


def matching(who: str, q: str | None, status: str | None, min_amount: int) -> tuple[str, list]:
    where = "tenant = ? AND amount >= ?"
    args: list = [who, min(min_amount, SQL_MAX)]
    if q is not None:  # a literal substring, case folded in Python (SQLite folds ASCII only)
        where += " AND instr(fold(customer), fold(?)) > 0"
        args.append(q)
    if status is not None:
        where += " AND status = ?"
        args.append(status)
    return where, args


def run_report(who: str, columns: list[str], keys: list[tuple[str, bool]], q: str | None,
               status: str | None, min_amount: int, limit: int, offset: int) -> dict:
    where, args = matching(who, q, status, min_amount)
    offset = min(offset, SQL_MAX)
    total, amount_sum = db.execute(
        f"SELECT count(*), coalesce(sum(amount), 0) FROM orders WHERE {where}", args).fetchone()
    rows = db.execute(f"SELECT {', '.join(columns)} FROM orders WHERE {where} "
                      f"ORDER BY {order_by(keys)} LIMIT ? OFFSET ?",
                      args + [limit, offset]).fetchall()
    return {"columns": columns, "rows": [list(r) for r in rows], "total": total,
            "amount_sum": amount_sum}


Limit = Annotated[int, Query(ge=1, le=${limit_max})]
Offset = Annotated[int, Query(ge=0)]


@app.get("/report")
def report(
    who: Tenant,
''' + _REPORT_PARAMS + '''):
    columns = chosen_columns(col or [])
    return run_report(who, columns, sort_keys(sort), q, status, min_amount, limit, offset)


@app.get("/report/summary")
def summary(who: Tenant, by: str):
    if by not in GROUPS:
        raise HTTPException(400, "bad_group")
    rows = db.execute(f"SELECT {by}, count(*), sum(amount) FROM orders WHERE tenant = ? "
                      f"GROUP BY {by} ORDER BY {by} COLLATE NOCASE ASC NULLS LAST, {by}",
                      (who,)).fetchall()
    return [{"value": r[0], "orders": r[1], "amount": r[2]} for r in rows]


class SavedIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    col: list[str] = []
    sort: str = "id"
    q: str | None = Field(None, min_length=1, max_length=40)


@app.post("/saved", status_code=201)
def save(body: SavedIn, who: Tenant):
    chosen_columns(body.col)  # checked now, so a stored report never carries raw SQL
    sort_keys(body.sort)
    saved = {"id": NEXT_SAVED[0], "tenant": who} | body.model_dump()
    NEXT_SAVED[0] += 1
    SAVED[saved["id"]] = saved
    return {k: v for k, v in saved.items() if k != "tenant"}


@app.get("/saved/{saved_id}/run")
def run_saved(saved_id: int, who: Tenant, limit: Limit = ${limit_default}, offset: Offset = 0):
    saved = SAVED.get(saved_id)
    if saved is None or saved["tenant"] != who:  # another tenant's report does not exist
        raise HTTPException(404, "not_found")
    return run_report(who, chosen_columns(saved["col"]), sort_keys(saved["sort"]), saved["q"],
                      None, 0, limit, offset)


client = TestClient(app)
A = {"${key_header}": "${key_a}"}
result = [
    [client.get("/report", headers=A).json()["total"]],
    client.get("/report", params={"col": ["customer", "amount"], "sort": "-amount", "limit": 3},
               headers=A).json()["rows"],
    [client.get("/report", params={"col": "${hidden}"}, headers=A).json()],
    [client.get("/report/summary", params={"by": "status"}, headers=A).json()],
]
'''

PROBES = ROWS_OF_BODY_OR_NONE + '''\
A = {"${key_header}": "${key_a}"}
B = {"${key_header}": "${key_b}"}


def _rows(client, headers=A, **params):
    r = client.get("/report", params=params, headers=headers)
    return [r.status_code, _body(r)]


def probe_key_required(client):
    rows = []
    for headers in [{}, {"${key_header}": ""}, {"${key_header}": "${key_a} "},
                    {"${key_header}": "${tenant_a}"}, {"${key_header}": "${key_a}".upper()}]:
        for path, params in [("/report", {"col": "${hidden}", "limit": 0}),
                             ("/report/summary", {"by": "${hidden}"}),
                             ("/saved/1/run", {"limit": 0})]:
            rows.append([path, _row(client.get(path, params=params, headers=headers))])
        rows.append(_row(client.post("/saved", json={"name": ""}, headers=headers)))
    return rows


def probe_default_report(client):
    return [_rows(client), _rows(client, headers=B, limit=2)]


def probe_columns_repeated(client):
    return [_rows(client, col=["amount", "customer"], limit=2),
            _rows(client, col="status", limit=2), _rows(client, col=["region", "id"], limit=2)]


def probe_columns_whitelisted(client):
    rows = []
    for col in ["${hidden}", "tenant", "Customer", "customer ", '"customer"', "bogus",
                '"bogus"', "", "1", "count(*)", "(SELECT group_concat(${hidden}) FROM orders)",
                "customer, ${hidden}", "customer FROM orders --", ["customer", "customer"]]:
        rows.append([col, _rows(client, col=col, limit=1)])
    rows.append(_rows(client, col=["bogus", "id", "id"], limit=1))
    return rows


def probe_sort_keys(client):
    return [_rows(client, col=["id", "amount"], sort="-amount"),
            _rows(client, col=["id", "status", "amount"], sort="status,-amount")]


def probe_text_sort_ignores_case(client):
    return [_rows(client, col=["id", "customer"], sort="customer"),
            _rows(client, col=["id", "customer"], sort="-customer", limit=3)]


def probe_nulls_last(client):
    return [_rows(client, col=["id", "region"], sort="region"),
            _rows(client, col=["id", "region"], sort="-region")]


def probe_ties_oldest_first(client):
    return [_rows(client, col=["id", "amount"], sort="-amount", limit=4),
            _rows(client, col=["id", "status"], sort="-status"),
            _rows(client, col=["id"], sort="-id", limit=3)]


def probe_sort_refused(client):
    rows = []
    for sort in ["${hidden}", "-${hidden}", "tenant", "amount DESC", "amount;DROP TABLE orders",
                 "(SELECT ${hidden} FROM orders)", "", "-", "--amount", "amount,", "amount,amount",
                 "amount,-amount", "Amount", "1", "${too_many_sort}"]:
        rows.append([sort, _rows(client, col="id", sort=sort, limit=1)])
    rows.append(_rows(client, col="id", sort="${max_sort_ok}", limit=1))
    rows.append(_rows(client, col="bogus", sort="bogus", limit=1))
    rows.append([client.get("/report", headers=A).json()["total"]])
    return rows


def probe_search_literal(client):
    rows = []
    for q in ["%", "_", "${percent_term}", "a_c", "%%", "*", "'", "' OR '1'='1"]:
        rows.append([q, _rows(client, col=["id", "customer"], q=q)])
    return rows


def probe_search_folds_case(client):
    rows = []
    for q in ${fold_terms__repr}:
        rows.append([q, _rows(client, col=["id", "customer"], q=q)])
    rows.append(_rows(client, col="id", q=""))
    rows.append(_rows(client, col="id", q="x" * 41))
    rows.append(_rows(client, col="id", q="x" * 40))
    return rows


def probe_filter_values_bound(client):
    rows = []
    for status in ["${status_one}", "${status_one}' OR '1'='1", "x' UNION SELECT 1,2 --",
                   "${status_one}".upper(), ""]:
        rows.append([status, _rows(client, col=["id", "status"], status=status)])
    return rows


def probe_tenants_isolated(client):
    rows = []
    for headers in [A, B]:
        full = client.get("/report", params={"limit": ${limit_max}}, headers=headers).json()
        rows.append([full["total"], full["amount_sum"], sorted({r[1] for r in full["rows"]})])
        rows.append(_rows(client, headers=headers, col="id", q="${other_tenant_customer}"))
        rows.append(_rows(client, headers=headers, col="id", min_amount=${big_amount}))
    return rows


def probe_amount_sum(client):
    return [_rows(client, col="id", status="${status_one}", limit=1),
            _rows(client, col="id", q="no such customer"),
            _rows(client, col="id", min_amount=${big_amount}, limit=1)]


def probe_huge_integers(client):
    rows = []
    for params in [{"min_amount": 2**63}, {"min_amount": 10**30}, {"min_amount": 2**63 - 1},
                   {"offset": 2**63}, {"offset": 10**25, "limit": 1}]:
        rows.append([str(params), _rows(client, col="id", **params)])
    r = client.post("/saved", json={"name": "huge"}, headers=A)
    run = f"/saved/{r.json()['id']}/run"
    rows.append(_row(client.get(run, params={"offset": 10**25}, headers=A)))
    rows.append(_row(client.get("/saved/" + str(10**30) + "/run", headers=A)))
    return rows


def probe_router_errors(client):
    rows = []
    for method, path in [("GET", "/nope"), ("POST", "/report"), ("GET", "/saved"),
                         ("DELETE", "/saved/1/run"), ("PUT", "/report/summary"),
                         ("GET", "/report/"), ("GET", "/docs"), ("GET", "/redoc"),
                         ("GET", "/openapi.json")]:
        for headers in ({}, A):
            r = client.request(method, path, headers=headers, follow_redirects=False)
            rows.append([method, path, bool(headers), _row(r), r.headers.get("allow")])
    return rows


def probe_paging(client):
    rows = []
    for params in [{"limit": ${limit_max}}, {"limit": ${limit_max} + 1}, {"limit": 0},
                   {"limit": 2, "offset": 3}, {"offset": -1}, {"offset": 99},
                   {"limit": "two"}, {"min_amount": -1}]:
        rows.append([params, _rows(client, col="id", **params)])
    return rows


def probe_summary(client):
    rows = []
    for headers in [A, B]:
        for by in ["region", "status"]:
            rows.append(_row(client.get("/report/summary", params={"by": by}, headers=headers)))
    for by in ["${hidden}", "tenant", "customer", "region, ${hidden}", "Region", ""]:
        rows.append([by, _row(client.get("/report/summary", params={"by": by}, headers=A))])
    rows.append(_row(client.get("/report/summary", headers=A)))
    return rows


def probe_saved_reports(client):
    made = client.post("/saved", json={"name": "top", "col": ["customer", "amount"],
                                       "sort": "-amount,customer", "q": "${saved_q}"},
                       headers=A)
    saved_id = made.json()["id"]
    rows = [[made.status_code, {k: v for k, v in made.json().items() if k != "id"}]]
    rows.append(_row(client.get(f"/saved/{saved_id}/run", params={"limit": 2}, headers=A)))
    rows.append(_row(client.get(f"/saved/{saved_id}/run", headers=B)))
    rows.append(_row(client.get("/saved/99999/run", headers=A)))
    other = client.post("/saved", json={"name": "mine"}, headers=B).json()["id"]
    rows.append([other > saved_id, _row(client.get(f"/saved/{other}/run", headers=B))])
    return rows


def probe_saved_validated(client):
    rows = []
    for body in [{"name": "x", "col": ["${hidden}"]}, {"name": "x", "sort": "${hidden}"},
                 {"name": "x", "sort": "amount; DROP TABLE orders"},
                 {"name": "x", "col": ["id", "id"]}, {"name": "x", "tenant": "${tenant_b}"},
                 {"name": ""}, {"name": "x", "q": ""}, {"col": ["id"]}]:
        r = client.post("/saved", json=body, headers=A)
        rows.append([sorted(body), _row(r)])
    return rows
''' + late_body.probe_source(
    [("POST", "/saved")],
    [("no key", "{}"), ("unknown key", '{"${key_header}": "nope"}'), ("tenant key", "A")])

PROMPT = '''\
Build the HTTP API of an order-report builder for two tenants. Orders live in an SQLite
database in memory (Python's `sqlite3`), created when the module loads with exactly these
rows; the table also has a column `${hidden}` (an integer) that no report may ever show, sort
by or reveal:

${orders_table}

## Tenants and errors
Every route needs the header `${key_header}` with a tenant's key, exactly as listed:
`${key_a}` is tenant `${tenant_a}`, `${key_b}` is tenant `${tenant_b}`. Anything else is
401 `unauthorized`, before any other check (a body that is not JSON included). A tenant only
ever sees, counts and sums its own orders and its own saved reports. Every error body is
`{"error": <code>}`; invalid parameters or bodies (wrong types, broken bounds, a missing
required one, a body that is not JSON) are 422 `invalid`. A path other than the four routes
below is 404 `not_found` (a trailing slash makes another path, never redirected; the service
publishes no API documentation or schema), and a route's path with another method is 405
`method_not_allowed` with an `Allow` header naming its method: these two are answered with or
without a key. Integer parameters have no upper bound beyond the one stated (a huge
`min_amount` or `offset` simply matches nothing).

## `GET /report`
Query parameters, all optional:
- `col`, repeatable (`?col=customer&col=amount`): the columns to show, in the given order;
  none means `id`, `customer`, `region`, `status`, `amount`. Each must be one of those five
  names exactly, else 400 `unknown_column`; a name given twice is 400 `duplicate_column`
  (when both happen, `unknown_column`).
- `sort`: comma-separated keys, each one of the five column names, optionally prefixed with
  `-` for descending; default `id`. At most ${max_sort} keys, no column twice, nothing else
  (no spaces, no empty keys), else 400 `bad_sort`. Checked after `col`. Text compares
  ignoring the case of ASCII letters (other characters by code point); missing values (null) come last in both directions;
  orders that tie on every key come in ascending `id` order.
- `q` (1-40 characters): only orders whose `customer` contains `q` as a literal substring,
  ignoring case, also for accented letters (`É` matches `é`). No character is a wildcard.
- `status`: only orders with exactly this status.
- `min_amount` (integer, at least 0, default 0): only orders with `amount` at least this.
- `limit` (1-${limit_max}, default ${limit_default}) and `offset` (at least 0, default 0) page
  through the sorted matches.

200 with `{"columns": [...], "rows": [[...], ...], "total": <int>, "amount_sum": <int>}`:
`rows` holds the page, each row the chosen columns' values in order; `total` counts every
match (not only the page) and `amount_sum` adds their `amount`s (0, an integer, when nothing
matches).

## `GET /report/summary?by=<column>`
`by` is required and must be `region` or `status`, else 400 `bad_group`. 200 with a list of
`{"value", "orders", "amount"}`, one per distinct value among the tenant's orders (the count
and the sum of `amount`), ordered by value ignoring ASCII case with null last; values
that differ only in case are separate groups, in code point order (`EU` before `eu`).

## Saved reports
- `POST /saved` `{"name", "col", "sort", "q"}` and no other field: `name` 1-40 characters;
  `col` a list of strings (default `[]`), `sort` a string (default `"id"`) and `q` (1-40
  characters or null, default null) follow the rules of `GET /report` and are checked now
  (400 as there). 201 with `{"id", "name", "col", "sort", "q"}`; ids 1, 2, ... over both
  tenants in creation order.
- `GET /saved/{saved_id}/run` (`limit`, `offset` as above): 200, the saved report's result,
  exactly like `GET /report` with its `col`, `sort` and `q`. A report that does not exist or
  belongs to the other tenant is 404 `not_found`.

## result
Four rows, as tenant `${tenant_a}`:
1. `[total]` of `GET /report`;
2. the `rows` of `GET /report?col=customer&col=amount&sort=-amount&limit=3`;
3. `[body]` of `GET /report?col=${hidden}`;
4. `[body]` of `GET /report/summary?by=status`.
'''

# Two data sets, each with its tenants (whose names and keys never show in a row). Each row:
# tenant index (0 or 1), customer, region, status, amount, hidden.
# They hold what the probes need: names differing only in case and accents, literal `%` and
# `_`, null regions, tied amounts, statuses of several orders.
_DATA = [
    {"rows": [[0, "Bob Ltd", "eu", "paid", 1200, 700], [1, "Umbrella", "us", "paid", 900, 100],
              [0, "alice & co", None, "open", 450, 50], [0, "Émile SA", "eu", "refunded", 3000, 9],
              [1, "Stark", "eu", "open", 100, 20], [0, "50%_off shop", "US", "paid", 450, 300],
              [0, "zeta", "us", "open", 1200, 1], [1, "Wayne", None, "paid", 700, 70],
              [0, "Bobby's", None, "paid", 80, 8], [0, "EMILIE", "Eu", "open", 300, 30],
              [0, "abc", "apac", "refunded", 5, 5]],
     "percent_term": "50%", "fold_terms": ["émile", "ÉMILE", "emil", "BOB", "e s", "é"],
     "status_one": "paid", "other_tenant_customer": "Stark", "saved_q": "b",
     "big_amount": 2000, "tenant_a": "acme", "tenant_b": "globex", "key_a": "rk-acme-7",
     "key_b": "rk-globex-3", "key_header": "X-Report-Key"},
    {"rows": [[1, "Initech", "eu", "open", 50, 5], [0, "ábaco", "latam", "open", 800, 80],
              [0, "Zorro", None, "shipped", 800, 8], [0, "kilo_1", "eu", "shipped", 120, 12],
              [1, "Hooli", "us", "shipped", 640, 64], [0, "ÁBACO norte", "EU", "open", 75, 7],
              [0, "Abacus", "latam", "cancelled", 2500, 250], [0, "mega%", None, "open", 800, 1],
              [0, "nova", "us", "shipped", 9, 9], [1, "Massive", None, "open", 3, 3],
              [0, "kiloX1", "Latam", "open", 333, 3]],
     "percent_term": "a%", "fold_terms": ["ábaco", "ÁBACO", "abac", "KILO", "o n", "á"],
     "status_one": "shipped", "other_tenant_customer": "Hooli", "saved_q": "o",
     "big_amount": 1000, "tenant_a": "north", "tenant_b": "south", "key_a": "k_north",
     "key_b": "k_south", "key_header": "X-Api-Key"},
]


def _derive(p):
    tenants = [p["tenant_a"], p["tenant_b"]]
    orders = [[tenants[t], *rest] for t, *rest in p["rows"]]
    shown = [[number, tenants[t], *rest[:4]] for number, (t, *rest) in enumerate(p["rows"], 1)]
    header = ["id", "tenant", "customer", "region", "status", "amount"]
    keys = ["id", "customer", "region", "status", "amount"]
    return {"orders": orders, "orders_table": table(header, shown) + f"\n\n(`{p['hidden']}` "
            f"values, in id order: {', '.join(str(r[5]) for r in p['rows'])}.)",
            "too_many_sort": ",".join(keys[: p["max_sort"] + 1]),
            "max_sort_ok": ",".join(["-" + keys[1], *keys[2: p["max_sort"] + 1]])}


FAMILY = Family(
    id="security/report_builder",
    title="An SQLite report builder whose chosen columns, sorts and searches stay safe",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"hidden": "cost", **_DATA[0], "max_sort": 3, "limit_max": 10, "limit_default": 5},
    space={
        "hidden": ["cost", "margin"],
        "data": _DATA,
        "max_sort": [2, 3],
        "limit": [{"limit_max": 10, "limit_default": 5}, {"limit_max": 8, "limit_default": 3}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("Every route needs a listed key in `${key_header}`, exactly; else 401 "
                    "`unauthorized` before any other check.",
                    probes="key_required", security=True,
                    traps=(Edit("key checked after the parameters",
                                "def report(\n    who: Tenant,\n" + _REPORT_PARAMS + "):\n",
                                "def report(\n" + _REPORT_PARAMS
                                + "    key: Annotated[str | None, Header(alias=\"${key_header}\")] = None,\n"
                                "):\n    who = tenant(key)\n"))),
        Requirement("The key is checked before the body, even a body that is not JSON (then 422 "
                    "`invalid`).",
                    probes="credentials_before_json", security=True,
                    traps=late_body.body_decoded_first()),
        Requirement("Unknown paths are 404 `not_found` and other methods 405 "
                    "`method_not_allowed` with `Allow`, as `{error}`, with or without a key; no "
                    "documentation routes.",
                    probes="router_errors",
                    traps=(Edit("router errors in FastAPI's format",
                                "@app.exception_handler(StarletteHTTPException)\n",
                                "@app.exception_handler(KeyboardInterrupt)\n"),
                           Edit("documentation served",
                                "docs_url=None, redoc_url=None, openapi_url=None, ", ""),
                           Edit("trailing slash redirected",
                                "openapi_url=None, redirect_slashes=False)", "openapi_url=None)"))),
        Requirement("A `min_amount` or `offset` past SQLite's integers matches nothing "
                    "(200), it does not crash.",
                    probes="huge_integers",
                    traps=Edit("integers bound unchecked", "SQL_MAX = 2**63 - 1",
                               "SQL_MAX = 2**64")),
        Requirement("With no `col`, a report shows the five columns in order, rows by id.",
                    probes="default_report",
                    traps=Edit("default columns in another order",
                               'VISIBLE = ["id", "customer", "region", "status", "amount"]',
                               'VISIBLE = ["id", "customer", "status", "region", "amount"]')),
        Requirement("`col` is read from every repetition in the query string, in order.",
                    probes="columns_repeated",
                    traps=(Edit("col not a query list",
                                "    col: Annotated[list[str] | None, Query()] = None,\n",
                                "    col: list[str] | None = None,\n"))),
        Requirement("Only the five report columns can be shown: any other name or expression "
                    "is 400 `unknown_column`, and a repeat 400 `duplicate_column`.",
                    probes="columns_whitelisted", security=True,
                    traps=(Edit("every table column allowed",
                                "        if name not in VISIBLE:  # a whitelist: nothing but these names reaches the SQL\n",
                                '        if name not in [c[1] for c in db.execute("PRAGMA table_info(orders)")]:\n'),
                           Edit("names quoted instead of checked",
                                "        if name not in VISIBLE:  # a whitelist: nothing but these names reaches the SQL\n"
                                '            raise HTTPException(400, "unknown_column")\n',
                                "        if '\"' in name or name in ('tenant', '${hidden}'):\n"
                                '            raise HTTPException(400, "unknown_column")\n'
                                "    columns = [f'\"{name}\"' for name in columns]\n"))),
        Requirement("`sort` orders by each key in turn, `-` meaning descending.",
                    probes="sort_keys",
                    traps=(Edit("sort key bound as a parameter",
                                "                      f\"ORDER BY {order_by(keys)} LIMIT ? OFFSET ?\",\n"
                                "                      args + [limit, offset]).fetchall()",
                                "                      f\"ORDER BY {', '.join('?' for _ in keys)}, id LIMIT ? OFFSET ?\",\n"
                                "                      args + [k for k, _ in keys] + [limit, offset]).fetchall()"))),
        Requirement("Text sorts ignore the case of ASCII letters.",
                    probes="text_sort_ignores_case",
                    traps=Edit("text sorted by code point",
                               '        collate = " COLLATE NOCASE" if name in TEXT else ""\n',
                               '        collate = ""\n')),
        Requirement("Nulls sort last in both directions.",
                    probes="nulls_last",
                    traps=Edit("SQLite's null order",
                               "{'DESC' if descending else 'ASC'} NULLS LAST\")",
                               "{'DESC' if descending else 'ASC'}\")")),
        Requirement("Ties come in ascending id order, whatever the direction.",
                    probes="ties_oldest_first",
                    traps=Edit("ties follow the direction",
                               '        terms.append("id ASC")  # ties: oldest order first, whatever the direction\n',
                               '        terms.append("id DESC" if keys[0][1] else "id ASC")\n')),
        Requirement("A sort key that is not one of the five columns, optionally prefixed by "
                    "`-` (no repeats, at most ${max_sort}), is 400 `bad_sort`, checked after "
                    "`col`.",
                    probes="sort_refused", security=True,
                    traps=(Edit("any table column sortable",
                                "        if name not in VISIBLE or any(name == k for k, _ in keys):\n",
                                '        if name not in [c[1] for c in db.execute("PRAGMA table_info(orders)")] or any(name == k for k, _ in keys):\n'),
                           Edit("sort checked before col",
                                "    columns = chosen_columns(col or [])\n"
                                "    return run_report(who, columns, sort_keys(sort),",
                                "    keys = sort_keys(sort)\n    columns = chosen_columns(col or [])\n"
                                "    return run_report(who, columns, keys,"))),
        Requirement("`q` is a literal substring: no character in it is a wildcard.",
                    probes="search_literal", security=True,
                    traps=(Edit("q matched with LIKE",
                                '        where += " AND instr(fold(customer), fold(?)) > 0"\n'
                                "        args.append(q)\n",
                                '        where += " AND customer LIKE ?"\n'
                                '        args.append(f"%{q}%")\n'),
                           Edit("q escaped without an ESCAPE clause",
                                '        where += " AND instr(fold(customer), fold(?)) > 0"\n'
                                "        args.append(q)\n",
                                '        where += " AND fold(customer) LIKE fold(?)"\n'
                                "        args.append('%' + q.replace('%', '\\\\%').replace('_', '\\\\_') + '%')\n"))),
        Requirement("`q` ignores case, accented letters included.",
                    probes="search_folds_case",
                    traps=(Edit("SQLite's ASCII-only folding",
                                '        where += " AND instr(fold(customer), fold(?)) > 0"\n',
                                '        where += " AND instr(lower(customer), lower(?)) > 0"\n'))),
        Requirement("Filter values never change the query: `status` matches exactly.",
                    probes="filter_values_bound", security=True,
                    traps=Edit("status pasted into the SQL",
                               '        where += " AND status = ?"\n        args.append(status)\n',
                               "        where += f\" AND status = '{status}'\"\n")),
        Requirement("A tenant's reports count, sum and show only its own orders.",
                    probes="tenants_isolated", security=True,
                    traps=(Edit("totals across tenants",
                                '        f"SELECT count(*), coalesce(sum(amount), 0) FROM orders WHERE {where}", args).fetchone()',
                                '        f"SELECT count(*), coalesce(sum(amount), 0) FROM orders WHERE {where.replace(\'tenant = ?\', \'? = ?\')}", [who] + args).fetchone()'))),
        Requirement("`amount_sum` is an integer, 0 when nothing matches.",
                    probes="amount_sum",
                    traps=(Edit("sum of nothing is null", "coalesce(sum(amount), 0)", "sum(amount)"),
                           Edit("sum as SQLite total()", "coalesce(sum(amount), 0)", "total(amount)"))),
        Requirement("`limit` is 1-${limit_max} (default ${limit_default}), `offset` at least 0; "
                    "`total` counts every match.",
                    probes="paging",
                    traps=(Edit("total counts the page",
                                '    return {"columns": columns, "rows": [list(r) for r in rows], "total": total,',
                                '    return {"columns": columns, "rows": [list(r) for r in rows], "total": len(rows),'))),
        Requirement("The summary groups the tenant's own orders by `region` or `status` only "
                    "(else 400 `bad_group`), by value ignoring ASCII case, null last.",
                    probes="summary", security=True,
                    traps=(Edit("summary over every tenant",
                                "FROM orders WHERE tenant = ? \"\n                      f\"GROUP BY",
                                "FROM orders WHERE tenant = ? OR 1 \"\n                      f\"GROUP BY"),
                           Edit("summary nulls first",
                                "ORDER BY {by} COLLATE NOCASE ASC NULLS LAST, {by}", "ORDER BY {by} COLLATE NOCASE ASC, {by}"))),
        Requirement("A saved report runs as saved and only for its own tenant (404 "
                    "`not_found` otherwise).",
                    probes="saved_reports", security=True,
                    traps=(Edit("saved reports of every tenant",
                                '    if saved is None or saved["tenant"] != who:  # another tenant\'s report does not exist\n',
                                "    if saved is None:\n"))),
        Requirement("Saving checks `col`, `sort` and `q` at once (400 as on `GET /report`) and "
                    "refuses unknown fields.",
                    probes="saved_validated", security=True,
                    traps=(Edit("saved report checked only when run",
                                "    chosen_columns(body.col)  # checked now, so a stored report never carries raw SQL\n"
                                "    sort_keys(body.sort)\n", ""))),
    ),
)
