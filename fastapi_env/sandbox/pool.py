"""A warm pool: sandboxes started ahead of demand, each handed out once.

Starting a container (and its init preloading FastAPI) takes a few tenths of a second; a pool
moves that off the rollout's critical path. Isolation is unchanged: a pooled sandbox is a fresh
container that no rollout has touched, and it is never returned to the pool. Sandboxes still in
the pool at exit are removed by the backend's exit hooks (they are live sandboxes like any other).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from fastapi_env.sandbox.base import Sandbox


class WarmPool:
    """Keeps up to ``size`` started sandboxes from ``factory`` ready; ``size=0`` disables it."""

    def __init__(self, factory: Callable[[], Sandbox], size: int) -> None:
        self.factory, self.size = factory, size
        self._ready: asyncio.Queue[Sandbox] = asyncio.Queue()
        self._starting: set[asyncio.Task] = set()
        self._closed = False

    def _refill(self) -> None:
        while not self._closed and self._ready.qsize() + len(self._starting) < self.size:
            task = asyncio.ensure_future(self._start_one())
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)

    async def _start_one(self) -> None:
        box = self.factory()
        try:
            await box.start()
        except (Exception, asyncio.CancelledError):
            await box.stop()  # acquire() starts its own and reports the error there
            return
        if self._closed:
            await box.stop()
        else:
            self._ready.put_nowait(box)

    async def acquire(self) -> Sandbox:
        """A started sandbox: a warm one if ready, else one started now."""
        try:
            box = self._ready.get_nowait()
        except asyncio.QueueEmpty:
            box = None
        self._refill()
        if box is not None and await box.is_alive():
            return box
        if box is not None:
            await box.stop()
        box = self.factory()
        try:
            await box.start()
        except BaseException:
            await box.stop()
            raise
        return box

    async def close(self) -> None:
        self._closed = True
        for task in list(self._starting):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        while not self._ready.empty():
            await self._ready.get_nowait().stop()
