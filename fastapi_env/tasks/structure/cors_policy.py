from fastapi_env.tasks import Edit, Family, Requirement


def _prompt(p):
    credentials = (
        "Credentials are allowed: every response to a request that has an `Origin` header (a "
        "preflight or not, allowed origin or not) carries `Access-Control-Allow-Credentials: true`."
        if p["cred"] else
        "Credentials are not allowed: no response carries `Access-Control-Allow-Credentials`."
    )
    return f'''\
Build an inventory API that browser front-ends on other origins call, with its CORS policy
enforced by Starlette's `CORSMiddleware` (`fastapi.middleware.cors`), which answers preflight
requests itself.

Routes:

- `GET /items` returns `ITEMS = {p["items"]!r}` (module level) with the response header
  `X-Total-Count: <number of items>`.
- `POST /items` returns `{{"created": true}}` with status 201.
- `DELETE /items` returns `{{"deleted": true}}` (it is served, but not to cross-origin scripts:
  see the methods below).

CORS policy:

- Allowed origins: exactly `{p["o1"]}` and `{p["o2"]}`. An origin matches only when it is one of
  these strings exactly (case, scheme, port and a trailing slash all count).
- Allowed methods, in this order: `{", ".join(p["methods"])}`. The method a preflight asks for is
  matched exactly (case-sensitive).
- Allowed request headers: `{p["hdr"]}` plus the CORS-safelisted `Accept`, `Accept-Language`,
  `Content-Language` and `Content-Type`; header names are matched case-insensitively.
- {credentials}
- Scripts may read the `X-Total-Count` response header: every non-preflight response to a request
  that has an `Origin` header (allowed or not) carries `Access-Control-Expose-Headers:
  X-Total-Count`.
- Browsers may cache a preflight answer for {p["max_age"]} seconds.

What clients observe:

- A **preflight** is an `OPTIONS` request with both an `Origin` and an
  `Access-Control-Request-Method` header (optionally `Access-Control-Request-Headers`, a
  comma-separated list). It is answered by the middleware for any path, whether a route serves
  it or not, never by a route. Every preflight answer carries `Access-Control-Allow-Methods:
  {", ".join(p["methods"])}` and `Access-Control-Max-Age: {p["max_age"]}`, and, when the origin is
  allowed, `Access-Control-Allow-Origin: <that origin>` (never `*`). It also lists the allowed
  request headers, sorted: `Access-Control-Allow-Headers: Accept, Accept-Language,
  Content-Language, Content-Type, {p["hdr"]}`. If the origin, the method
  and every requested header are allowed, the answer is 200 with the text body `OK`. Otherwise
  it is 400 with the text body `Disallowed CORS <what failed>`, where `<what failed>` lists the
  failing checks among `origin`, `method`, `headers`, in that order, joined by `, ` (e.g.
  `Disallowed CORS origin, headers`).
- Any other request (an `OPTIONS` without `Access-Control-Request-Method` included) reaches the
  routes as usual, and its response (errors included) gets `Access-Control-Allow-Origin: <the
  request's origin>` only when that origin is allowed, plus the headers described above.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order (`client.request(method, url, headers=...)`). A header absent from a
response is `null` in a row.

1. `OPTIONS /items` with `Origin: {p["o1"]}`, `Access-Control-Request-Method: POST`,
   `Access-Control-Request-Headers: content-type, {p["hdr_lower"]}`
2. `OPTIONS /items` with `Origin: {p["evil"]}`, `Access-Control-Request-Method: GET`
3. `GET /items` with `Origin: {p["o2"]}`
4. `GET /items` with `Origin: {p["evil"]}`

Rows 1 and 2: `[status code (integer), body text (string), Access-Control-Allow-Origin,
Access-Control-Allow-Methods, Access-Control-Max-Age, Access-Control-Allow-Credentials,
Access-Control-Allow-Headers]`.
Rows 3 and 4: `[status code (integer), JSON body, X-Total-Count, Access-Control-Allow-Origin,
Access-Control-Expose-Headers, Access-Control-Allow-Credentials]` (header values are strings).
'''


HEAD = '''\
from fastapi import FastAPI, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.testclient import TestClient

ITEMS = ${items__repr}

app = FastAPI()
'''

MIDDLEWARE = '''\
app.add_middleware(
    CORSMiddleware,
    allow_origins=[${o1__repr}, ${o2__repr}],
    allow_methods=${methods__repr},
    allow_headers=[${hdr__repr}],
    allow_credentials=${cred},
    expose_headers=["X-Total-Count"],
    max_age=${max_age},
)
'''

