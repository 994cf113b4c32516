"""Security tier: clients and their invoices in SQLite, nested under the client; hidden probes
try SQL through the sort, order, status and search parameters, reading or changing an invoice
through someone else's client id (nested IDOR), setting `status` or `client_id` through the
body (mass assignment), oversized inputs, and an auditor writing."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import sqlite3
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${ta}": "${auditor}"}
AUDITORS = {"${auditor}"}
SORT_COLUMNS = {"id": "id", "amount": "amount_cents", "due": "due_day"}
COLUMNS = "id, client_id, memo, amount_cents, due_day, status"
# SQLite integers are 64-bit: a larger id names nothing, a larger offset is clamped
SQL_MAX = 2**63 - 1

db = sqlite3.connect(":memory:", check_same_thread=False)
db.executescript("""
CREATE TABLE clients (id INTEGER PRIMARY KEY, owner TEXT, name TEXT);
CREATE TABLE invoices (id INTEGER PRIMARY KEY, client_id INTEGER, memo TEXT,
                       amount_cents INTEGER, due_day INTEGER, status TEXT);
""")

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class ClientIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)


class InvoiceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memo: str = Field("", max_length=${memo_max})
    amount_cents: int = Field(ge=1, le=${amount_max})
    due_day: int = Field(ge=1, le=365)


class InvoicePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memo: str | None = Field(None, max_length=${memo_max})
    amount_cents: int | None = Field(None, ge=1, le=${amount_max})


def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


User = Annotated[str, Depends(caller)]


def writer(user: User) -> str:
    if user in AUDITORS:
        raise HTTPException(403, "forbidden")
    return user


def visible_client(client_id: int, user: User) -> dict:
    row = None
    if abs(client_id) <= SQL_MAX:
        row = db.execute("SELECT id, owner, name FROM clients WHERE id = ?",
                         (client_id,)).fetchone()
    if row is None or (row[1] != user and user not in AUDITORS):
        raise HTTPException(404, "not_found")
    return {"id": row[0], "owner": row[1], "name": row[2]}


def writable_client(client_id: int, user: Annotated[str, Depends(writer)]) -> dict:
    return visible_client(client_id, user)


def invoice_out(row) -> dict:
    keys = ["id", "client_id", "memo", "amount_cents", "due_day", "status"]
    return dict(zip(keys, row))


def invoice_of(client: dict, invoice_id: int) -> dict:
    row = None
    if abs(invoice_id) <= SQL_MAX:
        row = db.execute(f"SELECT {COLUMNS} FROM invoices WHERE id = ? AND client_id = ?",
                         (invoice_id, client["id"])).fetchone()
    if row is None:
        raise HTTPException(404, "not_found")
    return invoice_out(row)


def writable_invoice(client: Annotated[dict, Depends(writable_client)], invoice_id: int) -> dict:
    """A dependency, so that an unknown invoice is 404 before the body is validated."""
    return invoice_of(client, invoice_id)


@app.post("/clients", status_code=201)
def create_client(body: ClientIn, user: Annotated[str, Depends(writer)]):
    cursor = db.execute("INSERT INTO clients (owner, name) VALUES (?, ?)", (user, body.name))
    return {"id": cursor.lastrowid, "owner": user, "name": body.name}


@app.get("/clients")
def list_clients(user: User):
    rows = db.execute("SELECT id, owner, name FROM clients WHERE owner = ? OR ? ORDER BY id",
                      (user, user in AUDITORS)).fetchall()
    return [{"id": r[0], "owner": r[1], "name": r[2]} for r in rows]


@app.post("/clients/{client_id}/invoices", status_code=201)
def create_invoice(client: Annotated[dict, Depends(writable_client)], body: InvoiceIn):
    cursor = db.execute(
        "INSERT INTO invoices (client_id, memo, amount_cents, due_day, status) "
        "VALUES (?, ?, ?, ?, 'draft')", (client["id"], body.memo, body.amount_cents, body.due_day))
    return invoice_of(client, cursor.lastrowid)


@app.get("/clients/{client_id}/invoices")
def list_invoices(
    client: Annotated[dict, Depends(visible_client)],
    status: Literal["draft", "sent"] | None = None,
    q: Annotated[str, Query(max_length=30)] = "",
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
    offset: Annotated[int, Query(ge=0)] = 0,
    sort: Literal["id", "amount", "due"] = "id",
    order: Literal["asc", "desc"] = "asc",
):
    by = f"{SORT_COLUMNS[sort]} {order.upper()}, id ASC"
    rows = db.execute(
        f"SELECT {COLUMNS} FROM invoices WHERE client_id = ? AND (? IS NULL OR status = ?) "
        f"AND instr(memo, ?) > 0 ORDER BY {by} LIMIT ? OFFSET ?",
        (client["id"], status, status, q, limit, min(offset, SQL_MAX)),
    ).fetchall()
    return [invoice_out(r) for r in rows]


@app.get("/clients/{client_id}/invoices/{invoice_id}")
def read_invoice(client: Annotated[dict, Depends(visible_client)], invoice_id: int):
    return invoice_of(client, invoice_id)


@app.patch("/clients/{client_id}/invoices/{invoice_id}")
def update_invoice(invoice: Annotated[dict, Depends(writable_invoice)], changes: InvoicePatch):
    if invoice["status"] != "draft":
        raise HTTPException(409, "conflict")
    invoice |= changes.model_dump(exclude_none=True)
    db.execute("UPDATE invoices SET memo = ?, amount_cents = ? WHERE id = ?",
               (invoice["memo"], invoice["amount_cents"], invoice["id"]))
    return invoice


@app.post("/clients/{client_id}/invoices/{invoice_id}/send")
def send_invoice(client: Annotated[dict, Depends(writable_client)], invoice_id: int):
    invoice = invoice_of(client, invoice_id)
    if invoice["status"] != "draft":
        raise HTTPException(409, "conflict")
    db.execute("UPDATE invoices SET status = 'sent' WHERE id = ?", (invoice["id"],))
    return invoice | {"status": "sent"}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
as1 = {"Authorization": "Bearer ${t1}"}
result = [
    row(client.post("/clients", json={"name": "${client1}"}, headers=as1)),
    row(client.post("/clients/1/invoices", json={"memo": "setup", "amount_cents": ${amount1},
                                                 "due_day": 30}, headers=as1)),
    row(client.get("/clients/1/invoices", headers=as1)),
    row(client.get("/clients/1/invoices")),
]
'''

PROBES = '''\
A1 = {"Authorization": "Bearer ${t1}"}
A2 = {"Authorization": "Bearer ${t2}"}
AA = {"Authorization": "Bearer ${ta}"}


def _plain(body):
    """A body without the ids, which depend on what earlier checks created."""
    if isinstance(body, list):
        return [_plain(b) for b in body]
    if isinstance(body, dict):
        return {k: v for k, v in body.items() if k not in ("id", "client_id")}
    return body


def _row(r):
    try:
        return [r.status_code, _plain(r.json())]
    except ValueError:
        return [r.status_code, r.text]


def _client(client, headers, name):
    return client.post("/clients", json={"name": name}, headers=headers).json()["id"]


def _invoice(client, headers, client_id, memo="m", amount=100, due=10):
    body = {"memo": memo, "amount_cents": amount, "due_day": due}
    return client.post(f"/clients/{client_id}/invoices", json=body, headers=headers).json()["id"]


def probe_auth_required(client):
    rows = []
    for value in [None, "Bearer", "Bearer ", "bearer ${t1}", "Basic ${t1}", "${t1}",
                  "Bearer ${u1}", "Bearer ${t1}x", "Bearer  ${t1}"]:
        headers = {} if value is None else {"Authorization": value}
        for method, path in [("GET", "/clients"), ("POST", "/clients"),
                             ("GET", "/clients/1/invoices"), ("GET", "/clients/1/invoices/1"),
                             ("POST", "/clients/1/invoices/1/send")]:
            r = client.request(method, path, headers=headers, json={"name": "x"})
            rows.append([value, method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_clients_are_private(client):
    mine = _client(client, A2, "only ${u2}'s")
    rows = [[sorted({c["owner"] for c in client.get("/clients", headers=A1).json()})],
            [[c["name"] for c in client.get("/clients", headers=A2).json()]],
            [mine in [c["id"] for c in client.get("/clients", headers=AA).json()]],
            _row(client.get(f"/clients/{mine}/invoices", headers=A1)),
            _row(client.get(f"/clients/{mine}/invoices", headers=A2)),
            _row(client.get("/clients/987654/invoices", headers=A2)),
            _row(client.post(f"/clients/{mine}/invoices", headers=A1,
                             json={"amount_cents": 5, "due_day": 5}))]
    for huge in [2**63 - 1, 2**63, 10**30]:
        for method, path, body in [
                ("GET", "/invoices", None), ("GET", "/invoices?offset=1", None),
                ("POST", "/invoices", {"amount_cents": 5, "due_day": 5}),
                ("GET", "/invoices/1", None), ("PATCH", "/invoices/1", {"memo": "x"}),
                ("POST", "/invoices/1/send", None)]:
            rows.append([huge, method, path, _row(client.request(
                method, f"/clients/{huge}{path}", json=body, headers=A2))])
    return rows


def probe_create_and_read(client):
    cid = _client(client, A2, "reader")
    r = client.post(f"/clients/{cid}/invoices", json={"amount_cents": 250, "due_day": 7},
                    headers=A2)
    invoice = r.json()
    rows = [[r.status_code, sorted(invoice), invoice["memo"], invoice["status"],
             invoice["client_id"] == cid]]
    again = client.get(f"/clients/{cid}/invoices/{invoice['id']}", headers=A2)
    rows.append([again.status_code, again.json() == invoice])
    rows.append(_row(client.get(f"/clients/{cid}/invoices/424242", headers=A2)))
    for huge in [2**63 - 1, 2**63, 10**30]:
        for method, path, body in [("GET", "", None), ("PATCH", "", {"memo": "x"}),
                                   ("POST", "/send", None)]:
            rows.append([huge, method, path, _row(client.request(
                method, f"/clients/{cid}/invoices/{huge}{path}", json=body, headers=A2))])
    return rows


def probe_body_cannot_set_protected_fields(client):
    cid = _client(client, A1, "massive")
    other = _client(client, A2, "victim")
    rows = []
    for extra in [{"status": "sent"}, {"client_id": other}, {"id": 7777}, {"owner": "${u2}"},
                  {"paid": True}]:
        body = {"memo": "x", "amount_cents": 10, "due_day": 3} | extra
        rows.append([extra, _row(client.post(f"/clients/{cid}/invoices", json=body,
                                             headers=A1))])
    rows.append(_row(client.post("/clients", json={"name": "n", "owner": "${u2}"}, headers=A1)))
    iid = _invoice(client, A1, cid)
    for extra in [{"status": "sent"}, {"client_id": other}, {"memo": "ok", "id": 1}]:
        rows.append([extra, _row(client.patch(f"/clients/{cid}/invoices/{iid}", json=extra,
                                              headers=A1))])
    rows.append([client.get(f"/clients/{cid}/invoices/{iid}", headers=A1).json()["status"]])
    rows.append([len(client.get(f"/clients/{other}/invoices", headers=A2).json())])
    return rows


def probe_input_bounds(client):
    cid = _client(client, A1, "bounds")
    rows = []
    for body in [{"memo": "x" * ${memo_max}, "amount_cents": 1, "due_day": 1},
                 {"memo": "x" * (${memo_max} + 1), "amount_cents": 1, "due_day": 1},
                 {"amount_cents": 0, "due_day": 1}, {"amount_cents": ${amount_max}, "due_day": 1},
                 {"amount_cents": ${amount_max} + 1, "due_day": 1},
                 {"amount_cents": 5, "due_day": 0}, {"amount_cents": 5, "due_day": 365},
                 {"amount_cents": 5, "due_day": 366}, {"amount_cents": 5},
                 {"amount_cents": "5x", "due_day": 2}, {"memo": "y" * 100000, "amount_cents": 5,
                                                        "due_day": 2}]:
        r = client.post(f"/clients/{cid}/invoices", json=body, headers=A1)
        rows.append([r.status_code, r.json()["amount_cents"] if r.status_code == 201
                     else r.json()])
    iid = _invoice(client, A1, cid)
    for body in [{"memo": "z" * (${memo_max} + 1)}, {"amount_cents": ${amount_max} + 1},
                 {"amount_cents": 0}, {"memo": "z" * ${memo_max}}]:
        rows.append(_row(client.patch(f"/clients/{cid}/invoices/{iid}", json=body, headers=A1)))
    for name in ["", "n" * 40, "n" * 41]:
        rows.append([len(name), client.post("/clients", json={"name": name},
                                            headers=A1).status_code])
    return rows


def probe_sort_order_and_paging(client):
    cid = _client(client, A2, "sorting")
    for amount, due in [(500, 30), (200, 10), (500, 5), (900, 20)]:
        _invoice(client, A2, cid, memo=f"a{amount}-d{due}", amount=amount, due=due)
    rows = []
    for params in [{}, {"sort": "amount"}, {"sort": "amount", "order": "desc"},
                   {"sort": "due"}, {"sort": "due", "order": "desc"}, {"order": "desc"},
                   {"limit": 2}, {"limit": 2, "offset": 2}, {"offset": 9},
                   {"limit": ${limit_max}}, {"offset": 2**63}, {"offset": 10**30, "limit": 1}]:
        r = client.get(f"/clients/{cid}/invoices", params=params, headers=A2)
        rows.append([params, r.status_code, [i["memo"] for i in r.json()]])
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1}]:
        rows.append([params, _row(client.get(f"/clients/{cid}/invoices", params=params,
                                             headers=A2))])
    return rows


def probe_sort_and_filters_are_not_sql(client):
    cid = _client(client, A2, "injection")
    for amount in [300, 100, 200]:
        _invoice(client, A2, cid, memo=f"m{amount}", amount=amount)
    victim = _client(client, A1, "victim")
    _invoice(client, A1, victim, memo="secret of ${u1}")
    rows = []
    for params in [{"sort": "amount_cents"}, {"sort": "Amount"}, {"sort": "amount "},
                   {"sort": "id DESC"}, {"sort": "(SELECT 1)"}, {"sort": "amount; DROP TABLE x"},
                   {"order": "DESC"}, {"order": "desc, amount_cents"}, {"order": "asc --"},
                   {"status": "paid"}, {"status": "draft' OR '1'='1"}, {"status": "Draft"}]:
        r = client.get(f"/clients/{cid}/invoices", params=params, headers=A2)
        rows.append([params, r.status_code, [i["memo"] for i in r.json()]
                     if r.status_code == 200 else r.json()])
    return rows


def probe_search_is_literal(client):
    cid = _client(client, A1, "search")
    for memo in ["rent 100%", "it's due", "a_b", "Consulting", "consulting hours", "plain"]:
        _invoice(client, A1, cid, memo=memo)
    other = _client(client, A2, "other")
    _invoice(client, A2, other, memo="consulting for ${u2}")
    rows = []
    for q in ["consulting", "Cons", "%", "_", "'", "it's", "' OR 1=1 --", "x') > 0 OR 1=1 --",
              "q" * 30]:
        r = client.get(f"/clients/{cid}/invoices", params={"q": q}, headers=A1)
        rows.append([q, r.status_code, [i["memo"] for i in r.json()]
                     if r.status_code == 200 else r.json()])
    rows.append(_row(client.get(f"/clients/{cid}/invoices", params={"q": "q" * 31}, headers=A1)))
    r = client.get(f"/clients/{cid}/invoices", params={"q": "s", "status": "sent"}, headers=A1)
    rows.append([r.status_code, r.json()])
    return rows


def probe_invoices_only_through_their_client(client):
    alice = _client(client, A1, "alice co")
    bob = _client(client, A2, "bob co")
    secret = _invoice(client, A2, bob, memo="bob's secret", amount=4242)
    rows = [_row(client.get(f"/clients/{alice}/invoices/{secret}", headers=A1)),
            _row(client.get(f"/clients/{bob}/invoices/{secret}", headers=A1)),
            _row(client.patch(f"/clients/{alice}/invoices/{secret}", json={"memo": "mine"},
                              headers=A1)),
            _row(client.post(f"/clients/{alice}/invoices/{secret}/send", headers=A1)),
            [client.get(f"/clients/{bob}/invoices/{secret}", headers=A2).json()["memo"]],
            [client.get(f"/clients/{bob}/invoices/{secret}", headers=AA).json()["status"]]]
    other_bob = _client(client, A2, "bob two")
    rows.append(_row(client.get(f"/clients/{other_bob}/invoices/{secret}", headers=A2)))
    return rows


def probe_auditor_reads_but_never_writes(client):
    cid = _client(client, A1, "audited")
    iid = _invoice(client, A1, cid, memo="audit me")
    rows = [_row(client.post("/clients", json={"name": "aud"}, headers=AA)),
            _row(client.post(f"/clients/{cid}/invoices", json={"amount_cents": 1, "due_day": 1},
                             headers=AA)),
            _row(client.patch(f"/clients/{cid}/invoices/{iid}", json={"memo": "changed"},
                              headers=AA)),
            _row(client.post(f"/clients/{cid}/invoices/{iid}/send", headers=AA)),
            _row(client.post("/clients/987654/invoices", json={}, headers=AA)),
            [client.get(f"/clients/{cid}/invoices/{iid}", headers=AA).json()["memo"]],
            [[i["memo"] for i in client.get(f"/clients/{cid}/invoices", headers=AA).json()]]]
    return rows


def probe_send_and_edit_rules(client):
    cid = _client(client, A2, "sender")
    iid = _invoice(client, A2, cid, memo="to send", amount=300)
    draft = _invoice(client, A2, cid, memo="stays draft")
    rows = [_row(client.patch(f"/clients/{cid}/invoices/{iid}", json={"amount_cents": 350},
                              headers=A2)),
            _row(client.patch(f"/clients/{cid}/invoices/{iid}", json={}, headers=A2)),
            _row(client.post(f"/clients/{cid}/invoices/{iid}/send", headers=A2)),
            _row(client.post(f"/clients/{cid}/invoices/{iid}/send", headers=A2)),
            _row(client.patch(f"/clients/{cid}/invoices/{iid}", json={"memo": "late"},
                              headers=A2))]
    for status in ["sent", "draft"]:
        got = client.get(f"/clients/{cid}/invoices", params={"status": status}, headers=A2)
        rows.append([status, [i["id"] for i in got.json()] == ([iid] if status == "sent"
                                                              else [draft])])
    rows.append(_row(client.post(f"/clients/{cid}/invoices/999999/send", headers=A2)))
    return rows


def probe_checks_in_order(client):
    cid = _client(client, A1, "order")
    bad = {"amount_cents": 0, "due_day": 0}
    rows = [_row(client.post(f"/clients/{cid}/invoices", json=bad)),
            _row(client.post(f"/clients/{cid}/invoices", json=bad, headers=AA)),
            _row(client.post(f"/clients/{cid}/invoices", json=bad, headers=A2)),
            _row(client.post(f"/clients/{cid}/invoices", json=bad, headers=A1))]
    draft = _invoice(client, A1, cid, memo="order draft")
    theirs = _invoice(client, A2, _client(client, A2, "order elsewhere"), memo="theirs")
    invoices = [("draft", draft), ("unknown", 999999), ("another client's", theirs),
                ("huge", 2**63)]
    for who, headers in [("no token", {}), ("auditor", AA), ("${u2}", A2), ("${u1}", A1)]:
        for label, iid in invoices:
            for body in [{"amount_cents": 0}, {"memo": "x", "status": "sent"}]:
                r = client.patch(f"/clients/{cid}/invoices/{iid}", json=body, headers=headers)
                rows.append([who, label, body, _row(r)])
    rows.append(_row(client.get(f"/clients/{cid}/invoices/{draft}", headers=A1)))
    return rows
''' + late_body.probe_source(
    [("POST", "/clients"), ("POST", "/clients/1/invoices"), ("POST", "/clients/999999/invoices"),
     ("PATCH", "/clients/1/invoices/1"), ("PATCH", "/clients/1/invoices/999999")],
    [("no token", "{}"), ("auditor", "AA"), ("${u2}", "A2"), ("${u1}", "A1")])

PROMPT = '''\
Build an invoicing API. Clients and invoices are kept in an in-memory SQLite database (the
standard library's `sqlite3`). Three users exist, each with a fixed bearer token:

| token | user | role |
|---|---|---|
| `${t1}` | `${u1}` | member |
| `${t2}` | `${u2}` | member |
| `${ta}` | `${auditor}` | auditor |

**Authentication.** Every route needs `Authorization: Bearer <token>` exactly so (the scheme
`Bearer` as written, one space, a token from the table); anything else is 401 with the header
`WWW-Authenticate: Bearer`.

**Errors** have the body `{"error": <code>}`: 401 `"unauthorized"`, 403 `"forbidden"`, 404
`"not_found"`, 409 `"conflict"`, and 422 `"invalid"` for any body, path or query parameter
that is not valid as described. When several apply, the first in this order wins: 401, 403,
404, 422. Integers have no upper bound beyond the stated ones: a client or invoice id in a
path that names none, however large, is 404, and a huge `offset` gives an empty page.

**Who sees what.** A member sees and changes only the clients they created and those
clients' invoices. The auditor sees every client and invoice but changes nothing: every
`POST` and `PATCH` by the auditor is 403. A client or invoice the caller may not see is
answered exactly like one that does not exist (404). An invoice exists only under its own
client: `/clients/{client_id}/invoices/{invoice_id}` names an invoice of that client.

**A client** is `{"id", "owner", "name"}` (name 1-40 characters; the owner is the caller).
**An invoice** is `{"id", "client_id", "memo", "amount_cents", "due_day", "status"}`: memo
at most ${memo_max} characters (default `""`), amount 1 to ${amount_max}, due day 1 to 365,
status `"draft"` or `"sent"`. Ids count 1, 2, 3, ... per table in creation order. A request
body with any field not listed for its route is 422: clients never set an id, owner,
client or status.

**Routes.**
- `POST /clients` `{"name"}`: 201 with the client.
- `GET /clients`: 200, the clients the caller sees, by id.
- `POST /clients/{client_id}/invoices` `{"memo"?, "amount_cents", "due_day"}`: 201 with the
  new invoice, status `"draft"`.
- `GET /clients/{client_id}/invoices?status=&sort=&order=&q=&limit=&offset=`: 200, that
  client's invoices. `status` (`draft` or `sent`) keeps those with that status; `q` (at most
  30 characters, default empty) keeps those whose memo contains it as a literal,
  case-sensitive substring (every character stands for itself). `sort` is `id` (default),
  `amount` (by amount_cents) or `due` (by due_day); `order` is `asc` (default) or `desc`;
  ties are broken by id ascending. `limit` 1 to ${limit_max} (default ${limit_default}),
  `offset` >= 0 (default 0). Any other value of these parameters is 422.
- `GET /clients/{client_id}/invoices/{invoice_id}`: 200 with the invoice.
- `PATCH /clients/{client_id}/invoices/{invoice_id}` `{"memo"?, "amount_cents"?}`: a draft
  only (a sent invoice is 409); changes the fields given (same limits); 200 with the invoice.
- `POST /clients/{client_id}/invoices/{invoice_id}/send`: a draft becomes sent, 200 with the
  invoice; sending a sent invoice is 409.

`result`: `[status code, JSON body]` of each of, as `${u1}` unless said otherwise:
1. `POST /clients` with `{"name": "${client1}"}`
2. `POST /clients/1/invoices` with `{"memo": "setup", "amount_cents": ${amount1}, "due_day": 30}`
3. `GET /clients/1/invoices`
4. `GET /clients/1/invoices` without credentials
'''

_SORT_ORDER = '''    sort: Literal["id", "amount", "due"] = "id",
    order: Literal["asc", "desc"] = "asc",
):
    by = f"{SORT_COLUMNS[sort]} {order.upper()}, id ASC"'''
_DRAFT_ONLY = '''    invoice = invoice_of(client, invoice_id)
    if invoice["status"] != "draft":
        raise HTTPException(409, "conflict")'''
_SEARCH = '''        f"AND instr(memo, ?) > 0 ORDER BY {by} LIMIT ? OFFSET ?",
        (client["id"], status, status, q, limit, min(offset, SQL_MAX)),'''

FAMILY = Family(
    id="security/invoice_ledger",
    title="Invoices nested under clients in SQLite that withstand injection and nested IDOR",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "ana", "u2": "ben", "auditor": "audrey", "tp": "inv-", "memo_max": 60,
              "amount_max": 100000, "limit_max": 20, "limit_default": 3, "client1": "Acme",
              "amount1": 1500},
    space={
        "u1": [{"u1": "ana", "u2": "ben", "auditor": "audrey"},
               {"u1": "kim", "u2": "lou", "auditor": "irs"}],
        "tp": ["inv-", "k9."],
        "memo_max": [{"memo_max": 60, "amount_max": 100000},
                     {"memo_max": 120, "amount_max": 50000},
                     {"memo_max": 40, "amount_max": 250000}],
        "limit_max": [{"limit_max": 20, "limit_default": 3}, {"limit_max": 10, "limit_default": 2}],
        "client1": [{"client1": "Acme", "amount1": 1500}, {"client1": "Globex", "amount1": 999}],
    },
    derive=lambda p: {"t1": p["tp"] + p["u1"] + "-7", "t2": p["tp"] + p["u2"] + "-8",
                      "ta": p["tp"] + p["auditor"] + "-0"},
    instances=10,
    requirements=(
        Requirement(
            "Every route needs exactly `Authorization: Bearer <token>` with a listed token; "
            "anything else is 401 `unauthorized` with `WWW-Authenticate: Bearer`.",
            probes=("auth_required",),
            traps=(Edit("any scheme", 'if scheme != "Bearer" or token not in TOKENS:',
                        "if token.strip() not in TOKENS:"),
                   Edit("no challenge header", 'raise HTTPException(401, "unauthorized", '
                        'headers={"WWW-Authenticate": "Bearer"})',
                        'raise HTTPException(401, "unauthorized")')),
            security=True),
        Requirement(
            "A member sees only their own clients and their invoices (another's is 404, like a "
            "client id that names none, however large); the auditor sees all.",
            probes=("clients_are_private",),
            traps=(Edit("any client visible", 'if row is None or (row[1] != user and user not '
                        'in AUDITORS):', "if row is None:"),
                   Edit("everyone lists every client", "WHERE owner = ? OR ? ORDER BY id\",\n"
                        "                      (user, user in AUDITORS)",
                        "WHERE owner = ? OR ? ORDER BY id\",\n"
                        "                      (user, True)"),
                   Edit("huge client ids crash SQLite", "    if abs(client_id) <= SQL_MAX:\n",
                        "    if True:\n")),
            security=True),
        Requirement(
            "Creating an invoice answers 201 with the whole invoice (memo default `\"\"`, "
            "status `draft`); reading it returns the same; an unknown one (however large its "
            "id) is 404 for reading, changing and sending.",
            probes=("create_and_read",),
            traps=(Edit("200 on create", '@app.post("/clients/{client_id}/invoices", '
                        'status_code=201)', '@app.post("/clients/{client_id}/invoices")'),
                   Edit("memo default null", 'memo: str = Field("", max_length=${memo_max})',
                        'memo: str | None = Field(None, max_length=${memo_max})'),
                   Edit("huge invoice ids crash SQLite", "    if abs(invoice_id) <= SQL_MAX:\n",
                        "    if True:\n"))),
        Requirement(
            "A body can never set an id, owner, client or status: any unlisted field is 422, "
            "on creation and on update.",
            probes=("body_cannot_set_protected_fields",),
            traps=(extras_ignored("invoice extras ignored", "InvoiceIn"),
                   Edit("patch takes any field", '''class InvoicePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")''', '''class InvoicePatch(BaseModel):
    model_config = ConfigDict(extra="allow")'''),
                   extras_ignored("client extras ignored", "ClientIn")),
            security=True),
        Requirement(
            "Memos are at most ${memo_max} characters, amounts 1 to ${amount_max}, due days "
            "1 to 365, client names 1 to 40, on creation and update; else 422 `invalid`.",
            probes=("input_bounds",),
            traps=(Edit("memo unbounded on create", 'memo: str = Field("", max_length=${memo_max})',
                        'memo: str = ""'),
                   Edit("amount unbounded on update",
                        "amount_cents: int | None = Field(None, ge=1, le=${amount_max})",
                        "amount_cents: int | None = None"),
                   Edit("due day unbounded", "due_day: int = Field(ge=1, le=365)",
                        "due_day: int = Field(ge=1)")),
            security=True),
        Requirement(
            "Listing sorts by `id`, `amount` or `due`, `asc` or `desc`, ties by id ascending, "
            "and pages with `limit` 1 to ${limit_max} (default ${limit_default}) and `offset` "
            "(a huge one gives an empty page).",
            probes=("sort_order_and_paging",),
            traps=(Edit("ties follow the order", '{order.upper()}, id ASC"',
                        '{order.upper()}, id {order.upper()}"'),
                   Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"),
                   Edit("default page size", "= ${limit_default},", "= ${limit_max},"),
                   Edit("huge offset crashes SQLite", "limit, min(offset, SQL_MAX)),",
                        "limit, offset),"))),
        Requirement(
            "`sort`, `order` and `status` take only their listed values (else 422); they never "
            "reach SQL as text.",
            probes=("sort_and_filters_are_not_sql",),
            traps=(Edit("sort interpolated", _SORT_ORDER,
                        _SORT_ORDER.replace('sort: Literal["id", "amount", "due"]', "sort: str")
                        .replace("SORT_COLUMNS[sort]", "SORT_COLUMNS.get(sort, sort)")),
                   Edit("order interpolated", _SORT_ORDER,
                        _SORT_ORDER.replace('order: Literal["asc", "desc"]', "order: str")),
                   Edit("status unchecked", 'status: Literal["draft", "sent"] | None = None,',
                        "status: str | None = None,")),
            security=True),
        Requirement(
            "`q` (at most 30 characters) matches memos literally and case-sensitively within "
            "the client: quotes, `%` and `_` stand for themselves.",
            probes=("search_is_literal",),
            traps=(Edit("LIKE pattern", "AND instr(memo, ?) > 0 ORDER",
                        "AND memo LIKE '%' || ? || '%' ORDER"),
                   Edit("search built from text", _SEARCH,
                        _SEARCH.replace("instr(memo, ?)", "instr(memo, '{q}')")
                        .replace("status, q, limit", "status, limit")),
                   Edit("query unbounded", 'q: Annotated[str, Query(max_length=30)] = ""',
                        'q: str = ""')),
            security=True),
        Requirement(
            "An invoice is reached only through its own client: another client's id (even the "
            "caller's own) is 404 for reading, changing and sending.",
            probes=("invoices_only_through_their_client",),
            traps=(Edit("invoice found by id alone",
                        '"SELECT {COLUMNS} FROM invoices WHERE id = ? AND client_id = ?",\n'
                        '                         (invoice_id, client["id"])',
                        '"SELECT {COLUMNS} FROM invoices WHERE id = ? AND ? > 0",\n'
                        '                         (invoice_id, client["id"])'),),
            security=True),
        Requirement(
            "The auditor reads everything but every `POST` and `PATCH` is 403 `forbidden`, "
            "before any 404.",
            probes=("auditor_reads_but_never_writes",),
            traps=(Edit("auditor may send", "def send_invoice(client: Annotated[dict, "
                        "Depends(writable_client)]", "def send_invoice(client: Annotated[dict, "
                        "Depends(visible_client)]"),
                   Edit("lookup before the role",
                        "def writable_client(client_id: int, user: Annotated[str, "
                        "Depends(writer)]) -> dict:\n    return visible_client(client_id, user)",
                        "def writable_client(client_id: int, user: User) -> dict:\n"
                        "    client = visible_client(client_id, user)\n    writer(user)\n"
                        "    return client")),
            security=True),
        Requirement(
            "Only drafts change: sending a sent invoice or patching one is 409; `status` "
            "filters the list.",
            probes=("send_and_edit_rules",),
            traps=(Edit("sent invoices still editable", '    if invoice["status"] != "draft":\n'
                        '        raise HTTPException(409, "conflict")\n    invoice |=',
                        "    invoice = invoice_of(client, invoice_id)\n    invoice |="),
                   Edit("send twice", _DRAFT_ONLY + '\n    db.execute("UPDATE invoices SET status',
                        '    invoice = invoice_of(client, invoice_id)\n'
                        '    db.execute("UPDATE invoices SET status'))),
        Requirement(
            "With several failures the first of 401, 403, 404, 422 wins, on every route with "
            "a body (an unknown invoice is 404 before an invalid change) and for a body that "
            "is not JSON.",
            probes=("checks_in_order", "credentials_before_json"),
            traps=(Edit("body checked first", "def create_invoice(client: Annotated[dict, "
                        "Depends(writable_client)], body: InvoiceIn):",
                        "def create_invoice(body: InvoiceIn, client_id: int, user: User):\n"
                        "    client = writable_client(client_id, writer(user))"),
                   Edit("invoice looked up after the body",
                        "def update_invoice(invoice: Annotated[dict, Depends(writable_invoice)], "
                        "changes: InvoicePatch):\n",
                        "def update_invoice(client: Annotated[dict, Depends(writable_client)], "
                        "invoice_id: int,\n                   changes: InvoicePatch):\n"
                        "    invoice = invoice_of(client, invoice_id)\n"),
                   late_body.body_decoded_first())),
    ),
)
