"""The reference core of the service families whose invalid requests are 400 `invalid` naming
the fields (podcast_episodes, print_queue): the error format and role dependency of their
references, their probes' row helpers, and the trap tied to that error handler. Not a family
(modules starting with _ are skipped at load); each reference stays a self-contained app."""

from fastapi_env.tasks import Edit
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import headers_dropped

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
ROW_HELPERS = ROW + '''

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


def router_headers_dropped() -> Edit:
    """A handler for the router's errors that builds its own response loses their headers
    (the 405's `Allow`)."""
    return headers_dropped("router errors lose their headers",
                           "    return failure(exc.status_code, ROUTER_CODES.get(exc.status_code, "
                           '"error"), headers=exc.headers)', ", headers=exc.headers")
