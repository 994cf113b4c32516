from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROW

_HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

PROJECTS = {${id1}: {"name": "${name1}", "owner": "${u1}"}, ${id2}: {"name": "${name2}", "owner": "${u2}"}}
TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${ta}": "${admin}"}
ADMINS = {"${admin}"}
AUDIT: list = []
'''

_AUTH = '''

def authenticate(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(status_code=401, detail="not authenticated")
    return TOKENS[token]


def load_project(project_id: int) -> dict:
    if project_id not in PROJECTS:
        raise HTTPException(status_code=404, detail="project not found")
    return {"id": project_id, **PROJECTS[project_id]}
'''

_PERMISSION = '''

def require_owner_or_admin(
    user: Annotated[str, Depends(authenticate)],
    project: Annotated[dict, Depends(load_project)],
) -> dict:
    if user != project["owner"] and user not in ADMINS:
        raise HTTPException(status_code=403, detail="not allowed")
    return {"user": user, "project": project}
'''

_ROUTES = '''

app = FastAPI()


@app.get("/projects/{project_id}")
def read_project(
    user: Annotated[str, Depends(authenticate)],
    project: Annotated[dict, Depends(load_project)],
):
    return project


@app.delete("/projects/{project_id}", status_code=204)
def delete_project(allowed: Annotated[dict, Depends(require_owner_or_admin)]):
    del PROJECTS[allowed["project"]["id"]]
    AUDIT.append(["delete", allowed["project"]["id"], allowed["user"]])


@app.get("/audit")
def read_audit():
    return AUDIT
'''

_RESULT = '''

client = TestClient(app)
result = []
for method, path, token in [
    ("DELETE", "/projects/${id1}", "${t2}"),
    ("GET", "/projects/${id1}", "${t2}"),
    ("DELETE", "/projects/${unknown}", None),
    ("DELETE", "/projects/${id1}", "${t1}"),
    ("GET", "/audit", None),
]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.request(method, path, headers=headers)
    result.append([r.status_code, r.json()] if r.content else [r.status_code])
'''

_REFERENCE = _HEAD + _AUTH + _PERMISSION + _ROUTES + _RESULT

_RETURNS_RESPONSES = _HEAD + _AUTH + '''

def require_owner_or_admin(
    user: Annotated[str, Depends(authenticate)],
    project: Annotated[dict, Depends(load_project)],
):
    if user != project["owner"] and user not in ADMINS:
        return JSONResponse({"detail": "not allowed"}, status_code=403)
    return {"user": user, "project": project}
''' + _ROUTES.replace(
    '''def delete_project(allowed: Annotated[dict, Depends(require_owner_or_admin)]):
    del PROJECTS[allowed["project"]["id"]]
    AUDIT.append(["delete", allowed["project"]["id"], allowed["user"]])''',
    '''def delete_project(
    project_id: int,
    user: Annotated[str, Depends(authenticate)],
    allowed: Annotated[dict, Depends(require_owner_or_admin)],
):
    del PROJECTS[project_id]
    AUDIT.append(["delete", project_id, user])''',
) + _RESULT

_LOOKUP_FIRST = _HEAD + _AUTH + '''

def require_owner_or_admin(
    project: Annotated[dict, Depends(load_project)],
    user: Annotated[str, Depends(authenticate)],
) -> dict:
    if user != project["owner"] and user not in ADMINS:
        raise HTTPException(status_code=403, detail="not allowed")
    return {"user": user, "project": project}
''' + _ROUTES.replace(
    '''    user: Annotated[str, Depends(authenticate)],
    project: Annotated[dict, Depends(load_project)],
):
    return project''',
    '''    project: Annotated[dict, Depends(load_project)],
    user: Annotated[str, Depends(authenticate)],
):
    return project''',
) + _RESULT

_CHECK_AFTER_YIELD = _HEAD + _AUTH + '''

def require_owner_or_admin(
    user: Annotated[str, Depends(authenticate)],
    project: Annotated[dict, Depends(load_project)],
):
    yield {"user": user, "project": project}
    if user != project["owner"] and user not in ADMINS:
        raise HTTPException(status_code=403, detail="not allowed")
