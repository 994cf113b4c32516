"""Security tier: a CRM whose customers live in an in-memory SQLite database, with filters, a
whitelisted sort, an id list, a literal search and grouped statistics; hidden probes try SQL
through every user-controlled string (search term, sort and order keys, the id list, the
grouping key, filter values), reading or changing another sales rep's customers and notes, a
rep doing the manager's transfer, forged API keys and oversized inputs."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROWS_WITHOUT_HIDDEN
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import re
import sqlite3
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator

KEYS = {"${k1}": "${r1}", "${k2}": "${r2}", "${km}": "${mgr}"}
REPS = {"${r1}", "${r2}"}
MANAGER = "${mgr}"
SORT_COLUMNS = ${sort_columns}
TIERS = ${tiers__repr}
EMAIL = r"^[^@\\s]+@[^@\\s]+$$"
IDS = re.compile(r"[1-9][0-9]{0,8}(,[1-9][0-9]{0,8}){0,19}")
COLUMNS = "id, owner, name, email, city, tier, revenue"
# SQLite integers are 64-bit: a larger id names no customer, a larger bound is clamped
SQL_MAX = 2**63 - 1

db = sqlite3.connect(":memory:", check_same_thread=False)
db.executescript("""
CREATE TABLE customers (id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT, name TEXT,
                        email TEXT, city TEXT, tier TEXT, revenue INTEGER);
CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, customer_id INTEGER, author TEXT,
                    text TEXT);
