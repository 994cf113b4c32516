"""The sandbox container's first process (PID 1). Standard library only.

It runs as ``python3 -I -c <this source> <lifetime seconds> offline|online <model uid:gid>
[module to preload ...]``, started as root with only CAP_SETUID, CAP_SETGID, CAP_SETPCAP and
CAP_KILL (and no-new-privileges), and:

* gives the model's uid (the box's own, drawn by the host) a name: it writes the image's
  ``/etc/passwd.image`` and ``/etc/group.image`` plus a ``model`` entry into the root-owned
  ``/etc/fastapi-env`` tmpfs that ``/etc/passwd`` and ``/etc/group`` point to, before it reads
  any request (``whoami``, ``getpass.getuser()`` and pip's cache then work as for any user);
* runs the host's commands: the host writes requests to its stdin (through the engine's attach
  stream, opened once per container) and reads their output and exit codes back from its stdout,
  in the frames defined below. A command costs a fork and an exec here, about 1 ms, where a
  ``docker exec`` costs about 55 ms of CPU (measured); the box still has no network;
* refuses every command (a REFUSED frame, a harness error on the host) if the box is meant to be
  offline but has a network interface other than loopback, or a route off it: the engine made
  the box, and the box checks what it got;
* ends the container when its lifetime is over (so a crashed host cannot leave it running);
* reaps orphans; on a kill request kills every other process of its user, with no new process
  needed inside a box whose pids are exhausted, and answers once it is done;
* is out of the model's reach: every command runs as the model's uid, which the init (root)
  is not, so the model's processes can neither signal it, nor set its resource limits
  (``prlimit``), nor change its scheduling (nice, ``SCHED_IDLE``, I/O priority), nor trace it or
  read its memory, environment or descriptors (it is also non-dumpable): only the host speaks on
  the channel. A child drops to the model's uid and gid (no supplementary groups) before it runs
  anything, which clears every capability, and empties its bounding set: no exec can regain one;
* runs Python source in a fork of itself on request (the grader), with the named modules
  (FastAPI's test client and what it imports lazily: about 0.3 s of CPU per fresh Python)
  preloaded in a thread while the model's turns run. A ``"privileged"`` Python request (the
  grader's supervisor) keeps the init's uid and capabilities, so the model cannot reach it either;
  it drops to the model's uid itself for the part that runs the model's code.

Its children raise their ``oom_score_adj`` so that memory pressure kills them before it. If the
model's processes still exhaust the box's memory and the kernel kills the init, the container
dies ``OOMKilled``, which the host reads as the model's failure, not the harness's.
"""

import gc
import json
import os
import selectors
import signal
import struct
import sys
import threading
import time

CHILD_OOM_SCORE_ADJ = b"500"

# The channel. Host to init: REQUEST_HEAD (header size, stdin size), a JSON header, then the
# command's stdin bytes. The header is one of
#   {"id", "argv", "cwd", "timeout"}    run a program;
#   {"id", "python", "cwd", "timeout"}  run Python source in a fork of this (preloaded) process;
#   {"id", "kill": true}                kill every other process (EXIT "0" once done);
#   {"id", "feed": <command id>}        the stdin bytes are the rest of that command's stdin.
# A request with "stdin_follows": true keeps its command's stdin open for one later "feed" (the
# grader's nonce arrives so, once the process that runs the model's code has been forked).
# Optional: "privileged": true (a Python request keeps the init's uid; otherwise every command
# runs as the model's uid).
# Init to host: FRAME_HEAD (kind, command id, payload size), then the payload.
REQUEST_HEAD = struct.Struct(">II")
FRAME_HEAD = struct.Struct(">BII")
STDOUT, STDERR, EXIT, FAILED, REFUSED = 1, 2, 3, 4, 5
# EXIT: the exit code as ASCII. FAILED: why this command could not start (the model's doing, e.g.
# every pid taken). REFUSED: why this box runs no command at all (the harness's problem).
DRAIN_AFTER_EXIT_S = 0.5  # how long output still held open by a background process is read
BACKSTOP_S = 5.0  # past its timeout a command's group is killed, should the host be gone

