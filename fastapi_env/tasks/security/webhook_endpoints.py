"""Security tier: webhook endpoints and signed deliveries (8 routes). Hidden probes try server-side
request forgery through callback URLs (numeric IPv4 forms, IPv6, userinfo, localhost names),
forged, malformed and cross-endpoint signatures, signatures over re-serialised JSON, replays,
oversized deliveries, mass assignment of the secret or owner, another owner's endpoints, and
secrets that survive a rotation."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import hashlib
import hmac
import ipaddress
import json
import re
import socket
from typing import Annotated, Literal
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

TOKENS = {"${tok_a}": "${owner_a}", "${tok_b}": "${owner_b}"}
EVENTS = ${events__repr}
SERVER_KEY = b"k-orange"
ENDPOINTS: dict[int, dict] = {}
NEXT_ID = [1]
DELIVERY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

app = FastAPI()
bearer = HTTPBearer(auto_error=False)


''' + late_body.ROUTE_CLASS + '''

class Refusal(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return JSONResponse({"error": exc.code}, status_code=exc.status, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_routing(request: Request, exc: StarletteHTTPException):
    code = "no_route" if exc.status_code == 404 else "method_not_allowed"
    return JSONResponse({"error": code}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


def is_internal(host: str) -> bool:
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:  # every numeric IPv4 form: 127.1, 0x7f.0.0.1, 2130706433, 0177.0.0.1
        address = ipaddress.ip_address(socket.inet_aton(host))
    except OSError:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False  # a DNS name: never resolved
    return not address.is_global


def safe_url(url: str) -> bool:
    parts = urlsplit(url)
    try:
        parts.port
    except ValueError:
        return False
    return (parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
            and parts.username is None and parts.password is None
            and not is_internal(parts.hostname))


def unique_events(events: list[str] | None) -> list[str] | None:
    if events is not None and len(set(events)) != len(events):
        raise ValueError("events repeat")
    return events


class EndpointIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(max_length=200)
    events: list[Literal[${events_literal}]] = Field(min_length=1)

    _events = field_validator("events")(unique_events)


class EndpointPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str | None = Field(None, max_length=200)
    events: list[Literal[${events_literal}]] | None = Field(None, min_length=1)

    _events = field_validator("events")(unique_events)


def owner(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    if creds is None or creds.credentials not in TOKENS:
        raise Refusal(401, "unauthorized", {"WWW-Authenticate": "Bearer"})
    return TOKENS[creds.credentials]


Owner = Annotated[str, Depends(owner)]


def own_endpoint(endpoint_id: int, name: str) -> dict:
    endpoint = ENDPOINTS.get(endpoint_id)
    if endpoint is None or endpoint["owner"] != name:  # another's endpoint does not exist
        raise Refusal(404, "unknown_endpoint")
    return endpoint


def check_url(url: str) -> None:
    if not safe_url(url):
        raise Refusal(${unsafe_status}, "unsafe_url")


def new_secret(endpoint: dict) -> None:
    endpoint["generation"] += 1
    message = f"{endpoint['id']}:{endpoint['generation']}".encode()
    endpoint["secret"] = hmac.new(SERVER_KEY, message, hashlib.sha256).hexdigest()[:32]


def shown(endpoint: dict) -> dict:
    return {"id": endpoint["id"], "url": endpoint["url"], "events": endpoint["events"]}


@app.post("/endpoints", status_code=201)
def create(body: EndpointIn, name: Owner):
    check_url(body.url)
    endpoint = {"id": NEXT_ID[0], "owner": name, "url": body.url, "events": body.events,
                "generation": 0, "deliveries": []}
    NEXT_ID[0] += 1
    new_secret(endpoint)
    ENDPOINTS[endpoint["id"]] = endpoint
    return shown(endpoint) | {"secret": endpoint["secret"]}


@app.get("/endpoints")
def listing(name: Owner):
    return [shown(e) for _, e in sorted(ENDPOINTS.items()) if e["owner"] == name]


@app.get("/endpoints/{endpoint_id}")
def read(endpoint_id: int, name: Owner):
    return shown(own_endpoint(endpoint_id, name))


@app.patch("/endpoints/{endpoint_id}")
def update(endpoint_id: int, body: EndpointPatch, name: Owner):
    endpoint = own_endpoint(endpoint_id, name)
    changes = body.model_dump(exclude_unset=True)
    if any(value is None for value in changes.values()):  # given, but null
        raise Refusal(422, "invalid")
    if "url" in changes:
        check_url(changes["url"])
    endpoint.update(changes)
    return shown(endpoint)


@app.delete("/endpoints/{endpoint_id}", status_code=204)
def delete(endpoint_id: int, name: Owner):
    own_endpoint(endpoint_id, name)
    del ENDPOINTS[endpoint_id]
    return Response(status_code=204)


@app.post("/endpoints/{endpoint_id}/rotate")
def rotate(endpoint_id: int, name: Owner):
    endpoint = own_endpoint(endpoint_id, name)
    new_secret(endpoint)
    return {"id": endpoint["id"], "secret": endpoint["secret"]}


@app.get("/endpoints/{endpoint_id}/deliveries")
def deliveries(endpoint_id: int, name: Owner):
    return own_endpoint(endpoint_id, name)["deliveries"]


def signature_ok(endpoint: dict, delivery_id: str, raw: bytes, given: str | None) -> bool:
    message = delivery_id.encode() + b"." + raw
    expected = "sha256=" + hmac.new(endpoint["secret"].encode(), message, hashlib.sha256).hexdigest()
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def event_of(raw: bytes):
    try:
        payload = json.loads(raw)
    except ValueError:
        return None
    if isinstance(payload, dict) and isinstance(payload.get("event"), str):
        return payload["event"]
    return None


@app.post("/hooks/{endpoint_id}")
async def receive(
    endpoint_id: int,
    request: Request,
    response: Response,
    x_delivery_id: Annotated[str | None, Header()] = None,
    x_signature: Annotated[str | None, Header()] = None,
):
    endpoint = ENDPOINTS.get(endpoint_id)
    if endpoint is None:
        raise Refusal(404, "unknown_endpoint")
    raw = await request.body()  # the signature covers these exact bytes
    if len(raw) > ${max_bytes}:
        raise Refusal(413, "too_large")
    if x_delivery_id is None or not DELIVERY_ID.fullmatch(x_delivery_id):
        raise Refusal(400, "bad_delivery_id")
    if not signature_ok(endpoint, x_delivery_id, raw, x_signature):
        raise Refusal(401, "bad_signature")
    if any(d["delivery_id"] == x_delivery_id for d in endpoint["deliveries"]):
        raise Refusal(409, "replayed")
    event = event_of(raw)
    if event is None:
        raise Refusal(422, "invalid")
    status = "accepted" if event in endpoint["events"] else "ignored"
    endpoint["deliveries"].append({"delivery_id": x_delivery_id, "event": event,
                                   "status": status})
    response.status_code = 202 if status == "accepted" else 200
    return {"status": status, "received": len(endpoint["deliveries"])}


def sign(secret: str, delivery_id: str, raw: bytes) -> dict:
    digest = hmac.new(secret.encode(), delivery_id.encode() + b"." + raw, hashlib.sha256)
    return {"X-Delivery-Id": delivery_id, "X-Signature": "sha256=" + digest.hexdigest()}


def row(r):
    return [r.status_code, r.json() if r.content else None]


client = TestClient(app)
A = {"Authorization": "Bearer ${tok_a}"}
made = client.post("/endpoints", json={"url": "${good_url}", "events": [${first_event__repr}]},
                   headers=A)
secret = made.json()["secret"]
payload = json.dumps({"event": ${first_event__repr}, "data": {"order": 7}}).encode()
result = [
    [made.status_code, {k: v for k, v in made.json().items() if k != "secret"}, len(secret)],
    row(client.post("/endpoints", json={"url": "${bad_url}", "events": [${first_event__repr}]},
                    headers=A)),
    row(client.post("/hooks/1", content=payload, headers=sign(secret, "d-1", payload))),
    row(client.post("/hooks/1", content=payload, headers=sign(secret, "d-1", payload))),
    row(client.get("/endpoints/1/deliveries", headers=A)),
]
'''

PROBES = '''\
import hashlib
import hmac
import json

A = {"Authorization": "Bearer ${tok_a}"}
B = {"Authorization": "Bearer ${tok_b}"}
EVENT, OTHER = ${first_event__repr}, ${other_event__repr}


def _body(r):
    return r.json() if r.content else None


def _challenged(r):
    return [r.status_code, _body(r), r.headers.get("www-authenticate")]


def _endpoint(client, headers=A, url="https://hooks.example.com/in", events=None):
    made = client.post("/endpoints", json={"url": url, "events": events or [EVENT]},
                       headers=headers).json()
    return made["id"], made["secret"]


def _sign(secret, delivery_id, raw):
    digest = hmac.new(secret.encode(), delivery_id.encode() + b"." + raw, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def _deliver(client, endpoint_id, secret, delivery_id, raw, **extra):
    headers = {"X-Delivery-Id": delivery_id, "X-Signature": _sign(secret, delivery_id, raw)}
    return client.post(f"/hooks/{endpoint_id}", content=raw, headers=headers | extra)


def _payload(event=EVENT, **data):
    return json.dumps({"event": event, "data": data}).encode()


def probe_tokens_required(client):
    endpoint_id, _ = _endpoint(client)
    rows = []
    for headers in [{}, {"Authorization": "Bearer"}, {"Authorization": "Bearer nope"},
                    {"Authorization": "Basic ${tok_a}"}, {"Authorization": "Bearer ${tok_a}x"}]:
        for method, path in [("GET", "/endpoints"), ("POST", "/endpoints"),
                             ("GET", f"/endpoints/{endpoint_id}"),
                             ("POST", f"/endpoints/{endpoint_id}/rotate"),
                             ("GET", f"/endpoints/{endpoint_id}/deliveries")]:
            r = client.request(method, path, headers=headers, json={"url": 1})
            rows.append([method, r.status_code, _body(r), r.headers.get("www-authenticate")])
    return rows


def probe_unsafe_urls(client):
    rows = []
    for url in ["http://127.0.0.1/", "http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/",
                "http://0177.0.0.1/", "http://0/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
                "http://[fe80::1]/", "http://LOCALHOST./", "http://api.localhost/x",
                "http://169.254.169.254/latest/meta-data", "http://10.1.2.3/", "http://192.168.0.9/",
                "http://100.64.0.1/", "http://hooks.example.com@127.0.0.1/",
                "http://user:pw@hooks.example.com/", "ftp://hooks.example.com/", "file:///etc/passwd",
                "gopher://hooks.example.com/", "http:///nohost", "http://hooks.example.com:99999/",
                "javascript:alert(1)"]:
        r = client.post("/endpoints", json={"url": url, "events": [EVENT]}, headers=A)
        rows.append([url, r.status_code, _body(r)])
    rows.append([[e["url"] for e in client.get("/endpoints", headers=A).json()
                  if "example" not in e["url"]]])
    return rows


def probe_safe_urls(client):
    rows = []
    for url in ["https://hooks.example.com/in", "HTTP://Hooks.Example.com:8443/a?b=c",
                "http://8.8.8.8/", "http://1.2.3/", "http://[2001:4860::8888]/",
                "http://127.0.0.1.nip.io/", "http://localhost.example.com/"]:
        r = client.post("/endpoints", json={"url": url, "events": [EVENT]}, headers=A)
        rows.append([url, r.status_code, _body(r).get("url", _body(r))])
    return rows


def probe_patch_urls_checked(client):
    endpoint_id, _ = _endpoint(client)
    rows = []
    for body in [{"url": "http://127.1/"}, {"url": "http://[::1]/"}, {"url": None},
                 {"events": None}, {"events": []}, {"url": "https://next.example.com/"},
                 {"events": [OTHER, EVENT]}, {}]:
        r = client.patch(f"/endpoints/{endpoint_id}", json=body, headers=A)
        rows.append([body, r.status_code, {k: v for k, v in _body(r).items() if k != "id"}])
    return rows


def probe_no_mass_assignment(client):
    endpoint_id, secret = _endpoint(client)
    rows = []
    for body in [{"url": "https://x.example.com/", "events": [EVENT], "secret": "0" * 32},
                 {"url": "https://x.example.com/", "events": [EVENT], "owner": "${owner_b}"},
                 {"url": "https://x.example.com/", "events": [EVENT], "id": 1}]:
        r = client.post("/endpoints", json=body, headers=A)
        rows.append([sorted(body), r.status_code, _body(r)])
    for body in [{"secret": "0" * 32}, {"owner": "${owner_b}"}, {"generation": 9}]:
        r = client.patch(f"/endpoints/{endpoint_id}", json=body, headers=A)
        rows.append([sorted(body), r.status_code, _body(r)])
    raw = _payload(n=1)
    rows.append([_deliver(client, endpoint_id, "0" * 32, "mass-1", raw).status_code,
                 _deliver(client, endpoint_id, secret, "mass-2", raw).status_code])
    rows.append([len(client.get("/endpoints", headers=B).json())])
    return rows


def probe_endpoint_validation(client):
    rows = []
    for body in [{"url": "https://v.example.com/"}, {"events": [EVENT]},
                 {"url": "https://v.example.com/", "events": []},
                 {"url": "https://v.example.com/", "events": ["order.unknown"]},
                 {"url": "https://v.example.com/", "events": [EVENT, EVENT]},
                 {"url": "https://v.example.com/" + "a" * 180, "events": [EVENT]},
                 {"url": "https://v.example.com/" + "a" * 178, "events": [EVENT]},
                 {"url": 5, "events": [EVENT]}, ["x"]]:
        r = client.post("/endpoints", json=body, headers=A)
        rows.append([r.status_code, _body(r).get("error", "created")])
    return rows


def probe_owners_isolated(client):
    mine, _ = _endpoint(client, headers=B)
    theirs, their_secret = _endpoint(client, headers=A)
    rows = []
    for method, path, body in [("GET", f"/endpoints/{theirs}", None),
                               ("PATCH", f"/endpoints/{theirs}", {"url": "https://b.example.com/"}),
                               ("DELETE", f"/endpoints/{theirs}", None),
                               ("POST", f"/endpoints/{theirs}/rotate", None),
                               ("GET", f"/endpoints/{theirs}/deliveries", None),
                               ("GET", "/endpoints/99999", None)]:
        r = client.request(method, path, json=body, headers=B)
        rows.append([method, r.status_code, _body(r)])
    rows.append([[e["id"] == mine for e in client.get("/endpoints", headers=B).json()]])
    rows.append([client.get(f"/endpoints/{theirs}", headers=A).json()["url"],
                 _deliver(client, theirs, their_secret, "iso-1", _payload()).status_code])
    return rows


def probe_listing_hides_secrets(client):
    endpoint_id, _ = _endpoint(client, headers=B, url="https://list.example.com/")
    rows = [[client.get("/endpoints", headers=B).json()[-1] == {
        "id": endpoint_id, "url": "https://list.example.com/", "events": [EVENT]}]]
    rows.append([sorted(client.get(f"/endpoints/{endpoint_id}", headers=B).json())])
    return rows


def probe_secrets(client):
    one_id, one = _endpoint(client)
    two_id, two = _endpoint(client)
    rotated = client.post(f"/endpoints/{one_id}/rotate", headers=A).json()
    return [[len(one), all(c in "0123456789abcdef" for c in one), one != two,
             rotated["id"] == one_id, rotated["secret"] != one, len(rotated["secret"])]]


def probe_forged_signatures(client):
    endpoint_id, secret = _endpoint(client)
    other_id, other = _endpoint(client, headers=B)
    raw = _payload(order=1)
    good = _sign(secret, "f-1", raw)
    rows = []
    for label, signature in [("none", None), ("other endpoint's secret", _sign(other, "f-1", raw)),
                             ("upper-case hex", "sha256=" + good[7:].upper()),
                             ("upper-case prefix", "SHA256=" + good[7:]), ("bare hex", good[7:]),
                             ("truncated", good[:-2]), ("empty", ""),
                             ("another delivery id's", _sign(secret, "f-2", raw)),
                             ("the secret as key of plain sha256",
                              "sha256=" + hashlib.sha256(secret.encode() + raw).hexdigest())]:
        headers = {"X-Delivery-Id": "f-1"} | ({} if signature is None else {"X-Signature": signature})
        r = client.post(f"/hooks/{endpoint_id}", content=raw, headers=headers)
        rows.append([label, r.status_code, _body(r)])
    rows.append([_deliver(client, endpoint_id, secret, "f-1", raw).status_code])
    return rows


def probe_raw_body_signed(client):
    endpoint_id, secret = _endpoint(client)
    rows = []
    for number, raw in enumerate([b'{"event":"' + EVENT.encode() + b'","data":{"n":1}}',
                b'{ "event" : "' + EVENT.encode() + b'" ,\\n  "data": {"b": 2, "a": 1} }',
                json.dumps({"data": {"x": "\\u00e9"}, "event": EVENT}, ensure_ascii=False).encode()]):
        r = _deliver(client, endpoint_id, secret, f"raw-{number}", raw)
        rows.append([r.status_code, _body(r)])
    return rows


def probe_replays_refused(client):
    endpoint_id, secret = _endpoint(client)
    other_id, other = _endpoint(client)
    raw = _payload(order=2)
    rows = []
    for target, key, delivery_id in [(endpoint_id, secret, "r-1"), (endpoint_id, secret, "r-1"),
                                     (endpoint_id, secret, "R-1"), (other_id, other, "r-1")]:
        r = _deliver(client, target, key, delivery_id, raw)
        rows.append([delivery_id, r.status_code, _body(r)])
    r = _deliver(client, endpoint_id, secret, "r-2", b"[1, 2]")
    rows.append([r.status_code, _body(r)])
    rows.append([_deliver(client, endpoint_id, secret, "r-2", raw).status_code])
    return rows


def probe_size_bound(client):
    endpoint_id, secret = _endpoint(client)
    rows = []
    for size in [${max_bytes}, ${max_bytes} + 1]:
        head = b'{"event": "' + EVENT.encode() + b'", "data": {"pad": "'
        raw = head + b"x" * (size - len(head) - 3) + b'"}}'
        r = _deliver(client, endpoint_id, secret, f"s-{size}", raw)
        rows.append([len(raw), r.status_code, _body(r)])
    big = b"y" * (${max_bytes} * 4)
    r = client.post(f"/hooks/{endpoint_id}", content=big, headers={"X-Delivery-Id": "s-big"})
    rows.append([r.status_code, _body(r)])
    return rows


def probe_delivery_checks_in_order(client):
    endpoint_id, secret = _endpoint(client)
    raw = _payload()
    rows = []
    for label, path, headers, body in [
            ("unknown endpoint", "/hooks/99999", {}, b"y" * (${max_bytes} + 1)),
            ("too large, no id", f"/hooks/{endpoint_id}", {}, b"y" * (${max_bytes} + 1)),
            ("no delivery id", f"/hooks/{endpoint_id}", {"X-Signature": "sha256=00"}, raw),
            ("bad delivery id", f"/hooks/{endpoint_id}", {"X-Delivery-Id": "has space"}, raw),
            ("long delivery id", f"/hooks/{endpoint_id}", {"X-Delivery-Id": "d" * 65}, raw),
            ("bad signature, not JSON", f"/hooks/{endpoint_id}", {"X-Delivery-Id": "o-1"}, b"{")]:
        r = client.post(path, content=body, headers=headers)
        rows.append([label, r.status_code, _body(r)])
    r = _deliver(client, endpoint_id, secret, "d" * 64, b"not json")
    rows.append([r.status_code, _body(r)])
    r = _deliver(client, endpoint_id, secret, "o-2", b'{"event": 5}')
    rows.append([r.status_code, _body(r)])
    return rows


def probe_events_routed(client):
    endpoint_id, secret = _endpoint(client, events=[OTHER])
    rows = []
    for number, event in enumerate([OTHER, EVENT, "order.unknown", OTHER]):
        r = _deliver(client, endpoint_id, secret, f"e-{number}", _payload(event=event))
        rows.append([event, r.status_code, _body(r)])
    rows.append([client.get(f"/endpoints/{endpoint_id}/deliveries", headers=A).json()])
    return rows


def probe_rotation_and_deletion(client):
    endpoint_id, old = _endpoint(client)
    raw = _payload()
    new = client.post(f"/endpoints/{endpoint_id}/rotate", headers=A).json()["secret"]
    rows = [[_deliver(client, endpoint_id, old, "x-1", raw).status_code,
             _deliver(client, endpoint_id, new, "x-2", raw).status_code]]
    client.delete(f"/endpoints/{endpoint_id}", headers=A)
    rows.append([_deliver(client, endpoint_id, new, "x-3", raw).status_code,
                 client.get(f"/endpoints/{endpoint_id}", headers=A).status_code,
                 client.delete(f"/endpoints/{endpoint_id}", headers=A).status_code])
    again, _ = _endpoint(client)
    rows.append([again > endpoint_id])
    return rows
''' + late_body.probe_source(
    [("POST", "/endpoints"), ("PATCH", "/endpoints/1")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer nope"}'),
     ("owner", "A")], row="_challenged")

PROMPT = '''\
Build the HTTP API of a webhook service: owners register endpoints that receive signed
deliveries. All state is in memory and starts empty.

## Owners
The owner routes (`/endpoints...`) need `Authorization: Bearer <token>`:

| token | owner |
|---|---|
| `${tok_a}` | `${owner_a}` |
| `${tok_b}` | `${owner_b}` |

A missing, malformed or unknown token is 401 `unauthorized` with `WWW-Authenticate: Bearer`,
before anything else (a body that is not JSON included). An owner only ever sees their own
endpoints: another owner's endpoint is answered exactly like one that does not exist (404
`unknown_endpoint`), on every route.

## Errors
An error is `{"error": <code>}`. Invalid bodies (a body that is not JSON included), paths and
queries are 422 `invalid`; a path no route serves is 404 `no_route`, a method a path does not
serve 405 `method_not_allowed`.

## Endpoints
- `POST /endpoints` `{"url", "events"}` and nothing else: `url` a string of at most 200
  characters; `events` a non-empty list, without repeats, of ${events_text}. 201 with
  `{"id", "url", "events", "secret"}`: ids 1, 2, ... in creation order, never given out again;
  `secret` is 32 lowercase hex characters, different for every endpoint and every rotation,
  and the same each time the module runs (no randomness or clock: derive it, for example with
  HMAC from a key in the module). The secret is shown only here and by `rotate`.
- The URL must be safe to call, else ${unsafe_status} `unsafe_url` (checked after the body is
  valid). Read it with `urllib.parse.urlsplit`: the scheme (any case) must be `http` or
  `https`; there must be a host; no user name or password; a port, if given, must be valid.
  The host must not be `localhost` or end in `.localhost` (any case, a trailing dot ignored),
  and must not be an IP address that Python's `ipaddress` does not call global
  (`is_global`). An IPv4 address is any host `socket.inet_aton` accepts, so `127.1`,
  `0x7f.0.0.1`, `2130706433` and `0177.0.0.1` are all 127.0.0.1; IPv6 addresses are written
  in brackets. Any other host is a name: accept it without resolving it.
- `GET /endpoints`: the caller's endpoints, by id, each `{"id", "url", "events"}`.
- `GET /endpoints/{endpoint_id}`: 200 `{"id", "url", "events"}`.
- `PATCH /endpoints/{endpoint_id}` with `url` and/or `events` (same rules; null or any other
  field is invalid; `url` re-checked): 200 `{"id", "url", "events"}`.
- `DELETE /endpoints/{endpoint_id}`: 204 with an empty body; deliveries to it are then 404.
- `POST /endpoints/{endpoint_id}/rotate`: 200 `{"id", "secret"}` with a new secret; the old one
  stops working at once.
- `GET /endpoints/{endpoint_id}/deliveries`: 200, the deliveries recorded for it, oldest first,
  each `{"delivery_id", "event", "status"}`.

## Deliveries
`POST /hooks/{endpoint_id}` needs no token. The request carries `X-Delivery-Id` (1-64
characters of `A-Z`, `a-z`, `0-9`, `_`, `-`) and `X-Signature: sha256=<hex>`, where `<hex>` is
the lowercase hex HMAC-SHA256, keyed with the endpoint's current secret, of the delivery id, a
`.`, then the request body's exact bytes. The body is a JSON object with a string `event`.
Checked in this order:
1. 404 `unknown_endpoint` for an endpoint that does not exist (any owner's);
2. 413 `too_large` for a body over ${max_bytes} bytes;
3. 400 `bad_delivery_id` for a missing or malformed `X-Delivery-Id`;
4. 401 `bad_signature` unless `X-Signature` is exactly right;
5. 409 `replayed` when this endpoint already recorded this delivery id (ids are
   case-sensitive; other endpoints keep their own);
6. 422 `invalid` unless the body is a JSON object with a string `event`.
Then the delivery is recorded with status `accepted` (answered 202) when the endpoint
subscribes to its event, else `ignored` (answered 200), the body being
`{"status", "received"}` with `received` the number of deliveries the endpoint has recorded.

## result
1. `POST /endpoints` as `${owner_a}` with `{"url": "${good_url}", "events": [${first_event__json}]}`:
   the row `[status code, the body without "secret", the length of the secret]`;
2. the same with the url `${bad_url}`; then `[status code, JSON body]` rows for:
3. a delivery to endpoint 1 of the body `json.dumps({"event": ${first_event__json}, "data": {"order": 7}})`
   with delivery id `d-1`, correctly signed;
4. the same delivery again;
5. `GET /endpoints/1/deliveries` as `${owner_a}`.
'''

_EVENT_SETS = [
    {"events": ["order.created", "order.paid", "order.refunded"],
     "first_event": "order.paid", "other_event": "order.refunded"},
    {"events": ["invoice.issued", "invoice.paid", "invoice.voided", "invoice.overdue"],
     "first_event": "invoice.issued", "other_event": "invoice.overdue"},
]

FAMILY = Family(
    id="security/webhook_endpoints",
    title="Webhook endpoints with safe callback URLs and signed, replay-proof deliveries",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"owner_a": "ana", "owner_b": "bo", "tok_a": "tok-ana-1", "tok_b": "tok-bo-2",
              **_EVENT_SETS[0], "max_bytes": 512, "unsafe_status": 400,
              "good_url": "https://hooks.example.com/orders",
              "bad_url": "http://127.1/admin"},
    space={
        # Owner names and tokens never show in a row, so they stay fixed.
        "owners": [{"owner_a": "ana", "owner_b": "bo", "tok_a": "tok-ana-1", "tok_b": "tok-bo-2"}],
        "events": _EVENT_SETS,
        "max_bytes": [512, 1024],
        "unsafe_status": [400, 422],
        "urls": [{"good_url": "https://hooks.example.com/orders", "bad_url": "http://127.1/admin"},
                 {"good_url": "http://8.8.4.4:8080/in", "bad_url": "http://[::ffff:10.0.0.1]/"}],
    },
    derive=lambda p: {"events_literal": ", ".join(repr(e) for e in p["events"]),
                      "events_text": ", ".join(f"`{e}`" for e in p["events"])},
    instances=14,
    requirements=(
        Requirement("Owner routes need a known bearer token: else 401 `unauthorized` with "
                    "`WWW-Authenticate: Bearer`, before anything else.",
                    probes="tokens_required",
                    traps=(Edit("no challenge",
                                'raise Refusal(401, "unauthorized", {"WWW-Authenticate": "Bearer"})',
                                'raise Refusal(401, "unauthorized")'),
                           Edit("token checked after validation",
                                "def create(body: EndpointIn, name: Owner):\n",
                                "def create(body: EndpointIn, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]):\n"
                                "    name = owner(creds)\n"))),
        Requirement("The token is checked before the body, even a body that is not JSON (then "
                    "422 `invalid`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("A URL pointing at this machine or a private network, in any notation, or "
                    "not plain http(s) to a host, is ${unsafe_status} `unsafe_url`.",
                    probes="unsafe_urls", security=True,
                    traps=(Edit("dotted IPv4 only",
                                "        address = ipaddress.ip_address(socket.inet_aton(host))\n    except OSError:",
                                "        address = ipaddress.ip_address(host)\n    except ValueError:"),
                           Edit("userinfo allowed",
                                "            and parts.username is None and parts.password is None\n", ""),
                           Edit("localhost names allowed",
                                '    if name == "localhost" or name.endswith(".localhost"):',
                                '    if host == "localhost":'),
                           Edit("only loopback refused", "    return not address.is_global",
                                "    return address.is_loopback"),
                           Edit("any scheme", 'parts.scheme.lower() in ("http", "https")',
                                "bool(parts.scheme)"))),
        Requirement("Public addresses and names (never resolved) are accepted, any scheme case.",
                    probes="safe_urls",
                    traps=(Edit("names resolved-looking refused", "            return False  # a DNS name: never resolved",
                                '            return "127.0.0.1" in host or "localhost" in name'),
                           Edit("scheme matched as a lower-case prefix",
                                'parts.scheme.lower() in ("http", "https")',
                                'url.startswith(("http://", "https://"))'))),
        Requirement("`PATCH` re-checks a new URL and refuses nulls and unknown fields.",
                    probes="patch_urls_checked", security=True,
                    traps=(Edit("PATCH trusts the URL",
                                '    if "url" in changes:\n        check_url(changes["url"])\n', ""),
                           Edit("PATCH accepts nulls",
                                '    if any(value is None for value in changes.values()):  # given, but null\n'
                                '        raise Refusal(422, "invalid")\n',
                                '    changes = {k: v for k, v in changes.items() if v is not None}\n'))),
        Requirement("No body can set an endpoint's secret, owner or id.",
                    probes="no_mass_assignment", security=True,
                    traps=(extras_ignored("create ignores extra fields", "EndpointIn"),
                           Edit("patch applies any field",
                                'class EndpointPatch(BaseModel):\n    model_config = ConfigDict(extra="forbid")',
                                'class EndpointPatch(BaseModel):\n    model_config = ConfigDict(extra="allow")'))),
        Requirement("Endpoint bodies: url at most 200 characters, events a non-empty list of "
                    "known names without repeats.",
                    probes="endpoint_validation",
                    traps=(Edit("events may repeat", '        raise ValueError("events repeat")\n',
                                "        pass\n"),
                           Edit("url unbounded", "    url: str = Field(max_length=200)\n", "    url: str\n"))),
        Requirement("Another owner's endpoint is 404 `unknown_endpoint` on every owner route.",
                    probes="owners_isolated", security=True,
                    traps=(Edit("any owner reads", 'if endpoint is None or endpoint["owner"] != name:',
                                "if endpoint is None:"),
                           Edit("list shows every endpoint",
                                'return [shown(e) for _, e in sorted(ENDPOINTS.items()) if e["owner"] == name]',
                                "return [shown(e) for _, e in sorted(ENDPOINTS.items())]"))),
        Requirement("Only creation and rotation show a secret.",
                    probes="listing_hides_secrets", security=True,
                    traps=Edit("read shows the secret",
                               "    return shown(own_endpoint(endpoint_id, name))",
                               "    endpoint = own_endpoint(endpoint_id, name)\n"
                               '    return shown(endpoint) | {"secret": endpoint["secret"]}')),
        Requirement("Secrets are 32 lowercase hex characters, distinct per endpoint and rotation.",
                    probes="secrets", security=True,
                    traps=(Edit("secret from the id alone",
                                "    message = f\"{endpoint['id']}:{endpoint['generation']}\".encode()",
                                "    message = f\"{endpoint['id']}\".encode()"),
                           Edit("secret in upper case",
                                'endpoint["secret"] = hmac.new(SERVER_KEY, message, hashlib.sha256).hexdigest()[:32]',
                                'endpoint["secret"] = hmac.new(SERVER_KEY, message, hashlib.sha256).hexdigest()[:32].upper()'))),
        Requirement("A delivery is accepted only with exactly the right signature for this "
                    "endpoint, delivery id and body.",
                    probes="forged_signatures", security=True,
                    traps=(Edit("signature case-insensitive",
                                "return given is not None and hmac.compare_digest(given.encode(), expected.encode())",
                                "return given is not None and given.lower() == expected"),
                           Edit("any endpoint's secret",
                                "    return given is not None and hmac.compare_digest(given.encode(), expected.encode())",
                                "    return given is not None and any(given == \"sha256=\" + hmac.new(e[\"secret\"].encode(), message,"
                                " hashlib.sha256).hexdigest() for e in ENDPOINTS.values())"),
                           Edit("delivery id not signed",
                                '    message = delivery_id.encode() + b"." + raw\n',
                                "    message = raw\n"))),
        Requirement("The signature covers the body's exact bytes, however the JSON is spaced.",
                    probes="raw_body_signed", security=True,
                    traps=Edit("signature over re-serialised JSON",
                               '    message = delivery_id.encode() + b"." + raw\n',
                               '    try:\n        raw = json.dumps(json.loads(raw)).encode()\n    except ValueError:\n        pass\n'
                               '    message = delivery_id.encode() + b"." + raw\n')),
        Requirement("A delivery id already recorded by this endpoint is 409 `replayed`.",
                    probes="replays_refused", security=True,
                    traps=(Edit("replays processed again",
                                '    if any(d["delivery_id"] == x_delivery_id for d in endpoint["deliveries"]):\n'
                                '        raise Refusal(409, "replayed")\n', ""),
                           Edit("delivery ids compared in any case",
                                'if any(d["delivery_id"] == x_delivery_id for d in endpoint["deliveries"]):',
                                'if any(d["delivery_id"].lower() == x_delivery_id.lower() for d in endpoint["deliveries"]):'),
                           Edit("replays counted across endpoints",
                                'if any(d["delivery_id"] == x_delivery_id for d in endpoint["deliveries"]):',
                                'if any(d["delivery_id"] == x_delivery_id for e in ENDPOINTS.values() for d in e["deliveries"]):'))),
        Requirement("A body over ${max_bytes} bytes is 413 `too_large`.",
                    probes="size_bound", security=True,
                    traps=Edit("bound off by one", "    if len(raw) > ${max_bytes}:",
                               "    if len(raw) >= ${max_bytes}:")),
        Requirement("Delivery failures come in the stated order (404, 413, 400, 401, 409, 422).",
                    probes="delivery_checks_in_order",
                    traps=(Edit("signature before the delivery id",
                                '    if x_delivery_id is None or not DELIVERY_ID.fullmatch(x_delivery_id):\n'
                                '        raise Refusal(400, "bad_delivery_id")\n'
                                '    if not signature_ok(endpoint, x_delivery_id, raw, x_signature):\n',
                                '    if not signature_ok(endpoint, x_delivery_id or "", raw, x_signature):\n'
                                '        raise Refusal(401, "bad_signature")\n'
                                '    if x_delivery_id is None or not DELIVERY_ID.fullmatch(x_delivery_id):\n'
                                '        raise Refusal(400, "bad_delivery_id")\n'
                                '    if False:\n'),
                           Edit("delivery ids unbounded", 'DELIVERY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")',
                                'DELIVERY_ID = re.compile(r"[A-Za-z0-9_-]+")'))),
        Requirement("Subscribed events are `accepted` (202), others `ignored` (200); both are "
                    "recorded, oldest first.",
                    probes="events_routed",
                    traps=(Edit("ignored deliveries not recorded",
                                '    status = "accepted" if event in endpoint["events"] else "ignored"\n'
                                '    endpoint["deliveries"].append(',
                                '    status = "accepted" if event in endpoint["events"] else "ignored"\n'
                                '    if status == "accepted":\n        endpoint["deliveries"].append('),
                           Edit("everything accepted", "    response.status_code = 202 if status == \"accepted\" else 200",
                                "    response.status_code = 202"))),
        Requirement("Rotation retires the old secret at once; a deleted endpoint takes no "
                    "deliveries and its id is never reused.",
                    probes="rotation_and_deletion", security=True,
                    traps=(Edit("rotation keeps the secret", "    new_secret(endpoint)\n    return {\"id\"",
                                '    endpoint["generation"] += 1\n    return {"id"'),
                           Edit("ids reused", '    endpoint = {"id": NEXT_ID[0], "owner"',
                                '    NEXT_ID[0] = max(ENDPOINTS, default=0) + 1\n    endpoint = {"id": NEXT_ID[0], "owner"'))),
    ),
)
