from fastapi_env.tasks import Edit, Family, Requirement

_CHARGE = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

CREDITS = {"${acct1}": ${credits1}, "${acct2}": ${credits2}}
LEDGER: list = []


class Charge:
    """A metered price: each instance is a dependency that charges its cost once per request."""

    def __init__(self, cost: int, label: str):
        self.cost = cost
        self.label = label

    def __call__(self, account: str) -> int:
        if account not in CREDITS:
            raise HTTPException(status_code=404, detail="unknown account")
        if CREDITS[account] < self.cost:
            raise HTTPException(
                status_code=402, detail={"needed": self.cost, "left": CREDITS[account]}
            )
        CREDITS[account] -= self.cost
        LEDGER.append([account, self.label, self.cost])
        return CREDITS[account]


charge_search = Charge(${search_cost}, "search")
charge_report = Charge(${report_cost}, "report")
'''

_ROUTES = '''
app = FastAPI()


def search_preview(
    q: Annotated[str, Query(max_length=${qmax})] = "",
    left: Annotated[int, Depends(charge_search)] = 0,
) -> dict:
    return {"q": q, "credits_left": left}


@app.get("/search")
def search(preview: Annotated[dict, Depends(search_preview)]):
    return preview


@app.get("/report")
def report(left: Annotated[int, Depends(charge_report)]):
    return {"report": "ready", "credits_left": left}


@app.get("/bundle")
def bundle(
    preview: Annotated[dict, Depends(search_preview)],
    search_left: Annotated[int, Depends(charge_search)],
    left: Annotated[int, Depends(charge_report)],
):
    return {"preview": preview, "search_left": search_left, "credits_left": left}


@app.get("/ledger")
def ledger():
    return LEDGER
'''

_RESULT = '''

client = TestClient(app)
result = []
for path in [
    "/search?account=${acct1}&q=${word}",
    "/report?account=${acct1}",
    "/bundle?account=${acct1}",
    "/search?account=nobody",
    "/report?account=${acct2}",
    "/ledger",
]:
    r = client.get(path)
    result.append([r.status_code, r.json()])
'''

PROMPT = '''\
Build a metered API. Module-level state, starting as:

    CREDITS = {"${acct1}": ${credits1}, "${acct2}": ${credits2}}   # account -> credits
    LEDGER = []

