"""Service tier: a library-loans service specified like a product document (13 routes, login,
two roles, CRUD with validation, filtering and pagination, one error format with specific
conflict codes, Location and Allow headers, OpenAPI tags and security scheme)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW

REFERENCE = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

USERS = {
    "${lib}": {"password": "${lib_pw}", "role": "librarian"},
    "${m1}": {"password": "${m1_pw}", "role": "member"},
    "${m2}": {"password": "${m2_pw}", "role": "member"},
}
BOOKS = {
    1: {"title": "Dune", "author": "Frank Herbert", "year": 1965, "isbn": "9780441172719"},
    2: {"title": "Emma", "author": "Jane Austen", "year": 1815, "isbn": "9780141439587"},
    3: {"title": "Persuasion", "author": "Jane Austen", "year": 1817, "isbn": "9780141439686"},
    4: {"title": "Neuromancer", "author": "William Gibson", "year": 1984, "isbn": "9780441569595"},
    5: {"title": "Beloved", "author": "Toni Morrison", "year": 1987, "isbn": "9781400033416"},
    6: {"title": "Ulysses", "author": "James Joyce", "year": 1922, "isbn": "9780199535675"},
}
LOANS: dict[int, dict] = {}
TOKENS: dict[str, str] = {}
MAX_LOANS = ${max_loans}
STATUS_CODES = {401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed"}

app = FastAPI()
oauth2 = OAuth2PasswordBearer(tokenUrl="/auth/token", auto_error=False)


''' + late_body.ROUTE_CLASS + '''

class APIError(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def error(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": {"status": status, "code": code, **extra}},
                        status_code=status, headers=headers)


@app.exception_handler(APIError)
async def api_error(request: Request, exc: APIError):
    return error(exc.status, exc.code, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def http_error(request: Request, exc: StarletteHTTPException):
    return error(exc.status_code, STATUS_CODES.get(exc.status_code, "error"), exc.headers)


@app.exception_handler(RequestValidationError)
async def validation_error(request: Request, exc: RequestValidationError):
    fields = {e["loc"][1] if len(e["loc"]) > 1 else e["loc"][0] for e in exc.errors()}
    return error(422, "validation", fields=sorted(str(f) for f in fields))


class BookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=100)
    author: str = Field(min_length=1, max_length=60)
    year: int = Field(ge=1450, le=2100)
    isbn: str = Field(pattern=r"^[0-9]{13}$$")


def current_user(token: Annotated[str | None, Depends(oauth2)]) -> dict:
    if token is None or token not in TOKENS:
        raise APIError(401, "unauthorized", {"WWW-Authenticate": "Bearer"})
    name = TOKENS[token]
    return {"username": name, "role": USERS[name]["role"]}


def role(required: str):
    def check(user: Annotated[dict, Depends(current_user)]) -> dict:
        if user["role"] != required:
            raise APIError(403, "forbidden")
        return user
    return check


Librarian = Annotated[dict, Depends(role("librarian"))]
Member = Annotated[dict, Depends(role("member"))]
AnyUser = Annotated[dict, Depends(current_user)]


def active_loan_of(book_id: int):
    return next((l for l in LOANS.values() if l["book_id"] == book_id and not l["returned"]), None)


def book_out(book_id: int) -> dict:
    return {"id": book_id, **BOOKS[book_id], "available": active_loan_of(book_id) is None}


def find_book(book_id: int) -> int:
    if book_id not in BOOKS:
        raise APIError(404, "not_found")
    return book_id


def check_isbn(isbn: str, book_id: int | None = None) -> None:
    if any(b["isbn"] == isbn and i != book_id for i, b in BOOKS.items()):
        raise APIError(409, "isbn_taken")


@app.get("/health", include_in_schema=False)
def health():
    return {"status": "ok"}


@app.post("/auth/token", tags=["auth"])
def login(form: Annotated[OAuth2PasswordRequestForm, Depends()]):
    user = USERS.get(form.username)
    if user is None or user["password"] != form.password:
        raise APIError(401, "invalid_credentials", {"WWW-Authenticate": "Bearer"})
    token = f"token-{len(TOKENS) + 1}-{form.username}"
    TOKENS[token] = form.username
    return {"access_token": token, "token_type": "bearer"}


@app.get("/me", tags=["account"])
def me(user: AnyUser):
    active = sum(1 for l in LOANS.values() if l["user"] == user["username"] and not l["returned"])
    return {"username": user["username"], "role": user["role"], "active_loans": active}


@app.get("/books", tags=["books"])
def list_books(
    user: AnyUser,
    author: str | None = None,
    q: str | None = None,
    available: bool | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    size: Annotated[int, Query(ge=1, le=${size_max})] = ${size_default},
):
    books = [book_out(i) for i in BOOKS]
    if author is not None:
        books = [b for b in books if b["author"].lower() == author.lower()]
    if q is not None:
        books = [b for b in books if q.lower() in b["title"].lower()]
    if available is not None:
        books = [b for b in books if b["available"] == available]
    books.sort(key=lambda b: (b["title"], b["id"]))
    start = (page - 1) * size
    return {"items": books[start:start + size], "page": page, "size": size, "total": len(books)}


@app.post("/books", status_code=201, tags=["books"])
def create_book(book: BookIn, user: Librarian, response: Response):
    check_isbn(book.isbn)
    book_id = max(BOOKS) + 1
    BOOKS[book_id] = book.model_dump()
    response.headers["Location"] = f"/books/{book_id}"
    return book_out(book_id)


@app.get("/books/{book_id}", tags=["books"])
def read_book(book_id: int, user: AnyUser):
    return book_out(find_book(book_id))


@app.put("/books/{book_id}", tags=["books"])
def replace_book(book_id: int, book: BookIn, user: Librarian):
    find_book(book_id)
    check_isbn(book.isbn, book_id)
    BOOKS[book_id] = book.model_dump()
    return book_out(book_id)


@app.delete("/books/{book_id}", status_code=204, tags=["books"])
def delete_book(book_id: int, user: Librarian):
    find_book(book_id)
    if active_loan_of(book_id) is not None:
        raise APIError(409, "on_loan")
    del BOOKS[book_id]
    return Response(status_code=204)


@app.post("/books/{book_id}/loans", status_code=201, tags=["loans"])
def borrow(book_id: int, user: Member, response: Response):
    find_book(book_id)
    if active_loan_of(book_id) is not None:
        raise APIError(409, "on_loan")
    mine = [l for l in LOANS.values() if l["user"] == user["username"] and not l["returned"]]
    if len(mine) >= MAX_LOANS:
        raise APIError(409, "loan_limit")
    loan_id = len(LOANS) + 1
    LOANS[loan_id] = {"id": loan_id, "book_id": book_id, "user": user["username"],
                      "returned": False}
    response.headers["Location"] = f"/loans/{loan_id}"
    return LOANS[loan_id]


@app.get("/loans", tags=["loans"])
def list_loans(user: AnyUser, active: bool | None = None):
    loans = [l for l in LOANS.values()
             if user["role"] == "librarian" or l["user"] == user["username"]]
    if active is not None:
        loans = [l for l in loans if l["returned"] != active]
    return sorted(loans, key=lambda l: l["id"])


@app.post("/loans/{loan_id}/return", tags=["loans"])
def give_back(loan_id: int, user: AnyUser):
    loan = LOANS.get(loan_id)
    if loan is None or (user["role"] != "librarian" and loan["user"] != user["username"]):
        raise APIError(404, "not_found")
    if loan["returned"]:
        raise APIError(409, "already_returned")
    loan["returned"] = True
    return loan


@app.get("/admin/stats", tags=["admin"])
def stats(user: Librarian):
    counts: dict[str, int] = {}
    for loan in LOANS.values():
        if not loan["returned"]:
            counts[loan["user"]] = counts.get(loan["user"], 0) + 1
    return {"books": len(BOOKS), "on_loan": sum(counts.values()),
            "active_loans_by_user": dict(sorted(counts.items()))}


def login_as(client, name, password):
    r = client.post("/auth/token", data={"username": name, "password": password})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
member = login_as(client, "${m1}", "${m1_pw}")
result = [
    row(client.get("/books", params={"author": "jane austen"}, headers=member)),
    row(client.post("/books/1/loans", headers=member)),
    row(client.get("/me", headers=member)),
    row(client.get("/books/1")),
]
'''

PROBES = ROW + '''

def _login(client, name, password):
    r = client.post("/auth/token", data={"username": name, "password": password})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


def _lib(client):
    return _login(client, "${lib}", "${lib_pw}")


def _m1(client):
    return _login(client, "${m1}", "${m1_pw}")


def _m2(client):
    return _login(client, "${m2}", "${m2_pw}")


''' + late_body.probe_source(
    [("POST", "/books"), ("PUT", "/books/1")],
    [("no token", "{}"), ("member", "M1"), ("librarian", "LIB")],
    prepare="    LIB, M1 = _lib(client), _m1(client)\n") + '''


def _book(title, isbn, **over):
    return {"title": title, "author": "Test Author", "year": 2001, "isbn": isbn} | over


def probe_login_issues_bearer_tokens(client):
    rows = []
    for name, pw in [("${lib}", "${lib_pw}"), ("${m1}", "${m1_pw}"), ("${m2}", "${m2_pw}")]:
        r = client.post("/auth/token", data={"username": name, "password": pw})
        body = r.json()
        rows.append([r.status_code, sorted(body), body["token_type"],
                     type(body["access_token"]).__name__])
        me = client.get("/me", headers={"Authorization": f"Bearer {body['access_token']}"})
        rows.append([me.json()["username"], me.json()["role"]])
    return rows


def probe_bad_credentials(client):
    rows = []
    for data in [{"username": "${m1}", "password": "wrong"},
                 {"username": "nobody", "password": "${m1_pw}"},
                 {"username": "${m1}", "password": "${m2_pw}"},
                 {"username": "${m1}".upper(), "password": "${m1_pw}"}]:
        r = client.post("/auth/token", data=data)
        rows.append([r.status_code, r.json(), r.headers.get("www-authenticate")])
    r = client.post("/auth/token", data={"username": "${m1}"})
    rows.append([r.status_code, r.json()])
    return rows


def probe_protected_routes_need_a_token(client):
    rows = []
    routes = [("GET", "/me"), ("GET", "/books"), ("POST", "/books"), ("GET", "/books/1"),
              ("PUT", "/books/1"), ("DELETE", "/books/1"), ("POST", "/books/1/loans"),
              ("GET", "/loans"), ("POST", "/loans/1/return"), ("GET", "/admin/stats")]
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}]:
        for method, path in routes:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    rows.append(_row(client.get("/health")))
    return rows


def probe_roles(client):
    lib, m2 = _lib(client), _m2(client)
    bad = {"title": ""}
    return [
        _row(client.post("/books", json=_book("Role test", "1111111111111"), headers=m2)),
        _row(client.post("/books", json=bad, headers=m2)),
        _row(client.put("/books/2", json=_book("Role test", "1111111111111"), headers=m2)),
        _row(client.delete("/books/2", headers=m2)),
        _row(client.get("/admin/stats", headers=m2)),
        _row(client.post("/books/2/loans", headers=lib)),
        _row(client.get("/books/2", headers=m2)),
    ]


def probe_me_counts_active_loans(client):
    lib = _lib(client)
    return [_row(client.get("/me", headers=_m1(client))),
            _row(client.get("/me", headers=_m2(client))),
            _row(client.get("/me", headers=lib))]


def probe_books_sorted_and_paginated(client):
    m2 = _m2(client)
    rows = []
    for params in [{}, {"page": 2}, {"page": 1, "size": 2}, {"page": 3, "size": 2},
                   {"page": 99}, {"size": ${size_max}}]:
        body = client.get("/books", params=params, headers=m2).json()
        rows.append([params, [b["id"] for b in body["items"]], body["page"], body["size"],
                     body["total"]])
    rows.append([client.get("/books", params={"size": 1}, headers=m2).json()["items"]])
    return rows


def probe_books_filters(client):
    m2 = _m2(client)
    rows = []
    for params in [{"author": "JANE AUSTEN"}, {"author": "Austen"}, {"q": "UL"}, {"q": "e"},
                   {"available": "false"}, {"available": "true", "q": "e"},
                   {"author": "jane austen", "q": "emma"}, {"q": "zzz"}]:
        body = client.get("/books", params=params, headers=m2).json()
        rows.append([params, [b["title"] for b in body["items"]], body["total"]])
    return rows


def probe_query_validation(client):
    m2 = _m2(client)
    rows = []
    for params in [{"page": 0}, {"size": 0}, {"size": ${size_max} + 1}, {"page": "x"},
                   {"available": "maybe"}, {"page": 0, "size": 0}]:
        rows.append([params, _row(client.get("/books", params=params, headers=m2))])
    rows.append(_row(client.get("/books/abc", headers=m2)))
    rows.append(_row(client.get("/loans", params={"active": "perhaps"}, headers=m2)))
    return rows


def probe_create_book(client):
    lib = _lib(client)
    r = client.post("/books", json=_book("Created", "2222222222222"), headers=lib)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    r = client.post("/books", json=_book("Created too", "2222222222223", year=1450), headers=lib)
    rows.append([r.status_code, r.json()["id"], r.headers.get("location")])
    rows.append(_row(client.get(r.headers["location"], headers=lib)))
    return rows


def probe_book_validation(client):
    lib = _lib(client)
    rows = []
    for body in [_book("", "3333333333333"), _book("x" * 101, "3333333333333"),
                 _book("ok", "3333333333333", author="a" * 61),
                 _book("ok", "3333333333333", year=1449), _book("ok", "3333333333333", year=2101),
                 _book("ok", "333333333333"), _book("ok", "33333333333334"),
                 _book("ok", "333333333333x"), _book("ok", "3333333333333", extra=1),
                 {"title": "ok"}, _book("", "12", year=0), [], "not json"]:
        rows.append([body, _row(client.post("/books", json=body, headers=lib))])
    rows.append(_row(client.post("/books", json=_book("x" * 100, "3333333333333",
                                                       author="a" * 60, year=2100), headers=lib)))
    return rows


def probe_isbn_is_unique(client):
    lib = _lib(client)
    rows = [_row(client.post("/books", json=_book("Dup", "9780441172719"), headers=lib)),
            _row(client.put("/books/2", json=_book("Emma", "9780441172719"), headers=lib)),
            _row(client.put("/books/2", json=_book("Emma (new)", "9780141439587"), headers=lib)),
            [client.get("/books", params={"size": ${size_max}, "q": "dup"},
                        headers=lib).json()["total"]]]
    return rows


def probe_read_book(client):
    m1 = _m1(client)
    return [_row(client.get("/books/4", headers=m1)), _row(client.get("/books/999", headers=m1)),
            _row(client.get("/books/-1", headers=m1))]


def probe_replace_book(client):
    lib = _lib(client)
    return [
        _row(client.put("/books/5", json=_book("Beloved", "9781400033416", year=1988,
                                                author="T. Morrison"), headers=lib)),
        _row(client.put("/books/5", json={"title": "Only title"}, headers=lib)),
        _row(client.put("/books/999", json=_book("Ghost", "4444444444444"), headers=lib)),
        _row(client.get("/books/5", headers=lib)),
    ]


def probe_delete_book(client):
    lib, m2 = _lib(client), _m2(client)
    book = client.post("/books", json=_book("Short-lived", "5555555555555"), headers=lib).json()
    loaned = client.post("/books", json=_book("On loan", "5555555555556"), headers=lib).json()
    client.post(f"/books/{loaned['id']}/loans", headers=m2)
    return [_row(client.delete(f"/books/{book['id']}", headers=lib)),
            _row(client.get(f"/books/{book['id']}", headers=lib)),
            _row(client.delete(f"/books/{book['id']}", headers=lib)),
            _row(client.delete(f"/books/{loaned['id']}", headers=lib)),
            [client.get(f"/books/{loaned['id']}", headers=lib).json()["available"]]]


def probe_borrow(client):
    lib, m1 = _lib(client), _m1(client)
    r = client.post("/books/6/loans", headers=m1)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.post("/books/6/loans", headers=_m2(client))))
    rows.append(_row(client.post("/books/999/loans", headers=m1)))
    rows.append([client.get("/books/6", headers=m1).json()["available"]])
    rows.append([[b["id"] for b in client.get("/books", params={"available": "false",
                  "size": ${size_max}}, headers=lib).json()["items"]]])
    return rows


def probe_loan_limit(client):
    lib, m1 = _lib(client), _m1(client)
    ids = [client.post("/books", json=_book(f"Limit {i}", f"66666666666{i:02d}"),
                       headers=lib).json()["id"] for i in range(${max_loans} + 1)]
    rows = [[client.post(f"/books/{i}/loans", headers=m1).status_code] for i in ids[:-1]]
    rows.append(_row(client.post(f"/books/{ids[-1]}/loans", headers=m1)))
    rows.append([client.get("/me", headers=m1).json()["active_loans"]])
    return rows


def probe_list_loans(client):
    lib, m1, m2 = _lib(client), _m1(client), _m2(client)
    rows = []
    for headers in (m1, m2, lib):
        for params in [{}, {"active": "true"}, {"active": "false"}]:
            loans = client.get("/loans", params=params, headers=headers).json()
            rows.append([params, [[l["id"], l["user"], l["returned"]] for l in loans]])
    return rows


def probe_return_loan(client):
    lib, m1, m2 = _lib(client), _m1(client), _m2(client)
    mine = client.get("/loans", params={"active": "true"}, headers=m1).json()
    first, second = mine[0]["id"], mine[1]["id"]
    return [_row(client.post(f"/loans/{first}/return", headers=m2)),
            _row(client.post(f"/loans/{first}/return", headers=m1)),
            _row(client.post(f"/loans/{first}/return", headers=m1)),
            _row(client.post(f"/loans/{second}/return", headers=lib)),
            _row(client.post("/loans/999/return", headers=lib)),
            [client.get(f"/books/{mine[0]['book_id']}", headers=m1).json()["available"]],
            _row(client.get("/me", headers=m1))]


def probe_admin_stats(client):
    return [_row(client.get("/admin/stats", headers=_lib(client)))]


def probe_unknown_paths_and_methods(client):
    m1 = _m1(client)
    rows = []
    # Paths served by one route each: for a path with several routes, Starlette 1.10's
    # Allow header names only the first route's methods.
    for method, path in [("GET", "/nope"), ("DELETE", "/me"), ("POST", "/admin/stats"),
                         ("GET", "/auth/token"), ("GET", "/loans/1/return")]:
        r = client.request(method, path, headers=m1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_openapi(client):
    doc = client.get("/openapi.json").json()
    ops = sorted([path, method, op.get("tags")] for path, item in doc["paths"].items()
                 for method, op in item.items())
    schemes = [[s["type"], sorted(s.get("flows", {})),
                s.get("flows", {}).get("password", {}).get("tokenUrl")]
               for s in doc.get("components", {}).get("securitySchemes", {}).values()]
    return [ops, schemes]
'''


def _edit(name, old, new, count=1):
    return Edit(name, old, new, count)


FAMILY = Family(
    id="service/library_loans",
    title="A library-loans service from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt='''\
Build the HTTP service of a small lending library, as specified below. Keep all state in
memory, starting from the data given here.

## Users and login
| username | password | role |
|---|---|---|
| `${lib}` | `${lib_pw}` | librarian |
| `${m1}` | `${m1_pw}` | member |
| `${m2}` | `${m2_pw}` | member |

`POST /auth/token` takes an OAuth2 password form (URL-encoded `username`, `password`;
usernames are case-sensitive) and answers 200 `{"access_token": <string>, "token_type":
"bearer"}`; a fresh token per login, every token stays valid. Wrong username or password:
401 `invalid_credentials`. Every other route except `GET /health` needs `Authorization: Bearer
<token>` with a token issued by this service; without one (missing, another scheme, unknown
token) the answer is 401 `unauthorized`. Every 401 carries `WWW-Authenticate: Bearer`.
`GET /health` answers 200 `{"status": "ok"}` without authentication.

Routes marked *librarian* or *member* answer 403 `forbidden` to a logged-in user of the other
role. Authentication and role are checked before anything else about the request (its body
included, even a body that is not JSON).

## Errors
Every error has the body `{"error": {"status": <status code>, "code": <code>}}`. Validation
failures (body, path or query) are 422 with code `validation` and one more key, `"fields"`:
the sorted list, without repeats, of the names of the invalid fields or parameters (a body
that is missing, not JSON or not a JSON object counts as `"body"`). Unknown paths are 404 `not_found`;
a known path with an unsupported method is 405 `method_not_allowed` and keeps the `Allow`
header listing the supported methods. Conflicts are 409 with the codes named below.

## Books
A book is shown as `{"id", "title", "author", "year", "isbn", "available"}`; `available` is
false while the book is on an active loan. The library starts with:

| id | title | author | year | isbn |
|---|---|---|---|---|
| 1 | Dune | Frank Herbert | 1965 | 9780441172719 |
| 2 | Emma | Jane Austen | 1815 | 9780141439587 |
| 3 | Persuasion | Jane Austen | 1817 | 9780141439686 |
| 4 | Neuromancer | William Gibson | 1984 | 9780441569595 |
| 5 | Beloved | Toni Morrison | 1987 | 9781400033416 |
| 6 | Ulysses | James Joyce | 1922 | 9780199535675 |

A book body is a JSON object with exactly these fields, all required (any other field is a
validation failure): `title` (1-100 characters), `author` (1-60 characters), `year` (integer
1450-2100), `isbn` (exactly 13 digits). An isbn already used by another book is 409
`isbn_taken`.

- `GET /books`: 200 `{"items": [...], "page", "size", "total"}`: the books sorted by title,
  then id, filtered by the optional query parameters `author` (equal ignoring case), `q`
  (contained in the title, ignoring case) and `available` (a boolean); `total` counts all the
  matching books, `items` is page `page` (>= 1, default 1) of `size` (1-${size_max}, default
  ${size_default}) of them (an empty list past the end).
- `POST /books` *librarian*: 201 with the new book, header `Location: /books/<id>`; new ids
  are one more than the largest id in use.
- `GET /books/{book_id}`: 200 with the book; 404 `not_found` if none.
- `PUT /books/{book_id}` *librarian*: replaces the book with the body (same rules); 200 with
  it; 404 if none (before the isbn check).
- `DELETE /books/{book_id}` *librarian*: 204 with an empty body; 404 if none; 409 `on_loan`
  if it is on an active loan.

## Loans
A loan is `{"id", "book_id", "user", "returned"}`; ids are 1, 2, 3, ... in creation order.
- `POST /books/{book_id}/loans` *member*: borrows the book: 201 with the loan, header
  `Location: /loans/<id>`; 404 if the book does not exist; 409 `on_loan` if it is on an active
  loan; 409 `loan_limit` if the member already has ${max_loans} active loans (checked in this
  order).
- `GET /loans`: 200, the loans by id: a member's own, all of them for a librarian; the
  optional boolean `active` keeps only active (not returned) or only returned ones.
- `POST /loans/{loan_id}/return`: by the borrower or a librarian: 200 with the loan, now
  returned; 409 `already_returned` if it was; 404 if there is no such loan or it is another
  member's.
- `GET /me`: 200 `{"username", "role", "active_loans": <that user's active loans>}`.
- `GET /admin/stats` *librarian*: 200 `{"books": <number of books>, "on_loan": <active loans>,
  "active_loans_by_user": {<user>: <count>} for users with at least one, keys sorted}`.

## OpenAPI
`/openapi.json` lists every route but `/health`, each operation tagged with exactly one tag:
`auth` (login), `account` (`/me`), `books` (the `/books` and `/books/{book_id}` routes),
`loans` (the loan routes), `admin` (`/admin/stats`). Its only security scheme is OAuth2's
password flow with the token URL `/auth/token`.

## result
Log in as `${m1}`, then one row per request, sent as `${m1}` unless said otherwise, each row
`[status code, JSON body]`:
1. `GET /books?author=jane austen`
2. `POST /books/1/loans`
3. `GET /me`
4. `GET /books/1` without a token
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"lib": "libby", "lib_pw": "shelf-42", "m1": "ada", "m1_pw": "engine-1",
              "m2": "bob", "m2_pw": "builder-2", "max_loans": 3, "size_default": 5,
              "size_max": 20},
    space={
        "lib": [{"lib": "libby", "lib_pw": "shelf-42", "m1": "ada", "m1_pw": "engine-1",
                 "m2": "bob", "m2_pw": "builder-2"},
                {"lib": "marian", "lib_pw": "dewey-9", "m1": "kim", "m1_pw": "pw-kim-7",
                 "m2": "lee", "m2_pw": "pw-lee-8"},
                {"lib": "hypatia", "lib_pw": "scroll", "m1": "cy", "m1_pw": "cy-pass",
                 "m2": "dot", "m2_pw": "dot-pass"}],
        "max_loans": [3, 2, 4],
        "size_default": [{"size_default": 5, "size_max": 20}, {"size_default": 4, "size_max": 10},
                         {"size_default": 3, "size_max": 50}],
    },
    instances=8,
    requirements=(
        Requirement("Login issues a bearer token that identifies the user.",
                    probes=("login_issues_bearer_tokens",),
                    traps=(_edit("token type capitalised", '"token_type": "bearer"}',
                                 '"token_type": "Bearer"}'),)),
        Requirement("Wrong credentials are 401 `invalid_credentials` with `WWW-Authenticate`; "
                    "usernames are case-sensitive; a missing form field is a validation error.",
                    probes=("bad_credentials",),
                    traps=(_edit("case-insensitive usernames", "user = USERS.get(form.username)",
                                 "user = USERS.get(form.username.lower())"),
                           _edit("login failure without challenge",
                                 'raise APIError(401, "invalid_credentials", '
                                 '{"WWW-Authenticate": "Bearer"})',
                                 'raise APIError(401, "invalid_credentials")'))),
        Requirement("Every route but `/health` needs a valid bearer token: else 401 "
                    "`unauthorized` with `WWW-Authenticate: Bearer`.",
                    probes=("protected_routes_need_a_token",),
                    traps=(_edit("challenge header dropped", "return error(exc.status, exc.code, "
                                 "exc.headers)", "return error(exc.status, exc.code)"),
                           _edit("health needs a token", "def health():",
                                 "def health(user: AnyUser):"))),
        Requirement("The token and the role are checked before the body, even a body that is "
                    "not JSON (then 422 `validation` naming `body`).",
                    probes=("credentials_before_json",), traps=(late_body.body_decoded_first(),)),
        Requirement("Librarian-only and member-only routes answer 403 `forbidden` to the other "
                    "role, before the body is validated.",
                    probes=("roles",),
                    traps=(_edit("librarians may borrow", "def borrow(book_id: int, user: Member,",
                                 "def borrow(book_id: int, user: AnyUser,"),
                           _edit("body validated before the role",
                                 "def create_book(book: BookIn, user: Librarian, "
                                 "response: Response):\n    check_isbn",
                                 "def create_book(book: BookIn, user: AnyUser, "
                                 "response: Response):\n    if user[\"role\"] != \"librarian\":\n"
                                 "        raise APIError(403, \"forbidden\")\n    check_isbn"))),
        Requirement("`GET /me` names the user, the role and the number of active loans.",
                    probes=("me_counts_active_loans", "return_loan"),
                    traps=(_edit("me counts returned loans too",
                                 'if l["user"] == user["username"] and not l["returned"])\n'
                                 '    return {"username"',
                                 'if l["user"] == user["username"])\n    return {"username"'),)),
        Requirement("Books are sorted by title then id and paginated (`page` >= 1, default 1; "
                    "`size` 1-${size_max}, default ${size_default}), `total` counting all "
                    "matches.",
                    probes=("books_sorted_and_paginated",),
                    traps=(_edit("sorted by id", 'books.sort(key=lambda b: (b["title"], b["id"]))',
                                 'books.sort(key=lambda b: b["id"])'),
                           _edit("total of the page", '"total": len(books)}',
                                 '"total": len(books[start:start + size])}'),
                           _edit("pages from zero", "start = (page - 1) * size",
                                 "start = page * size"))),
        Requirement("`author` matches ignoring case, `q` is a case-insensitive title substring, "
                    "`available` filters by availability; filters combine.",
                    probes=("books_filters",),
                    traps=(_edit("author case-sensitive",
                                 'b["author"].lower() == author.lower()', 'b["author"] == author'),
                           _edit("q case-sensitive", 'q.lower() in b["title"].lower()',
                                 'q in b["title"]'))),
        Requirement("Invalid query or path parameters are 422 `validation` naming the "
                    "parameters.",
                    probes=("query_validation",),
                    traps=(_edit("size unbounded", "Query(ge=1, le=${size_max})", "Query(ge=1)"),
                           _edit("fields list with the location",
                                 'fields = {e["loc"][1] if len(e["loc"]) > 1 else e["loc"][0] '
                                 'for e in exc.errors()}',
                                 'fields = {".".join(map(str, e["loc"])) for e in exc.errors()}'))),
        Requirement("`POST /books` answers 201 with the book and `Location: /books/<id>`, the "
                    "id one more than the largest in use.",
                    probes=("create_book",),
                    traps=(_edit("no Location header",
                                 '    response.headers["Location"] = f"/books/{book_id}"\n', ""),
                           _edit("create answers 200", '@app.post("/books", status_code=201, '
                                 'tags=["books"])', '@app.post("/books", tags=["books"])'))),
        Requirement("Book bodies are validated field by field (lengths, year range, 13-digit "
                    "isbn, no other fields), each failure naming its fields.",
                    probes=("book_validation",),
                    traps=(_edit("extra fields ignored", 'model_config = ConfigDict(extra="forbid")',
                                 'model_config = ConfigDict(extra="ignore")'),
                           _edit("isbn not anchored", 'pattern=r"^[0-9]{13}$$"',
                                 'pattern=r"[0-9]{13}"'),
                           _edit("year bounds exclusive", "year: int = Field(ge=1450, le=2100)",
                                 "year: int = Field(gt=1450, lt=2100)"),
                           _edit("author unbounded",
                                 "author: str = Field(min_length=1, max_length=60)",
                                 "author: str = Field(min_length=1)"))),
        Requirement("An isbn used by another book is 409 `isbn_taken`; a book keeps its own.",
                    probes=("isbn_is_unique",),
                    traps=(_edit("own isbn counts as taken", "check_isbn(book.isbn, book_id)",
                                 "check_isbn(book.isbn)"),
                           _edit("no uniqueness on create", "    check_isbn(book.isbn)\n"
                                 "    book_id = max(BOOKS) + 1", "    book_id = max(BOOKS) + 1"))),
        Requirement("`GET /books/{book_id}` shows a book with its availability; unknown is 404.",
                    probes=("read_book",),
                    traps=(_edit("available flag inverted",
                                 '"available": active_loan_of(book_id) is None}',
                                 '"available": active_loan_of(book_id) is not None}'),)),
        Requirement("`PUT` replaces a whole book (all fields required) or answers 404.",
                    probes=("replace_book",),
                    traps=(_edit("replace creates missing books", "def replace_book(book_id: int, "
                                 "book: BookIn, user: Librarian):\n    find_book(book_id)\n",
                                 "def replace_book(book_id: int, book: BookIn, user: Librarian):\n"
                                 ),)),
        Requirement("`DELETE` removes a book (204, empty body); 404 if none; 409 `on_loan` "
                    "while it is lent.",
                    probes=("delete_book",),
                    traps=(_edit("books on loan deletable", '''    if active_loan_of(book_id) is not None:
        raise APIError(409, "on_loan")
    del BOOKS[book_id]''', "    del BOOKS[book_id]"),)),
        Requirement("Borrowing answers 201 with the loan and its `Location`; a lent book is "
                    "409 `on_loan`; an unknown one 404.",
                    probes=("borrow",),
                    traps=(_edit("loan without Location",
                                 '    response.headers["Location"] = f"/loans/{loan_id}"\n', ""),
                           _edit("lent books lendable again", '''    find_book(book_id)
    if active_loan_of(book_id) is not None:
        raise APIError(409, "on_loan")
    mine''', '''    find_book(book_id)
    mine'''))),
        Requirement("A member has at most ${max_loans} active loans: the next is 409 "
                    "`loan_limit`.",
                    probes=("loan_limit",),
                    traps=(_edit("limit off by one", "if len(mine) >= MAX_LOANS:",
                                 "if len(mine) > MAX_LOANS:"),)),
        Requirement("`GET /loans` shows a member's own loans, a librarian all, filtered by "
                    "`active`.",
                    probes=("list_loans",),
                    traps=(_edit("members see every loan",
                                 'if user["role"] == "librarian" or l["user"] == user["username"]]',
                                 "if True]"),
                           _edit("active filter inverted", 'l["returned"] != active',
                                 'l["returned"] == active'))),
        Requirement("Returning: the borrower or a librarian; another member's loan is 404; "
                    "twice is 409 `already_returned`; the book is available again.",
                    probes=("return_loan",),
                    traps=(_edit("anyone returns",
                                 'if loan is None or (user["role"] != "librarian" and '
                                 'loan["user"] != user["username"]):', "if loan is None:"),
                           _edit("returning twice allowed", '''    if loan["returned"]:
        raise APIError(409, "already_returned")
''', ""))),
        Requirement("`GET /admin/stats` counts books, active loans, and active loans per user.",
                    probes=("admin_stats",),
                    traps=(_edit("stats count returned loans", '''        if not loan["returned"]:
            counts''', '''        if True:
            counts'''),)),
        Requirement("Unknown paths are 404 `not_found`; unsupported methods 405 "
                    "`method_not_allowed` with `Allow`.",
                    probes=("unknown_paths_and_methods",),
                    traps=(_edit("only FastAPI's exceptions handled",
                                 "@app.exception_handler(StarletteHTTPException)",
                                 "@app.exception_handler(__import__('fastapi').HTTPException)"),
                           _edit("Allow header dropped",
                                 'STATUS_CODES.get(exc.status_code, "error"), exc.headers)',
                                 'STATUS_CODES.get(exc.status_code, "error"))'))),
        Requirement("OpenAPI: every route but `/health`, one tag each as listed, and the OAuth2 "
                    "password scheme with token URL `/auth/token`.",
                    probes=("openapi",),
                    traps=(_edit("health in the schema", '@app.get("/health", '
                                 'include_in_schema=False)', '@app.get("/health")'),
                           _edit("token URL without slash", 'tokenUrl="/auth/token"',
                                 'tokenUrl="auth/token"'),
                           _edit("loans untagged", '@app.get("/loans", tags=["loans"])',
                                 '@app.get("/loans")'))),
    ),
)
