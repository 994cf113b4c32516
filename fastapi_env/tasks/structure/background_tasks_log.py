from fastapi_env.tasks import Edit, Family, Requirement

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
   `"db open"`, yields the string `"${db}"`, and appends `"db close"` when the request is over
   — always, also when the handler raised an error.
3. The handler: if `order_id` was already accepted, it raises `HTTPException(${dup_status}, "${dup_detail_wrapped}")`. Otherwise it remembers the id, appends `"saved <order_id>"`, schedules two background
   tasks — first one appending ${first_task}, then one appending ${second_task}
   where `<db>` is the value it got from `get_db` — and returns status **${created}** with the body
   `{"order_id": <order_id>, "log_at_response": <a copy of LOG taken just before returning>}`.

Background tasks run after the response has been sent, in the order they were scheduled, and
while the `get_db` session is still open: a successful order for id ${oid} and item `${item}` leaves
exactly these entries in `LOG`:
`${example_log}`.
When the request fails (${dup_status}) no background task runs at all (not even the audit task).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `POST /orders` with JSON `{"order_id": ${oid}, "item": "${item}"}`: `[status code (integer), JSON body (object)]`
2. `GET /log`: `[status code (integer), JSON body (list)]`
3. `POST /orders` with JSON `{"order_id": ${oid}, "item": "${item2}"}`: `[status code (integer), JSON body (object)]`
4. `GET /log`: `[status code (integer), JSON body (list)]`
'''

_AUDIT = '''\
def audit(background_tasks: BackgroundTasks):
    background_tasks.add_task(LOG.append, "audit")
'''

_GET_DB = '''\
    LOG.append("db open")
    try:
        yield "${db}"
    finally:
        LOG.append("db close")
'''

_DUPLICATE = '''\
    if order.order_id in ACCEPTED:
        raise HTTPException(status_code=${dup_status}, detail="${dup_detail}")
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


''' + _AUDIT + '''

def get_db():
''' + _GET_DB + '''

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


@app.post("/orders", status_code=${created}, dependencies=[Depends(audit)])
def create_order(order: Order, background_tasks: BackgroundTasks, db: Annotated[str, Depends(get_db)]):
''' + _DUPLICATE + '''\
    ACCEPTED.add(order.order_id)
    LOG.append(f"saved {order.order_id}")
${tasks_code}\
    return {"order_id": order.order_id, "log_at_response": list(LOG)}


client = TestClient(app)
result = []
r = client.post("/orders", json={"order_id": ${oid}, "item": "${item}"})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
r = client.post("/orders", json={"order_id": ${oid}, "item": "${item2}"})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
'''

PROBES = '''\
def probe_new_order(client):
    rows = []
    r = client.delete("/log")
    rows.append([r.status_code, r.json()])
    r = client.post("/orders", json={"order_id": ${oid_b}, "item": "desk"})
    rows.append([r.status_code, r.json()])
    r = client.get("/log")
    rows.append([r.status_code, r.json()])
    return rows


def probe_duplicate_runs_no_task(client):
    rows = []
    client.post("/orders", json={"order_id": ${oid_c}, "item": "chair"})
    client.delete("/log")
    r = client.post("/orders", json={"order_id": ${oid_c}, "item": "chair"})
    rows.append([r.status_code, r.json()])
    rows.append([client.get("/log").json()])
    r = client.post("/orders", json={"order_id": ${oid_b}, "item": "other"})
    rows.append([r.status_code, r.json()])
    rows.append([client.get("/log").json()])
    return rows


def probe_two_orders_in_a_row(client):
    client.delete("/log")
    a = client.post("/orders", json={"order_id": ${oid_d}, "item": "pen"})
    b = client.post("/orders", json={"order_id": ${oid_e}, "item": "ink"})
    return [[a.status_code, b.status_code, b.json()["log_at_response"], client.get("/log").json()]]


def probe_log_routes(client):
    client.delete("/log")
    first = client.get("/log")
    second = client.delete("/log")
    return [[first.status_code, first.json(), second.status_code, second.json(), client.get("/log").json()]]


def probe_invalid_body(client):
    rows = []
    for body in [{"order_id": "x", "item": "pen"}, {"order_id": 5}, {}]:
        r = client.post("/orders", json=body)
        rows.append([r.status_code, [[e["type"], e["loc"]] for e in r.json()["detail"]]])
    return rows
