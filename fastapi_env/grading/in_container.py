"""The grader that runs inside the sandbox, after the model's last turn.

It must run alone: the standard library and FastAPI only, nothing else of this project. The host
starts it as ``python3 -I -c <this source>`` and writes one JSON job to its stdin.

Two processes, because the solution is untrusted code:

* the **supervisor** (this process) reads the job, including a nonce, makes itself non-dumpable
  (so a process of the same user cannot read its memory or file descriptors), starts the runner,
  enforces the time limit, kills every leftover process of the user, and prints one framed line
  ``<nonce>:<json>``. Nothing the solution prints can forge that frame: the runner's output goes
  to ``/dev/null`` and it holds no descriptor of the supervisor's stdout. (A runner forked from
  the supervisor holds a copy of the nonce; with no way to that stdout, it is of no use to it.)
* the **runner** imports the solution, validates ``result``, runs the hidden probes and writes
  its findings as JSON to an inherited pipe. It is forked from the supervisor when the sandbox's
  init forked that with FastAPI preloaded, else a fresh ``... -c <source> runner``. Its stdout
  and stderr go to ``/dev/null``, so megabytes of prints at import cost nothing.

The runner's findings are the model's; a malformed or missing report is the model's failure.
Only an exception in the supervisor itself is a harness error (reported as ``harness_error``).
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

MAX_REPORT_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_ITEMS = 200_000
JSON_SCALARS = (str, int, float, bool, type(None))


class NotJSON(ValueError):
    """A value that is not plain JSON data (the message names where)."""


def check_json(value, path="result", budget=None):
    """Raise NotJSON unless ``value`` is exactly what json.loads could return."""
    budget = budget if budget is not None else [MAX_ITEMS]
    stack = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise NotJSON(f"{where}: more than {MAX_ITEMS} values")
        if depth > MAX_DEPTH:
            raise NotJSON(f"{where}: nested deeper than {MAX_DEPTH}")
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
    """The runner as a fresh Python (``... -c <source> runner``): its job arrives on stdin."""
    job = json.loads(sys.stdin.read())
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    run_runner(job, job["report_fd"])


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
    report["probes"] = run_probes(app, job["probes"])


def run_probes(app, probes_source):
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
    child = subprocess.Popen(
        [sys.executable, "-I", "-c", source, "runner"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_fd,),
        start_new_session=True,
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
    runner_job = {"workspace": job["workspace"], "probes": job["probes"]}
    started = time.monotonic()
    if "fastapi" in sys.modules:  # forked from a preloaded init: fork the runner too
        read_fd, wait = start_forked(runner_job)
    else:
        read_fd, wait = start_fresh(runner_job, job["source"])
    raw, problem = read_report(read_fd, started + job["timeout"])
    if job.get("kill_leftovers", False):  # never on a host: only inside a sandbox
        kill_everything_else()
    os.close(read_fd)
    runner_exit = wait(5)
    elapsed = round(time.monotonic() - started, 3)
    if problem == "timeout":
        return {
            "report": None,
            "failure": "timeout",
            "detail": f"the solution did not finish within {job['timeout']} s",
            "seconds": elapsed,
        }
    if problem == "report_too_large":
        return {
            "report": None,
            "failure": "bad_report",
            "detail": f"the runner's report exceeded {MAX_REPORT_BYTES} bytes",
            "seconds": elapsed,
        }
    try:
        report = json.loads(raw.decode())
        if type(report) is not dict:
            raise ValueError("report is not an object")
    except (ValueError, UnicodeDecodeError) as exc:
        return {
            "report": None,
            "failure": "bad_report",
            "detail": f"no readable report (runner exit code {runner_exit}): {exc}",
            "seconds": elapsed,
        }
    return {
        "report": report,
        "failure": report.get("failure"),
        "detail": report.get("detail", ""),
        "seconds": elapsed,
    }


def run_supervisor():
    make_undumpable()
    job = json.loads(sys.stdin.read())
    nonce = job.pop("nonce")
    try:
        outcome = supervise(job)
        outcome["harness_error"] = None
    except BaseException:
        outcome = {
            "report": None,
            "failure": None,
            "detail": "",
            "harness_error": _short_traceback(),
        }
    sys.stdout.write("\n" + nonce + ":" + json.dumps(outcome) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["runner"]:
        run_fresh_runner()
    else:
        run_supervisor()
