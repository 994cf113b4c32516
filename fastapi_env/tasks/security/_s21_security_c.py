"""What the security families of branch s21-security-c share: the probes' row helpers and the
mass-assignment trap. Not a family (the leading underscore keeps it from loading as one)."""

from fastapi_env.tasks import Edit


def row_helpers(id_keys: tuple[str, ...]) -> str:
    """Probe source for `_plain` (a body without the ids that depend on what earlier checks
    created) and `_row` (status and body of a response, its text when it is not JSON)."""
    return f'''\
def _plain(body):
    """A body without ids, which depend on what earlier checks created."""
    if isinstance(body, list):
        return [_plain(b) for b in body]
    if isinstance(body, dict):
        return {{k: _plain(v) for k, v in body.items() if k not in {id_keys!r}}}
    return body


def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, _plain(r.json())]
    except ValueError:
        return [r.status_code, r.text]


'''


def forbid_to_ignore(model: str) -> Edit:
    """The model accepts and drops fields its route does not list (mass assignment ignored
    instead of refused)."""
    return Edit(f"{model} ignores unknown fields",
                f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="forbid")',
                f'class {model}(BaseModel):\n    model_config = ConfigDict(extra="ignore")')
