"""Security tier: per-user documents stored as files on disk, behind HTTP Basic auth, with
sharing; hidden probes try path traversal (dot segments, encoded slashes, absolute paths),
reading unshared documents, wrong passwords and oversized uploads."""

from fastapi_env.tasks import Edit, Family, Requirement

REFERENCE = '''\
import re
import shutil
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException as StarletteHTTPException

USERS = {"${u1}": "${p1}", "${u2}": "${p2}", "${u3}": "${p3}"}
MAX_BYTES = ${max_bytes}
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}\\.(txt|md)")
ROOT = Path("vault")
shutil.rmtree(ROOT, ignore_errors=True)
for user in USERS:
    (ROOT / user).mkdir(parents=True)
SHARES: set[tuple[str, str, str]] = set()  # (owner, name, reader)

app = FastAPI(docs_url=None)  # GET /docs is the document list, not Swagger UI
basic = HTTPBasic(auto_error=False)


class Failure(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


@app.exception_handler(Failure)
async def failure(request: Request, exc: Failure):
    return JSONResponse({"error": exc.code}, status_code=exc.status, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def not_found(request: Request, exc: StarletteHTTPException):
    return JSONResponse({"error": "not_found" if exc.status_code == 404 else "error"},
                        status_code=exc.status_code, headers=exc.headers)


def caller(credentials: Annotated[HTTPBasicCredentials | None, Depends(basic)]) -> str:
    if credentials is None or USERS.get(credentials.username) != credentials.password:
        raise Failure(401, "unauthorized", {"WWW-Authenticate": "Basic"})
    return credentials.username


User = Annotated[str, Depends(caller)]


def checked(name: str) -> str:
    if not NAME.fullmatch(name):
        raise Failure(400, "bad_name")
    return name


def document(owner: str, name: str) -> Path:
    path = ROOT / owner / checked(name)
    if not path.is_file():
        raise Failure(404, "not_found")
    return path


@app.get("/me")
def me(user: User):
    return {"user": user}


@app.put("/docs/{name}")
async def put_doc(name: str, request: Request, user: User, response: Response):
    path = ROOT / user / checked(name)
    data = await request.body()
    if len(data) > MAX_BYTES:
        raise Failure(413, "too_large")
    response.status_code = 200 if path.exists() else 201
    path.write_bytes(data)
    return {"name": name, "bytes": len(data)}


@app.get("/docs")
def list_docs(user: User):
    return sorted(p.name for p in (ROOT / user).iterdir())


@app.get("/docs/{name}")
def get_doc(name: str, user: User):
    return PlainTextResponse(document(user, name).read_text())


@app.delete("/docs/{name}", status_code=204)
def delete_doc(name: str, user: User):
    document(user, name).unlink()
    global SHARES
    SHARES = {s for s in SHARES if (s[0], s[1]) != (user, name)}
    return Response(status_code=204)


@app.post("/docs/{name}/share/{reader}", status_code=204)
def share(name: str, reader: str, user: User):
    document(user, name)
    if reader not in USERS or reader == user:
        raise Failure(400, "bad_reader")
    SHARES.add((user, name, reader))
    return Response(status_code=204)


@app.get("/shared/{owner}/{name}")
def read_shared(owner: str, name: str, user: User):
    if owner not in USERS or (owner, checked(name), user) not in SHARES:
        raise Failure(404, "not_found")
    return PlainTextResponse(document(owner, name).read_text())


client = TestClient(app)
auth = ("${u1}", "${p1}")
result = [
    [client.put("/docs/todo.txt", content=b"${text1}", auth=auth).status_code],
    [client.get("/docs/todo.txt", auth=auth).text],
    [client.get("/docs", auth=auth).json()],
    [client.get("/docs/todo.txt").status_code],
]
'''

