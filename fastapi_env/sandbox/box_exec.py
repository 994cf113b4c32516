"""Runs one command inside a box reached through a verifiers runtime (see ``vf_runtime.py``).

It must run alone (standard library only): the host starts it as root with
``python3 -I -S -c <this source> <spec as JSON>``, because a runtime's ``run`` has no stdin, no
timeout, no output bound and (on some runtimes) no other user. It gives a command those:

* **user**: the command runs as ``uid:gid`` with no supplementary groups (the model's user); the
  wrapper stays root, so nothing the command starts can signal or trace it;
* **stdin**: the bytes the host staged in a root-only directory are read, unlinked, and fed to
  the command through a pipe. A job that must stay secret (the grader's nonce and probes) thus
  never appears in any argv and is never a file the model's user could open;
* **timeout**: at the deadline the command's session is killed (the host then kills every
  process of the user) and the wrapper returns; the host decides "timed out" by its own clock;
* **output**: at most ``limit`` bytes of each stream come back, then a visible marker;
* **memory**: the command and its descendants are the kernel's first OOM victims
  (oom_score_adj 1000), so a memory or fork bomb cannot get this wrapper killed instead;
* **files**: no file the command writes grows past ``file_limit`` bytes (RLIMIT_FSIZE), as the
  default box's /workspace tmpfs bounds it (the runtimes have no such tmpfs);
* **processes**: the command's uid may hold at most ``nproc`` processes (RLIMIT_NPROC, which
  root ignores): the uid is the box's own, so the count is the box's, and the pids above it
  stay free for the harness while a fork bomb runs.

With ``"kill": true`` instead of ``argv`` it kills every process of ``uid``: a fork of this
wrapper takes the uid (no exec, so its process quota cannot refuse it) and calls ``kill(-1)``,
which the kernel delivers to all of them at once (a fork bomb cannot outrun it).

Exit status: the command's, or 128 + the signal that ended it; 127 when it could not start.
"""

import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import threading
import time

GRACE_S = 0.5  # after the command exits, how long output of its leftovers is still read
MARKER = "\n[... output truncated by fastapi-env: {omitted} more bytes omitted ...]\n"


def set_oom_score_adj(value):
    """This process's; the child inherits it. (The child cannot set its own: after the uid
    change it is no longer dumpable, so its /proc files are root's.) Going back down to 0
    needs no privilege, since no privileged process raised the minimum."""
    with open("/proc/self/oom_score_adj", "w") as f:
        f.write(str(value))


def read_stdin(path):
    if not path:
        return None
    with open(path, "rb") as f:
        data = f.read()
    os.unlink(path)
    return data


def feed(pipe, data):
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def collect(child, deadline, limit):
    """Read both streams, bounded; stop at EOF, at the deadline, or a grace after the exit."""
    kept = {child.stdout: bytearray(), child.stderr: bytearray()}
    omitted = {child.stdout: 0, child.stderr: 0}
    selector = selectors.DefaultSelector()
    for stream in kept:
        os.set_blocking(stream.fileno(), False)
        selector.register(stream, selectors.EVENT_READ)
    exited_at = None
    while selector.get_map():
        now = time.monotonic()
        if exited_at is None and child.poll() is not None:
            exited_at = now
        end = deadline if exited_at is None else min(deadline, exited_at + GRACE_S)
        if now >= end:
            break
        for key, _ in selector.select(min(end - now, 0.1)):
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            room = max(limit - len(kept[key.fileobj]), 0)
            kept[key.fileobj] += chunk[:room]
            omitted[key.fileobj] += len(chunk) - min(room, len(chunk))
    texts = []
    for stream in (child.stdout, child.stderr):
        data = bytes(kept[stream])
        if omitted[stream]:
            data += MARKER.format(omitted=omitted[stream]).encode()
        texts.append(data)
    return texts


def kill_all_of(uid, gid):
    """Every process of ``uid`` killed, from a fork that becomes it; 0 once done."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)  # never reaches this fork itself
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    return 0


def run(spec):
    if spec.get("kill"):
        return kill_all_of(spec["uid"], spec["gid"])
    stdin = read_stdin(spec.get("stdin_path"))
    limit = spec["file_limit"]
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # inherited by the command
    if spec.get("nproc"):
        resource.setrlimit(resource.RLIMIT_NPROC, (spec["nproc"], spec["nproc"]))
    set_oom_score_adj(1000)
    try:
        child = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            user=spec["uid"],
            group=spec["gid"],
            extra_groups=[],
            start_new_session=True,
        )
    except OSError as exc:
        sys.stderr.write(f"{spec['argv'][0]}: {exc.strerror or exc}\n")
        return 127
    finally:
        set_oom_score_adj(0)
    if stdin is not None:
        threading.Thread(target=feed, args=(child.stdin, stdin), daemon=True).start()
    deadline = time.monotonic() + spec["timeout"]
    out, err = collect(child, deadline, spec["limit"])
    if child.poll() is None and time.monotonic() >= deadline:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        code = child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        code = -signal.SIGKILL
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(run(json.loads(sys.argv[1])))
