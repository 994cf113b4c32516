"""Reference text of the security families that answer every error as `{"error": <code>}`
(report_builder, login_redirects, invite_links), and a prompt's Markdown table. Not a family
(the leading underscore keeps it from loading as one); each reference stays a self-contained
app. Their probes' `_body` and `_row` are `probe_rows.ROWS_OF_BODY_OR_NONE`."""

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
