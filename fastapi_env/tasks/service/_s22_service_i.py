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


# Reference text both apps share: a refusal exception answered in the `{"error": {...}}` format,
# and validation failures answered with their `where.name` fields (text inside a reference).
REFUSALS = '''class Refusal(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None, **extra):
        self.status, self.code, self.headers, self.extra = status, code, headers, extra


def error_body(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "status": status, **extra}},
                        status_code=status, headers=headers)


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return error_body(exc.status, exc.code, exc.headers, **exc.extra)
'''

INVALID_INPUT = '''@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {".".join(str(part) for part in e["loc"][:2]) for e in exc.errors()}
    return error_body(INVALID_STATUS, "invalid_input", fields=sorted(fields))
'''


# Reference text: a response as a `result` row, whatever its body (HTML, none, JSON).
RESULT_ROW = '''def row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]
'''


def roles_block(authenticate: str, anyone: str, roles: dict[str, str]) -> str:
    """Reference text: a `role(required)` dependency over the `authenticate` dependency (403
    `forbidden` to the other role) and the aliases the routes name (`Curator`: "curator")."""
    aliases = "".join(f'{alias} = Annotated[dict, Depends(role("{name}"))]\n'
                      for alias, name in roles.items())
    return f'''def role(required: str):
    def check(user: Annotated[dict, Depends({authenticate})]) -> dict:
        if user["role"] != required:
            raise Refusal(403, "forbidden")
        return user
    return check


{anyone} = Annotated[dict, Depends({authenticate})]
{aliases}'''


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


def whole_location_fields() -> Edit:
    """Validation fields written with the whole location (`query.language.0`), not two parts."""
    return Edit("fields keep the whole location", 'for part in e["loc"][:2]) for e in exc.errors()}',
                'for part in e["loc"]) for e in exc.errors()}')


def role_not_checked(name: str, alias: str, required: str, anyone: str) -> Edit:
    """A role alias that accepts every signed-in user (`Curator = AnyUser`)."""
    return Edit(name, f'{alias} = Annotated[dict, Depends(role("{required}"))]',
                f"{alias} = {anyone}")


def ids_reused(name: str, before: str, store: str, counter: str) -> Edit:
    """Ids taken as one more than the largest live one: a deleted last id comes back.
    `before` is the reference's text up to the record's `{"id": NEXT[counter]`."""
    return Edit(name, f'{before}{{"id": NEXT["{counter}"]',
                f'{before}{{"id": max({store}, default=0) + 1')


def checks_swapped(checks: dict[str, str], param: str):
    """The `for check in (...)` line of the instance with the other refusal first."""
    def swapped(p):
        other = next(key for key in checks if key != p[param])
        return "for check in " + checks[other] + ":"
    return swapped
