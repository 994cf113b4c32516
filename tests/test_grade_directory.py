"""``fastapi-env grade``: a directory graded as a model's /workspace, in a real sandbox."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fastapi_env.grading.files import find_task

from .conftest import original_ids

pytestmark = pytest.mark.docker
REPAIR = "repair/booking_api"


def write_tree(directory: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return directory


def grade(task_id: str, directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastapi_env.cli", "grade", task_id,
                           str(directory)], capture_output=True, text=True, timeout=300)


def test_the_reference_scores_1_and_every_requirement_is_met(tmp_path):
    task_id = original_ids(REPAIR)[0]
    task, _ = find_task(task_id)
    # the reference's own files only: the setup files come from the task, under them
    own = {k: v for k, v in task.reference_workspace().items()
           if task.setup_files.get(k) != v}
    done = grade(task_id, write_tree(tmp_path, own))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reward 1.0" in done.stdout and "MISS" not in done.stdout


def test_a_trap_misses_its_own_requirement(tmp_path):
    task_id = original_ids(REPAIR)[0]
    task, _ = find_task(task_id)
    name, tree = next(iter(task.trap_workspaces().items()))
    owner = next(r for r in task.requirements if name in r.traps)
    done = grade(task_id, write_tree(tmp_path, tree))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "reward 0.0" in done.stdout
    assert f"MISS {owner.text}" in done.stdout


def test_a_directory_without_solution_is_refused(tmp_path):
    done = grade(original_ids(REPAIR)[0], tmp_path)
    assert done.returncode == 2 and "has no solution.py" in done.stdout
