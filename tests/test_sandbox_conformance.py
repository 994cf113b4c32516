"""The conformance suite every sandbox backend must pass, run against the real engine.

Isolation is shown by what the box has (interfaces, routes, capabilities), never by sending
traffic anywhere.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from fastapi_env.sandbox import Limits, Sandbox, SandboxError
from fastapi_env.sandbox.base import MODEL_UID_RANGE
from fastapi_env.sandbox.docker import DockerSandbox

from .conftest import LABEL, labelled_containers

pytestmark = pytest.mark.docker

BACKENDS = {"docker": DockerSandbox}


@pytest.fixture(params=sorted(BACKENDS))
def make_box(request):
    return lambda **kwargs: BACKENDS[request.param](**kwargs)


def run(coro):
    return asyncio.run(coro)


async def in_box(make_box, body, **kwargs):
    async with make_box(**kwargs) as box:
        return await body(box)


def test_text_binary_and_large_files(make_box):
    blob = bytes(range(256)) * 4096 * 3  # 3 MiB of every byte value

    async def body(box: Sandbox):
        await box.write_file("/workspace/a/b/text.txt", "héllo\nworld\n")
        await box.write_file("/workspace/blob.bin", blob)
        text = await box.read_file("/workspace/a/b/text.txt")
        back = await box.read_file("/workspace/blob.bin")
        with pytest.raises(FileNotFoundError):
            await box.read_file("/workspace/missing")
        return text, back

    text, back = run(in_box(make_box, body))
    assert text.decode() == "héllo\nworld\n"
    assert back == blob


def test_exit_codes_stdout_stderr_and_stdin(make_box):
    async def body(box: Sandbox):
        return (
            await box.exec("echo out; echo err >&2; exit 3"),
            await box.exec(
                ["python3", "-c", "import sys; print(sys.stdin.read().upper())"], stdin=b"piped"
            ),
            await box.exec("exit 124"),
        )

    plain, piped, exits_124 = run(in_box(make_box, body))
    assert (plain.exit_code, plain.stdout, plain.stderr) == (3, "out\n", "err\n")
    assert piped.stdout == "PIPED\n" and piped.ok
    assert exits_124.exit_code == 124 and not exits_124.timed_out


def test_commands_and_python_start_as_fresh_processes(make_box):
    """However a backend starts them (the Docker one forks its init), a program sees default
    signal dispositions, and ``run_python`` sees what a fresh ``python3 -c`` would."""
    probe = ("import os, signal, sys; print([str(signal.getsignal(s)) for s in (signal.SIGPIPE,"
             " signal.SIGXFSZ, signal.SIGINT, signal.SIGUSR1, signal.SIGCHLD)], sys.argv, __name__,"
             " os.getsid(0) == os.getpid(), os.getcwd(), sys.stdin.read())")

    async def body(box: Sandbox):
        return (
            await box.exec("yes | head -1"),
            await box.exec(["python3", "-I", "-S", "-c", probe], stdin=b"in"),
            await box.run_python(probe, stdin=b"in"),
            await box.run_python("import sys; print('out'); sys.exit(3)"),
        )

    from fastapi_env.grading.host import GRADER_PRELOAD

    piped, fresh, forked, exits = run(in_box(make_box, body, preload=GRADER_PRELOAD))
    assert (piped.stdout, piped.stderr, piped.exit_code) == ("y\n", "", 0)
    assert fresh.ok and forked.ok, (fresh, forked)
    assert forked.stdout == fresh.stdout
    assert (exits.exit_code, exits.stdout) == (3, "out\n")


def test_the_model_cannot_reach_the_inits_stdio(make_box):
    """The Docker backend's command channel is PID 1's stdin and stdout: nothing else may write
    requests to it or forge frames on it."""

    async def body(box: Sandbox):
        return [await box.exec(f"echo x > /proc/1/fd/{fd}") for fd in (0, 1)] + [
            await box.exec("ls /proc/1/fd")]

    for result in run(in_box(make_box, body)):
        assert result.exit_code != 0 and "Permission denied" in result.stderr, result


def test_timeout_kills_the_whole_tree(make_box):
    async def body(box: Sandbox):
        started = time.monotonic()
        slow = await box.exec("(setsid sleep 300 &) ; sleep 300 & sleep 300", timeout=2)
        elapsed = time.monotonic() - started
        procs = await box.exec("for p in /proc/[0-9]*; do cat $p/cmdline; echo; done", user="0:0")
        return slow, elapsed, procs

    slow, elapsed, procs = run(in_box(make_box, body))
    assert slow.timed_out and slow.exit_code is None
    assert elapsed < 10
    assert "sleep300" not in procs.stdout.replace("\x00", ""), procs.stdout


def test_output_limit_has_a_visible_marker(make_box):
    async def body(box: Sandbox):
        return await box.exec("head -c 200000 /dev/zero | tr '\\0' x", output_limit=1000)

    result = run(in_box(make_box, body))
    assert result.truncated
    assert result.stdout.startswith("x" * 1000)
    assert "output truncated" in result.stdout and "199000 more bytes" in result.stdout


def test_user_and_workdir(make_box):
    async def body(box: Sandbox):
        return (
            box.model_ids,
            await box.exec("id -u; pwd"),
            await box.exec("id -u; pwd", user="0:0", workdir="/tmp"),
            await box.exec("touch /etc/x"),
        )

    (uid, gid), model, root, readonly = run(in_box(make_box, body))
    assert uid in MODEL_UID_RANGE and gid == uid
    assert model.stdout.split() == [str(uid), "/workspace"]
    assert root.stdout.split() == ["0", "/tmp"]
    assert readonly.exit_code != 0


IDENTITY = ("id; whoami; echo home=$HOME; python3 -c 'import getpass, os, pwd; "
            "print(getpass.getuser(), pwd.getpwuid(os.getuid()).pw_dir)'; "
            "pip cache dir 2>&1 | tail -1; ls -ln /workspace -d; "
            "touch /etc/passwd /etc/fastapi-env/passwd /etc/fastapi-env/x 2>&1 | wc -l; "
            "grep -c . /etc/passwd; grep '^root:' /etc/passwd | cut -d: -f1-3")


def test_the_model_is_an_ordinary_named_user_who_cannot_rename_itself(make_box):
    async def body(box: Sandbox):
        return box.model_ids, await box.exec(IDENTITY)

    (uid, gid), result = run(in_box(make_box, body))
    lines = result.stdout.splitlines()
    assert lines[0] == f"uid={uid}(model) gid={gid}(model) groups={gid}(model)", result.stderr
    assert lines[1:4] == ["model", "home=/workspace", "model /workspace"]
    assert lines[4] == "/workspace/.cache/pip"
    assert lines[5].split()[2:4] == [str(uid), str(gid)]  # the workspace is the model's
    assert lines[6] == "3"  # three refusals: the passwd file and its directory are root's
    assert int(lines[7]) > 5 and lines[8] == "root:x:0"  # the image's own users are still there


def test_network_capabilities_and_privileges_are_off(make_box):
    async def body(box: Sandbox):
        return (
            await box.exec("cat /proc/net/dev"),
            await box.exec("cat /proc/net/route /proc/net/ipv6_route"),
            await box.exec("grep -E '^(CapPrm|CapEff|CapBnd|NoNewPrivs)' /proc/self/status"),
        )

    dev, routes, status = run(in_box(make_box, body))
    interfaces = [line.split(":")[0].strip() for line in dev.stdout.splitlines() if ":" in line]
    assert interfaces == ["lo"]
    route_lines = [ln for ln in routes.stdout.splitlines() if ln.strip()]
    # IPv4: only the header line; IPv6: only loopback entries (device "lo"), if any.
    assert route_lines[0].startswith("Iface")
    assert all(ln.split()[-1] == "lo" for ln in route_lines[1:]), routes.stdout
    fields = dict(line.split(":\t") for line in status.stdout.strip().splitlines())
    # the model's processes: no capability now, none in reach through any exec
    assert [int(fields[f], 16) for f in ("CapPrm", "CapEff", "CapBnd")] == [0, 0, 0], fields
    assert fields["NoNewPrivs"].strip() == "1"


def test_loopback_works_and_localhost_resolves(make_box):
    """Offline is not broken: a server the model starts on loopback answers at ``localhost``
    (traffic that never leaves the box's own network namespace)."""
    serve_and_fetch = textwrap.dedent("""
        import http.server, socket, threading, urllib.request
        server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://localhost:{server.server_port}/"
        print(urllib.request.urlopen(url, timeout=10).status)
        print(sorted({info[4][0] for info in socket.getaddrinfo("localhost", 80)}))
    """)

    result = run(in_box(make_box, lambda box: box.exec(["python3", "-c", serve_and_fetch])))
    assert result.exit_code == 0, result.stderr
    status, addresses = result.stdout.splitlines()
    assert status == "200"
    assert "127.0.0.1" in addresses


def test_fork_bomb_and_memory_bomb_are_contained(make_box):
    fork_bomb = "bomb() { bomb | bomb & }; bomb"
    memory_bomb = "python3 -c 'x = bytearray(4 * 1024**3); print(len(x))'"

    async def body():
        small = Limits(pids=64, memory_mb=256)
        async with make_box(limits=small) as victim, make_box(limits=small) as neighbour:
            fork = victim.exec(fork_bomb, timeout=5)
            beat = neighbour.exec("for i in 1 2 3; do sleep 1; echo ok; done", timeout=20)
            fork_result, beat_result = await asyncio.gather(fork, beat)
            await victim.kill_model_processes()  # the bomb runs on in the background
            memory = await victim.exec(memory_bomb, timeout=30)
            after = await victim.exec("echo alive")
            return fork_result, beat_result, memory, after

    fork_result, beat_result, memory, after = run(body())
    assert "fork" in fork_result.stderr.lower() or fork_result.timed_out  # the pids limit held
    assert beat_result.stdout.split() == ["ok", "ok", "ok"]
    assert memory.exit_code != 0 and "4294967296" not in memory.stdout
    assert after.stdout == "alive\n"


def test_stop_is_idempotent_and_exec_after_stop_fails(make_box):
    async def body():
        box = make_box()
        await box.start()
        await box.stop()
        await box.stop()
        with pytest.raises(SandboxError):
            await box.exec("true")

    run(body())


def test_lifetime_cap_stops_the_container_by_itself(make_box):
    """The cap is enforced inside the box: it stops with no help from the host (what is left is
    removed by ``stop``, or by the stale sweep at the next start if the host process is gone)."""

    async def body():
        box = make_box(limits=Limits(lifetime_s=2))
        await box.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and await box.is_alive():
            await asyncio.sleep(0.5)
        return await box.is_alive(), box

    alive, box = run(body())
    assert not alive
    state = subprocess.run(["docker", "inspect", "-f", "{{.State.Status}}", box.name],
                           capture_output=True, text=True).stdout.strip()
    assert state == "exited"
    box.stop_now()
    assert not subprocess.run(["docker", "ps", "-aq", "--filter", f"name={box.name}"],
                              capture_output=True, text=True).stdout.strip()


def test_cancelled_start_leaves_no_container(make_box):
    async def body():
        box = make_box()
        task = asyncio.ensure_future(box.start())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(3)  # the creation finishes in its thread, then is removed
        return box.name

    name = run(body())
    time.sleep(1)
    assert not subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"name={name}"], capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_process_sweeps_its_containers(signum):
    script = textwrap.dedent("""
        import asyncio, sys
        from fastapi_env.sandbox.docker import DockerSandbox
        async def main():
            boxes = [DockerSandbox() for _ in range(2)]
            await asyncio.gather(*(b.start() for b in boxes))
            print("started", flush=True)
            await asyncio.sleep(600)
        asyncio.run(main())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "started"
        owner = f"{os.uname().nodename}:{proc.pid}"
        assert len(labelled_containers(f"{LABEL}.owner={owner}")) == 2
        proc.send_signal(signum)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert labelled_containers(f"{LABEL}.owner={owner}") == []


def test_a_flood_of_output_stops_the_command(make_box):
    async def body(box: Sandbox):
        started = time.monotonic()
        result = await box.exec("yes flood", timeout=60, output_limit=1000)
        return result, time.monotonic() - started

    result, elapsed = run(in_box(make_box, body))
    assert result.truncated and not result.timed_out
    assert "stopped the command" in result.stderr
    assert elapsed < 30
