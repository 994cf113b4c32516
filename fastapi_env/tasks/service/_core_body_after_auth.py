"""The reference core of the service families that check the caller before they read the body
(insurance_claims, restaurant_reservations, job_applications): the reference's plumbing
(errors, bearer tokens, roles, JSON bodies read after the caller is known, exact paths, a
complete `Allow`), the probes of those rules, and their traps and requirements. Not a family:
modules starting with `_` are skipped at load. Each reference stays a self-contained app:
`CORE` is text the family's reference template starts with. The traps these families share
with others (lax integers, repeated filters, PATCH nulls, ...) are in
`fastapi_env/tasks/traps.py`.

The rules the plumbing implements are ones where the obvious FastAPI app is silently wrong on
the pinned packages (FastAPI 0.165.0, Starlette 1.10.0, Pydantic 2.14.4), each measured:
- a body parameter is parsed as JSON before any dependency runs, so a malformed body without
  credentials is a validation error, not 401;
- a JSON body without a JSON `Content-Type` is refused (a string fails model validation);
- `/things/` redirects (307) to `/things` unless `redirect_slashes=False`;
- `@app.get` routes do not answer HEAD (405);
- a 405's `Allow` names only the first matching route's methods.
"""

from fastapi_env.tasks import Edit, Requirement
from fastapi_env.tasks.probe_rows import row_source
from fastapi_env.tasks.traps import (
    head_not_served,
    other_validation_status,
    router_errors_in_fastapi_format,
    scheme_case_sensitive,
    slashes_redirected,
    total_of_the_page,
)

CORE = '''\
import json
import re
from datetime import datetime, timezone
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import (AwareDatetime, BaseModel, ConfigDict, Field, StrictInt, ValidationError,
                      field_validator, model_validator)
from starlette.exceptions import HTTPException as StarletteHTTPException

# Paths are exact: a trailing slash is an unknown path, not a redirect.
app = FastAPI(redirect_slashes=False)
INVALID_STATUS = ${invalid_status}
METHOD_ORDER = ("GET", "HEAD", "POST", "PATCH", "DELETE")


class Failure(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def failure(status: int, code: str, headers: dict | None = None, **extra) -> JSONResponse:
    return JSONResponse({"error": code, **extra}, status_code=status, headers=headers)


@app.exception_handler(Failure)
async def on_failure(request: Request, exc: Failure):
    return failure(exc.status, exc.code, exc.headers)


def allowed_methods(path: str) -> str:
    """Every method the routes of this path serve: Starlette's own `Allow` names only the
    methods of the first route whose path matches."""
    served = {method for route in app.routes if getattr(route, "methods", None)
              and route.path_regex.match(path) for method in route.methods}
    return ", ".join(m for m in METHOD_ORDER if m in served)


@app.exception_handler(StarletteHTTPException)
async def on_router_error(request: Request, exc: StarletteHTTPException):
    if exc.status_code == 405:
        return failure(405, "method_not_allowed", {"Allow": allowed_methods(request.url.path)})
    return failure(404, "not_found")


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    names = {str(e["loc"][1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return failure(INVALID_STATUS, "invalid", fields=sorted(names))


def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or token not in TOKENS:
        raise Failure(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


Caller = Annotated[str, Depends(caller)]


def role(*allowed: str):
    def check(name: Caller) -> str:
        if ROLES[name] not in allowed:
            raise Failure(403, "forbidden")
        return name
    return Annotated[str, Depends(check)]


def json_body(model: type[BaseModel]):
    """The request's body as `model`, read once the caller is known and whatever its
    Content-Type: FastAPI's own body parameters parse the JSON before any dependency runs and
    refuse a body without a JSON Content-Type."""
    async def read(request: Request, name: Caller) -> BaseModel:
        try:
            data = json.loads(await request.body())
        except (ValueError, RecursionError):  # nested too deep for json.loads: not JSON either
            raise RequestValidationError([{"type": "json_invalid", "loc": ("body",)}]) from None
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            raise RequestValidationError([{"type": e["type"], "loc": ("body", *e["loc"])}
                                          for e in exc.errors()]) from None
    return Annotated[model, Depends(read)]


def utc_text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_text_only(value):
    """Date-times are ISO 8601 text: Pydantic would also take a number as Unix seconds."""
    if not isinstance(value, str):
        raise ValueError("a date-time is an ISO 8601 string")
    return value

'''

