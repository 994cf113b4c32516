"""The grader that runs inside the sandbox, after the model's last turn.

It must run alone: the standard library and FastAPI only, nothing else of this project. The host
starts it as ``python3 -I -c <this source>`` and writes two lines to its stdin: one JSON job, then
(once the supervisor printed READY, when the sandbox can wait for it) a nonce.

Two processes, because the solution is untrusted code:

* the **supervisor** (this process) reads the job, makes itself non-dumpable, starts the runner,
  prints READY, enforces the time limit, kills every leftover process, reads the nonce and prints
  one framed line ``<nonce>:<json>``. In a sandbox it runs as a user the model's processes do not
  have (the init's: root with only CAP_SETUID/SETGID/SETPCAP/KILL), so they cannot signal it,
  limit its resources, reschedule it, nor read its memory or descriptors. Nothing the solution
  prints can forge the frame: the runner's output goes to ``/dev/null``, it holds no descriptor
  of the supervisor's stdout, and it never held the nonce: the host sends that only after the
  runner was started (a backend that cannot wait sends it with the job, so a forked runner's memory
  holds a copy there).
* the **runner** drops to the model's uid (``model_ids`` in the job), imports the solution,
  validates ``result``, runs the hidden probes and writes its findings as JSON to an inherited
  pipe. It is forked from the supervisor when the sandbox's init forked that with FastAPI
  preloaded, else a fresh ``... -c <source> runner``. Its stdout and stderr go to ``/dev/null``,
  so megabytes of prints at import cost nothing.

The runner's findings are the model's; a malformed, oversized, too deep or missing report is the
model's failure (``bad_report``). What the supervisor prints is bounded by the same limits the
host parses it with (``encode_frame``/``decode_frame``). Only an exception in the supervisor
itself is a harness error (reported as ``harness_error``).
"""

import functools
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback

MAX_REPORT_BYTES = 1024 * 1024  # honest reports are kilobytes; parsing this costs < 30 MB
MAX_DEPTH = 64  # of ``result`` and of each probe's rows
MAX_ITEMS = 200_000
# The frame (the supervisor's outcome, which holds the report): bounded on both sides by these.
FRAME_MAX_BYTES = 4 * MAX_REPORT_BYTES + 65536  # \uXXXX escapes at most triple a report
FRAME_MAX_DEPTH = MAX_DEPTH + 8  # outcome > report > probes > name > rows
FRAME_MAX_ITEMS = MAX_REPORT_BYTES // 2 + 1024  # a JSON value takes at least two bytes
JSON_SCALARS = (str, int, float, bool, type(None))
READY = "fastapi-env-grader: runner started"  # the host sends the nonce once it sees this


class NotJSON(ValueError):
    """A value that is not plain JSON data (the message names where)."""


def check_json(value, path="result", budget=None, max_depth=MAX_DEPTH, max_items=MAX_ITEMS):
    """Raise NotJSON unless ``value`` is exactly what json.loads could return, within limits."""
    budget = budget if budget is not None else [max_items]
    stack = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise NotJSON(f"{where}: more than {max_items} values")
        if depth > max_depth:
            raise NotJSON(f"{where}: nested deeper than {max_depth}")
        kind = type(item)
        if kind is float and (item != item or item in (float("inf"), float("-inf"))):
            raise NotJSON(f"{where}: {item!r} is not a JSON number")
        if kind is int and item.bit_length() > 1000:
            raise NotJSON(f"{where}: integer with {item.bit_length()} bits is too large")
        if kind in JSON_SCALARS:
            continue
        if kind is list:
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item))
        elif kind is dict:
            for key, v in item.items():
                if type(key) is not str:
                    raise NotJSON(f"{where}: dict key {key!r} is {type(key).__name__}, not str")
                stack.append((v, f"{where}[{key!r}]", depth + 1))
        else:
            raise NotJSON(f"{where}: {kind.__name__} is not a JSON value")


def parse_json(data, what, max_bytes, max_depth, max_items):
    """Parse untrusted JSON text defensively: bounded in size first, then in depth and count;
    every way it can fail (too deep for the parser, too large for memory) is NotJSON."""
    if len(data) > max_bytes:
        raise NotJSON(f"{what} has {len(data)} bytes, more than {max_bytes}")
    try:
        value = json.loads(data)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise NotJSON(f"{what} is not readable JSON: {type(exc).__name__}: "
                      f"{str(exc)[:200]}") from None
    if type(value) is not dict:
        raise NotJSON(f"{what} is {type(value).__name__}, not an object")
    check_json(value, what, max_depth=max_depth, max_items=max_items)
    return value


