"""Repair tier: a parcel-shipping quote service, a package of seven modules in /workspace with
ten planted bugs (a list route without its return type, so prices become floats and the owner
leaks; a weight typed as a lax int, so "1500", 1500.0 and true pass; a repeatable query filter
declared without Query(), so it is read from the body and ignored; the error handler registered
for FastAPI's HTTPException, which misses the router's own 404 and 405; a cost hidden with
response_model_exclude on a list, which does nothing; a GET route that does not answer HEAD;
routers included in an order that shadows `/quotes/summary`; round() on a Decimal, which rounds
half to even; every started kilogram counted one too many at exact kilograms; a zone pattern
checked before the upper-casing). Each bug is one requirement's trap; the setup is the reference
with all of them."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""Parcel shipping quotes: a price per destination zone and weight, per customer account."""
'''

MODELS = '''\
from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, Field, StrictInt, StringConstraints

MAX_WEIGHT_G = ${max_weight}

# Two letters in any case, kept upper-case.
Zone = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True,
                                        pattern=r"^[A-Za-z]{2}$$")]


class QuoteIn(BaseModel):
    destination: Zone
    weight_g: StrictInt = Field(ge=1, le=MAX_WEIGHT_G)


class Quote(BaseModel):
    id: int
    destination: str
    weight_g: int
    billed_kg: int
    price: Decimal


class Rate(BaseModel):
    zone: str
    base: Decimal
    per_kg: Decimal


class RateRecord(Rate):
    cost: Decimal


class Summary(BaseModel):
    count: int
    total: Decimal
'''

TARIFF = '''\
import itertools
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


ACCOUNTS = {"${key_a}": "${acct_a}", "${key_b}": "${acct_b}", "${key_c}": "${acct_c}",
            "${key_d}": "${acct_d}"}
FUEL_PERCENT = Decimal("${fuel}")
RATES = {  # zone -> tariff; "cost" is what the carrier charges us, never shown
    "${z1}": {"zone": "${z1}", "base": Decimal("${base1}"), "per_kg": Decimal("${kg1}"),
              "cost": Decimal("${cost1}")},
    "${z2}": {"zone": "${z2}", "base": Decimal("${base2}"), "per_kg": Decimal("${kg2}"),
              "cost": Decimal("${cost2}")},
    "${z3}": {"zone": "${z3}", "base": Decimal("${base3}"), "per_kg": Decimal("${kg3}"),
              "cost": Decimal("${cost3}")},
}
QUOTES: dict[int, dict] = {}
_ids = itertools.count(1)


