"""Grade a directory of files as if a model had left them in /workspace.

What ``fastapi-env grade`` runs: a fresh sandbox, the task's key rebuilt there from its reference
(and compared with the shipped one), then the task's setup files with the directory's files over
them, graded by the real grader. For authors measuring how hard a
task is (a blind solve is a directory) and for anyone checking a solution by hand; rollouts
grade the box the model worked in through the same ``run_grader`` and ``score``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from fastapi_env.grading.host import AnswerKey, Grade, score
from fastapi_env.grading.runners import sandbox_runner
from fastapi_env.sandbox.base import Limits
from fastapi_env.tasks import Task

# What a directory may hold: a model's workspace is small text files.
MAX_FILES = 200
MAX_FILE_BYTES = 1024 * 1024


@dataclass(frozen=True)
class DirectoryGrade:
    task: Task
    grade: Grade
    met: tuple[bool, ...]  # per requirement of ``task``, in order
    stale: str | None = None  # how the shipped key differs from the one rebuilt here


class HarnessProblem(RuntimeError):
    """The grading itself failed (not the directory's fault)."""


def read_directory(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` by relative path. Caches and hidden files are skipped."""
    if not directory.is_dir():
        raise ValueError(f"{directory} is not a directory")
    files = {}
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__"
                                     for p in relative.parts):
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"{relative} is over {MAX_FILE_BYTES} bytes")
        files[relative.as_posix()] = path.read_text()
    if len(files) > MAX_FILES:
        raise ValueError(f"{directory} holds {len(files)} files (at most {MAX_FILES})")
    if "solution.py" not in files:
        raise ValueError(f"{directory} has no solution.py")
    return files


def find_task(task_id: str) -> tuple[Task, AnswerKey]:
    from fastapi_env.dataset import answer_key
    from fastapi_env.tasks import load_tasks

    task = next((t for t in load_tasks({task_id.partition("/")[0]}) if t.id == task_id), None)
    key = answer_key(task_id)
    if task is None or key is None:
        raise ValueError(f"unknown task id {task_id!r} "
                         "(instance ids are listed in fastapi_env/data/tasks.jsonl)")
    return task, key


async def grade_directory(task_id: str, directory: Path, *, timeout: float = 60,
                          limits: Limits | None = None) -> DirectoryGrade:
    from fastapi_env.build import build_key, keys_equal, requirements_met
    from fastapi_env.sandbox.docker import DockerSandbox

    task, shipped = find_task(task_id)
    files = dict(task.setup_files) | read_directory(directory)
    async with DockerSandbox(limits=limits) as box:
        run = sandbox_runner(box)
        # The key of this checkout's task, as build_tasks.py makes it: a checkout whose probes
        # changed since the dataset was built would otherwise grade against a stale key.
        key, problem = await build_key(task, run, timeout)
        if key is None:
            raise HarnessProblem(f"the reference does not run: {problem}")
        outcome = await run(files, task.probes, timeout)
    met = tuple(requirements_met(task, key, outcome))
    return DirectoryGrade(task, score(outcome, key), met, keys_equal(shipped, key))


def describe(result: DirectoryGrade) -> str:
    grade, task = result.grade, result.task
    lines = [
        f"{task.id} ({task.tier}, {task.difficulty})",
        f"reward {grade.reward:.1f}  requirements {grade.requirements_fraction:.3f}  "
        f"rows {'match' if grade.rows_matched else 'differ'}  "
        f"security_ok {grade.security_ok}  imported {grade.imported}",
    ]
    if grade.scoring_error:
        lines.append(f"SCORING ERROR (harness, not the solution): {grade.scoring_error}")
    if result.stale:
        lines.append(f"note: graded against the key rebuilt from this checkout; the shipped one "
                     f"is stale ({result.stale}): run `python build_tasks.py`")
    for requirement, ok in zip(task.requirements, result.met, strict=True):
        lines.append(f"  {'met ' if ok else 'MISS'} {requirement.text}")
    lines.append(f"reason: {grade.reason}")
    return "\n".join(lines)


def main(task_id: str, directory: str, timeout: float) -> int:
    """Exit 0 at reward 1, 1 below it, 2 when the harness failed or the input is bad."""
    try:
        result = asyncio.run(grade_directory(task_id, Path(directory), timeout=timeout))
    except (ValueError, HarnessProblem) as exc:
        print(f"fastapi-env grade: {exc}")
        return 2
    print(describe(result))
    if result.grade.scoring_error:
        return 2
    return 0 if result.grade.reward == 1.0 else 1
