from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import Cookie, FastAPI, Header, Query, Request
from fastapi.testclient import TestClient

app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    ("/trace?region=us&region=ap",
     [("${hh}", "edge-1"), ("${th}", "${t1}"), ("${hh}", "edge-2"), ("${th}", "${t2}"),
      ("Cookie", "${ck}=dark; ${ck}=light")]),
    ("/trace", []),
    ("/trace", [("${hh}", "a, b"), ("${hh}", "c")]),
    ("/trace?region=", [("${th}", "${t1}, inc")]),
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
    ${hp}: Annotated[list[str], Header()] = [],
    ${tp}: Annotated[str, Header()] = "${tdef}",
    region: str = "${rdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": ${tp},
            "region": region, "pref": pref}
'''

_COMMA_JOINED = '''\
@app.get("/trace")
def trace(
    ${hp}: Annotated[str | None, Header()] = None,
    ${tp}: Annotated[str, Header()] = "${tdef}",
    region: str = "${rdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    hops = [h.strip() for h in ${hp}.split(",")] if ${hp} else []
    return {"hops": hops, "hop_count": len(hops), "tenant": ${tp},
            "region": region, "pref": pref}
'''

_TENANT_SPLIT = '''\
@app.get("/trace")
def trace(
    ${hp}: Annotated[list[str], Header()] = [],
    ${tp}: Annotated[str, Header()] = "${tdef}",
    region: str = "${rdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    tenant = ${tp}.split(",")[0].strip()
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": tenant,
            "region": region, "pref": pref}
'''

_FIRST_REGION = '''\
@app.get("/trace")
def trace(
    request: Request,
    ${hp}: Annotated[list[str], Header()] = [],
    ${tp}: Annotated[str, Header()] = "${tdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    regions = request.query_params.getlist("region")
    region = regions[0] if regions else "${rdef}"
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": ${tp},
            "region": region, "pref": pref}
'''

_LAST_TENANT = '''\
@app.get("/trace")
def trace(
    request: Request,
    ${hp}: Annotated[list[str], Header()] = [],
    region: str = "${rdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    tenants = request.headers.getlist("${th_lower}")
    tenant = tenants[-1] if tenants else "${tdef}"
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": tenant,
            "region": region, "pref": pref}
'''

_LIST_WITHOUT_HEADER = '''\
@app.get("/trace")
def trace(
    ${hp}: list[str] = [],
    ${tp}: Annotated[str, Header()] = "${tdef}",
    region: str = "${rdef}",
    pref: Annotated[str | None, Cookie(alias="${ck}")] = None,
):
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": ${tp},
            "region": region, "pref": pref}
'''

_FIRST_COOKIE = '''\
@app.get("/trace")
def trace(
    request: Request,
    ${hp}: Annotated[list[str], Header()] = [],
    ${tp}: Annotated[str, Header()] = "${tdef}",
    region: str = "${rdef}",
):
    pref = None
    for part in request.headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == "${ck}" and pref is None:
            pref = value
    return {"hops": ${hp}, "hop_count": len(${hp}), "tenant": ${tp},
            "region": region, "pref": pref}
'''

FAMILY = Family(
    id="headers_cookies/repeated_values",
    title="Repeated headers, query keys and cookies: all, first, last",
    category="headers_cookies",
    difficulty="hard",
    prompt='''\
Build a request-tracing endpoint, `GET /trace`, that reports what it received:

- `${hh}` request header: may be sent several times (one header line per proxy). Report every
  occurrence, in the order sent, each occurrence being one value exactly as sent (a comma inside a
  value is not a separator). No `${hh}` header means an empty list.
- `${th}` request header: one value. If it is sent more than once, the **first** occurrence is
  used; its value is used exactly as sent. Absent means `"${tdef}"`.
- `region` query parameter: one value. If the key is repeated, the **last** occurrence is used; the
  value is used exactly as sent (possibly empty). Absent means `"${rdef}"`.
- `${ck}` cookie: if the `Cookie` header holds `${ck}` more than once, the **last** one is used.
  Absent means `null`. Only the cookie counts (a `${ck}` query parameter is ignored).

It answers 200 with
`{"hops": <list of strings>, "hop_count": <int>, "tenant": <str>, "region": <str>, "pref": <str or null>}`.

Then fill `result` with one row per request, in this order. Send each request as
`client.get(url, headers=[(name, value), ...])` with the header lines listed, in that order
(repeated names are separate header lines); each row is `[status code (integer), the JSON body]`:
1. `GET /trace?region=us&region=ap` with header lines `${hh}: edge-1`, `${th}: ${t1}`,
   `${hh}: edge-2`, `${th}: ${t2}`, `Cookie: ${ck}=dark; ${ck}=light`
