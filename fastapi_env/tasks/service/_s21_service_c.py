"""Trap builders shared by the service families of branch s21-service-c (parking_permits,
recipe_box, fleet_maintenance). A module whose name starts with `_` is not a family."""

from fastapi_env.tasks import Edit
from fastapi_env.tasks.service._shared import router_errors_in_fastapi_format


def router_error_traps(answer_call: str) -> tuple[Edit, Edit]:
    """Two mistakes of an app that formats its own errors: a handler registered for FastAPI's
    HTTPException (the router's 404 and 405 are Starlette's, so they keep FastAPI's format),
    and a handler that drops the exception's headers (the 405's `Allow`).
    `answer_call` is the reference's `return ...(exc.status_code, code, exc.headers)` line."""
    return (router_errors_in_fastapi_format(),
            Edit("Allow dropped", answer_call, answer_call.replace(", exc.headers)", ")")))


def other_validation_status() -> Edit:
    """The validation status fixed at the value of the other instances (422 or 400)."""
    return Edit("validation status fixed at the other value",
                "INVALID_STATUS = ${invalid_status}",
                lambda p: f"INVALID_STATUS = {422 if p['invalid_status'] == 400 else 400}")


def extras_ignored(name: str, model: str) -> Edit:
    """A body model that ignores the fields the prompt says make the body invalid."""
    return Edit(name, f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="forbid")',
                f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="ignore")')


def ids_reused(name: str, counter: str, store: str, indent: str) -> Edit:
    """Ids taken as one more than the largest live one: a deleted last id comes back."""
    return Edit(name, f'{indent}{counter[0]} = {{"id": NEXT["{counter[1]}"],',
                f'{indent}{counter[0]} = {{"id": max({store}, default=0) + 1,')
