"""What the security families of branch s22-security-d share (report_builder,
login_redirects): the probes' row helpers. Not a family (the leading underscore keeps it from
loading as one); each reference stays a self-contained app."""

# Probe source (a template's prefix, so `$` is written `$$`): `_body` (the JSON body, the text
# when it is not JSON, None when empty) and `_row` (status code and body).
PROBE_ROWS = '''\
def _body(r):
    if not r.content:
        return None
    try:
        return r.json()
    except ValueError:
        return r.text


def _row(r):
    return [r.status_code, _body(r)]


'''


# Reference source: the one error format of every family here, `{"error": <code>}` for
# HTTPException and 422 `invalid` for any validation failure.
ERROR_HANDLERS = '''\
@app.exception_handler(HTTPException)
async def refused(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)
'''


def table(header: list[str], rows: list[list]) -> str:
    """A Markdown table for a prompt: None is written `null`, strings in backticks."""
    def cell(value) -> str:
        return "null" if value is None else f"`{value}`" if isinstance(value, str) else str(value)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