STATUSES = {}  # pid -> wait status, filled by the SIGCHLD handler


MODEL_IDS = (-1, -1)  # the model's uid and gid; set from the command line
IDENTITY_DIR = "/etc/fastapi-env"  # /etc/passwd and /etc/group are links into it (Dockerfile)


def kill_all():
    """Kill every process but this one: the model's (no fork needed, so a fork bomb cannot block
    it: ``kill(-1)`` is atomic against fork), and a grader left over from a timed-out grading."""
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass


def reap(*_):
    try:
        while True:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            STATUSES[pid] = status
    except ChildProcessError:
        pass


def make_undumpable():
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:
        pass


def become_ordinary_child(stays_python, privileged=False):
    """In a forked child: the signal dispositions of a fresh process (of a fresh interpreter,
    which ignores SIGPIPE and SIGXFSZ, if it stays Python rather than exec'ing a program), a
    session of its own; unless ``privileged``, first in line for the OOM killer and running as
    the model's user."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for signum in (signal.SIGPIPE, signal.SIGXFSZ):  # an ignored signal would survive exec
        signal.signal(signum, signal.SIG_IGN if stays_python else signal.SIG_DFL)
    os.setsid()
    if not privileged:
        become_model()


def become_model(uid_gid=None):
    """Raise this process's OOM score, then drop to the model's uid and gid for good (real,
    effective and saved: every capability goes with them). A no-op for a process not root."""
    try:
        with open("/proc/self/oom_score_adj", "wb") as adj:
            adj.write(CHILD_OOM_SCORE_ADJ)
    except OSError:
        pass
    uid, gid = uid_gid or MODEL_IDS
    if os.getuid() == 0:
        drop_capability_bounding_set()
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)


def drop_capability_bounding_set():
    """Empty the bounding set (needs CAP_SETPCAP), so that nothing this process execs could ever
    hold a capability, no-new-privileges or not."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in range(64):
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP; EINVAL past the last one
            break


# --------------------------------------------------------------------------- the channel
def send(kind, command_id, payload=b""):
    """Write one frame to the host (blocking: the host always reads)."""
    data = FRAME_HEAD.pack(kind, command_id, len(payload)) + payload
    while data:
        data = data[os.write(1, data):]


class Command:
    """One running command: its process, and the pipes the init relays."""

    def __init__(self, request, stdin):
        self.id = request["id"]
        self.stdin_follows = bool(request.get("stdin_follows"))  # a "feed" request brings it
        self.deadline = time.monotonic() + float(request.get("timeout", 3600)) + BACKSTOP_S
        self.stdin = memoryview(stdin)  # what is left to write
        self.exited_at = None
        self.status = None
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        has_stdin = stdin or self.stdin_follows
        in_r, in_w = os.pipe() if has_stdin else (os.open(os.devnull, os.O_RDONLY), None)
        try:
            self.pid = os.fork()
        except OSError:
            for fd in (out_r, out_w, err_r, err_w, in_r, in_w):
                if fd is not None:
                    os.close(fd)
            raise
        if self.pid == 0:
            self._exec_in_child(request, in_r, out_w, err_w)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        self.outputs = {out_r: STDOUT, err_r: STDERR}
        self.stdin_fd = in_w
        for fd in (out_r, err_r) + ((in_w,) if in_w is not None else ()):
            os.set_blocking(fd, False)

    @staticmethod
    def _exec_in_child(request, in_r, out_w, err_w):
        try:
            privileged = "python" in request and bool(request.get("privileged"))
            become_ordinary_child(stays_python="python" in request, privileged=privileged)
            for fd, target in ((in_r, 0), (out_w, 1), (err_w, 2)):
                os.dup2(fd, target)
            os.closerange(3, 65536)
            os.chdir("/" if privileged else request.get("cwd") or "/")  # root: no DAC override
            if "python" in request:
                run_python(request["python"])
            argv = request["argv"]
            os.execvp(argv[0], argv)
        except BaseException as exc:
            try:
                os.write(2, f"fastapi-env: cannot run {request.get('argv', ['python'])[:1]}: "
                            f"{exc}\n".encode())
            finally:
                os._exit(127 if isinstance(exc, FileNotFoundError) else 126)

    def exit_code(self):
        if os.WIFSIGNALED(self.status):
            return 128 + os.WTERMSIG(self.status)  # what a shell, and ``docker exec``, report
        return os.WEXITSTATUS(self.status)


