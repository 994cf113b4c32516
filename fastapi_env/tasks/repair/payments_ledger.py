"""Repair tier: a payments ledger, a package of four modules in /workspace with eight planted
bugs (an idempotency key declared without Header() so it is read from the query string, a
single Body() amount not embedded, a unit-of-work dependency that commits in `finally` so a
failed transfer still moves money, an overdraft bound off by one, an exception class outside the
handled hierarchy (500), a lax amount that accepts "500" and 500.0, a POST left at 200, an
alias that only validates so the output key is the Python name). Each bug is one requirement's
trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""A small payments ledger: accounts, deposits and idempotent transfers."""
'''

ERRORS = '''\
class LedgerError(Exception):
    """A failure the API reports as {"error": code} with its status."""

    status = 400
    code = "ledger_error"


class AccountNotFound(LedgerError):
    status, code = 404, "account_not_found"


class TransferNotFound(LedgerError):
    status, code = 404, "transfer_not_found"


class AccountFrozen(LedgerError):
    status, code = ${frozen_status}, "account_frozen"


class InsufficientFunds(LedgerError):
    status, code = ${nsf_status}, "insufficient_funds"
'''

MODELS = '''\
from pydantic import BaseModel, Field, model_validator


class Account(BaseModel):
    id: int
    owner: str
    balance: int
    frozen: bool


class Transfer(BaseModel):
    from_: int = Field(alias="from")
    to: int
    amount: int = Field(gt=0, le=${max_amount}, strict=True)
    memo: str | None = Field(None, max_length=${memo_max})

    @model_validator(mode="after")
    def distinct_accounts(self):
        if self.from_ == self.to:
            raise ValueError("from and to must differ")
        return self


class TransferOut(Transfer):
    id: int


class Deposited(BaseModel):
    account: int
    balance: int
'''

DB = '''\
from .errors import AccountFrozen, AccountNotFound, InsufficientFunds

OVERDRAFT = ${overdraft}  # how far below zero a sender may go
ACCOUNTS = {
    1: {"id": 1, "owner": "${owner1}", "balance": ${balance1}, "frozen": False},
    2: {"id": 2, "owner": "${owner2}", "balance": ${balance2}, "frozen": False},
    3: {"id": 3, "owner": "${owner3}", "balance": ${balance3}, "frozen": True},
}
TRANSFERS: dict[int, dict] = {}
KEYS: dict[str, int] = {}  # idempotency key -> transfer id


def find_account(account_id: int) -> dict:
    if account_id not in ACCOUNTS:
        raise AccountNotFound()
    return ACCOUNTS[account_id]


class UnitOfWork:
    """Changes staged during one request; they reach the ledger only on commit."""

    def __init__(self):
        self.deltas: dict[int, int] = {}
        self.transfers: list[dict] = []
        self.keys: dict[str, int] = {}

    def balance(self, account_id: int) -> int:
        return ACCOUNTS[account_id]["balance"] + self.deltas.get(account_id, 0)

    def move(self, account_id: int, amount: int) -> None:
        if find_account(account_id)["frozen"]:
            raise AccountFrozen()
        if self.balance(account_id) + amount < -OVERDRAFT:
            raise InsufficientFunds()
        self.deltas[account_id] = self.deltas.get(account_id, 0) + amount

    def commit(self) -> None:
        for account_id, delta in self.deltas.items():
            ACCOUNTS[account_id]["balance"] += delta
        for transfer in self.transfers:
            TRANSFERS[transfer["id"]] = transfer
        KEYS.update(self.keys)


def unit_of_work():
    uow = UnitOfWork()
    yield uow
    # Reached only when the endpoint succeeded: its exception is re-raised at the yield.
    uow.commit()
'''

API = '''\
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Header, Response

from . import db
from .errors import TransferNotFound
from .models import Account, Deposited, Transfer, TransferOut

router = APIRouter()
Work = Annotated[db.UnitOfWork, Depends(db.unit_of_work)]


@router.get("/accounts/{account_id}", response_model=Account)
def read_account(account_id: int):
    return db.find_account(account_id)


