from fastapi_env.tasks import Task

PROMPT = '''\
Build an order service that does its slow work in FastAPI background tasks and records
everything it does in a module-level log `LOG: list[str] = []`.

Routes:

- `GET /log` returns `LOG` (a JSON list of strings). `DELETE /log` empties it and returns
  `{"cleared": true}`. Neither touches the database or schedules anything.
- `POST /orders` takes a JSON body `{"order_id": <integer>, "item": <string>}` (both required;
  declare it as a Pydantic model). Accepted orders are remembered in a module-level set of ids.

`POST /orders` works like this:

1. A route-level dependency `audit` (declared in the route decorator's `dependencies=[...]`)
   schedules a background task that appends `"audit"` to `LOG`. It appends nothing itself.
2. A dependency `get_db` (a `yield` dependency used as a parameter of the handler) appends
   `"db open"`, yields the string `"db"`, and appends `"db close"` when the request is over
   — always, also when the handler raised an error.
3. The handler: if `order_id` was already accepted, it raises `HTTPException(409, "duplicate
   order")`. Otherwise it remembers the id, appends `"saved <order_id>"`, schedules two background
   tasks — first one appending `"email <order_id>"`, then one appending `"stats <item> via <db>"`
   where `<db>` is the value it got from `get_db` — and returns status **201** with the body
   `{"order_id": <order_id>, "log_at_response": <a copy of LOG taken just before returning>}`.

Background tasks run after the response has been sent, in the order they were scheduled, and
while the `get_db` session is still open: a successful order for id 7 and item `lamp` leaves
exactly these entries in `LOG`:
`["db open", "saved 7", "audit", "email 7", "stats lamp via db", "db close"]`.
When the request fails (409) no background task runs at all (not even the audit task).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `POST /orders` with JSON `{"order_id": 7, "item": "lamp"}`: `[status code (integer), JSON body (object)]`
2. `GET /log`: `[status code (integer), JSON body (list)]`
3. `POST /orders` with JSON `{"order_id": 7, "item": "desk"}`: `[status code (integer), JSON body (object)]`
4. `GET /log`: `[status code (integer), JSON body (list)]`
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

LOG: list[str] = []
ACCEPTED: set[int] = set()


class Order(BaseModel):
    order_id: int
    item: str


def audit(background_tasks: BackgroundTasks):
    background_tasks.add_task(LOG.append, "audit")


def get_db():
    LOG.append("db open")
    try:
        yield "db"
    finally:
        LOG.append("db close")


def send_email(order_id: int):
    LOG.append(f"email {order_id}")


def update_stats(item: str, db: str):
    LOG.append(f"stats {item} via {db}")


app = FastAPI()


@app.get("/log")
def read_log():
    return LOG


@app.delete("/log")
def clear_log():
    LOG.clear()
    return {"cleared": True}


@app.post("/orders", status_code=201, dependencies=[Depends(audit)])
def create_order(order: Order, background_tasks: BackgroundTasks, db: Annotated[str, Depends(get_db)]):
    if order.order_id in ACCEPTED:
        raise HTTPException(status_code=409, detail="duplicate order")
    ACCEPTED.add(order.order_id)
    LOG.append(f"saved {order.order_id}")
    background_tasks.add_task(send_email, order.order_id)
    background_tasks.add_task(update_stats, order.item, db)
    return {"order_id": order.order_id, "log_at_response": list(LOG)}


client = TestClient(app)
result = []
r = client.post("/orders", json={"order_id": 7, "item": "lamp"})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
r = client.post("/orders", json={"order_id": 7, "item": "desk"})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
'''

PROBES = '''\
def probe_new_order(client):
    rows = []
    r = client.delete("/log")
    rows.append([r.status_code, r.json()])
    r = client.post("/orders", json={"order_id": 21, "item": "desk"})
    rows.append([r.status_code, r.json()])
    r = client.get("/log")
    rows.append([r.status_code, r.json()])
    return rows


def probe_duplicate_runs_no_task(client):
    rows = []
    client.post("/orders", json={"order_id": 31, "item": "chair"})
    client.delete("/log")
    r = client.post("/orders", json={"order_id": 31, "item": "chair"})
    rows.append([r.status_code, r.json()])
    rows.append([client.get("/log").json()])
    return rows


def probe_two_orders_in_a_row(client):
    client.delete("/log")
    a = client.post("/orders", json={"order_id": 41, "item": "pen"})
    b = client.post("/orders", json={"order_id": 42, "item": "ink"})
    return [[a.status_code, b.status_code, b.json()["log_at_response"], client.get("/log").json()]]


def probe_invalid_body(client):
    r = client.post("/orders", json={"order_id": "x", "item": "pen"})
    body = r.json()
    return [[r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]]]
'''

TRAP_INLINE_WORK = REFERENCE.replace(
    '''    background_tasks.add_task(send_email, order.order_id)
    background_tasks.add_task(update_stats, order.item, db)
''', '''    send_email(order.order_id)
    update_stats(order.item, db)
''')

TRAP_NO_FINALLY = REFERENCE.replace('''    LOG.append("db open")
    try:
        yield "db"
    finally:
        LOG.append("db close")
''', '''    LOG.append("db open")
    yield "db"
    LOG.append("db close")
''')

TRAP_FUNCTION_SCOPE = REFERENCE.replace(
    'db: Annotated[str, Depends(get_db)]', 'db: Annotated[str, Depends(get_db, scope="function")]'
)

TRAP_AUDIT_INLINE = REFERENCE.replace(
    '''def audit(background_tasks: BackgroundTasks):
    background_tasks.add_task(LOG.append, "audit")
''', '''def audit():
    LOG.append("audit")
''')

TASK = Task(
    id="structure/background_tasks_log",
    title="Background tasks: after the response, before yield-dependency teardown",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "work done inline instead of in background tasks": TRAP_INLINE_WORK,
        "yield dependency without try/finally (no teardown on error)": TRAP_NO_FINALLY,
        "db dependency with scope='function' (closed before the tasks run)": TRAP_FUNCTION_SCOPE,
        "audit dependency logs directly instead of scheduling a task": TRAP_AUDIT_INLINE,
    },
    expected_rows=[
        [201, {"order_id": 7, "log_at_response": ["db open", "saved 7"]}],
        [200, ["db open", "saved 7", "audit", "email 7", "stats lamp via db", "db close"]],
        [409, {"detail": "duplicate order"}],
        [200, ["db open", "saved 7", "audit", "email 7", "stats lamp via db", "db close",
               "db open", "db close"]],
    ],
)
