from fastapi_env.tasks import Task

_HEAD = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

ACCOUNTS = {"alice": 100, "bob": 20, "carol": 500}
FROZEN = {"carol"}


class Withdrawal(BaseModel):
    amount: int = Field(gt=0)


class WalletError(Exception):
    def __init__(self, account: str):
        self.account = account


class AccountNotFound(WalletError):
    pass


class AccountFrozen(WalletError):
    pass


class InsufficientFunds(WalletError):
    def __init__(self, account: str, balance: int, requested: int):
        super().__init__(account)
        self.balance = balance
        self.requested = requested


app = FastAPI()
'''

_HANDLERS = '''

@app.exception_handler(AccountNotFound)
async def not_found_handler(request: Request, exc: AccountNotFound):
    return JSONResponse(status_code=404, content={"error": "account_not_found", "account": exc.account})


@app.exception_handler(AccountFrozen)
async def frozen_handler(request: Request, exc: AccountFrozen):
    return JSONResponse(status_code=423, content={"error": "account_frozen", "account": exc.account})


@app.exception_handler(InsufficientFunds)
async def insufficient_handler(request: Request, exc: InsufficientFunds):
    return JSONResponse(
        status_code=409,
        content={
            "error": "insufficient_funds",
            "account": exc.account,
            "balance": exc.balance,
            "requested": exc.requested,
        },
    )
'''

_ROUTES = '''

def find(name: str) -> int:
    if name not in ACCOUNTS:
        raise AccountNotFound(name)
    return ACCOUNTS[name]


@app.get("/accounts/{name}")
def read_account(name: str):
    return {"account": name, "balance": find(name)}


@app.post("/accounts/{name}/withdraw")
def withdraw(name: str, body: Withdrawal):
    balance = find(name)
    if name in FROZEN:
        raise AccountFrozen(name)
    if body.amount > balance:
        raise InsufficientFunds(name, balance, body.amount)
    ACCOUNTS[name] = balance - body.amount
    return {"account": name, "balance": ACCOUNTS[name]}
'''

_RESULT = '''

client = TestClient(app)
result = []
for path, amount in [
    ("/accounts/alice/withdraw", 30),
    ("/accounts/alice/withdraw", 80),
    ("/accounts/zed/withdraw", 5),
    ("/accounts/alice", None),
]:
    if amount is None:
        r = client.get(path)
    else:
        r = client.post(path, json={"amount": amount})
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _HANDLERS + _ROUTES + _RESULT

_HTTP_EXCEPTION_DETAIL = _HEAD + '''

def find(name: str) -> int:
    if name not in ACCOUNTS:
        raise HTTPException(status_code=404, detail={"error": "account_not_found", "account": name})
    return ACCOUNTS[name]


@app.get("/accounts/{name}")
def read_account(name: str):
    return {"account": name, "balance": find(name)}


@app.post("/accounts/{name}/withdraw")
def withdraw(name: str, body: Withdrawal):
    balance = find(name)
    if name in FROZEN:
        raise HTTPException(status_code=423, detail={"error": "account_frozen", "account": name})
    if body.amount > balance:
        raise HTTPException(
            status_code=409,
            detail={"error": "insufficient_funds", "account": name, "balance": balance, "requested": body.amount},
        )
    ACCOUNTS[name] = balance - body.amount
    return {"account": name, "balance": ACCOUNTS[name]}
''' + _RESULT

_HANDLER_WITHOUT_STATUS = _REFERENCE.replace(
    '''    return JSONResponse(
        status_code=409,
        content={''', '''    return JSONResponse(
        content={''')

_NO_FROZEN_HANDLER = _HEAD + _HANDLERS.split("@app.exception_handler(AccountFrozen)")[0] + '''@app.exception_handler(InsufficientFunds)''' + _HANDLERS.split("@app.exception_handler(InsufficientFunds)")[1] + _ROUTES + _RESULT

TASK = Task(
    id="errors/custom_exception_handler",
    title="Domain exceptions turned into JSON errors by registered handlers",
    category="errors",
    difficulty="easy",
    prompt='''\
Build a small wallet service. Balances live in memory: `{"alice": 100, "bob": 20, "carol": 500}`;
the account `carol` is frozen.

The route code must signal failures by raising your own exception classes (one per failure kind,
e.g. `AccountNotFound`, `AccountFrozen`, `InsufficientFunds`, carrying the data below), and the
app turns each into a JSON response with an exception handler. The error responses are plain
JSON objects at the top level of the body (no `detail` wrapper):
- unknown account: 404 `{"error": "account_not_found", "account": <name>}`
- frozen account: 423 `{"error": "account_frozen", "account": <name>}`
- not enough money: 409 `{"error": "insufficient_funds", "account": <name>, "balance":
  <current balance>, "requested": <amount>}`

Routes (`name` is a string path parameter):
- `GET /accounts/{name}`: 200 `{"account": <name>, "balance": <balance>}` (frozen accounts can
  be read); unknown account as above.
- `POST /accounts/{name}/withdraw` with JSON body `{"amount": <integer>}`; `amount` must be
  greater than 0 (otherwise FastAPI's standard 422 validation error). Checks in this order:
  unknown account, frozen account, amount larger than the balance. On success the balance is
  reduced by `amount` and the answer is 200 `{"account": <name>, "balance": <new balance>}`.
  A failed withdrawal changes nothing.

Then fill `result` with one row per request, in this order, each row
`[status code (integer), the JSON body]`:
1. `POST /accounts/alice/withdraw` with JSON `{"amount": 30}`
2. `POST /accounts/alice/withdraw` with JSON `{"amount": 80}`
3. `POST /accounts/zed/withdraw` with JSON `{"amount": 5}`
4. `GET /accounts/alice`
''',
    reference=_REFERENCE,
    probes='''\
def _body(r):
    try:
        return r.json()
    except ValueError:
        return r.text


def probe_frozen_account(client):
    rows = []
    r = client.post("/accounts/carol/withdraw", json={"amount": 1})
    rows.append([r.status_code, _body(r)])
    r = client.get("/accounts/carol")
    rows.append([r.status_code, r.json()])
    return rows


def probe_exact_balance_and_overdraw(client):
    rows = []
    r = client.post("/accounts/bob/withdraw", json={"amount": 20})
    rows.append([r.status_code, r.json()])
    r = client.post("/accounts/bob/withdraw", json={"amount": 1})
    rows.append([r.status_code, r.json()])
    r = client.get("/accounts/nobody")
    rows.append([r.status_code, r.json()])
    return rows


def probe_invalid_amount(client):
    r = client.post("/accounts/bob/withdraw", json={"amount": 0})
    return [[r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]]]
''',
    traps={
        "HTTPException with a dict detail (nested under detail)": _HTTP_EXCEPTION_DETAIL,
        "handler's JSONResponse without status_code": _HANDLER_WITHOUT_STATUS,
        "no handler for the frozen-account exception": _NO_FROZEN_HANDLER,
    },
    expected_rows=[
        [200, {"account": "alice", "balance": 70}],
        [409, {"error": "insufficient_funds", "account": "alice", "balance": 70, "requested": 80}],
        [404, {"error": "account_not_found", "account": "zed"}],
        [200, {"account": "alice", "balance": 70}],
    ],
)
