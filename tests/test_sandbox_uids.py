"""A model uid per box, with real containers: concurrent boxes have different model uids, the
kernel's per-uid pipe quota no longer crosses boxes, a uid another process's box holds is
drawn again, and the model's process quota keeps pids free for the harness (README: "Kernel
quotas per uid")."""

from __future__ import annotations

import asyncio
import random
import subprocess
import uuid

import pytest

from fastapi_env.dataset import load_records
from fastapi_env.evaluate import evaluate_in_process
from fastapi_env.sandbox import Limits
from fastapi_env.sandbox.base import HARNESS_PIDS, MODEL_UID_RANGE
from fastapi_env.sandbox.docker import UID_LABEL, DockerSandbox, docker_client, preflight

pytestmark = pytest.mark.docker

F_GETPIPE_SZ = 1032
NEW_PIPE_SIZE = f"python3 -c 'import fcntl, os; print(fcntl.fcntl(os.pipe()[1], {F_GETPIPE_SZ}))'"
HOLD_PIPES = ("import os, resource, time\nresource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))"
              "\npipes = [os.pipe() for _ in range({n})]\nprint('holding', flush=True)\n"
              "time.sleep(60)\n")
# A bomb that never dies out: every process forks again whenever the kernel lets it (the
# shell bomb `bomb | bomb &` may die out once its forks fail).
STUBBORN_BOMB = ("python3 -c 'import os, time\nwhile True:\n    try:\n        os.fork()\n"
                 "    except OSError:\n        time.sleep(0.01)' &")
BOMBS = {"shell": "bomb() { bomb | bomb & }; bomb", "stubborn": STUBBORN_BOMB + " sleep 8"}
# From root (docker exec): the live processes of a uid, read from /proc.
COUNT_UID = ("python3 -c \"import os, sys\nn = 0\n"
             "for p in filter(str.isdigit, os.listdir('/proc')):\n    try:\n"
             "        n += open(f'/proc/{p}/status').read().split('Uid:')[1].split()[0]"
             " == sys.argv[1]\n    except (OSError, IndexError):\n        pass\nprint(n)\" ")


def run(coro):
    return asyncio.run(coro)


def bombing_policy(bomb_of: dict[str, str]):
    """A scripted policy: the task's bomb (``bomb_of``: task id -> BOMBS key), one more
    command while it runs, then done (the graded workspace has no solution: reward 0)."""
    def bombing(task, rows):
        return [("bash", {"command": BOMBS[bomb_of[task.id]]}),
                ("bash", {"command": "echo after"}), "Done."]

    return bombing


def held_pipes() -> int:
    """Enough pipes (16 pages each) to pass the host's per-uid soft quota."""
    soft_pages = int(open("/proc/sys/fs/pipe-user-pages-soft").read())
    return soft_pages // 16 + 100


def test_concurrent_boxes_have_their_own_uid_and_pipe_quota():
    pipes = held_pipes()

    async def body():
        async with DockerSandbox() as hog, DockerSandbox() as other:
            holding = asyncio.ensure_future(
                hog.exec(["python3", "-c", HOLD_PIPES.format(n=pipes)], timeout=90))
            await asyncio.sleep(4)
            sizes = [(await box.exec(NEW_PIPE_SIZE)).stdout.strip() for box in (hog, other)]
            holding.cancel()
            labels = [docker_client().api.inspect_container(box.container_id)["Config"]
                      ["Labels"][UID_LABEL] for box in (hog, other)]
            ids = [(await box.exec("id -u; id -g")).stdout.split() for box in (hog, other)]
            return hog.model_ids, other.model_ids, sizes, labels, ids

    hog_ids, other_ids, sizes, labels, ids = run(body())
    assert hog_ids[0] != other_ids[0]
    assert all(uid in MODEL_UID_RANGE for uid, _ in (hog_ids, other_ids))
    assert labels == [str(hog_ids[0]), str(other_ids[0])]
    assert ids == [[str(hog_ids[0])] * 2, [str(other_ids[0])] * 2]
    # the box over its uid's quota gets the kernel's minimum; the other box is untouched
    assert sizes == ["8192", "65536"]


