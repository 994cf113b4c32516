"""Shared fixtures. Tests marked ``docker`` need a real engine and the sandbox image; they fail
(never skip silently) when the engine is missing, unless FASTAPI_ENV_SKIP_DOCKER=1 is set."""

from __future__ import annotations

import os
import subprocess

import pytest

LABEL = "fastapi-env"


def labelled_containers(extra_filter: str | None = None) -> list[str]:
    argv = ["docker", "ps", "-aq", "--filter", f"label={LABEL}"]
    if extra_filter:
        argv += ["--filter", f"label={extra_filter}"]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()


def sleep_first(seconds: int):
    """A scripted policy: a bash call sleeping ``seconds`` (time to interfere with the box),
    then the reference script."""
    from fastapi_env.policy_server import reference_script

    def script(task, rows):
        return [("bash", {"command": f"sleep {seconds}"}), *reference_script(task, rows)]

    return script


def pytest_collection_modifyitems(config, items):
    if os.environ.get("FASTAPI_ENV_SKIP_DOCKER") == "1":
        skip = pytest.mark.skip(reason="FASTAPI_ENV_SKIP_DOCKER=1")
        for item in items:
            if "docker" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def no_leaked_containers(request):
    """After the whole session, no container of this test process may remain. A session that
    ran no test marked ``docker`` (say, the dataset tests alone) started none, and may run where
    no engine is."""
    yield
    if os.environ.get("FASTAPI_ENV_SKIP_DOCKER") == "1":
        return
    if not any("docker" in item.keywords for item in request.session.items):
        return
    from fastapi_env.sandbox.docker import OWNER

    leftovers = labelled_containers(f"{LABEL}.owner={OWNER}")
    assert not leftovers, f"containers leaked by this test session: {leftovers}"


def interfere_with_first(label_filter: str, action: str = "kill", after_s: float = 2.0,
                         wait_s: float = 240.0) -> None:
    """Wait for the first container matching a label filter, let it run ``after_s`` seconds,
    then ``docker kill`` or ``docker pause`` it (a fault injected from outside)."""
    import time

    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        found = labelled_containers(label_filter)
        if found:
            time.sleep(after_s)
            subprocess.run(["docker", action, found[0]], capture_output=True)
            return
        time.sleep(0.1)


def original_ids(*families: str) -> list[str]:
    """The original instance (the hand-written task) of each family, in the order given."""
    from fastapi_env.dataset import select_records

    return [r["id"] for f in families for r in select_records(None, None, [f], "all", 1)]