ROUTES = '''

@app.get("/items")
def list_items(response: Response):
    response.headers["X-Total-Count"] = str(len(ITEMS))
    return ITEMS


@app.post("/items", status_code=201)
def create_item():
    return {"created": True}


@app.delete("/items")
def delete_items():
    return {"deleted": True}
'''

TAIL = '''

PREFLIGHT = ["access-control-allow-origin", "access-control-allow-methods",
             "access-control-max-age", "access-control-allow-credentials",
             "access-control-allow-headers"]
SIMPLE = ["x-total-count", "access-control-allow-origin", "access-control-expose-headers",
          "access-control-allow-credentials"]

client = TestClient(app)
result = []
for headers in [
    {"Origin": ${o1__repr}, "Access-Control-Request-Method": "POST",
     "Access-Control-Request-Headers": "content-type, ${hdr_lower}"},
    {"Origin": ${evil__repr}, "Access-Control-Request-Method": "GET"},
]:
    r = client.request("OPTIONS", "/items", headers=headers)
    result.append([r.status_code, r.text] + [r.headers.get(h) for h in PREFLIGHT])
for origin in [${o2__repr}, ${evil__repr}]:
    r = client.request("GET", "/items", headers={"Origin": origin})
    result.append([r.status_code, r.json()] + [r.headers.get(h) for h in SIMPLE])
'''

REFERENCE = HEAD + MIDDLEWARE + ROUTES + TAIL

PROBES = '''\
PREFLIGHT = ["access-control-allow-origin", "access-control-allow-methods",
             "access-control-max-age", "access-control-allow-credentials",
             "access-control-allow-headers"]
SIMPLE = ["access-control-allow-origin", "access-control-expose-headers",
          "access-control-allow-credentials"]


def _preflight(client, path, origin, method, headers=None):
    sent = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers is not None:
        sent["Access-Control-Request-Headers"] = headers
    r = client.request("OPTIONS", path, headers=sent)
    return [r.status_code, r.text] + [r.headers.get(h) for h in PREFLIGHT]


def _simple(client, method, path, headers):
    r = client.request(method, path, headers=headers)
    return [r.status_code, r.json()] + [r.headers.get(h) for h in SIMPLE]


def probe_preflight_without_route(client):
    return [_preflight(client, "/nowhere", ${o2__repr}, "GET"),
            _preflight(client, "/items", ${o2__repr}, "${last_method}", "Accept, Content-Language")]


def probe_origin_must_match_exactly(client):
    return [_preflight(client, "/items", ${o1_upper__repr}, "GET"),
            _preflight(client, "/items", ${o1_slash__repr}, "GET"),
            _simple(client, "GET", "/items", {"Origin": ${o1_upper__repr}}),
            _simple(client, "POST", "/items", {"Origin": ${evil__repr}})]


def probe_methods(client):
    return [_preflight(client, "/items", ${o1__repr}, "DELETE"),
            _preflight(client, "/items", ${o2__repr}, "post"),
            _preflight(client, "/items", ${o2__repr}, "${last_method}")]


def probe_request_headers(client):
    return [_preflight(client, "/items", ${o1__repr}, "GET", "${hdr_upper}"),
            _preflight(client, "/items", ${o1__repr}, "GET", "${hdr_lower}, x-debug"),
            _preflight(client, "/items", ${o1__repr}, "GET", "authorization")]


def probe_every_failure_listed(client):
    return [_preflight(client, "/items", ${evil__repr}, "DELETE", "x-debug"),
            _preflight(client, "/items", ${evil__repr}, "GET", "x-debug"),
            _preflight(client, "/items", ${o2__repr}, "PATCH", "x-debug")]


def probe_non_preflight_responses(client):
    return [_simple(client, "POST", "/items", {"Origin": ${o1__repr}}),
            _simple(client, "DELETE", "/items", {"Origin": ${o2__repr}}),
            _simple(client, "GET", "/missing", {"Origin": ${o1__repr}}),
            _simple(client, "OPTIONS", "/items", {"Origin": ${o1__repr}}),
            _simple(client, "GET", "/items", {})]
'''

_HAND_ROLLED = '''\
ALLOWED = {${o1__repr}, ${o2__repr}}


@app.middleware("http")
async def cors(request, call_next):
    response = await call_next(request)
    origin = request.headers.get("origin")
    if origin in ALLOWED:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Methods"] = ${methods_joined__repr}
        response.headers["Access-Control-Max-Age"] = "${max_age}"
    if origin is not None:
        response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
        if ${cred}:
            response.headers["Access-Control-Allow-Credentials"] = "true"
    return response
'''

