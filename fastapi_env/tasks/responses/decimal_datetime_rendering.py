from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel, computed_field, field_serializer


class Line(BaseModel):
    sku: str
    unit_price: Decimal
    qty: int

    @computed_field
    @property
    def subtotal(self) -> Decimal:
        return self.unit_price * self.qty


class Invoice(BaseModel):
    id: int
    customer: str
    issued_at: datetime
    lines: list[Line]
    note: str | None = None

    @computed_field
    @property
    def total(self) -> Decimal:
        return sum((line.subtotal for line in self.lines), Decimal("0"))


${store_code}

app = FastAPI()


def find(invoice_id: int) -> Invoice:
    if invoice_id not in INVOICES:
        raise HTTPException(status_code=404, detail="invoice not found")
    return INVOICES[invoice_id]


# The return type makes Pydantic serialise: Decimal as a string, UTC as "Z".
@app.get("/invoices/{invoice_id}", response_model_exclude_none=True)
def read_invoice(invoice_id: int) -> Invoice:
    return find(invoice_id)


# No return type: FastAPI's jsonable_encoder renders Decimal as a number, UTC as "+00:00".
@app.get("/legacy/invoices/{invoice_id}")
def read_legacy(invoice_id: int):
    invoice = find(invoice_id)
    return {"id": invoice.id, "issued_at": invoice.issued_at, "total": invoice.total,
            "note": invoice.note}
'''

_RESULT = '''

client = TestClient(app)
result = []
for path in ["/invoices/${id1}", "/invoices/${id2}", "/legacy/invoices/${id1}",
             "/invoices/${unknown}"]:
    r = client.get(path)
    result.append([r.status_code, r.json()])
'''

PROMPT = '''\
Build an invoice API with two views of the same in-memory data. Use these models and data as
they are:

    class Line(BaseModel):
        sku: str
        unit_price: Decimal
        qty: int
        # computed: subtotal = unit_price * qty (a Decimal)

    class Invoice(BaseModel):
        id: int
        customer: str
        issued_at: datetime
        lines: list[Line]
        note: str | None = None
        # computed: total = the sum of the lines' subtotals, starting from Decimal("0")

${store_literal}

Routes (`invoice_id` an integer path parameter; an unknown id is 404
`{"detail": "invoice not found"}` on both):

- `GET /invoices/{invoice_id}`, the typed view: the invoice with every field, including
  `subtotal` on each line and `total` on the invoice, where every Decimal (`unit_price`,
  `subtotal`, `total`) is a JSON **string** with exactly the digits Decimal arithmetic gives
  (`"2.50"`, `"7.50"`, `"0"` for an invoice without lines), `issued_at` is ISO 8601 ending in
  `Z` for UTC and in the offset otherwise (`+02:00`), and `note` is left out entirely when it
  is null.
- `GET /legacy/invoices/{invoice_id}`, the legacy view: exactly
  `{"id": ..., "issued_at": ..., "total": ..., "note": ...}` where `total` is a JSON
  **number**: an integer when the Decimal has no digits after the point (`0`), otherwise a
  float (`7.5`, `12.0`); `issued_at` is ISO 8601 with the offset written out, `+00:00` for UTC;
  and `note` is always present (null when there is none).

Then fill `result` with one row per request, in this order, each row
`[status code (integer), the JSON body]`:
1. `GET /invoices/${id1}`
2. `GET /invoices/${id2}`
3. `GET /legacy/invoices/${id1}`
4. `GET /invoices/${unknown}`
'''

PROBES = '''\
def _get(client, path):
    r = client.get(path)
    return [r.status_code, r.json()]


def probe_typed_view_of_every_invoice(client):
    return [_get(client, f"/invoices/{i}") for i in (${id3}, ${id2}, ${id1})]


def probe_legacy_view_of_every_invoice(client):
    return [_get(client, "/legacy/invoices/${id2}"), _get(client, "/legacy/invoices/${id3}")]


def probe_unknown_ids(client):
    return [_get(client, "/legacy/invoices/${unknown}"), _get(client, "/invoices/0"),
            _get(client, "/legacy/invoices/-${id1}")]