@router.post("/accounts/{account_id}/deposits", status_code=201, response_model=Deposited)
def deposit(
    account_id: int,
    amount: Annotated[int, Body(embed=True, gt=0, le=${max_amount}, strict=True)],
    uow: Work,
):
    uow.move(account_id, amount)
    return {"account": account_id, "balance": uow.balance(account_id)}


@router.post("/transfers", status_code=201, response_model=TransferOut)
def transfer(
    body: Transfer,
    response: Response,
    uow: Work,
    ${idem_param}: Annotated[str | None, Header()] = None,
):
    if ${idem_param} and ${idem_param} in db.KEYS:  # a replay: the original, no money moves
        response.status_code = 200
        return db.TRANSFERS[db.KEYS[${idem_param}]]
    db.find_account(body.from_)
    db.find_account(body.to)
    uow.move(body.to, body.amount)
    uow.move(body.from_, -body.amount)
    record = {"id": len(db.TRANSFERS) + 1, "from": body.from_, "to": body.to,
              "amount": body.amount, "memo": body.memo}
    uow.transfers.append(record)
    if ${idem_param}:
        uow.keys[${idem_param}] = record["id"]
    return record


@router.get("/transfers/{transfer_id}", response_model=TransferOut)
def read_transfer(transfer_id: int):
    if transfer_id not in db.TRANSFERS:
        raise TransferNotFound()
    return db.TRANSFERS[transfer_id]
'''

SOLUTION = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from ledger.api import router
from ledger.errors import LedgerError

app = FastAPI()
app.include_router(router)


@app.exception_handler(LedgerError)
async def ledger_error(request: Request, exc: LedgerError):
    return JSONResponse({"error": exc.code}, status_code=exc.status)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.get("/accounts/1")),
    row(client.post("/transfers", headers={"${idem_header}": "rent-1"},
                    json={"from": 1, "to": 2, "amount": ${amount1}, "memo": "rent"})),
    row(client.get("/transfers/1")),
    row(client.post("/accounts/2/deposits", json={"amount": 250})),
    row(client.get("/accounts/2")),
]
'''


_in = editor("ledger")


_KEY_AS_QUERY = _in("api", "idempotency key read from the query string",
                    "${idem_param}: Annotated[str | None, Header()] = None",
                    "${idem_param}: str | None = None")
_NOT_EMBEDDED = _in("api", "deposit amount not embedded",
                    "Body(embed=True, gt=0, le=${max_amount}, strict=True)",
                    "Body(gt=0, le=${max_amount}, strict=True)")
_COMMIT_ALWAYS = _in("db", "unit of work commits in finally", '''    uow = UnitOfWork()
    yield uow
    # Reached only when the endpoint succeeded: its exception is re-raised at the yield.
    uow.commit()''', '''    uow = UnitOfWork()
    try:
        yield uow
    finally:
        uow.commit()  # always write what the request staged''')
_OVERDRAFT_OFF_BY_ONE = _in("db", "overdraft limit itself refused",
                            "if self.balance(account_id) + amount < -OVERDRAFT:",
                            "if self.balance(account_id) + amount <= -OVERDRAFT:")
_FROZEN_UNHANDLED = _in("errors", "frozen error outside the handled hierarchy",
                        "class AccountFrozen(LedgerError):", "class AccountFrozen(Exception):")
_LAX_AMOUNT = _in("models", "transfer amount not strict",
                  "amount: int = Field(gt=0, le=${max_amount}, strict=True)",
                  "amount: int = Field(gt=0, le=${max_amount})")
_STATUS_200 = _in("api", "new transfer answered with 200",
                  '@router.post("/transfers", status_code=201, response_model=TransferOut)',
                  '@router.post("/transfers", response_model=TransferOut)')
_VALIDATION_ALIAS = _in("models", "alias only validates, output shows from_",
                        'from_: int = Field(alias="from")',
                        'from_: int = Field(validation_alias="from")')

FILES = {"ledger/__init__.py": INIT, "ledger/errors.py": ERRORS, "ledger/models.py": MODELS,
         "ledger/db.py": DB, "ledger/api.py": API}
