"""Blackbox tier: reproduce a running service from its answers alone.

The stock ledger of repair/legacy_port_stock_ledger, with its code withheld: nothing is in
/workspace, and the model learns the service only by sending it requests with the
`query_service` tool (the service runs in the box, out of the model's reach: see
fastapi_env/hidden_service). The prompt gives what the port's prompt gives besides the code:
what the probes compare, the kinds of requests they send, the four result rows, and the
interface the code would show (the routes, and the query parameters and body fields each one
reads: names no request reveals, since the service ignores unknown parameters; the first two
blind solves, without them, missed `q` and `since`). Everything else (the error bodies, the
order of checks, `parse_qs` and `int()` on query values, the trailing-slash rule, the limits,
the rounding) is there to be found by asking.

Shared with the port: the reference, the probes (but its import check, meaningless here),
the requirements and traps (but that one), the instances. The positive control runs the
hidden service's own `handle` behind FastAPI, so the key is what the tool answers.
"""

from fastapi_env.tasks import Edit, Family
from fastapi_env.tasks.family import render
from fastapi_env.tasks.repair import legacy_port_stock_ledger as port

IMPORT_CHECK = "legacy_not_imported"
IMPORT_PROBE = '''def probe_legacy_not_imported(client):
    loaded = [name for name, module in list(sys.modules.items())
              if name == "legacy_server"
              or str(getattr(module, "__file__", "") or "").endswith("legacy_server.py")]
    return [[client.get("/report").status_code, loaded == []]]


'''


def probes(params: dict) -> str:
    return Edit("no import check", IMPORT_PROBE, "").apply(render(port.PROBES, params), params)


PROMPT = r'''A shop's stock ledger runs as an HTTP service that keeps its items, their stock movements
and a stock report in memory. Its code is not available to you: you can only send it requests,
with the `query_service` tool. Write `/workspace/solution.py`, a FastAPI app that answers every
request as the service does.

**The service's answers are the specification.** `app` must answer every request as the
running service answers it; nothing here restates its behaviour. The service is written on
Python's standard library (`http.server`, `json`, `urllib.parse`). `query_service` sends a
batch of requests, in order, to your own instance of it, which starts empty and keeps its state
from one request and one call to the next (pass `restart: true` to empty it); it shows each
raw response. For each request the probes compare:
''' + port.COMPARED + r'''
The service's routes are `GET /items`, `POST /items`, `GET`, `PUT` and `DELETE` on
`/items/{sku}`, `GET` and `POST` on `/items/{sku}/movements`, and `GET /report`. The query
parameters it reads are `q`, `sort`, `page` and `per_page` on `GET /items` and `kind` and
`since` on `GET /items/{sku}/movements` (it reads no other); the JSON body fields it knows are
`sku`, `name` and `unit_price` on `POST /items`, `name` and `unit_price` on `PUT /items/{sku}`,
and `kind`, `qty` and `note` on `POST /items/{sku}/movements`. What each one does, and which
are required, is for you to find out. The hidden
probes send requests of the kinds the service receives: `GET`, `HEAD`, `POST`, `PUT`, `PATCH`
and `DELETE`, to those paths and to paths it does not serve, with query strings and without,
with JSON bodies and with bodies that are not valid JSON or not JSON objects, under various
`Content-Type`s, and with values at and past every limit the service enforces. Many of them
are malformed or edge cases on purpose: for each one the app must answer what the service
answers. They are sent as an HTTP client sends them (paths and queries percent-encoded, a
`Content-Length` on every body); no probe sends an encoded `/`, `?` or `#` in a path (`%2F`,
`%3F`, `%23`), and none depends on how the service parses the request line and the headers
before it routes, nor on connections, timing or logging. The ledger starts empty and its state
carries from one request to the next.

Besides answering alike, each route above must be a FastAPI path operation of `app` for the
same method and path (a path parameter for `{sku}`, named as you like): `GET /openapi.json`
must list each of them. FastAPI's own `/openapi.json`, `/docs`, `/docs/oauth2-redirect` and
`/redoc` may stay as FastAPI serves them; the probes read `/openapi.json` only for that list
and request none of the others.

''' + port.RESULT_SPEC

# The service's code is a copy of the hidden one, so the control proves key == tool answers.
POSITIVE_CONTROL = {"the hidden service behind FastAPI": lambda params: port.behind_fastapi(
    f"source = {port.service(params)!r}\n")(params)}

FAMILY = Family(
    id="blackbox/stock_ledger",
    title="Reproduce a stock-ledger service in FastAPI from its answers alone",
    category="blackbox",
    difficulty="hard",
    tier="blackbox",
    prompt=PROMPT,
    reference=port.SOLUTION,
    probes=probes,
    service=port.service,
    alternatives=POSITIVE_CONTROL,
    original=port.FAMILY.original,
    space=port.FAMILY.space,
    derive=port.FAMILY.derive,
    instances=port.FAMILY.instances,
    requirements=tuple(r for r in port.FAMILY.requirements
                       if r.probe_names() != (f"probe_{IMPORT_CHECK}",)),
    tags=("black-box", "port"),
)
