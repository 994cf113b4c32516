"""The escape suite through verifiers 0.4's vf-eval and the v1 binding (the tool path differs
from 0.3's). Runs where verifiers 0.4 is installed: ``.venv-v04/bin/pytest -q
tests/test_escapes_v1.py``; elsewhere the module skips."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

verifiers = pytest.importorskip("verifiers")
if tuple(int(p) for p in verifiers.__version__.split(".")[:2]) < (0, 4):
    pytest.skip(f"needs verifiers 0.4 (this env has {verifiers.__version__}): run "
                "`.venv-v04/bin/pytest -q tests/test_escapes_v1.py`", allow_module_level=True)

from fastapi_env.evaluate import run_vf_eval_v1  # noqa: E402

from .escape_suite import IDS, SETTINGS, check, policies, run_labels  # noqa: E402

pytestmark = pytest.mark.docker


def test_no_escape_causes_a_harness_error(tmp_path):
    labels, mine = run_labels()
    run = run_vf_eval_v1("escape-suite", rollouts=1, concurrency=8, output_dir=tmp_path,
                         taskset_args={"ids": IDS}, task_args={"labels": labels, **SETTINGS},
                         extra_policies=policies(),
                         vf_eval=Path(sys.executable).with_name("vf-eval"))
    check(run, mine)
