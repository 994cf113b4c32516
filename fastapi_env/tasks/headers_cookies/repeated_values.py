from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import Cookie, FastAPI, Header, Query, Request
from fastapi.testclient import TestClient

app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    ("/trace?region=us&region=ap",
     [("X-Hop", "edge-1"), ("X-Tenant", "acme"), ("X-Hop", "edge-2"), ("X-Tenant", "globex"),
      ("Cookie", "pref=dark; pref=light")]),
    ("/trace", []),
    ("/trace", [("X-Hop", "a, b"), ("X-Hop", "c")]),
    ("/trace?region=", [("X-Tenant", "acme, inc")]),
]

client = TestClient(app)
result = []
for url, headers in REQUESTS:
    r = client.get(url, headers=headers)
    result.append([r.status_code, r.json()])
'''

_RIGHT = '''\
@app.get("/trace")
def trace(
    x_hop: Annotated[list[str], Header()] = [],
    x_tenant: Annotated[str, Header()] = "public",
    region: str = "eu",
    pref: Annotated[str | None, Cookie()] = None,
):
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": x_tenant,
            "region": region, "pref": pref}
'''

_COMMA_JOINED = '''\
@app.get("/trace")
def trace(
    x_hop: Annotated[str | None, Header()] = None,
    x_tenant: Annotated[str, Header()] = "public",
    region: str = "eu",
    pref: Annotated[str | None, Cookie()] = None,
):
    hops = [h.strip() for h in x_hop.split(",")] if x_hop else []
    return {"hops": hops, "hop_count": len(hops), "tenant": x_tenant,
            "region": region, "pref": pref}
'''

_TENANT_SPLIT = '''\
@app.get("/trace")
def trace(
    x_hop: Annotated[list[str], Header()] = [],
    x_tenant: Annotated[str, Header()] = "public",
    region: str = "eu",
    pref: Annotated[str | None, Cookie()] = None,
):
    tenant = x_tenant.split(",")[0].strip()
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": tenant,
            "region": region, "pref": pref}
'''

_FIRST_REGION = '''\
@app.get("/trace")
def trace(
    request: Request,
    x_hop: Annotated[list[str], Header()] = [],
    x_tenant: Annotated[str, Header()] = "public",
    pref: Annotated[str | None, Cookie()] = None,
):
    regions = request.query_params.getlist("region")
    region = regions[0] if regions else "eu"
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": x_tenant,
            "region": region, "pref": pref}
'''

_LAST_TENANT = '''\
@app.get("/trace")
def trace(
    request: Request,
    x_hop: Annotated[list[str], Header()] = [],
    region: str = "eu",
    pref: Annotated[str | None, Cookie()] = None,
):
    tenants = request.headers.getlist("x-tenant")
    tenant = tenants[-1] if tenants else "public"
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": tenant,
            "region": region, "pref": pref}
'''

_LIST_WITHOUT_HEADER = '''\
@app.get("/trace")
def trace(
    x_hop: list[str] = [],
    x_tenant: Annotated[str, Header()] = "public",
    region: str = "eu",
    pref: Annotated[str | None, Cookie()] = None,
):
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": x_tenant,
            "region": region, "pref": pref}
'''

_FIRST_COOKIE = '''\
@app.get("/trace")
def trace(
    request: Request,
    x_hop: Annotated[list[str], Header()] = [],
    x_tenant: Annotated[str, Header()] = "public",
    region: str = "eu",
):
    pref = None
    for part in request.headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == "pref" and pref is None:
            pref = value
    return {"hops": x_hop, "hop_count": len(x_hop), "tenant": x_tenant,
            "region": region, "pref": pref}
'''

TASK = Task(
    id="headers_cookies/repeated_values",
    title="Repeated headers, query keys and cookies: all, first, last",
    category="headers_cookies",
    difficulty="hard",
    prompt='''\
