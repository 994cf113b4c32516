from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from fastapi import FastAPI, HTTPException, Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

JOBS: dict[int, dict] = {}
KEYS: dict[str, int] = {}


class JobIn(BaseModel):
    kind: str


class JobOut(BaseModel):
    id: int
    kind: str
    state: str


app = FastAPI()


def find(job_id: int) -> dict:
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    return JOBS[job_id]


@app.post("/jobs", status_code=${create_status}, response_model=JobOut)
def submit(job: JobIn, key: str, response: Response):
    if key in KEYS:
        # a replay: same job, other status, still filtered by the response model
        response.status_code = 200
        response.headers["${replay_header}"] = "true"
        return JOBS[KEYS[key]]
    job_id = len(JOBS) + ${first_id}
    JOBS[job_id] = {"id": job_id, "kind": job.kind, "state": "queued",
                    "owner_token": f"tok-{key}"}
    KEYS[key] = job_id
    response.headers["Location"] = f"/jobs/{job_id}"
    return JOBS[job_id]


@app.get("/jobs/{job_id}", response_model=JobOut)
def read(job_id: int):
    return find(job_id)


@app.post("/jobs/{job_id}/cancel", status_code=202)
def cancel(job_id: int):
    job = find(job_id)
    if job["state"] == "cancelled":
        raise HTTPException(status_code=409, detail="already cancelled")
    job["state"] = "cancelled"
    return None
'''

_RESULT = '''

def row(response):
    body = response.json() if response.content else "<empty>"
    return [response.status_code, response.headers.get("location"),
            response.headers.get("${replay_header}"), body]


client = TestClient(app)
result = [
    row(client.post("/jobs?key=${k1}", json={"kind": "${kind1}"})),
    row(client.post("/jobs?key=${k1}", json={"kind": "${kind2}"})),
    row(client.post("/jobs?key=${k2}", json={"kind": "${kind2}"})),
    row(client.post("/jobs/${first_id}/cancel")),
    row(client.get("/jobs/${first_id}")),
]
'''

PROMPT = '''\
Build an in-memory job queue (starting empty) with idempotent submission. A job is stored as
`{"id": <int>, "kind": <str>, "state": <str>, "owner_token": "tok-<key>"}` but is always
rendered as `{"id": ..., "kind": ..., "state": ...}` (the token never leaves the server, on any
route or status).

Routes:
- `POST /jobs?key=<idempotency key>` with JSON body `{"kind": <string>}` (`key` is a required
  query parameter, compared exactly):
  - a key not seen before creates a job with id ${first_id} for the first job, then the next
    integers, state `"queued"`; answers **${create_status}** with the job and the header
    `Location: /jobs/<id>`;
  - a key seen before creates nothing and answers **200** with the job that key created
    (unchanged, whatever the body says), the header `${replay_header}: true` and no `Location`.
- `GET /jobs/{job_id}`: 200 with the job.
- `POST /jobs/{job_id}/cancel`: sets the state to `"cancelled"` and answers **202** with the
  JSON body `null`; cancelling a job that is already cancelled is 409
  `{"detail": "already cancelled"}` and changes nothing.
- An unknown job id is 404 `{"detail": "job not found"}` on both id routes.

Then fill `result` with one row per request, in this order. Each row is `[status code
(integer), the "location" response header (string or null), the "${replay_header}" response
header (string or null), the JSON body]`:
1. `POST /jobs?key=${k1}` with `{"kind": "${kind1}"}`
2. `POST /jobs?key=${k1}` with `{"kind": "${kind2}"}`
3. `POST /jobs?key=${k2}` with `{"kind": "${kind2}"}`
4. `POST /jobs/${first_id}/cancel`
5. `GET /jobs/${first_id}`
'''

PROBES = '''\
def _row(response):
    body = response.json() if response.content else "<empty>"
    return [response.status_code, response.headers.get("location"),
            response.headers.get("${replay_header}"), body]


def probe_replay_after_cancel_is_filtered(client):
    return [
        _row(client.post("/jobs?key=${k1}", json={"kind": "other"})),
        _row(client.post("/jobs?key=${k2}", json={"kind": "${kind1}"})),
    ]