def encode_frame(outcome):
    """The supervisor's outcome as the frame's JSON, within the limits ``decode_frame`` keeps."""
    check_json(outcome, "outcome", max_depth=FRAME_MAX_DEPTH, max_items=FRAME_MAX_ITEMS)
    text = json.dumps(outcome)
    if len(text) > FRAME_MAX_BYTES:
        raise NotJSON(f"outcome has {len(text)} bytes, more than {FRAME_MAX_BYTES}")
    return text


def decode_frame(text):
    """The host's side of ``encode_frame``: raises NotJSON past the same limits."""
    return parse_json(text, "the grader's frame", FRAME_MAX_BYTES, FRAME_MAX_DEPTH,
                      FRAME_MAX_ITEMS)


def check_rows(rows, path):
    if type(rows) is not list:
        raise NotJSON(f"{path} is {type(rows).__name__}, not a list of rows")
    for i, row in enumerate(rows):
        if type(row) is not list:
            raise NotJSON(f"{path}[{i}] is {type(row).__name__}, not a list")
    check_json(rows, path)


def _short_traceback(limit=3000):
    text = traceback.format_exc()
    return text if len(text) <= limit else "..." + text[-limit:]


# --------------------------------------------------------------------------- runner
def run_runner(job, report_fd):
    """Import the solution, check it, run the probes; write the report to ``report_fd``."""
    sys.argv = ["solution.py"]
    report = {"imported": False, "failure": None, "detail": "", "result": None, "probes": {}}
    dumps = json.dumps  # bound before the solution can replace it
    try:
        run_solution(job, report)
    except BaseException:  # the solution may raise SystemExit or anything else
        report["failure"] = report["failure"] or "runner_crashed"
        report["detail"] = report["detail"] or _short_traceback()
    data = dumps(report, allow_nan=False).encode()
    with os.fdopen(report_fd, "wb") as out:
        out.write(data)
    os._exit(0)


def run_fresh_runner():
    """The runner as a fresh Python (``... -c <source> runner``, started as the model's user):
    its job arrives on stdin."""
    job = json.loads(sys.stdin.read())
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    run_runner(job, job["report_fd"])


def become_model(model_ids):
    """First in line for the OOM killer, then (when root, in a sandbox) the model's uid and gid
    for good: real, effective and saved, so every capability goes too."""
    try:
        with open("/proc/self/oom_score_adj", "wb") as adj:
            adj.write(b"500")
    except OSError:
        pass
    if model_ids and os.getuid() == 0:
        uid, gid = model_ids
        import ctypes  # the bounding set emptied (CAP_SETPCAP): nothing execed regains a cap

        libc = ctypes.CDLL(None, use_errno=True)
        for cap in range(64):
            if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP; EINVAL past the last one
                break
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)