PROBES = '''\
U1, U2, U3 = ("${u1}", "${p1}"), ("${u2}", "${p2}"), ("${u3}", "${p3}")
SECRET = "${u2} secret ${text1}"


def _row(r):
    if not r.content:
        return [r.status_code]
    ctype = r.headers.get("content-type", "")
    return [r.status_code, ctype, r.json() if ctype == "application/json" else r.text]


def probe_basic_auth_required(client):
    rows = []
    for auth in [None, ("${u1}", "wrong"), ("${u1}", "${p2}"), ("nobody", "${p1}"),
                 ("${u1}".upper(), "${p1}"), ("${u1}", "")]:
        for method, path in [("GET", "/me"), ("GET", "/docs"), ("PUT", "/docs/a.txt"),
                             ("GET", "/docs/a.txt"), ("DELETE", "/docs/a.txt"),
                             ("GET", "/shared/${u2}/a.txt")]:
            r = client.request(method, path, auth=auth)
            rows.append([str(auth), method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    rows.append([client.get("/docs", headers={"Authorization": "Bearer x"}).status_code])
    rows.append(_row(client.get("/me", auth=U2)))
    return rows


def probe_put_creates_then_replaces(client):
    return [_row(client.put("/docs/plan.md", content=b"v1", auth=U3)),
            _row(client.put("/docs/plan.md", content=b"version 2", auth=U3)),
            _row(client.get("/docs/plan.md", auth=U3)),
            _row(client.put("/docs/empty.txt", content=b"", auth=U3)),
            _row(client.get("/docs/empty.txt", auth=U3))]


def probe_get_missing_is_404(client):
    return [_row(client.get("/docs/missing.txt", auth=U3)),
            _row(client.delete("/docs/missing.txt", auth=U3))]


def probe_names_follow_the_rule(client):
    rows = []
    for name in ["a.txt", "A-b_9.md", "x" * 32 + ".txt", "x" * 33 + ".txt", "a.pdf", ".txt",
                 "a.txt.bak", "a b.txt", "a..txt", "é.txt", "a.TXT", "a.txt%00.md"]:
        rows.append([name, client.put(f"/docs/{name}", content=b"n", auth=U3).status_code])
    return rows


def probe_no_path_traversal(client):
    client.put("/docs/secret.txt", content=SECRET.encode(), auth=U2)
    rows = []
    for path in ["/docs/..%2F${u2}%2Fsecret.txt", "/docs/%2e%2e%2f${u2}%2fsecret.txt",
                 "/docs/..%5C${u2}%5Csecret.txt", "/docs/%2Fetc%2Fpasswd",
                 "/docs/....%2F%2F${u2}%2Fsecret.txt", "/docs/..", "/docs/%2e%2e",
                 "/shared/..%2F${u2}/secret.txt", "/shared/${u1}/..%2F..%2F${u2}%2Fsecret.txt",
                 "/shared/${u1}%2F..%2F${u2}/secret.txt", "/shared/../${u2}/secret.txt",
                 "/docs/..%2F..%2Fsolution.py"]:
        r = client.get(path, auth=U1)
        rows.append([path, r.status_code in (400, 404), SECRET in r.text, "import" in r.text])
        w = client.put(path, content=b"overwritten", auth=U1)
        rows.append([path, "put", w.status_code in (400, 404, 405)])
    rows.append([client.get("/docs/secret.txt", auth=U2).text])
    return rows


def probe_size_limit(client):
    rows = []
    for size in [${max_bytes} - 1, ${max_bytes}, ${max_bytes} + 1, ${max_bytes} * 10]:
        r = client.put("/docs/big.txt", content=b"z" * size, auth=U3)
        rows.append([size, _row(r)])
    rows.append([len(client.get("/docs/big.txt", auth=U3).text)])
    return rows


def probe_lists_only_own_documents(client):
    client.put("/docs/only-${u1}.txt", content=b"1", auth=U1)
    return [[client.get("/docs", auth=a).json()] for a in (U1, U2, U3)]


def probe_sharing(client):
    client.put("/docs/shared.md", content=b"for ${u1}", auth=U2)
    client.put("/docs/private.md", content=b"keep", auth=U2)
    rows = [_row(client.get("/shared/${u2}/shared.md", auth=U1))]
    rows.append(_row(client.post("/docs/shared.md/share/${u1}", auth=U2)))
    rows.append(_row(client.get("/shared/${u2}/shared.md", auth=U1)))
    rows.append(_row(client.get("/shared/${u2}/shared.md", auth=U3)))
    rows.append(_row(client.get("/shared/${u2}/private.md", auth=U1)))
    rows.append(_row(client.post("/docs/private.md/share/nobody", auth=U2)))
    rows.append(_row(client.post("/docs/private.md/share/${u2}", auth=U2)))
    rows.append(_row(client.post("/docs/none.md/share/${u1}", auth=U2)))
    rows.append(_row(client.post("/docs/private.md/share/${u3}", auth=U1)))
    rows.append(_row(client.get("/shared/nobody/shared.md", auth=U1)))
    return rows


def probe_delete_removes_document_and_shares(client):
    client.put("/docs/gone.md", content=b"bye", auth=U2)
    client.post("/docs/gone.md/share/${u3}", auth=U2)
    rows = [_row(client.get("/shared/${u2}/gone.md", auth=U3)),
            _row(client.delete("/docs/gone.md", auth=U3)),
            _row(client.delete("/docs/gone.md", auth=U2)),
            _row(client.get("/docs/gone.md", auth=U2))]
    client.put("/docs/gone.md", content=b"again", auth=U2)
    rows.append(_row(client.get("/shared/${u2}/gone.md", auth=U3)))
    return rows
'''