""")

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"detail": "invalid"}, status_code=422)


class CustomerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60)
    email: str = Field(max_length=80, pattern=EMAIL)
    city: str = Field(min_length=1, max_length=40)
    tier: Literal[${tiers_literal}] = "${tier0}"
    revenue: int = Field(0, ge=0, le=${revenue_max})

    @field_validator("email")
    @classmethod
    def lower_email(cls, value: str) -> str:
        return value.lower()


class CustomerPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=60)
    city: str | None = Field(None, min_length=1, max_length=40)
    tier: Literal[${tiers_literal}] | None = None
    revenue: int | None = Field(None, ge=0, le=${revenue_max})


class NoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=${note_max})


class TransferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: str


def caller(key: Annotated[str | None, Header(alias="${key_header}")] = None) -> str:
    if key not in KEYS:
        raise HTTPException(401, "unauthenticated")
    return KEYS[key]


User = Annotated[str, Depends(caller)]


def rep(user: User) -> str:
    if user not in REPS:
        raise HTTPException(403, "forbidden")
    return user


def manager(user: User) -> str:
    if user != MANAGER:
        raise HTTPException(403, "forbidden")
    return user


def customer_out(row) -> dict:
    return dict(zip(["id", "owner", "name", "email", "city", "tier", "revenue"], row))


def find_customer(customer_id: int, user: str) -> dict:
    row = None
    if abs(customer_id) <= SQL_MAX:
        row = db.execute(f"SELECT {COLUMNS} FROM customers WHERE id = ?",
                         (customer_id,)).fetchone()
    if row is None or (row[1] != user and user != MANAGER):
        raise HTTPException(404, "not_found")
    return customer_out(row)


def visible(customer_id: int, user: User) -> dict:
    return find_customer(customer_id, user)


def owned(customer_id: int, user: Annotated[str, Depends(rep)]) -> dict:
    return find_customer(customer_id, user)


def transferable(customer_id: int, user: Annotated[str, Depends(manager)]) -> dict:
    return find_customer(customer_id, user)


def scope(user: str) -> tuple[str, tuple]:
    """The WHERE clause that limits a query to the customers the caller sees."""
    return ("(owner = ? OR ? = 1)", (user, int(user == MANAGER)))


def duplicate_email(owner: str, email: str) -> bool:
    return db.execute("SELECT 1 FROM customers WHERE owner = ? AND email = ?",
                      (owner, email)).fetchone() is not None


@app.post("/customers", status_code=201)
def create_customer(body: CustomerIn, response: Response, user: Annotated[str, Depends(rep)]):
    if duplicate_email(user, body.email):
        raise HTTPException(409, "duplicate")
    cursor = db.execute(
        "INSERT INTO customers (owner, name, email, city, tier, revenue) VALUES (?, ?, ?, ?, ?, ?)",
        (user, body.name, body.email, body.city, body.tier, body.revenue))
    response.headers["Location"] = f"/customers/{cursor.lastrowid}"
    return find_customer(cursor.lastrowid, user)


@app.get("/customers")
def list_customers(
    response: Response,
    user: User,
    city: Annotated[str | None, Query(min_length=1, max_length=40)] = None,
    tier: Literal[${tiers_literal}] | None = None,
    min_revenue: Annotated[int, Query(ge=0)] = 0,
    ids: str | None = None,
    sort: Literal[${sort_literal}] = "id",
    order: Literal["asc", "desc"] = "asc",
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
    offset: Annotated[int, Query(ge=0)] = 0,
):
    where, args = scope(user)
    where += " AND (? IS NULL OR lower(city) = lower(?)) AND (? IS NULL OR tier = ?)"
    where += " AND revenue >= ?"
    args += (city, city, tier, tier, min(min_revenue, SQL_MAX))
    if ids is not None:
        if not IDS.fullmatch(ids):
            raise RequestValidationError([{"type": "ids", "loc": ("query", "ids")}])
        wanted = [int(part) for part in ids.split(",")]
        where += f" AND id IN ({', '.join('?' for _ in wanted)})"
        args += tuple(wanted)
    total = db.execute(f"SELECT count(*) FROM customers WHERE {where}", args).fetchone()[0]
    by = f"{SORT_COLUMNS[sort]} {order.upper()}, id ASC"
    rows = db.execute(f"SELECT {COLUMNS} FROM customers WHERE {where} ORDER BY {by} "
                      "LIMIT ? OFFSET ?", args + (limit, min(offset, SQL_MAX))).fetchall()
    response.headers["X-Total-Count"] = str(total)
    return [customer_out(r) for r in rows]


@app.get("/customers/search")
def search(user: User, q: Annotated[str, Query(min_length=1, max_length=30)]):
    where, args = scope(user)
    rows = db.execute(f"SELECT {COLUMNS} FROM customers WHERE {where} AND ${search_sql} "
                      "ORDER BY id", args + ${search_args}).fetchall()
    return [customer_out(r) for r in rows]


@app.get("/stats")
def stats(user: User, by: Literal["tier", "city"]):
    where, args = scope(user)
    rows = db.execute(f"SELECT {by}, count(*), sum(revenue) FROM customers WHERE {where} "
                      f"GROUP BY {by} ORDER BY {by}", args).fetchall()
    return [{"value": r[0], "customers": r[1], "revenue": r[2]} for r in rows]


@app.get("/customers/{customer_id}")
def read_customer(customer: Annotated[dict, Depends(visible)]):
    return customer


@app.patch("/customers/{customer_id}")
def update_customer(customer: Annotated[dict, Depends(owned)], changes: CustomerPatch):
    customer |= changes.model_dump(exclude_none=True)
    db.execute("UPDATE customers SET name = ?, city = ?, tier = ?, revenue = ? WHERE id = ?",
               (customer["name"], customer["city"], customer["tier"], customer["revenue"],
                customer["id"]))
    return customer


@app.delete("/customers/{customer_id}", status_code=204)
def delete_customer(customer: Annotated[dict, Depends(owned)]):
    db.execute("DELETE FROM notes WHERE customer_id = ?", (customer["id"],))
    db.execute("DELETE FROM customers WHERE id = ?", (customer["id"],))


@app.post("/customers/{customer_id}/notes", status_code=201)
def add_note(customer: Annotated[dict, Depends(owned)], body: NoteIn):
    cursor = db.execute("INSERT INTO notes (customer_id, author, text) VALUES (?, ?, ?)",
                        (customer["id"], customer["owner"], body.text))
    return {"id": cursor.lastrowid, "customer_id": customer["id"], "author": customer["owner"],
            "text": body.text}


@app.get("/customers/{customer_id}/notes")
def list_notes(customer: Annotated[dict, Depends(visible)]):
    rows = db.execute("SELECT id, customer_id, author, text FROM notes WHERE customer_id = ? "
                      "ORDER BY id", (customer["id"],)).fetchall()
    return [dict(zip(["id", "customer_id", "author", "text"], r)) for r in rows]


@app.post("/customers/{customer_id}/transfer")
def transfer(customer: Annotated[dict, Depends(transferable)], body: TransferIn):
    if body.to not in REPS:
        raise RequestValidationError([{"type": "rep", "loc": ("body", "to")}])
    if body.to != customer["owner"] and duplicate_email(body.to, customer["email"]):
        raise HTTPException(409, "duplicate")
    db.execute("UPDATE customers SET owner = ? WHERE id = ?", (body.to, customer["id"]))
    return customer | {"owner": body.to}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
as1 = {"${key_header}": "${k1}"}
result = [
    row(client.post("/customers", json={"name": "${name1}", "email": "${email1}",
                                        "city": "${city1}"}, headers=as1)),
    row(client.post("/customers", json={"name": "${name1}", "email": "${email1}",
                                        "city": "${city1}", "tier": "${tier2}",
                                        "revenue": 500}, headers=as1)),
    row(client.get("/customers/1", headers=as1)),
    row(client.get("/customers/1", headers={"${key_header}": "${k2}"})),
    row(client.get("/customers/1")),
]
'''

PROBES = '''\
H1 = {"${key_header}": "${k1}"}
H2 = {"${key_header}": "${k2}"}
HM = {"${key_header}": "${km}"}
TIERS = ${tiers__repr}
SORTS = ${sort_keys__repr}
HIDDEN = ("id", "customer_id")


''' + ROWS_WITHOUT_HIDDEN + '''

def _customer(client, headers, name, email=None, city="Oslo", tier=None, revenue=0):
    body = {"name": name, "email": email or name.replace(" ", ".").lower() + "@x.io",
            "city": city, "revenue": revenue}
    if tier is not None:
        body["tier"] = tier
    r = client.post("/customers", json=body, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _names(r):
    return [c["name"] for c in r.json()] if r.status_code == 200 else r.json()


def probe_key_required(client):
    rows = []
    for value in [None, "", "${k1} ", " ${k1}", "${k1}".upper(), "${r1}", "Bearer ${k1}",
                  "${k1}x", "${k1}"[:-1]]:
        headers = {} if value is None else {"${key_header}": value}
        for method, path in [("GET", "/customers"), ("POST", "/customers"),
                             ("GET", "/customers/search?q=a"), ("GET", "/stats?by=tier"),
                             ("GET", "/customers/1/notes"), ("POST", "/customers/1/transfer")]:
            r = client.request(method, path, headers=headers, json={})
            rows.append([value, method, path, r.status_code, r.json()])
    rows.append(_row(client.get("/customers", headers={"Authorization": "${k1}"})))
    return rows


def probe_create_and_read(client):
    r = client.post("/customers", headers=H2, json={"name": "Zed Co", "email": " Zed@Corp.IO",
                                                     "city": "Rome"})
    rows = [[r.status_code]]
    r = client.post("/customers", headers=H2, json={"name": "Zed Co", "email": "Zed@Corp.IO",
                                                     "city": "Rome"})
    created = r.json()
    rows.append([r.status_code, _plain(created),
                 r.headers.get("location") == f"/customers/{created['id']}"])
    again = client.get(f"/customers/{created['id']}", headers=H2)
    rows.append([again.status_code, again.json() == created])
    rows.append(_row(client.get("/customers/99999", headers=H2)))
    rows.append(_row(client.post("/customers", headers=H2,
                                 json={"name": "Other", "email": "zed@corp.io", "city": "X"})))
    rows.append(_row(client.post("/customers", headers=H1,
                                 json={"name": "Mine too", "email": "ZED@corp.io", "city": "X"})))
    return rows


def probe_input_bounds(client):
    base = {"name": "n", "email": "b@x.io", "city": "c"}
    rows = []
    for n, change in enumerate([
            {"name": ""}, {"name": "n" * 60}, {"name": "n" * 61}, {"city": ""},
            {"city": "c" * 40}, {"city": "c" * 41}, {"email": "no-at"}, {"email": "a@@b"},
            {"email": "a b@c.d"}, {"email": "a@" + "e" * 79}, {"email": "a@" + "e" * 78},
            {"revenue": -1}, {"revenue": ${revenue_max}}, {"revenue": ${revenue_max} + 1},
            {"revenue": 1.5}, {"tier": "${tier0}".upper()},
            {"tier": "platinum"}, {"tier": TIERS[-1]}, {"name": "x" * 100000}]):
        body = base | change
        if "email" not in change:
            body["email"] = f"b{n}@x.io"
        r = client.post("/customers", json=body, headers=H1)
        rows.append([change if len(str(change)) < 200 else "huge", r.status_code,
                     r.json().get("revenue") if r.status_code == 201 else r.json()])
    cid = _customer(client, H1, "patch bounds")
    for change in [{"revenue": ${revenue_max} + 1}, {"name": ""}, {"city": "c" * 41},
                   {"tier": "gold-ish"}, {"revenue": 0}, {}]:
        rows.append([change, _row(client.patch(f"/customers/{cid}", json=change, headers=H1))])
    for text in ["", "t" * ${note_max}, "t" * (${note_max} + 1)]:
        r = client.post(f"/customers/{cid}/notes", json={"text": text}, headers=H1)
        rows.append([len(text), r.status_code])
    return rows


def probe_body_cannot_set_protected_fields(client):
    rows = []
    for extra in [{"owner": "${r2}"}, {"id": 4242}, {"Owner": "${r2}"}, {"verified": True}]:
        body = {"name": "mass", "email": f"m{len(rows)}@x.io", "city": "c"} | extra
        rows.append([extra, _row(client.post("/customers", json=body, headers=H1))])
    cid = _customer(client, H1, "massive")
    for extra in [{"owner": "${r2}"}, {"email": "new@x.io"}, {"id": 1}, {"name": "ok",
                                                                          "owner": "${r2}"}]:
        rows.append([extra, _row(client.patch(f"/customers/{cid}", json=extra, headers=H1))])
    rows.append(_row(client.get(f"/customers/{cid}", headers=H1)))
    rows.append(_row(client.post(f"/customers/{cid}/notes", json={"text": "t", "author": "${r2}"},
                                 headers=H1)))
    rows.append(_row(client.post(f"/customers/{cid}/transfer", json={"to": "${r2}",
                                                                     "notes": False},
                                 headers=HM)))
    return rows


def probe_reps_see_only_their_customers(client):
    theirs = _customer(client, H2, "Only Two", city="Lima", revenue=7)
    _customer(client, H1, "Only One", city="Lima", revenue=7)
    rows = [[sorted({c["owner"] for c in client.get("/customers", params={"limit": ${limit_max}},
                                                   headers=H1).json()})],
            [theirs in [c["id"] for c in client.get("/customers", params={"ids": str(theirs)},
                                                   headers=H1).json()]],
            [client.get("/customers", params={"ids": str(theirs)}, headers=H1)
             .headers.get("x-total-count")],
            [theirs in [c["id"] for c in client.get("/customers", params={"ids": str(theirs)},
                                                   headers=HM).json()]]]
    for method, path, body in [("GET", f"/customers/{theirs}", None),
                               ("PATCH", f"/customers/{theirs}", {"revenue": 1}),
                               ("DELETE", f"/customers/{theirs}", None),
                               ("GET", f"/customers/{theirs}/notes", None),
                               ("POST", f"/customers/{theirs}/notes", {"text": "spy"})]:
        rows.append([method, path == f"/customers/{theirs}",
                     _row(client.request(method, path, json=body, headers=H1))])
    rows.append(_row(client.get(f"/customers/{theirs}", headers=H2)))
    rows.append(_row(client.get(f"/customers/{theirs}/notes", headers=H2)))
    for huge in [2**63 - 1, 2**63, 10**30]:
        for method, path, body, headers in [
                ("GET", "", None, H1), ("PATCH", "", {"revenue": 1}, H1), ("DELETE", "", None, H1),
                ("GET", "/notes", None, H1), ("POST", "/notes", {"text": "t"}, H1),
                ("GET", "/notes", None, HM), ("POST", "/transfer", {"to": "${r2}"}, HM)]:
            rows.append([huge, method, path, _row(client.request(
                method, f"/customers/{huge}{path}", json=body, headers=headers))])
    rows.append([[s["customers"] for s in client.get("/stats", params={"by": "city"},
                                                    headers=H1).json() if s["value"] == "Lima"]])
    return rows


def probe_manager_reads_but_only_transfers(client):
    cid = _customer(client, H1, "Managed", city="Kyiv")
    client.post(f"/customers/{cid}/notes", json={"text": "hello"}, headers=H1)
    rows = [_row(client.get(f"/customers/{cid}", headers=HM)),
            _row(client.get(f"/customers/{cid}/notes", headers=HM)),
            _row(client.post("/customers", json={"name": "m", "email": "m@m.m", "city": "c"},
                             headers=HM)),
            _row(client.patch(f"/customers/{cid}", json={"revenue": 3}, headers=HM)),
            _row(client.delete(f"/customers/{cid}", headers=HM)),
            _row(client.post(f"/customers/{cid}/notes", json={"text": "boss"}, headers=HM)),
            _row(client.post(f"/customers/{cid}/transfer", json={"to": "${r2}"}, headers=H1)),
            _row(client.post(f"/customers/{cid}/transfer", json={"to": "${r2}"}, headers=H2))]
    return rows


def probe_transfer_moves_ownership(client):
    cid = _customer(client, H1, "Moving", email="move@x.io")
    client.post(f"/customers/{cid}/notes", json={"text": "history"}, headers=H1)
    rows = []
    for to in ["${mgr}", "nobody", "${r2}".upper(), "", 5]:
        rows.append([to, _row(client.post(f"/customers/{cid}/transfer", json={"to": to},
                                          headers=HM))])
    rows.append(_row(client.post(f"/customers/{cid}/transfer", json={"to": "${r2}"}, headers=HM)))
    rows.append(_row(client.get(f"/customers/{cid}", headers=H1)))
    rows.append(_row(client.get(f"/customers/{cid}", headers=H2)))
    rows.append(_row(client.get(f"/customers/{cid}/notes", headers=H2)))
    rows.append(_row(client.post(f"/customers/{cid}/transfer", json={"to": "${r2}"}, headers=HM)))
    _customer(client, H1, "Clash", email="clash@x.io")
    theirs = _customer(client, H2, "Clash two", email="clash@x.io")
    rows.append(_row(client.post(f"/customers/{theirs}/transfer", json={"to": "${r1}"},
                                 headers=HM)))
    rows.append(_row(client.post("/customers/99999/transfer", json={"to": "${r1}"}, headers=HM)))
    return rows


def probe_delete_never_reuses_ids(client):
    first = _customer(client, H2, "Gone soon")
    client.post(f"/customers/{first}/notes", json={"text": "bye"}, headers=H2)
    rows = [_row(client.delete(f"/customers/{first}", headers=H2)),
            _row(client.delete(f"/customers/{first}", headers=H2)),
            _row(client.get(f"/customers/{first}", headers=H2)),
            _row(client.get(f"/customers/{first}/notes", headers=HM))]
    r = client.post("/customers", headers=H2, json={"name": "Gone soon", "email": "gone.soon@x.io",
                                                     "city": "c"})
    rows.append([r.status_code, r.json()["id"] == first + 1])
    return rows


def probe_filters_and_sorting(client):
    headers = {"${key_header}": "${k2}"}
    made = [_customer(client, headers, name, city=city, tier=TIERS[t], revenue=rev)
            for name, city, t, rev in [("beta", "Paris", 1, 300), ("Alpha", "paris", 0, 900),
                                       ("gamma", "Berlin", 2, 300), ("delta", "Paris", 1, 50)]]
    ids = ",".join(str(i) for i in made)
    rows = []
    for params in [{}, {"city": "PARIS"}, {"city": "Par"}, {"tier": TIERS[1]},
                   {"min_revenue": 300}, {"min_revenue": 301}, {"min_revenue": 2**63},
                   {"min_revenue": 10**30}, {"order": "desc"},
                   {"city": "paris", "limit": 1}, {"tier": TIERS[1], "offset": 1}] + [
            {"sort": key} for key in SORTS] + [{"sort": key, "order": "desc"} for key in SORTS]:
        r = client.get("/customers", params={"ids": ids, "limit": ${limit_max}} | params,
                       headers=headers)
        rows.append([params, r.status_code, _names(r), r.headers.get("x-total-count")])
    return rows


def probe_paging(client):
    headers = {"${key_header}": "${k1}"}
    made = [_customer(client, headers, f"page{n:02d}", city="Pagetown") for n in range(${made})]
    rows = []
    for params in [{}, {"limit": 1}, {"limit": ${limit_max}}, {"limit": 2, "offset": 3},
                   {"offset": ${made}}, {"offset": ${made} - 1}, {"limit": 0},
                   {"limit": ${limit_max} + 1}, {"offset": -1}, {"offset": 2**63},
                   {"offset": 10**30, "limit": 1}]:
        r = client.get("/customers", params={"city": "pagetown"} | params, headers=headers)
        rows.append([params, r.status_code, _names(r), r.headers.get("x-total-count")])
    rows.append([len(made)])
    return rows


def probe_sort_and_filters_are_not_sql(client):
    headers = {"${key_header}": "${k2}"}
    made = [_customer(client, headers, name, revenue=rev)
            for name, rev in [("sq1", 30), ("sq2", 10), ("sq3", 20)]]
    _customer(client, H1, "victim of sql", city="Secret")
    ids = ",".join(str(i) for i in made)
    rows = []
    for params in [{"sort": "revenue DESC"}, {"sort": "Revenue"}, {"sort": "(SELECT 1)"},
                   {"sort": "email"}, {"sort": "tier"}, {"sort": "owner"},
                   {"sort": "name; DROP TABLE customers"}, {"order": "DESC"},
                   {"order": "desc, revenue"}, {"order": "asc --"},
                   {"tier": TIERS[0] + "' OR '1'='1"}, {"city": "x' OR '1'='1"},
                   {"city": "Secret') OR 1=1 --"}, {"min_revenue": "0 OR 1=1"}]:
        r = client.get("/customers", params={"ids": ids} | params, headers=headers)
        rows.append([params, r.status_code, _names(r)])
    for by in ["owner", "tier ", "Tier", "city; DROP TABLE notes", "revenue", "(SELECT owner)"]:
        r = client.get("/stats", params={"by": by}, headers=headers)
        rows.append([by, _row(r)])
    rows.append([client.get("/customers", params={"ids": ids, "sort": "id"},
                            headers=headers).status_code])
    return rows


def probe_id_list_is_strict(client):
    headers = {"${key_header}": "${k2}"}
    mine = [_customer(client, headers, f"idl{n}") for n in range(3)]
    other = _customer(client, H1, "not in the list")
    rows = []
    for ids in [f"{mine[0]}", f"{mine[2]},{mine[0]}", f"{mine[0]},{mine[0]}",
                f"{mine[1]},{other}", f"{mine[0]}) OR (1=1", f"{mine[0]} OR 1=1", f"{mine[0]},",
                f",{mine[0]}", f"{mine[0]}, {mine[1]}", "0", "-1", "", "a", f"0{mine[0]}",
                ",".join(str(mine[0]) for _ in range(20)),
                ",".join(str(mine[0]) for _ in range(21)), f"{other}"]:
        r = client.get("/customers", params={"ids": ids}, headers=headers)
        rows.append([ids.replace(str(other), "OTHER"), r.status_code, _names(r),
                     r.headers.get("x-total-count")])
    return rows


def probe_search_is_literal(client):
    headers = {"${key_header}": "${k1}"}
    for name, email in [("Rent 100%", "rent@pct.io"), ("O'Brien", "obrien@q.io"),
                        ("a_b", "ab@u.io"), ("Consulting", "cons@c.io"),
                        ("Northwind", "sales@consulting.io"), ("plain", "p@p.io")]:
        _customer(client, headers, name, email=email)
    _customer(client, H2, "consulting for two", email="two@consulting.io")
    rows = []
    for q in ["consulting", "Cons", "CONSULTING", "%", "_", "'", "O'Brien", "' OR 1=1 --",
              "x') > 0 OR 1=1 --", "%' OR '1'='1", "100%", "a_b", "a%b", "q.io", "@",
              "q" * 30, "q" * 31, "", " "]:
        r = client.get("/customers/search", params={"q": q}, headers=headers)
        rows.append([q, r.status_code, _names(r)])
    rows.append(_row(client.get("/customers/search", headers=headers)))
    rows.append([[c["owner"] for c in client.get("/customers/search", params={"q": "onsult"},
                                                 headers=HM).json()]])
    return rows


def probe_stats(client):
    headers = {"${key_header}": "${k2}"}
    _customer(client, H1, "stat noise", city="Aaa", tier=TIERS[0], revenue=1000)
    before = client.get("/stats", params={"by": "tier"}, headers=headers).json()
    for name, city, t, rev in [("s1", "Aaa", 2, 10), ("s2", "Bbb", 2, 15), ("s3", "Aaa", 0, 1)]:
        _customer(client, headers, name, city=city, tier=TIERS[t], revenue=rev)
    after = client.get("/stats", params={"by": "tier"}, headers=headers)
    rows = [[after.status_code],
            [[s["value"] for s in after.json()] == sorted(s["value"] for s in after.json())]]
    old = {s["value"]: [s["customers"], s["revenue"]] for s in before}
    for s in after.json():
        was = old.get(s["value"], [0, 0])
        rows.append([s["value"], s["customers"] - was[0], s["revenue"] - was[1]])
    city = client.get("/stats", params={"by": "city"}, headers=headers).json()
    rows.append([[s for s in city if s["value"] in ("Aaa", "Bbb")]])
    rows.append(_row(client.get("/stats", headers=headers)))
    return rows


def probe_checks_in_order(client):
    theirs = _customer(client, H2, "ordering")
    bad = {"revenue": -5}
    return [_row(client.patch(f"/customers/{theirs}", json=bad)),
            _row(client.patch(f"/customers/{theirs}", json=bad, headers=HM)),
            _row(client.patch(f"/customers/{theirs}", json=bad, headers=H1)),
            _row(client.patch("/customers/99999", json=bad, headers=H2)),
            _row(client.patch(f"/customers/{theirs}", json=bad, headers=H2)),
            _row(client.post(f"/customers/{theirs}/transfer", json={"to": "x"}, headers=H1)),
            _row(client.post("/customers/99999/transfer", json={"to": "x"}, headers=HM)),
            _row(client.post("/customers/99999/transfer", json={"to": "x"}, headers=H1)),
            _row(client.post(f"/customers/{theirs}/notes", json={"text": ""}, headers=H1)),
            _row(client.get("/customers/abc", headers=H2)),
            _row(client.get("/customers", params={"limit": 0, "sort": "x"}))]
'''

PROMPT = '''\
Build a small CRM API for a sales team. Customers and their notes are kept in an in-memory
SQLite database (the standard library's `sqlite3`). Three users exist, each with a fixed API
key sent in the header `${key_header}`:

| key | user | role |
|---|---|---|
| `${k1}` | `${r1}` | sales rep |
| `${k2}` | `${r2}` | sales rep |
| `${km}` | `${mgr}` | manager |

**Authentication.** Every route needs the header `${key_header}` carrying one of these keys
exactly (no other header, no surrounding spaces, case as written); anything else is 401.

**Errors** have the body `{"detail": <code>}`: 401 `"unauthenticated"`, 403 `"forbidden"`,
404 `"not_found"`, 409 `"duplicate"`, and 422 `"invalid"` for any body, path or query
parameter that is not valid as described. When several apply, the first in this order wins:
401, 403, 404, 422, 409. Integers have no upper bound beyond the stated ones: an id in a path
that no customer has, however large, is 404, a huge `min_revenue` matches no customer and a
huge `offset` gives an empty page.

**Who sees what.** A rep sees and changes only the customers they own and those customers'
notes. The manager sees every customer and note but only transfers: creating, changing,
deleting customers and adding notes are for reps only (403 for the manager), transferring is
for the manager only (403 for a rep). A customer the caller may not see is answered exactly
like one that does not exist (404).

**A customer** is `{"id", "owner", "name", "email", "city", "tier", "revenue"}`: name 1-60
characters, email at most 80 characters of the form `local@domain` (exactly one `@`, no
whitespace, both parts non-empty) stored in lower case, city 1-40 characters, tier one of
${tiers_text} (default `"${tier0}"`), revenue an integer 0 to ${revenue_max} (default 0). The
owner is the rep who created it. Ids count 1, 2, 3, ... in creation order and are never
reused, not even after a delete. A rep cannot own two customers with the same (lower-cased)
email: 409. A body with any field not listed for its route is 422.

**Routes.**
- `POST /customers` `{"name", "email", "city", "tier"?, "revenue"?}`: 201 with the customer
  and `Location: /customers/<id>`.
- `GET /customers`: 200, the customers the caller sees, with the header `X-Total-Count`
  (how many match the filters, before paging). Filters, all optional and combined: `city`
  (1-40 characters, equal ignoring ASCII case), `tier` (one of the tiers), `min_revenue`
  (integer >= 0, default 0: revenue at least this), `ids` (1 to 20 customer ids separated by
  commas, each a positive integer written without a sign, leading zero or spaces; keeps those
  customers). `sort` is `id` (default) or one of ${sort_text}; `order` is `asc` (default) or
  `desc`; ties are broken by id ascending. `limit` 1 to ${limit_max} (default
  ${limit_default}), `offset` >= 0 (default 0). Any other value of these parameters is 422.
- `GET /customers/search?q=`: 200, every customer the caller sees whose ${search_text}
  contains `q` (required, 1-30 characters) as a literal substring${case_text}; by id, not paged.
  Every character of `q` stands for itself.
- `GET /customers/{id}`: 200 with the customer.
- `PATCH /customers/{id}` `{"name"?, "city"?, "tier"?, "revenue"?}`: changes the fields given
  (same limits; the email and owner never change this way); 200 with the customer.
- `DELETE /customers/{id}`: 204, the customer and its notes are gone.
- `POST /customers/{id}/notes` `{"text"}` (1-${note_max} characters): 201 with
  `{"id", "customer_id", "author", "text"}`, the author being the caller. Note ids count 1, 2,
  3, ... over all customers.
- `GET /customers/{id}/notes`: 200, the customer's notes by id.
- `POST /customers/{id}/transfer` `{"to"}`: the manager gives the customer (with its notes) to
  the rep named `to` (a rep's user name exactly, else 422); 409 if that rep already owns
  another customer with its email; 200 with the customer as it is now.
- `GET /stats?by=`: `by` is `tier` or `city` (required); 200, one object
  `{"value", "customers", "revenue"}` for each distinct value of that field among the
  customers the caller sees (the count and the summed revenue), ordered by value.

`result`: `[status code, JSON body]` of each of, as `${r1}` unless said otherwise:
1. `POST /customers` with `{"name": "${name1}", "email": "${email1}", "city": "${city1}"}`
2. the same request with `"tier": "${tier2}", "revenue": 500` added
3. `GET /customers/1`
4. `GET /customers/1` as `${r2}`
5. `GET /customers/1` without a key
'''

_TIERS = [["bronze", "silver", "gold"], ["free", "pro", "enterprise"]]
_SORT_COLUMNS = {"name": "name", "revenue": "revenue", "city": "city"}
_SEARCH = {  # (fields, case) -> (prompt text, SQL condition, the arguments' Python source)
    ("name", False): ("name", "instr(lower(name), lower(?)) > 0", "(q,)"),
    ("name", True): ("name", "instr(name, ?) > 0", "(q,)"),
    ("name_email", False): ("name or email",
                            "(instr(lower(name), lower(?)) > 0 OR instr(email, lower(?)) > 0)",
                            "(q, q)"),
    ("name_email", True): ("name or email", "(instr(name, ?) > 0 OR instr(email, ?) > 0)",
                           "(q, q)"),
}


def _quoted(values):
    return ", ".join(f'"{v}"' for v in values)


def _derive(p):
    text, sql, args = _SEARCH[(p["search_in"], p["case_sensitive"])]
    keys = p["sort_keys"]
    tiers = _TIERS[p["tier_set"]]
    return {
        "k1": p["kp"] + p["r1"] + "-1", "k2": p["kp"] + p["r2"] + "-2",
        "km": p["kp"] + p["mgr"] + "-0",
        "tiers": tiers, "tier0": tiers[0], "tier2": tiers[2], "tiers_literal": _quoted(tiers),
        "tiers_text": ", ".join(f"`{t}`" for t in tiers),
        "sort_columns": repr({"id": "id"} | {k: _SORT_COLUMNS[k] for k in keys}),
        "sort_literal": _quoted(["id", *keys]),
        "sort_text": ", ".join(f"`{k}`" for k in keys),
        "search_text": text, "search_sql": sql, "search_args": args,
        "case_text": " (case-sensitive)" if p["case_sensitive"] else " ignoring ASCII case",
        "made": p["limit_max"] + 2,
    }


_PATCH_DEPENDENCY = "def update_customer(customer: Annotated[dict, Depends(owned)], " \
                    "changes: CustomerPatch):"
_SORT = '''    sort: Literal[${sort_literal}] = "id",
    order: Literal["asc", "desc"] = "asc",'''
_SEARCH_CALL = '''AND ${search_sql} "
                      "ORDER BY id", args + ${search_args})'''
_IN = '''        if not IDS.fullmatch(ids):
            raise RequestValidationError([{"type": "ids", "loc": ("query", "ids")}])
        wanted = [int(part) for part in ids.split(",")]
        where += f" AND id IN ({', '.join('?' for _ in wanted)})"
        args += tuple(wanted)'''

FAMILY = Family(
    id="security/customer_search",
    title="A CRM in SQLite whose search, sort, id list and grouping withstand injection",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"r1": "maya", "r2": "omar", "mgr": "grace", "key_header": "X-Api-Key",
              "kp": "crm-", "sort_keys": ["name", "revenue"], "tier_set": 0,
              "search_in": "name_email", "case_sensitive": False, "limit_max": 10,
              "limit_default": 4, "revenue_max": 1000000, "note_max": 200,
              "name1": "Acme Ltd", "email1": "Buyer@Acme.example", "city1": "Lyon"},
    space={
        "r1": [{"r1": "maya", "r2": "omar", "mgr": "grace", "key_header": "X-Api-Key"},
               {"r1": "lena", "r2": "tariq", "mgr": "boss", "key_header": "X-CRM-Key"}],
        "kp": ["crm-", "k_"],
        "sort_keys": [["name", "revenue"], ["city", "name", "revenue"], ["revenue", "city"]],
        "tier_set": [0, 1],
        "search_in": [{"search_in": "name_email", "case_sensitive": False},
                      {"search_in": "name", "case_sensitive": True},
                      {"search_in": "name", "case_sensitive": False},
                      {"search_in": "name_email", "case_sensitive": True}],
        "limit_max": [{"limit_max": 10, "limit_default": 4},
                      {"limit_max": 6, "limit_default": 3},
                      {"limit_max": 15, "limit_default": 5}],
        "revenue_max": [{"revenue_max": 1000000, "note_max": 200},
                        {"revenue_max": 250000, "note_max": 120}],
        "name1": [{"name1": "Acme Ltd", "email1": "Buyer@Acme.example", "city1": "Lyon"},
                  {"name1": "Globex", "email1": "OPS@globex.example", "city1": "Porto"}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement(
            "Every route needs the header `${key_header}` carrying a listed key exactly; "
            "anything else is 401 `unauthenticated`.",
            probes=("key_required",),
            traps=(Edit("keys trimmed", "    if key not in KEYS:\n",
                        "    key = (key or '').strip()\n    if key not in KEYS:\n"),
                   Edit("keys ignore case", "    if key not in KEYS:\n        raise HTTPException"
                        "(401, \"unauthenticated\")\n    return KEYS[key]",
                        "    key = {k.lower(): k for k in KEYS}.get((key or '').lower())\n"
                        "    if key not in KEYS:\n        raise HTTPException"
                        "(401, \"unauthenticated\")\n    return KEYS[key]"),
                   Edit("user name accepted as key", "    if key not in KEYS:\n",
                        "    key = {v: k for k, v in KEYS.items()}.get(key, key)\n"
                        "    if key not in KEYS:\n")),
            security=True),
        Requirement(
            "Creating a customer answers 201 with it and `Location: /customers/<id>`, the email "
            "lower-cased; a rep's second customer with that email is 409 `duplicate`.",
            probes=("create_and_read",),
            traps=(Edit("email kept as sent", "        return value.lower()",
                        "        return value"),
                   Edit("no Location", '    response.headers["Location"] = '
                        'f"/customers/{cursor.lastrowid}"\n', ""),
                   Edit("duplicates allowed", "    if duplicate_email(user, body.email):\n"
                        "        raise HTTPException(409, \"duplicate\")\n", ""))),
        Requirement(
            "Names are 1-60 characters, emails at most 80 of the form `local@domain`, cities "
            "1-40, tiers from the list, revenue an integer 0 to ${revenue_max}, notes "
            "1-${note_max}, on creation and update; else 422 `invalid`.",
            probes=("input_bounds",),
            traps=(Edit("name unbounded", "name: str = Field(min_length=1, max_length=60)",
                        "name: str = Field(min_length=1)"),
                   Edit("loose email", 'EMAIL = r"^[^@\\s]+@[^@\\s]+$$"',
                        'EMAIL = r"@"'),
                   Edit("revenue unbounded on update",
                        "revenue: int | None = Field(None, ge=0, le=${revenue_max})",
                        "revenue: int | None = Field(None, ge=0)"),
                   Edit("note unbounded", "text: str = Field(min_length=1, max_length=${note_max})",
                        "text: str = Field(min_length=1)")),
            security=True),
        Requirement(
            "A body can never set an id, owner, author or email change: any unlisted field is "
            "422, on every route that takes a body.",
            probes=("body_cannot_set_protected_fields",),
            traps=(extras_ignored("patch ignores extras", "CustomerPatch"),
                   extras_ignored("create ignores extras", "CustomerIn"),
                   extras_ignored("note ignores extras", "NoteIn")),
            security=True),
        Requirement(
            "A rep sees only the customers they own and their notes, in every listing, lookup "
            "and statistic; another rep's customer is 404 for every route, like an id no "
            "customer has, however large.",
            probes=("reps_see_only_their_customers",),
            traps=(Edit("notes readable by anyone",
                        "def list_notes(customer: Annotated[dict, Depends(visible)]):",
                        "def list_notes(customer_id: int, user: User):\n"
                        "    customer = find_customer(customer_id, MANAGER)"),
                   Edit("id list skips the scope", '''        where += f" AND id IN''',
                        '''        where, args = "1 = 1", ()
        args += (city, city, tier, tier, min_revenue)
        where += " AND (? IS NULL OR lower(city) = lower(?)) AND (? IS NULL OR tier = ?)"
        where += " AND revenue >= ?"
        where += f" AND id IN'''),
                   Edit("stats over everyone", "    rows = db.execute(f\"SELECT {by}, count(*), "
                        "sum(revenue) FROM customers WHERE {where} \"",
                        "    where, args = \"1 = 1\", ()\n"
                        "    rows = db.execute(f\"SELECT {by}, count(*), "
                        "sum(revenue) FROM customers WHERE {where} \""),
                   Edit("a rep may delete any customer",
                        "def delete_customer(customer: Annotated[dict, Depends(owned)]):",
                        "def delete_customer(customer_id: int, user: Annotated[str, "
                        "Depends(rep)]):\n    customer = find_customer(customer_id, MANAGER)"),
                   Edit("huge ids crash SQLite", "    if abs(customer_id) <= SQL_MAX:\n",
                        "    if True:\n")),
            security=True),
        Requirement(
            "The manager reads every customer and note but creating, changing, deleting and "
            "adding notes are 403 for them; transferring is 403 for reps.",
            probes=("manager_reads_but_only_transfers",),
            traps=(Edit("manager may patch", _PATCH_DEPENDENCY,
                        _PATCH_DEPENDENCY.replace("Depends(owned)", "Depends(visible)")),
                   Edit("reps may transfer", "def transferable(customer_id: int, user: "
                        "Annotated[str, Depends(manager)]) -> dict:",
                        "def transferable(customer_id: int, user: User) -> dict:")),
            security=True),
        Requirement(
            "A transfer goes only to a rep named exactly (else 422), is 409 when that rep has "
            "the email already, and moves the customer and its notes to the new owner.",
            probes=("transfer_moves_ownership",),
            traps=(Edit("transfer to anyone", "    if body.to not in REPS:\n",
                        "    if not body.to:\n"),
                   Edit("transfer ignores duplicates",
                        "    if body.to != customer[\"owner\"] and duplicate_email(body.to, "
                        "customer[\"email\"]):", "    if False:"))),
        Requirement(
            "Deleting answers 204 and removes the customer and its notes; ids are never reused.",
            probes=("delete_never_reuses_ids",),
            traps=(Edit("ids reused", "id INTEGER PRIMARY KEY AUTOINCREMENT, owner",
                        "id INTEGER PRIMARY KEY, owner"),
                   Edit("delete answers 200", '@app.delete("/customers/{customer_id}", '
                        'status_code=204)', '@app.delete("/customers/{customer_id}")'))),
        Requirement(
            "Listing filters by city ignoring case, tier and minimum revenue (a huge one "
            "matching nothing), sorts by `id` or "
            "${sort_text} in either order with ties by id ascending, and sets `X-Total-Count`.",
            probes=("filters_and_sorting",),
            traps=(Edit("city case-sensitive", "lower(city) = lower(?)", "city = ?"),
                   Edit("ties follow the order", '{order.upper()}, id ASC"',
                        '{order.upper()}, id {order.upper()}"'),
                   Edit("min revenue exclusive", '" AND revenue >= ?"', '" AND revenue > ?"'),
                   Edit("total after paging", '    response.headers["X-Total-Count"] = '
                        'str(total)', '    response.headers["X-Total-Count"] = str(len(rows))'),
                   Edit("huge min revenue crashes SQLite", "min(min_revenue, SQL_MAX)",
                        "min_revenue"))),
        Requirement(
            "Pages take `limit` 1 to ${limit_max} (default ${limit_default}) and `offset` >= 0 "
            "(a huge one gives an empty page); `X-Total-Count` counts all matches.",
            probes=("paging",),
            traps=(Edit("default page size", "= ${limit_default},\n", "= ${limit_max},\n"),
                   Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"),
                   Edit("huge offset crashes SQLite", "min(offset, SQL_MAX)", "offset"))),
        Requirement(
            "`sort`, `order`, `tier`, `city`, `min_revenue` and `by` take only their stated "
            "values (else 422) and never change the query's meaning.",
            probes=("sort_and_filters_are_not_sql",),
            traps=(Edit("sort interpolated", _SORT, _SORT.replace(
                        "sort: Literal[${sort_literal}]", "sort: str")),
                   Edit("order interpolated", _SORT, _SORT.replace(
                        'order: Literal["asc", "desc"]', "order: str")),
                   Edit("any grouping column", 'def stats(user: User, by: Literal["tier", '
                        '"city"]):', "def stats(user: User, by: str):"),
                   Edit("city spliced into SQL",
                        'where += " AND (? IS NULL OR lower(city) = lower(?)) AND',
                        "where += (f\" AND lower(city) = lower('{city}')\" if city else '')"
                        " + \" AND ? IS NULL AND ? IS NULL AND")),
            security=True),
        Requirement(
            "`ids` takes 1 to 20 positive integers separated by commas, written plainly (else "
            "422), and keeps only those of the caller's customers.",
            probes=("id_list_is_strict",),
            traps=(Edit("ids spliced into SQL", _IN, "        where += f\" AND id IN ({ids})\""),
                   Edit("ids loosely parsed", 'IDS = re.compile(r"[1-9][0-9]{0,8}'
                        '(,[1-9][0-9]{0,8}){0,19}")', 'IDS = re.compile(r" *[0-9]+ *'
                        '(, *[0-9]+ *)*")'),
                   Edit("ids unbounded", "(,[1-9][0-9]{0,8}){0,19}", "(,[1-9][0-9]{0,8})*")),
            security=True),
        Requirement(
            "Search keeps the caller's customers whose ${search_text} contains `q` "
            "(1-30 characters) literally${case_text}, by id; quotes, `%` and `_` stand for "
            "themselves.",
            probes=("search_is_literal",),
            traps=(Edit("LIKE pattern", "${search_sql}", lambda p: _SEARCH[(
                        p["search_in"], p["case_sensitive"])][1].replace(
                        "instr(lower(name), lower(?)) > 0", "name LIKE '%' || ? || '%'").replace(
                        "instr(name, ?) > 0", "name LIKE '%' || ? || '%'")),
                   Edit("search built from text", _SEARCH_CALL, lambda p: _SEARCH_CALL.replace(
                        "${search_sql}", _SEARCH[(p["search_in"], p["case_sensitive"])][1]
                        .replace("?", "'{q}'")).replace(" + ${search_args}", "")),
                   Edit("wrong case rule", "${search_sql}", lambda p: _SEARCH[(
                        p["search_in"], not p["case_sensitive"])][1]),
                   Edit("query unbounded", "q: Annotated[str, Query(min_length=1, max_length=30)]",
                        "q: Annotated[str, Query(min_length=1)]")),
            security=True),
        Requirement(
            "Statistics give `{value, customers, revenue}` per distinct tier or city of the "
            "caller's customers, ordered by value.",
            probes=("stats",),
            traps=(Edit("stats unordered", 'f"GROUP BY {by} ORDER BY {by}"',
                        'f"GROUP BY {by} ORDER BY {by} DESC"'),
                   Edit("revenue averaged", "count(*), sum(revenue)", "count(*), avg(revenue)"))),
        Requirement(
            "With several failures the first of 401, 403, 404, 422 wins.",
            probes=("checks_in_order",),
            traps=(Edit("body checked before the lookup", _PATCH_DEPENDENCY,
                        "def update_customer(changes: CustomerPatch, customer_id: int, "
                        "user: Annotated[str, Depends(rep)]):\n"
                        "    customer = find_customer(customer_id, user)"),
                   Edit("lookup before the role", "def transferable(customer_id: int, user: "
                        "Annotated[str, Depends(manager)]) -> dict:\n"
                        "    return find_customer(customer_id, user)",
                        "def transferable(customer_id: int, user: User) -> dict:\n"
                        "    found = find_customer(customer_id, MANAGER)\n"
                        "    manager(user)\n    return found"))),
    ),
)