def run_solution(job, report):
    import importlib.util

    workspace = job["workspace"]
    path = os.path.join(workspace, "solution.py")
    if not os.path.isfile(path):
        report["failure"], report["detail"] = "no_solution", f"{path} does not exist"
        return
    os.chdir(workspace)
    sys.path.insert(0, workspace)
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["solution"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        report["failure"], report["detail"] = "import_error", _short_traceback()
        return
    report["imported"] = True
    if "result" not in module.__dict__:
        report["failure"], report["detail"] = "missing_result", "solution.py defines no `result`"
    else:
        try:
            check_rows(module.__dict__["result"], "result")
            report["result"] = module.__dict__["result"]
        except NotJSON as exc:
            report["failure"], report["detail"] = "bad_result", str(exc)
    app = module.__dict__.get("app")
    if app is None:
        report["failure"], report["detail"] = "missing_app", "solution.py defines no `app`"
        return
    report["probes"] = run_probes(app, job["probes"], job.get("stop_after"))


def run_probes(app, probes_source, stop_after=None):
    """Each probe in source order, on a fresh client; with ``stop_after`` (task verification
    only: the host asks it, never the solution) none after that probe runs, so the ones before it
    see exactly the state they see in a full grading."""
    from fastapi.testclient import TestClient

    namespace = {"__name__": "probes"}
    exec(compile(probes_source, "<probes>", "exec"), namespace)
    outcomes = {}
    for name, func in list(namespace.items()):
        if not (name.startswith("probe_") and callable(func)):
            continue
        try:
            with TestClient(app, raise_server_exceptions=False) as client:
                rows = func(client)
            check_rows(rows, name)
            outcomes[name] = {"rows": rows}
        except BaseException:
            outcomes[name] = {"error": _short_traceback(1000)}
        if name == stop_after:
            break
    return outcomes


# --------------------------------------------------------------------------- supervisor
def make_undumpable():
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:
        pass


def kill_everything_else():
    """Kill every process this user can signal, except this one (and the container's init)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def read_report(fd, deadline):
    chunks, size = [], 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None, "timeout"
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks), None
        size += len(chunk)
        if size > MAX_REPORT_BYTES:
            return None, "report_too_large"
        chunks.append(chunk)


def start_forked(runner_job):
    """Fork the runner from this supervisor, which was itself forked from the sandbox's init with
    FastAPI preloaded; return (fd the report arrives on, its waiter)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.closerange(3, write_fd)  # nothing of the supervisor's stays reachable
            os.closerange(write_fd + 1, 65536)
            become_model(runner_job["model_ids"])
            run_runner(runner_job, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    return read_fd, functools.partial(wait_for, pid)


def wait_for(pid, timeout):
    """Reap a forked runner; its exit code, or None if it would not end (it is killed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    return None


def start_fresh(runner_job, source):
    """Start the runner as a fresh Python; return (fd the report arrives on, its waiter)."""
    read_fd, write_fd = os.pipe()
    ids = runner_job["model_ids"] if os.getuid() == 0 else None
    # the supervisor is single-threaded: a preexec_fn is safe here
    as_model = {"preexec_fn": functools.partial(become_model, ids)} if ids else {}
    child = subprocess.Popen(
        [sys.executable, "-I", "-c", source, "runner"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_fd,),
        start_new_session=True,
        **as_model,
    )
    os.close(write_fd)
    try:
        child.stdin.write(json.dumps(runner_job | {"report_fd": write_fd}).encode())
        child.stdin.close()
    except BrokenPipeError:
        pass
    return read_fd, functools.partial(wait_popen, child)


def wait_popen(child, timeout):
    """``wait_for`` for a runner started fresh."""
    try:
        return child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        return None


def supervise(job):
    runner_job = {"workspace": job["workspace"], "probes": job["probes"],
                  "stop_after": job.get("stop_after"), "model_ids": job.get("model_ids")}
    started = time.monotonic()
    try:
        if "fastapi" in sys.modules:  # forked from a preloaded init: fork the runner too
            read_fd, wait = start_forked(runner_job)
        else:
            read_fd, wait = start_fresh(runner_job, job["source"])
    except BlockingIOError as exc:  # EAGAIN: only the model's processes can use up the pids
        runner_error = exc
    else:
        runner_error = None
    sys.stdout.write(READY + "\n")  # the nonce may come now: the runner cannot hold it
    sys.stdout.flush()
    if runner_error is not None:
        return {"report": None, "failure": "no_runner", "seconds": 0.0,
                "detail": f"the runner could not start ({runner_error}): the model's processes "
                          "hold every process its user may have"}
    raw, problem = read_report(read_fd, started + job["timeout"])
    if job.get("kill_leftovers", False):  # never on a host: only inside a sandbox
        kill_everything_else()
    os.close(read_fd)
    runner_exit = wait(5)
    elapsed = round(time.monotonic() - started, 3)

    def failed(detail, failure="bad_report"):
        return {"report": None, "failure": failure, "detail": detail, "seconds": elapsed}

    if problem == "timeout":
        return failed(f"the solution did not finish within {job['timeout']} s", "timeout")
    if problem == "report_too_large":
        return failed(f"the runner's report exceeded {MAX_REPORT_BYTES} bytes")
    try:
        report = parse_json(raw, "the runner's report", MAX_REPORT_BYTES, FRAME_MAX_DEPTH - 1,
                            FRAME_MAX_ITEMS)
    except NotJSON as exc:
        return failed(f"no readable report (runner exit code {runner_exit}): {exc}")
    return {"report": report, "failure": report.get("failure"),
            "detail": report.get("detail", ""), "seconds": elapsed}


def run_supervisor():
    make_undumpable()
    job = json.loads(sys.stdin.buffer.readline())
    try:
        outcome = supervise(job) | {"harness_error": None}
        try:
            frame = encode_frame(outcome)
        except NotJSON as exc:  # what the runner reported: the model's
            frame = encode_frame({"report": None, "failure": "bad_report", "harness_error": None,
                                  "detail": f"the runner's report does not fit in a frame: {exc}",
                                  "seconds": outcome.get("seconds")})
    except BaseException:
        frame = json.dumps({
            "report": None,
            "failure": None,
            "detail": "",
            "harness_error": _short_traceback(),
        })
    nonce = sys.stdin.buffer.readline().decode().strip()
    sys.stdout.write("\n" + nonce + ":" + frame + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["runner"]:
        run_fresh_runner()
    else:
        run_supervisor()