FAMILY = Family(
    id="security/document_vault",
    title="A document vault on disk that withstands path traversal and unshared reads",
    category="security",
    difficulty="hard",
    tier="security",
    prompt='''\
Build a document vault. Each user's documents are stored as files in the directory
`vault/<user>/` under the working directory; at startup (when the module is imported) the
service deletes any existing `vault/` and starts empty. Users, with HTTP Basic credentials:

| user | password |
|---|---|
| `${u1}` | `${p1}` |
| `${u2}` | `${p2}` |
| `${u3}` | `${p3}` |

**Authentication.** Every route needs HTTP Basic credentials of a user in the table (user
names and passwords are case-sensitive); otherwise 401 with `WWW-Authenticate: Basic`.

**Errors** are JSON `{"error": <code>}`: 401 `unauthorized`, 400 `bad_name`, 400 `bad_reader`,
404 `not_found` (also for any path that matches no route), 413 `too_large`.

**Document names** are 1 to 32 characters from `A-Z a-z 0-9 _ -`, then `.txt` or `.md`
(lower case). A route given any other name answers 400 `bad_name`. No request may read,
write or reveal a file outside the caller's own documents and the documents shared with them.

**Routes.**
- `GET /me`: 200 `{"user": <name>}`.
- `PUT /docs/{name}`: the raw request body (at most ${max_bytes} bytes, else 413 `too_large`
  and nothing is stored) becomes the caller's document; 201 when it is new, 200 when it
  replaced one; body `{"name": <name>, "bytes": <size>}`.
- `GET /docs`: 200, the names of the caller's documents, sorted.
- `GET /docs/{name}`: 200 with the caller's document exactly as stored, as
  `text/plain; charset=utf-8`; 404 if there is none.
- `DELETE /docs/{name}`: 204 with an empty body; 404 if none. Deleting a document also ends
  its shares (a new document under the same name is not shared).
- `POST /docs/{name}/share/{reader}`: lets `reader` read the caller's document: 204 with an
  empty body; 404 if the caller has no such document, 400 `bad_reader` if `reader` is not a
  user or is the caller (checked in this order, after the name).
- `GET /shared/{owner}/{name}`: 200 with `owner`'s document as text, if `owner` shared it with
  the caller; otherwise (no such owner, document or share) 404.

`result`, as `${u1}` unless said otherwise:
1. `[status]` of `PUT /docs/todo.txt` with the body `${text1}`
2. `[text]` of `GET /docs/todo.txt`
3. `[JSON body]` of `GET /docs`
4. `[status]` of `GET /docs/todo.txt` without credentials
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "ann", "p1": "ann-pw-1", "u2": "ben", "p2": "Ben-PW-2", "u3": "cat",
              "p3": "c4t!", "max_bytes": 2048, "text1": "buy milk"},
    space={
        "u1": [{"u1": "ann", "p1": "ann-pw-1", "u2": "ben", "p2": "Ben-PW-2", "u3": "cat",
                "p3": "c4t!"},
               {"u1": "dora", "p1": "d0ra", "u2": "eli", "p2": "ELI-pass", "u3": "fay",
                "p3": "fay:colon"}],
        "max_bytes": [2048, 1000, 4096],
        "text1": ["buy milk", "call mum", "fix bike"],
    },
    instances=8,
    requirements=(
        Requirement("Every route needs valid HTTP Basic credentials (case-sensitive); else 401 "
                    "`unauthorized` with `WWW-Authenticate: Basic`.",
                    probes=("basic_auth_required",),
                    traps=(Edit("password not checked",
                                "if credentials is None or USERS.get(credentials.username) != "
                                "credentials.password:",
                                "if credentials is None or credentials.username not in USERS:"),
                           Edit("no challenge header",
                                'raise Failure(401, "unauthorized", {"WWW-Authenticate": '
                                '"Basic"})', 'raise Failure(401, "unauthorized")'),
                           Edit("usernames ignore case",
                                "USERS.get(credentials.username) != credentials.password",
                                "USERS.get(credentials.username.lower()) != "
                                "credentials.password")),
                    security=True),
        Requirement("`PUT` stores the raw body: 201 when new, 200 when replacing; `GET` returns "
                    "it exactly as text/plain.",
                    probes=("put_creates_then_replaces",),
                    traps=(Edit("always 201", "response.status_code = 200 if path.exists() "
                                "else 201", "response.status_code = 201"),
                           Edit("document as JSON", "return PlainTextResponse(document(user, "
                                "name).read_text())", "return document(user, name).read_text()"))),
        Requirement("A missing document is 404 `not_found` for `GET` and `DELETE`.",
                    probes=("get_missing_is_404",),
                    traps=(Edit("missing delete is 204", "    document(user, name).unlink()",
                                "    (ROOT / user / checked(name)).unlink(missing_ok=True)"),)),
        Requirement("Names are 1-32 of `A-Za-z0-9_-` then `.txt` or `.md`; others are 400 "
                    "`bad_name`.",
                    probes=("names_follow_the_rule",),
                    traps=(Edit("dots allowed in names", r'NAME = re.compile(r"[A-Za-z0-9_-]{1,32}'
                                r'\.(txt|md)")', r'NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}'
                                r'\.(txt|md)")'),
                           Edit("name matched as a prefix", "if not NAME.fullmatch(name):",
                                "if not NAME.match(name):")),
                    security=True),
        Requirement("No request reads, writes or reveals a file outside the caller's documents "
                    "and those shared with them.",
                    probes=("no_path_traversal",),
                    traps=(Edit("any path under the document route",
                                '@app.get("/docs/{name}")\ndef get_doc(name: str, user: User):\n'
                                '    return PlainTextResponse(document(user, name).read_text())',
                                '@app.get("/docs/{name:path}")\ndef get_doc(name: str, user: '
                                'User):\n    return PlainTextResponse((ROOT / user / name)'
                                '.read_text())'),),
                    security=True),
        Requirement("Uploads over ${max_bytes} bytes are 413 `too_large` and store nothing.",
                    probes=("size_limit",),
                    traps=(Edit("no size limit", '''    if len(data) > MAX_BYTES:
        raise Failure(413, "too_large")
''', ""),
                           Edit("limit off by one", "if len(data) > MAX_BYTES:",
                                "if len(data) >= MAX_BYTES:")),
                    security=True),
        Requirement("`GET /docs` lists only the caller's documents, sorted.",
                    probes=("lists_only_own_documents",),
                    traps=(Edit("lists every user's documents",
                                "sorted(p.name for p in (ROOT / user).iterdir())",
                                "sorted(p.name for p in ROOT.glob('*/*'))"),
                           Edit("Swagger UI left at /docs", "app = FastAPI(docs_url=None)",
                                "app = FastAPI()")),
                    security=True),
        Requirement("A shared document is readable by its reader only; sharing checks the "
                    "document, then the reader (a user other than the caller).",
                    probes=("sharing",),
                    traps=(Edit("shares ignored on read",
                                "if owner not in USERS or (owner, checked(name), user) not in "
                                "SHARES:", "if owner not in USERS:"),
                           Edit("sharing with oneself",
                                "if reader not in USERS or reader == user:",
                                "if reader not in USERS:")),
                    security=True),
        Requirement("Deleting a document ends its shares.",
                    probes=("delete_removes_document_and_shares",),
                    traps=(Edit("shares outlive the document", '''    global SHARES
    SHARES = {s for s in SHARES if (s[0], s[1]) != (user, name)}
''', ""),),
                    security=True),
    ),
)
