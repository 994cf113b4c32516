from fastapi_env.tasks import Task

PROMPT = '''\
Build a reporting API whose public OpenAPI document (`GET /openapi.json`) hides its internal
parts while they keep working.

Application metadata: title `"Reports"`, version `"3.1.0"`, summary `"Sales reports"`, and one
documented tag, declared at the application level: name `"reports"`, description
`"Sales reporting"`. (So the document's `info` is exactly
`{"title": "Reports", "summary": "Sales reports", "version": "3.1.0"}` and its top-level `tags`
is exactly `[{"name": "reports", "description": "Sales reporting"}]`.)

Routes:

- `GET /reports` (tag `"reports"`) with three query parameters:
  - `period`: string, default `"month"`, documented with the description `"Reporting period"`;
  - `legacy_totals`: boolean, default `false`, documented as deprecated (`"deprecated": true`)
    with the description `"Use period instead"`; it still works;
  - `debug`: boolean, default `false`, **not documented at all** (absent from the operation's
    `parameters`), but validated like any FastAPI boolean query parameter (`true`/`1`/`yes`/`on`
    are true, `false`/`0`/`no`/`off` are false, anything else is a 422).

  It returns `{"period": period, "legacy_totals": legacy_totals, "debug": debug}`.
- `GET /internal/metrics` returns `{"requests": 42}`; `GET /healthz` returns `{"ok": true}`. Both
  work normally but neither appears in the document's `paths`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET /internal/metrics`: `[status code (integer), JSON body (object)]`
2. `GET /reports?period=week&debug=yes`: `[status code (integer), JSON body (object)]`
3. `GET /reports?debug=maybe`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`

From one `GET /openapi.json` document:

4. `[info (object), the top-level "tags" value (list)]`
5. `[sorted list of the keys of "paths"]`
6. One row per entry of `paths["/reports"]["get"]["parameters"]`, sorted by `name`:
   `[p["name"], p.get("description"), p.get("deprecated"), p["required"]]` (null where a key is absent)
'''

HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.testclient import TestClient

'''

APP = '''\
app = FastAPI(
    title="Reports",
    version="3.1.0",
    summary="Sales reports",
    openapi_tags=[{"name": "reports", "description": "Sales reporting"}],
)
'''

ROUTES = '''

@app.get("/reports", tags=["reports"])
def reports(
    period: Annotated[str, Query(description="Reporting period")] = "month",
    legacy_totals: Annotated[bool, Query(deprecated=True, description="Use period instead")] = False,
    debug: Annotated[bool, Query(include_in_schema=False)] = False,
):
    return {"period": period, "legacy_totals": legacy_totals, "debug": debug}


@app.get("/internal/metrics", include_in_schema=False)
def metrics():
    return {"requests": 42}


@app.get("/healthz", include_in_schema=False)
def healthz():
    return {"ok": True}
'''

TAIL = '''

client = TestClient(app)
result = []
r = client.get("/internal/metrics")
result.append([r.status_code, r.json()])
r = client.get("/reports?period=week&debug=yes")
result.append([r.status_code, r.json()])
r = client.get("/reports?debug=maybe")
detail = r.json()["detail"]
result.append([r.status_code, detail[0]["type"], detail[0]["loc"]])
spec = client.get("/openapi.json").json()
result.append([spec["info"], spec.get("tags")])
result.append([sorted(spec["paths"])])
for p in sorted(spec["paths"]["/reports"]["get"]["parameters"], key=lambda p: p["name"]):
    result.append([p["name"], p.get("description"), p.get("deprecated"), p["required"]])
'''

REFERENCE = HEAD + APP + ROUTES + TAIL

PROBES = '''\
def probe_hidden_routes_work(client):
    rows = []
    for path in ["/healthz", "/internal/metrics"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    return rows


def probe_debug_parsing(client):
    rows = []
    for value in ["1", "off", "true", "2"]:
        r = client.get("/reports?debug=" + value)
        body = r.json()
        rows.append([value, r.status_code, body["debug"] if r.status_code == 200 else body["detail"][0]["type"]])
    return rows


def probe_deprecated_param_still_works(client):
    r = client.get("/reports?legacy_totals=true")
    return [[r.status_code, r.json()]]


def probe_schema_has_no_hidden_parts(client):
    spec = client.get("/openapi.json").json()
    op = spec["paths"]["/reports"]["get"]
    return [[op["tags"], sorted(p["name"] for p in op["parameters"]), sorted(spec["paths"])]]
'''

TRAP_ROUTES_DROPPED = HEAD + APP + ROUTES.split("\n\n@app.get(\"/internal/metrics\"")[0] + TAIL

TRAP_DEBUG_DOCUMENTED = REFERENCE.replace(
    "debug: Annotated[bool, Query(include_in_schema=False)] = False,", "debug: bool = False,"
)

TRAP_DEBUG_FROM_REQUEST = HEAD + APP + ROUTES.replace('''    debug: Annotated[bool, Query(include_in_schema=False)] = False,
):
    return {"period": period, "legacy_totals": legacy_totals, "debug": debug}''', '''    request: Request = None,
):
    debug = request.query_params.get("debug", "false").lower() in ("true", "1", "yes", "on")
    return {"period": period, "legacy_totals": legacy_totals, "debug": debug}''') + TAIL.replace(
    '''detail = r.json()["detail"]
result.append([r.status_code, detail[0]["type"], detail[0]["loc"]])''',
    '''result.append([r.status_code, None, None])''')

TRAP_TITLE_INSTEAD_OF_DESCRIPTION = REFERENCE.replace(
    'Query(description="Reporting period")', 'Query(title="Reporting period")'
).replace(
    'Query(deprecated=True, description="Use period instead")',
    'Query(deprecated=True, title="Use period instead")',
)

TRAP_METADATA_IN_DESCRIPTION = REFERENCE.replace('''    summary="Sales reports",''', '''    description="Sales reports",''')

TASK = Task(
    id="openapi/hidden_routes_and_params",
    title="include_in_schema=False routes and parameters, parameter metadata, app metadata",
    category="openapi",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "internal routes removed instead of hidden": TRAP_ROUTES_DROPPED,
        "debug parameter left in the schema": TRAP_DEBUG_DOCUMENTED,
        "debug read by hand from the query string": TRAP_DEBUG_FROM_REQUEST,
        "parameter text given as title= instead of description=": TRAP_TITLE_INSTEAD_OF_DESCRIPTION,
        "app summary passed as description=": TRAP_METADATA_IN_DESCRIPTION,
    },
    expected_rows=[
        [200, {"requests": 42}],
        [200, {"period": "week", "legacy_totals": False, "debug": True}],
        [422, "bool_parsing", ["query", "debug"]],
        [{"title": "Reports", "summary": "Sales reports", "version": "3.1.0"},
         [{"name": "reports", "description": "Sales reporting"}]],
        [["/reports"]],
        ["legacy_totals", "Use period instead", True, False],
        ["period", "Reporting period", None, False],
    ],
)
