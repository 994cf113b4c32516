from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a reporting API whose public OpenAPI document (`GET /openapi.json`) hides its internal
parts while they keep working.

Application metadata: title `"${title}"`, version `"${version}"`, summary `"${summary}"`, and one
documented tag, declared at the application level: name `"${tag}"`, description
`"${tag_desc}"`. (So the document's `info` is exactly
`{"title": "${title}", "summary": "${summary}", "version": "${version}"}` and its top-level `tags`
is exactly `[{"name": "${tag}", "description": "${tag_desc}"}]`.)

Routes:

- `GET /${tag}` (tag `"${tag}"`) with three query parameters:
  - `period`: string, default `"${period_default}"`, documented with the description `"${period_desc}"`;
  - `${old}`: boolean, default `false`, documented as deprecated (`"deprecated": true`)
    with the description `"Use period instead"`; it still works;
  - `${hidden}`: boolean, default `false`, **not documented at all** (absent from the operation's
    `parameters`), but validated like any FastAPI boolean query parameter (`true`/`1`/`yes`/`on`
    are true, `false`/`0`/`no`/`off` are false, anything else is a 422).

  It returns `{"period": period, "${old}": ${old}, "${hidden}": ${hidden}}`.
- `GET ${metrics_path}` returns `{"requests": ${requests}}`; `GET ${health_path}` returns `{"ok": true}`. Both
  work normally but neither appears in the document's `paths`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET ${metrics_path}`: `[status code (integer), JSON body (object)]`
