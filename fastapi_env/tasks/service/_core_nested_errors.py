"""The reference core of the service families whose errors are a nested object
`{"error": {"code", "status", ...}}` and whose users log in for a token (museum_tours,
garden_plots): their probes' helpers, the refusal and validation handlers and role aliases of
their references, and the traps tied to that text. The traps of pitfalls they state alike with
other families are in `fastapi_env/tasks/traps.py`. A module whose name starts with `_` is not
a family."""

from fastapi_env.tasks import Edit
from fastapi_env.tasks.probe_rows import ROW, row_source

# Probe helpers (text prepended to a family's probes template): a response as a row, whatever
# its body, and the parts of a response a header-sensitive requirement compares.
PROBE_HELPERS = ROW + '''

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
RESULT_ROW = row_source("row")


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


def whole_location_fields() -> Edit:
    """Validation fields written with the whole location (`query.language.0`), not two parts."""
    return Edit("fields keep the whole location", 'for part in e["loc"][:2]) for e in exc.errors()}',
                'for part in e["loc"]) for e in exc.errors()}')


def role_not_checked(name: str, alias: str, required: str, anyone: str) -> Edit:
    """A role alias that accepts every signed-in user (`Curator = AnyUser`)."""
    return Edit(name, f'{alias} = Annotated[dict, Depends(role("{required}"))]',
                f"{alias} = {anyone}")
