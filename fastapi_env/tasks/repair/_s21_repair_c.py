"""Helpers shared by the repair families of branch s21-repair-c (order_checkout, file_catalog,
survey_results): the probe prelude every one of their probe modules starts with, and a maker of
`Edit`s addressed to one module of the package in /workspace. Not a family (the leading `_`)."""

from collections.abc import Callable

from fastapi_env.tasks import Edit

# Rows for any response: 422s reduced to their (type, loc) pairs, since the message wording is
# FastAPI's and no prompt of these families pins it; empty bodies as just the status.
PROBE_PRELUDE = '''\
def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _brief(r):
    if r.status_code == 422 and isinstance(r.json(), dict) and "detail" in r.json():
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return _row(r)


'''


def edits_in(package: str) -> Callable[[str, str, str, str], Edit]:
    """`edit(module, name, old, new)`: an Edit of `<package>/<module>.py`."""

    def edit(module: str, name: str, old: str, new: str) -> Edit:
        return Edit(name, old, new, file=f"{package}/{module}.py")

    return edit
