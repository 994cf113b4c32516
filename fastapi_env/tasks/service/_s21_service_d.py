"""Helpers shared by the service families conference_talks, pet_adoption and gym_bookings (not
a family: modules starting with _ are skipped at load). Each reference stays a self-contained
app; what is shared here is probe text and the shapes of parameters and traps."""

from fastapi_env.tasks import Edit


def row_helpers(id_keys: tuple[str, ...]) -> str:
    """Probe source: `_row(r)`, a response as [status, body] with the named id keys dropped
    from the body (and from each item of a list body), since ids depend on how many things
    earlier probes created."""
    keys = "(" + ", ".join(f'"{key}"' for key in id_keys) + ")"
    return f'''def _without_ids(value):
    """A body without the ids of created things: they depend on what earlier probes made."""
    if isinstance(value, dict):
        return {{k: v for k, v in value.items() if k not in {keys}}}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, _without_ids(r.json())]
    except ValueError:
        return [r.status_code, r.text]
'''


def check_order(order: str, functions: dict[str, str], codes: dict[str, str],
                key: str) -> dict[str, str]:
    """Parameters for two refusals whose order an instance chooses: `order` names them
    ("a,b"); `key` receives the reference's tuple of check functions (with a trailing comma,
    so that it is a tuple inside parentheses), first_check and second_check the prompt's
    codes."""
    names = order.split(",")
    return {key: ", ".join(functions[n] for n in names) + ",",
            "first_check": f"`{codes[names[0]]}`", "second_check": f"`{codes[names[1]]}`"}


def checks_swapped(name: str, key: str) -> Edit:
    """The trap answering the two ordered refusals the other way round."""
    return Edit(name, f"    for check in (${{{key}}}):",
                f"    for check in reversed((${{{key}}})):")


def extras_ignored(name: str, model: str) -> Edit:
    """The trap where a body model accepts (and drops) fields the spec refuses."""
    return Edit(name, f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="forbid")',
                f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="ignore")')


def without_location(name: str, line: str) -> Edit:
    """The trap leaving out one Location header (`line` is the statement setting it)."""
    return Edit(name, f"    {line}\n", "")
