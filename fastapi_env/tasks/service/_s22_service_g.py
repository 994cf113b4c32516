"""Helpers shared by the service families of branch s22-service-g (podcast_episodes,
print_queue): probe source text and the traps both make. Not a family (modules starting with _
are skipped at load); each reference stays a self-contained app."""

from fastapi_env.tasks import Edit

# Reference source both apps share (each rendered reference stays one self-contained app): the
# error format `{"error": code}`, with the router's own 404/405 in it and their headers kept
# (the 405's `Allow`), and validation as 400 naming the invalid fields.
ERRORS_SOURCE = '''\
class Failure(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def failure(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": code, **extra}, status_code=status, headers=headers)


@app.exception_handler(Failure)
async def on_failure(request: Request, exc: Failure):
    return failure(exc.status, exc.code, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_router_error(request: Request, exc: StarletteHTTPException):
    return failure(exc.status_code, ROUTER_CODES.get(exc.status_code, "error"), headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    names = {str(e["loc"][1]) if len(e["loc"]) > 1 else str(e["loc"][0]) for e in exc.errors()}
    return failure(400, "invalid", fields=sorted(names))


'''

# Reference source: `role(name)`, a dependency type admitting callers of that role only (after
# `Caller`, the dependency naming the authenticated user).
ROLE_SOURCE = '''\
def role(wanted: str):
    def check(name: Caller) -> str:
        if ROLES[name] != wanted:
            raise Failure(403, "forbidden")
        return name
    return Annotated[str, Depends(check)]


'''

# Probe source: `_row(r)` is [status, body] (body JSON, text, or absent), `_err(r)` the status
# and the error code only, `_fields(r)` the status and an invalid request's field names.
ROW_HELPERS = '''\
def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _err(r):
    try:
        body = r.json()
    except ValueError:
        return [r.status_code, r.text[:40]]
    return [r.status_code, body.get("error") if isinstance(body, dict) else body]


def _fields(r):
    body = r.json()
    return [r.status_code, body.get("error"), body.get("fields")]
'''


def head_not_served(count: int) -> Edit:
    """FastAPI's `@app.get` routes answer HEAD with 405: the natural way to write them."""
    return Edit("GET routes do not answer HEAD", 'methods=["GET", "HEAD"]', 'methods=["GET"]',
                count=count)


def slashes_redirected() -> Edit:
    """FastAPI's default: `/path/` is a 307 redirect to `/path`, not a 404."""
    return Edit("trailing slashes redirected", "FastAPI(redirect_slashes=False)", "FastAPI()")


def router_headers_dropped() -> Edit:
    """A handler for the router's errors that builds its own response loses their headers
    (the 405's `Allow`)."""
    return Edit("router errors lose their headers",
                "    return failure(exc.status_code, ROUTER_CODES.get(exc.status_code, \"error\"), "
                "headers=exc.headers)",
                "    return failure(exc.status_code, ROUTER_CODES.get(exc.status_code, \"error\"))")
