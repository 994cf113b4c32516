from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, Request
from fastapi.testclient import TestClient

app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    ("/whoami", {"X-Api-Version": "2", "X-Request-Id": "req-1", "User-Agent": "cli/1.0"}),
    ("/whoami", {"x-api-version": "3", "x_legacy_id": "L-77", "User-Agent": "proxy/2"}),
    ("/whoami", {"X-Api-Version": "two", "User-Agent": "cli/1.0"}),
    ("/whoami", {"User-Agent": "cli/1.0"}),
    ("/whoami?x_request_id=q1&x_api_version=5", {"X-Api-Version": "1", "User-Agent": "cli/1.0"}),
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
    x_api_version: Annotated[int, Header()],
    user_agent: Annotated[str, Header()],
    x_request_id: Annotated[str | None, Header()] = None,
    x_legacy_id: Annotated[str | None, Header(convert_underscores=False)] = None,
):
    return {"version": x_api_version, "request_id": x_request_id,
            "legacy_id": x_legacy_id, "agent": user_agent}
'''

_NO_HEADER_MARKER = _RIGHT.replace(
    "x_request_id: Annotated[str | None, Header()] = None", "x_request_id: str | None = None"
)

_NO_CONVERSION_EVERYWHERE = '''\
@app.get("/whoami")
def whoami(
    x_api_version: Annotated[int, Header(convert_underscores=False)],
    user_agent: Annotated[str, Header()],
    x_request_id: Annotated[str | None, Header()] = None,
    x_legacy_id: Annotated[str | None, Header(convert_underscores=False)] = None,
):
    return {"version": x_api_version, "request_id": x_request_id,
            "legacy_id": x_legacy_id, "agent": user_agent}
'''

_LEGACY_CONVERTED = _RIGHT.replace(
    "Header(convert_underscores=False)", "Header()"
)

_MANUAL_VERSION = '''\
@app.get("/whoami")
def whoami(
    request: Request,
    user_agent: Annotated[str, Header()],
    x_request_id: Annotated[str | None, Header()] = None,
    x_legacy_id: Annotated[str | None, Header(convert_underscores=False)] = None,
):
    raw = request.headers.get("x-api-version", "")
    version = int(raw) if raw.isdigit() else 0
    return {"version": version, "request_id": x_request_id,
            "legacy_id": x_legacy_id, "agent": user_agent}
'''

TASK = Task(
    id="headers_cookies/header_params",
    title="Header parameters: underscore conversion, a literal underscore header, int validation",
    category="headers_cookies",
    difficulty="medium",
    prompt='''\
Build one route, `GET /whoami`, that reads everything it needs from request headers (never from
the query string; query parameters are ignored). Header names are matched case-insensitively, as
HTTP requires, but a hyphen and an underscore are different characters in a header name. All
validation is FastAPI's own (standard 422 responses).

- `X-Api-Version`: required, an integer.
- `User-Agent`: required string.
- `X-Request-Id`: optional string (`null` when absent).
- A legacy proxy sends an id in a header whose name is literally `x_legacy_id` (underscores, not
  hyphens). Read that header, optional (`null` when absent). A header spelled `X-Legacy-Id`
  (hyphens) is a different header and must be ignored.

A valid request answers 200 with
`{"version": <int>, "request_id": <str or null>, "legacy_id": <str or null>, "agent": <str>}`.

Then fill `result` with one row per request, in this order (`client.get(url, headers=...)`):
1. `GET /whoami` with headers `X-Api-Version: 2`, `X-Request-Id: req-1`, `User-Agent: cli/1.0`
2. `GET /whoami` with headers `x-api-version: 3`, `x_legacy_id: L-77`, `User-Agent: proxy/2`
3. `GET /whoami` with headers `X-Api-Version: two`, `User-Agent: cli/1.0`
4. `GET /whoami` with header `User-Agent: cli/1.0`
5. `GET /whoami?x_request_id=q1&x_api_version=5` with headers `X-Api-Version: 1`,
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
        {"X-Api-Version": "4", "X-Legacy-Id": "hyphenated", "User-Agent": "a"},
        [("X-Api-Version", "4"), ("X-Legacy-Id", "hyphenated"), ("x_legacy_id", "underscored"),
         ("User-Agent", "a")],
        {"X-Api-Version": "4", "X_LEGACY_ID": "upper", "User-Agent": "a"},
    ]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    return rows


def probe_version_and_request_id(client):
    rows = []
    for headers in [
        {"X-API-VERSION": "-4", "x-request-id": "abc", "User-Agent": "b"},
        {"X-Api-Version": "", "User-Agent": "b"},
        {"X-Api-Version": "9", "X_Request_Id": "underscore", "User-Agent": "b"},
    ]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    return rows


def probe_query_is_ignored(client):
    r = client.get("/whoami?x_legacy_id=q&user_agent=q",
                   headers={"X-Api-Version": "6", "User-Agent": "c"})
    return [_row(r)]
''',
    traps={
        "X-Request-Id declared without Header() (a query parameter)": _HEAD + _NO_HEADER_MARKER + _TAIL,
        "convert_underscores=False on X-Api-Version too": _HEAD + _NO_CONVERSION_EVERYWHERE + _TAIL,
        "legacy header read with the default conversion": _HEAD + _LEGACY_CONVERTED + _TAIL,
        "version parsed by hand with a fallback": _HEAD + _MANUAL_VERSION + _TAIL,
    },
    expected_rows=[
        [200, {"version": 2, "request_id": "req-1", "legacy_id": None, "agent": "cli/1.0"}],
        [200, {"version": 3, "request_id": None, "legacy_id": "L-77", "agent": "proxy/2"}],
        [422, [["int_parsing", ["header", "x-api-version"], "two"]]],
        [422, [["missing", ["header", "x-api-version"], None]]],
        [200, {"version": 1, "request_id": None, "legacy_id": None, "agent": "cli/1.0"}],
    ],
)