def billed_kg(weight_g: int) -> int:
    """Every started kilogram is billed as a whole one."""
    return -(-weight_g // 1000)


def price(zone: str, weight_g: int) -> Decimal:
    rate = RATES[zone]
    net = rate["base"] + rate["per_kg"] * billed_kg(weight_g)
    return to_cents(net * (100 + FUEL_PERCENT) / 100)


def add_quote(owner: str, zone: str, weight_g: int) -> dict:
    quote_id = next(_ids)
    QUOTES[quote_id] = {"id": quote_id, "owner": owner, "destination": zone,
                        "weight_g": weight_g, "billed_kg": billed_kg(weight_g),
                        "price": price(zone, weight_g)}
    return QUOTES[quote_id]
'''

ERRORS = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException


def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                        headers=exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
'''

DEPS = '''\
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
''' + late_body.IMPORT + '''
from . import tariff

CHALLENGE = {"WWW-Authenticate": "ApiKey"}


''' + late_body.ROUTE_CLASSES + '''


def account(x_api_key: Annotated[str | None, Header()] = None) -> str:
    if not x_api_key:
        raise HTTPException(401, "missing api key", headers=CHALLENGE)
    owner = tariff.ACCOUNTS.get(x_api_key)
    if owner is None:
        raise HTTPException(401, "invalid api key", headers=CHALLENGE)
    return owner


Account = Annotated[str, Depends(account)]
'''

QUOTES = '''\
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query

from . import tariff
from .deps import Account, CallerFirstRoute
from .models import Quote, QuoteIn

router = APIRouter(route_class=CallerFirstRoute)


def own_quote(quote_id: int, owner: str) -> dict:
    quote = tariff.QUOTES.get(quote_id)
    if quote is None or quote["owner"] != owner:
        raise HTTPException(404, "quote not found")
    return quote


@router.post("/quotes", status_code=201, response_model=Quote)
def create_quote(body: QuoteIn, owner: Account):
    if body.destination not in tariff.RATES:
        raise HTTPException(404, "unknown zone")
    return tariff.add_quote(owner, body.destination, body.weight_g)


@router.get("/quotes")
def list_quotes(owner: Account,
                destination: Annotated[list[str] | None, Query()] = None) -> list[Quote]:
    wanted = {zone.strip().upper() for zone in destination or []}
    return [quote for quote in tariff.QUOTES.values()
            if quote["owner"] == owner and (not wanted or quote["destination"] in wanted)]


@router.api_route("/quotes/{quote_id}", methods=["GET", "HEAD"], response_model=Quote)
def read_quote(quote_id: int, owner: Account):
    return own_quote(quote_id, owner)
'''

REPORTS = '''\
from decimal import Decimal

from fastapi import APIRouter

from . import tariff
from .deps import Account
from .models import Rate, Summary

router = APIRouter()


@router.get("/quotes/summary")
def summary(owner: Account) -> Summary:
    mine = [quote for quote in tariff.QUOTES.values() if quote["owner"] == owner]
    return {"count": len(mine), "total": sum((q["price"] for q in mine), Decimal("0.00"))}


@router.get("/rates", response_model=list[Rate])
def list_rates():
    return list(tariff.RATES.values())
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from shipping import quotes, reports
from shipping.errors import install

app = FastAPI()
install(app)
app.include_router(reports.router)
app.include_router(quotes.router)''' + RESULT_CLIENT + '''\
me = {"X-Api-Key": "${key_a}"}
first = client.post("/quotes", headers=me, json={"destination": "${z1}", "weight_g": ${w1}})
second = client.post("/quotes", headers=me, json={"destination": "${z2}", "weight_g": ${w2}})
mine = client.get("/quotes", headers=me)
result = [
    [first.status_code, body(first)],
    [second.status_code, body(second)],
    [mine.status_code, body(mine)],
]
'''

_in = editor("shipping")

_LIST_UNTYPED = _in("quotes", "list route without its return type",
                    "= None) -> list[Quote]:", "= None):")


def _through(module: str, end: str, start: str = "") -> str:
    """`module` from `start` (its beginning) through `end`: a bug's edit that also changes the
    imports it leaves unused (an unused import in the setup would point at the bug)."""
    return module[module.index(start):module.index(end) + len(end)]


_MODELS_HEAD = _through(MODELS, "weight_g: StrictInt = Field(")
_LAX_WEIGHT = _in("models", "weight is a lax int", _MODELS_HEAD,
                  _MODELS_HEAD.replace(", StrictInt", "").replace("weight_g: StrictInt", "weight_g: int"))
_QUOTES_HEAD = _through(QUOTES, "destination: Annotated[list[str] | None, Query()] = None")
_FILTER_IN_BODY = _in("quotes", "repeatable filter without Query()", _QUOTES_HEAD,
                      _QUOTES_HEAD.replace("from typing import Annotated\n\n", "")
                      .replace(", Query\n", "\n")
                      .replace("Annotated[list[str] | None, Query()]", "list[str] | None"))
_HANDLER_MISSES_ROUTER = _in("errors", "handler registered for FastAPI's HTTPException",
                             "from starlette.exceptions import HTTPException",
                             "from fastapi import HTTPException")
_REPORTS_RATES = _through(REPORTS, '@router.get("/rates", response_model=list[Rate])',
                          start="from .models import")
_COST_LEAKS = _in("reports", "cost hidden with response_model_exclude on a list", _REPORTS_RATES,
                  _REPORTS_RATES.replace("import Rate,", "import RateRecord,")
                  .replace("response_model=list[Rate])", 'response_model=list[RateRecord], '
                           'response_model_exclude={"cost"})'))
_NO_HEAD = _in("quotes", "quote route does not answer HEAD",
               '@router.api_route("/quotes/{quote_id}", methods=["GET", "HEAD"], '
               'response_model=Quote)',
               '@router.get("/quotes/{quote_id}", response_model=Quote)')
_SUMMARY_SHADOWED = _in("solution", "quotes router included first",
                        "app.include_router(reports.router)\napp.include_router(quotes.router)",
                        "app.include_router(quotes.router)\napp.include_router(reports.router)")
_HALF_EVEN = _in("tariff", "round() on a Decimal rounds half to even", '''\
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)''', '''\
from decimal import Decimal


def to_cents(amount: Decimal) -> Decimal:
    return round(amount, 2)''')
_KG_PLUS_ONE = _in("tariff", "exact kilograms billed one too many",
                   "return -(-weight_g // 1000)", "return weight_g // 1000 + 1")
_ZONE_CASE = _in("models", "zone pattern checked before upper-casing",
                 'pattern=r"^[A-Za-z]{2}$$"', 'pattern=r"^[A-Z]{2}$$"')

FILES = {"shipping/__init__.py": INIT, "shipping/models.py": MODELS,
         "shipping/tariff.py": TARIFF, "shipping/errors.py": ERRORS, "shipping/deps.py": DEPS,
         "shipping/quotes.py": QUOTES, "shipping/reports.py": REPORTS}
# The two edits of a module's head first: the others change lines inside those heads.
PLANTED = (_FILTER_IN_BODY, _LAX_WEIGHT, _LIST_UNTYPED, _HANDLER_MISSES_ROUTER, _COST_LEAKS,
           _NO_HEAD, _SUMMARY_SHADOWED, _HALF_EVEN, _KG_PLUS_ONE, _ZONE_CASE)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
A = {"X-Api-Key": "${key_a}"}
B = {"X-Api-Key": "${key_b}"}
C = {"X-Api-Key": "${key_c}"}
D = {"X-Api-Key": "${key_d}"}
ZONES = ["${z1}", "${z2}", "${z3}"]
MAX = ${max_weight}


def _quote(client, who, zone, weight):
    return client.post("/quotes", headers=who, json={"destination": zone, "weight_g": weight})


def _without_id(quote):
    return {key: value for key, value in quote.items() if key != "id"}


def probe_prices_are_strings(client):
    made = [_quote(client, D, zone, weight).json()["id"]
            for zone, weight in zip(ZONES, [1000, 2500, MAX])]
    listed = client.get("/quotes", headers=D)
    rows = [[listed.status_code, [_without_id(q) for q in listed.json()]]]
    rows.append([_without_id(client.get(f"/quotes/{made[1]}", headers=D).json())])
    return rows


def probe_summary_totals(client):
    rows = [_row(client.get("/quotes/summary", headers=D))]
    _quote(client, D, ZONES[0], 4200)
    rows.append(_row(client.get("/quotes/summary", headers=D)))
    rows.append(_row(client.get("/quotes/summary", headers=B)))
    rows.append(_row(client.get("/quotes/summary")))
    return rows


def probe_weight_is_a_json_integer(client):
    rows = []
    for weight in [1, MAX, MAX + 1, 0, -5, "1500", 1500.0, True, 2.5, None]:
        r = _quote(client, A, ZONES[0], weight)
        rows.append([weight, r.json()["weight_g"] if r.status_code == 201 else _brief(r)])
    rows.append(_brief(client.post("/quotes", headers=A, json={"destination": ZONES[0]})))
    return rows


def probe_destination_filter(client):
    for zone, weight in [(ZONES[0], 100), (ZONES[1], 200), (ZONES[2], 300), (ZONES[0], 400)]:
        _quote(client, C, zone, weight)
    rows = []
    for query in ["", f"?destination={ZONES[0]}",
                  f"?destination={ZONES[0]}&destination={ZONES[2]}",
                  f"?destination={ZONES[1].lower()}", "?destination=QQ"]:
        r = client.get("/quotes" + query, headers=C)
        rows.append([query, r.status_code, [[q["destination"], q["weight_g"]] for q in r.json()]])
    return rows


def probe_router_errors_in_format(client):
    rows = []
    for r in [client.get("/parcels"), client.post("/rates"), client.delete("/rates"),
              client.get("/quotes/999999", headers=A)]:
        rows.append([r.status_code, _body(r), r.headers.get("content-type"),
                     r.headers.get("allow")])
    return rows


def probe_rates_hide_cost(client):
    return [_row(client.get("/rates"))]


def probe_head_answers_like_get(client):
    quote_id = _quote(client, A, ZONES[2], 750).json()["id"]
    got = client.get(f"/quotes/{quote_id}", headers=A)
    rows = [[got.status_code, got.headers.get("content-length")]]
    rows.append(_head(client.head(f"/quotes/{quote_id}", headers=A), "content-type",
                      "content-length"))
    rows.append(_head(client.head("/quotes/999999", headers=A), "content-type"))
    rows.append(_head(client.head(f"/quotes/{quote_id}"), "www-authenticate"))
    return rows


def probe_rounding_half_up(client):
    rows = []
    for zone in ZONES:
        prices = [_quote(client, A, zone, kg * 1000 - 1).json().get("price")
                  for kg in range(1, 9)]
        rows.append([zone, prices])
    return rows


def probe_started_kilograms(client):
    rows = []
    for weight in [1, 999, 1000, 1001, 2000, 2001, MAX]:
        quote = _quote(client, A, ZONES[1], weight).json()
        rows.append([weight, quote.get("billed_kg"), quote.get("price")])
    return rows


def probe_zone_codes(client):
    rows = []
    for zone in [ZONES[0].lower(), f" {ZONES[1]} ", ZONES[2].capitalize(), "QQ", "qq",
                 ZONES[0] + "X", ZONES[0][0], "", "1A"]:
        r = _quote(client, A, zone, 500)
        rows.append([zone, r.json()["destination"] if r.status_code == 201 else _brief(r)])
    return rows


def probe_api_keys(client):
    rows = []
    for headers in [{}, {"X-Api-Key": ""}, {"X-Api-Key": "sk-nobody"},
                    {"X-Api-Key": "${key_a}".upper()}, {"Authorization": "Bearer ${key_a}"}]:
        r = client.get("/quotes", headers=headers)
        rows.append([r.status_code, _body(r), r.headers.get("www-authenticate")])
    r = client.post("/quotes", json={"destination": "", "weight_g": "x"})
    rows.append([r.status_code, _body(r), r.headers.get("www-authenticate")])
    r = client.post("/quotes", headers={"X-Api-Key": "sk-nobody"}, json={})
    rows.append([r.status_code, _body(r)])
    return rows


def probe_quotes_are_private(client):
    quote_id = _quote(client, A, ZONES[0], 1200).json()["id"]
    rows = [[client.get(f"/quotes/{quote_id}", headers=A).status_code]]
    rows.append(_row(client.get(f"/quotes/{quote_id}", headers=B)))
    rows.append([quote_id in [q["id"] for q in client.get("/quotes", headers=B).json()]])
    return rows


def probe_create_is_201(client):
    first = _quote(client, B, ZONES[2], 3000)
    second = _quote(client, B, ZONES[2], 3000)
    return [[first.status_code, sorted(first.json())],
            [second.json()["id"] - first.json()["id"]]]


def _late(r):
    """A 422 as where its errors lie (FastAPI names a body that is not JSON in more than one
    way); anything else as [status, body], with the challenge."""
    if r.status_code == 422:
        shown = sorted({str(e["loc"][0]) for e in r.json()["detail"]})
    else:
        shown = _body(r)
    return [r.status_code, shown, r.headers.get("www-authenticate")]
''' + late_body.probe_source(
    [("POST", "/quotes")],
    [("no key", "{}"), ("empty key", '{"X-Api-Key": ""}'),
     ("unknown key", '{"X-Api-Key": "sk-nobody"}'), ("account", "A")], row="_late")

_TARIFFS = [
    {"z1": "EU", "base1": "4.10", "kg1": "1.30", "cost1": "2.05", "z2": "US", "base2": "7.90",
     "kg2": "2.45", "cost2": "4.40", "z3": "AS", "base3": "9.60", "kg3": "3.15", "cost3": "6.10",
     "fuel": "12.5", "w1": 2300, "w2": 800, "key_a": "sk-amber-01", "acct_a": "amber",
     "key_b": "sk-birch-02", "acct_b": "birch", "key_c": "sk-cedar-03", "acct_c": "cedar",
     "key_d": "sk-delta-04", "acct_d": "delta"},
    {"z1": "NO", "base1": "3.80", "kg1": "0.95", "cost1": "1.70", "z2": "CA", "base2": "6.20",
     "kg2": "2.10", "cost2": "3.35", "z3": "JP", "base3": "8.40", "kg3": "2.60", "cost3": "5.00",
     "fuel": "7.5", "w1": 5000, "w2": 4001, "key_a": "k1-oslo", "acct_a": "oslo",
     "key_b": "k2-lima", "acct_b": "lima", "key_c": "k3-kyiv", "acct_c": "kyiv",
     "key_d": "k4-riga", "acct_d": "riga"},
    {"z1": "DE", "base1": "5.20", "kg1": "1.10", "cost1": "2.60", "z2": "BR", "base2": "8.80",
     "kg2": "2.90", "cost2": "5.15", "z3": "AU", "base3": "10.10", "kg3": "3.30",
     "cost3": "7.45", "fuel": "17.5", "w1": 6000, "w2": 999, "key_a": "acct-7f3a",
     "acct_a": "north", "key_b": "acct-91bc", "acct_b": "south", "key_c": "acct-22de",
     "acct_c": "east", "key_d": "acct-e4f0", "acct_d": "west"},
    {"z1": "FR", "base1": "4.60", "kg1": "1.40", "cost1": "2.20", "z2": "MX", "base2": "6.90",
     "kg2": "1.80", "cost2": "3.90", "z3": "IN", "base3": "7.70", "kg3": "2.20", "cost3": "4.75",
     "fuel": "2.5", "w1": 1500, "w2": 7999, "key_a": "key-anna", "acct_a": "anna",
     "key_b": "key-bert", "acct_b": "bert", "key_c": "key-cleo", "acct_c": "cleo",
     "key_d": "key-dora", "acct_d": "dora"},
]

PROMPT = '''\
`/workspace` holds a parcel-shipping quote service: `solution.py` and the package `shipping/`
it imports (`models.py`, `tariff.py`, `errors.py`, `deps.py`, `quotes.py`, `reports.py`). It
should behave as described below but does not, in several ways. Find and fix every deviation
(edit or rewrite any file); `solution.py` must keep defining `app` and `result`. State lives
in memory and carries from one request to the next; there are no quotes at start.

**Accounts** send `X-Api-Key: <key>` (keys are case-sensitive): `${key_a}` is `${acct_a}`,
`${key_b}` is `${acct_b}`, `${key_c}` is `${acct_c}`, `${key_d}` is `${acct_d}`. On every
`/quotes` route a missing or empty key is 401 `{"error": "missing api key"}` and any other
unknown key 401 `{"error": "invalid api key"}`, both with `WWW-Authenticate: ApiKey`; the key
is checked before the request is validated, also when the body is not JSON at all (with a
known key that is a 422 like any other invalid body). `GET /rates` needs no key.

**Errors** are `{"error": <message>}`, every one of them, FastAPI's own router errors included
(an unknown path is 404 `{"error": "Not Found"}`, a known path with a method it does not serve
405 `{"error": "Method Not Allowed"}` keeping its `Allow` header); the only exception is request
validation, which stays FastAPI's standard 422 `{"detail": [...]}`.

**Tariff**: zone `${z1}` costs ${base1} plus ${kg1} per kilogram, `${z2}` ${base2} plus
${kg2}, `${z3}` ${base3} plus ${kg3}; every started kilogram is billed as a whole one
(1000 g is 1 kg, 1001 g is 2 kg), and a fuel surcharge of ${fuel}% is added to that sum. The
price is then rounded to whole cents, half a cent always rounding up. Money (prices, rates,
totals) is always shown as a JSON string with exactly two decimals (`"12.50"`).

- `POST /quotes` with `{"destination": <zone>, "weight_g": <grams>}`: the zone is two
  letters in any case, surrounding spaces ignored, and is stored and shown upper-case; a
  well-formed zone outside the tariff is 404 `{"error": "unknown zone"}`. The weight is a JSON
  integer from 1 to ${max_weight}: a string, a boolean or any number written with a fraction
  part (even `1500.0`) is a 422. Answers 201 with the quote `{"id", "destination",
  "weight_g", "billed_kg", "price"}`, nothing else; ids are 1, 2, 3, ... in order of creation.
- `GET /quotes`: the caller's quotes in id order, each shown like above. `?destination=<zone>`,
  repeatable and in any case, keeps only quotes to the zones named.
- `GET /quotes/{id}` and `HEAD /quotes/{id}`: the caller's quote (HEAD gives the same status
  and headers without a body); a quote of another account, or no quote, is 404
  `{"error": "quote not found"}`.
