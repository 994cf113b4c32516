"""What the model's uid can and cannot touch in a real box (README: "What the model's user can and
cannot touch"), each claim proved by trying it as the model would: from a bash command against
the init (PID 1), and from solution.py, during grading, against the grader's supervisor."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest

from fastapi_env.grading import host
from fastapi_env.grading.host import GRADER_PRELOAD, run_grader
from fastapi_env.sandbox import Limits
from fastapi_env.sandbox.docker import DockerSandbox

pytestmark = pytest.mark.docker

NONCE = "0123456789abcdef" * 2  # the grader's nonce in this test (token_hex is replaced)

# Every way of reaching another process that works between processes of one uid. Prints a JSON
# object: attempt -> "allowed" or the errno name it failed with.
ATTEMPTS = r'''
import ctypes, errno, json, os, platform, resource, signal

def attempts(pid):
    libc = ctypes.CDLL(None, use_errno=True)
    ioprio_set = {"x86_64": 251, "aarch64": 30}[platform.machine()]
    out = {}

    def attempt(name, call):
        try:
            call()
            out[name] = "allowed"
        except OSError as exc:
            out[name] = errno.errorcode.get(exc.errno, str(exc.errno))

    def checked(rc):
        if rc != 0:
            raise OSError(ctypes.get_errno(), "failed")

    for sig in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGSTOP", "SIGKILL"):
        attempt(f"kill {sig}", lambda: os.kill(pid, getattr(signal, sig)))
    attempt("prlimit read", lambda: resource.prlimit(pid, resource.RLIMIT_CPU))
    attempt("prlimit CPU 0", lambda: resource.prlimit(pid, resource.RLIMIT_CPU, (0, 0)))
    attempt("prlimit AS", lambda: resource.prlimit(pid, resource.RLIMIT_AS, (1 << 20, 1 << 20)))
    for i, tid in enumerate(sorted(map(int, os.listdir(f"/proc/{pid}/task")))):
        attempt(f"nice 19 thread {i}", lambda: os.setpriority(os.PRIO_PROCESS, tid, 19))
        attempt(f"SCHED_IDLE thread {i}", lambda: os.sched_setscheduler(
            tid, os.SCHED_IDLE, os.sched_param(0)))
        attempt(f"ioprio idle thread {i}",
                lambda: checked(libc.syscall(ioprio_set, 1, tid, 3 << 13)))
        attempt(f"ptrace attach thread {i}", lambda: checked(libc.ptrace(16, tid, 0, 0)))
    for name in ("mem", "environ", "fd/0", "fd/1", "maps"):
        attempt(f"open /proc/pid/{name}", lambda: open(f"/proc/{pid}/{name}", "rb").read(1))
    return out
'''

NONCE_HUNT = r'''
import gc, hashlib, re, sys

def hunt(digest):
    """Where this interpreter can find a string hashing to ``digest``: its call stack, every
    object the GC knows, its whole readable memory."""
    windows = re.compile(rb"[0-9a-f]{32,}")

    def holds(data):
        if isinstance(data, str):
            data = data.encode("latin-1", "replace")
        if not isinstance(data, (bytes, bytearray)):
            return False
        return any(hashlib.sha256(run[i:i + 32]).hexdigest() == digest
                   for run in windows.findall(data) for i in range(len(run) - 31))

    found = {"frames": False, "objects": False, "memory": False}
    frame = sys._getframe()
    while frame is not None:
        found["frames"] |= any(holds(v) for v in frame.f_locals.values())
        frame = frame.f_back
    for obj in gc.get_objects():
        values = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
        if any(holds(v) for v in values):
            found["objects"] = True
            break
    import ctypes  # a runner that dropped its uid is non-dumpable: its own mem is root's then

    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: as any process may for itself
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb") as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("r") or "[v" in line:
                continue
            start, end = (int(x, 16) for x in span.split("-"))
            try:
                mem.seek(start)
                if holds(mem.read(end - start)):
                    found["memory"] = True
            except (OSError, OverflowError, ValueError):
                pass
    return found
'''


def run(coro):
    return asyncio.run(coro)


async def with_box(preload, body):
    box = DockerSandbox(limits=Limits(memory_mb=512), preload=preload)
    async with box:
        return await body(box)


def test_the_model_cannot_touch_the_init():
    script = ATTEMPTS + "print(json.dumps(attempts(1)))\n"

    async def body(box):
        tried = await box.exec(["python3", "-c", script])
        status = await box.exec("grep -E '^(Uid|CapEff)' /proc/1/status; id -u")
        after = await box.exec("echo alive")
        return tried, status, after, box.model_ids

    tried, status, after, (uid, _) = run(with_box((), body))
    outcomes = json.loads(tried.stdout)
    assert outcomes and all(v in ("EPERM", "EACCES") for v in outcomes.values()), outcomes
    fields = dict(line.split(":\t") for line in status.stdout.splitlines()[:2])
    assert fields["Uid"].split() == ["0"] * 4
    # the init: only CAP_KILL (5), CAP_SETGID (6), CAP_SETUID (7), CAP_SETPCAP (8)
    assert int(fields["CapEff"], 16) == sum(1 << cap for cap in (5, 6, 7, 8))
    assert status.stdout.split()[-1] == str(uid)
    assert after.stdout == "alive\n"


@pytest.mark.parametrize("preload", [GRADER_PRELOAD, ()], ids=["warm-grader", "fresh-runner"])
def test_the_solution_cannot_touch_the_supervisor_nor_find_the_nonce(preload, monkeypatch):
    monkeypatch.setattr(host.secrets, "token_hex", lambda _: NONCE)
    digest = hashlib.sha256(NONCE.encode()).hexdigest()
    solution = (ATTEMPTS + NONCE_HUNT
                + "import os\nfrom fastapi import FastAPI\napp = FastAPI()\n"
                  "outcomes = attempts(os.getppid())\n"
                  f"found = hunt({digest!r})\n"
                  "result = [[name, v] for name, v in sorted(outcomes.items())]"
                  " + [['nonce in ' + k, v] for k, v in sorted(found.items())]"
                  " + [['uid', os.getuid(), os.getgid(), os.getgroups()]]\n")

    async def body(box):
        await box.write_file("/workspace/solution.py", solution)
        return await run_grader(box, "", timeout=60), box.model_ids

    outcome, (uid, gid) = run(with_box(preload, body))
    report = outcome.get("report") or {}
    assert report.get("failure") is None, (outcome.get("failure"), outcome.get("detail"))
    rows = {row[0]: row[1:] for row in report["result"]}
    assert rows.pop("uid") == [uid, gid, []]
    nonce = {k: v for k, v in rows.items() if k.startswith("nonce in ")}
    assert nonce == {f"nonce in {k}": [False] for k in ("frames", "memory", "objects")}
    attempts = {k: v[0] for k, v in rows.items() if k not in nonce}
    assert attempts and all(v in ("EPERM", "EACCES") for v in attempts.values()), attempts
