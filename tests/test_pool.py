"""The warm pool with real containers: fresh boxes, each handed out once, nothing left."""

from __future__ import annotations

import asyncio

import pytest

from fastapi_env.sandbox.docker import OWNER, DockerSandbox
from fastapi_env.sandbox.pool import WarmPool

from .conftest import labelled_containers

pytestmark = pytest.mark.docker


def test_pool_hands_out_each_fresh_box_once_and_cleans_up():
    async def body():
        pool = WarmPool(DockerSandbox, size=2)
        first = await pool.acquire()
        await first.write_file("/workspace/mark", "used")
        await asyncio.sleep(3)  # let the pool fill
        others = [await pool.acquire() for _ in range(3)]
        seen = [await b.exec("ls /workspace") for b in others]
        names = {first.name, *(b.name for b in others)}
        for box in [first, *others]:
            await box.stop()
        await pool.close()
        return names, seen

    names, seen = asyncio.run(body())
    assert len(names) == 4
    assert all(r.ok and r.stdout == "" for r in seen)  # no box carries another's files
    assert labelled_containers(f"fastapi-env.owner={OWNER}") == []


def test_a_disabled_pool_starts_on_demand():
    async def body():
        pool = WarmPool(DockerSandbox, size=0)
        box = await pool.acquire()
        alive = await box.is_alive()
        await box.stop()
        await pool.close()
        return alive

    assert asyncio.run(body())
    assert labelled_containers(f"fastapi-env.owner={OWNER}") == []