def probe_keys_are_exact(client):
    return [
        _row(client.post("/jobs?key=${k1_upper}", json={"kind": "${kind1}"})),
        _row(client.post("/jobs?key=${k1} ", json={"kind": "${kind1}"})),
        _row(client.get("/jobs/${third_id}")),
    ]


def probe_cancel_twice_and_unknown(client):
    return [
        _row(client.post("/jobs/${first_id}/cancel")),
        _row(client.post("/jobs/${second_id}/cancel")),
        _row(client.get("/jobs/${second_id}")),
        _row(client.post("/jobs/${unknown}/cancel")),
        _row(client.get("/jobs/${unknown}")),
    ]
'''

_REPLAY = '''\
        response.status_code = 200
        response.headers["${replay_header}"] = "true"
        return JOBS[KEYS[key]]
'''

FAMILY = Family(
    id="responses/idempotent_replay",
    title="Idempotent replays: status and headers on the injected Response, model still applied",
    category="responses",
    difficulty="medium",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original={"create_status": 202, "replay_header": "Idempotent-Replay", "first_id": 1,
              "k1": "abc", "k2": "def", "kind1": "resize", "kind2": "export"},
    space={
        "create_status": [202, 201],
        # the header's name never reaches a row (its value is always "true"): it rides with
        # the first id
        "replay_header": [{"replay_header": "Idempotent-Replay", "first_id": 1},
                          {"replay_header": "X-Replayed", "first_id": 100},
                          {"replay_header": "X-Cache-Hit", "first_id": 7},
                          {"replay_header": "Idempotent-Replay", "first_id": 20}],
        "keys": [{"k1": "abc", "k2": "def", "kind1": "resize", "kind2": "export"},
                 {"k1": "order-1", "k2": "order-2", "kind1": "email", "kind2": "sms"},
                 {"k1": "Zq9", "k2": "zq9x", "kind1": "backup", "kind2": "restore"}],
    },
    derive=lambda p: {"k1_upper": p["k1"].upper() if p["k1"].upper() != p["k1"] else p["k1"].lower(),
                      "second_id": p["first_id"] + 1, "third_id": p["first_id"] + 2,
                      "unknown": p["first_id"] + 50},
    instances=40,
    requirements=(
        Requirement(
            "A new key creates the next job: ${create_status}, `Location: /jobs/<id>`, no "
            "`${replay_header}`.",
            probes=("keys_are_exact",),
            traps=(Edit("Location header missing",
                        '    response.headers["Location"] = f"/jobs/{job_id}"\n', ""),),
        ),
        Requirement(
            "A replayed key is 200 with the original job as rendered now, `${replay_header}: "
            "true`, and never the token.",
            probes=("replay_after_cancel_is_filtered",),
            traps=(Edit("replay returns the stored record as a JSONResponse", _REPLAY,
                        '        return JSONResponse(JOBS[KEYS[key]], headers={"${replay_header}": '
                        '"true"})\n'),
                   Edit("replay keeps the create status",
                        "        response.status_code = 200\n", "")),
        ),
        Requirement(
            "Keys are compared exactly: another case or a trailing space is a new key.",
            probes=("keys_are_exact",),
            traps=(Edit("keys compared ignoring case and spaces",
                        "    if key in KEYS:\n",
                        "    key = key.strip().lower()\n    if key in KEYS:\n"),),
        ),
        Requirement(
            'Cancel is 202 with the body `null`; a second cancel is 409 and an unknown id 404 '
            '`{"detail": "job not found"}`.',
            probes=("cancel_twice_and_unknown",),
            traps=(Edit("cancel answers 204", '@app.post("/jobs/{job_id}/cancel", status_code=202)',
                        '@app.post("/jobs/{job_id}/cancel", status_code=204)'),
                   Edit("cancel of a cancelled job allowed",
                        '    if job["state"] == "cancelled":\n',
                        '    if job["state"] == "done":\n')),
        ),
    ),
)
