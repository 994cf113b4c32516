"""A JSON body read after the caller's credentials and role, for families whose references
keep FastAPI's own body parameters (docs/authoring-tasks.md lists them):
the reference text, its trap and its probe. Not a family: only category directories hold
families. (The service families of `service/_core_body_after_auth.py` read their bodies in a
dependency of their own instead.)

Measured on the pins (FastAPI 0.165.0): a route with a body parameter decodes the JSON before
any dependency runs, so a malformed body without credentials answers 422 (`loc` `["body",
<offset of the decode error>]`) instead of 401/403, while a well-formed invalid body is
validated after the dependencies. `ROUTE_CLASS` makes a body that does not decode reach
validation as its bytes, after the dependencies ran: 401, 403, then the
validation error with the location `["body"]` (no offset), as for a body of another
Content-Type. `route_class(fastapi_error=True)` (recipe_box, whose prompt promises FastAPI's
standard 422 bodies) answers such a body after the dependencies with FastAPI's own error for it
(`json_invalid` at `["body", <offset>]`).
"""

from fastapi_env.tasks import Edit

# Reference text: the import `ROUTE_CLASS` needs (with `Request`, which the references import).
IMPORT = "from fastapi.routing import APIRoute\n"

# Reference text: the two classes, for a module that creates its own APIRouter(route_class=
# CallerFirstRoute) (an included router keeps its own route class: app.router's does not reach it).
ROUTE_CLASSES = '''class JSONReadLate(Request):
    """A body that does not decode as JSON reaches validation as its bytes, as a body of
    another Content-Type does (a model refuses them, at the location `body`)."""

    async def json(self):
        try:
            return await super().json()
        except ValueError:
            return await self.body()


class CallerFirstRoute(APIRoute):
    """FastAPI decodes a JSON body before any dependency runs, so a malformed body would be a
    validation error before the credentials and the role are checked: here it reaches
    validation like any other invalid body, after the dependencies."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def route_handler(request: Request):
            return await handler(JSONReadLate(request.scope, request.receive))
        return route_handler
'''

# Reference text, after `app = FastAPI(...)` and before the first route.
ROUTE_CLASS = ROUTE_CLASSES + '''

app.router.route_class = CallerFirstRoute
'''


def route_class(fastapi_error: bool = False) -> str:
    """Reference text, after `app = FastAPI(...)` and before the first route.

    `fastapi_error=False` (`ROUTE_CLASS`): a body that does not decode reaches validation as its
    bytes (a model refuses them at the location `body`). `fastapi_error=True`, for a prompt that
    promises FastAPI's standard 422 bodies: after the dependencies, a body that did not decode
    is FastAPI's own answer to it (422 `json_invalid` at `["body", <offset>]`, or 400 "There was
    an error parsing the body" for bytes that are not text); the reference then imports `json`,
    `HTTPException` and `RequestValidationError` too."""
    if not fastapi_error:
        return ROUTE_CLASS
    return '''class JSONReadLate(Request):
    """A body that does not decode as JSON reaches validation as its bytes (a model refuses
    them); the decode error is kept, for the route to answer it as FastAPI does."""

    decode_error: ValueError | None = None

    async def json(self):
        try:
            return await super().json()
        except ValueError as exc:
            self.decode_error = exc
            return await self.body()


class CallerFirstRoute(APIRoute):
    """FastAPI decodes a JSON body before any dependency runs, so a malformed body would be a
    validation error before the credentials and the role are checked: here the dependencies
    run first, then a body that did not decode gets FastAPI's own error for it."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def route_handler(request: Request):
            late = JSONReadLate(request.scope, request.receive)
            try:
                return await handler(late)
            except RequestValidationError:
                error = late.decode_error
                if error is None:
                    raise
                if not isinstance(error, json.JSONDecodeError):
                    raise HTTPException(400, "There was an error parsing the body") from None
                raise RequestValidationError([{
                    "type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error",
                    "input": {}, "ctx": {"error": error.msg}}]) from None
        return route_handler


app.router.route_class = CallerFirstRoute
'''


def body_decoded_first() -> Edit:
    """The trap: FastAPI's own order, a malformed JSON body refused before the credentials."""
    return Edit("malformed body refused before the credentials",
                "app.router.route_class = CallerFirstRoute\n", "")


def probe_source(routes: list[tuple[str, str]], callers: list[tuple[str, str]],
                 row: str = "_row", prepare: str = "") -> str:
    """Probe source `probe_credentials_before_json`: each (method, path) of `routes` sent two
    bodies that are not JSON (a cut-off object and plain text, as `application/json`) by each
    caller of `callers` ((label, expression of the request's header dict), say no key, a key
    of the wrong role, a key of the right role), each as `<row>(response)`. `prepare`: source
    lines (indented four spaces) run first, e.g. to sign in."""
    pairs = ", ".join(f"({label!r}, {expr})" for label, expr in callers)
    return f'''

def probe_credentials_before_json(client):
{prepare}    rows = []
    for method, path in {routes!r}:
        for who, headers in ({pairs}):
            for content in (b'{{"a": ', b"not json"):
                r = client.request(method, path, content=content,
                                   headers=headers | {{"Content-Type": "application/json"}})
                rows.append([method, path, who, content.decode(), {row}(r)])
    return rows
'''