class Init:
    def __init__(self, lifetime_s, offline, preload):
        self.deadline = time.monotonic() + lifetime_s
        self.refusal = network_found() if offline else None
        self.selector = selectors.DefaultSelector()
        self.commands = {}  # pid -> Command
        self.pending = bytearray()  # request bytes not yet parsed
        self.preload = threading.Thread(target=import_all, args=(preload,), daemon=True)

    def run(self):
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w)  # a SIGCHLD ends the select below at once
        self.selector.register(wake_r, selectors.EVENT_READ, "wake")
        os.set_blocking(0, False)
        self.selector.register(0, selectors.EVENT_READ, "requests")
        self.preload.start()
        while time.monotonic() < self.deadline:
            self.step()

    def step(self):
        waiting = any(c.status is not None for c in self.commands.values())  # draining
        timeout = 0.05 if waiting else max(0.05, min(5.0, self.deadline - time.monotonic()))
        for key, _ in self.selector.select(timeout):
            what = key.data
            if what == "wake":
                drain(key.fd)
            elif what == "requests":
                self.read_requests()
            elif isinstance(what, tuple) and what[0] == "stdin":
                self.feed_stdin(what[1])
            else:
                self.relay(key.fd, what)
        self.finish_commands()

    def read_requests(self):
        try:
            chunk = os.read(0, 1 << 20)
        except BlockingIOError:
            return
        if not chunk:  # the host closed the channel: keep running until the lifetime ends
            self.selector.unregister(0)
            return
        self.pending += chunk
        while len(self.pending) >= REQUEST_HEAD.size:
            head_size, stdin_size = REQUEST_HEAD.unpack_from(self.pending)
            end = REQUEST_HEAD.size + head_size + stdin_size
            if len(self.pending) < end:
                return
            request = json.loads(self.pending[REQUEST_HEAD.size: REQUEST_HEAD.size + head_size])
            stdin = bytes(self.pending[end - stdin_size: end])
            del self.pending[:end]
            if request.get("kill"):
                kill_all()
                send(EXIT, request["id"], b"0")
            elif "feed" in request:
                self.feed(request["feed"], stdin)
            elif self.refusal:
                send(REFUSED, request["id"], self.refusal.encode())
            else:
                self.start_command(request, stdin)

    def start_command(self, request, stdin):
        if "python" in request:
            self.preload.join()  # a fork taken mid-import could inherit a held import lock
        try:
            command = Command(request, stdin)
        except OSError as exc:  # e.g. the model's processes took every pid
            send(FAILED, request["id"], f"cannot start the command: {exc}".encode())
            return
        self.commands[command.pid] = command
        for fd, stream in command.outputs.items():
            self.selector.register(fd, selectors.EVENT_READ, (command, stream))
        if command.stdin_fd is not None:
            self.watch_stdin(command)

    def feed(self, command_id, data):
        """The rest of a running command's stdin (no reply: a command already gone needs none)."""
        for command in self.commands.values():
            if command.id == command_id and command.stdin_fd is not None:
                command.stdin = memoryview(bytes(command.stdin) + data)
                command.stdin_follows = False
                self.watch_stdin(command)
                return

    def feed_stdin(self, command):
        try:
            written = os.write(command.stdin_fd, command.stdin[:65536])
            command.stdin = command.stdin[written:]
        except BlockingIOError:
            return
        except OSError:  # the command does not read its stdin
            command.stdin = memoryview(b"")
            command.stdin_follows = False
        if not command.stdin:
            if command.stdin_follows:  # kept open for a "feed": stop watching until it comes
                self.selector.unregister(command.stdin_fd)
            else:
                self.close_stdin(command)

    def watch_stdin(self, command):
        try:
            self.selector.register(command.stdin_fd, selectors.EVENT_WRITE, ("stdin", command))
        except KeyError:  # still watched: what is left to write just grew
            pass

    def close_stdin(self, command):
        try:
            self.selector.unregister(command.stdin_fd)
        except KeyError:  # not watched while it waited for a "feed"
            pass
        os.close(command.stdin_fd)
        command.stdin_fd = None

    def relay(self, fd, what):
        command, stream = what
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            send(stream, command.id, chunk)
        else:
            self.close_output(command, fd)

    def close_output(self, command, fd):
        self.selector.unregister(fd)
        os.close(fd)
        del command.outputs[fd]

    def finish_commands(self):
        now = time.monotonic()
        for pid, command in list(self.commands.items()):
            if command.status is None and pid in STATUSES:
                command.status, command.exited_at = STATUSES.pop(pid), now
            if command.status is None:
                if now > command.deadline:
                    kill_group(pid)
                continue
            if command.outputs and now - command.exited_at < DRAIN_AFTER_EXIT_S:
                continue  # a background process may still hold its output: read a little more
            for fd in list(command.outputs):
                self.close_output(command, fd)
            if command.stdin_fd is not None:
                self.close_stdin(command)
            send(EXIT, command.id, str(command.exit_code()).encode())
            del self.commands[pid]
        if len(STATUSES) > 4096:  # statuses of reaped orphans nobody asks for
            STATUSES.clear()


