from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a metered API whose per-run resources are created by a lifespan handler
(`FastAPI(lifespan=...)`), not at import time and not with the deprecated `on_event` hooks.

Module level: `BOOTS = 0`, the number of times the application has started since the module
was imported.

Each time the application starts (each time its lifespan runs, e.g. each
`with TestClient(app) as client:` block), the lifespan:

1. increments `BOOTS`; this run's boot number is the new value;
2. creates this run's call quota: ${limit} calls, none used yet. The quota lives as long as the
   run: a restart (a new lifespan) starts again with nothing used, whatever the previous run did.

Handlers reach the run's values through the lifespan state (`request.state`). Routes:

- `GET /info` returns `{"boot": <this run's boot number>, "region": "${region}"}` and uses no
  quota.
- `POST /calls` uses one call of the quota and returns `{"used": <calls used so far in this
  run>, "left": <calls left>}`. When no call is left it answers 429 with
  `{"detail": "${detail}"}` and uses nothing.
- `GET /calls` returns the same `{"used": ..., "left": ...}` without using anything.
- `DELETE /calls` gives the whole quota back (nothing used) and returns the same shape.

Every call to a route changes or reads the same quota of the current run: state set by one
request is seen by the next.

Then fill `result` with one row per request, in this order. Make rows 1-5 inside one
`with TestClient(app) as client:` block and row 6 inside a second one opened after the first
has closed. Each row is `[status code (integer), JSON body (object)]`:

1. `POST /calls`
2. `POST /calls`
3. `DELETE /calls`
4. `POST /calls`
5. `GET /info`
6. `GET /calls` (the second run)
'''

HEAD = '''\
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.testclient import TestClient

BOOTS = 0
LIMIT = ${limit}
'''

LIFESPAN = '''

@asynccontextmanager
async def lifespan(app: FastAPI):
    global BOOTS
    BOOTS += 1
    # Starlette copies the lifespan state into each request shallowly: a mutable container
    # is shared by every request of the run, a rebound attribute would not be.
    yield {"boot": BOOTS, "quota": {"used": 0}}


app = FastAPI(lifespan=lifespan)
'''

ROUTES = '''

def usage(quota: dict) -> dict:
    return {"used": quota["used"], "left": LIMIT - quota["used"]}


@app.get("/info")
def info(request: Request):
    return {"boot": request.state.boot, "region": "${region}"}


'''

CALLS = '''\
@app.post("/calls")
def use_call(request: Request):
    quota = request.state.quota
    if quota["used"] >= LIMIT:
        raise HTTPException(status_code=429, detail="${detail}")
    quota["used"] += 1
    return usage(quota)


@app.get("/calls")
def read_calls(request: Request):
    return usage(request.state.quota)


@app.delete("/calls")
def reset_calls(request: Request):
    request.state.quota["used"] = 0
    return usage(request.state.quota)
'''

TAIL = '''

def row(r):
    return [r.status_code, r.json()]


result = []
with TestClient(app) as client:
    result.append(row(client.post("/calls")))
    result.append(row(client.post("/calls")))
    result.append(row(client.delete("/calls")))
    result.append(row(client.post("/calls")))
    result.append(row(client.get("/info")))
with TestClient(app) as client:
    result.append(row(client.get("/calls")))
'''

REFERENCE = HEAD + LIFESPAN + ROUTES + CALLS + TAIL

PROBES = '''\
from fastapi.testclient import TestClient


def _row(r):
    return [r.status_code, r.json()]


def probe_quota_bounds(client):
    rows = [_row(client.delete("/calls"))]
    rows += [_row(client.post("/calls")) for _ in range(${limit_over})]
    rows.append(_row(client.get("/calls")))
    return rows


def probe_reset_is_kept(client):
    rows = [_row(client.delete("/calls"))]
    rows += [_row(client.post("/calls")) for _ in range(${limit})]
    rows.append(_row(client.delete("/calls")))
    rows.append(_row(client.get("/calls")))
    rows.append(_row(client.post("/calls")))
    return rows


def probe_restart_starts_fresh(client):
    client.delete("/calls")
    rows = [_row(client.post("/calls")), _row(client.post("/calls"))]
    first = client.get("/info").json()
    # a second run of the same app: its lifespan runs again
    with TestClient(client.app) as again:
        rows.append(_row(again.get("/calls")))
        rows.append(_row(again.post("/calls")))
        second = again.get("/info").json()
    rows.append([second["boot"] - first["boot"], first["region"], second["region"]])
    return rows
'''

_CALLS_TOP_LEVEL = '''\
@app.post("/calls")
def use_call(request: Request):
    if request.state.used >= LIMIT:
        raise HTTPException(status_code=429, detail="${detail}")
    request.state.used += 1
    return {"used": request.state.used, "left": LIMIT - request.state.used}


@app.get("/calls")
def read_calls(request: Request):
    return {"used": request.state.used, "left": LIMIT - request.state.used}


@app.delete("/calls")
def reset_calls(request: Request):
    request.state.used = 0
    return {"used": 0, "left": LIMIT}
'''

FAMILY = Family(
    id="structure/lifespan_quota",
    title="Lifespan state: per-run resources shared by requests, reset by a restart",
    category="structure",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"limit": 3, "region": "eu-1", "detail": "quota exhausted"},
    space={
        "limit": [3, 4, 6],
        "region": ["eu-1", "us-east", "ap-2"],
        "detail": ["quota exhausted", "no calls left", "rate limit"],
    },
    derive=lambda p: {"limit_over": p["limit"] + 1},
    instances=27,
    requirements=(
        Requirement(
            "`POST /calls` uses one of the run's ${limit} calls; past the last one it is 429 "
            "`${detail}` and uses nothing (the count persists from request to request).",
            probes=("quota_bounds",),
            traps=(Edit("counter kept as a top-level lifespan state value (copied per request)",
                        LIFESPAN + ROUTES + CALLS,
                        LIFESPAN.replace('{"used": 0}}', '{"used": 0}, "used": 0}')
                        + ROUTES + _CALLS_TOP_LEVEL),
                   Edit("one call too many allowed", 'if quota["used"] >= LIMIT:',
                        'if quota["used"] > LIMIT:')),
        ),
        Requirement(
            "`DELETE /calls` gives the whole quota back, and later requests see it.",
            probes=("reset_is_kept",),
            traps=(Edit("reset rebinds the state attribute (lost after the request)",
                        '''\
    request.state.quota["used"] = 0
    return usage(request.state.quota)''',
                        '''\
    request.state.quota = {"used": 0}
    return usage(request.state.quota)'''),),
        ),
        Requirement(
            "Each start of the application (each lifespan run) increments the boot number by "
            "one and starts with a fresh quota, whatever earlier runs used.",
            probes=("restart_starts_fresh",),
            traps=(Edit("quota created once at import and shared by every run",
                        '    yield {"boot": BOOTS, "quota": {"used": 0}}',
                        '    yield {"boot": BOOTS, "quota": QUOTA}\n\n\nQUOTA = {"used": 0}'),
                   Edit("boot number computed at import",
                        '''\
    global BOOTS
    BOOTS += 1
''', ""),),
        ),
    ),
)
