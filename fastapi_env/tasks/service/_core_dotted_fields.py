"""The reference core of the service families whose invalid requests are 422 `invalid_request`
with dotted locations (laboratory_samples, travel_itineraries): the head of their references (bearer tokens, one `{"error": code}` format, router errors
that keep their headers, GET routes that answer HEAD, no trailing-slash redirects, JSON bodies
read without a Content-Type, a body that is not JSON refused only after the token and the role),
the probes of those behaviours, and their requirements.

Each family's parameters must define: `list_path` (its main collection, GET and POST),
`post_only` (a path served by POST only), `item_path` (an item of the collection that does not
exist), `plain_body` (a valid creation body for `list_path`, as JSON), `plain_keys` (fields of
the created object to compare), `bad_query` (a query string the list refuses) and
`auth_routes` (`[method, path]` pairs, as JSON). Probes are
templates run in the sandbox, so what they share is source text."""

from fastapi_env.tasks import Edit, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW_OR_CONTENT_TYPE
from fastapi_env.tasks.traps import (
    head_not_served,
    headers_dropped,
    router_errors_in_fastapi_format,
    scheme_case_sensitive,
    slashes_redirected,
)

# The reference's head: the family adds its TOKENS table, models and routes after it.
REFERENCE_HEAD = '''\
import json
from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictInt,
                      field_validator)
from starlette.exceptions import HTTPException as StarletteHTTPException

# Starlette would redirect `/x/` to `/x` (307), and FastAPI refuses to read a JSON body that
# comes without a Content-Type: the spec wants neither.
app = FastAPI(redirect_slashes=False, strict_content_type=False)


''' + late_body.ROUTE_CLASS + '''

class Refused(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def error(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": code, **extra}, status_code=status, headers=headers)


@app.exception_handler(Refused)
async def on_refused(request: Request, exc: Refused):
    return error(exc.status, exc.code, exc.headers)


ROUTER_CODES = {404: "not_found", 405: "method_not_allowed"}


@app.exception_handler(StarletteHTTPException)
async def on_router_error(request: Request, exc: StarletteHTTPException):
    # The router's 405 carries `Allow`: a handler that builds its own response must keep it.
    return error(exc.status_code, ROUTER_CODES.get(exc.status_code, "error"), exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {".".join(str(part) for part in e["loc"]) for e in exc.errors()}
    return error(422, "invalid_request", fields=sorted(fields))


def readable(path: str):
    """A GET route that answers HEAD too (FastAPI's `@app.get` alone answers HEAD with 405)."""
    return app.api_route(path, methods=["GET", "HEAD"])


def caller(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or token not in TOKENS:
        raise Refused(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


Caller = Annotated[dict, Depends(caller)]


def trimmed(value):
    return value.strip() if isinstance(value, str) else value


def row(r):
    """A `result` row: [status, body], or [status] for an empty body."""
    return [r.status_code, r.json()] if r.content else [r.status_code]


def allowed(*roles: str):
    """The caller, refused with 403 unless their role is one of `roles`: a dependency, so it
    runs before the request's parameters and body are validated."""
    def check(who: Caller) -> dict:
        if who["role"] not in roles:
            raise Refused(403, "forbidden")
        return who
    return Depends(check)
'''

# The rules above as prompt text (a family's "Requests and errors" section ends with it).
PROMPT_RULES = '''\
- Every route needs `Authorization: Bearer <token>` with a token from the table; the word
  `Bearer` is matched without regard to case, the token exactly. Otherwise: 401
  `unauthenticated` with the header `WWW-Authenticate: Bearer`.
- Every error body is exactly `{"error": "<code>"}`, except validation failures: 422
  `{"error": "invalid_request", "fields": [...]}` where `fields` lists, sorted and without
  repeats, each invalid location as its parts joined with `.` (`body.${field_example}`,
  `query.${query_example}`, `path.${id_name}`, or just `body` when the body is missing, is not
  JSON, or is not an object).
  Unknown body fields are invalid on every route that takes a body.
- A path that matches no route is 404 `not_found`, whatever the credentials; a known path with a
  method it does not serve is 405 `method_not_allowed` with an `Allow` header naming the
  methods it serves (e.g. `Allow: POST` on `${post_only}`). Paths never end in `/`: `${list_path}/`
  is an unknown path (404), never a redirect.
- Every GET route also answers `HEAD` with the status and headers the GET would have (the same
  `Content-Type` and `Content-Length`) and an empty body; errors included.
- Request bodies are JSON. A body sent without any `Content-Type` header is read as JSON all the
  same; `Content-Type: application/json` works of course.
- Checks run in this order: the token; then the role (403 `forbidden` for a route your role may
  not use); then validation (422); then the route's own checks in the order listed. A body that
  is not JSON is invalid like any other: it too is refused only after the token and the role.
'''

