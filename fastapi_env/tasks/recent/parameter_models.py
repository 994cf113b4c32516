"""Recent-features tier: parameter models as FastAPI has them after 0.14x: several Pydantic
models per location (query, header, cookie, form) beside single parameters, optional model
groups (`Model | None = None`: absent unless one of its fields is sent, then validated
whole), a model's `extra="forbid"` rejecting unknown query parameters, discriminated unions
of form models (`Form(discriminator=...)`), and header models refusing underscored names."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ERRORS_TYPE_LOC
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Cookie, FastAPI, Form, Header, Query
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

PRODUCTS = ${products__repr}
USD_PERCENT = ${usd_pct}

app = FastAPI()


class Paging(BaseModel):
    limit: int = Field(${ldef}, ge=1, le=${lmax})
    offset: int = Field(0, ge=0)


class PriceRange(BaseModel):
    min_cents: int = Field(ge=0)
    max_cents: int = Field(ge=0)


class Tenant(BaseModel):
    x_tenant: str = Field(pattern=r"^[a-z]{3,12}$$")
    x_request_id: str | None = None


class Prefs(BaseModel):
    currency: Literal["EUR", "USD"] = "${currency}"
    compact: bool = False


class ReportFilters(BaseModel):
    model_config = ConfigDict(extra="forbid")
    year: int = Field(ge=2000, le=2100)
    region: Literal["north", "south", "all"] = "all"


class Person(BaseModel):
    kind: Literal["person"]
    name: str = Field(min_length=1, max_length=40)


class Company(BaseModel):
    kind: Literal["company"]
    legal_name: str = Field(min_length=1, max_length=60)
    vat: str = Field(pattern=r"^[A-Z]{2}[0-9]{6}$$")


class Address(BaseModel):
    street: str
    city: str


def price_in(cents: int, currency: str) -> int:
    return cents if currency == "EUR" else cents * USD_PERCENT // 100


@app.get("/products")
def products(
    tenant: Annotated[Tenant, Header()],
    paging: Annotated[Paging, Query()],
    prefs: Annotated[Prefs, Cookie()],
    price: Annotated[PriceRange | None, Query()] = None,
    q: str | None = None,
):
    found = [p for p in PRODUCTS
             if (q is None or q.lower() in p["name"].lower())
             and (price is None or price.min_cents <= p["price_cents"] <= price.max_cents)]
    page = found[paging.offset:paging.offset + paging.limit]
    items = [p["sku"] if prefs.compact else
             {"sku": p["sku"], "name": p["name"], "price": price_in(p["price_cents"], prefs.currency)}
             for p in page]
    return {"tenant": tenant.x_tenant, "request_id": tenant.x_request_id,
            "currency": prefs.currency, "total": len(found), "items": items}


@app.get("/reports")
def reports(filters: Annotated[ReportFilters, Query()]):
    return {"year": filters.year, "region": filters.region}


@app.post("/contacts")
def contacts(
    contact: Annotated[Person | Company, Form(discriminator="kind")],
    address: Annotated[Address | None, Form()] = None,
):
    name = contact.name if contact.kind == "person" else contact.legal_name
    return {"kind": contact.kind, "display": name,
            "vat": contact.vat if contact.kind == "company" else None,
            "address": f"{address.street}, {address.city}" if address else None}


''' + ERRORS_TYPE_LOC + '''
def row(r):
    return [r.status_code, r.json() if r.status_code != 422 else errors(r)]


client = TestClient(app)
result = [
    row(client.get("/products", headers={"X-Tenant": "${tenant}"})),
    row(client.get("/products", headers={"X-Tenant": "${tenant}"},
                   params={"min_cents": 0, "max_cents": ${mid_price}, "limit": 1})),
    row(client.get("/products", headers={"X-Tenant": "${tenant}"}, params={"max_cents": 100})),
    row(client.post("/contacts", data={"kind": "company", "legal_name": "${company}",
                                       "vat": "${vat}"})),
]
'''

PROBES = '''\
T = {"X-Tenant": "${tenant}"}


def _errors(r):
    return [[e["type"], e["loc"]] for e in r.json()["detail"]]


def _row(r):
    return [r.status_code, r.json() if r.status_code != 422 else _errors(r)]


def probe_paging_and_search(client):
    rows = []
    for params in [{}, {"limit": 1}, {"limit": ${lmax}}, {"offset": 2}, {"offset": 2, "limit": 2},
                   {"q": "${q_hit}"}, {"q": "${q_hit}".upper()}, {"q": "zzz"},
                   {"offset": 99}, {"limit": 0}, {"limit": ${lmax} + 1}, {"offset": -1},
                   {"limit": "x"}, {"page": 3}]:
        rows.append([params, _row(client.get("/products", params=params, headers=T))])
    return rows


def probe_price_range_is_one_optional_group(client):
    rows = []
    for params in [{"min_cents": ${mid_price}, "max_cents": 100000},
                   {"min_cents": 0, "max_cents": ${mid_price}},
                   {"min_cents": ${mid_price}}, {"max_cents": ${mid_price}},
                   {"min_cents": 500, "max_cents": 100}, {"min_cents": -1, "max_cents": 5},
                   {"min_cents": "", "max_cents": ""}, {"q": "a", "limit": 2},
                   {"max_cents": 1, "limit": 0}]:
        r = client.get("/products", params=params | {"limit": params.get("limit", ${lmax})},
                       headers=T)
        rows.append([params, r.status_code,
                     r.json()["total"] if r.status_code == 200 else _errors(r)])
    return rows


def probe_tenant_headers(client):
    rows = []
    for headers in [{"X-Tenant": "${tenant}", "X-Request-Id": "req-7"}, {"x-tenant": "${tenant}"},
                    {}, {"X-Tenant": "${tenant}".upper()}, {"X-Tenant": "ab"},
                    {"X-Tenant": "a" * 13}, {"X-Tenant": "a" * 12}, {"X_Tenant": "${tenant}"},
                    {"X-Tenant": "${tenant}", "X_Request_Id": "underscored"}]:
        r = client.get("/products", headers=headers, params={"limit": 1})
        rows.append([sorted(headers), r.status_code,
                     [r.json()["tenant"], r.json()["request_id"]] if r.status_code == 200
                     else _errors(r)])
    return rows


def probe_preference_cookies(client):
    rows = []
    for cookies in [{}, {"currency": "USD"}, {"currency": "EUR"}, {"compact": "true"},
                    {"currency": "USD", "compact": "1"}, {"currency": "usd"},
                    {"currency": "GBP", "compact": "maybe"}]:
        client.cookies.clear()
        for name, value in cookies.items():
            client.cookies.set(name, value)
        r = client.get("/products", headers=T, params={"limit": 2})
        rows.append([cookies, _row(r)])
    client.cookies.clear()
    return rows


def probe_reports_refuse_unknown_parameters(client):
    rows = []
    for params in [{"year": 2024}, {"year": 2024, "region": "north"}, {"year": 2000},
                   {"year": 2101}, {"year": 1999}, {}, {"year": 2024, "limit": 5},
                   {"year": 2024, "Region": "north"}, {"year": 2024, "region": "east", "x": "1"}]:
        rows.append([params, _row(client.get("/reports", params=params))])
    return rows


def probe_contacts_by_kind(client):
    rows = []
    for data in [{"kind": "person", "name": "${person}"},
                 {"kind": "company", "legal_name": "${company}", "vat": "${vat}"},
                 {"kind": "company", "legal_name": "${company}", "vat": "${vat}".lower()},
                 {"kind": "company", "legal_name": "${company}"},
                 {"kind": "company", "name": "${person}", "vat": "${vat}"},
                 {"kind": "person", "name": ""}, {"kind": "person"},
                 {"kind": "robot", "name": "r2"}, {"kind": "Person", "name": "x"},
                 {"name": "${person}"}, {}]:
        rows.append([data, _row(client.post("/contacts", data=data))])
    files = {"kind": (None, "person"), "name": (None, "${person}")}
    rows.append(["multipart", _row(client.post("/contacts", files=files))])
    return rows


def probe_address_is_one_optional_group(client):
    rows = []
    for extra in [{}, {"street": "1 Main St", "city": "${city}"}, {"city": "${city}"},
                  {"street": "1 Main St"}, {"zip": "1234"}]:
        data = {"kind": "person", "name": "${person}"} | extra
        rows.append([extra, _row(client.post("/contacts", data=data))])
    return rows
'''

PROMPT = '''\
Build a small catalogue API with FastAPI's parameter models, as the installed FastAPI has
them (recent: several Pydantic models per location for query, header, cookie and form
parameters, beside single parameters; optional model groups; discriminated unions of form
models). If you do not know these, read the installed package's source under
`python3 -c "import fastapi, os; print(os.path.dirname(fastapi.__file__))"` (its `.agents/`
folder has notes on parameter models). The products, in this order:

    PRODUCTS = ${products_text}

Validation failures are FastAPI's standard 422 `{"detail": [...]}`; the hidden checks compare
the `type` and `loc` of each error, in order, so they must be the ones FastAPI's own
validation of the models below gives, in the order it reports them. Parameter names are flat
(no prefix).

**`GET /products`.**
- Header `X-Tenant` (required: 3-12 characters `a-z`, checked as one pattern, so any bad
  value is FastAPI's `string_pattern_mismatch`) and optional `X-Request-Id`, as header names
  with hyphens (a header spelled with underscores does not count).
- Cookies `currency` (`EUR` or `USD`, default `${currency}`) and `compact` (a boolean,
  default false).
- Query `limit` (1 to ${lmax}, default ${ldef}) and `offset` (>= 0, default 0), and `q`
  (optional: keeps the products whose name contains it, case-insensitively).
- Query `min_cents` and `max_cents` (integers >= 0) form one optional group: when neither is
  sent there is no price filter; when either is sent both are required (FastAPI's `missing`
  error for the absent one) and products are kept when `min_cents <= price_cents <= max_cents`.
- 200 `{"tenant", "request_id", "currency", "total", "items"}`: `total` counts the matching
  products, `items` is the page (`offset`, `limit`) of them in catalogue order, each its
  `sku` alone when `compact`, else `{"sku", "name", "price"}` with the price in the currency
  (`EUR`: `price_cents`; `USD`: `price_cents * ${usd_pct} // 100`).

**`GET /reports?year=&region=`**: `year` 2000-2100 (required), `region` `north`, `south` or
`all` (default); any other query parameter is refused (FastAPI's `extra_forbidden` error at
`["query", <name>]`). 200 `{"year", "region"}`.

**`POST /contacts`**, a form (URL-encoded or multipart): `kind` chooses the contact's fields:
`person` with `name` (1-40 characters), or `company` with `legal_name` (1-60) and `vat` (two
capital letters and six digits). Dispatch is by `kind` alone: a missing `kind` is FastAPI's
`union_tag_not_found` at `["body"]`, another value `union_tag_invalid` at `["body"]`, and
errors in the chosen kind's fields are located at `["body", <kind>, <field>]`. Optional
`street` and `city` form one address group (both or neither; an absent one is `missing` at
`["body", <field>]`). 200 `{"kind", "display", "vat", "address"}`: `display` is the name or
legal name, `vat` null for a person, `address` `"<street>, <city>"` or null.

`result`: one row per request, `[status code, JSON body]` for a 200 and `[422, [[type, loc],
...]]` for a 422:
1. `GET /products` with `X-Tenant: ${tenant}`
2. the same with `min_cents=0`, `max_cents=${mid_price}`, `limit=1`
3. the same with only `max_cents=100`
4. `POST /contacts` with the form `kind=company`, `legal_name=${company}`, `vat=${vat}`
'''

_CATALOGUES = {
    "tools": [{"sku": "HM-1", "name": "Claw hammer", "price_cents": 1299},
              {"sku": "SD-4", "name": "Screwdriver set", "price_cents": 2450},
              {"sku": "TP-2", "name": "Tape measure", "price_cents": 799},
              {"sku": "WR-9", "name": "Adjustable wrench", "price_cents": 1875},
              {"sku": "SW-3", "name": "Hand saw", "price_cents": 3100}],
    "tea": [{"sku": "GR-01", "name": "Sencha green", "price_cents": 950},
            {"sku": "BL-07", "name": "Assam black", "price_cents": 720},
            {"sku": "WH-02", "name": "Silver needle white", "price_cents": 2900},
            {"sku": "OO-11", "name": "Oolong", "price_cents": 1640}],
}


def _derive(p):
    products = _CATALOGUES[p["catalogue"]]
    text = "[\n" + "".join(f"        {item!r},\n" for item in products) + "    ]"
    return {"products": products, "products_text": text}


FAMILY = Family(
    id="recent/parameter_models",
    title="Several, optional and union parameter models (FastAPI's recent parameter models)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"catalogue": "tools", "q_hit": "saw", "mid_price": 1900, "lmax": 10, "ldef": 3,
              "currency": "EUR", "usd_pct": 108, "tenant": "acme", "company": "Nordwind AS",
              "vat": "NO123456", "person": "Ada", "city": "Oslo"},
    space={
        "catalogue": [{"catalogue": "tools", "q_hit": "saw", "mid_price": 1900},
                      {"catalogue": "tea", "q_hit": "ee", "mid_price": 1000}],
        "lmax": [{"lmax": 10, "ldef": 3}, {"lmax": 4, "ldef": 2}],
        "currency": [{"currency": "EUR", "usd_pct": 108}, {"currency": "USD", "usd_pct": 115}],
        "tenant": [{"tenant": "acme", "company": "Nordwind AS", "vat": "NO123456",
                    "person": "Ada", "city": "Oslo"},
                   {"tenant": "globex", "company": "Kaffee GmbH", "vat": "DE987654",
                    "person": "Lin", "city": "Bonn"}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("`limit` (1-${lmax}, default ${ldef}), `offset` and `q` page and filter "
                    "the products; `total` counts all matches.",
                    probes=("paging_and_search",),
                    traps=(Edit("limit unbounded", "limit: int = Field(${ldef}, ge=1, le=${lmax})",
                                "limit: int = Field(${ldef}, ge=1)"),
                           Edit("search case-sensitive", "q.lower() in p[\"name\"].lower()",
                                "q in p[\"name\"]"),
                           Edit("total counts the page", '"total": len(found)',
                                '"total": len(page)'))),
        Requirement("`min_cents`/`max_cents` are one optional group: neither means no filter, "
                    "one alone is 422 `missing` for the other.",
                    probes=("price_range_is_one_optional_group",),
                    traps=(Edit("each bound optional on its own",
                                "    min_cents: int = Field(ge=0)\n    max_cents: int = "
                                "Field(ge=0)",
                                "    min_cents: int = Field(0, ge=0)\n    max_cents: int = "
                                "Field(10**9, ge=0)"),
                           Edit("price group required",
                                "price: Annotated[PriceRange | None, Query()] = None",
                                "price: Annotated[PriceRange, Query()]"))),
        Requirement("`X-Tenant` (3-12 of `a-z`, required) and `X-Request-Id` come from "
                    "hyphenated headers only.",
                    probes=("tenant_headers",),
                    traps=(Edit("tenant unchecked", 'x_tenant: str = Field(pattern=r"^[a-z]{3,12}'
                                '$$")', "x_tenant: str"),
                           Edit("underscored headers accepted",
                                "tenant: Annotated[Tenant, Header()]",
                                "tenant: Annotated[Tenant, Header(convert_underscores=False)]"))),
        Requirement("Cookies choose the currency (default ${currency}, `EUR` or `USD` only) "
                    "and compact items.",
                    probes=("preference_cookies",),
                    traps=(Edit("currency not checked", 'currency: Literal["EUR", "USD"] = '
                                '"${currency}"', 'currency: str = "${currency}"'),
                           Edit("compact ignored", "p[\"sku\"] if prefs.compact else",
                                "p[\"sku\"] if False else"))),
        Requirement("`/reports` refuses any query parameter it does not define "
                    "(`extra_forbidden`), and checks `year` and `region`.",
                    probes=("reports_refuse_unknown_parameters",),
                    traps=(extras_ignored("unknown parameters ignored", "ReportFilters"),
                           Edit("year unbounded", "year: int = Field(ge=2000, le=2100)",
                                "year: int"))),
        Requirement("`/contacts` takes a person or a company chosen by `kind`, with FastAPI's "
                    "tagged-union errors, URL-encoded or multipart.",
                    probes=("contacts_by_kind",),
                    traps=(Edit("union without discriminator",
                                'Annotated[Person | Company, Form(discriminator="kind")]',
                                "Annotated[Person | Company, Form()]"),
                           Edit("VAT unchecked", 'vat: str = Field(pattern=r"^[A-Z]{2}[0-9]{6}'
                                '$$")', "vat: str"))),
        Requirement("`street` and `city` are one optional group in the form.",
                    probes=("address_is_one_optional_group",),
                    traps=(Edit("address parts optional", "    street: str\n    city: str",
                                '    street: str = ""\n    city: str = ""'),
                           Edit("address required", "address: Annotated[Address | None, "
                                "Form()] = None", "address: Annotated[Address, Form()]"))),
    ),
)
