"""Helpers shared by the service families of branch s22-service-g (podcast_episodes,
print_queue): probe source text and the traps both make. Not a family (modules starting with _
are skipped at load); each reference stays a self-contained app."""

from fastapi_env.tasks import Edit

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
