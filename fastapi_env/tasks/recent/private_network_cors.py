"""Recent-features tier: Starlette's CORS middleware as Starlette 0.51-1.x has it: Private
Network Access preflights (``allow_private_network``, 0.51: ``Access-Control-Request-Private-
Network`` answered with ``Access-Control-Allow-Private-Network: true`` or refused as
``Disallowed CORS private-network``) and, since 1.0, the requesting origin echoed (never
``*``) on simple responses when a wildcard policy allows credentials. Two mounted apps with
their own policies and a top-level route without any CORS; a preflight never needs the API
key, and every response of the partner API (errors included) carries its CORS headers."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ERRORS_TYPE_LOC, shown_headers_row

CORS_HEADERS = ("access-control-allow-origin", "access-control-allow-credentials",
                "access-control-allow-methods", "access-control-allow-headers",
                "access-control-allow-private-network", "access-control-max-age",
                "access-control-expose-headers", "vary")

REFERENCE = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

API_KEY = "${api_key}"
DEVICES = {device["id"]: dict(device) for device in ${devices__repr}}

# No CORS at the top level: each mounted app has its own policy.
app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}


partner = FastAPI()
partner.add_middleware(
    CORSMiddleware,
    allow_origins=${origins__repr},
    allow_origin_regex=r"https://[a-z0-9-]+\\.${partner_domain_re}",
    allow_methods=${methods__repr},
    allow_headers=["X-Api-Key", "${trace_header}"],
    allow_credentials=True,
    allow_private_network=True,
    expose_headers=["X-Device-Count", "${trace_header}"],
    max_age=${max_age},
)


def api_key(x_api_key: Annotated[str | None, Header()] = None):
    # A dependency raises before the body is validated: a wrong key wins over a bad body.
    if x_api_key != API_KEY:
        raise HTTPException(401, "invalid api key")


class RoomChange(BaseModel):
    room: str = Field(min_length=1, max_length=${room_max})


def traced(response: Response, trace: str | None):
    if trace is not None:
        response.headers["${trace_header}"] = trace


@partner.get("/devices", dependencies=[Depends(api_key)])
def list_devices(response: Response,
                 trace: Annotated[str | None, Header(alias="${trace_header}")] = None):
    response.headers["X-Device-Count"] = str(len(DEVICES))
    traced(response, trace)
    return sorted(DEVICES.values(), key=lambda device: device["id"])


@partner.put("/devices/{device_id}", dependencies=[Depends(api_key)])
def move_device(device_id: int, change: RoomChange, response: Response,
                trace: Annotated[str | None, Header(alias="${trace_header}")] = None):
    if device_id not in DEVICES:
        raise HTTPException(404, "no such device")
    DEVICES[device_id]["room"] = change.room
    traced(response, trace)
    return DEVICES[device_id]


public = FastAPI()
public.add_middleware(
    CORSMiddleware,
    allow_origins=["*"],
    allow_methods=${public_methods__repr},
    allow_credentials=${public_credentials},
)


@public.get("/status")
def public_status():
    return {"service": "${brand}", "devices": len(DEVICES)}


app.mount("/partner", partner)
app.mount("/public", public)


''' + shown_headers_row(CORS_HEADERS) + '''
client = TestClient(app)
result = [
    row(client.options("/partner/devices", headers={
        "Origin": "${origin_first}", "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "x-api-key, content-type",
        "Access-Control-Request-Private-Network": "true"})),
    row(client.get("/partner/devices", headers={"Origin": "${origin_first}",
                                                "X-Api-Key": API_KEY})),
    row(client.get("/public/status", headers={"Origin": "https://example.org"})),
    row(client.get("/health", headers={"Origin": "${origin_first}"})),
]
'''

PROBES = '''\
KEY = {"X-Api-Key": "${api_key}"}
ORIGIN = "${origin_first}"


''' + shown_headers_row(CORS_HEADERS) + ERRORS_TYPE_LOC + '''

def _preflight(client, path, origin, method="GET", headers=None, private=None):
    sent = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers is not None:
        sent["Access-Control-Request-Headers"] = headers
    if private is not None:
        sent["Access-Control-Request-Private-Network"] = private
    return row(client.options(path, headers=sent))


def _status_and_origin(answer):
    return [answer[0], answer[1], answer[2].get("access-control-allow-origin")]


def probe_top_level_has_no_cors(client):
    return [row(client.get("/health", headers={"Origin": ORIGIN})),
            row(client.get("/health")),
            _preflight(client, "/health", ORIGIN),
            _preflight(client, "/health", "https://example.org", private="true")]


def probe_listed_origins(client):
    rows = []
    for origin in ${origins__repr} + ["${origin_first}".upper(), "${origin_first}/",
                                       "${origin_first}:8443", "${origin_first}".replace(
                                           "https://", "http://"), "null", ""]:
        rows.append([origin, _status_and_origin(_preflight(client, "/partner/devices",
                                                           origin))])
    return rows


def probe_partner_subdomains(client):
    rows = []
    for origin in ["https://${sub_ok}.${partner_domain}", "https://a-1.${partner_domain}",
                   "https://${partner_domain}", "https://a.b.${partner_domain}",
                   "http://${sub_ok}.${partner_domain}", "https://${sub_ok}.${partner_domain}.evil",
                   "https://${sub_ok}x${partner_domain}", "https://${sub_ok}.${partner_domain}:443",
                   "https://UP.${partner_domain}", "https://.${partner_domain}"]:
        preflight = _preflight(client, "/partner/devices", origin)
        simple = client.get("/partner/devices", headers={"Origin": origin} | KEY)
        rows.append([origin, _status_and_origin(preflight),
                     simple.headers.get("access-control-allow-origin")])
    return rows


def probe_methods(client):
    rows = []
    for method in ["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD", "OPTIONS", "QUERY", "put"]:
        result = _preflight(client, "/partner/devices/1", ORIGIN, method)
        rows.append([method, result[0], result[1],
                     result[2].get("access-control-allow-methods")])
    return rows


def probe_request_headers(client):
    rows = []
    for headers in ["x-api-key", "X-API-KEY", "${trace_header}".lower(), "content-type",
                    "accept, content-language", "x-api-key,${trace_header}",
                    "x-api-key, authorization", "cookie", "", "x-api-key ,  content-type",
                    "x-api-key-2"]:
        result = _preflight(client, "/partner/devices", ORIGIN, "PUT", headers)
        rows.append([headers, result[0], result[1],
                     result[2].get("access-control-allow-headers")])
    return rows


def probe_private_network(client):
    rows = []
    for origin, private in [(ORIGIN, "true"), (ORIGIN, None),
                            ("https://${sub_ok}.${partner_domain}", "true"),
                            ("https://example.org", "true"), (ORIGIN, "false")]:
        result = _preflight(client, "/partner/devices", origin, "GET", private=private)
        rows.append([origin, private, result[0], result[1],
                     result[2].get("access-control-allow-private-network")])
    return rows


def probe_several_failures_at_once(client):
    rows = []
    for origin, method, headers, private in [
            ("https://example.org", "PATCH", None, None),
            ("https://example.org", "GET", "x-secret", "true"),
            (ORIGIN, "TRACE", "x-secret", "true"),
            ("https://example.org", "TRACE", "x-secret", "true"),
            ("https://example.org", "GET", None, None)]:
        rows.append([origin, method, headers, private,
                     _preflight(client, "/partner/devices", origin, method, headers, private)])
    return rows


def probe_preflight_cache_age(client):
    return [[path, origin, _preflight(client, path, origin)[2].get("access-control-max-age")]
            for path, origin in [("/partner/devices", ORIGIN),
                                 ("/partner/devices", "https://example.org"),
                                 ("/public/status", "https://example.org")]]


def probe_partner_credentials(client):
    preflight = _preflight(client, "/partner/devices", ORIGIN)
    return [["preflight", preflight[2].get("access-control-allow-credentials")],
            ["get", row(client.get("/partner/devices", headers={"Origin": ORIGIN} | KEY))[2]],
            ["subdomain", row(client.get(
                "/partner/devices", headers={"Origin": "https://${sub_ok}.${partner_domain}"}
                | KEY))[2]]]


def probe_partner_simple_responses(client):
    rows = []
    for origin, headers in [(ORIGIN, KEY), ("${origin_last}", KEY | {"${trace_header}": "t-1"}),
                            ("https://example.org", KEY), (None, KEY),
                            (ORIGIN, {"X-Api-Key": "nope"}), (ORIGIN, {})]:
        sent = dict(headers)
        if origin is not None:
            sent["Origin"] = origin
        r = client.get("/partner/devices", headers=sent)
        rows.append([origin, sorted(headers), row(r), r.headers.get("x-device-count"),
                     r.headers.get("${trace_header}")])
    return rows


def probe_preflights_need_no_key(client):
    rows = []
    for path, method in [("/partner/devices", "GET"), ("/partner/devices/1", "PUT"),
                         ("/partner/devices/999", "DELETE"), ("/partner/unknown", "GET")]:
        rows.append([path, method, _preflight(client, path, ORIGIN, method, "x-api-key")[:2]])
    return rows


def probe_public_policy(client):
    rows = []
    for origin in ["https://example.org", ORIGIN, "null"]:
        rows.append([origin, row(client.get("/public/status", headers={"Origin": origin}))])
    rows.append(["no origin", row(client.get("/public/status"))])
    for method, private in [("GET", None), ("DELETE", None), ("QUERY", None), ("GET", "true")]:
        rows.append([method, private, _preflight(client, "/public/status",
                                                 "https://example.org", method,
                                                 private=private)])
    return rows


def probe_device_list_needs_key(client):
    rows = []
    for headers in [KEY, {}, {"X-Api-Key": ""}, {"X-Api-Key": "${api_key}".upper()},
                    {"X-Api-Key": "${api_key} "}, {"Authorization": "Bearer ${api_key}"}]:
        r = client.get("/partner/devices", headers=headers)
        rows.append([headers, r.status_code, r.json(), r.headers.get("x-device-count")])
    return rows


def probe_moving_devices(client):
    rows = []
    first = ${devices__repr}[0]["id"]
    trace = {"${trace_header}": "move-7"}
    for device_id, body, headers in [
            (first, {"room": "${new_room}"}, KEY | trace), (first, {"room": ""}, KEY),
            (first, {"room": "r" * ${room_max}}, KEY), (first, {"room": "r" * (${room_max} + 1)}, KEY),
            (999, {"room": "x"}, KEY), (999, {"room": "x"}, {}), (first, {}, {}),
            (first, {"room": 5}, {"X-Api-Key": "bad"}), ("abc", {"room": "x"}, KEY)]:
        r = client.put(f"/partner/devices/{device_id}", json=body,
                       headers=headers | {"Origin": ORIGIN})
        data = errors(r) if r.status_code == 422 else r.json()
        rows.append([device_id, body, sorted(headers), r.status_code, data,
                     r.headers.get("${trace_header}"),
                     r.headers.get("access-control-allow-origin")])
    rows.append(row(client.get("/partner/devices", headers=KEY))[1])
    return rows
'''

PROMPT = '''\
Build the device API of ${brand}: one FastAPI app with two mounted apps that each have their own
CORS policy, answered by the installed Starlette's CORS middleware (recent: Starlette 0.51
added Private Network Access preflights, and Starlette 1.0 changed which origin a wildcard
policy with credentials sends back). If you do not know these, read the installed package's
source under `python3 -c "import starlette, os; print(os.path.dirname(starlette.__file__))"`
(`middleware/cors.py`). "Starlette's standard" below means exactly the status, text body and
`Access-Control-*`/`Vary` headers that middleware gives for the stated policy; the hidden checks
compare them.

Devices (in memory, in this order): `${devices__repr}`.

**Top level.** `GET /health` is 200 `{"status": "ok"}`. Nothing outside `/partner` and
`/public` has any CORS handling: no `Access-Control-*` or `Vary` headers, and an `OPTIONS`
preflight to `/health` is FastAPI's standard 405.

**`/partner`: the partner API.**
- CORS policy (Starlette's standard preflights and responses for it):
  - allowed origins: exactly ${origins_text}, and any `https://<label>.${partner_domain}` where
    `<label>` is one or more of `a-z`, `0-9`, `-` (no port, no further dots; exact case);
  - preflight methods: `${methods_text}` (sent as `Access-Control-Allow-Methods: ${methods_text}`);
  - request headers: `X-Api-Key` and `${trace_header}` beside the CORS-safelisted ones, matched
    case-insensitively; a preflight answers them as
    `Access-Control-Allow-Headers: ${allow_headers_text}`;
  - credentials allowed; private-network requests allowed (a preflight with
    `Access-Control-Request-Private-Network` gets `Access-Control-Allow-Private-Network: true`);
  - preflights may be cached for ${max_age} seconds;
  - responses expose `X-Device-Count` and `${trace_header}`, in that order.
- A preflight never needs the API key: it is answered for any path under `/partner`. A refused
  preflight is 400 with the text `Disallowed CORS ` and its failures among `origin`, `method`,
  `headers`, `private-network`, in that order, comma-separated.
- Every response of this app, errors included, carries the CORS headers for the request's
  `Origin` (allowed origins are echoed; others are still served, without an allowed origin).
- `GET /partner/devices`: needs the header `X-Api-Key: ${api_key}` (exact); otherwise 401
  `{"detail": "invalid api key"}`. 200: the devices sorted by `id`, with a header
  `X-Device-Count` (how many devices there are).
- `PUT /partner/devices/{device_id}` (an integer) with a JSON body `{"room": <1-${room_max}
  characters>}`: same key rule; a wrong or missing key is 401 before anything else is checked
  (an unknown device or an invalid body included), then FastAPI's standard 422 for the body,
  then 404 `{"detail": "no such device"}`; 200 the changed device, which later reads show.
- Both routes echo a request's `${trace_header}` header back in the response's `${trace_header}`
  header (absent when not sent).

**`/public`.** `GET /public/status`: 200 `{"service": "${brand}", "devices": <count>}`. CORS
policy: any origin, preflight methods ${public_methods_text}, no request headers beyond the
safelisted ones, ${public_credentials_text}, private-network requests refused, Starlette's
default preflight cache age.

`result`: one row per request, `[status code, body (JSON, or the text), {header: value}]` with
the headers among `access-control-allow-origin`, `access-control-allow-credentials`,
`access-control-allow-methods`, `access-control-allow-headers`,
`access-control-allow-private-network`, `access-control-max-age`,
`access-control-expose-headers`, `vary` that the response has (lower-case names):
1. the preflight `OPTIONS /partner/devices` from `Origin: ${origin_first}` for `PUT` with
   `Access-Control-Request-Headers: x-api-key, content-type` and
   `Access-Control-Request-Private-Network: true`
2. `GET /partner/devices` from that origin with the API key
3. `GET /public/status` from `Origin: https://example.org`
4. `GET /health` from `Origin: ${origin_first}`
'''

_SAFELISTED = ["Accept", "Accept-Language", "Content-Language", "Content-Type"]


def _derive(p):
    origins = p["origins"]
    domain = p["partner_domain"]
    return {
        "origin_first": origins[0], "origin_last": origins[-1],
        "origins_text": " and ".join(f"`{o}`" for o in origins),
        "partner_domain_re": domain.replace(".", "\\."),
        "methods_text": ", ".join(p["methods"]),
        "allow_headers_text": ", ".join(sorted(_SAFELISTED + ["X-Api-Key", p["trace_header"]])),
        "public_methods_text": ("all of `DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT, QUERY` "
                                "(Starlette's list for a wildcard)"
                                if p["public_methods"] == ["*"] else "`GET` only"),
        "public_credentials_text": ("credentials allowed" if p["public_credentials"]
                                    else "no credentials"),
    }


FAMILY = Family(
    id="recent/private_network_cors",
    title="Per-app CORS policies with Private Network Access (Starlette's recent CORS middleware)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"brand": "Hearth", "origins": ["https://app.hearth.example",
                                             "https://admin.hearth.example"],
              "partner_domain": "partner.example", "sub_ok": "north-7",
              "methods": ["GET", "PUT"], "trace_header": "X-Request-Id", "max_age": 900,
              "public_methods": ["GET"], "public_credentials": False, "api_key": "hk-41f",
              "room_max": 20, "new_room": "attic",
              "devices": [{"id": 1, "name": "thermostat", "room": "hall"},
                          {"id": 4, "name": "smoke alarm", "room": "kitchen"},
                          {"id": 2, "name": "door lock", "room": "porch"}]},
    space={
        "brand": [{"brand": "Hearth", "origins": ["https://app.hearth.example",
                                                  "https://admin.hearth.example"],
                   "partner_domain": "partner.example", "sub_ok": "north-7",
                   "api_key": "hk-41f", "new_room": "attic",
                   "devices": [{"id": 1, "name": "thermostat", "room": "hall"},
                               {"id": 4, "name": "smoke alarm", "room": "kitchen"},
                               {"id": 2, "name": "door lock", "room": "porch"}]},
                  {"brand": "Voltly", "origins": ["https://dash.voltly.io"],
                   "partner_domain": "integrations.voltly.net", "sub_ok": "acme",
                   "api_key": "VK-9", "new_room": "garage",
                   "devices": [{"id": 7, "name": "charger", "room": "driveway"},
                               {"id": 3, "name": "meter", "room": "basement"}]}],
        "methods": [["GET", "PUT"], ["GET", "PUT", "DELETE", "PATCH"]],
        "trace": [{"trace_header": "X-Request-Id", "max_age": 900, "room_max": 20},
                  {"trace_header": "X-Trace-Id", "max_age": 3600, "room_max": 12}],
        "public": [{"public_methods": ["GET"], "public_credentials": False},
                   {"public_methods": ["*"], "public_credentials": True}],
    },
    derive=_derive,
    instances=16,
    requirements=(
        Requirement("Nothing outside `/partner` and `/public` has CORS headers; a preflight to "
                    "`/health` is 405.",
                    probes=("top_level_has_no_cors",),
                    traps=(Edit("CORS on the whole app", "app = FastAPI()\n",
                                "app = FastAPI()\napp.add_middleware(CORSMiddleware, "
                                "allow_origins=${origins__repr})\n"),)),
        Requirement("The partner API allows exactly the listed origins (exact strings).",
                    probes=("listed_origins",),
                    traps=(Edit("only the first origin listed", "allow_origins=${origins__repr},",
                                "allow_origins=${origins__repr}[:1] + ['${origin_first}/'],"),
                           Edit("origins compared case-insensitively",
                                "allow_origins=${origins__repr},",
                                "allow_origins=${origins__repr} + [o.upper() for o in "
                                "${origins__repr}],"))),
        Requirement("It allows `https://<label>.${partner_domain}` for one label of `a-z0-9-`.",
                    probes=("partner_subdomains",),
                    traps=(Edit("any depth of subdomain", "https://[a-z0-9-]+",
                                "https://[a-z0-9.-]+"),
                           Edit("any scheme", 'r"https://[a-z0-9-]+', 'r"https?://[a-z0-9-]+'))),
        Requirement("Partner preflights allow exactly `${methods_text}`, listed in that order.",
                    probes=("methods",),
                    traps=(Edit("every method allowed", "allow_methods=${methods__repr},",
                                'allow_methods=["*"],'),
                           Edit("methods in another order", "allow_methods=${methods__repr},",
                                "allow_methods=list(reversed(${methods__repr})),"))),
        Requirement("Partner preflights allow `X-Api-Key` and `${trace_header}` beside the "
                    "safelisted request headers, answered as `${allow_headers_text}`.",
                    probes=("request_headers",),
                    traps=(Edit("every request header allowed",
                                'allow_headers=["X-Api-Key", "${trace_header}"],',
                                'allow_headers=["*"],'),
                           Edit("trace header not allowed",
                                'allow_headers=["X-Api-Key", "${trace_header}"],',
                                'allow_headers=["X-Api-Key"],'))),
        Requirement("Partner preflights accept private-network requests.",
                    probes=("private_network",),
                    traps=(Edit("private network refused", "    allow_private_network=True,\n",
                                ""),)),
        Requirement("Refused partner preflights are 400 naming every failure in Starlette's "
                    "order.",
                    probes=("several_failures_at_once",),
                    traps=(Edit("refusals answered as 403", "app.mount(\"/partner\", partner)",
                                '''@partner.middleware("http")
async def refuse_as_forbidden(request, call_next):
    response = await call_next(request)
    if request.method == "OPTIONS" and response.status_code == 400:
        return Response("Forbidden", 403, media_type="text/plain")
    return response


app.mount("/partner", partner)'''),)),
        Requirement("Partner preflights may be cached for ${max_age} seconds; the public ones "
                    "for Starlette's default.",
                    probes=("preflight_cache_age",),
                    traps=(Edit("default cache age on the partner API",
                                "    max_age=${max_age},\n", ""),)),
        Requirement("The partner API allows credentials on preflights and responses.",
                    probes=("partner_credentials",),
                    traps=(Edit("partner credentials off", "    allow_credentials=True,\n"
                                "    allow_private_network=True,",
                                "    allow_private_network=True,"),)),
        Requirement("Partner responses, errors included, echo an allowed origin, expose "
                    "`X-Device-Count` and `${trace_header}`, and serve other origins without "
                    "an allowed origin.",
                    probes=("partner_simple_responses",),
                    traps=(Edit("nothing exposed",
                                '    expose_headers=["X-Device-Count", "${trace_header}"],\n',
                                ""),
                           Edit("trace header not echoed",
                                '        response.headers["${trace_header}"] = trace',
                                "        pass"))),
        Requirement("A preflight to any partner path is answered without the API key.",
                    probes=("preflights_need_no_key",),
                    traps=(Edit("key checked before CORS", "app.mount(\"/partner\", partner)",
                                '''@partner.middleware("http")
async def key_first(request, call_next):
    if request.headers.get("x-api-key") != API_KEY:
        return Response('{"detail":"invalid api key"}', 401, media_type="application/json")
    return await call_next(request)


app.mount("/partner", partner)'''),)),
        Requirement("`/public` allows any origin for ${public_methods_text}, with "
                    "${public_credentials_text}, and refuses private-network preflights.",
                    probes=("public_policy",),
                    traps=(Edit("public credentials flipped",
                                "allow_methods=${public_methods__repr},\n"
                                "    allow_credentials=${public_credentials},",
                                "allow_methods=${public_methods__repr},\n"
                                "    allow_credentials=not ${public_credentials},"),
                           Edit("public private network allowed",
                                "allow_credentials=${public_credentials},\n)",
                                "allow_credentials=${public_credentials},\n"
                                "    allow_private_network=True,\n)"),
                           Edit("public methods fixed", "allow_methods=${public_methods__repr},",
                                'allow_methods=["GET", "HEAD"],'))),
        Requirement("`GET /partner/devices` needs the exact key (else 401) and returns the "
                    "devices by id with `X-Device-Count`.",
                    probes=("device_list_needs_key",),
                    traps=(Edit("key case-insensitive", "if x_api_key != API_KEY:",
                                "if (x_api_key or '').strip().lower() != API_KEY.lower():"),
                           Edit("devices in insertion order",
                                "return sorted(DEVICES.values(), key=lambda device: device[\"id\"])",
                                "return list(DEVICES.values())"))),
        Requirement("`PUT /partner/devices/{id}` checks the key first, then the body "
                    "(1-${room_max} characters), then the id, and keeps the change.",
                    probes=("moving_devices",),
                    traps=(Edit("key checked after validation",
                                '@partner.put("/devices/{device_id}", dependencies=[Depends(api_key)])\n'
                                "def move_device(device_id: int, change: RoomChange, response: Response,\n"
                                '                trace: Annotated[str | None, Header(alias="${trace_header}")] = None):\n',
                                '@partner.put("/devices/{device_id}")\n'
                                "def move_device(device_id: int, change: RoomChange, response: Response,\n"
                                '                trace: Annotated[str | None, Header(alias="${trace_header}")] = None,\n'
                                "                x_api_key: Annotated[str | None, Header()] = None):\n"
                                "    api_key(x_api_key)\n"),
                           Edit("room length unchecked",
                                "room: str = Field(min_length=1, max_length=${room_max})",
                                "room: str"),
                           Edit("change not kept", 'DEVICES[device_id]["room"] = change.room\n'
                                "    traced(response, trace)\n    return DEVICES[device_id]",
                                "traced(response, trace)\n"
                                '    return DEVICES[device_id] | {"room": change.room}'))),
    ),
)
