"""Serve the 0.4 binding as prime-rl does, and drive it with a scripted policy.

prime-rl never runs ``vf-eval``'s in-process loop: it serves the environment with
``verifiers.v1.serve`` (one ``EnvServer``, or an ``EnvServerPool`` of worker processes) and
sends each task over ZMQ as its ``TaskData`` dump; every worker rebuilds the task from that
wire form and the env config alone. ``run_served`` does the same on loopback: the client side
loads the taskset and dumps each task's data, a spawned process serves the env, an
``EnvClient`` runs every rollout against a scripted ``PolicyServer``. Needs verifiers 0.4.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi_env.evaluate import KEY_VARIABLE, EvalRun, rollout_of_trace
from fastapi_env.policy_server import PolicyServer

TASKSET_ID = "fastapi-env"
STARTUP_TIMEOUT_S = 180.0


@dataclass
class ServedRun(EvalRun):
    task_data: list[dict]  # what went over the wire, one dump per rollout
    episodes: list[dict]  # what came back (JSON dumps of the WireEpisodes)
    workers: int = 1


def env_config_data(taskset_args: dict | None = None, task_args: dict | None = None) -> dict:
    """The env config both sides build from (prime-rl ships the same one to its servers)."""
    return {"taskset": {"id": TASKSET_ID, **(taskset_args or {}), "task": task_args or {}}}


def wire_tasks(config_data: dict) -> list[dict]:
    """The client side's tasks, as prime-rl dispatches them: each task's ``TaskData`` dump."""
    from verifiers.v1.utils.loaders import load_taskset, resolve_env_config

    config = resolve_env_config(config_data)
    return [task.data.model_dump(mode="json") for task in load_taskset(config.taskset)]


def _serve(config_data: dict, workers: int, address_queue: Any) -> None:
    """The server process: one EnvServer (workers == 1) or an EnvServerPool of ``workers``
    processes, all started up front. SIGTERM tears it down through the env's ``stop``."""
    from verifiers.v1.serve import serve_env

    serve_env(max_workers=workers, elastic=False, address="tcp://127.0.0.1:0",
              address_queue=address_queue, config_data=config_data)


async def _run_all(address: str, base_url: str, jobs: list[tuple[str, dict]],
                   concurrency: int) -> list[dict]:
    from verifiers.v1.configs.client import EvalClientConfig
    from verifiers.v1.serve import EnvClient
    from verifiers.v1.types import SamplingConfig

    client = EnvClient(address)
    gate = asyncio.Semaphore(concurrency)
    endpoint = EvalClientConfig(base_url=base_url, api_key_var=KEY_VARIABLE)

    async def one(policy: str, task_data: dict) -> dict:
        async with gate:  # the model name picks the scripted policy
            episode = await client.run(endpoint, f"scripted-{policy}", SamplingConfig(),
                                       task_data)
        return episode.model_dump(mode="json")

    try:
        await client.wait_for_server_startup(timeout=STARTUP_TIMEOUT_S)
        return await asyncio.gather(*(one(policy, data) for policy, data in jobs))
    finally:
        await client.close()


def run_served(
    policies: list[str],
    *,
    workers: int = 1,
    rollouts: int = 1,
    concurrency: int = 4,
    taskset_args: dict | None = None,
    task_args: dict | None = None,
    extra_policies: dict | None = None,
) -> dict[str, ServedRun]:
    """Serve the env once (``workers`` processes; 1: a lone EnvServer), send every selected
    task ``rollouts`` times per policy through an EnvClient against the scripted policies,
    then stop the server. Returns each policy's run; its rollouts are traces in the shape of
    ``rollout_of_trace``; ``seconds`` is the whole session's wall time (start-up included)."""
    config_data = env_config_data(taskset_args, task_args)
    tasks = wire_tasks(config_data)
    jobs = [(policy, t) for policy in policies for t in tasks for _ in range(rollouts)]
    os.environ.setdefault(KEY_VARIABLE, "offline-no-key-needed")  # the workers inherit it
    spawn = mp.get_context("spawn")
    queue = spawn.Queue()
    server = spawn.Process(target=_serve, args=(config_data, workers, queue), daemon=False)
    started = time.monotonic()
    server.start()
    try:
        address = queue.get(timeout=STARTUP_TIMEOUT_S)
        with PolicyServer(policies[0], extra_policies=extra_policies) as policy_server:
            episodes = asyncio.run(_run_all(address, policy_server.base_url, jobs, concurrency))
    finally:
        server.terminate()  # SIGTERM: serve_env's teardown runs FastAPIEnv.stop (the sweep)
        server.join(timeout=60)
        if server.is_alive():
            server.kill()
            server.join()
    seconds = time.monotonic() - started
    runs = {}
    for policy in policies:
        mine = [(data, e) for (p, data), e in zip(jobs, episodes, strict=True) if p == policy]
        rows = [rollout_of_trace(trace) for _, e in mine for trace in e.get("traces") or []]
        runs[policy] = ServedRun(policy, Path("."), rows, seconds, server.exitcode or 0,
                                 task_data=[d for d, _ in mine], episodes=[e for _, e in mine],
                                 workers=workers)
    return runs