Build a request-tracing endpoint, `GET /trace`, that reports what it received:

- `X-Hop` request header: may be sent several times (one header line per proxy). Report every
  occurrence, in the order sent, each occurrence being one value exactly as sent (a comma inside a
  value is not a separator). No `X-Hop` header means an empty list.
- `X-Tenant` request header: one value. If it is sent more than once, the **first** occurrence is
  used; its value is used exactly as sent. Absent means `"public"`.
- `region` query parameter: one value. If the key is repeated, the **last** occurrence is used; the
  value is used exactly as sent (possibly empty). Absent means `"eu"`.
- `pref` cookie: if the `Cookie` header holds `pref` more than once, the **last** one is used.
  Absent means `null`. Only the cookie counts (a `pref` query parameter is ignored).

It answers 200 with
`{"hops": <list of strings>, "hop_count": <int>, "tenant": <str>, "region": <str>, "pref": <str or null>}`.

Then fill `result` with one row per request, in this order. Send each request as
`client.get(url, headers=[(name, value), ...])` with the header lines listed, in that order
(repeated names are separate header lines); each row is `[status code (integer), the JSON body]`:
1. `GET /trace?region=us&region=ap` with header lines `X-Hop: edge-1`, `X-Tenant: acme`,
   `X-Hop: edge-2`, `X-Tenant: globex`, `Cookie: pref=dark; pref=light`
2. `GET /trace` with no extra header lines
3. `GET /trace` with header lines `X-Hop: a, b`, `X-Hop: c`
4. `GET /trace?region=` with header line `X-Tenant: acme, inc`
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def probe_hops_and_tenants(client):
    rows = []
    for headers in [
        [("x-tenant", "t2"), ("X-Hop", "h1"), ("x-hop", "h2"), ("X-HOP", "h3"), ("X-Tenant", "t1")],
        [("X-Hop", "only")],
        [("X-Hop", "p, q, r")],
        [("X-Tenant", "first"), ("X-Tenant", "second")],
    ]:
        r = client.get("/trace", headers=headers)
        rows.append([r.status_code, r.json()])
    return rows


def probe_regions(client):
    rows = []
    for url in ["/trace?region=a&region=b&region=c", "/trace?region=x", "/trace?region=us&region="]:
        r = client.get(url)
        rows.append([r.status_code, r.json()])
    return rows


def probe_cookies(client):
    rows = []
    for url, headers in [
        ("/trace", [("Cookie", "theme=x; pref=a; lang=en; pref=b")]),
        ("/trace?pref=query", [("Cookie", "theme=x")]),
        ("/trace", [("Cookie", "pref=solo")]),
    ]:
        r = client.get(url, headers=headers)
        rows.append([r.status_code, r.json()])
    return rows
''',
    traps={
        "X-Hop as one comma-joined header value": _HEAD + _COMMA_JOINED + _TAIL,
        "X-Tenant split on commas": _HEAD + _TENANT_SPLIT + _TAIL,
        "first region taken from the query string": _HEAD + _FIRST_REGION + _TAIL,
        "last X-Tenant header taken": _HEAD + _LAST_TENANT + _TAIL,
        "list header without Header() (read from the body)": _HEAD + _LIST_WITHOUT_HEADER + _TAIL,
        "cookie header parsed by hand, first pref wins": _HEAD + _FIRST_COOKIE + _TAIL,
    },
    expected_rows=[
        [200, {"hops": ["edge-1", "edge-2"], "hop_count": 2, "tenant": "acme", "region": "ap",
               "pref": "light"}],
        [200, {"hops": [], "hop_count": 0, "tenant": "public", "region": "eu", "pref": None}],
        [200, {"hops": ["a, b", "c"], "hop_count": 2, "tenant": "public", "region": "eu",
               "pref": None}],
        [200, {"hops": [], "hop_count": 0, "tenant": "acme, inc", "region": "", "pref": None}],
    ],
)
