"""Security tier: sign-up, login and orders in SQLite; hidden probes try role escalation at
sign-up, client-chosen prices, ORDER BY injection through the sort parameter, reading another
customer's order, and forged tokens."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import hashlib
import sqlite3
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

CATALOGUE = {"${item1}": ${price1}, "${item2}": ${price2}, "${item3}": ${price3}}
SORTS = {"newest": "id DESC", "oldest": "id ASC", "total": "total_cents DESC, id ASC"}
# SQLite integers are 64-bit: a larger id names no order
SQL_MAX = 2**63 - 1

db = sqlite3.connect(":memory:", check_same_thread=False)
db.executescript("""
CREATE TABLE users (name TEXT PRIMARY KEY, password_hash TEXT, role TEXT);
CREATE TABLE tokens (token TEXT PRIMARY KEY, name TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, owner TEXT, item TEXT, qty INTEGER,
                     total_cents INTEGER);
""")


def digest(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


db.execute("INSERT INTO users VALUES (?, ?, 'admin')", ("${admin}", digest("${admin_pw}")))

app = FastAPI()


class Signup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(pattern=r"^[a-z0-9]{3,20}$$")
    password: str = Field(min_length=8, max_length=64)


class Login(BaseModel):
    username: str
    password: str


class OrderIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    item: str
    qty: int = Field(ge=1, le=${qty_max})


def caller(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    found = db.execute(
        "SELECT users.name, users.role FROM tokens JOIN users ON users.name = tokens.name "
        "WHERE tokens.token = ?", (token,)).fetchone() if scheme == "Bearer" else None
    if found is None:
        raise HTTPException(401, "not authenticated", headers={"WWW-Authenticate": "Bearer"})
    return {"name": found[0], "role": found[1]}


Caller = Annotated[dict, Depends(caller)]


def order_out(row) -> dict:
    return {"id": row[0], "owner": row[1], "item": row[2], "qty": row[3], "total_cents": row[4]}


@app.post("/signup", status_code=201)
def signup(body: Signup):
    if db.execute("SELECT 1 FROM users WHERE name = ?", (body.username,)).fetchone():
        raise HTTPException(409, "username taken")
    db.execute("INSERT INTO users VALUES (?, ?, 'customer')",
               (body.username, digest(body.password)))
    return {"username": body.username, "role": "customer"}


@app.post("/login")
def login(body: Login):
    row = db.execute("SELECT password_hash FROM users WHERE name = ?", (body.username,)).fetchone()
    if row is None or row[0] != digest(body.password):
        raise HTTPException(401, "bad credentials")
    count = db.execute("SELECT count(*) FROM tokens").fetchone()[0]
    token = hashlib.sha256(f"{body.username}:{count}".encode()).hexdigest()
    db.execute("INSERT INTO tokens VALUES (?, ?)", (token, body.username))
    return {"token": token}


@app.post("/orders", status_code=201)
def place_order(body: OrderIn, user: Caller):
    if body.item not in CATALOGUE:
        raise HTTPException(404, "no such item")
    cursor = db.execute("INSERT INTO orders (owner, item, qty, total_cents) VALUES (?, ?, ?, ?)",
                        (user["name"], body.item, body.qty, body.qty * CATALOGUE[body.item]))
    return order_out(db.execute("SELECT * FROM orders WHERE id = ?",
                                (cursor.lastrowid,)).fetchone())


@app.get("/orders")
def my_orders(user: Caller, sort: Literal["newest", "oldest", "total"] = "newest",
              limit: Annotated[int, Query(ge=1, le=50)] = 10):
    rows = db.execute(f"SELECT * FROM orders WHERE owner = ? ORDER BY {SORTS[sort]} LIMIT ?",
                      (user["name"], limit)).fetchall()
    return [order_out(r) for r in rows]


@app.get("/orders/{order_id}")
def read_order(order_id: int, user: Caller):
    row = None
    if abs(order_id) <= SQL_MAX:
        row = db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
    if row is None or (row[1] != user["name"] and user["role"] != "admin"):
        raise HTTPException(404, "no such order")
    return order_out(row)


@app.get("/admin/revenue")
def revenue(user: Caller):
    if user["role"] != "admin":
        raise HTTPException(403, "admins only")
    rows = db.execute("SELECT owner, sum(total_cents) FROM orders GROUP BY owner ORDER BY owner")
    return {owner: total for owner, total in rows}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [row(client.post("/signup", json={"username": "${user1}", "password": "${pw1}"}))]
token = client.post("/login", json={"username": "${user1}", "password": "${pw1}"}).json()["token"]
me = {"Authorization": f"Bearer {token}"}
result += [
    row(client.post("/orders", json={"item": "${item1}", "qty": 2}, headers=me)),
    row(client.get("/orders", headers=me)),
    row(client.get("/orders")),
]
'''

PROBES = '''\
def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _signup_login(client, name, password="password-123"):
    client.post("/signup", json={"username": name, "password": password})
    token = client.post("/login", json={"username": name, "password": password}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _admin(client):
    token = client.post("/login", json={"username": "${admin}", "password": "${admin_pw}"}
                        ).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def probe_signup_rules(client):
    rows = []
    for body in [{"username": "ab", "password": "password-1"},
                 {"username": "a" * 21, "password": "password-1"},
                 {"username": "Mixed", "password": "password-1"},
                 {"username": "okname", "password": "short"},
                 {"username": "okname", "password": "p" * 65},
                 {"username": "okname", "password": "p" * 64},
                 {"username": "okname", "password": "password-2"},
                 {"username": "${admin}", "password": "password-3"}]:
        r = client.post("/signup", json=body)
        rows.append([r.status_code, r.json() if r.status_code != 422 else "invalid"])
    return rows


def probe_no_role_escalation_at_signup(client):
    rows = []
    for extra in [{"role": "admin"}, {"is_admin": True}, {"role": "customer"}]:
        r = client.post("/signup", json={"username": "climber", "password": "password-9"} | extra)
        rows.append([r.status_code, r.json() if r.status_code != 422 else "invalid"])
    me = _signup_login(client, "climber")
    rows.append(_row(client.get("/admin/revenue", headers=me)))
    return rows


def probe_login_and_tokens(client):
    rows = [_row(client.post("/login", json={"username": "${user1}", "password": "wrong-pw"})),
            _row(client.post("/login", json={"username": "ghost", "password": "${pw1}"}))]
    for value in [None, "Bearer", "Bearer nope", "Token x", "Bearer ${user1}"]:
        headers = {} if value is None else {"Authorization": value}
        r = client.get("/orders", headers=headers)
        rows.append([value, r.status_code, r.json(), r.headers.get("www-authenticate")])
    first = _signup_login(client, "twice")
    second = _signup_login(client, "twice")
    rows.append([first != second, client.get("/orders", headers=first).status_code])
    other_scheme = {"Authorization": first["Authorization"].replace("Bearer", "Token")}
    rows.append([client.get("/orders", headers=other_scheme).status_code])
    return rows


def probe_prices_come_from_the_catalogue(client):
    me = _signup_login(client, "buyer")
    rows = []
    for body in [{"item": "${item2}", "qty": 3}, {"item": "${item2}", "qty": 1, "total_cents": 1},
                 {"item": "${item2}", "qty": 1, "price_cents": 0}, {"item": "nothing", "qty": 1},
                 {"item": "${item3}", "qty": 0}, {"item": "${item3}", "qty": ${qty_max} + 1},
                 {"item": "${item3}", "qty": ${qty_max}}]:
        r = client.post("/orders", json=body, headers=me)
        rows.append([r.status_code, r.json().get("total_cents") if r.status_code == 201
                     else r.status_code])
    return rows


def probe_sort_is_one_of_three(client):
    me = _signup_login(client, "sorter")
    for item, qty in [("${item1}", 1), ("${item2}", 2), ("${item3}", 1)]:
        client.post("/orders", json={"item": item, "qty": qty}, headers=me)
    rows = []
    for sort in ["newest", "oldest", "total", "id", "total_cents DESC", "id; DROP TABLE orders",
                 "(CASE WHEN 1=1 THEN id END)", "total --"]:
        r = client.get("/orders", params={"sort": sort}, headers=me)
        rows.append([sort, r.status_code, [o["item"] for o in r.json()]
                     if r.status_code == 200 else "rejected"])
    rows.append([len(client.get("/orders", params={"limit": 2}, headers=me).json())])
    return rows


def probe_orders_are_private(client):
    alice, bob = _signup_login(client, "alice1"), _signup_login(client, "bob1")
    order = client.post("/orders", json={"item": "${item1}", "qty": 1}, headers=alice).json()
    return [_row(client.get(f"/orders/{order['id']}", headers=bob)),
            [client.get(f"/orders/{order['id']}", headers=alice).json()["owner"]],
            [client.get(f"/orders/{order['id']}", headers=_admin(client)).status_code],
            [[o["owner"] for o in client.get("/orders", headers=bob).json()]],
            _row(client.get("/orders/999999", headers=bob))] + [
        [huge, _row(client.get(f"/orders/{huge}", headers=h))]
        for huge in [2**63 - 1, 2**63, 10**30] for h in (bob, _admin(client))]


def probe_revenue_for_admins(client):
    return [_row(client.get("/admin/revenue", headers=_admin(client))),
            _row(client.get("/admin/revenue", headers=_signup_login(client, "nosy")))]
'''

FAMILY = Family(
    id="security/shop_accounts",
    title="Shop accounts and orders in SQLite that withstand escalation and injection",
    category="security",
    difficulty="hard",
    tier="security",
    prompt='''\
Build a shop backend storing users, tokens and orders in an in-memory SQLite database (the
standard library's `sqlite3`). One admin exists from the start: `${admin}` with the password
`${admin_pw}`. Everyone else signs up and is a customer. The catalogue (price in cents per
unit): `${item1}` ${price1}, `${item2}` ${price2}, `${item3}` ${price3}.

Errors are FastAPI's usual `{"detail": <message>}` with the statuses below; request validation
failures are FastAPI's standard 422.

- `POST /signup` `{"username", "password"}`: a username is 3-20 characters of `a-z0-9`, a
  password 8-64 characters; a body with any other field is invalid (422). A taken username
  (the admin's included) is 409 `username taken`. 201 `{"username": <name>, "role":
  "customer"}`: nobody can sign up as anything but a customer.
- `POST /login` `{"username", "password"}`: 200 `{"token": <string>}`, a new token each time
  (all stay valid); a wrong username or password is 401 `bad credentials`.
- The other routes need `Authorization: Bearer <token>` with a token from `/login`; anything
  else is 401 `not authenticated` with `WWW-Authenticate: Bearer`.
- `POST /orders` `{"item", "qty"}` (qty 1-${qty_max}; no other fields, so a client never
  sets a price or total): 404 `no such item` for an item not in the catalogue; else 201 with
  the order `{"id", "owner", "item", "qty", "total_cents"}`, the total being qty x the
  catalogue price, ids 1, 2, ... in order.
- `GET /orders?sort=&limit=`: 200, the caller's own orders, `sort` one of `newest` (the
  default: id descending), `oldest` (id ascending), `total` (total descending, then id
  ascending), anything else 422; `limit` 1-50 (default 10).
- `GET /orders/{order_id}`: 200 with the order if the caller owns it or is the admin; else
  404 `no such order` (as for a missing one: an id no order has, however large).
- `GET /admin/revenue`: the admin only (others 403 `admins only`): 200, each customer with
  orders mapped to the sum of their totals, keys sorted.

`result`: `[status code, JSON body]` of each of:
1. `POST /signup` with `{"username": "${user1}", "password": "${pw1}"}`
2. (after logging in as `${user1}`) `POST /orders` `{"item": "${item1}", "qty": 2}` as `${user1}`
3. `GET /orders` as `${user1}`
4. `GET /orders` without a token
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"admin": "boss", "admin_pw": "very-secret-1", "item1": "mug", "item2": "tee",
              "item3": "cap", "price1": 900, "price2": 1500, "price3": 1100, "qty_max": 20,
              "user1": "dana", "pw1": "dana-pass-1"},
    space={
        # The admin's name never shows: it varies with the first customer's, which does.
        "user1": [{"user1": "dana", "pw1": "dana-pass-1", "admin": "boss",
                   "admin_pw": "very-secret-1"},
                  {"user1": "eve7", "pw1": "evepass99", "admin": "owner",
                   "admin_pw": "S3cure!pass"}],
        "item1": [{"item1": "mug", "item2": "tee", "item3": "cap", "price1": 900,
                   "price2": 1500, "price3": 1100},
                  {"item1": "pen", "item2": "pad", "item3": "ink", "price1": 250,
                   "price2": 400, "price3": 700}],
        "qty_max": [20, 5],
    },
    instances=8,
    requirements=(
        Requirement("Sign-up validates usernames (3-20 of `a-z0-9`) and passwords (8-64), and "
                    "refuses taken names (409).",
                    probes=("signup_rules",),
                    traps=(Edit("password unbounded", "Field(min_length=8, max_length=64)",
                                "Field(min_length=8)"),
                           Edit("usernames unchecked for taken",
                                '''    if db.execute("SELECT 1 FROM users WHERE name = ?", (body.username,)).fetchone():
        raise HTTPException(409, "username taken")
    db.execute("INSERT INTO users''', '''    db.execute("INSERT OR REPLACE INTO users'''))),
        Requirement("Nobody signs up as anything but a customer: other body fields are 422.",
                    probes=("no_role_escalation_at_signup",),
                    traps=(Edit("role taken from the body", '''class Signup(BaseModel):
    model_config = ConfigDict(extra="forbid")''', '''class Signup(BaseModel):
    model_config = ConfigDict(extra="allow")'''),),
                    security=True),
        Requirement("Login gives a new valid token; wrong credentials are 401; other routes "
                    "need a valid bearer token (401 with `WWW-Authenticate: Bearer`).",
                    probes=("login_and_tokens",),
                    traps=(Edit("password not checked", "if row is None or row[0] != "
                                "digest(body.password):", "if row is None:"),
                           Edit("any scheme", '(token,)).fetchone() if scheme == "Bearer" else '
                                "None", "(token,)).fetchone()")),
                    security=True),
        Requirement("Totals come from the catalogue; a client cannot send a price or total "
                    "(422); qty 1-${qty_max}; unknown items 404.",
                    probes=("prices_come_from_the_catalogue",),
                    traps=(extras_ignored("order extras ignored", "OrderIn"),
                           Edit("qty unbounded", "qty: int = Field(ge=1, le=${qty_max})",
                                "qty: int = Field(ge=1)")),
                    security=True),
        Requirement("`sort` is one of `newest`, `oldest`, `total` (else 422), never SQL.",
                    probes=("sort_is_one_of_three",),
                    traps=(Edit("sort interpolated into SQL",
                                'sort: Literal["newest", "oldest", "total"] = "newest",\n'
                                '              limit: Annotated[int, Query(ge=1, le=50)] = 10):\n'
                                '    rows = db.execute(f"SELECT * FROM orders WHERE owner = ? '
                                'ORDER BY {SORTS[sort]} LIMIT ?",',
                                'sort: str = "newest",\n'
                                '              limit: Annotated[int, Query(ge=1, le=50)] = 10):\n'
                                '    rows = db.execute(f"SELECT * FROM orders WHERE owner = ? '
                                'ORDER BY {SORTS.get(sort, sort)} LIMIT ?",'),
                           Edit("total sorted ascending", '"total": "total_cents DESC, id ASC"',
                                '"total": "total_cents ASC, id ASC"')),
                    security=True),
        Requirement("A customer only reads their own orders (another's is 404, as is an id no "
                    "order has, however large); the admin reads any.",
                    probes=("orders_are_private",),
                    traps=(Edit("no owner check",
                                'if row is None or (row[1] != user["name"] and user["role"] != '
                                '"admin"):', "if row is None:"),
                           Edit("huge ids crash SQLite", "    if abs(order_id) <= SQL_MAX:\n",
                                "    if True:\n")),
                    security=True),
        Requirement("`/admin/revenue` is for the admin only (403 otherwise).",
                    probes=("revenue_for_admins",),
                    traps=(Edit("no admin check", '''    if user["role"] != "admin":
        raise HTTPException(403, "admins only")
    rows''', "    rows"),),
                    security=True),
    ),
)