'''


def _tz_code(hours):
    return "timezone.utc" if hours == 0 else f"timezone(timedelta(hours={hours}))"


def _invoice_code(number, p):
    lines = ", ".join(
        f'Line(sku="{sku}", unit_price=Decimal("{price}"), qty={qty})'
        for sku, price, qty in p[f"lines{number}"]
    )
    note = p[f"note{number}"]
    note_code = "" if note is None else f', note="{note}"'
    return (f'Invoice(id={p[f"id{number}"]}, customer="{p[f"customer{number}"]}", '
            f"issued_at=datetime(2025, {p['month']}, {number + 10}, {p['hour']}, 30, "
            f"tzinfo={_tz_code(p[f'tz{number}'])}),\n"
            f"            lines=[{lines}]{note_code})")


def _derive(p):
    invoices = ",\n".join(f"    {p[f'id{n}']}: {_invoice_code(n, p)}" for n in (1, 2, 3))
    code = "INVOICES = {\n" + invoices + ",\n}"
    return {
        "store_code": code,
        "store_literal": "\n".join("    " + line for line in code.splitlines()),
        "unknown": max(p["id1"], p["id2"], p["id3"]) + 1,
    }


_READ = '''\
@app.get("/invoices/{invoice_id}", response_model_exclude_none=True)
def read_invoice(invoice_id: int) -> Invoice:
    return find(invoice_id)
'''

FAMILY = Family(
    id="responses/decimal_datetime_rendering",
    title="Decimal and UTC datetimes: strings and Z through a model, numbers and +00:00 without",
    category="responses",
    difficulty="hard",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original={
        "id1": 1, "id2": 2, "id3": 3, "customer1": "ada", "customer2": "bob", "customer3": "cy",
        "lines1": [["pen", "2.50", 3], ["ink", "0.10", 1]], "lines2": [["fee", "12.00", 1]],
        "lines3": [], "note1": None, "note2": "paid", "note3": "draft",
        "tz1": 0, "tz2": 2, "tz3": 0, "month": 3, "hour": 9,
    },
    space={
        "ids": [{"id1": 1, "id2": 2, "id3": 3}, {"id1": 40, "id2": 7, "id3": 12},
                {"id1": 5, "id2": 9, "id3": 2}],
        "customers": [{"customer1": "ada", "customer2": "bob", "customer3": "cy"},
                      {"customer1": "acme", "customer2": "globex", "customer3": "hooli"}],
        "lines": [
            {"lines1": [["pen", "2.50", 3], ["ink", "0.10", 1]], "lines2": [["fee", "12.00", 1]],
             "lines3": []},
            {"lines1": [["mug", "4.25", 2]], "lines2": [["desk", "199.99", 1], ["lamp", "0.01", 5]],
             "lines3": []},
            {"lines1": [["cable", "1.5", 4], ["plug", "3", 2]], "lines2": [["chair", "80.00", 2]],
             "lines3": []},
        ],
        "notes": [{"note1": None, "note2": "paid", "note3": "draft"},
                  {"note1": "rush", "note2": None, "note3": None}],
        "tz": [{"tz1": 0, "tz2": 2, "tz3": 0}, {"tz1": 0, "tz2": -5, "tz3": 1},
               {"tz1": 3, "tz2": 0, "tz3": 0}],
        "when": [{"month": 3, "hour": 9}, {"month": 11, "hour": 23}],
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "The typed view renders every Decimal, computed ones included, as a string with "
            'Decimal\'s digits (`"0"` for an invoice without lines).',
            probes=("typed_view_of_every_invoice",),
            traps=(Edit("prices stored as floats", "    unit_price: Decimal\n",
                        "    unit_price: float\n"),
                   Edit("total summed from the integer 0",
                        'sum((line.subtotal for line in self.lines), Decimal("0"))',
                        "sum(line.subtotal for line in self.lines)")),
        ),
        Requirement(
            "The typed view writes UTC as `Z` and other offsets as `+HH:MM`.",
            probes=("typed_view_of_every_invoice",),
            traps=(Edit("issued_at serialised with isoformat()", "    note: str | None = None\n",
                        "    note: str | None = None\n\n"
                        '    @field_serializer("issued_at")\n'
                        "    def iso(self, value: datetime) -> str:\n"
                        "        return value.isoformat()\n"),),
        ),
        Requirement(
            "The typed view leaves `note` out when it is null.",
            probes=("typed_view_of_every_invoice",),
            traps=(Edit("null note kept", _READ,
                        _READ.replace(", response_model_exclude_none=True", "")),),
        ),
        Requirement(
            "The legacy view has exactly `id`, `issued_at`, `total`, `note`, with `total` a JSON "
            "number (integer without fractional digits) and UTC as `+00:00`.",
            probes=("legacy_view_of_every_invoice",),
            traps=(Edit("legacy route annotated -> dict", "def read_legacy(invoice_id: int):",
                        "def read_legacy(invoice_id: int) -> dict:"),
                   Edit("legacy total converted with float()", '"total": invoice.total,',
                        '"total": float(invoice.total),')),
        ),
        Requirement(
            'An unknown id is 404 `{"detail": "invoice not found"}` on both views.',
            probes=("unknown_ids",),
            traps=(Edit("legacy view answers null for unknown ids",
                        "    invoice = find(invoice_id)\n",
                        "    invoice = INVOICES.get(invoice_id)\n"
                        "    if invoice is None:\n"
                        "        return None\n"),),
        ),
    ),
)