2. `GET /${tag}?period=${period_sent}&${hidden}=yes`: `[status code (integer), JSON body (object)]`
3. `GET /${tag}?${hidden}=maybe`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`

From one `GET /openapi.json` document:

4. `[info (object), the top-level "tags" value (list)]`
5. `[sorted list of the keys of "paths"]`
6. One row per entry of `paths["/${tag}"]["get"]["parameters"]`, sorted by `name`:
   `[p["name"], p.get("description"), p.get("deprecated"), p["required"]]` (null where a key is absent)
'''

_APP = '''\
app = FastAPI(
    title="${title}",
    version="${version}",
    summary="${summary}",
    openapi_tags=[{"name": "${tag}", "description": "${tag_desc}"}],
)
'''

_HIDDEN_PARAM = "    ${hidden}: Annotated[bool, Query(include_in_schema=False)] = False,\n"
_HIDDEN_TAIL = _HIDDEN_PARAM + '''\
):
    return {"period": period, "${old}": ${old}, "${hidden}": ${hidden}}
'''

_METRICS = '''\
@app.get("${metrics_path}", include_in_schema=False)
def metrics():
    return {"requests": ${requests}}
'''

_HEALTH = '''\
@app.get("${health_path}", include_in_schema=False)
def healthz():
    return {"ok": True}
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.testclient import TestClient

''' + _APP + '''

@app.get("/${tag}", tags=["${tag}"])
def reports(
    period: Annotated[str, Query(description="${period_desc}")] = "${period_default}",
    ${old}: Annotated[bool, Query(deprecated=True, description="Use period instead")] = False,
''' + _HIDDEN_TAIL + '''

''' + _METRICS + '''

''' + _HEALTH + '''

client = TestClient(app)
result = []
r = client.get("${metrics_path}")
result.append([r.status_code, r.json()])
r = client.get("/${tag}?period=${period_sent}&${hidden}=yes")
result.append([r.status_code, r.json()])
r = client.get("/${tag}?${hidden}=maybe")
detail = r.json().get("detail") or [{"type": None, "loc": None}]
result.append([r.status_code, detail[0]["type"], detail[0]["loc"]])
spec = client.get("/openapi.json").json()
result.append([spec["info"], spec.get("tags")])
result.append([sorted(spec["paths"])])
for p in sorted(spec["paths"]["/${tag}"]["get"]["parameters"], key=lambda p: p["name"]):
    result.append([p["name"], p.get("description"), p.get("deprecated"), p["required"]])
'''

PROBES = '''\
def _spec(client):
    return client.get("/openapi.json").json()


def probe_hidden_routes_work(client):
    rows = []
    for path in ["${health_path}", "${metrics_path}"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    return rows


def probe_hidden_param_parsing(client):
    rows = []
    for value in ["1", "off", "true", "2", "", "NO", "Yes"]:
        r = client.get("/${tag}?${hidden}=" + value)
        body = r.json()
        if r.status_code == 200:
            rows.append([value, r.status_code, body["${hidden}"]])
        else:
            rows.append([value, r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]])
    return rows


def probe_deprecated_param_still_works(client):
    rows = []
    for query in ["${old}=true", "${old}=0&period=${period_sent}", "", "${old}=perhaps"]:
        r = client.get("/${tag}?" + query)
        body = r.json()
        rows.append([query, r.status_code, body if r.status_code == 200 else body["detail"][0]["type"]])
    return rows


def probe_schema_has_no_hidden_parts(client):
    spec = _spec(client)
    op = spec["paths"]["/${tag}"]["get"]
    return [[op["tags"], sorted(p["name"] for p in op["parameters"]), sorted(spec["paths"])]]


def probe_documented_parameters(client):
    op = _spec(client)["paths"]["/${tag}"]["get"]
    return [[p["name"], p["in"], p.get("description"), p.get("deprecated"), p["required"],
             p["schema"].get("default")] for p in sorted(op["parameters"], key=lambda p: p["name"])]


def probe_document_metadata(client):
    spec = _spec(client)
    return [[spec["info"], spec.get("tags")]]
'''

_APPS = [
    {"title": "Reports", "version": "3.1.0", "summary": "Sales reports", "tag": "reports",
     "tag_desc": "Sales reporting"},
    {"title": "Billing", "version": "0.9.2", "summary": "Invoices by period", "tag": "invoices",
     "tag_desc": "Invoice listing"},
    {"title": "Traffic", "version": "2.0.0", "summary": "Visitor statistics", "tag": "visits",
     "tag_desc": "Site visits"},
]

FAMILY = Family(
    id="openapi/hidden_routes_and_params",
    title="include_in_schema=False routes and parameters, parameter metadata, app metadata",
    category="openapi",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_APPS[0], "period_default": "month", "period_sent": "week",
              "period_desc": "Reporting period", "old": "legacy_totals", "hidden": "debug",
              "metrics_path": "/internal/metrics", "health_path": "/healthz", "requests": 42},
    space={
        "app": _APPS,
        "period": [{"period_default": "month", "period_sent": "week", "period_desc": "Reporting period"},
                   {"period_default": "day", "period_sent": "year", "period_desc": "Time window"},
                   {"period_default": "quarter", "period_sent": "month", "period_desc": "Span covered"}],
        "params": [{"old": "legacy_totals", "hidden": "debug"}, {"old": "raw", "hidden": "trace"},
                   {"old": "old_format", "hidden": "verbose"}],
        "internal": [{"metrics_path": "/internal/metrics", "health_path": "/healthz", "requests": 42},
                     {"metrics_path": "/_stats", "health_path": "/ping", "requests": 7},
                     {"metrics_path": "/admin/counters", "health_path": "/livez", "requests": 1000}],
    },
    instances=40,
    requirements=(
        Requirement(
            "`${metrics_path}` and `${health_path}` answer normally but are absent from the "
            "document's `paths`.",
            probes=("hidden_routes_work", "schema_has_no_hidden_parts"),
            traps=(
                Edit("internal routes removed instead of hidden", _METRICS + "\n\n" + _HEALTH, ""),
                Edit("health route left in the schema", '@app.get("${health_path}", include_in_schema=False)',
                     '@app.get("${health_path}")'),
            ),
        ),
        Requirement(
            "`${hidden}` is absent from the operation's parameters but parsed as a FastAPI boolean "
            "(an empty or unknown value is a 422 `bool_parsing` at `[\"query\", \"${hidden}\"]`).",
            probes=("hidden_param_parsing", "schema_has_no_hidden_parts"),
            traps=(
                Edit("hidden parameter left in the schema", _HIDDEN_PARAM, "    ${hidden}: bool = False,\n"),
                Edit("hidden parameter read by hand from the query string", _HIDDEN_TAIL,
                     "    request: Request = None,\n):\n"
                     '    ${hidden} = request.query_params.get("${hidden}", "false").lower() in ("true", "1", "yes", "on")\n'
                     '    return {"period": period, "${old}": ${old}, "${hidden}": ${hidden}}\n'),
            ),
        ),
        Requirement(
            "`period` and `${old}` are documented with their descriptions, `${old}` as deprecated, "
            "both optional.",
            probes=("documented_parameters",),
            traps=(
                Edit("parameter text given as title= instead of description=",
                     'Query(description="${period_desc}")', 'Query(title="${period_desc}")'),
                Edit("deprecated flag missing", "Query(deprecated=True, description=", "Query(description="),
            ),
        ),
        Requirement(
            "`period` defaults to `\"${period_default}\"`, and `${old}` still works as a boolean.",
            probes=("deprecated_param_still_works",),
            traps=(
                Edit("wrong period default", '= "${period_default}",', '= "${period_sent}",'),
                Edit("deprecated parameter kept as text",
                     "${old}: Annotated[bool, Query(deprecated=True", "${old}: Annotated[str | bool, Query(deprecated=True"),
            ),
        ),
        Requirement(
            "The document's `info` is title, summary and version as given and its top-level `tags` "
            "lists the one tag with its description.",
            probes=("document_metadata",),
            traps=(
                Edit("app summary passed as description=", 'summary="${summary}",', 'description="${summary}",'),
                Edit("tag not declared at the application level",
                     '    openapi_tags=[{"name": "${tag}", "description": "${tag_desc}"}],\n', ""),
            ),
        ),
    ),
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
