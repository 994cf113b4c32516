from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import BODY

_HEAD = '''\
from typing import Annotated

from fastapi import BackgroundTasks, Depends, FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

LOG: list[str] = []
STOCK = {"${i1}": ${s1}, "${i2}": 0}


class Order(BaseModel):
    item: str
    qty: int = Field(gt=${gt})
'''

_DEPS = '''

def get_connection():
    LOG.append("conn open")
    try:
        yield "connection"
    finally:
        LOG.append("conn close")


def get_transaction(conn: Annotated[str, Depends(get_connection)]):
    LOG.append("tx begin")
    try:
        yield "transaction"
    except Exception:
        LOG.append("tx rollback")
        raise
    else:
        LOG.append("tx commit")
'''

_APP = '''

app = FastAPI()


@app.post("/orders")
def place_order(
    order: Order, tx: Annotated[str, Depends(get_transaction)], background: BackgroundTasks
):
    LOG.append("handler")
    if order.item not in STOCK:
        raise HTTPException(status_code=404, detail="unknown item")
    if order.qty > STOCK[order.item]:
        raise HTTPException(status_code=${conflict}, detail="out of stock")
    STOCK[order.item] -= order.qty
    background.add_task(LOG.append, "notify")
    return {"item": order.item, "left": STOCK[order.item], "log_at_return": list(LOG)}


@app.get("/log")
def read_log():
    return LOG


@app.delete("/log", status_code=204)
def clear_log():
    LOG.clear()
'''

_RESULT = '''

client = TestClient(app)
result = []
r = client.post("/orders", json={"item": "${i1}", "qty": ${q1}})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
r = client.delete("/log")
result.append([r.status_code])
r = client.post("/orders", json={"item": "${i2}", "qty": ${qx}})
result.append([r.status_code, r.json()])
r = client.get("/log")
result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _DEPS + _APP + _RESULT

_INLINE_CLEANUP = _HEAD + '''

def get_connection():
    LOG.append("conn open")
    return "connection"


def get_transaction(conn: Annotated[str, Depends(get_connection)]):
    LOG.append("tx begin")
    return "transaction"


app = FastAPI()


@app.post("/orders")
def place_order(
    order: Order, tx: Annotated[str, Depends(get_transaction)], background: BackgroundTasks
):
    LOG.append("handler")
    if order.item not in STOCK or order.qty > STOCK[order.item]:
        LOG.append("tx rollback")
        LOG.append("conn close")
        if order.item not in STOCK:
            raise HTTPException(status_code=404, detail="unknown item")
        raise HTTPException(status_code=${conflict}, detail="out of stock")
    STOCK[order.item] -= order.qty
    background.add_task(LOG.append, "notify")
    LOG.append("tx commit")
    LOG.append("conn close")
    return {"item": order.item, "left": STOCK[order.item], "log_at_return": list(LOG)}


@app.get("/log")
def read_log():
    return LOG


@app.delete("/log", status_code=204)
def clear_log():
    LOG.clear()
''' + _RESULT

_NO_TRY_DEPS = '''

def get_connection():
    LOG.append("conn open")
    yield "connection"
    LOG.append("conn close")


def get_transaction(conn: Annotated[str, Depends(get_connection)]):
    LOG.append("tx begin")
    yield "transaction"
    LOG.append("tx commit")
'''

_FUNCTION_SCOPE_TX = _REFERENCE.replace(
    "tx: Annotated[str, Depends(get_transaction)]",
    'tx: Annotated[str, Depends(get_transaction, scope="function")]',
).replace(
    "def get_transaction(conn: Annotated[str, Depends(get_connection)]):",
    'def get_transaction(conn: Annotated[str, Depends(get_connection, scope="function")]):',
)

FAMILY = Family(
    id="dependencies/yield_teardown_order",
    title="Connection and transaction yield dependencies: enter, commit/rollback, close",
    category="dependencies",
    difficulty="hard",
    prompt='''\
Build an order endpoint that runs inside a (simulated) database transaction, using FastAPI
dependencies with `yield`. Module-level state, starting as:

    LOG = []                          # list of strings
    STOCK = {"${i1}": ${s1}, "${i2}": 0}

Order bodies follow this model (use it as is):

    class Order(BaseModel):
        item: str
        qty: int = Field(gt=${gt})

Dependencies (each appends to `LOG` exactly the strings named here, nothing else):
- **connection**: appends `"conn open"`, provides the connection, and when the request is
  finished appends `"conn close"`, always: whether the request succeeded or failed.
- **transaction**: depends on the connection; appends `"tx begin"`, provides the transaction,
  and when the request is finished appends `"tx commit"` if no exception was raised while the
  transaction was in use, or `"tx rollback"` if one was (the error must still reach the client
  unchanged). The transaction finishes before the connection closes.

Routes:
- `POST /orders` (body an `Order`; uses the transaction): appends `"handler"` to `LOG`, then:
  unknown item -> 404 `{"detail": "unknown item"}`; `qty` larger than the stock -> ${conflict}
  `{"detail": "out of stock"}`; otherwise it subtracts `qty` from the stock, schedules a
  background task (FastAPI `BackgroundTasks`) that appends `"notify"` to `LOG`, and answers 200
  `{"item": <item>, "left": <remaining stock>, "log_at_return": <a copy of LOG taken as the
  handler returns>}`. An invalid body is FastAPI's standard 422. Note that FastAPI resolves
  the dependencies before it validates the body, so an invalid body still opens the
  connection and begins the transaction; the 422 error then counts as an exception raised
  while the transaction was in use.