FAMILY = Family(
    id="structure/cors_policy",
    title="CORSMiddleware: preflights answered for any path, exact origins, methods, headers",
    category="structure",
    difficulty="hard",
    prompt=_prompt,
    reference=REFERENCE,
    probes=PROBES,
    original={"o1": "https://shop.example", "o2": "http://localhost:5173", "evil": "https://evil.example",
              "methods": ["GET", "POST"], "hdr": "X-Token", "cred": True, "max_age": 3600,
              "items": ["bolt", "nut", "gear"]},
    space={
        "o1": [{"o1": "https://shop.example", "o2": "http://localhost:5173",
                "evil": "https://evil.example"},
               {"o1": "https://app.acme.test", "o2": "https://admin.acme.test",
                "evil": "https://acme.test"},
               {"o1": "https://portal.io", "o2": "http://127.0.0.1:8080",
                "evil": "http://portal.io"}],
        "methods": [["GET", "POST"], ["GET", "POST", "PUT"], ["POST", "GET", "PATCH"]],
        "hdr": ["X-Token", "X-Api-Key", "X-Request-Id"],
        "cred": [True, False],
        "max_age": [3600, 120, 86400],
        "items": [["bolt", "nut", "gear"], ["lamp"]],
    },
    derive=lambda p: {
        "hdr_lower": p["hdr"].lower(), "hdr_upper": p["hdr"].upper(),
        "o1_upper": p["o1"].upper(), "o1_slash": p["o1"] + "/",
        "last_method": p["methods"][-1], "methods_joined": ", ".join(p["methods"]),
        "not_cred": not p["cred"], "cred_word": "allowed" if p["cred"] else "not allowed",
    },
    instances=40,
    requirements=(
        Requirement(
            "Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered by "
            "the middleware for any path: 200 `OK` with the echoed origin and the allowed "
            "methods `${methods_joined}`.",
            probes=("preflight_without_route",),
            traps=(Edit("hand-rolled CORS headers without preflight handling", MIDDLEWARE,
                        _HAND_ROLLED),),
        ),
        Requirement(
            "Only `${o1}` and `${o2}`, exactly, are allowed origins: any other (other case, a "
            "trailing slash) fails the preflight and gets no Access-Control-Allow-Origin.",
            probes=("origin_must_match_exactly", "every_failure_listed"),
            traps=(Edit("every origin allowed", "allow_origins=[${o1__repr}, ${o2__repr}]",
                        'allow_origins=["*"]'),
                   Edit("origins matched by a loose pattern",
                        "allow_origins=[${o1__repr}, ${o2__repr}],",
                        "allow_origins=[${o1__repr}, ${o2__repr}],\n"
                        "    allow_origin_regex=r\"(?i)https?://.*\",")),
        ),
        Requirement(
            "Only the methods `${methods_joined}`, matched case-sensitively, pass a preflight "
            "(`Disallowed CORS method` otherwise, the allowed origin still echoed).",
            probes=("methods", "every_failure_listed"),
            traps=(Edit("every method allowed", "allow_methods=${methods__repr}",
                        'allow_methods=["*"]'),),
        ),
        Requirement(
            "Only `${hdr}` and the safelisted headers may be requested (names case-insensitive); "
            "any other is `Disallowed CORS headers`.",
            probes=("request_headers", "every_failure_listed"),
            traps=(Edit("every request header allowed", "allow_headers=[${hdr__repr}]",
                        'allow_headers=["*"]'),),
        ),
        Requirement(
            "Access-Control-Allow-Credentials is `true` on every response to a request with an "
            "Origin header exactly when credentials are allowed (here: ${cred_word}).",
            probes=("non_preflight_responses", "origin_must_match_exactly"),
            traps=(Edit("credentials setting inverted", "allow_credentials=${cred},",
                        "allow_credentials=${not_cred},"),),
        ),
        Requirement(
            "Non-preflight responses to a request with an Origin (errors and a plain OPTIONS "
            "included) expose `X-Total-Count`, and carry the origin only when it is allowed.",
            probes=("non_preflight_responses",),
            traps=(Edit("X-Total-Count not exposed",
                        '    expose_headers=["X-Total-Count"],\n', ""),),
        ),
        Requirement(
            "Every preflight answer carries `Access-Control-Max-Age: ${max_age}`.",
            probes=("preflight_without_route", "methods"),
            traps=(Edit("max_age left at its default", "    max_age=${max_age},\n", ""),),
        ),
    ),
)
