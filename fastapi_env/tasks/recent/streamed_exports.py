"""Recent-features tier: JSON Lines streaming from a ``yield`` path operation, filtered by its
``AsyncIterable[Model]`` return type (0.134), a yield dependency that must stay open for the
whole stream (request scope, the default again since 0.118), and one that must be torn down
before background tasks run (``Depends(..., scope="function")``, 0.121)."""

from fastapi_env.tasks import Edit, Family, Requirement

REFERENCE = '''\
from collections.abc import AsyncIterable
from typing import Annotated

from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

ORDERS = {
    1: {"id": 1, "customer": "${c1}", "total_cents": ${t1}, "status": "open", "card": "4111-1"},
    2: {"id": 2, "customer": "${c2}", "total_cents": ${t2}, "status": "open", "card": "5500-2"},
    3: {"id": 3, "customer": "${c1}", "total_cents": ${t3}, "status": "paid", "card": "4111-1"},
}
LOG: list[str] = []
LOCKED: set[int] = set()


class OrderOut(BaseModel):
    id: int
    customer: str
    total_cents: int
    status: str


def db_session():
    LOG.append("session open")
    yield "session"
    LOG.append("session closed")


def order_lock(order_id: int):
    if order_id not in ORDERS:
        raise HTTPException(404, "no such order")
    LOCKED.add(order_id)
    LOG.append(f"lock {order_id}")
    yield order_id
    LOCKED.discard(order_id)
    LOG.append(f"unlock {order_id}")


app = FastAPI()


@app.get("/orders/export")
async def export(
    session: Annotated[str, Depends(db_session)], status: str | None = None
) -> AsyncIterable[OrderOut]:
    for order_id in sorted(ORDERS):
        if status is None or ORDERS[order_id]["status"] == status:
            LOG.append(f"export {order_id}")
            yield ORDERS[order_id]


def notify(order_id: int) -> None:
    LOG.append(f"notify {order_id} locked={order_id in LOCKED}")


@app.post("/orders/{order_id}/ship", status_code=202)
def ship(
    order_id: Annotated[int, Depends(order_lock, scope="function")],
    background: BackgroundTasks,
):
    ORDERS[order_id]["status"] = "shipped"
    LOG.append(f"ship {order_id}")
    background.add_task(notify, order_id)
    return {"id": order_id, "status": "shipped"}


@app.get("/log")
def read_log():
    entries = list(LOG)
    LOG.clear()
    return entries


client = TestClient(app)
first = client.get("/orders/export", params={"status": "paid"})
result = [
    [first.status_code, first.headers["content-type"], first.text],
    [client.post("/orders/${ship_id}/ship").json()],
    client.get("/log").json(),
]
'''

PROBES = '''\
def probe_export_is_json_lines_of_public_fields(client):
    rows = []
    for params in [{}, {"status": "open"}, {"status": "nope"}]:
        r = client.get("/orders/export", params=params)
        rows.append([params, r.status_code, r.headers.get("content-type"), r.text])
    client.get("/log")
    return rows


def probe_session_open_for_the_whole_stream(client):
    client.get("/log")
    client.get("/orders/export")
    return [client.get("/log").json()]


def probe_lock_released_before_background_work(client):
    client.get("/log")
    r = client.post("/orders/${other_id}/ship")
    return [[r.status_code, r.json()], client.get("/log").json()]


def probe_unknown_order(client):
    client.get("/log")
    r = client.post("/orders/99/ship")
    return [[r.status_code, r.json()], client.get("/log").json() or ["empty"]]


def probe_ship_changes_status(client):
    client.post("/orders/1/ship")
    client.post("/orders/1/ship")
    r = client.get("/orders/export", params={"status": "shipped"})
    client.get("/log")
    return [[r.text]]
'''