# The prompt's sections for the plumbing: `{error}` etc. are filled by the family.
ACCESS_AND_ERRORS = '''\
## Access
Every request carries `Authorization: Bearer <token>` (the scheme in any letter case, one
space, the token exactly as listed). A missing or unknown token, or another scheme, is 401
`unauthenticated` with the header `WWW-Authenticate: Bearer`, on every route. Routes marked with
roles answer 403 `forbidden` to the other roles. The token is checked first (even when the body
is not valid JSON), then the role, then the request's validity, then the route's own checks in
the order given.

${token_table}

## Requests and errors
Every error body is `{"error": "<code>"}`. An invalid request (body, path or query) is
**${invalid_status}** `invalid` with one more key, `"fields"`: the sorted names, without repeats,
of the invalid body fields or parameters (`"body"` itself when the body is missing, not JSON, not
an object, or fails a rule about the body as a whole; JSON nested 1,000 levels deep or more
counts as not JSON). Unknown body fields are invalid. A body is read as JSON whatever its
`Content-Type` header says (older clients send none).

Paths are exact: a path no route matches, a trailing slash included (`/a/` is not `/a`),
is 404 `not_found` and is never redirected. A known path with a method it does not
serve is 405 `method_not_allowed`, with an `Allow` header listing every method that path serves,
in the order `GET, HEAD, POST, PATCH, DELETE`, joined by `, `. These two come before the token
check. Every `GET` route also answers `HEAD`: the same status and headers, no body.
'''

# Probe source: `_row` ([status] for an empty response), `_code` (a refusal's code or an invalid
# request's fields) and `_bearer` (the header of a token).
ROW_HELPERS = row_source(doc="[status, body] of a response; [status] when it has none.") + '''

def _code(r):
    """[status, error code or the fields of an invalid request] of a response."""
    body = r.json() if r.content else {}
    return [r.status_code, body.get("fields", body.get("error"))]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}
'''


def plumbing_probes(*, exact: list[tuple[str, str]], methods: list[tuple[str, str]],
                    heads: list[str], bodies: list[tuple[str, str]],
                    callers: str = "STAFF, HOLDER") -> str:
    """Probe source for the plumbing rules. `exact`: (method, path with a trailing slash);
    `methods`: (method, path) a path does not serve; `heads`: GET paths (ids as `{id}`, filled
    by `_some_id(client)`, which the family defines); `bodies`: (method, path) taking a JSON
    body, with the same `{id}`; `callers`: the header dicts that send the deeply nested bodies
    to every route of `bodies`, comma-separated (between them, a role each route serves). The family defines
    HOLDER, STAFF (header dicts), CREATE_PATH and `_create_body()` (a body HOLDER may post
    there, again and again) too."""
    return f'''

def probe_exact_paths(client):
    rows = []
    for method, path in {exact!r}:
        for headers in ({{}}, HOLDER):
            r = client.request(method, path, headers=headers, follow_redirects=False)
            rows.append([method, path, _row(r), r.headers.get("location")])
    rows.append(_row(client.get("/nowhere")))
    return rows


def probe_allow(client):
    rows = []
    for method, path in {methods!r}:
        r = client.request(method, path)
        rows.append([method, path, _row(r), r.headers.get("allow")])
    return rows


def probe_head(client):
    some = _some_id(client)
    rows = []
    for template in {heads!r}:
        path = template.replace("{{id}}", str(some))
        got, head = client.get(path, headers=STAFF), client.head(path, headers=STAFF)
        rows.append([template, head.status_code,
                     head.status_code == got.status_code, head.content == b"",
                     [head.headers.get(k) == got.headers.get(k) and k in head.headers
                      for k in ("content-type", "content-length", "x-total-count")
                      if k in got.headers]])
    rows.append([client.head("/nowhere").status_code, client.head({heads[0]!r}).status_code])
    return rows


def probe_token_before_json(client):
    some = _some_id(client)
    rows = []
    for method, template in {bodies!r}:
        path = template.replace("{{id}}", str(some))
        for headers in ({{}}, {{"Authorization": "Bearer nope"}}, STAFF, HOLDER):
            r = client.request(method, path, content=b'{{"oops": ',
                               headers=headers | {{"Content-Type": "application/json"}})
            rows.append([method, template, _code(r),
                         r.headers.get("www-authenticate")])
    return rows


def probe_body_without_content_type(client):
    rows = []
    for content_type in (None, "text/plain", "application/json"):
        headers = HOLDER | ({{"Content-Type": content_type}} if content_type else {{}})
        r = client.post(CREATE_PATH, content=json.dumps(_create_body()).encode(), headers=headers)
        rows.append([content_type, r.status_code, sorted(r.json())])
    r = client.post(CREATE_PATH, content=b"[1, 2]", headers=HOLDER)
    rows.append(_code(r))
    return rows


def probe_deeply_nested_body(client):
    """JSON nested thousands of levels deep counts as not JSON: `body` is invalid (Python's
    json.loads raises RecursionError for it, not a ValueError)."""
    some = _some_id(client)
    deep = {{"array": b"[" * 5000 + b"]" * 5000,
            "object": b'{{"a": ' * 3000 + b"1" + b"}}" * 3000}}
    rows = []
    for method, template in {bodies!r}:
        path = template.replace("{{id}}", str(some))
        for shape, content in deep.items():
            for headers in ({callers},):
                r = client.request(method, path, content=content,
                                   headers=headers | {{"Content-Type": "application/json"}})
                rows.append([method, template, shape, _code(r)])
    return rows
'''