# Probe source: `_row`, `_code` and the probes of the rules in PROMPT_RULES.
PROBES_HEAD = "import json\n\n\n" + ROW_OR_CONTENT_TYPE + '''

def _code(r, *keys):
    """[status, error code, fields] of a refusal; [status] and the given keys of an object."""
    try:
        body = r.json()
    except ValueError:
        return [r.status_code]
    if isinstance(body, dict) and "error" in body:
        return [r.status_code, body["error"], body.get("fields")]
    if isinstance(body, dict) and keys:
        return [r.status_code] + [body.get(key) for key in keys]
    return [r.status_code]


def probe_bearer_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer"},
                    {"Authorization": "Bearer nope"}, {"Authorization": "${tok_a}"},
                    {"Authorization": "Basic ${tok_a}"}, {"Authorization": "Bearer ${name_a}"},
                    {"Authorization": "Bearer ${tok_a}x"}]:
        for method, path in ${auth_routes}:
            r = client.request(method, path, headers=headers, json={})
            rows.append([method, path, _row(r), r.headers.get("www-authenticate")])
    for scheme in ["bearer", "BEARER", "Bearer"]:
        r = client.get("${list_path}", headers={"Authorization": f"{scheme} ${tok_a}"})
        rows.append([scheme, r.status_code])
    return rows


def probe_router_errors(client):
    rows = []
    for headers in [A, {}]:
        for method, path in [("GET", "/nowhere"), ("POST", "${list_path}/x/y/z"),
                             ("GET", "${post_only}"), ("DELETE", "${post_only}"),
                             ("PUT", "${list_path}")]:
            r = client.request(method, path, headers=headers)
            allow = r.headers.get("allow") if path == "${post_only}" else "-"
            rows.append([method, path, _row(r), allow])
    return rows


def probe_trailing_slash(client):
    rows = []
    for method, path in [("GET", "${list_path}/"), ("POST", "${list_path}/"),
                         ("GET", "${item_path}/")]:
        r = client.request(method, path, headers=A, json=${plain_body}, follow_redirects=False)
        rows.append([method, path, _row(r), r.headers.get("location")])
    return rows


def probe_head_requests(client):
    rows = []
    for path, headers in [("${list_path}", A), ("${item_path}", A), ("${list_path}", {}),
                          ("${list_path}${bad_query}", A)]:
        got, head = client.get(path, headers=headers), client.head(path, headers=headers)
        rows.append([path, head.status_code, head.status_code == got.status_code,
                     head.headers.get("content-type"),
                     head.headers.get("content-length") == got.headers.get("content-length"),
                     head.content == b"", head.headers.get("www-authenticate")])
    return rows


def probe_body_without_content_type(client):
    created = client.post("${list_path}", content=json.dumps(${plain_body}).encode(), headers=A)
    body = created.json()
    rows = [[created.status_code, [body.get(key) for key in ${plain_keys}]]]
    typed = client.post("${list_path}", content=b"[1]", headers=A | {"Content-Type": "application/json"})
    rows.append(_code(typed))
    return rows
'''


def common_requirements() -> tuple[Requirement, ...]:
    """The requirements of the rules in PROMPT_RULES (the validation format is the family's)."""
    return (
        Requirement("Every route needs `Authorization: Bearer <token>` (scheme in any case, "
                    "token exact): else 401 `unauthenticated` with `WWW-Authenticate: Bearer`.",
                    probes=("bearer_tokens",),
                    traps=(Edit("no challenge header",
                                '{"WWW-Authenticate": "Bearer"})', ")"),
                           scheme_case_sensitive())),
        Requirement("Unknown paths are 404 `not_found` and other methods 405 "
                    "`method_not_allowed` with `Allow`, in the `{\"error\"}` format.",
                    probes=("router_errors",),
                    traps=(router_errors_in_fastapi_format(),
                           headers_dropped("router headers dropped",
                                           'ROUTER_CODES.get(exc.status_code, "error"), '
                                           'exc.headers)'))),
        Requirement("A trailing slash is an unknown path: 404 `not_found`, never a redirect.",
                    probes=("trailing_slash",),
                    traps=(slashes_redirected("app = FastAPI(redirect_slashes=False, "
                                              "strict_content_type=False)"),)),
        Requirement("Every GET route answers HEAD with the GET's status and headers and no body.",
                    probes=("head_requests",),
                    traps=(head_not_served('return app.api_route(path, methods=["GET", "HEAD"])',
                                           "GET routes refuse HEAD"),)),
        Requirement("A JSON body without a `Content-Type` header is read as JSON.",
                    probes=("body_without_content_type",),
                    traps=(Edit("bodies need a Content-Type",
                                "app = FastAPI(redirect_slashes=False, strict_content_type=False)",
                                "app = FastAPI(redirect_slashes=False)"),)),
    )


def credentials_before_json_requirement() -> Requirement:
    """The check order of PROMPT_RULES for a body that is not JSON; the family's probes paste
    `body_after_credentials.probe_source(...)` over its body routes."""
    return Requirement("The token and the role are checked before the body, even a body that is "
                       "not JSON (then 422 `invalid_request` naming `body`).",
                       probes="credentials_before_json", traps=late_body.body_decoded_first())


def validation_format_requirement() -> Requirement:
    """The 422 format of PROMPT_RULES; the family's `probe_validation_format` checks it."""
    return Requirement(
        "Validation failures are 422 `invalid_request` with the sorted, distinct dotted "
        "locations in `fields`.",
        probes=("validation_format",),
        traps=(Edit("fields in FastAPI's order",
                    "    fields = {\".\".join(str(part) for part in e[\"loc\"]) for e in exc.errors()}\n"
                    "    return error(422, \"invalid_request\", fields=sorted(fields))",
                    "    fields = [\".\".join(str(part) for part in e[\"loc\"]) for e in exc.errors()]\n"
                    "    return error(422, \"invalid_request\", fields=list(dict.fromkeys(fields)))"),))
