"""Trap builders shared by families of every category: each makes the `Edit` of one plausible
mistake from the family's own line of its reference (and, for ordered checks, the parameters
that go with the trap). Not a family: only category directories hold families.

A trap is the reference with `old` replaced by `new`, so each builder keeps the exact text it
always produced: the shipped answer keys hold every trap's workspace.
"""

from fastapi_env.tasks.family import Edit

_FORBID = '    model_config = ConfigDict(extra="forbid")'
_IGNORE = '    model_config = ConfigDict(extra="ignore")'


def extras_ignored(name: str, model: str, base: str = "BaseModel") -> Edit:
    """Mass assignment let through: the body model `model` silently drops the fields it does
    not list instead of refusing them (422), so a body carrying `owner` or `role` is accepted.
    A model stating `extra="forbid"` itself (under `BaseModel`) has it rewritten; one that
    inherits it from `base` gets its own config."""
    header = f"class {model}({base}):\n"
    if base == "BaseModel":
        return Edit(name, header + _FORBID, header + _IGNORE)
    return Edit(name, header, header + _IGNORE + "\n")


def unknown_fields_ignored(model: str) -> Edit:
    """`extras_ignored` of `model`, named after it."""
    return extras_ignored(f"{model} ignores unknown fields", model)


def router_errors_in_fastapi_format(name: str = "router errors in FastAPI's format") -> Edit:
    """A handler registered for FastAPI's HTTPException instead of Starlette's: the router's own
    404 and 405 are Starlette's exceptions, so they keep FastAPI's default body."""
    return Edit(name, "@app.exception_handler(StarletteHTTPException)",
                "@app.exception_handler(__import__('fastapi').HTTPException)")


def headers_dropped(name: str, call: str, arg: str = ", exc.headers") -> Edit:
    """A handler that builds its own response without the exception's headers, so the
    router's 405 loses its `Allow`. `call` is the reference's text passing them as `arg` just
    before its closing parenthesis."""
    return Edit(name, call, call.replace(arg + ")", ")"))


def router_error_traps(answer_call: str) -> tuple[Edit, Edit]:
    """Two mistakes of an app that formats its own errors: `router_errors_in_fastapi_format`,
    and `headers_dropped` of the reference's `return ...(exc.status_code, code, exc.headers)`
    line `answer_call`."""
    return router_errors_in_fastapi_format(), headers_dropped("Allow dropped", answer_call)


def other_validation_status() -> Edit:
    """The validation status fixed at the value of the other instances (parameter
    `invalid_status`, 422 or 400; the reference says `INVALID_STATUS = ${invalid_status}`)."""
    return Edit("validation status fixed at the other value",
                "INVALID_STATUS = ${invalid_status}",
                lambda p: f"INVALID_STATUS = {422 if p['invalid_status'] == 400 else 400}")


def slashes_redirected(app_call: str = "app = FastAPI(redirect_slashes=False)",
                       name: str = "trailing slashes redirected") -> Edit:
    """FastAPI's default: `/path/` is a 307 redirect to `/path`, not a 404. `app_call` is the
    reference's text creating the app with `redirect_slashes=False`, which the trap drops."""
    plain = app_call.replace("redirect_slashes=False, ", "").replace("redirect_slashes=False", "")
    return Edit(name, app_call, plain)


def head_not_served(decorator: str, name: str = "HEAD not served") -> Edit:
    """A GET route declared with `get(` instead of `api_route(..., methods=["GET", "HEAD"])`:
    FastAPI does not add HEAD to it (405). `decorator` is the reference's declaring text."""
    return Edit(name, decorator, decorator.replace("api_route(", "get(")
                .replace(', methods=["GET", "HEAD"]', ""))


def head_left_out_of_methods(count: int) -> Edit:
    """The `count` routes declared with `methods=["GET", "HEAD"]` serve GET only: FastAPI
    answers HEAD on them with 405 (`head_not_served` turns one route into `get(`)."""
    return Edit("GET routes do not answer HEAD", 'methods=["GET", "HEAD"]', 'methods=["GET"]',
                count=count)


def scheme_case_sensitive() -> Edit:
    """The `Bearer` scheme compared with its letter case."""
    return Edit("scheme case-sensitive", 'scheme.lower() != "bearer"', 'scheme != "Bearer"')


