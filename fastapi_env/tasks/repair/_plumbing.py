"""Plumbing of the repair families, whose reference is a package in /workspace and whose setup
is that package with every planted bug: a maker of `Edit`s aimed at one module of the package,
the tail of a reference's solution.py that computes `result`, and the part of a `Family` every
hard repair family fills the same way. Not a family (the leading `_`). Their probes' row
helpers are in `fastapi_env/tasks/probe_rows.py` (`ROWS_422_TYPE_LOC`, `ROWS_422_LOC`,
`ROWS_422_LOC_AND_HEAD`)."""

from collections.abc import Callable, Mapping, Sequence

from fastapi_env.tasks.family import SOLUTION, Edit, Family, with_edits
from fastapi_env.tasks.probe_rows import body_source

# The tail of a reference's solution.py header: a client for computing `result`, and `body(r)`
# (the JSON body, or the text) for its rows.
RESULT_CLIENT = "\n\n\n" + body_source("body") + '''

client = TestClient(app, raise_server_exceptions=False)
'''


def editor(package: str) -> Callable[..., Edit]:
    """`edit(module, name, old, new, count=1)`: an Edit of `<package>/<module>.py`; module
    "solution" is solution.py itself."""

    def edit(module: str, name: str, old: str, new: str, count: int = 1) -> Edit:
        path = SOLUTION if module == "solution" else f"{package}/{module}.py"
        return Edit(name, old, new, count=count, file=path)

    return edit


def repair_family(*, solution: str, files: Mapping[str, str], planted: Sequence[Edit],
                  **fields) -> Family:
    """A hard repair family whose reference is `solution` over `files` and whose setup is that
    reference with every `planted` bug applied."""
    setup = with_edits(dict(files) | {SOLUTION: solution}, planted)
    return Family(category="repair", difficulty="hard", tier="repair", reference=solution,
                  files=files, setup=setup, **fields)
