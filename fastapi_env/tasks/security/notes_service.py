"""Security tier: a notes service whose hidden probes try the usual exploits (forged and
malformed tokens, reading or changing another user's note, mass assignment, SQL injection and
LIKE wildcards in search, oversized inputs, a member calling the admin route)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROW

REFERENCE = '''\
import sqlite3
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${ta}": "${admin}"}
ROLES = {"${u1}": "member", "${u2}": "member", "${admin}": "admin"}
# SQLite integers are 64-bit: a larger id names no note, a larger offset is clamped
SQL_MAX = 2**63 - 1

db = sqlite3.connect(":memory:", check_same_thread=False)
db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT, title TEXT, body TEXT)")

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class NoteIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    title: str = Field(min_length=1, max_length=${title_max})
    body: str = Field("", max_length=${body_max})


class NotePatch(BaseModel):
    title: str | None = Field(None, min_length=1, max_length=${title_max})
    body: str | None = Field(None, max_length=${body_max})


def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


User = Annotated[str, Depends(caller)]


def row_to_note(row) -> dict:
    return {"id": row[0], "owner": row[1], "title": row[2], "body": row[3]}


def visible_note(note_id: int, user: User) -> dict:
    row = None
    if abs(note_id) <= SQL_MAX:
        row = db.execute("SELECT id, owner, title, body FROM notes WHERE id = ?",
                         (note_id,)).fetchone()
    if row is None or (row[1] != user and ROLES[user] != "admin"):
        raise HTTPException(404, "not_found")
    return row_to_note(row)


def own_note(note_id: int, user: User) -> dict:
    note = visible_note(note_id, user)
    if note["owner"] != user:
        raise HTTPException(404, "not_found")
    return note


@app.get("/me")
def me(user: User):
    return {"name": user, "role": ROLES[user]}


@app.post("/notes", status_code=201)
def create_note(note: NoteIn, user: User):
    fields = {"owner": user} | note.model_dump()
    cursor = db.execute(
        "INSERT INTO notes (owner, title, body) VALUES (:owner, :title, :body)", fields
    )
    return {"id": cursor.lastrowid, **fields}


@app.get("/notes")
def list_notes(
    user: User,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
    offset: Annotated[int, Query(ge=0)] = 0,
):
    total = db.execute("SELECT count(*) FROM notes WHERE owner = ?", (user,)).fetchone()[0]
    rows = db.execute(
        "SELECT id, owner, title, body FROM notes WHERE owner = ? ORDER BY id LIMIT ? OFFSET ?",
        (user, limit, min(offset, SQL_MAX)),
    ).fetchall()
    return {"items": [row_to_note(r) for r in rows], "total": total}


@app.get("/notes/{note_id}")
def read_note(note: Annotated[dict, Depends(visible_note)]):
    return note


@app.patch("/notes/{note_id}")
def update_note(changes: NotePatch, note: Annotated[dict, Depends(own_note)]):
    note = note | changes.model_dump(exclude_unset=True, exclude_none=True)
    db.execute("UPDATE notes SET title = ?, body = ? WHERE id = ?",
               (note["title"], note["body"], note["id"]))
    return note


@app.delete("/notes/{note_id}", status_code=204)
def delete_note(note: Annotated[dict, Depends(visible_note)]):
    db.execute("DELETE FROM notes WHERE id = ?", (note["id"],))
    return Response(status_code=204)


@app.get("/search")
def search(user: User, q: Annotated[str, Query(min_length=1, max_length=50)]):
    rows = db.execute(
        "SELECT id, owner, title, body FROM notes WHERE owner = ? AND instr(title, ?) > 0 "
        "ORDER BY id",
        (user, q),
    ).fetchall()
    return [row_to_note(r) for r in rows]


@app.get("/admin/stats")
def stats(user: User):
    if ROLES[user] != "admin":
        raise HTTPException(403, "forbidden")
    rows = db.execute("SELECT owner, count(*) FROM notes GROUP BY owner ORDER BY owner")
    return {owner: count for owner, count in rows}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
as1 = {"Authorization": "Bearer ${t1}"}
result = [
    row(client.get("/me", headers=as1)),
    row(client.post("/notes", json={"title": "${title1}", "body": "first"}, headers=as1)),
    row(client.get("/notes", headers=as1)),
    row(client.get("/notes/1")),
]
'''

PROBES = '''\
A1 = {"Authorization": "Bearer ${t1}"}
A2 = {"Authorization": "Bearer ${t2}"}
AA = {"Authorization": "Bearer ${ta}"}


''' + ROW + '''

def _new(client, headers, title, body="b"):
    return client.post("/notes", json={"title": title, "body": body}, headers=headers).json()["id"]


def probe_auth_rejects_bad_credentials(client):
    rows = []
    for value in [None, "Bearer", "Bearer ", "bearer ${t1}", "Token ${t1}", "${t1}",
                  "Bearer ${u1}", "Bearer ${t1}x", "Bearer  ${t1}", "Bearer ${admin}"]:
        headers = {} if value is None else {"Authorization": value}
        for method, path in [("GET", "/me"), ("GET", "/notes"), ("POST", "/notes"),
                             ("GET", "/admin/stats"), ("GET", "/search?q=a")]:
            r = client.request(method, path, headers=headers, json={"title": "t"})
            rows.append([value, path, r.status_code, r.json(), r.headers.get("www-authenticate")])
    return rows


def probe_me_and_roles(client):
    return [_row(client.get("/me", headers=h)) for h in (A1, A2, AA)]


def probe_create_returns_201(client):
    r = client.post("/notes", json={"title": "plan", "body": "x"}, headers=A2)
    note = r.json()
    return [[r.status_code, sorted(note), note["owner"], note["title"], note["body"]],
            [client.post("/notes", json={"title": "only"}, headers=A2).json()["body"]]]


def probe_mass_assignment_is_ignored(client):
    r = client.post("/notes", headers=A1, json={"title": "mine", "body": "b", "owner": "${u2}",
                                                 "id": 999, "role": "admin"})
    note = r.json()
    rows = [[r.status_code, note["owner"], note["id"] != 999]]
    got = client.get(f"/notes/{note['id']}", headers=A2)
    rows.append([got.status_code, got.json()])
    p = client.patch(f"/notes/{note['id']}", headers=A1, json={"owner": "${u2}", "title": "t2"})
    rows.append([p.status_code, p.json()["owner"], p.json()["title"]])
    rows.append([client.get("/me", headers=A1).json()["role"]])
    return rows


def probe_input_bounds(client):
    rows = []
    for body in [{"title": ""}, {"title": "x" * ${title_max}}, {"title": "x" * (${title_max} + 1)},
                 {"title": "t", "body": "y" * ${body_max}},
                 {"title": "t", "body": "y" * (${body_max} + 1)}, {"body": "no title"},
                 {"title": 5}, [], {"title": "x" * 100000}]:
        r = client.post("/notes", json=body, headers=A2)
        rows.append([r.status_code, r.json() if r.status_code == 422 else "created"])
    note = _new(client, A2, "bounded")
    for body in [{"title": ""}, {"title": "x" * (${title_max} + 1)},
                 {"body": "y" * (${body_max} + 1)}]:
        rows.append(_row(client.patch(f"/notes/{note}", json=body, headers=A2)))
    rows.append(_row(client.get("/search", params={"q": "q" * 51}, headers=A2)))
    rows.append(_row(client.get("/search", params={"q": ""}, headers=A2)))
    rows.append(_row(client.get("/search", headers=A2)))
    return rows


def probe_lists_only_own_notes_paginated(client):
    for title in ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]:
        _new(client, AA, title)
    _new(client, A1, "not the admin's")
    rows = []
    for params in [{}, {"limit": 3}, {"limit": 3, "offset": 3}, {"limit": 3, "offset": 6},
                   {"offset": 100}, {"limit": ${limit_max}}, {"offset": 2**63},
                   {"offset": 10**30, "limit": 1}]:
        page = client.get("/notes", params=params, headers=AA).json()
        rows.append([params, [n["title"] for n in page["items"]], page["total"],
                     sorted({n["owner"] for n in page["items"]})])
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1}, {"limit": "x"}]:
        rows.append([params, _row(client.get("/notes", params=params, headers=AA))])
    return rows


def probe_cannot_read_others_notes(client):
    secret = _new(client, A2, "secret of ${u2}", "keep out")
    rows = [_row(client.get(f"/notes/{secret}", headers=A1)),
            _row(client.get(f"/notes/{secret}", headers=A2)),
            _row(client.get(f"/notes/{secret}", headers=AA)),
            _row(client.get("/notes/424242", headers=A1)),
            _row(client.get("/notes/abc", headers=A1))]
    for huge in [2**63 - 1, 2**63, 10**30]:
        rows += [[huge, _row(client.get(f"/notes/{huge}", headers=h))] for h in (A1, AA)]
    titles = [n["title"] for n in client.get("/notes", params={"limit": ${limit_max}},
                                              headers=A1).json()["items"]]
    rows.append(["secret of ${u2}" in titles])
    return rows


def probe_cannot_change_others_notes(client):
    secret = _new(client, A2, "untouchable", "original")
    rows = [_row(client.patch(f"/notes/{secret}", json={"body": "hacked"}, headers=A1)),
            _row(client.patch(f"/notes/{secret}", json={"body": "by admin"}, headers=AA)),
            _row(client.get(f"/notes/{secret}", headers=A2))]
    rows.append(_row(client.patch(f"/notes/{secret}", json={"body": "new"}, headers=A2)))
    rows.append(_row(client.patch(f"/notes/{secret}", json={}, headers=A2)))
    rows.append(_row(client.patch(f"/notes/{secret}", json={"title": "renamed"}, headers=A2)))
    for huge in [2**63 - 1, 2**63, 10**30]:
        rows.append([huge, _row(client.patch(f"/notes/{huge}", json={"body": "x"}, headers=A2))])
    return rows


def probe_delete_own_or_admin(client):
    a = _new(client, A2, "to delete")
    b = _new(client, A2, "admin deletes")
    rows = [_row(client.delete(f"/notes/{a}", headers=A1)),
            _row(client.get(f"/notes/{a}", headers=A2)),
            _row(client.delete(f"/notes/{a}", headers=A2)),
            _row(client.get(f"/notes/{a}", headers=A2)),
            _row(client.delete(f"/notes/{a}", headers=A2)),
            _row(client.delete(f"/notes/{b}", headers=AA)),
            _row(client.get(f"/notes/{b}", headers=A2))]
    for huge in [2**63 - 1, 2**63, 10**30]:
        rows += [[huge, _row(client.delete(f"/notes/{huge}", headers=h))] for h in (A2, AA)]
    return rows


def probe_search_is_literal_and_own(client):
    for title in ["${u2}'s plan", "100% done", "a_b", "Groceries", "groceries list"]:
        _new(client, A2, title)
    _new(client, A1, "groceries of ${u1}")
    rows = []
    for q in ["groceries", "Groc", "'s", "%", "_", "100%", "' OR '1'='1", "x') > 0 OR 1=1 --",
              "\\\\", '"', "groceries' --"]:
        r = client.get("/search", params={"q": q}, headers=A2)
        rows.append([q, r.status_code, [n["title"] for n in r.json()] if r.status_code == 200
                     else r.json()])
    r = client.get("/search", params={"q": "' OR 1=1 --"}, headers=A1)
    rows.append([r.status_code, [n["owner"] for n in r.json()] if r.status_code == 200 else 0])
    return rows


def probe_admin_route_needs_admin(client):
    return [_row(client.get("/admin/stats", headers=A1)),
            _row(client.get("/admin/stats", headers=A2)),
            [client.get("/admin/stats", headers=AA).status_code]]
'''

_HTTP_HANDLER = '''    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)'''

FAMILY = Family(
    id="security/notes_service",
    title="A notes service that withstands the usual exploits",
    category="security",
    difficulty="hard",
    tier="security",
    prompt='''\
Build a small private-notes service. Notes are kept in an in-memory SQLite database (the
standard library's `sqlite3`). Three users exist, each with a fixed bearer token:

| token | user | role |
|---|---|---|
| `${t1}` | `${u1}` | member |
| `${t2}` | `${u2}` | member |
| `${ta}` | `${admin}` | admin |

**Authentication.** Every route needs the header `Authorization: Bearer <token>` with exactly
that form (the scheme `Bearer` as written, one space, a token from the table). A missing,
malformed or unknown credential gets 401 with the header `WWW-Authenticate: Bearer`.

**Errors.** Every error this document describes has the body `{"error": <code>}`: 401 `"unauthorized"`, 403 `"forbidden"`,
404 `"not_found"`, and 422 `"invalid"` for any request whose body, path or query parameters
are not valid as described (FastAPI's default validation body is not used). Integers have no
upper bound beyond the stated ones: a `note_id` that names no note, however large, is 404, and
a huge `offset` gives an empty page.

**A note** is `{"id": int, "owner": str, "title": str, "body": str}`. Ids are assigned
1, 2, 3, ... in creation order. The title is 1 to ${title_max} characters; the body at most
${body_max} characters (default `""`). The owner is always the user who created the note; a
client cannot choose or change `owner` or `id` (any other fields in a body are ignored).

**Visibility.** A member sees only their own notes; an admin may read and delete any note but
changes only their own. A note that exists but is not visible to the caller is answered
exactly like one that does not exist (404 `"not_found"`), and so is a change (`PATCH`) of a note
that is not the caller's own, an admin's included.

**Routes.**
- `GET /me`: 200 `{"name": <user>, "role": "member" | "admin"}`.
- `POST /notes` with a JSON body `{"title", "body"?}`: 201 with the new note.
- `GET /notes?limit=&offset=`: 200 `{"items": [...], "total": <int>}`: the caller's own notes
  (admins too see only their own here), by id ascending; `limit` 1 to ${limit_max} (default
  ${limit_default}), `offset` >= 0 (default 0); `total` counts all the caller's notes.
- `GET /notes/{note_id}`: 200 with the note, if visible.
- `PATCH /notes/{note_id}` with `{"title"?, "body"?}`: the caller's own notes only; changes
  only the fields given (same limits as on creation; a field given as null is left unchanged);
  200 with the whole updated note.
- `DELETE /notes/{note_id}`: the owner, or an admin; 204 with an empty body.
- `GET /search?q=`: 200 with the caller's own notes whose title contains `q` (1 to 50
  characters, required) as a literal, case-sensitive substring (every character, quotes and `%`
  and `_` included, stands for itself), by id ascending.
- `GET /admin/stats`: admins only (a member gets 403 `"forbidden"`); 200 with an object
  mapping each user who has notes to their number of notes.

Then fill `result` with one row per request, in this order; "as `${t1}`" sends
`Authorization: Bearer ${t1}`. Each row is `[status code, JSON body]`, or `[status code]` when
the body is empty:
1. `GET /me` as `${t1}`
2. `POST /notes` as `${t1}` with `{"title": "${title1}", "body": "first"}`
3. `GET /notes` as `${t1}`
4. `GET /notes/1` without credentials
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "alice", "u2": "bob", "admin": "root", "tp": "tok-", "title_max": 80,
              "body_max": 500, "limit_default": 5, "limit_max": 20, "title1": "shopping"},
    space={
        "u1": [{"u1": "alice", "u2": "bob", "admin": "root"},
               {"u1": "lin", "u2": "max", "admin": "ops"},
               {"u1": "cyd", "u2": "dee", "admin": "boss"}],
        "tp": ["tok-", "k_", "s3cr3t."],
        "title_max": [{"title_max": 80, "body_max": 500}, {"title_max": 60, "body_max": 1000},
                      {"title_max": 100, "body_max": 300}],
        "limit_default": [{"limit_default": 5, "limit_max": 20},
                          {"limit_default": 4, "limit_max": 10}],
        "title1": ["shopping", "ideas"],
    },
    derive=lambda p: {"t1": p["tp"] + p["u1"] + "-1", "t2": p["tp"] + p["u2"] + "-2",
                      "ta": p["tp"] + p["admin"] + "-a"},
    instances=8,
    requirements=(
        Requirement(
            "A missing, malformed or unknown credential (wrong scheme or case, extra spaces, a "
            "user name instead of a token) gets 401 `unauthorized` with `WWW-Authenticate: "
            "Bearer`, on every route.",
            probes=("auth_rejects_bad_credentials",),
            traps=(
                Edit("any scheme accepted",
                     'if scheme != "Bearer" or token not in TOKENS:',
                     "if token.strip() not in TOKENS:"),
                Edit("no WWW-Authenticate header",
                     'raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": '
                     '"Bearer"})',
                     'raise HTTPException(401, "unauthorized")'),
                Edit("error handler drops the exception's headers", _HTTP_HANDLER,
                     '    return JSONResponse({"error": exc.detail}, '
                     'status_code=exc.status_code)'),
            ),
            security=True,
        ),
        Requirement(
            "`GET /me` names the caller and their role.",
            probes=("me_and_roles",),
            traps=(Edit("everyone is a member", '{"name": user, "role": ROLES[user]}',
                        '{"name": user, "role": "member"}'),),
        ),
        Requirement(
            "`POST /notes` answers 201 with the whole note; the body defaults to empty.",
            probes=("create_returns_201",),
            traps=(Edit("200 on create", '@app.post("/notes", status_code=201)',
                        '@app.post("/notes")'),
                   Edit("body defaults to null", 'body: str = Field("", max_length',
                        'body: str | None = Field(None, max_length')),
        ),
        Requirement(
            "A client cannot choose or change a note's `owner` or `id`: other fields are ignored.",
            probes=("mass_assignment_is_ignored",),
            traps=(Edit("create model keeps extra fields", 'ConfigDict(extra="ignore")',
                        'ConfigDict(extra="allow")'),
                   Edit("patch model keeps extra fields",
                        '''class NotePatch(BaseModel):
    title''', '''class NotePatch(BaseModel):
    model_config = ConfigDict(extra="allow")
    title''')),
            security=True,
        ),
        Requirement(
            "Titles are 1 to ${title_max} characters, bodies at most ${body_max}, search "
            "queries 1 to 50, on creation and on update; anything invalid is 422 `invalid`.",
            probes=("input_bounds",),
            traps=(Edit("unbounded body", "body: str = Field(\"\", max_length=${body_max})",
                        "body: str = \"\""),
                   Edit("unbounded title on update",
                        "title: str | None = Field(None, min_length=1, max_length=${title_max})",
                        "title: str | None = None"),
                   Edit("default validation body",
                        '    return JSONResponse({"error": "invalid"}, status_code=422)',
                        '    return JSONResponse({"detail": exc.errors()}, status_code=422)'),
                   Edit("unbounded search query",
                        "q: Annotated[str, Query(min_length=1, max_length=50)]", "q: str")),
            security=True,
        ),
        Requirement(
            "`GET /notes` lists only the caller's notes, by id, `limit` 1 to ${limit_max} "
            "(default ${limit_default}) and `offset` >= 0 (a huge one gives an empty page), "
            "with `total` counting all of them.",
            probes=("lists_only_own_notes_paginated",),
            traps=(Edit("admin lists everyone's notes",
                        "WHERE owner = ? ORDER BY id LIMIT ? OFFSET ?\",\n        (user, limit",
                        "WHERE owner = ? OR ? = 'admin' ORDER BY id LIMIT ? OFFSET ?\",\n"
                        "        (user, ROLES[user], limit"),
                   Edit("total counts the page", '"total": total}', '"total": len(rows)}'),
                   Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"),
                   Edit("huge offset crashes SQLite", "(user, limit, min(offset, SQL_MAX)),",
                        "(user, limit, offset),")),
            security=True,
        ),
        Requirement(
            "A member cannot read another user's note (404 `not_found`, as for a missing one, "
            "however large its id); an admin can.",
            probes=("cannot_read_others_notes",),
            traps=(Edit("no owner check on read",
                        'if row is None or (row[1] != user and ROLES[user] != "admin"):',
                        "if row is None:"),
                   Edit("403 reveals the note exists",
                        '''    if row is None or (row[1] != user and ROLES[user] != "admin"):
        raise HTTPException(404, "not_found")''',
                        '''    if row is None:
        raise HTTPException(404, "not_found")
    if row[1] != user and ROLES[user] != "admin":
        raise HTTPException(403, "forbidden")'''),
                   Edit("huge ids crash SQLite", "    if abs(note_id) <= SQL_MAX:\n",
                        "    if True:\n")),
            security=True,
        ),
        Requirement(
            "Only the owner changes a note (others, admins included, get 404, as for a missing "
            "one however large its id); an update "
            "changes only the fields given and returns the whole note.",
            probes=("cannot_change_others_notes",),
            traps=(Edit("anyone who can read may change",
                        "note: Annotated[dict, Depends(own_note)]",
                        "note: Annotated[dict, Depends(visible_note)]"),
                   Edit("unset fields overwritten",
                        "changes.model_dump(exclude_unset=True, exclude_none=True)",
                        "{k: v if v is not None else '' for k, v in changes.model_dump().items()}"
                        )),
            security=True,
        ),
        Requirement(
            "A note is deleted by its owner or an admin (204, empty body); others get 404, as "
            "for a missing one however large its id.",
            probes=("delete_own_or_admin",),
            traps=(Edit("anyone deletes", 'def delete_note(note: Annotated[dict, '
                        'Depends(visible_note)]):',
                        'def delete_note(note_id: int, user: User):\n'
                        '    note = {"id": note_id}'),
                   Edit("delete answers 200 with a body",
                        '''@app.delete("/notes/{note_id}", status_code=204)
def delete_note(note: Annotated[dict, Depends(visible_note)]):
    db.execute("DELETE FROM notes WHERE id = ?", (note["id"],))
    return Response(status_code=204)''',
                        '''@app.delete("/notes/{note_id}")
def delete_note(note: Annotated[dict, Depends(visible_note)]):
    db.execute("DELETE FROM notes WHERE id = ?", (note["id"],))
    return {"deleted": note["id"]}''')),
            security=True,
        ),
        Requirement(
            "Search matches the caller's own titles containing `q` literally and "
            "case-sensitively: quotes, `%` and `_` stand for themselves.",
            probes=("search_is_literal_and_own",),
            traps=(Edit("query built by string formatting",
                        '''        "SELECT id, owner, title, body FROM notes WHERE owner = ? AND instr(title, ?) > 0 "
        "ORDER BY id",
        (user, q),''',
                        '''        f"SELECT id, owner, title, body FROM notes WHERE instr(title, '{q}') > 0 "
        f"AND owner = '{user}' ORDER BY id",''', file="solution.py"),
                   Edit("LIKE pattern", "AND instr(title, ?) > 0", "AND title LIKE '%' || ? || '%'"),
                   Edit("search across users", "WHERE owner = ? AND instr(title, ?) > 0 \"\n"
                        "        \"ORDER BY id\",\n        (user, q),",
                        "WHERE ? != '' AND instr(title, ?) > 0 \"\n"
                        "        \"ORDER BY id\",\n        (user, q),")),
            security=True,
        ),
        Requirement(
            "`GET /admin/stats` is for admins only: a member gets 403 `forbidden`.",
            probes=("admin_route_needs_admin",),
            traps=(Edit("no role check", '''    if ROLES[user] != "admin":
        raise HTTPException(403, "forbidden")
''', ""),),
            security=True,
        ),
    ),
)
