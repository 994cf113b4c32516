"""Tasks as data: one module per task family under ``fastapi_env/tasks/<category>/``.

A family module defines ``FAMILY = Family(...)`` (see ``family.py``); ``load_tasks`` expands
every family into its instances, each a ``Task``. A module still defining ``TASK = Task(...)``
is a family of one instance with no requirements (``--verify`` fails it as unconverted).
Nothing here runs a task; grading and the answer-key build live elsewhere. See
``docs/authoring-tasks.md`` for the authoring guide.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from fastapi_env.tasks.family import (
    SOLUTION,
    TIERS,
    Edit,
    Family,
    FamilyError,
    Requirement,
    instance_hash,
    render,
    split_of,
    with_edits,
)

__all__ = [
    "TIERS",
    "Edit",
    "Family",
    "FamilyError",
    "Requirement",
    "Task",
    "expand",
    "load_tasks",
    "with_edits",
]

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
TASKS_DIR = Path(__file__).parent


@dataclass(frozen=True)
class InstanceRequirement:
    """A requirement as one instance states it: its text, its probes, its traps' names."""

    text: str
    probes: tuple[str, ...]
    traps: tuple[str, ...]
    security: bool = False


@dataclass(frozen=True)
class Task:
    """One FastAPI task.

    ``reference`` is a complete ``solution.py``. ``probes`` is Python source defining functions
    named ``probe_<name>(client)``; each drives the app through a fresh ``TestClient`` and returns
    rows (a list of lists of JSON values). Probes run only at grading time, after the model's last
    turn; their expected rows come from running them against ``reference`` and never enter a
    container. ``traps`` maps a name to a plausible wrong ``solution.py`` that must score 0.
    ``expected_rows``, when given, is a hand-written copy of the reference's ``result`` that must
    agree with the rebuilt key.
    """

    id: str
    title: str
    category: str
    difficulty: Difficulty
    prompt: str
    reference: str
    probes: str
    traps: dict[str, str]
    expected_rows: list[list[Any]] | None = None
    tags: tuple[str, ...] = field(default=())
    # Set on instances of a family (``expand``); a legacy TASK module is its own family.
    family: str = ""
    split: str = "train"
    original: bool = True
    params: dict[str, Any] = field(default_factory=dict)
    requirements: tuple[InstanceRequirement, ...] = ()
    edits: tuple[Edit, ...] = ()
    tier: str = "basic"
    setup_files: dict[str, str] = field(default_factory=dict)  # /workspace before turn one
    files: dict[str, str] = field(default_factory=dict)  # the reference's other modules
    alternatives: dict[str, str] = field(default_factory=dict)  # name: another correct solution.py
    service: str = ""  # a black-box task's hidden service (host side only), else empty

    @property
    def family_id(self) -> str:
        return self.family or self.id

    def workspace(self, solution: str | None, files: dict[str, str] | None = None) -> dict:
        """A complete /workspace: the setup files, then ``files``, then ``solution.py``
        (absent when ``solution`` is None)."""
        tree = dict(self.setup_files) | (files or {})
        if solution is not None:
            tree[SOLUTION] = solution
        return tree

    def reference_workspace(self) -> dict[str, str]:
        return self.workspace(self.reference, self.files)

    def trap_workspaces(self) -> dict[str, dict[str, str]]:
        """Every trap as a complete /workspace: whole-module traps over the setup files, and
        the reference's workspace with each edit applied to its file. Raises FamilyError
        naming an edit that no longer applies."""
        trees = {name: self.workspace(source) for name, source in self.traps.items()}
        for edit in self.edits:
            tree = self.reference_workspace()
            if edit.file not in tree:
                raise FamilyError(f"edit {edit.name!r} names {edit.file!r}, not in the workspace")
            tree[edit.file] = edit.apply(tree[edit.file], self.params)
            trees[edit.name] = tree
        return trees

    def security_probes(self) -> tuple[str, ...]:
        return tuple(sorted({p for r in self.requirements if r.security for p in r.probes}))

    def requirement_groups(self) -> tuple[tuple[str, ...], ...]:
        """Each requirement's probes: the grader's unit of partial credit."""
        return tuple(r.probes for r in self.requirements)

    def trap_sources(self) -> dict[str, str]:
        """Every trap's ``solution.py`` (the whole trap of a single-file task), from
        ``trap_workspaces``. Raises FamilyError naming an edit that no longer applies."""
        return {name: tree[SOLUTION] for name, tree in self.trap_workspaces().items()}

    def __post_init__(self) -> None:
        problems = []
        if self.tier not in TIERS:
            problems.append(f"tier {self.tier!r} is not one of {TIERS}")
        for path in [*self.setup_files, *self.files]:
            if path.startswith("/") or ".." in path.split("/"):
                problems.append(f"file {path!r} must be a relative path inside /workspace")
        if SOLUTION in self.files:
            problems.append(f"files must not hold {SOLUTION}: the reference is that file")
        if self.difficulty not in DIFFICULTIES:
            problems.append(f"difficulty {self.difficulty!r} is not one of {DIFFICULTIES}")
        if not self.id.startswith(f"{self.category}/"):
            problems.append(f"id {self.id!r} must start with its category {self.category!r}/")
        if "def probe_" not in self.probes:
            problems.append("probes define no probe_<name>(client) function")
        if not self.traps and not self.edits:
            problems.append("a task needs at least one trap")
        if not self.prompt.strip() or not self.reference.strip():
            problems.append("prompt and reference must be non-empty")
        if problems:
            raise ValueError(f"task {self.id!r}: " + "; ".join(problems))


