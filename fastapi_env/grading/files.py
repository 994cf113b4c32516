"""Grade a directory of files as if a model had left them in /workspace.

What ``fastapi-env grade`` runs: a fresh sandbox, the task's setup files, then the directory's
files over them, then the real grader against the shipped key. For authors measuring how hard a
task is (a blind solve is a directory) and for anyone checking a solution by hand; rollouts
grade the box the model worked in through the same ``run_grader`` and ``score``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from fastapi_env.grading.host import AnswerKey, Grade, probe_verdicts, run_grader, score
from fastapi_env.grading.runners import write_workspace
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
    from fastapi_env.sandbox.docker import DockerSandbox

    task, key = find_task(task_id)
    files = dict(task.setup_files) | read_directory(directory)
    async with DockerSandbox(limits=limits) as box:
        await write_workspace(box, files)
        outcome = await run_grader(box, task.probes, timeout=timeout)
    grade = score(outcome, key)
    report = outcome.get("report")
    matched = probe_verdicts(report, key)[0] if isinstance(report, dict) else set()
    met = tuple(set(r.probes) <= matched for r in task.requirements)
    return DirectoryGrade(task, grade, met)


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
    for requirement, ok in zip(task.requirements, result.met, strict=True):
        lines.append(f"  {'met ' if ok else 'MISS'} {requirement.text}")
    lines.append(f"reason: {grade.reason}")
    return "\n".join(lines)


def main(task_id: str, directory: str, timeout: float) -> int:
    """Exit 0 at reward 1, 1 below it, 2 when the harness failed or the input is bad."""
    try:
        result = asyncio.run(grade_directory(task_id, Path(directory), timeout=timeout))
    except ValueError as exc:
        print(f"fastapi-env grade: {exc}")
        return 2
    print(describe(result))
    if result.grade.scoring_error:
        return 2
    return 0 if result.grade.reward == 1.0 else 1