''' + _ROUTES + _RESULT.replace("TestClient(app)", "TestClient(app, raise_server_exceptions=False)")

_MIDDLE = _PERMISSION + _ROUTES

FAMILY = Family(
    id="dependencies/raising_dependency_short_circuits",
    title="Auth and permission dependencies that stop the request before the handler",
    category="dependencies",
    difficulty="medium",
    prompt='''\
Build a small project API whose access checks live in dependencies. Module-level state,
starting as:

    PROJECTS = {${id1}: {"name": "${name1}", "owner": "${u1}"}, ${id2}: {"name": "${name2}", "owner": "${u2}"}}
    TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${ta}": "${admin}"}   # token -> user
    ADMINS = {"${admin}"}
    AUDIT = []

A project is rendered as `{"id": <id>, "name": <name>, "owner": <owner>}`.

Dependencies:
- **authenticate**: reads the optional `Authorization` header, expected as
  `Bearer <token>`. If it is missing, not of that form, or the token is unknown, the request
  fails with 401 `{"detail": "not authenticated"}`; otherwise it gives the user name.
- **load project**: reads the integer path parameter `project_id`; unknown id -> 404
  `{"detail": "project not found"}`; otherwise it gives the project.
- **owner or admin**: uses both of the above; if the user is neither the project's owner nor
  an admin, the request fails with 403 `{"detail": "not allowed"}`.

A failing check ends the request at once: later checks and the route handler do not run, and
nothing is changed. Authentication is always checked first, before the project lookup and
before the project id is validated (so an unauthenticated request is a 401 even when the
project id is unknown or not an integer); a non-integer project id from an authenticated user
is FastAPI's standard 422 validation error.

Routes:
- `GET /projects/{project_id}`: any authenticated user; 200 with the project.
- `DELETE /projects/{project_id}`: needs owner or admin; removes the project, appends
  `["delete", <project id>, <user>]` to `AUDIT`, and answers 204 with an empty body.
- `GET /audit`: no authentication; 200 with `AUDIT` (a JSON array).

Then fill `result` with one row per request, in this order. A request "as X" sends
`Authorization: Bearer X`; the others send no `Authorization` header. Each row is
`[status code (integer), the JSON body]`, or just `[status code (integer)]` when the response
body is empty:
1. `DELETE /projects/${id1}` as `${t2}`
2. `GET /projects/${id1}` as `${t2}`
3. `DELETE /projects/${unknown}`
4. `DELETE /projects/${id1}` as `${t1}`
5. `GET /audit`
''',
    reference=_REFERENCE,
    probes=ROW + '''

def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def probe_admin_delete(client):
    return [
        _row(client.delete("/projects/${id2}", headers=_auth("${t1}"))),
        _row(client.delete("/projects/${id2}", headers=_auth("${ta}"))),
        _row(client.get("/projects/${id2}", headers=_auth("${ta}"))),
        _row(client.delete("/projects/${id2}", headers=_auth("${ta}"))),
        _row(client.get("/audit")),
    ]


def probe_auth_before_lookup_and_validation(client):
    rows = [
        _row(client.get("/projects/99")),
        _row(client.delete("/projects/abc")),
        _row(client.delete("/projects/abc", headers=_auth("nobody"))),
        _row(client.get("/projects/${id1}", headers={"Authorization": "${t1}"})),
        _row(client.get("/projects/${id1}", headers=_auth("${t1}"))),
    ]
    r = client.delete("/projects/abc", headers=_auth("${t1}"))
    rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    return rows

def probe_forged_and_malformed_credentials(client):
    rows = []
    for value in ["Bearer ${u1}", "Bearer", "Bearer ", "Token ${t1}", "Bearer ${t1}x", ""]:
        rows.append(_row(client.get("/projects/${id2}", headers={"Authorization": value})))
    return rows


def probe_unknown_project_and_order_of_failures(client):
    return [
        _row(client.get("/projects/${unknown}", headers=_auth("${t1}"))),
        _row(client.delete("/projects/${unknown}", headers=_auth("${t2}"))),
        _row(client.delete("/projects/${unknown}", headers=_auth("nobody"))),
        _row(client.get("/audit")),
    ]
