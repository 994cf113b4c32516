"""Helpers shared by the repair families of branch s21-repair-d (api_key_admin,
newsletter_subscriptions, timesheets): the probe helpers every one of their probe modules
starts with, and a maker of edits aimed at one module of a family's package."""

from collections.abc import Callable

from fastapi_env.tasks import Edit

# Probe text (a template: `$$` is a dollar). `_row` is status and body; `_brief` keeps only the
# locations of a 422's errors: their types depend on how a rule is written (a pattern or a
# validator, a Literal or an Enum), which the prompts leave open.
PROBE_HELPERS = '''\
def _body(r):
    try:
        return r.json()
    except ValueError:
        return r.text


def _row(r):
    return [r.status_code, _body(r)]


def _brief(r):
    if r.status_code == 422:
        return [422, [e["loc"] for e in r.json()["detail"]]]
    return _row(r)

'''


# The tail of every reference's solution.py header: a client for computing `result`.
RESULT_CLIENT = '''


def body(r):
    try:
        return r.json()
    except ValueError:
        return r.text


client = TestClient(app, raise_server_exceptions=False)
'''


def editor(package: str) -> Callable[..., Edit]:
    """`edit(module, name, old, new)`: an Edit of `<package>/<module>.py`; module
    "solution" is solution.py itself."""

    def edit(module: str, name: str, old: str, new: str, count: int = 1) -> Edit:
        path = "solution.py" if module == "solution" else f"{package}/{module}.py"
        return Edit(name, old, new, count=count, file=path)

    return edit
