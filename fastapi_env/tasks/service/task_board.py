"""Service tier: a task board specified like a product document (11 routes, token auth with
two roles, projects and tasks with validation, filtering, sorting and pagination with a total
header, forward-only status transitions, optimistic concurrency with ETag / If-Match, and
problem+json errors)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

TOKENS = {"${ta}": "${admin}", "${t1}": "${u1}", "${t2}": "${u2}"}
ADMINS = {"${admin}"}
PROJECTS: dict[int, dict] = {}
TASKS: dict[int, dict] = {}
NEXT = {"project": 1, "task": 1}
ORDER = {"open": 0, "doing": 1, "done": 2}
RANK = {"high": 0, "normal": 1, "low": 2}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Problem(Exception):
    def __init__(self, status: int, title: str, headers: dict | None = None):
        self.status, self.title, self.headers = status, title, headers


def problem(status: int, title: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"title": title, "status": status, **extra}, status_code=status,
                        headers=headers, media_type="application/problem+json")


@app.exception_handler(Problem)
async def on_problem(request: Request, exc: Problem):
    return problem(exc.status, exc.title, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    return problem(exc.status_code, "not_found" if exc.status_code == 404 else
                   "method_not_allowed", exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    names = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return problem(422, "validation_error", invalid=sorted(names))


class ProjectIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=3, max_length=30, pattern=r"^[a-z0-9-]+$$")


class TaskIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=${title_max})
    priority: Literal["low", "normal", "high"] = "normal"
    assignee: str | None = None


class TaskPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str | None = Field(None, min_length=1, max_length=${title_max})
    status: Literal["open", "doing", "done"] | None = None
    assignee: str | None = None

    @field_validator("title")
    @classmethod
    def title_not_null(cls, value):
        if value is None:
            raise ValueError("title may not be null")
        return value


def user(x_token: Annotated[str | None, Header()] = None) -> str:
    if x_token not in TOKENS:
        raise Problem(401, "unauthenticated", {"WWW-Authenticate": "Token"})
    return TOKENS[x_token]


User = Annotated[str, Depends(user)]


def admin(name: User) -> str:
    if name not in ADMINS:
        raise Problem(403, "forbidden")
    return name


Admin = Annotated[str, Depends(admin)]


def project_of(project_id: int) -> dict:
    if project_id not in PROJECTS:
        raise Problem(404, "not_found")
    return PROJECTS[project_id]


def task_of(task_id: int) -> dict:
    if task_id not in TASKS:
        raise Problem(404, "not_found")
    return TASKS[task_id]


def etag(task: dict) -> str:
    return f'"{task["id"]}-{task["version"]}"'


def shown(task: dict) -> dict:
    return {k: task[k] for k in ("id", "project_id", "title", "priority", "status", "assignee",
                                 "creator")}


def check_assignee(name: str | None) -> None:
    if name is not None and name not in TOKENS.values():
        raise Problem(400, "unknown_assignee")


@app.post("/projects", status_code=201)
def create_project(body: ProjectIn, name: Admin, response: Response):
    if any(p["name"] == body.name for p in PROJECTS.values()):
        raise Problem(409, "name_taken")
    project = {"id": NEXT["project"], "name": body.name}
    NEXT["project"] += 1
    PROJECTS[project["id"]] = project
    response.headers["Location"] = f"/projects/{project['id']}"
    return project


@app.get("/projects")
def list_projects(name: User):
    return sorted(PROJECTS.values(), key=lambda p: p["name"])


@app.delete("/projects/{project_id}", status_code=204)
def delete_project(project_id: int, name: Admin):
    project_of(project_id)
    if any(t["project_id"] == project_id and t["status"] != "done" for t in TASKS.values()):
        raise Problem(409, "project_has_open_tasks")
    for task_id in [i for i, t in TASKS.items() if t["project_id"] == project_id]:
        del TASKS[task_id]
    del PROJECTS[project_id]
    return Response(status_code=204)


@app.post("/projects/{project_id}/tasks", status_code=201)
def create_task(project_id: int, body: TaskIn, name: User, response: Response):
    project_of(project_id)
    check_assignee(body.assignee)
    task = {"id": NEXT["task"], "project_id": project_id, **body.model_dump(),
            "status": "open", "creator": name, "version": 1}
    NEXT["task"] += 1
    TASKS[task["id"]] = task
    response.headers["Location"] = f"/tasks/{task['id']}"
    response.headers["ETag"] = etag(task)
    return shown(task)


@app.get("/projects/{project_id}/tasks")
def list_tasks(
    project_id: int,
    name: User,
    response: Response,
    status: Literal["open", "doing", "done"] | None = None,
    priority: Literal["low", "normal", "high"] | None = None,
    assignee: str | None = None,
    sort: Literal["id", "priority"] = "id",
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
    offset: Annotated[int, Query(ge=0)] = 0,
):
    project_of(project_id)
    tasks = [t for t in TASKS.values() if t["project_id"] == project_id
             and (status is None or t["status"] == status)
             and (priority is None or t["priority"] == priority)
             and (assignee is None or t["assignee"] == assignee)]
    key = (lambda t: t["id"]) if sort == "id" else (lambda t: (RANK[t["priority"]], t["id"]))
    tasks.sort(key=key)
    response.headers["X-Total-Count"] = str(len(tasks))
    return [shown(t) for t in tasks[offset:offset + limit]]


@app.get("/tasks/{task_id}")
def read_task(task_id: int, name: User, response: Response):
    task = task_of(task_id)
    response.headers["ETag"] = etag(task)
    return shown(task)


@app.patch("/tasks/{task_id}")
def update_task(
    task_id: int,
    body: TaskPatch,
    name: User,
    response: Response,
    if_match: Annotated[str | None, Header()] = None,
):
    task = task_of(task_id)
    if if_match is None:
        raise Problem(428, "precondition_required")
    if if_match != etag(task):
        raise Problem(412, "precondition_failed")
    changes = body.model_dump(exclude_unset=True)
    if "status" in changes and (changes["status"] is None
                                or ORDER[changes["status"]] < ORDER[task["status"]]):
        raise Problem(409, "invalid_transition")
    check_assignee(changes.get("assignee"))
    task.update(changes)
    task["version"] += 1
    response.headers["ETag"] = etag(task)
    return shown(task)


@app.delete("/tasks/{task_id}", status_code=204)
def delete_task(task_id: int, name: User):
    task = task_of(task_id)
    if name != task["creator"] and name not in ADMINS:
        raise Problem(403, "forbidden")
    del TASKS[task_id]
    return Response(status_code=204)


@app.get("/me/tasks")
def my_tasks(name: User):
    return [shown(t) for t in sorted(TASKS.values(), key=lambda t: t["id"])
            if t["assignee"] == name and t["status"] != "done"]


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
admin_h, u1_h = {"X-Token": "${ta}"}, {"X-Token": "${t1}"}
result = [
    row(client.post("/projects", json={"name": "${project}"}, headers=admin_h)),
    row(client.post("/projects/1/tasks", json={"title": "${task}", "assignee": "${u1}"},
                    headers=u1_h)),
    row(client.get("/me/tasks", headers=u1_h)),
    row(client.get("/projects")),
]
'''

PROBES = '''\
AD, U1, U2 = {"X-Token": "${ta}"}, {"X-Token": "${t1}"}, {"X-Token": "${t2}"}


def _row(r):
    if not r.content:
        return [r.status_code]
    ctype = r.headers.get("content-type")
    try:
        return [r.status_code, ctype, r.json()]
    except ValueError:
        return [r.status_code, ctype, r.text]


def _project(client, name):
    return client.post("/projects", json={"name": name}, headers=AD).json()["id"]


def _task(client, project, headers=U1, **body):
    return client.post(f"/projects/{project}/tasks", json={"title": "t"} | body,
                       headers=headers).json()["id"]


def _patch(client, task_id, body, headers=U1, match=True):
    tag = client.get(f"/tasks/{task_id}", headers=headers).headers["etag"]
    extra = {"If-Match": tag} if match else {}
    return client.patch(f"/tasks/{task_id}", json=body, headers=headers | extra)


''' + late_body.probe_source(
    [("POST", "/projects"), ("POST", "/projects/1/tasks"), ("PATCH", "/tasks/1")],
    [("no token", "{}"), ("user", "U1"), ("admin", "AD")]) + '''

def probe_tokens_required(client):
    rows = []
    for headers in [{}, {"X-Token": "nope"}, {"X-Token": ""}, {"Authorization": "Bearer ${t1}"}]:
        for method, path in [("GET", "/projects"), ("POST", "/projects"), ("GET", "/me/tasks"),
                             ("GET", "/tasks/1"), ("PATCH", "/tasks/1"),
                             ("DELETE", "/projects/1"), ("GET", "/projects/1/tasks")]:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, _row(r), r.headers.get("www-authenticate")])
    return rows


def probe_errors_are_problem_json(client):
    return [_row(client.get("/nope", headers=U1)), _row(client.put("/projects", headers=U1)),
            _row(client.get("/tasks/999", headers=U1)),
            _row(client.get("/projects/999/tasks", headers=U1))]


def probe_admin_only_project_changes(client):
    return [_row(client.post("/projects", json={"name": "mine"}, headers=U1)),
            _row(client.post("/projects", json={"name": "x"}, headers=U1)),
            _row(client.delete("/projects/1", headers=U2))]


def probe_create_projects(client):
    r = client.post("/projects", json={"name": "alpha-2"}, headers=AD)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.post("/projects", json={"name": "alpha-2"}, headers=AD)))
    rows.append(_row(client.get("/projects", headers=U2)))
    return rows


def probe_project_validation(client):
    rows = []
    for body in [{"name": "ab"}, {"name": "a" * 31}, {"name": "a" * 30}, {"name": "Caps"},
                 {"name": "under_score"}, {"name": "ok-1", "owner": "x"}, {}, ["x"]]:
        r = client.post("/projects", json=body, headers=AD)
        rows.append([body, r.status_code, r.json().get("invalid") if r.status_code == 422
                     else r.json()["name"]])
    return rows


def probe_create_tasks(client):
    project = _project(client, "tasks-probe")
    r = client.post(f"/projects/{project}/tasks", json={"title": "write", "priority": "high"},
                    headers=U2)
    rows = [[r.status_code, r.json(), r.headers.get("location"), r.headers.get("etag")]]
    rows.append(_row(client.post(f"/projects/{project}/tasks",
                                 json={"title": "x", "assignee": "ghost"}, headers=U2)))
    rows.append(_row(client.post("/projects/999/tasks", json={"title": "x"}, headers=U2)))
    return rows


def probe_task_validation(client):
    rows = []
    for body in [{"title": ""}, {"title": "x" * ${title_max}}, {"title": "x" * (${title_max} + 1)},
                 {"title": "t", "priority": "urgent"}, {"title": "t", "status": "done"},
                 {"priority": "low"}, {"title": 3}]:
        r = client.post("/projects/1/tasks", json=body, headers=U1)
        title = body.get("title")
        rows.append([len(title) if isinstance(title, str) else title, r.status_code,
                     r.json().get("invalid") if r.status_code == 422 else "ok"])
    return rows


def probe_filter_sort_paginate(client):
    project = _project(client, "listing")
    for title, priority, assignee in [("a", "low", None), ("b", "high", "${u2}"),
                                      ("c", "normal", "${u1}"), ("d", "high", None),
                                      ("e", "low", "${u2}"), ("f", "normal", None),
                                      ("g", "high", "${u1}")]:
        _task(client, project, title=title, priority=priority, assignee=assignee)
    rows = []
    for params in [{}, {"sort": "priority"}, {"priority": "high"}, {"assignee": "${u2}"},
                   {"sort": "priority", "limit": 2, "offset": 2}, {"offset": 6},
                   {"limit": ${limit_max}}, {"priority": "high", "assignee": "${u1}"}]:
        r = client.get(f"/projects/{project}/tasks", params=params, headers=U2)
        rows.append([params, [t["title"] for t in r.json()], r.headers.get("x-total-count")])
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1},
                   {"sort": "title"}, {"status": "closed"}]:
        r = client.get(f"/projects/{project}/tasks", params=params, headers=U2)
        rows.append([params, r.status_code, r.json()])
    return rows


def probe_etag_and_if_match(client):
    project = _project(client, "etags")
    task = _task(client, project, title="versioned")
    first = client.get(f"/tasks/{task}", headers=U1).headers["etag"]
    rows = [[first == client.get(f"/tasks/{task}", headers=U2).headers["etag"], first == f'"{task}-1"']]
    rows.append(_row(client.patch(f"/tasks/{task}", json={"title": "v2"}, headers=U1)))
    rows.append(_row(client.patch(f"/tasks/{task}", json={"title": "v2"},
                                  headers=U1 | {"If-Match": '"bogus"'})))
    r = client.patch(f"/tasks/{task}", json={"title": "v2"}, headers=U1 | {"If-Match": first})
    rows.append([r.status_code, r.json()["title"], r.headers.get("etag") == f'"{task}-2"',
                 r.headers.get("etag") == client.get(f"/tasks/{task}", headers=U1).headers["etag"]])
    rows.append(_row(client.patch(f"/tasks/{task}", json={"title": "v3"},
                                  headers=U1 | {"If-Match": first})))
    rows.append(_row(client.patch("/tasks/999", json={}, headers=U1 | {"If-Match": first})))
    return rows


def probe_status_moves_forward_only(client):
    project = _project(client, "flow")
    task = _task(client, project, title="flowing")
    rows = []
    for status in ["doing", "open", "done", "doing", "done", None]:
        r = _patch(client, task, {"status": status})
        rows.append([status, r.status_code, r.json().get("status", r.json().get("title"))])
    return rows


def probe_patch_changes_given_fields(client):
    project = _project(client, "patching")
    task = _task(client, project, title="keep", priority="high", assignee="${u1}")
    rows = [_row(_patch(client, task, {"assignee": None})),
            _row(_patch(client, task, {"title": "renamed"})),
            _row(_patch(client, task, {"assignee": "ghost"})),
            _row(_patch(client, task, {"title": None})),
            _row(_patch(client, task, {"priority": "low"}))]
    return rows


def probe_delete_rules(client):
    project = _project(client, "deleting")
    mine = _task(client, project, headers=U1, title="u1's")
    theirs = _task(client, project, headers=U2, title="u2's")
    rows = [_row(client.delete(f"/tasks/{theirs}", headers=U1)),
            _row(client.delete(f"/tasks/{mine}", headers=U1)),
            _row(client.delete(f"/tasks/{mine}", headers=U1)),
            _row(client.delete(f"/projects/{project}", headers=AD))]
    _patch(client, theirs, {"status": "done"}, headers=U2)
    rows.append(_row(client.delete(f"/projects/{project}", headers=AD)))
    rows.append(_row(client.get(f"/tasks/{theirs}", headers=U2)))
    rows.append(_row(client.delete(f"/projects/{project}", headers=AD)))
    return rows


def probe_my_open_tasks(client):
    finished = _task(client, 1, headers=U1, title="finished", assignee="${u2}")
    _patch(client, finished, {"status": "done"}, headers=U2)
    started = _task(client, 1, headers=U1, title="started", assignee="${u2}")
    _patch(client, started, {"status": "doing"}, headers=U2)
    return [[[t["title"] for t in client.get("/me/tasks", headers=h).json()]] for h in (U1, U2, AD)]
'''

FAMILY = Family(
    id="service/task_board",
    title="A task board service from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt='''\
Build the HTTP API of a small task board. All state is in memory and starts empty.

## Access
Requests authenticate with the header `X-Token`:

| token | user | role |
|---|---|---|
| `${ta}` | `${admin}` | admin |
| `${t1}` | `${u1}` | user |
| `${t2}` | `${u2}` | user |

Every route needs a known token; otherwise 401 `unauthenticated` with the header
`WWW-Authenticate: Token`. Routes marked *admin* answer 403 `forbidden` to other users.
The token is checked first, then the role, before anything else about the request (a body that
is not JSON included).

## Errors
Every error is a problem document: content type `application/problem+json`, body
`{"title": <code>, "status": <status code>}`. Validation failures (body, path or query) are
422 `validation_error` with one more key, `"invalid"`: the sorted names, without repeats, of
the invalid fields or parameters (`"body"` when the body is missing, not JSON or not an object). A path
that matches no route is 404 `not_found`; a known path with another method 405
`method_not_allowed`. Missing projects and tasks are 404 `not_found`.

## Projects
`{"id", "name"}`, ids 1, 2, ... in creation order. A name is 3-30 characters of `a-z`, `0-9`
and `-`; bodies with other fields are invalid.
- `POST /projects` *admin* `{"name"}`: 201 with the project and `Location: /projects/<id>`;
  409 `name_taken` if a project has that name.
- `GET /projects`: 200, all projects sorted by name.
- `DELETE /projects/{project_id}` *admin*: 409 `project_has_open_tasks` while any of its
  tasks is not `done`; else deletes it with its tasks: 204, empty body.

## Tasks
Shown as `{"id", "project_id", "title", "priority", "status", "assignee", "creator"}`; ids
1, 2, ... in creation order across projects. Every response showing one task carries an
`ETag` header: `"<id>-<version>"` (with the quotes), the version starting at 1 and growing by
one with each successful change.
- `POST /projects/{project_id}/tasks` `{"title" (1-${title_max} characters), "priority"
  ("low" | "normal" | "high", default "normal"), "assignee" (a user name or null, default
  null)}`, no other fields: 201 with the task (status `open`, creator the caller), `Location:
  /tasks/<id>` and its `ETag`; 404 for a missing project, then 400 `unknown_assignee` for an
  assignee who is not a user.
- `GET /projects/{project_id}/tasks`: 200, the project's tasks filtered by the optional
  `status`, `priority` and `assignee` (exact values), sorted by `sort` (`id`, the default, or
  `priority`: high, normal, low, then id), then the page `offset` (>= 0, default 0), `limit`
  (1-${limit_max}, default ${limit_default}); the header `X-Total-Count` gives the number of
  matching tasks before paging.
- `GET /tasks/{task_id}`: 200 with the task.
- `PATCH /tasks/{task_id}` with any of `title`, `status`, `assignee` (no other fields): needs
  the header `If-Match` equal to the task's current `ETag`: without it 428
  `precondition_required`, with another value 412 `precondition_failed` (both after the
  404). Then: `status` only moves forward, `open` -> `doing` -> `done` (skipping a step is
  allowed, giving the current status again is fine; a step back, or null, is 409
  `invalid_transition`); an assignee who is not a user is 400 `unknown_assignee`;
  `assignee: null` unassigns; `title: null` is a validation failure. Only the fields given change; 200 with the task and its new `ETag`.
- `DELETE /tasks/{task_id}`: by its creator or an admin (others 403 `forbidden`): 204, empty
  body.
- `GET /me/tasks`: 200, the tasks assigned to the caller that are not `done`, by id.

## result
One row per request, `[status code, JSON body]`:
1. `POST /projects` as `${admin}` with `{"name": "${project}"}`
2. `POST /projects/1/tasks` as `${u1}` with `{"title": "${task}", "assignee": "${u1}"}`
3. `GET /me/tasks` as `${u1}`
4. `GET /projects` without a token
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"admin": "root", "u1": "ivy", "u2": "jon", "tp": "tk-", "title_max": 80,
              "limit_default": 3, "limit_max": 20, "project": "website", "task": "fix header"},
    space={
        # Tokens never show in a response: the prefix varies with the names, which do.
        "admin": [{"admin": "root", "u1": "ivy", "u2": "jon", "tp": "tk-"},
                  {"admin": "chief", "u1": "kai", "u2": "liv", "tp": "secret_"}],
        "title_max": [80, 40],
        "limit_default": [{"limit_default": 3, "limit_max": 20},
                          {"limit_default": 5, "limit_max": 10}],
        "project": [{"project": "website", "task": "fix header"},
                    {"project": "mobile-app", "task": "ship beta"}],
    },
    derive=lambda p: {"ta": p["tp"] + p["admin"], "t1": p["tp"] + p["u1"],
                      "t2": p["tp"] + p["u2"]},
    instances=8,
    requirements=(
        Requirement("Every route needs a known `X-Token`: else 401 `unauthenticated` with "
                    "`WWW-Authenticate: Token`, before validation.",
                    probes=("tokens_required",),
                    traps=(Edit("no challenge", 'raise Problem(401, "unauthenticated", '
                                '{"WWW-Authenticate": "Token"})',
                                'raise Problem(401, "unauthenticated")'),)),
        Requirement("The token and the role are checked before the body, even a body that is not "
                    "JSON (then 422 naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Errors are `application/problem+json` `{title, status}`, unknown paths and "
                    "methods included.",
                    probes=("errors_are_problem_json",),
                    traps=(Edit("plain JSON errors", '''headers=headers, media_type="application/problem+json")''',
                                "headers=headers)"),
                           router_errors_in_fastapi_format())),
        Requirement("Project changes are for admins: others get 403 before validation.",
                    probes=("admin_only_project_changes",),
                    traps=(Edit("role checked in the handler", '''def create_project(body: ProjectIn, name: Admin, response: Response):
''', '''def create_project(body: ProjectIn, name: User, response: Response):
    admin(name)
'''),)),
        Requirement("`POST /projects` answers 201 with `Location`; a taken name is 409 "
                    "`name_taken`; `GET /projects` sorts by name.",
                    probes=("create_projects",),
                    traps=(Edit("duplicate names allowed", '''    if any(p["name"] == body.name for p in PROJECTS.values()):
        raise Problem(409, "name_taken")
''', ""),
                           Edit("projects by id", 'return sorted(PROJECTS.values(), key=lambda p: '
                                'p["name"])', "return list(PROJECTS.values())"))),
        Requirement("Project names are 3-30 of `a-z0-9-`; other fields are invalid.",
                    probes=("project_validation",),
                    traps=(Edit("capitals allowed", 'pattern=r"^[a-z0-9-]+$$"',
                                'pattern=r"^[A-Za-z0-9-]+$$"'),
                           extras_ignored("project extras ignored", "ProjectIn"))),
        Requirement("A new task is `open`, created by the caller, with `Location` and `ETag`; "
                    "404 for the project, then 400 `unknown_assignee`.",
                    probes=("create_tasks",),
                    traps=(Edit("no ETag on create", '''    response.headers["Location"] = f"/tasks/{task['id']}"
    response.headers["ETag"] = etag(task)
''', '''    response.headers["Location"] = f"/tasks/{task['id']}"
'''),
                           Edit("assignee not checked on create",
                                "    project_of(project_id)\n    check_assignee(body.assignee)\n",
                                "    project_of(project_id)\n"))),
        Requirement("Task bodies: title 1-${title_max}, priority one of three, no other fields.",
                    probes=("task_validation",),
                    traps=(Edit("title unbounded", '''    title: str = Field(min_length=1, max_length=${title_max})''',
                                '''    title: str = Field(min_length=1)'''),
                           extras_ignored("task extras ignored", "TaskIn"))),
        Requirement("Task lists filter, sort by id or priority, page with `offset`/`limit`, and "
                    "give `X-Total-Count` before paging.",
                    probes=("filter_sort_paginate",),
                    traps=(Edit("priority sorted alphabetically",
                                '(lambda t: (RANK[t["priority"]], t["id"]))',
                                '(lambda t: (t["priority"], t["id"]))'),
                           Edit("total after paging",
                                '''    response.headers["X-Total-Count"] = str(len(tasks))
    return [shown(t) for t in tasks[offset:offset + limit]]''',
                                '''    page = tasks[offset:offset + limit]
    response.headers["X-Total-Count"] = str(len(page))
    return [shown(t) for t in page]'''),
                           Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"))),
        Requirement("`PATCH` needs `If-Match` equal to the current `ETag` (428 without, 412 "
                    "otherwise); each change bumps the version.",
                    probes=("etag_and_if_match",),
                    traps=(Edit("If-Match optional", '''    if if_match is None:
        raise Problem(428, "precondition_required")
    if if_match != etag(task):''', '''    if if_match is not None and if_match != etag(task):'''),
                           Edit("version never bumps", '    task["version"] += 1\n', ""),
                           Edit("ETag without quotes",
                                "return f'\"{task[\"id\"]}-{task[\"version\"]}\"'",
                                "return f'{task[\"id\"]}-{task[\"version\"]}'"))),
        Requirement("Status moves only forward (`open`, `doing`, `done`); a step back or null is "
                    "409 `invalid_transition`.",
                    probes=("status_moves_forward_only",),
                    traps=(Edit("any transition", '''    if "status" in changes and (changes["status"] is None
                                or ORDER[changes["status"]] < ORDER[task["status"]]):''',
                                '''    if "status" in changes and changes["status"] is None:'''),)),
        Requirement("`PATCH` changes only the given fields; `assignee: null` unassigns; an "
                    "unknown assignee is 400, a null title 422.",
                    probes=("patch_changes_given_fields",),
                    traps=(Edit("nulls ignored", "changes = body.model_dump(exclude_unset=True)",
                                "changes = body.model_dump(exclude_none=True)"),
                           Edit("assignee not checked on patch",
                                '    check_assignee(changes.get("assignee"))\n', ""))),
        Requirement("Tasks are deleted by their creator or an admin; a project only when none "
                    "of its tasks is open, with its tasks.",
                    probes=("delete_rules",),
                    traps=(Edit("anyone deletes tasks", '''    if name != task["creator"] and name not in ADMINS:
        raise Problem(403, "forbidden")
''', ""),
                           Edit("done tasks block deletion",
                                't["project_id"] == project_id and t["status"] != "done"',
                                't["project_id"] == project_id'))),
        Requirement("`GET /me/tasks` lists the caller's assigned tasks that are not done.",
                    probes=("my_open_tasks",),
                    traps=(Edit("done tasks listed",
                                'if t["assignee"] == name and t["status"] != "done"]',
                                'if t["assignee"] == name]'),)),
    ),
)