def run_python(source):
    """In a forked child, run ``source`` as ``python3 -c`` would, then exit."""
    import traceback

    sys.argv = ["-c"]
    try:
        exec(compile(source, "<string>", "exec"), {"__name__": "__main__"})
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (exc.code is not None)
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


def import_all(modules):
    """Preload ``modules``. The cyclic GC pauses meanwhile (imports make objects, not garbage:
    its passes cost a tenth of the import) and what was loaded is then frozen, so no forked child
    spends time scanning it, or copies its pages on write while doing so."""
    gc.disable()
    try:
        for module in modules:
            try:
                __import__(module)
            except Exception:
                pass  # the fork server still works, only slower
    finally:
        gc.freeze()
        gc.enable()


def network_found(net="/proc/net"):
    """Why this box is not offline (an interface but loopback, a route off it), or None."""
    try:
        with open(f"{net}/dev") as dev:
            interfaces = [line.split(":")[0].strip() for line in dev.readlines()[2:]]
        with open(f"{net}/route") as route:
            routes = [line.split()[0] for line in route.readlines()[1:] if line.strip()]
        if os.path.exists(f"{net}/ipv6_route"):
            with open(f"{net}/ipv6_route") as route6:
                routes += [line.split()[-1] for line in route6 if line.strip()]
    except (OSError, IndexError) as exc:
        return f"cannot tell whether the box is offline: {exc}"
    found = sorted({name for name in interfaces + routes if name != "lo"})
    return f"the box is meant to be offline but has a network: {found}" if found else None


def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def drain(fd):
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass


def name_the_model(uid, gid, directory=IDENTITY_DIR, image_dir="/etc"):
    """The image's users and groups plus the model's, where /etc/passwd and /etc/group point
    (the entries are base.passwd_line's and group_line's: this file imports nothing of the
    project). Best effort: without it the model is only nameless ("I have no name!")."""
    entries = {"passwd": f"model:x:{uid}:{gid}:fastapi-env model:/workspace:/bin/sh\n",
               "group": f"model:x:{gid}:\n"}
    for name, entry in entries.items():
        try:
            with open(f"{image_dir}/{name}.image") as image:
                content = image.read()
            with open(f"{directory}/{name}", "w") as out:
                out.write(content + entry)
        except OSError:
            pass


def main():
    global MODEL_IDS
    make_undumpable()
    signal.signal(signal.SIGCHLD, reap)
    uid, gid = sys.argv[3].split(":")
    MODEL_IDS = (int(uid), int(gid))
    name_the_model(*MODEL_IDS)
    Init(float(sys.argv[1]), sys.argv[2] == "offline", sys.argv[4:]).run()


if __name__ == "__main__":
    main()