def ids_reused(name: str, before: str, store: str, counter: str) -> Edit:
    """Ids taken as one more than the largest live one: a deleted last id comes back.
    `before` is the reference's text up to the record's `{"id": NEXT[counter]`."""
    return Edit(name, f'{before}{{"id": NEXT["{counter}"]',
                f'{before}{{"id": max({store}, default=0) + 1')


def ids_recomputed(name: str, creation: str, counter: str, table: str) -> Edit:
    """Ids computed from what is stored: a deleted last id comes back. `creation` is the start
    of the line that builds the new object with `counter` (a variable the trap assigns)."""
    return Edit(name, creation, f"{counter} = max({table}, default=0) + 1\n    {creation}")


def without_location(name: str, line: str) -> Edit:
    """A created thing's Location header left out (`line` is the statement setting it)."""
    return Edit(name, f"    {line}\n", "")


# --- Two refusals whose order an instance chooses -------------------------------------------

def check_order(order: str, functions: dict[str, str], codes: dict[str, str],
                key: str) -> dict[str, str]:
    """Parameters for two refusals whose order an instance chooses: `order` names them
    ("a,b"); `key` receives the reference's tuple of check functions (with a trailing comma,
    so that it is a tuple inside parentheses), first_check and second_check the prompt's
    codes. `checks_reversed(name, key)` is the trap."""
    names = order.split(",")
    return {key: ", ".join(functions[n] for n in names) + ",",
            "first_check": f"`{codes[names[0]]}`", "second_check": f"`{codes[names[1]]}`"}


def checks_reversed(name: str, key: str) -> Edit:
    """The two ordered refusals of `check_order` answered the other way round."""
    return Edit(name, f"    for check in (${{{key}}}):",
                f"    for check in reversed((${{{key}}})):")


def checks_of_the_other_order(checks: dict[str, str], param: str):
    """An `Edit.new` for a reference whose `for check in <checks[p[param]]>:` line depends on
    the parameter `param`: the line of the instance with the other refusal first."""
    def swapped(p):
        other = next(key for key in checks if key != p[param])
        return "for check in " + checks[other] + ":"
    return swapped


# --- Pydantic and query parameters on the pinned packages ------------------------------------

def pattern_checked_before_case(field: str, case: str, pattern: str) -> Edit:
    """The natural field: Pydantic's StringConstraints checks `pattern` before `to_lower` or
    `to_upper` (but after stripping). `pattern` is template text (`$$` for an end anchor)."""
    return Edit(f"pattern checked before {case.replace('to_', '')}-casing", f"    {field}: str\n",
                f"    {field}: Annotated[str, __import__('pydantic').StringConstraints("
                f"strip_whitespace=True, {case}=True, pattern=r'{pattern}')]\n")


def lax_integers(line: str) -> Edit:
    """`line` declares a StrictInt field: Pydantic's plain int takes `"3"`, `3.0` and `true`."""
    return Edit("lax integers", line, line.replace("StrictInt", "int", 1))


def repeated_filter_traps(line: str, what: str, item: str) -> tuple[Edit, Edit]:
    """`line` declares a repeatable query parameter `Annotated[list[<item>] | None, Query()]`:
    without `Query()` a list is read from the body; a scalar keeps only the last value."""
    plain = line.replace(f"Annotated[list[{item}] | None, Query()]", f"list[{item}] | None")
    scalar = line.replace(f"list[{item}] | None", f"{item} | None")
    return Edit(f"{what} read from the body", line, plain), Edit(f"one {what} only", line, scalar)


def total_of_the_page() -> Edit:
    """`X-Total-Count` counted after paging instead of before."""
    return Edit("total of the page",
                '    response.headers["X-Total-Count"] = str(len(shown))\n'
                "    return shown[offset:offset + limit]",
                "    page = shown[offset:offset + limit]\n"
                '    response.headers["X-Total-Count"] = str(len(page))\n'
                "    return page")


def null_fields_ignored(target: str) -> Edit:
    """A PATCH applied with exclude_none: an explicit null (which clears) is dropped."""
    return Edit("null fields ignored",
                f"{target}.update(change.model_dump(include=change.model_fields_set))",
                f"{target}.update(change.model_dump(exclude_none=True))")


def empty_edits_accepted() -> Edit:
    """A PATCH model whose "at least one field" validator lets an empty edit through."""
    return Edit("empty edits accepted",
                '            raise ValueError("an edit changes at least one field")\n',
                "            pass\n")