PLANTED = (_KEY_AS_QUERY, _NOT_EMBEDDED, _COMMIT_ALWAYS, _OVERDRAFT_OFF_BY_ONE,
           _FROZEN_UNHANDLED, _LAX_AMOUNT, _STATUS_200, _VALIDATION_ALIAS)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = '''\
MAX = ${max_amount}
KEY = "${idem_header}"


def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _brief(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return _row(r)


def _ok(r):
    """A success as "ok" (its status is another requirement's), a failure in full."""
    return "ok" if r.status_code < 300 else _brief(r)


def _balances(client):
    return [client.get(f"/accounts/{n}").json()["balance"] for n in (1, 2, 3)]


def _send(client, source, target, amount, headers=None, memo=None):
    return client.post("/transfers", headers=headers or {},
                       json={"from": source, "to": target, "amount": amount, "memo": memo})


def probe_transfer_statuses(client):
    made = _send(client, 2, 1, 5, {KEY: "status-1"})
    return [[made.status_code], [_send(client, 2, 1, 7, {KEY: "status-1"}).status_code],
            [_send(client, 2, 1, 5).status_code],
            [client.get(f"/transfers/{made.json()['id']}").status_code]]


def probe_transfers_show_from_and_to(client):
    made = _send(client, 1, 2, 3, memo="keys")
    rows = [sorted(made.json()), [made.json().get("from"), made.json().get("to")]]
    shown = client.get(f"/transfers/{made.json()['id']}").json()
    rows.append([sorted(shown), shown.get("from"), shown.get("memo")])
    bad = client.post("/transfers", json={"from_": 1, "to": 2, "amount": 3})
    rows.append(_brief(bad))
    return rows


def probe_idempotency_key_replays(client):
    before = _balances(client)
    first = _send(client, 1, 2, 11, {KEY: "idem-a"})
    again = _send(client, 1, 2, 99, {KEY: "idem-a"})
    after = _balances(client)
    other = _send(client, 1, 2, 11, {KEY: "idem-b"})
    empty_1 = _send(client, 2, 1, 4, {KEY: ""})
    empty_2 = _send(client, 2, 1, 4, {KEY: ""})
    query = client.post("/transfers?${idem_param}=idem-a",
                        json={"from": 1, "to": 2, "amount": 6})
    return [[first.json()["amount"], again.json()["id"] - first.json()["id"],
             again.json()["amount"]], [after[0] - before[0], after[1] - before[1]],
            [other.json()["id"] - first.json()["id"]],
            [empty_2.json()["id"] - empty_1.json()["id"]],
            [query.json()["id"] - first.json()["id"], query.json()["amount"]]]


def probe_failed_transfers_move_no_money(client):
    start, rows = _balances(client), []
    attempts = [(1, 2, MAX), (2, 1, MAX), (3, 1, 5), (1, 3, 5), (1, 99, 5), (99, 1, 5)]
    for source, target, amount in attempts:
        _send(client, source, target, amount)
        rows.append([source, target, [now - then for now, then in zip(_balances(client), start)]])
    return rows


def probe_overdraft_limit(client):
    rows = []
    balance = client.get("/accounts/2").json()["balance"]
    remaining = balance + ${overdraft}
    while remaining > MAX:  # drain account 2 to exactly the limit, one allowed step at a time
        _send(client, 2, 1, MAX)
        remaining -= MAX
    if remaining:
        rows.append(_ok(_send(client, 2, 1, remaining)))
    rows.append(client.get("/accounts/2").json()["balance"])
    rows.append(_row(_send(client, 2, 1, 1)))
    rows.append(client.post("/accounts/2/deposits", json={"amount": 1}).json())
    rows.append(_ok(_send(client, 2, 1, 1)))
    rows.append(_row(_send(client, 2, 1, 1)))
    rows.append(client.post("/accounts/2/deposits", json={"amount": ${overdraft} + 2}).json())
    return [rows]


def probe_frozen_accounts_refused(client):
    return [_row(_send(client, 1, 3, 5)), _row(_send(client, 3, 1, 5)),
            _row(client.post("/accounts/3/deposits", json={"amount": 5})),
            _row(_send(client, 3, 1, MAX * 2)), _row(_send(client, 3, 99, 5)),
            _row(client.get("/accounts/3"))]


def probe_deposit_reads_embedded_amount(client):
    rows = []
    for body in [{"amount": 40}, {}, 40, {"amount": 0}, {"amount": MAX}, {"amount": MAX + 1},
                 {"amount": "40"}, {"value": 40}]:
        before = client.get("/accounts/1").json()["balance"]
        r = client.post("/accounts/1/deposits", json=body)
        rows.append([body, [r.status_code, sorted(r.json()), r.json()["balance"] - before]
                     if r.status_code == 201 else _brief(r)])
    rows.append(_row(client.post("/accounts/99/deposits", json={"amount": 1})))
    return rows


def probe_transfer_amounts_are_strict_integers(client):
    rows = []
    for amount in ["5", 5.0, 2.5, 0, -3, True, None, MAX + 1]:
        r = client.post("/transfers", json={"from": 1, "to": 2, "amount": amount})
        rows.append([amount, _brief(r)[0], _brief(r)[1] if r.status_code == 422 else None])
    return rows


def probe_same_account_refused(client):
    before = _balances(client)
    r = client.post("/transfers", json={"from": 2, "to": 2, "amount": 1})
    return [_brief(r),
            [_balances(client) == before]]


def probe_memo_length(client):
    rows = []
    for memo in ["", "m" * ${memo_max}, "m" * (${memo_max} + 1)]:
        r = _send(client, 1, 2, 1, memo=memo)
        rows.append([len(memo), _ok(r), r.json().get("memo") if r.status_code < 300 else None])
    return rows


def probe_unknown_ids_are_404(client):
    return [_row(client.get("/accounts/99")), _row(client.get("/transfers/9999")),
            _row(_send(client, 1, 99, 5)), _row(_send(client, 99, 1, 5)),
            _row(_send(client, 99, 3, 5)), _brief(client.get("/accounts/first")),
            _brief(client.get("/transfers/first"))]
'''