def plumbing_traps(first_get: str, body_param: str, plain_param: str) -> dict[str, tuple]:
    """The mistakes of the plumbing, by requirement: `first_get` is the decorator of a GET
    route (it becomes a plain `@app.get`), `body_param` a route's `name: Type` parameter read by
    `json_body` and `plain_param` the same as FastAPI's own body parameter."""
    return {
        "exact": (slashes_redirected(),),
        "allow": (Edit("Allow of the first matching route",
                       '{"Allow": allowed_methods(request.url.path)}', "exc.headers"),),
        "head": (head_not_served(first_get, "GET route without HEAD"),),
        "json": (Edit("body parsed before the token", body_param, plain_param),),
        "content_type": (Edit("body needs a JSON Content-Type",
                              "        try:\n            data = json.loads(await request.body())",
                              '        try:\n            if "json" not in request.headers.get('
                              '"content-type", ""):\n                raise ValueError\n'
                              "            data = json.loads(await request.body())"),),
        "nesting": (Edit("deep nesting crashes the JSON reader",
                         "        except (ValueError, RecursionError):",
                         "        except ValueError:"),),
        "scheme": (scheme_case_sensitive(),),
        "www_authenticate": (Edit("401 without WWW-Authenticate",
                                  'raise Failure(401, "unauthenticated", {"WWW-Authenticate": '
                                  '"Bearer"})', 'raise Failure(401, "unauthenticated")'),),
        "status": (other_validation_status(),),
    }


def plumbing_requirements(traps: dict[str, tuple], token_trap: Edit,
                          role_traps: tuple[Edit, ...]) -> tuple[Requirement, ...]:
    """The requirements of the plumbing, with `plumbing_traps()` and the family's own trap of
    its tokens and of its roles (the probes `tokens` and `roles` are the family's)."""
    return (
        Requirement("Every route needs `Authorization: Bearer <token>` (scheme in any case, token "
                    "exact): else 401 `unauthenticated` with `WWW-Authenticate: Bearer`.",
                    probes=("tokens",),
                    traps=traps["scheme"] + traps["www_authenticate"] + (token_trap,)),
        Requirement("Role-restricted routes answer 403 `forbidden` to the other roles, before "
                    "validation.",
                    probes=("roles",), traps=role_traps),
        Requirement("Errors are `{\"error\": code}`; invalid requests are ${invalid_status} "
                    "`invalid` with the sorted field names (`body` for JSON nested 1,000 levels "
                    "or more); unknown paths 404 `not_found`.",
                    probes=("error_format", "deeply_nested_body"),
                    traps=traps["status"] + (router_errors_in_fastapi_format(),)
                    + traps["nesting"]),
        Requirement("A trailing slash is an unknown path (404 `not_found`), never a redirect.",
                    probes=("exact_paths",), traps=traps["exact"]),
        Requirement("A 405 `method_not_allowed` lists every method of the path in `Allow`, in "
                    "the stated order.",
                    probes=("allow",), traps=traps["allow"]),
        Requirement("Every GET route answers HEAD with the same status and headers and no body.",
                    probes=("head",), traps=traps["head"]),
        Requirement("The token and role are checked before the body, even a body that is not "
                    "JSON.",
                    probes=("token_before_json",), traps=traps["json"]),
        Requirement("A body is read as JSON whatever its Content-Type.",
                    probes=("body_without_content_type",), traps=traps["content_type"]),
    )


def token_table(params: dict, roles: dict[str, str], prefix_key: str = "tp") -> dict[str, str]:
    """Parameters `t_<key>` (each person's token: the prefix and the name) and `token_table`
    (the prompt's Markdown table of tokens, names and roles), for the people `roles` names by
    their parameter keys."""
    tokens = {f"t_{key}": params[prefix_key] + params[key] for key in roles}
    table = ["| token | name | role |", "|---|---|---|"] + [
        f"| `{tokens['t_' + key]}` | `{params[key]}` | {role} |" for key, role in roles.items()]
    return tokens | {"token_table": "\n".join(table)}


def listed_ids_helper(path: str, limit: str = "LIMIT_MAX") -> str:
    """Probe source: `_ids(client, who, params=None)`, every id a caller lists at `path`, page
    by page (the lists are paged and earlier probes fill them)."""
    return f'''

def _ids(client, who, params=None):
    """Every id a caller lists at {path}, page by page."""
    ids, offset = [], 0
    while True:
        r = client.get("{path}", params=(params or {{}}) | {{"limit": {limit}, "offset": offset}},
                       headers=who)
        ids += [x["id"] for x in r.json()]
        offset += {limit}
        if offset >= int(r.headers["x-total-count"]):
            return ids
'''


# The paging rule the families state alike (its traps are the family's own lines).

def paging_requirement() -> Requirement:
    """Paging by `limit` and `offset` with a total before paging, as the shared prompt states."""
    return Requirement(
        "Pages: `limit` 1-${limit_max} (default ${limit_default}), `offset` >= 0, by id; "
        "`X-Total-Count` counts every match.",
        probes=("pagination",),
        traps=(total_of_the_page(),
               Edit("limit bound off by one", "Query(ge=1, le=LIMIT_MAX)",
                    "Query(ge=1, le=LIMIT_MAX + 1)")))