'''

_EMAIL = "    background_tasks.add_task(send_email, order.order_id)\n"
_STATS = "    background_tasks.add_task(update_stats, order.item, db)\n"


def _derive(p):
    email = f"email {p['oid']}"
    stats = f"stats {p['item']} via {p['db']}"
    tasks = [stats, email] if p["stats_first"] else [email, stats]
    log = ["db open", f"saved {p['oid']}", "audit", *tasks, "db close"]
    email_text, stats_text = '`"email <order_id>"`', '`"stats <item> via <db>"`'
    return {
        "dup_detail_wrapped": p["dup_detail"].replace(" ", "\n   ", 1),
        "first_task": stats_text if p["stats_first"] else email_text,
        "second_task": email_text if p["stats_first"] else stats_text,
        "example_log": "[" + ", ".join(f'"{e}"' for e in log) + "]",
        "tasks_code": _STATS + _EMAIL if p["stats_first"] else _EMAIL + _STATS,
        "swapped_tasks_code": _EMAIL + _STATS if p["stats_first"] else _STATS + _EMAIL,
        "oid_b": p["oid"] + 14, "oid_c": p["oid"] + 24, "oid_d": p["oid"] + 34, "oid_e": p["oid"] + 35,
        "other_created": 200 if p["created"] != 200 else 201,
        "other_dup_status": 400 if p["dup_status"] != 400 else 409,
    }


FAMILY = Family(
    id="structure/background_tasks_log",
    title="Background tasks: after the response, before yield-dependency teardown",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"db": "db", "dup_status": 409, "dup_detail": "duplicate order", "created": 201,
              "stats_first": False, "oid": 7, "item": "lamp", "item2": "desk"},
    space={
        "db": ["db", "conn", "session"],
        "duplicate": [{"dup_status": 409, "dup_detail": "duplicate order"},
                      {"dup_status": 400, "dup_detail": "order already placed"}],
        "created": [201, 202],
        "stats_first": [False, True],
        "data": [{"oid": 7, "item": "lamp", "item2": "desk"}, {"oid": 12, "item": "pen", "item2": "ink"},
                 {"oid": 3, "item": "mug", "item2": "cup"}],
    },
    derive=_derive,
    instances=30,
    requirements=(
        Requirement(
            "The audit task and the handler's two tasks run after the response (the response's "
            "log ends at `saved`), in scheduling order: audit first, then ${first_task}, then "
            "${second_task}.",
            probes=("new_order", "two_orders_in_a_row"),
            traps=(
                Edit("work done inline instead of in background tasks", "${tasks_code}",
                     "    send_email(order.order_id)\n    update_stats(order.item, db)\n"),
                Edit("audit dependency logs directly instead of scheduling a task", _AUDIT,
                     'def audit():\n    LOG.append("audit")\n'),
                Edit("the handler's tasks scheduled in the other order", "${tasks_code}", "${swapped_tasks_code}"),
            ),
        ),
        Requirement(
            "`get_db` closes after the background tasks ran, and also when the handler raised "
            "(a rejected order logs `db open`, `db close`).",
            probes=("new_order", "duplicate_runs_no_task"),
            traps=(
                Edit("yield dependency without try/finally (no teardown on error)", _GET_DB,
                     '    LOG.append("db open")\n    yield "${db}"\n    LOG.append("db close")\n'),
                Edit("db dependency with scope='function' (closed before the tasks run)",
                     "db: Annotated[str, Depends(get_db)]", 'db: Annotated[str, Depends(get_db, scope="function")]'),
            ),
        ),
        Requirement(
            "An order id already accepted (state kept across requests) answers ${dup_status} "
            '`{"detail": "${dup_detail}"}` and runs no background task, not even the audit.',
            probes=("duplicate_runs_no_task",),
            traps=(
                Edit("duplicate answered with a returned response (the audit task still runs)", _DUPLICATE,
                     "    if order.order_id in ACCEPTED:\n"
                     "        from fastapi.responses import JSONResponse\n\n"
                     '        return JSONResponse({"detail": "${dup_detail}"}, status_code=${dup_status})\n'),
                Edit("duplicate answers another status", "status_code=${dup_status}",
                     "status_code=${other_dup_status}"),
            ),
        ),
        Requirement(
            "An accepted order answers ${created} with its id and the log as it was when returning.",
            probes=("new_order",),
            traps=(Edit("wrong success status", "status_code=${created},", "status_code=${other_created},"),),
        ),
        Requirement(
            "`GET /log` and `DELETE /log` read and clear the log without side effects; an "
            "invalid order body is FastAPI's 422 (both fields required).",
            probes=("log_routes", "invalid_body"),
            traps=(
                Edit("item optional", "    item: str\n", "    item: str | None = None\n"),
                Edit("clearing the log leaves a marker", "    LOG.clear()\n", '    LOG[:] = ["cleared"]\n'),
            ),
        ),
    ),
    expected_rows=[
        [201, {"order_id": 7, "log_at_response": ["db open", "saved 7"]}],
        [200, ["db open", "saved 7", "audit", "email 7", "stats lamp via db", "db close"]],
        [409, {"detail": "duplicate order"}],
        [200, ["db open", "saved 7", "audit", "email 7", "stats lamp via db", "db close",
               "db open", "db close"]],
    ],
)
