"""Traps that recur across service families, written once. A module whose name starts with `_`
is not a family."""

from fastapi_env.tasks import Edit


def router_errors_in_fastapi_format(name: str = "router errors in FastAPI's format") -> Edit:
    """A handler registered for FastAPI's HTTPException instead of Starlette's: the router's own
    404 and 405 are Starlette's exceptions, so they keep FastAPI's default body."""
    return Edit(name, "@app.exception_handler(StarletteHTTPException)",
                "@app.exception_handler(__import__('fastapi').HTTPException)")
