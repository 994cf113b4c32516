"""The dataset the package ships: model-facing rows, and the answer keys kept apart.

``data/tasks.jsonl`` holds what a model may see (id, family, split, prompt, metadata), one task
instance a line; ``datasets.load_dataset("json", data_files=str(TASKS_FILE))`` reads it.
``data/answer_keys.json`` holds the keys, read only on the host by the grader. Both record the
sandbox image's pins. ``data/splits.json`` lists the families of each split.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from fastapi_env.compare import compare
from fastapi_env.grading.host import AnswerKey
from fastapi_env.image import image_tag, pins
from fastapi_env.tasks import TIERS, Task, load_tasks

DATA_DIR = Path(__file__).parent / "data"
TASKS_FILE = DATA_DIR / "tasks.jsonl"
KEYS_FILE = DATA_DIR / "answer_keys.json"
SPLITS_FILE = DATA_DIR / "splits.json"
SPLITS = ("train", "test", "all")


def task_record(task: Task) -> dict[str, Any]:
    return {
        "id": task.id,
        "title": task.title,
        "category": task.category,
        "difficulty": task.difficulty,
        "tier": task.tier,
        "family": task.family_id,
        "split": task.split,
        "original": task.original,
        "prompt": task.prompt,
        # Written into /workspace before the first turn: the model sees them anyway.
        "setup_files": task.setup_files,
        # Whether the model gets the query_service tool; the service itself stays host side.
        "hidden_service": bool(task.service),
    }


def write(tasks: list[Task], keys: list[AnswerKey], *, every_task: list[Task]) -> Path:
    """Write these tasks' keys, keeping the shipped keys of the other existing tasks
    (``every_task``) when they were built with the same pins; every record is rewritten from
    its task."""
    DATA_DIR.mkdir(exist_ok=True)
    header = {"pins": pins(), "image": image_tag()}
    existing = {t.id: t for t in every_task}
    stored: dict[str, dict] = {}
    if KEYS_FILE.exists() and json.loads(KEYS_FILE.read_text()).get("pins") == header["pins"]:
        stored = {
            i: k for i, k in json.loads(KEYS_FILE.read_text())["keys"].items() if i in existing
        }
    for task_id, record in stored.items():  # requirements come from the task, not a run
        task = existing[task_id]
        record["requirements"] = [list(group) for group in task.requirement_groups()]
        record["security"] = list(task.security_probes())
    for task, key in zip(tasks, keys, strict=True):
        stored[task.id] = key_record(key)
    records = {i: task_record(existing[i]) | {"pins": header["pins"]} for i in stored}
    with TASKS_FILE.open("w") as out:
        for task_id in sorted(records):
            out.write(json.dumps(records[task_id]) + "\n")
    payload = header | {"keys": stored}
    KEYS_FILE.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
    splits: dict[str, set[str]] = {"train": set(), "test": set()}
    for record in records.values():
        splits[record["split"]].add(record["family"])
    SPLITS_FILE.write_text(
        json.dumps({s: sorted(f) for s, f in splits.items()}, indent=1) + "\n"
    )
    return DATA_DIR


def key_record(key: AnswerKey) -> dict[str, Any]:
    return {
        "rows": key.rows,
        "probes": key.probes,
        "requirements": [list(group) for group in key.requirements],
        "security": list(key.security),
    }


def key_from_record(record: dict[str, Any]) -> AnswerKey:
    groups = tuple(tuple(group) for group in record.get("requirements", ()))
    return AnswerKey(record["rows"], record["probes"], groups, tuple(record.get("security", ())))


def load_records() -> list[dict[str, Any]]:
    if not TASKS_FILE.exists():
        raise FileNotFoundError(f"{TASKS_FILE} is missing: run `python build_tasks.py`")
    return [json.loads(line) for line in TASKS_FILE.read_text().splitlines() if line.strip()]


def select_records(
    difficulty: str | list[str] | None,
    categories: list[str] | None,
    ids: list[str] | None,
    split: str = "all",
    num_instances_per_family: int | None = None,
    tier: str | list[str] | None = None,
) -> list[dict[str, Any]]:
    """The shipped records a binding's selection arguments name (every one by default).

    ``difficulty`` and ``tier`` take one value or a list (see ``tasks.TIERS``);
    ``ids`` name instances or whole families; ``split`` is ``train``, ``test`` (whole families
    held out) or ``all``; ``num_instances_per_family`` keeps the first n instances of each family
    after the other filters, its original instance first (1: the hand-written tasks)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    if num_instances_per_family is not None and num_instances_per_family < 1:
        raise ValueError("num_instances_per_family must be at least 1")
    tiers = [tier] if isinstance(tier, str) else tier
    if unknown := set(tiers or ()) - set(TIERS):
        raise ValueError(f"unknown tier(s) {sorted(unknown)}: choose from {TIERS}")
    records = load_records()
    wanted = [difficulty] if isinstance(difficulty, str) else difficulty
    chosen = [
        r
        for r in records
        if (not wanted or r["difficulty"] in wanted)
        and (not categories or r["category"] in categories)
        and (not ids or r["id"] in ids or r["family"] in ids)
        and (split == "all" or r["split"] == split)
        and (not tiers or r.get("tier", "basic") in tiers)
    ]
    if ids:
        missing = set(ids) - {r["id"] for r in records} - {r["family"] for r in records}
        if missing:
            raise ValueError(f"unknown task ids: {', '.join(sorted(missing))}")
    if num_instances_per_family is not None:
        by_family: dict[str, list[dict[str, Any]]] = {}
        for r in sorted(chosen, key=lambda r: (not r["original"], r["id"])):
            by_family.setdefault(r["family"], []).append(r)
        kept = {r["id"] for group in by_family.values() for r in group[:num_instances_per_family]}
        chosen = [r for r in chosen if r["id"] in kept]
    if not chosen:
        raise ValueError("the selection matches no task")
    return chosen


