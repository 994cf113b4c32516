"""What the security families of branch s21-security-b share (customer_search, photo_share,
org_members): the mass-assignment trap and the probes' row helpers. Not a family (the leading
underscore): each reference stays a self-contained app."""

from fastapi_env.tasks import Edit

# Probe text (a template's prefix): rows of a response, the body without the keys named in
# HIDDEN (ids and counters that depend on what earlier checks created), which each family's
# probes define.
PROBE_ROWS = '''

def _plain(body):
    """The body without the HIDDEN keys, at any depth."""
    if isinstance(body, list):
        return [_plain(b) for b in body]
    if isinstance(body, dict):
        return {k: _plain(v) for k, v in body.items() if k not in HIDDEN}
    return body


def _row(r):
    try:
        return [r.status_code, _plain(r.json())]
    except ValueError:
        return [r.status_code, r.text]
'''


def extras_ignored(name: str, model: str, base: str = "BaseModel") -> Edit:
    """A trap: the body model ``model`` silently drops the fields it does not list instead of
    refusing them (422), so a body carrying `owner` or `role` is accepted. A model that inherits
    its ``extra="forbid"`` from ``base`` gets its own config; one that states it is rewritten."""
    header = f"class {model}({base}):\n"
    if base == "BaseModel":
        return Edit(name, header + '    model_config = ConfigDict(extra="forbid")',
                    header + '    model_config = ConfigDict(extra="ignore")')
    return Edit(name, header, header + '    model_config = ConfigDict(extra="ignore")\n')
