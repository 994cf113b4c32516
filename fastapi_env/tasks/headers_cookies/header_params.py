from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, Request
from fastapi.testclient import TestClient

app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    ("/whoami", {"${vh}": "2", "${rh}": "${rid}", "User-Agent": "cli/1.0"}),
    ("/whoami", {"${vh_lower}": "3", "${lh}": "${lid}", "User-Agent": "proxy/2"}),
    ("/whoami", {"${vh}": "two", "User-Agent": "cli/1.0"}),
    ("/whoami", {"User-Agent": "cli/1.0"}),
    ("/whoami?${rp}=q1&${vp}=5", {"${vh}": "1", "User-Agent": "cli/1.0"}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.get(url, headers=headers)) for url, headers in REQUESTS]
'''

_RIGHT = '''\
@app.get("/whoami")
def whoami(
    ${vp}: Annotated[int, Header()],
    user_agent: Annotated[str, Header()],
    ${rp}: Annotated[str | None, Header()] = None,
    ${lh}: Annotated[str | None, Header(convert_underscores=False)] = None,
):
    return {"version": ${vp}, "request_id": ${rp},
            "legacy_id": ${lh}, "agent": user_agent}
'''

_MANUAL_VERSION = '''\
@app.get("/whoami")
def whoami(
    request: Request,
    user_agent: Annotated[str, Header()],
    ${rp}: Annotated[str | None, Header()] = None,
    ${lh}: Annotated[str | None, Header(convert_underscores=False)] = None,
):
    raw = request.headers.get("${vh_lower}", "")
    version = int(raw) if raw.isdigit() else 0
    return {"version": version, "request_id": ${rp},
            "legacy_id": ${lh}, "agent": user_agent}
'''

FAMILY = Family(
    id="headers_cookies/header_params",
    title="Header parameters: underscore conversion, a literal underscore header, int validation",
    category="headers_cookies",
    difficulty="medium",
    prompt='''\
Build one route, `GET /whoami`, that reads everything it needs from request headers (never from
the query string; query parameters are ignored). Header names are matched case-insensitively, as
HTTP requires, but a hyphen and an underscore are different characters in a header name. All
validation is FastAPI's own (standard 422 responses).

- `${vh}`: required, an integer.
- `User-Agent`: required string.
- `${rh}`: optional string (`null` when absent).
- A legacy proxy sends an id in a header whose name is literally `${lh}` (underscores, not
  hyphens). Read that header, optional (`null` when absent). A header spelled `${lh_hyphen}`
  (hyphens) is a different header and must be ignored.

A valid request answers 200 with
`{"version": <int>, "request_id": <str or null>, "legacy_id": <str or null>, "agent": <str>}`.

Then fill `result` with one row per request, in this order (`client.get(url, headers=...)`):
1. `GET /whoami` with headers `${vh}: 2`, `${rh}: ${rid}`, `User-Agent: cli/1.0`
2. `GET /whoami` with headers `${vh_lower}: 3`, `${lh}: ${lid}`, `User-Agent: proxy/2`
3. `GET /whoami` with headers `${vh}: two`, `User-Agent: cli/1.0`
4. `GET /whoami` with header `User-Agent: cli/1.0`
5. `GET /whoami?${rp}=q1&${vp}=5` with headers `${vh}: 1`,
   `User-Agent: cli/1.0`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list), input]`; for any other
response, `[status code (integer), the JSON body]`.
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_legacy_header(client):
    rows = []
    for headers in [
        {"${vh}": "4", "${lh_hyphen}": "hyphenated", "User-Agent": "a"},
        [("${vh}", "4"), ("${lh_hyphen}", "hyphenated"), ("${lh}", "underscored"),
         ("User-Agent", "a")],
        {"${vh}": "4", "${lh_upper}": "upper", "User-Agent": "a"},
    ]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    return rows


def probe_version_and_request_id(client):
    rows = []
    for headers in [
        {"${vh_upper}": "-4", "${rh_lower}": "abc", "User-Agent": "b"},
        {"${vh}": "", "User-Agent": "b"},
        {"${vh}": "9", "${rh_under}": "underscore", "User-Agent": "b"},
    ]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    return rows


def probe_query_is_ignored(client):
    r = client.get("/whoami?${lh}=q&user_agent=q",
                   headers={"${vh}": "6", "User-Agent": "c"})
    return [_row(r)]

def probe_present_but_empty_values(client):
    rows = []
    for headers in [
        {"${vh}": "4", "${rh}": "", "User-Agent": "d"},
        {"${vh}": "4", "${lh}": "", "User-Agent": ""},
        {"${vh}": " 7 ", "User-Agent": "d"},
    ]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    return rows
''',
    original={"vh": "X-Api-Version", "rh": "X-Request-Id", "lh": "x_legacy_id", "rid": "req-1", "lid": "L-77"},
    space={
        "vh": ["X-Api-Version", "X-Client-Version", "X-Schema-Rev"],
        "rh": [{"rh": "X-Request-Id", "rid": "req-1"}, {"rh": "X-Correlation-Id", "rid": "abc-9"},
               {"rh": "X-Request-Id", "rid": "r/77"}],
        "lh": [{"lh": "x_legacy_id", "lid": "L-77"}, {"lh": "x_trace_code", "lid": "LEG/4"},
               {"lh": "old_session", "lid": "s-0"}],
    },
    derive=lambda p: {
        "vh_lower": p["vh"].lower(), "vp": p["vh"].lower().replace("-", "_"), "vh_upper": p["vh"].upper(),
        "rh_lower": p["rh"].lower(), "rp": p["rh"].lower().replace("-", "_"),
        "rh_under": p["rh"].replace("-", "_"),
        "lh_hyphen": "-".join(w.capitalize() for w in p["lh"].split("_")), "lh_upper": p["lh"].upper(),
    },
    instances=36,
    requirements=(
        Requirement(
            "`${rh}` is read from the header (optional, null when absent; an empty value is the "
            "empty string), never from the query string.",
            probes=("query_is_ignored", "version_and_request_id", "present_but_empty_values"),
            traps=(Edit("${rh} declared without Header() (a query parameter)",
                        "${rp}: Annotated[str | None, Header()] = None", "${rp}: str | None = None"),
                   Edit("empty request id treated as absent", '"request_id": ${rp},',
                        '"request_id": ${rp} or None,')),
        ),
        Requirement(
            "`${vh}` is a required integer header, matched case-insensitively with its hyphens "
            "(missing, empty or non-integer values are FastAPI's 422 with the input).",
            probes=("version_and_request_id",),
            traps=(Edit("convert_underscores=False on ${vh} too", "${vp}: Annotated[int, Header()]",
                        "${vp}: Annotated[int, Header(convert_underscores=False)]"),
                   Edit("version parsed by hand with a fallback", _RIGHT, _MANUAL_VERSION)),
        ),
        Requirement(
            "The legacy header is literally `${lh}` (underscores); `${lh_hyphen}` is another "
            "header and is ignored.",
            probes=("legacy_header",),
            traps=(Edit("legacy header read with the default conversion", "Header(convert_underscores=False)",
                        "Header()"),),
        ),
    ),
    expected_rows=[
        [200, {"version": 2, "request_id": "req-1", "legacy_id": None, "agent": "cli/1.0"}],
        [200, {"version": 3, "request_id": None, "legacy_id": "L-77", "agent": "proxy/2"}],
        [422, [["int_parsing", ["header", "x-api-version"], "two"]]],
        [422, [["missing", ["header", "x-api-version"], None]]],
        [200, {"version": 1, "request_id": None, "legacy_id": None, "agent": "cli/1.0"}],
    ],
)