FAMILY = Family(
    id="recent/streamed_exports",
    title="JSON Lines exports and dependency scopes with FastAPI's recent streaming features",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt='''\
Build an orders service with FastAPI's recent streaming and dependency-scope features
(JSON Lines from a path operation that `yield`s, and the `scope` of yield dependencies; read the
installed FastAPI's source if you do not know them). State, in memory:

    ORDERS = {
        1: {"id": 1, "customer": "${c1}", "total_cents": ${t1}, "status": "open", "card": "4111-1"},
        2: {"id": 2, "customer": "${c2}", "total_cents": ${t2}, "status": "open", "card": "5500-2"},
        3: {"id": 3, "customer": "${c1}", "total_cents": ${t3}, "status": "paid", "card": "4111-1"},
    }

and a log, a list of strings. Behaviour:

- `GET /orders/export?status=`: streams the orders (by id; only those with that status when
  `status` is given) as JSON Lines: content type `application/jsonl`, one line per order, each
  the object `{"id", "customer", "total_cents", "status"}` in that key order, serialized
  compactly (no spaces) and followed by `\\n` (`card` never appears). Zero matching orders give
  an empty body. The export uses a database session that logs `session open` before the first
  order and `session closed` only after the last line has been sent; each order logs
  `export <id>` as it is streamed.
- `POST /orders/{order_id}/ship`: 404 `{"detail": "no such order"}` for an unknown order
  (nothing logged); else it locks the order (log `lock <id>`), sets its status to `shipped`
  (log `ship <id>`), answers 202 `{"id": <id>, "status": "shipped"}`, and schedules a
  background notification that logs `notify <id> locked=<True|False>` (whether the order is
  still locked when it runs). The lock is released (log `unlock <id>`) as soon as the handler
  has returned, before the response is sent, so before the notification runs.
- `GET /log`: 200 with the log entries so far (a JSON array), then empties the log.

`result` has three rows:
1. `GET /orders/export?status=paid`: `[status code, content-type header, body text]`
2. `[JSON body]` of `POST /orders/${ship_id}/ship`
3. the JSON array `GET /log` answers next
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"c1": "acme", "c2": "globex", "t1": 1200, "t2": 560, "t3": 9900, "ship_id": 2,
              "other_id": 3},
    space={
        "c1": [{"c1": "acme", "c2": "globex"}, {"c1": "initech", "c2": "umbrella"}],
        "t1": [{"t1": 1200, "t2": 560, "t3": 9900}, {"t1": 75, "t2": 3000, "t3": 410}],
        "ship_id": [{"ship_id": 2, "other_id": 3}, {"ship_id": 3, "other_id": 2},
                    {"ship_id": 1, "other_id": 2}],
    },
    instances=8,
    requirements=(
        Requirement("The export is JSON Lines (`application/jsonl`) of the public fields only, "
                    "compact, one line per order, filtered by `status`.",
                    probes=("export_is_json_lines_of_public_fields", "ship_changes_status"),
                    traps=(Edit("no return type: every field, spaced JSON",
                                ") -> AsyncIterable[OrderOut]:", "):"),
                           Edit("status filter ignored",
                                'if status is None or ORDERS[order_id]["status"] == status:',
                                "if True:"))),
        Requirement("The export's session stays open until the last line is sent.",
                    probes=("session_open_for_the_whole_stream",),
                    traps=(Edit("session torn down before streaming",
                                "Depends(db_session)", 'Depends(db_session, scope="function")'),)),
        Requirement("Shipping answers 202; the lock is released before the response, so the "
                    "background notification sees it unlocked.",
                    probes=("lock_released_before_background_work",),
                    traps=(Edit("lock held through the response",
                                'Depends(order_lock, scope="function")', "Depends(order_lock)"),
                           Edit("ship answers 200", '@app.post("/orders/{order_id}/ship", '
                                'status_code=202)', '@app.post("/orders/{order_id}/ship")'))),
        Requirement("An unknown order is 404 `no such order` and logs nothing.",
                    probes=("unknown_order",),
                    traps=(Edit("lock before the lookup", '''    if order_id not in ORDERS:
        raise HTTPException(404, "no such order")
    LOCKED.add(order_id)
    LOG.append(f"lock {order_id}")''', '''    LOCKED.add(order_id)
    LOG.append(f"lock {order_id}")
    if order_id not in ORDERS:
        raise HTTPException(404, "no such order")'''),)),
    ),
)
