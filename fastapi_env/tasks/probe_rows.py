"""Probe text that turns a response into a row, shared by families of every category.

Not a family: only category directories hold families. Each snippet is Python source pasted
into a probes (or reference) template, so every rendered probe module and reference stays one
self-contained file; the snippets hold no `$`, so they read the same as templates and as text.
The builders make each helper from its parameters (its name, what an empty response shows,
how the JSON body is filtered, which parts of a 422's errors are kept): families differ in
those details and must keep their exact text, since the shipped answer keys depend on it.
"""

# What an empty response shows, for `row_source(empty=...)`.
STATUS = "[r.status_code]"
STATUS_AND_CONTENT_TYPE = '[r.status_code, r.headers.get("content-type")]'


def row_source(name: str = "_row", *, doc: str | None = None, empty: str | None = STATUS,
               body: str = "r.json()") -> str:
    """Source of `<name>(r)`: [status, body], the body being `body` (an expression of
    `r.json()`) or the text when it is not JSON; `empty` (an expression) for a response without
    content, or no such case when None; `doc` its docstring."""
    lines = [f"def {name}(r):"]
    if doc:
        lines.append(f'    """{doc}"""')
    if empty is not None:
        lines += ["    if not r.content:", f"        return {empty}"]
    lines += ["    try:", f"        return [r.status_code, {body}]",
              "    except ValueError:", "        return [r.status_code, r.text]"]
    return "\n".join(lines) + "\n"


def body_source(name: str = "_body", *, empty_is_none: bool = False) -> str:
    """Source of `<name>(r)`: the JSON body, the text when it is not JSON (None when the
    response is empty, with `empty_is_none`)."""
    empty = "    if not r.content:\n        return None\n" if empty_is_none else ""
    return (f"def {name}(r):\n{empty}    try:\n        return r.json()\n"
            "    except ValueError:\n        return r.text\n")


# `_body(r)`: the JSON body, or the text.
BODY = body_source()

# `_row(r)` over `_body(r)` (which `body_source` makes).
ROW_OF_BODY = '''\
def _row(r):
    return [r.status_code, _body(r)]
'''


def error_parts(parts: tuple[str, ...]) -> str:
    """The expression of one FastAPI 422 error `e` reduced to `parts` ("type", "loc"): the
    lone value for one part, a list of them for several."""
    values = [f'e["{part}"]' for part in parts]
    return values[0] if len(values) == 1 else "[" + ", ".join(values) + "]"


def brief_source(parts: tuple[str, ...], *, check_shape: bool = False) -> str:
    """Source of `_brief(r)`: a 422 as [422, its errors reduced to `parts`], since FastAPI's
    wording (and, where a prompt leaves the rule's form open, the error types) is not the
    task's; any other response as `_row(r)`. `check_shape`: only a 422 whose body is FastAPI's
    `{"detail": [...]}` is reduced."""
    shape = ' and isinstance(r.json(), dict) and "detail" in r.json()' if check_shape else ""
    return (f"def _brief(r):\n    if r.status_code == 422{shape}:\n"
            f'        return [422, [{error_parts(parts)} for e in r.json()["detail"]]]\n'
            "    return _row(r)\n")


def without_keys_source(keys: str, *, doc: str) -> str:
    """Source of `_plain(body)`: the body without the keys `keys` (an expression: a tuple
    literal, or a name the probes define) at any depth. Ids and counters depend on what earlier
    checks created, so rows leave them out."""
    return f'''def _plain(body):
    """{doc}"""
    if isinstance(body, list):
        return [_plain(b) for b in body]
    if isinstance(body, dict):
        return {{k: _plain(v) for k, v in body.items() if k not in {keys}}}
    return body
'''


def without_keys_rows(keys: str, *, doc: str, empty: str | None = STATUS) -> str:
    """`_plain` (`without_keys_source`) and a `_row` whose JSON bodies go through it."""
    return (without_keys_source(keys, doc=doc) + "\n\n"
            + row_source(empty=empty, body="_plain(r.json())"))


# The parts of FastAPI's standard 422 a probe compares: each error's type and loc, in order.
ERRORS_TYPE_LOC = f'''def errors(r):
    return [{error_parts(("type", "loc"))} for e in r.json()["detail"]]

'''


def shown_headers_row(names: tuple[str, ...]) -> str:
    """Source of `SHOWN_HEADERS` and `row(r)`: `[status, body, {header: value}]`, the body as
    JSON when the response is a whole JSON document (not empty, not a 206 slice) and as text
    otherwise, the headers those of `names` that the response has (lower-case names)."""
    return f'''SHOWN_HEADERS = {names!r}


def row(r):
    shown = {{name: r.headers[name] for name in SHOWN_HEADERS if name in r.headers}}
    whole_json = (r.headers.get("content-type") == "application/json" and r.content
                  and r.status_code != 206)
    body = r.json() if whole_json else r.text
    return [r.status_code, body, shown]

'''


# --- The snippets families paste, each named for what it holds -------------------------------

# `_row`: [status, body], [status] for an empty response.
ROW = row_source()

# `_row`: [status, body], [status, content type] for an empty response.
ROW_OR_CONTENT_TYPE = row_source(
    doc="[status, body] of a response; [status, content type] when it has no body.",
    empty=STATUS_AND_CONTENT_TYPE)

# `_row` and `_brief`: a 422 as its errors' (type, loc) pairs, where no prompt pins FastAPI's
# messages; an empty body as just the status.
ROWS_422_TYPE_LOC = ROW + "\n\n" + brief_source(("type", "loc"), check_shape=True) + "\n\n"

# `_body`, `_row` and `_brief`: a 422 as its errors' locations only, since their types depend
# on how a rule is written (a pattern or a validator, a Literal or an Enum), which the prompts
# leave open.
ROWS_422_LOC = BODY + "\n\n" + ROW_OF_BODY + "\n\n" + brief_source(("loc",)) + "\n"

# ROWS_422_LOC and `_head`, what a response without a body shows: status, the (empty) body
# and the named headers.
ROWS_422_LOC_AND_HEAD = ROWS_422_LOC + '''

def _head(r, *names):
    return [r.status_code, r.content.decode()] + [r.headers.get(n) for n in names]

'''

# `_body` (None for an empty response) and `_row`.
ROWS_OF_BODY_OR_NONE = body_source(empty_is_none=True) + "\n\n" + ROW_OF_BODY + "\n\n"

# `_plain` and `_row` (no empty case) for probes that define HIDDEN, the keys left out of rows.
ROWS_WITHOUT_HIDDEN = "\n\n" + without_keys_rows(
    "HIDDEN", doc="The body without the HIDDEN keys, at any depth.", empty=None)


def rows_without_ids(id_keys: tuple[str, ...]) -> str:
    """`_plain` and `_row` (an empty response as its status) leaving out `id_keys`."""
    return without_keys_rows(
        repr(id_keys), doc="A body without ids, which depend on what earlier checks created."
    ) + "\n\n"


def rows_without_top_ids(id_keys: tuple[str, ...]) -> str:
    """Probe source: `_row(r)`, a response as [status, body] with the named id keys dropped
    from the body (and from each item of a list body), since ids depend on how many things
    earlier probes created. Unlike `_plain`, the keys go from the top-level objects only."""
    keys = "(" + ", ".join(f'"{key}"' for key in id_keys) + ")"
    return f'''def _without_ids(value):
    """A body without the ids of created things: they depend on what earlier probes made."""
    if isinstance(value, dict):
        return {{k: v for k, v in value.items() if k not in {keys}}}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


''' + row_source(body="_without_ids(r.json())")
