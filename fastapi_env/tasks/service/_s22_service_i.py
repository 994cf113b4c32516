"""Pieces shared by the service families of branch s22-service-i (museum_tours, garden_plots):
probe helpers written once, and trap builders for pitfalls of the pinned FastAPI 0.165 /
Pydantic 2.14 that both families state. A module whose name starts with `_` is not a family."""

from fastapi_env.tasks import Edit
from fastapi_env.tasks.service._shared import router_errors_in_fastapi_format

# Probe helpers (text prepended to a family's probes template): a response as a row, whatever
# its body, and the parts of a response a header-sensitive requirement compares.
PROBE_HELPERS = '''\
def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _with_headers(r, *names):
    return _row(r) + [r.headers.get(name) for name in names]


def _login(client, name, password):
    return {"Authorization": "Bearer " + client.post(
        "/login", data={"username": name, "password": password}).json()["token"]}
'''


def router_error_traps(answer_call: str) -> tuple[Edit, Edit]:
    """The router's own 404/405 left in FastAPI's format (a handler for FastAPI's
    HTTPException, not Starlette's), and a handler that drops the 405's `Allow` header.
    `answer_call` is the reference's handler line passing `exc.headers`."""
    return (router_errors_in_fastapi_format(),
            Edit("Allow dropped", answer_call, answer_call.replace(", exc.headers)", ")")))


def slashes_redirected() -> Edit:
    """FastAPI's default: a path with a trailing slash is redirected (307) to the one without."""
    return Edit("trailing slash redirected", "app = FastAPI(redirect_slashes=False)",
                "app = FastAPI()")


def head_not_served(path_decorator: str) -> Edit:
    """A GET route declared with `@app.get`: FastAPI does not add HEAD to it (405)."""
    return Edit("HEAD not served", path_decorator,
                path_decorator.replace('api_route(', 'get(').replace(', methods=["GET", "HEAD"]', ''))


def other_validation_status() -> Edit:
    """The validation status fixed at the value of the other instances (422 or 400)."""
    return Edit("validation status fixed at the other value",
                "INVALID_STATUS = ${invalid_status}",
                lambda p: f"INVALID_STATUS = {422 if p['invalid_status'] == 400 else 400}")


def extras_ignored(name: str, model: str) -> Edit:
    """A body model that ignores the fields the prompt says make the body invalid."""
    return Edit(name, f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="forbid")',
                f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="ignore")')