def test_a_uid_another_process_holds_is_drawn_again(monkeypatch):
    """A box of another host process is seen only through the engine: its uid label."""
    taken = MODEL_UID_RANGE[12345]
    name = f"fastapi-env-uid-holder-{uuid.uuid4().hex[:8]}"
    holder = preflight()  # the sandbox image
    subprocess.run(["docker", "create", "--name", name, "--label", f"{UID_LABEL}={taken}",
                    holder, "true"], check=True, capture_output=True)
    draws = iter([taken, taken + 1])
    monkeypatch.setattr(random, "choice", lambda _: next(draws))
    try:
        async def body():
            async with DockerSandbox() as box:  # drew `taken` first: it knows only its own
                return box.model_ids, (await box.exec("id -u")).stdout.strip()

        box_ids, uid = run(body())
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)
    assert box_ids == (taken + 1, taken + 1) and uid == str(taken + 1)


def test_a_fork_bomb_cannot_take_the_harness_pids():
    limits = Limits(pids=64)
    nproc = limits.pids - HARNESS_PIDS

    async def body():
        async with DockerSandbox(limits=limits) as box:
            uid = str(box.model_ids[0])
            quota = (await box.exec("awk '/^Max processes/ {print $3, $4}' /proc/self/limits")
                     ).stdout.strip()
            await box.exec(STUBBORN_BOMB, timeout=5)
            await asyncio.sleep(3)
            counts, root_ran = [], 0
            for _ in range(5):  # root's commands (docker exec) still find pids
                counted = await box.exec(COUNT_UID + uid, user="0:0", timeout=30)
                root_ran += counted.exit_code == 0
                counts.append(int(counted.stdout or -1))
                await asyncio.sleep(0.2)
            await box.kill_model_processes()
            after = await box.exec("echo alive")
            return quota, counts, root_ran, after.stdout

    quota, counts, root_ran, after = run(body())
    assert quota == f"{nproc} {nproc}"  # soft and hard: the model cannot raise it
    assert root_ran == 5, counts
    assert max(counts) <= nproc and min(counts) >= nproc - 4, counts  # the bomb at its cap
    assert after == "alive\n"


def test_fork_bombs_are_the_models_zero_on_the_default_box():
    """Six bombs, two kinds, through the SandboxEnv binding: reward 0, never a scoring error."""
    ids = sorted(r["id"] for r in load_records())[:6]
    bomb_of = dict(zip(ids, [*BOMBS] * 3, strict=True))
    results = run(evaluate_in_process(
        ["bombing"], ids=ids, rollouts=1, concurrency=4,
        env_kwargs={"command_timeout": 10, "grading_timeout": 20, "pids": 64},
        extra_policies={"bombing": bombing_policy(bomb_of)}))
    outcomes = sorted((bomb_of[r["info"]["task_id"]], r["reward"],
                       (r.get("grade") or {}).get("scoring_error")) for r in results["bombing"])
    assert outcomes == sorted((kind, 0.0, None) for kind in bomb_of.values()), [
        (r["info"]["task_id"], (r.get("grade") or {}).get("reason")) for r in results["bombing"]]


def test_the_init_names_the_model_as_the_runtime_path_does(tmp_path):
    """The init imports nothing of the project: its entries must be base's, which the runtime
    path writes."""
    from fastapi_env.sandbox import init
    from fastapi_env.sandbox.base import group_line, passwd_line

    (tmp_path / "passwd.image").write_text("root:x:0:0:root:/root:/bin/sh\n")
    (tmp_path / "group.image").write_text("root:x:0:\n")
    init.name_the_model(0x7123_4567, 0x7123_4567, directory=tmp_path, image_dir=tmp_path)
    assert (tmp_path / "passwd").read_text() == ("root:x:0:0:root:/root:/bin/sh\n"
                                                 + passwd_line(0x7123_4567, 0x7123_4567))
    assert (tmp_path / "group").read_text() == "root:x:0:\n" + group_line(0x7123_4567)