Prices are dependencies: write one class `Charge` whose instances are the dependencies
(`Charge(cost, label)`, the instance's `__call__` doing the work), with one instance per
price: search costs ${search_cost} credits, report costs ${report_cost}. A charge reads the
required query parameter `account` and:

- an unknown account fails with 404 `{"detail": "unknown account"}`;
- an account with fewer credits than the cost fails with 402
  `{"detail": {"needed": <cost>, "left": <the account's credits>}}` (exactly the cost is enough);
- otherwise it subtracts the cost, appends `[<account>, <label>, <cost>]` to `LEDGER`
  (labels `"search"` and `"report"`) and gives the credits left.

Each price is charged at most once per request, however many parts of the request need it. A
failing charge ends the request, and charges made earlier in the same request stay made (no
refund). Charges are dependencies, so they run before FastAPI validates the route's own query
parameters: a request whose `q` is invalid is still charged and then answers FastAPI's standard
422.

Routes:
- `GET /search?account=...&q=...`: charges search; `q` is optional (default `""`), at most
  ${qmax} characters. 200 `{"q": <q>, "credits_left": <credits after the charge>}`.
- `GET /report?account=...`: charges report; 200 `{"report": "ready", "credits_left": <credits
  after the charge>}`.
- `GET /bundle?account=...&q=...`: charges search, then report (in this order). 200
  `{"preview": <what /search answers for the same q, after the search charge>, "search_left":
  <credits after the search charge>, "credits_left": <credits after both charges>}`.
- `GET /ledger`: 200 with `LEDGER` (a JSON array), no account needed.

Then fill `result` with one row per request, in this order, each
`[status code (integer), the JSON body]`:
1. `GET /search?account=${acct1}&q=${word}`
2. `GET /report?account=${acct1}`
3. `GET /bundle?account=${acct1}`
4. `GET /search?account=nobody`
5. `GET /report?account=${acct2}`
6. `GET /ledger`
'''

PROBES = '''\
def _row(r):
    body = r.json()
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_bundle_charges_each_price_once(client):
    return [
        _row(client.get("/bundle?account=${acct2}&q=ab")),
        _row(client.get("/ledger")),
    ]


def probe_exact_credits_and_no_refund(client):
    # ${acct2} now holds ${acct2_after_bundle}: spend down to exactly one search, then bundle
    rows = []
    for _ in range(${searches_to_exact}):
        rows.append(_row(client.get("/search?account=${acct2}")))
    rows.append(_row(client.get("/bundle?account=${acct2}&q=z")))
    rows.append(_row(client.get("/search?account=${acct2}")))
    rows.append(_row(client.get("/ledger")))
    return rows


def probe_charged_before_validation(client):
    return [
        _row(client.get("/search?account=${acct1}&q=" + "x" * ${qmax_over})),
        _row(client.get("/search?account=${acct1}&q=" + "y" * ${qmax})),
        _row(client.get("/ledger")),
    ]


def probe_unknown_and_missing_account(client):
    return [
        _row(client.get("/report?account=")),
        _row(client.get("/bundle?account=NOBODY")),
        _row(client.get("/report")),
        _row(client.get("/report?account=${acct1_upper}")),
    ]
'''


def _derive(p):
    cs, cr = p["search_cost"], p["report_cost"]
    # After the visible rows: acct1 paid search, report and a bundle; acct2 paid report.
    acct2_after_visible = p["credits2"] - cr
    acct2_after_bundle = acct2_after_visible - cs - cr
    # spend searches until exactly one search's worth is left, then a bundle can pay only search
    searches = (acct2_after_bundle - cs) // cs
    return {
        "acct2_after_bundle": acct2_after_bundle,
        "searches_to_exact": searches,
        "qmax_over": p["qmax"] + 1,
        "acct1_upper": p["acct1"].upper(),
        "total_cost": cs + cr,
    }


def _valid(p):
    d = _derive(p)
    cs, cr = p["search_cost"], p["report_cost"]
    rest = d["acct2_after_bundle"] - d["searches_to_exact"] * cs
    # acct1 must afford the visible rows; acct2 must end with exactly one search's worth, which
    # cannot also pay the report
    return (p["credits1"] >= 2 * (cs + cr) + cs and d["acct2_after_bundle"] >= cs
            and rest == cs and cs < cr)


_BUNDLE_SEARCH = "    search_left: Annotated[int, Depends(charge_search)],\n"

FAMILY = Family(
    id="dependencies/metered_callable_dependencies",
    title="Callable-instance dependencies: one price each, charged once per request, in order",
    category="dependencies",
    difficulty="hard",
    prompt=PROMPT,
    reference=_CHARGE + _ROUTES + _RESULT,
    probes=PROBES,
    original={"acct1": "acme", "acct2": "globex", "credits1": 20, "credits2": 14,
              "search_cost": 2, "report_cost": 3, "qmax": 10, "word": "owls"},
    space={
        "accounts": [{"acct1": "acme", "acct2": "globex"}, {"acct1": "initech", "acct2": "umbrella"},
                     {"acct1": "hooli", "acct2": "vandelay"}],
        "credits": [{"credits1": 20, "credits2": 14}, {"credits1": 30, "credits2": 19},
                    {"credits1": 25, "credits2": 23}, {"credits1": 40, "credits2": 31}],
        "costs": [{"search_cost": 2, "report_cost": 3}, {"search_cost": 1, "report_cost": 4},
                  {"search_cost": 3, "report_cost": 5}, {"search_cost": 2, "report_cost": 7}],
        "qmax": [{"qmax": 10, "word": "owls"}, {"qmax": 6, "word": "bats"},
                 {"qmax": 20, "word": "cranes"}],
    },
    derive=_derive,
    valid=_valid,
    instances=40,
    requirements=(
        Requirement(
            "Each route charges its own price (search ${search_cost}, report ${report_cost}) and "
            "answers the credits left after it; exactly the cost is enough, less is 402 with "
            "`needed` and `left`.",
            probes=("exact_credits_and_no_refund",),
            traps=(Edit("credits must exceed the cost", "if CREDITS[account] < self.cost:",
                        "if CREDITS[account] <= self.cost:"),
                   Edit("report charged at the search price",
                        'charge_report = Charge(${report_cost}, "report")',
                        'charge_report = Charge(${search_cost}, "report")')),
        ),
        Requirement(
            "A price needed by several parts of one request is charged once (`/bundle` charges "
            "search once, then report once, and `preview` and `search_left` agree).",
            probes=("bundle_charges_each_price_once",),
            traps=(Edit("bundle builds a second search charge inline", _BUNDLE_SEARCH,
                        _BUNDLE_SEARCH.replace("Depends(charge_search)",
                                               'Depends(Charge(${search_cost}, "search"))')),
                   Edit("search charge not cached in bundle", _BUNDLE_SEARCH,
                        _BUNDLE_SEARCH.replace("Depends(charge_search)",
                                               "Depends(charge_search, use_cache=False)")),
                   Edit("bundle charges report before search",
                        "    preview: Annotated[dict, Depends(search_preview)],\n" + _BUNDLE_SEARCH
                        + "    left: Annotated[int, Depends(charge_report)],\n",
                        "    left: Annotated[int, Depends(charge_report)],\n"
                        "    preview: Annotated[dict, Depends(search_preview)],\n" + _BUNDLE_SEARCH)),
        ),
        Requirement(
            "A failing charge ends the request and earlier charges of it stay (a bundle that can "
            "pay search but not report is a 402 after search was charged).",
            probes=("exact_credits_and_no_refund",),
            traps=(
                   Edit("bundle checks the total price before charging",
                        '@app.get("/bundle")\ndef bundle(\n',
                        'def bundle_affordable(account: str) -> None:\n'
                        '    if account in CREDITS and CREDITS[account] < ${total_cost}:\n'
                        '        raise HTTPException(\n'
                        '            status_code=402,\n'
                        '            detail={"needed": ${report_cost}, "left": CREDITS[account]},\n'
                        '        )\n\n\n'
                        '@app.get("/bundle", dependencies=[Depends(bundle_affordable)])\n'
                        'def bundle(\n'),),
        ),
        Requirement(
            "Charges run before the route's own query validation: a `q` longer than ${qmax} "
            "characters is charged and then answers 422.",
            probes=("charged_before_validation",),
            traps=(Edit("charge made in the handler after validation",
                        '@app.get("/search")\ndef search(preview: Annotated[dict, Depends(search_preview)]):\n'
                        '    return preview\n',
                        '@app.get("/search")\n'
                        'def search(account: str, q: Annotated[str, Query(max_length=${qmax})] = ""):\n'
                        '    return {"q": q, "credits_left": charge_search(account)}\n'),),
        ),
        Requirement(
            "`account` is required and exact: missing is 422, an empty, unknown or differently "
            'cased name is 404 `{"detail": "unknown account"}`.',
            probes=("unknown_and_missing_account",),
            traps=(Edit("account matched ignoring case", "    def __call__(self, account: str) -> int:\n",
                        "    def __call__(self, account: str) -> int:\n"
                        "        account = account.lower()\n"),
                   Edit("missing account treated as unknown",
                        "    def __call__(self, account: str) -> int:\n",
                        '    def __call__(self, account: str = "") -> int:\n')),
        ),
    ),
)
