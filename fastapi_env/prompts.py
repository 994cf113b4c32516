"""The system prompt: the contract every task relies on, and every rule the grader applies."""

from __future__ import annotations

from fastapi_env.image import pins

SYSTEM_PROMPT = """\
You are building a FastAPI application inside a sandbox, using the tools you are given.

What you must leave behind: a Python module `/workspace/solution.py` that defines
- `app`: the FastAPI application the task describes, and
- `result`: a list of rows (each row a list) computed when the module is imported, by sending
  the requests the task lists to `app` through `fastapi.testclient.TestClient`, in the order
  listed, and reading the values the task asks for off the real responses.

How it is graded, after your last turn:
- The module is imported in a fresh Python process (working directory /workspace); the import,
  including computing `result`, must finish within {grading_timeout} seconds.
- `result` must equal the expected rows exactly: same number of rows, same order, same width.
  Values must be plain JSON values (int, float, str, bool, None, list, dict with str keys; not
  tuples, sets, bytes, enums or Response objects), and types are compared strictly: 200 is not
  "200", 1 is not 1.0, True is not 1.
- Hidden checks then send further requests to your `app` (through a fresh TestClient) that the
  task's description determines but does not list. They must behave exactly as described.
  They run in the same process after `result` is computed, one fresh TestClient each, in a
  fixed order: state your app keeps in memory (stores, counters, sessions) carries over from the
  requests that computed `result` into the hidden checks, and from one check to the next.
- The reward is 1 only when `result` and every hidden check match; otherwise 0.
- Some tasks start with files already in /workspace (an existing app to repair): they are
  graded as you leave them, and `solution.py` may import modules beside it.

The environment: Python 3.11 with exactly {pins}. No network access and nothing else can be
installed (not available: orjson, ujson, email-validator, jinja2, pydantic-settings,
sse-starlette). Your commands run as an unprivileged user in /workspace with a
{command_timeout}-second limit each; processes a command starts in the background end with it,
and a command whose output runs megabytes past what you are shown is stopped. Do not start
servers: use TestClient.

Rules that matter to the grader:
- Define Pydantic models at module level (a model defined inside a function can silently turn a
  request body into a query parameter when annotations are strings).
- Do not depend on time, randomness or the order of set elements: the module is imported more
  than once and must give the same rows every time.
- Use only the tools to act; when the module is written and checked, stop calling tools.
"""


def system_prompt(grading_timeout: float = 60, command_timeout: float = 30) -> str:
    pinned = ", ".join(f"{name} {version}" for name, version in pins().items())
    return SYSTEM_PROMPT.format(
        pins=pinned, grading_timeout=int(grading_timeout), command_timeout=int(command_timeout)
    )
