"""The escape suite through the real vf-eval CLI and the SandboxEnv binding (verifiers 0.3):
no model action turns its zero into a scoring_error or a rollout error (README: "What the
model's user can and cannot touch"). The same run on 0.4 is in test_escapes_v1.py."""

from __future__ import annotations

import pytest

from fastapi_env.evaluate import run_vf_eval

from .escape_suite import IDS, SETTINGS, check, policies, run_labels

pytestmark = pytest.mark.docker


def test_no_escape_causes_a_harness_error(tmp_path):
    labels, mine = run_labels()
    run = run_vf_eval("escape-suite", rollouts=1, concurrency=8, output_dir=tmp_path,
                      env_args={"ids": IDS, "labels": labels, **SETTINGS},
                      extra_policies=policies())
    check(run, mine)
