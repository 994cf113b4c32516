"""What the model's python3 prints in the box on its usual path: nothing that sends it after
something impossible (Starlette's "install httpx2"), while real errors and warnings still show."""

from __future__ import annotations

import asyncio

import pytest

from fastapi_env.sandbox.docker import DockerSandbox

pytestmark = pytest.mark.docker

SOLUTION = """\
from fastapi import FastAPI
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/")
def root():
    return {"ok": True}


result = [[TestClient(app).get("/").json()]]
print(result)
"""


def test_testclient_import_is_quiet_and_errors_still_show():
    async def body():
        async with DockerSandbox() as box:
            await box.write_file("/workspace/solution.py", SOLUTION)
            return [
                await box.exec(["python3", "solution.py"]),
                await box.exec(["python3", "-I", "-c", "import fastapi.testclient"]),
                await box.exec(["python3", "-c", "import httpx2"]),
                await box.exec(["python3", "-c", "import warnings; warnings.warn('still here')"]),
            ]

    run, isolated, missing, warned = asyncio.run(body())
    assert run.exit_code == 0 and run.stdout.strip() == "[[{'ok': True}]]", run
    assert "httpx2" not in run.stderr and run.stderr == "", run.stderr
    assert isolated.exit_code == 0 and isolated.stderr == "", isolated.stderr
    assert missing.exit_code == 1 and "ModuleNotFoundError" in missing.stderr
    assert "UserWarning: still here" in warned.stderr