- `GET /log`: 200 with `LOG` (a JSON array).
- `DELETE /log`: empties `LOG` and answers 204 with an empty body.

The code after `yield` keeps FastAPI's default timing for dependencies with `yield`: it runs
once the response has been sent, after the background tasks. So `log_at_return` contains
neither the commit/rollback/close entries nor `"notify"`, a later `GET /log` contains them
all, and on success `"notify"` comes before `"tx commit"`.

Then fill `result` with one row per request, in this order:
1. `POST /orders` with JSON `{"item": "${i1}", "qty": ${q1}}`: `[status code (integer), the JSON body]`
2. `GET /log`: `[status code (integer), the JSON body]`
3. `DELETE /log`: `[status code (integer)]`
4. `POST /orders` with JSON `{"item": "${i2}", "qty": ${qx}}`: `[status code (integer), the JSON body]`
5. `GET /log`: `[status code (integer), the JSON body]`
''',
    reference=_REFERENCE,
    probes=BODY + '''

def _order_then_log(client, body):
    client.delete("/log")
    r = client.post("/orders", json=body)
    row = [r.status_code, _body(r)]
    log = client.get("/log")
    return [row, [log.status_code, log.json()]]


def probe_unknown_item(client):
    return _order_then_log(client, {"item": "kiwi", "qty": ${qx}})


def probe_second_success(client):
    return _order_then_log(client, {"item": "${i1}", "qty": ${rest}})


def probe_invalid_body_rolls_back(client):
    client.delete("/log")
    r = client.post("/orders", json={"item": "${i1}", "qty": ${gt}})
    detail = r.json()["detail"]
    log = client.get("/log")
    return [[r.status_code, detail[0]["type"], detail[0]["loc"]], [log.status_code, log.json()]]


def probe_stock_exhausted(client):
    return _order_then_log(client, {"item": "${i1}", "qty": ${qx}})
''',
    original={"i1": "apple", "i2": "pear", "s1": 5, "gt": 0, "conflict": 409, "q1": 2},
    space={
        "i1": [{"i1": "apple", "i2": "pear"}, {"i1": "bolt", "i2": "nut"}, {"i1": "tea", "i2": "cocoa"}],
        "s1": [5, 7, 12],
        "gt": [0],  # a bound of 1 shows in no row (the probes send gt and gt + 1 either way)
        "conflict": [409, 400],
        "q1": [2, 3],
    },
    derive=lambda p: {"qx": p["gt"] + 1, "rest": p["s1"] - p["q1"],
                      "other_conflict": 400 if p["conflict"] == 409 else 409},
    instances=40,
    requirements=(
        Requirement(
            "The connection always closes and the transaction commits on success, rolls back on "
            "any exception raised while in use (HTTP errors and the body's 422 alike), before "
            "the connection closes.",
            probes=("unknown_item", "invalid_body_rolls_back", "stock_exhausted"),
            traps=(
                Edit("no try/except/finally around yield", _DEPS, _NO_TRY_DEPS),
                Edit("rollback only on HTTPException", "    except Exception:\n        LOG.append(\"tx rollback\")",
                     "    except HTTPException:\n        LOG.append(\"tx rollback\")"),
            ),
        ),
        Requirement(
            "Teardown keeps FastAPI's default timing: after the response and the background "
            "task, so `log_at_return` holds neither, and `notify` precedes `tx commit`.",
            probes=("second_success",),
            traps=(
                Edit("cleanup done inline in the handler", _DEPS + _APP,
                     _INLINE_CLEANUP[len(_HEAD):-len(_RESULT)]),
                Edit("scope=function: teardown before the response", _DEPS + _APP,
                     _FUNCTION_SCOPE_TX[len(_HEAD):-len(_RESULT)]),
            ),
        ),
        Requirement(
            "An order for exactly the remaining stock succeeds (left 0); one unit more is "
            '${conflict} `{"detail": "out of stock"}`; an unknown item is 404.',
            probes=("second_success", "stock_exhausted", "unknown_item"),
            traps=(
                Edit("stock check inclusive", "if order.qty > STOCK[order.item]:",
                     "if order.qty >= STOCK[order.item]:"),
                Edit("out of stock answers 409 regardless", "status_code=${conflict}, detail=\"out of stock\"",
                     "status_code=${other_conflict}, detail=\"out of stock\""),
            ),
        ),
        Requirement(
            "`qty` must be greater than ${gt}: `qty` ${gt} is FastAPI's 422 (and rolls back).",
            probes=("invalid_body_rolls_back",),
            traps=(Edit("qty bound inclusive (ge)", "qty: int = Field(gt=${gt})",
                        "qty: int = Field(ge=${gt})"),),
        ),
    ),
    expected_rows=[
        [200, {"item": "apple", "left": 3, "log_at_return": ["conn open", "tx begin", "handler"]}],
        [200, ["conn open", "tx begin", "handler", "notify", "tx commit", "conn close"]],
        [204],
        [409, {"detail": "out of stock"}],
        [200, ["conn open", "tx begin", "handler", "tx rollback", "conn close"]],
    ],
)
