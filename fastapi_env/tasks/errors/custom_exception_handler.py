from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import BODY

_HEAD = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

ACCOUNTS = {"${a}": ${ba}, "${b}": ${bb}, "${c}": ${bc}}
FROZEN = {"${c}"}


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
    return JSONResponse(status_code=${frozen}, content={"error": "account_frozen", "account": exc.account})


@app.exception_handler(InsufficientFunds)
async def insufficient_handler(request: Request, exc: InsufficientFunds):
    return JSONResponse(
        status_code=${short},
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
    ("/accounts/${a}/withdraw", ${w1}),
    ("/accounts/${a}/withdraw", ${w2}),
    ("/accounts/${unknown}/withdraw", 5),
    ("/accounts/${a}", None),
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
        raise HTTPException(status_code=${frozen}, detail={"error": "account_frozen", "account": name})
    if body.amount > balance:
        raise HTTPException(
            status_code=${short},
            detail={"error": "insufficient_funds", "account": name, "balance": balance, "requested": body.amount},
        )
    ACCOUNTS[name] = balance - body.amount
    return {"account": name, "balance": ACCOUNTS[name]}
''' + _RESULT

_FROZEN_HANDLER = _HEAD + _HANDLERS.split("@app.exception_handler(AccountFrozen)")[0] + '''@app.exception_handler(InsufficientFunds)''' + _HANDLERS.split("@app.exception_handler(InsufficientFunds)")[1] + _ROUTES + _RESULT

_FROZEN_HANDLER = '''@app.exception_handler(AccountFrozen)
async def frozen_handler(request: Request, exc: AccountFrozen):
    return JSONResponse(status_code=${frozen}, content={"error": "account_frozen", "account": exc.account})


'''

FAMILY = Family(
    id="errors/custom_exception_handler",
    title="Domain exceptions turned into JSON errors by registered handlers",
    category="errors",
    difficulty="easy",
    prompt='''\
Build a small wallet service. Balances live in memory: `{"${a}": ${ba}, "${b}": ${bb}, "${c}": ${bc}}`;
the account `${c}` is frozen.

The route code must signal failures by raising your own exception classes (one per failure kind,
e.g. `AccountNotFound`, `AccountFrozen`, `InsufficientFunds`, carrying the data below), and the
app turns each into a JSON response with an exception handler. The error responses are plain
JSON objects at the top level of the body (no `detail` wrapper):
- unknown account: 404 `{"error": "account_not_found", "account": <name>}`
- frozen account: ${frozen} `{"error": "account_frozen", "account": <name>}`
- not enough money: ${short} `{"error": "insufficient_funds", "account": <name>, "balance":
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
1. `POST /accounts/${a}/withdraw` with JSON `{"amount": ${w1}}`
2. `POST /accounts/${a}/withdraw` with JSON `{"amount": ${w2}}`
3. `POST /accounts/${unknown}/withdraw` with JSON `{"amount": 5}`
4. `GET /accounts/${a}`
''',
    reference=_REFERENCE,
    probes=BODY + '''

def probe_frozen_account(client):
    rows = []
    r = client.post("/accounts/${c}/withdraw", json={"amount": 1})
    rows.append([r.status_code, _body(r)])
    r = client.get("/accounts/${c}")
    rows.append([r.status_code, r.json()])
    return rows


def probe_exact_balance_and_overdraw(client):
    rows = []
    r = client.post("/accounts/${b}/withdraw", json={"amount": ${bb}})
    rows.append([r.status_code, r.json()])
    r = client.post("/accounts/${b}/withdraw", json={"amount": 1})
    rows.append([r.status_code, r.json()])
    r = client.get("/accounts/nobody")
    rows.append([r.status_code, r.json()])
    return rows


def probe_invalid_amount(client):
    rows = []
    for amount in [0, -3]:
        r = client.post("/accounts/${b}/withdraw", json={"amount": amount})
        rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    return rows

def probe_two_failures_at_once(client):
    rows = []
    r = client.post("/accounts/${c}/withdraw", json={"amount": ${bc_over}})
    rows.append([r.status_code, _body(r)])
    r = client.get("/accounts/${c}")
    rows.append([r.status_code, r.json()])
    r = client.get("/accounts/${a_upper}")
    rows.append([r.status_code, r.json()])
    return rows
''',
    original={"a": "alice", "b": "bob", "c": "carol", "unknown": "zed", "ba": 100, "bb": 20,
              "bc": 500, "frozen": 423, "short": 409},
    space={
        "a": [{"a": "alice", "b": "bob", "c": "carol", "unknown": "zed"},
              {"a": "lin", "b": "max", "c": "noor", "unknown": "oz"},
              {"a": "acme", "b": "bolt", "c": "crux", "unknown": "void"}],
        "ba": [{"ba": 100, "bb": 20, "bc": 500}, {"ba": 250, "bb": 7, "bc": 40},
               {"ba": 60, "bb": 1, "bc": 1000}],
        "frozen": [423, 403],
        "short": [409, 402],
    },
    derive=lambda p: {"w1": 30 if p["ba"] == 100 else p["ba"] * 3 // 10,
                      "w2": 80 if p["ba"] == 100 else p["ba"] - p["ba"] * 3 // 10 + 10,
                      "bc_over": p["bc"] + 1, "a_upper": p["a"].capitalize()},
    instances=36,
    requirements=(
        Requirement(
            "Each failure kind is its own exception turned into a top-level JSON object (no "
            "`detail` wrapper) with its status: unknown 404, frozen ${frozen}, not enough money "
            "${short} with balance and requested.",
            probes=("frozen_account", "exact_balance_and_overdraw"),
            traps=(
                Edit("HTTPException with a dict detail (nested under detail)", _HANDLERS + _ROUTES,
                     _HTTP_EXCEPTION_DETAIL[len(_HEAD):-len(_RESULT)]),
                Edit("handler's JSONResponse without status_code",
                     "        status_code=${short},\n        content={", "        content={"),
                Edit("no handler for the frozen-account exception",
                     _FROZEN_HANDLER, ""),
            ),
        ),
        Requirement(
            "Checks run in order unknown, frozen, balance: a frozen account asked for more than "
            "its balance is ${frozen}; a frozen account can still be read.",
            probes=("two_failures_at_once", "frozen_account"),
            traps=(Edit("balance checked before frozen",
                        "    if name in FROZEN:\n        raise AccountFrozen(name)\n"
                        "    if body.amount > balance:\n        raise InsufficientFunds(name, balance, body.amount)\n",
                        "    if body.amount > balance:\n        raise InsufficientFunds(name, balance, body.amount)\n"
                        "    if name in FROZEN:\n        raise AccountFrozen(name)\n"),
                   Edit("frozen accounts cannot be read",
                        '    return {"account": name, "balance": find(name)}',
                        '    if name in FROZEN:\n        raise AccountFrozen(name)\n'
                        '    return {"account": name, "balance": find(name)}'),),
        ),
        Requirement(
            "Withdrawing exactly the balance succeeds (balance 0); one more is refused and "
            "changes nothing; account names are exact (case matters).",
            probes=("exact_balance_and_overdraw", "two_failures_at_once"),
            traps=(Edit("balance check inclusive", "if body.amount > balance:",
                        "if body.amount >= balance:"),
                   Edit("account names case-insensitive", "def find(name: str) -> int:\n",
                        "def find(name: str) -> int:\n    name = name.lower()\n")),
        ),
        Requirement(
            "`amount` must be greater than 0: 0 and negatives are FastAPI's 422.",
            probes=("invalid_amount",),
            traps=(Edit("amount bound inclusive (ge=0)", "amount: int = Field(gt=0)",
                        "amount: int = Field(ge=0)"),),
        ),
    ),
    expected_rows=[
        [200, {"account": "alice", "balance": 70}],
        [409, {"error": "insufficient_funds", "account": "alice", "balance": 70, "requested": 80}],
        [404, {"error": "account_not_found", "account": "zed"}],
        [200, {"account": "alice", "balance": 70}],
    ],
)