2. `GET /trace` with no extra header lines
3. `GET /trace` with header lines `${hh}: a, b`, `${hh}: c`
4. `GET /trace?region=` with header line `${th}: ${t1}, inc`
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def probe_hops_and_tenants(client):
    rows = []
    for headers in [
        [("${th_lower}", "t2"), ("${hh}", "h1"), ("${hh_lower}", "h2"), ("${hh_upper}", "h3"), ("${th}", "t1")],
        [("${hh}", "only")],
        [("${hh}", "p, q, r")],
        [("${th}", "first"), ("${th}", "second")],
        [("${th}", "${t2}, ltd"), ("${th}", "${t1}")],  # the first value whole, comma and all
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
        ("/trace", [("Cookie", "theme=x; ${ck}=a; lang=en; ${ck}=b")]),
        ("/trace?${ck}=query", [("Cookie", "theme=x")]),
        ("/trace", [("Cookie", "${ck}=solo")]),
    ]:
        r = client.get(url, headers=headers)
        rows.append([r.status_code, r.json()])
    return rows

def probe_present_but_empty(client):
    rows = []
    for url, headers in [("/trace?region=&region=", [("${hh}", ""), ("${th}", "")]),
                         ("/trace", [("Cookie", "${ck}=; ${ck}=z")]), ("/trace", [("Cookie", "${ck}=")])]:
        r = client.get(url, headers=headers)
        rows.append([r.status_code, r.json()])
    return rows
''',
    original={"hh": "X-Hop", "th": "X-Tenant", "tdef": "public", "rdef": "eu", "ck": "pref", "t1": "acme",
              "t2": "globex"},
    space={

        "th": [{"th": "X-Tenant", "t1": "acme", "t2": "globex"}, {"th": "X-Org", "t1": "initech", "t2": "hooli"}],
        # header and cookie names never reach a row: they ride with the defaults
        "tdef": [{"tdef": "public", "ck": "pref"}, {"tdef": "anonymous", "ck": "ui_mode"}],
        "rdef": [{"rdef": "eu", "hh": "X-Hop"}, {"rdef": "us-east", "hh": "X-Forwarded-Via"},
                 {"rdef": "local", "hh": "X-Hop"}],
    },
    derive=lambda p: {"hh_lower": p["hh"].lower(), "hh_upper": p["hh"].upper(),
                      "hp": p["hh"].lower().replace("-", "_"), "th_lower": p["th"].lower(),
                      "tp": p["th"].lower().replace("-", "_")},
    instances=40,
    requirements=(
        Requirement(
            "Every `${hh}` line is reported in order, each value as sent (commas inside kept, "
            "header names case-insensitive); none is an empty list.",
            probes=("hops_and_tenants", "present_but_empty"),
            traps=(Edit("${hh} as one comma-joined header value", _RIGHT, _COMMA_JOINED),
                   Edit("list header without Header() (read from the body)", _RIGHT, _LIST_WITHOUT_HEADER)),
        ),
        Requirement(
            "`${th}`: the first occurrence, exactly as sent (an empty value included); absent is "
            '"${tdef}".',
            probes=("hops_and_tenants", "present_but_empty"),
            traps=(Edit("${th} split on commas", _RIGHT, _TENANT_SPLIT),
                   Edit("last ${th} header taken", _RIGHT, _LAST_TENANT)),
        ),
        Requirement(
            '`region`: the last occurrence, possibly empty; absent is "${rdef}".',
            probes=("regions", "present_but_empty"),
            traps=(Edit("first region taken from the query string", _RIGHT, _FIRST_REGION),),
        ),
        Requirement(
            "`${ck}` cookie: the last one (possibly empty); absent is null; a query parameter of that "
            "name is ignored.",
            probes=("cookies", "present_but_empty"),
            traps=(Edit("cookie header parsed by hand, first ${ck} wins", _RIGHT, _FIRST_COOKIE),),
        ),
    ),
    expected_rows=[
        [200, {"hops": ["edge-1", "edge-2"], "hop_count": 2, "tenant": "acme", "region": "ap",
               "pref": "light"}],
        [200, {"hops": [], "hop_count": 0, "tenant": "public", "region": "eu", "pref": None}],
        [200, {"hops": ["a, b", "c"], "hop_count": 2, "tenant": "public", "region": "eu",
               "pref": None}],
        [200, {"hops": [], "hop_count": 0, "tenant": "acme, inc", "region": "", "pref": None}],
    ],
)
