"""Task families: expansion, edits, splits, selection and the shipped dataset (no Docker)."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from fastapi_env import dataset
from fastapi_env.build import requirement_problems
from fastapi_env.grading.host import AnswerKey
from fastapi_env.tasks import Edit, Family, FamilyError, Requirement, expand, load_tasks

TINY = Family(
    id="routing/tiny",
    title="tiny ${word}",
    category="routing",
    difficulty="easy",
    prompt="Return ${word} at /${route}.",
    reference='from fastapi import FastAPI\napp = FastAPI()\n@app.get("/${route}")\n'
    "def f():\n    return ${word__json}\nresult = [[1]]\n",
    probes="def probe_word(client):\n    return [[client.get('/${route}').json()]]\n",
    requirements=(
        Requirement(
            "GET /${route} returns ${word}.",
            probes=("word",),
            traps=(Edit("wrong word", "return ${word__json}", 'return "nope"'),),
        ),
    ),
    original={"word": "hi", "route": "a"},
    space={"word": ["hi", "yo", "hey"], "route": ["a", "b"]},
    instances=4,
)


def test_expansion_is_seeded_original_first_and_ids_hash_the_params():
    first, again = expand(TINY), expand(TINY)
    assert [t.id for t in first] == [t.id for t in again]
    assert len(first) == 4 and len({t.id for t in first}) == 4
    assert first[0].original and first[0].params == {"word": "hi", "route": "a"}
    assert first[0].prompt == "Return hi at /a."
    assert all(t.id.startswith("routing/tiny-") and not t.original for t in first[1:])
    bigger = expand(Family(**{**TINY.__dict__, "instances": 6}))
    assert {t.id for t in first} <= {t.id for t in bigger}  # ids do not depend on the count


def test_an_edit_that_no_longer_applies_fails_loudly():
    broken = Requirement("x", ("word",), (Edit("gone", "return 42", "return 0"),))
    task = expand(Family(**{**TINY.__dict__, "requirements": (broken,)}))[0]
    with pytest.raises(FamilyError, match="gone"):
        task.trap_sources()
    assert 'return "nope"' in expand(TINY)[0].trap_sources()["wrong word"]


def test_a_family_whose_traps_share_a_name_does_not_load():
    from fastapi_env.tasks import _check_placement

    twice = Requirement("x", ("word",), (Edit("same", "return ${word__json}", "return 1"),
                                         Edit("same", "return ${word__json}", "return 2")))
    with pytest.raises(FamilyError, match="two traps share a name"):
        _check_placement(Family(**{**TINY.__dict__, "requirements": (twice,)}),
                         "routing/tiny", "tests.tiny")
    _check_placement(TINY, "routing/tiny", "tests.tiny")  # the well-formed one loads


def test_a_template_naming_an_unknown_parameter_fails_loudly():
    with pytest.raises(FamilyError, match="missing"):
        expand(Family(**{**TINY.__dict__, "prompt": "uses ${missing}"}))


def test_requirements_without_probe_or_trap_or_unnamed_probes_are_problems():
    task = expand(TINY)[0]
    key = AnswerKey([[1]], {"probe_word": [[1]], "probe_extra": [[2]]})
    assert requirement_problems(task, key) == ["probe_extra checks no requirement"]
    bare = Requirement("y", (), ())
    lacking = expand(Family(**{**TINY.__dict__, "requirements": (*TINY.requirements, bare)}))[0]
    problems = requirement_problems(lacking, AnswerKey([[1]], {"probe_word": [[1]]}))
    assert any("names no probe" in p for p in problems)
    assert any("has no trap" in p for p in problems)


def test_splits_hold_out_whole_families():
    tasks = load_tasks()
    splits = defaultdict(set)
    for task in tasks:
        splits[task.family_id].add(task.split)
    assert all(len(s) == 1 for s in splits.values())
    test_families = [f for f, s in splits.items() if s == {"test"}]
    assert 0.1 <= len(test_families) / len(splits) <= 0.3
    shipped = json.loads(dataset.SPLITS_FILE.read_text())
    assert sorted(shipped["test"]) == sorted(test_families)


def test_selection_by_split_family_and_instances_per_family():
    records = dataset.load_records()
    train = dataset.select_records(None, None, None, "train")
    test = dataset.select_records(None, None, None, "test")
    assert {r["split"] for r in train} == {"train"} and {r["split"] for r in test} == {"test"}
    assert len(train) + len(test) == len(records)
    assert not {r["family"] for r in train} & {r["family"] for r in test}
    one_each = dataset.select_records(None, None, None, "all", 1)
    assert len(one_each) == len({r["family"] for r in records})
    assert all(r["original"] for r in one_each)
    family = records[0]["family"]
    whole = dataset.select_records(None, None, [family])
    assert {r["family"] for r in whole} == {family}
    assert len(dataset.select_records(None, None, [family], "all", 2)) == min(2, len(whole))
    with pytest.raises(ValueError, match="split"):
        dataset.select_records(None, None, None, "validation")


def test_no_two_instances_of_a_family_expect_the_same_rows():
    keys = dataset.load_keys()
    seen: dict[tuple[str, str], str] = {}
    for record in dataset.load_records():
        key = keys[record["id"]]
        rows = json.dumps([key.rows, key.probes], sort_keys=True)
        other = seen.setdefault((record["family"], rows), record["id"])
        assert other == record["id"], f"{record['id']} expects the same rows as {other}"


def test_the_shipped_dataset_matches_the_tasks_and_reads_with_datasets():
    from datasets import load_dataset

    tasks = {t.id: t for t in load_tasks()}
    records = dataset.load_records()
    assert {r["id"] for r in records} == set(tasks)
    assert set(dataset.load_keys()) == set(tasks)
    shipped = load_dataset("json", data_files=str(dataset.TASKS_FILE), split="train")
    assert len(shipped) == len(records)
    assert {"id", "family", "split", "prompt", "difficulty", "category"} <= set(
        shipped.column_names
    )


def _outcome(probes: dict, result=None, imported=True) -> dict:
    report = {"imported": imported, "failure": None, "result": result or [[1]],
              "probes": {n: {"rows": rows} for n, rows in probes.items()}}
    return {"report": report, "failure": None, "harness_error": None}


def test_partial_credit_is_the_fraction_of_requirements_met_and_security_ok_its_own():
    from fastapi_env.grading.host import score

    key = AnswerKey(
        [[1]],
        {"probe_a": [[1]], "probe_b": [[2]], "probe_c": [[3]]},
        requirements=(("probe_a", "probe_b"), ("probe_c",)),
        security=("probe_c",),
    )
    all_right = score(_outcome({"probe_a": [[1]], "probe_b": [[2]], "probe_c": [[3]]}), key)
    assert (all_right.reward, all_right.requirements_fraction, all_right.security_ok) == (
        1.0, 1.0, True)
    # probe_b wrong: the first requirement is unmet though one of its probes matches
    half = score(_outcome({"probe_a": [[1]], "probe_b": [[9]], "probe_c": [[3]]}), key)
    assert (half.reward, half.requirements_fraction, half.security_ok) == (0.0, 2 / 3, True)
    insecure = score(_outcome({"probe_a": [[1]], "probe_b": [[2]], "probe_c": [[0]]}), key)
    assert (insecure.requirements_fraction, insecure.security_ok) == (2 / 3, False)
    wrong_rows = score(_outcome({"probe_a": [[1]], "probe_b": [[2]], "probe_c": [[3]]},
                                result=[[5]]), key)
    assert (wrong_rows.reward, wrong_rows.requirements_fraction) == (0.0, 2 / 3)
    nothing = score({"report": None, "failure": "no_solution", "harness_error": None}, key)
    assert (nothing.requirements_fraction, nothing.security_ok) == (0.0, False)


def test_selection_by_tier():
    records = dataset.load_records()
    tiers = {r.get("tier", "basic") for r in records}
    for tier in tiers:
        chosen = dataset.select_records(None, None, None, tier=tier)
        assert chosen and {r.get("tier", "basic") for r in chosen} == {tier}
    assert len(dataset.select_records(None, None, None, tier=sorted(tiers))) == len(records)
    with pytest.raises(ValueError, match="unknown tier"):
        dataset.select_records(None, None, None, tier="impossible")


def test_a_repair_task_starts_from_its_setup_files_and_traps_edit_any_file():
    family = Family(**{
        **TINY.__dict__,
        "tier": "repair",
        "setup": {"words.py": "WORD = 'broken'\n"},
        "files": {"words.py": "WORD = ${word__json}\n"},
        "reference": "from fastapi import FastAPI\nfrom words import WORD\napp = FastAPI()\n"
        '@app.get("/${route}")\ndef f():\n    return WORD\nresult = [[1]]\n',
        "requirements": (Requirement("GET /${route} returns ${word}.", ("word",), (
            Edit("wrong word", "WORD = ${word__json}", "WORD = 'nope'", file="words.py"),)),),
    })
    task = expand(family)[0]
    assert task.workspace(None) == {"words.py": "WORD = 'broken'\n"}
    assert task.reference_workspace()["words.py"] == 'WORD = "hi"\n'
    trap = task.trap_workspaces()["wrong word"]
    assert trap["words.py"] == "WORD = 'nope'\n" and trap["solution.py"] == task.reference


def test_verify_traps_lists_each_traps_own_and_other_requirements(capsys):
    from fastapi_env.build import TaskReport
    from fastapi_env.build_cli import print_trap_spill

    task = next(t for t in load_tasks() if t.original and len(t.requirements) >= 3)
    first, second = task.requirements[0].traps[0], task.requirements[1].traps[0]
    report = TaskReport(task)
    report.trap_spill = {first: (), second: (1, 3)}
    print_trap_spill([report])
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{task.id}  trap {first!r}: requirement 1  (alone)",
                     f"{task.id}  trap {second!r}: requirement 2 + 1, 3"]


TWO_ROUTES = Family(
    id="routing/two_routes",
    title="two routes ${word}",
    category="routing",
    difficulty="easy",
    prompt="Return ${word} at /a and at /b.",
    reference='from fastapi import FastAPI\napp = FastAPI()\n@app.get("/a")\n'
    'def a():\n    return ${word__json}\n@app.get("/b")\ndef b():\n    return ${word__json}\n'
    "result = [[1]]\n",
    probes="def probe_a(client):\n    return [[client.get('/a').json()]]\n"
    "def probe_b(client):\n    return [[client.get('/b').json()]]\n",
    requirements=(
        Requirement("GET /a returns ${word}.", probes=("a",), traps=(
            Edit("wrong a", "    return ${word__json}\n@app.get", '    return "no"\n@app.get'),
            # breaks /b only: caught by the other requirement's probe, which must not count
            Edit("claims a, breaks b", "def b():\n    return ${word__json}",
                 'def b():\n    return "no"'),
        )),
        Requirement("GET /b returns ${word}.", probes=("b",), traps=(
            Edit("wrong b", "def b():\n    return ${word__json}", 'def b():\n    return 1'),)),
    ),
    original={"word": "hi"},
    space={"word": ["hi", "yo"]},
    instances=1,
)


def test_the_grader_stops_after_the_named_probe():
    import asyncio

    from fastapi_env.grading.runners import run_on_host

    task = expand(TWO_ROUTES)[0]
    outcome = asyncio.run(run_on_host(task.reference, task.probes, 30, stop_after="probe_a"))
    assert list(outcome["report"]["probes"]) == ["probe_a"]
    outcome = asyncio.run(run_on_host(task.reference, task.probes, 30))
    assert list(outcome["report"]["probes"]) == ["probe_a", "probe_b"]


@pytest.mark.parametrize("spill", [False, True])
def test_traps_are_graded_up_to_their_own_requirements_last_probe(spill):
    import asyncio

    from fastapi_env.build import verify_task
    from fastapi_env.grading.runners import run_on_host

    task = expand(TWO_ROUTES)[0]
    report = asyncio.run(verify_task(task, run_on_host, 30, spill=spill))
    assert report.problems == [
        "trap 'claims a, breaks b' passes every probe of its own requirement ('GET /a returns hi.')"
    ]
    # the spill (other requirements a trap breaks) is known only when every probe ran
    assert report.trap_spill == ({"wrong a": (), "claims a, breaks b": (2,), "wrong b": ()}
                                 if spill else {})