_SETS = {
    # The key's header name shows in no row: it varies with the accounts, which do.
    "accounts": [
        {"owner1": "ada", "owner2": "bo", "owner3": "cy", "balance1": 50000,
         "balance2": 12000, "balance3": 3000, "amount1": 4500,
         "idem_header": "Idempotency-Key", "idem_param": "idempotency_key"},
        {"owner1": "noor", "owner2": "omar", "owner3": "pia", "balance1": 80000,
         "balance2": 2500, "balance3": 900, "amount1": 1250,
         "idem_header": "X-Request-Id", "idem_param": "x_request_id"},
    ],
    "limits": [{"overdraft": 0, "max_amount": 100000, "memo_max": 40},
               {"overdraft": 500, "max_amount": 25000, "memo_max": 60},
               {"overdraft": 2000, "max_amount": 50000, "memo_max": 30}],
    "statuses": [{"nsf_status": 402, "frozen_status": 423},
                 {"nsf_status": 409, "frozen_status": 403},
                 {"nsf_status": 400, "frozen_status": 409}],
}

FAMILY = Family(
    id="repair/payments_ledger",
    title="Repair a payments ledger that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a payments ledger: `solution.py` and the package `ledger/` it imports
(`errors.py`, `models.py`, `db.py`, `api.py`). It should behave as described below but does
not, in several ways. Find and fix every deviation (edit or rewrite any file); `solution.py`
must keep defining `app` and `result`. State lives in memory and carries from one request to
the next.

**Accounts** at start (amounts are integer cents):

| id | owner | balance | frozen |
|---|---|---|---|
| 1 | ${owner1} | ${balance1} | no |
| 2 | ${owner2} | ${balance2} | no |
| 3 | ${owner3} | ${balance3} | yes |

**Errors.** Every failure of the ledger has the body `{"error": <code>}`: 404
`account_not_found`, 404 `transfer_not_found`, ${frozen_status} `account_frozen`,
${nsf_status} `insufficient_funds`. Request validation errors keep FastAPI's standard 422 body.

**Amounts** (of deposits and transfers) are JSON integers from 1 to ${max_amount}: a string,
a fractional or integral float (`5.0`), a boolean or null is a 422.

**Routes.**
- `GET /accounts/{id}`: 200 `{"id", "owner", "balance", "frozen"}`, or 404.
- `POST /accounts/{id}/deposits` with `{"amount": n}`: 201 `{"account": id, "balance": <new
  balance>}`; 404 for an unknown account, `account_frozen` for a frozen one.
- `POST /transfers` with `{"from": id, "to": id, "amount": n, "memo"?: string of at most
  ${memo_max} characters or null}`: `from` and `to` must differ (else 422). Checked in this
  order: both accounts exist (404), neither is frozen (`account_frozen`), the sender's balance
  after the transfer is at least -${overdraft} (exactly -${overdraft} is allowed; else
  `insufficient_funds`). A failed transfer changes no balance and records nothing. On success:
  201 with `{"id", "from", "to", "amount", "memo"}` (ids 1, 2, 3, ... in order), both balances
  updated.
- Idempotency: a transfer request may carry the header `${idem_header}`. When a successful
  transfer already used that (non-empty) key, the request moves no money and answers 200 with
  that original transfer, whatever its body says. An empty or absent key is no key.
- `GET /transfers/{id}`: 200 with the transfer, or 404.

`result` has five rows, each `[status, body]`, in this order:
1. `GET /accounts/1`
2. `POST /transfers` with `${idem_header}: rent-1` and
   `{"from": 1, "to": 2, "amount": ${amount1}, "memo": "rent"}`
3. `GET /transfers/1`
4. `POST /accounts/2/deposits` with `{"amount": 250}`
5. `GET /accounts/2`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["accounts"][0], **_SETS["limits"][0], **_SETS["statuses"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("A new transfer is 201, a replay of a used key 200.",
                    probes=("transfer_statuses",), traps=(_STATUS_200,)),
        Requirement("Transfers are read and shown with the keys `from` and `to`.",
                    probes=("transfers_show_from_and_to",), traps=(_VALIDATION_ALIAS,)),
        Requirement("A used `${idem_header}` replays the original transfer and moves no money.",
                    probes=("idempotency_key_replays",), traps=(_KEY_AS_QUERY,)),
        Requirement("A failed transfer changes no balance.",
                    probes=("failed_transfers_move_no_money",), traps=(_COMMIT_ALWAYS,)),
        Requirement("The sender may go down to exactly -${overdraft}, not below "
                    "(${nsf_status} `insufficient_funds`).",
                    probes=("overdraft_limit",), traps=(_OVERDRAFT_OFF_BY_ONE,)),
        Requirement("A frozen account neither sends, receives nor takes deposits "
                    "(${frozen_status} `account_frozen`).",
                    probes=("frozen_accounts_refused",), traps=(_FROZEN_UNHANDLED,)),
        Requirement('A deposit reads `{"amount": n}` (1 to ${max_amount}).',
                    probes=("deposit_reads_embedded_amount",), traps=(_NOT_EMBEDDED,)),
        Requirement("A transfer amount is a JSON integer from 1 to ${max_amount}: strings, "
                    "floats, booleans and null are 422.",
                    probes=("transfer_amounts_are_strict_integers",), traps=(_LAX_AMOUNT,)),
        Requirement("`from` and `to` must differ (422).",
                    probes=("same_account_refused",),
                    traps=(_in("models", "same-account check missing", '''\
        if self.from_ == self.to:
            raise ValueError("from and to must differ")
''', ""),)),
        Requirement("A memo has at most ${memo_max} characters.",
                    probes=("memo_length",),
                    traps=(_in("models", "memo unbounded",
                               "memo: str | None = Field(None, max_length=${memo_max})",
                               "memo: str | None = None"),)),
        Requirement("Unknown accounts and transfers are 404 with their error codes.",
                    probes=("unknown_ids_are_404",),
                    traps=(_in("api", "unknown transfer not raised", '''\
    if transfer_id not in db.TRANSFERS:
        raise TransferNotFound()
    return db.TRANSFERS[transfer_id]''', '''    return db.TRANSFERS.get(transfer_id)'''),)),
    ),
)
