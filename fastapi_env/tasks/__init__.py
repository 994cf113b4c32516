"""Tasks as data: one small module per task under ``fastapi_env/tasks/<category>/``.

Each task module defines ``TASK = Task(...)``. Nothing here runs a task; grading and the
answer-key build live elsewhere. See ``docs/authoring-tasks.md`` for the authoring guide.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
TASKS_DIR = Path(__file__).parent


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

    def __post_init__(self) -> None:
        problems = []
        if self.difficulty not in DIFFICULTIES:
            problems.append(f"difficulty {self.difficulty!r} is not one of {DIFFICULTIES}")
        if not self.id.startswith(f"{self.category}/"):
            problems.append(f"id {self.id!r} must start with its category {self.category!r}/")
        if "def probe_" not in self.probes:
            problems.append("probes define no probe_<name>(client) function")
        if not self.traps:
            problems.append("a task needs at least one trap")
        if not self.prompt.strip() or not self.reference.strip():
            problems.append("prompt and reference must be non-empty")
        if problems:
            raise ValueError(f"task {self.id!r}: " + "; ".join(problems))


def categories() -> list[str]:
    return sorted(p.name for p in TASKS_DIR.iterdir() if (p / "__init__.py").exists())


def load_tasks(only_categories: set[str] | None = None) -> list[Task]:
    """Import the task modules (of some categories only, if given), sorted by id; raise if one
    is malformed or misplaced."""
    tasks: list[Task] = []
    for name in categories():
        if only_categories is not None and name not in only_categories:
            continue
        category_dir = TASKS_DIR / name
        package = f"{__name__}.{category_dir.name}"
        for info in sorted(pkgutil.iter_modules([str(category_dir)]), key=lambda i: i.name):
            module = importlib.import_module(f"{package}.{info.name}")
            task = getattr(module, "TASK", None)
            if not isinstance(task, Task):
                raise ValueError(f"{package}.{info.name} defines no TASK = Task(...)")
            expected_id = f"{category_dir.name}/{info.name}"
            if task.id != expected_id:
                raise ValueError(f"{package}.{info.name}: id {task.id!r} should be {expected_id!r}")
            tasks.append(task)
    ids = [t.id for t in tasks]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate task ids")
    return sorted(tasks, key=lambda t: t.id)