''',
    original={"id1": 1, "id2": 2, "name1": "apollo", "name2": "gemini", "u1": "ada", "u2": "bob",
              "admin": "root", "tp": "t-", "unknown": 7},
    space={
        "id1": [{"id1": 1, "id2": 2, "unknown": 7}, {"id1": 10, "id2": 11, "unknown": 3},
                {"id1": 4, "id2": 9, "unknown": 0}],
        "name1": [{"name1": "apollo", "name2": "gemini"}, {"name1": "atlas", "name2": "hermes"}],
        # token prefixes never reach a row: each rides with the users it names
        "u1": [{"u1": "ada", "u2": "bob", "admin": "root", "tp": "t-"},
               {"u1": "lin", "u2": "max", "admin": "ops", "tp": "tok_"},
               {"u1": "cy", "u2": "dee", "admin": "boss", "tp": "k"}],
    },
    derive=lambda p: {"t1": p["tp"] + p["u1"], "t2": p["tp"] + p["u2"], "ta": p["tp"] + p["admin"]},
    instances=40,
    requirements=(
        Requirement(
            "A failing check raises: the handler does not run and nothing changes (a rejected "
            "DELETE leaves the project and `AUDIT` as they were).",
            probes=("admin_delete",),
            traps=(Edit("permission dependency returns a 403 response instead of raising",
                        _MIDDLE, _RETURNS_RESPONSES[len(_HEAD + _AUTH):-len(_RESULT)]),
                   Edit("permission checked after yield", _MIDDLE + _RESULT,
                        _CHECK_AFTER_YIELD[len(_HEAD + _AUTH):])),
        ),
        Requirement(
            "Authentication runs first: an unauthenticated request is a 401 even for an unknown "
            "or non-integer project id; an authenticated non-integer id is FastAPI's 422.",
            probes=("auth_before_lookup_and_validation", "unknown_project_and_order_of_failures"),
            traps=(Edit("project looked up before authentication", _MIDDLE,
                        _LOOKUP_FIRST[len(_HEAD + _AUTH):-len(_RESULT)]),),
        ),
        Requirement(
            "Only `Bearer <known token>` authenticates: a user name as token, a bare or empty "
            "value, another scheme or a token with a suffix is a 401.",
            probes=("forged_and_malformed_credentials", "auth_before_lookup_and_validation"),
            traps=(Edit("any Bearer value accepted as its own user name",
                        '    if scheme != "Bearer" or token not in TOKENS:\n'
                        '        raise HTTPException(status_code=401, detail="not authenticated")\n'
                        '    return TOKENS[token]',
                        '    if scheme != "Bearer" or not token:\n'
                        '        raise HTTPException(status_code=401, detail="not authenticated")\n'
                        '    return TOKENS.get(token, token)'),),
        ),
        Requirement(
            "An unknown project id from an authenticated user is 404 "
            '`{"detail": "project not found"}`, on GET and on DELETE (before the permission check).',
            probes=("unknown_project_and_order_of_failures", "admin_delete"),
            traps=(Edit("unknown project rendered as an empty project",
                        '    if project_id not in PROJECTS:\n'
                        '        raise HTTPException(status_code=404, detail="project not found")\n'
                        '    return {"id": project_id, **PROJECTS[project_id]}',
                        '    return {"id": project_id, **PROJECTS.get(project_id, {"owner": None})}'),),
        ),
        Requirement(
            "The owner or an admin may delete (204, empty body, one `AUDIT` entry); anyone else "
            'gets 403 `{"detail": "not allowed"}`.',
            probes=("admin_delete",),
            traps=(Edit("admins are not exempt", ' and user not in ADMINS:', ':'),),
        ),
    ),
    expected_rows=[
        [403, {"detail": "not allowed"}],
        [200, {"id": 1, "name": "apollo", "owner": "ada"}],
        [401, {"detail": "not authenticated"}],
        [204],
        [200, [["delete", 1, "ada"]]],
    ],
)