def load_keys() -> dict[str, AnswerKey]:
    if not KEYS_FILE.exists():
        raise FileNotFoundError(f"{KEYS_FILE} is missing: run `python build_tasks.py`")
    payload = json.loads(KEYS_FILE.read_text())
    return {tid: key_from_record(k) for tid, k in payload["keys"].items()}


@functools.cache
def _shipped_keys() -> dict[str, AnswerKey]:
    return load_keys()


def answer_key(task_id: str) -> AnswerKey | None:
    """The shipped key of one task, read on the host only (cached per process): what a
    served worker, which never loads the taskset, grades against."""
    return _shipped_keys().get(task_id)


@functools.cache
def _shipped_prompts() -> dict[str, str]:
    return {r["id"]: r["prompt"] for r in load_records()}


def shipped_prompt(task_id: str) -> str | None:
    """The prompt this package ships for a task: what its key was built against."""
    return _shipped_prompts().get(task_id)


@functools.cache
def _family_of() -> dict[str, str]:
    return {r["id"]: r["family"] for r in load_records()}


@functools.cache
def _probes_of(family: str) -> dict[str, str]:
    return {t.id: t.probes for t in load_tasks(only_families={family})}


def task_probes(task_id: str) -> str | None:
    """The hidden probes' source of one task (host side; enters a box only at grading)."""
    family = _family_of().get(task_id)
    return _probes_of(family).get(task_id) if family else None


@functools.cache
def _services_of(family: str) -> dict[str, str]:
    return {t.id: t.service for t in load_tasks(only_families={family}) if t.service}


def task_service(task_id: str) -> str | None:
    """A black-box task's hidden service source (host side only; never enters a box)."""
    family = _family_of().get(task_id)
    return _services_of(family).get(task_id) if family else None


def check_shipped(reports: list) -> list[str | None]:
    """For each verified task, why the shipped dataset disagrees with the rebuilt one (or None)."""
    try:
        keys = load_keys()
        records = {r["id"]: r for r in load_records()}
        shipped_pins = json.loads(KEYS_FILE.read_text())["pins"]
    except (FileNotFoundError, KeyError, ValueError) as exc:
        return [f"shipped dataset unreadable: {exc}"] * len(reports)
    if shipped_pins != pins():
        return ["shipped dataset was built with other pins: run `python build_tasks.py`"] * len(
            reports
        )
    problems: list[str | None] = []
    for report in reports:
        task, key = report.task, report.key
        shipped = keys.get(task.id)
        if shipped is None or task.id not in records:
            problems.append("missing from the shipped dataset: run `python build_tasks.py`")
        elif records[task.id] | {"pins": None} != task_record(task) | {"pins": None}:
            problems.append("shipped prompt/metadata differ from the task file: rebuild")
        elif key is not None and not (
            (shipped.requirements, shipped.security) == (key.requirements, key.security)
            and compare(shipped.rows, key.rows).ok
            and shipped.probes.keys() == key.probes.keys()
            and all(compare(shipped.probes[n], key.probes[n]).ok for n in key.probes)
        ):
            problems.append("shipped answer key differs from the rebuilt one: rebuild")
        else:
            problems.append(None)
    return problems