def categories() -> list[str]:
    return sorted(p.name for p in TASKS_DIR.iterdir() if (p / "__init__.py").exists())


def expand(family: Family) -> list[Task]:
    """The family's instances, original first. Raises FamilyError if a template does not
    render. Trap edits are applied only when asked (``Task.trap_sources``)."""
    tasks = []
    for number, draw in enumerate(family.draws()):
        params = family.full_params(draw)
        try:
            tasks.append(
                Task(
                    id=f"{family.id}-{instance_hash(draw)}",
                    title=render(family.title, params),
                    category=family.category,
                    difficulty=family.difficulty,  # type: ignore[arg-type]
                    prompt=render(family.prompt, params),
                    reference=render(family.reference, params),
                    probes=render(family.probes, params),
                    traps={},
                    expected_rows=family.expected_rows if number == 0 else None,
                    tags=family.tags,
                    family=family.id,
                    split=family.split,
                    original=number == 0,
                    params=params,
                    requirements=tuple(
                        InstanceRequirement(
                            render(r.text, params),
                            r.probe_names(),
                            tuple(e.name for e in r.traps),
                            r.security,
                        )
                        for r in family.requirements
                    ),
                    edits=tuple(e for r in family.requirements for e in r.traps),
                    tier=family.tier,
                    setup_files={p: render(t, params) for p, t in family.setup.items()},
                    files={p: render(t, params) for p, t in family.files.items()},
                    alternatives={n: render(t, params) for n, t in family.alternatives.items()},
                    service=render(family.service, params) if family.service else "",
                )
            )
        except FamilyError as exc:
            raise FamilyError(f"{family.id} instance {draw}: {exc}") from None
    return tasks


def _modules(only_categories: set[str] | None):
    for name in categories():
        if only_categories is not None and name not in only_categories:
            continue
        package = f"{__name__}.{name}"
        for info in sorted(pkgutil.iter_modules([str(TASKS_DIR / name)]), key=lambda i: i.name):
            if info.name.startswith("_"):  # a helper module the category's families share
                continue
            yield f"{name}/{info.name}", importlib.import_module(f"{package}.{info.name}")


def load_families(only_categories: set[str] | None = None) -> list[Family]:
    """The converted families (modules defining FAMILY), sorted by id."""
    families = []
    for expected_id, module in _modules(only_categories):
        family = getattr(module, "FAMILY", None)
        if isinstance(family, Family):
            _check_placement(family, expected_id, module.__name__)
            families.append(family)
    return families


def _check_placement(family: Family, expected_id: str, module: str) -> None:
    """The family sits where its id says, and its structure holds (``Family.check``: e.g. two
    traps with one name, where the second would silently replace the first)."""
    if family.id != expected_id or family.category != expected_id.split("/")[0]:
        raise ValueError(f"{module}: id {family.id!r} should be {expected_id!r}")
    if problems := family.check():
        raise FamilyError(f"{module}: " + "; ".join(problems))


def load_tasks(only_categories: set[str] | None = None,
               only_families: set[str] | None = None) -> list[Task]:
    """Every instance of every family (of some categories or families only, if given), sorted
    by id; raise if a module is malformed or misplaced. Expanding every family costs seconds
    of CPU: a process that needs a few tasks (a served worker, vf-eval on chosen ids) names
    their families (their categories follow from the ids)."""
    if only_families is not None:
        named = {family.partition("/")[0] for family in only_families}
        only_categories = named if only_categories is None else named & only_categories
    tasks: list[Task] = []
    for expected_id, module in _modules(only_categories):
        family = getattr(module, "FAMILY", None)
        task = getattr(module, "TASK", None)
        if only_families is not None and expected_id not in only_families:
            continue
        if isinstance(family, Family):
            _check_placement(family, expected_id, module.__name__)
            tasks += expand(family)
        elif isinstance(task, Task):
            if task.id != expected_id:
                raise ValueError(f"{module.__name__}: id {task.id!r} should be {expected_id!r}")
            tasks.append(replace(task, family=task.id, split=split_of(task.id)))
        else:
            raise ValueError(f"{module.__name__} defines neither FAMILY nor TASK")
    ids = [t.id for t in tasks]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate task ids")
    return sorted(tasks, key=lambda t: t.id)
