"""The sandbox container's first process (PID 1), run as the model's user. Standard library only.

It runs as ``python3 -I -c <this source> <lifetime seconds> [module to preload ...]`` and:

* ends the container when its lifetime is over (so a crashed host cannot leave it running);
* reaps orphans; on SIGUSR1 kills every other process of its user (the host sends that signal
  through the engine, so no new process is needed inside a box whose pids are exhausted);
* cannot be killed from inside: a namespace's init ignores signals it has no handler for, and it
  makes itself non-dumpable so a process of the same user cannot read or trace it;
* is a fork server: it binds an abstract unix socket, preloads the named modules (FastAPI's test
  client, which costs about 0.3 s of CPU per fresh Python) in the background of the model's
  turns, and for each connection forks a child that runs the Python source the connection sends.
  Clients check the peer is PID 1 (``SO_PEERCRED``), so no other process can pose as it.

Its forked children raise their ``oom_score_adj`` so that memory pressure kills them before it.
If the model's processes still exhaust the box's memory and the kernel kills the init, the
container dies ``OOMKilled``, which the host reads as the model's failure, not the harness's.
"""

import json
import os
import signal
import socket
import struct
import sys
import time

SOCKET_NAME = b"\0fastapi-env-zygote"
CHILD_OOM_SCORE_ADJ = b"500"


GENERATION = [0]


def set_name(name):
    """Set this process's name (what ``ps -o comm`` shows the host)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME = 15
    except Exception:
        pass


def kill_all(*_):
    """SIGUSR1: kill every other process of the user, then bump the generation in our name, so
    the host knows the kill has happened (and no late signal can hit what it starts next)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    GENERATION[0] += 1
    set_name(f"fae-init-{GENERATION[0]}")


def reap(*_):
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def make_undumpable():
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:
        pass


def read_message(conn):
    header = conn.recv(4, socket.MSG_WAITALL)
    (size,) = struct.unpack(">I", header)
    data = bytearray()
    while len(data) < size:
        chunk = conn.recv(min(65536, size - len(data)))
        if not chunk:
            raise EOFError("connection closed mid-message")
        data += chunk
    return json.loads(data)


def serve_child(server, conn):
    """In the forked child: become an ordinary process of the user and run the sent source."""
    signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    server.close()
    os.setsid()
    try:
        with open("/proc/self/oom_score_adj", "wb") as adj:
            adj.write(CHILD_OOM_SCORE_ADJ)
    except OSError:
        pass
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        message = read_message(conn)
        namespace = {"__name__": "__zygote__", "ZYGOTE_CONN": conn, "ZYGOTE_JOB": message["job"]}
        exec(compile(message["source"], "<zygote>", "exec"), namespace)
    finally:
        os._exit(0)


def main():
    deadline = time.monotonic() + float(sys.argv[1])
    make_undumpable()
    signal.signal(signal.SIGUSR1, kill_all)
    signal.signal(signal.SIGCHLD, reap)
    set_name("fae-init-0")  # only now: a visible generation means the handler is in place
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(SOCKET_NAME)  # first, so nothing else can take the name
    server.listen(16)
    for module in sys.argv[2:]:
        try:
            __import__(module)
        except Exception:
            pass  # the fork server still works, only slower
    while time.monotonic() < deadline:
        try:
            server.settimeout(max(0.1, min(5.0, deadline - time.monotonic())))
            conn, _ = server.accept()
        except (TimeoutError, InterruptedError):
            continue
        except Exception:
            time.sleep(0.1)
            continue
        try:
            if os.fork() == 0:
                serve_child(server, conn)
        except Exception:
            pass  # e.g. no pids left: the client falls back to a fresh Python
        finally:
            conn.close()


if __name__ == "__main__":
    main()