- `GET /quotes/summary`: 200 `{"count": <the caller's quotes>, "total": <their prices
  summed>}` (`"0.00"` when there are none).
- `GET /rates`: 200 with the tariff as a list in the order above, each `{"zone", "base",
  "per_kg"}` and nothing else (what the carrier charges us is never shown).

`result` has three rows, each `[status, body]`, all as `${acct_a}`:
1. `POST /quotes` with `{"destination": "${z1}", "weight_g": ${w1}}`
2. `POST /quotes` with `{"destination": "${z2}", "weight_g": ${w2}}`
3. `GET /quotes`
'''

FAMILY = repair_family(
    id="repair/shipping_quotes",
    title="Repair a parcel-shipping quote service that misbehaves",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_TARIFFS[0], "max_weight": 30000},
    space={"tariff": _TARIFFS, "max_weight": [30000, 20000]},
    instances=8,
    requirements=(
        Requirement("Money is a string with two decimals in every response, the quote list "
                    "included, and a listed quote shows only its stated fields.",
                    probes=("prices_are_strings",), traps=(_LIST_UNTYPED,)),
        Requirement("`GET /quotes/summary` gives the caller's count and total.",
                    probes=("summary_totals",), traps=(_SUMMARY_SHADOWED,)),
        Requirement("The weight is a JSON integer from 1 to ${max_weight}; strings, booleans "
                    "and numbers with a fraction part are 422.",
                    probes=("weight_is_a_json_integer",),
                    traps=(_LAX_WEIGHT,
                           _in("models", "weight bound excludes the maximum",
                               "Field(ge=1, le=MAX_WEIGHT_G)", "Field(ge=1, lt=MAX_WEIGHT_G)"))),
        Requirement("`?destination=` is repeatable, in any case, and filters the list.",
                    probes=("destination_filter",), traps=(_FILTER_IN_BODY,)),
        Requirement("Every error but a 422 is `{\"error\"}`, the router's 404 and 405 included, "
                    "and a 405 keeps its `Allow` header.",
                    probes=("router_errors_in_format",),
                    traps=(_HANDLER_MISSES_ROUTER,
                           _in("errors", "handler drops the exception's headers",
                               "status_code=exc.status_code,\n                        "
                               "headers=exc.headers)", "status_code=exc.status_code)"))),
        Requirement("`GET /rates` never shows the carrier's cost.",
                    probes=("rates_hide_cost",), traps=(_COST_LEAKS,)),
        Requirement("`HEAD /quotes/{id}` answers like GET without a body.",
                    probes=("head_answers_like_get",), traps=(_NO_HEAD,)),
        Requirement("Prices are rounded to cents with half a cent rounding up.",
                    probes=("rounding_half_up",), traps=(_HALF_EVEN,)),
        Requirement("Every started kilogram is billed as one; exact kilograms are not rounded "
                    "up.",
                    probes=("started_kilograms",), traps=(_KG_PLUS_ONE,)),
        Requirement("Zones are two letters in any case, trimmed, stored upper-case; a "
                    "well-formed unknown zone is 404 `unknown zone`.",
                    probes=("zone_codes",), traps=(_ZONE_CASE,)),
        Requirement("A missing or empty key is 401 `missing api key`, an unknown one "
                    "`invalid api key`, both with `WWW-Authenticate: ApiKey`, before "
                    "validation.",
                    probes=("api_keys",),
                    traps=(_in("deps", "an empty key counts as an unknown one",
                               "if not x_api_key:", "if x_api_key is None:"),)),
        Requirement("A body that is not JSON is a 422 only after the key is checked.",
                    probes=("credentials_before_json",),
                    traps=(_in("quotes", "body decoded before the key",
                               "router = APIRouter(route_class=CallerFirstRoute)",
                               "router = APIRouter()"),)),
        Requirement("Another account's quote is 404 `quote not found`.",
                    probes=("quotes_are_private",),
                    traps=(_in("quotes", "quotes readable by any account",
                               'if quote is None or quote["owner"] != owner:',
                               "if quote is None:"),)),
        Requirement("Creating a quote is 201 with exactly the stated fields; ids count up by "
                    "one.",
                    probes=("create_is_201",),
                    traps=(_in("quotes", "create route left at 200",
                               '@router.post("/quotes", status_code=201, response_model=Quote)',
                               '@router.post("/quotes", response_model=Quote)'),)),
    ),
)
