"""Repair tier: a blog with comments and moderation, a package of four modules in /workspace
with eight planted bugs (a moderation reason declared without Body() so it is read from the
query string, a validation-error handler registered for pydantic's ValidationError instead of
FastAPI's RequestValidationError, response_model_exclude_defaults dropping keys on one route, a
`page-size` query parameter that lost its alias, a cookie name assumed to be underscore-converted
like a header, a comment model that no longer strips whitespace, public comments filtered by
"not rejected" so pending ones show, a computed word count that is a plain property). Each bug
is one requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""A small blog: posts, comments held for moderation, a moderators' queue."""
'''

MODELS = '''\
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

Status = Literal["draft", "published"]


class PostIn(BaseModel):
    title: str = Field(min_length=1, max_length=${title_max})
    body: str
    tags: list[str] = []
    status: Status = "${default_status}"


class PostOut(PostIn):
    id: int
    author: str

    @computed_field
    @property
    def word_count(self) -> int:
        return len(self.body.split())


class CommentIn(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)
    author: str = Field(min_length=1, max_length=20)
    text: str = Field(min_length=1, max_length=${text_max})


class CommentOut(BaseModel):
    id: int
    post_id: int
    author: str
    text: str
    status: Literal["pending", "approved", "rejected"]
    reason: str | None
'''

STORE = '''\
POSTS: dict[int, dict] = {}
COMMENTS: dict[int, dict] = {}
MODERATOR_SESSION = "${mod_secret}"


def add_post(author: str, data: dict) -> dict:
    post = {"id": len(POSTS) + 1, "author": author, **data}
    POSTS[post["id"]] = post
    return post


def add_comment(post_id: int, data: dict) -> dict:
    comment = {"id": len(COMMENTS) + 1, "post_id": post_id, **data, "status": "pending",
               "reason": None}
    COMMENTS[comment["id"]] = comment
    return comment


SEED = [
    {"title": "${title1}", "body": "${body1}", "tags": ["news"], "status": "published"},
    {"title": "Unfinished", "body": "not yet", "tags": [], "status": "draft"},
]
for seed in SEED:
    add_post("${author1}", seed)
'''

ROUTES = '''\
from typing import Annotated, Literal

from fastapi import APIRouter, Body, Cookie, Depends, Header, HTTPException, Query

from . import store
from .models import CommentIn, CommentOut, PostIn, PostOut

router = APIRouter()


def author_header(x_author: Annotated[str | None, Header()] = None) -> str:
    if not x_author:
        raise HTTPException(401, "author required")
    return x_author


def moderator(${cookie_param}: Annotated[str | None, Cookie(alias="${cookie}")] = None) -> None:
    if ${cookie_param} != store.MODERATOR_SESSION:
        raise HTTPException(401, "moderators only")


def visible_post(post_id: int, viewer: str | None) -> dict:
    post = store.POSTS.get(post_id)
    if post is None or (post["status"] == "draft" and post["author"] != viewer):
        raise HTTPException(404, "no such post")
    return post


@router.post("/posts", status_code=201, response_model=PostOut)
def create_post(post: PostIn, author: Annotated[str, Depends(author_header)]):
    return store.add_post(author, post.model_dump())


@router.get("/posts")
def list_posts(
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(alias="page-size", ge=1, le=${size_max})] = ${size_default},
):
    published = [PostOut(**p) for _, p in sorted(store.POSTS.items())
                 if p["status"] == "published"]
    start = (page - 1) * page_size
    return {"page": page, "items": published[start:start + page_size]}


@router.get("/posts/{post_id}", response_model=PostOut)
def read_post(post_id: int, x_author: Annotated[str | None, Header()] = None):
    return visible_post(post_id, x_author)


@router.post("/posts/{post_id}/comments", status_code=201, response_model=CommentOut)
def add_comment(post_id: int, comment: CommentIn):
    visible_post(post_id, None)
    return store.add_comment(post_id, comment.model_dump())


@router.get("/posts/{post_id}/comments", response_model=list[CommentOut])
def post_comments(post_id: int):
    visible_post(post_id, None)
    return [c for _, c in sorted(store.COMMENTS.items())
            if c["post_id"] == post_id and c["status"] == "approved"]


@router.get("/moderation/queue", response_model=list[CommentOut],
            dependencies=[Depends(moderator)])
def queue():
    return [c for _, c in sorted(store.COMMENTS.items()) if c["status"] == "pending"]


@router.post("/moderation/comments/{comment_id}", response_model=CommentOut,
             dependencies=[Depends(moderator)])
def moderate(
    comment_id: int,
    action: Annotated[Literal["approve", "reject"], Body(embed=True)],
    reason: Annotated[str | None, Body(embed=True, max_length=${reason_max})] = None,
):
    comment = store.COMMENTS.get(comment_id)
    if comment is None:
        raise HTTPException(404, "no such comment")
    if comment["status"] != "pending":
        raise HTTPException(409, "already moderated")
    comment["status"] = "approved" if action == "approve" else "rejected"
    comment["reason"] = reason
    return comment
'''

SOLUTION = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from blog.routes import router

app = FastAPI()
app.include_router(router)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


@app.exception_handler(RequestValidationError)
async def invalid_request(request: Request, exc: RequestValidationError):
    fields = [".".join(str(part) for part in error["loc"][1:]) for error in exc.errors()]
    return JSONResponse({"error": "invalid", "fields": fields}, status_code=422)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app, raise_server_exceptions=False)
mod = {"Cookie": "${cookie}=${mod_secret}"}
result = [
    row(client.post("/posts", headers={"X-Author": "${author2}"},
                    json={"title": "${title2}", "body": "${body2}"})),
    row(client.post("/posts/1/comments", json={"author": "${commenter}", "text": "Nice post"})),
    row(client.post("/moderation/comments/1", headers=mod, json={"action": "approve"})),
    row(client.get("/posts/1/comments")),
    row(client.get("/posts")),
]
'''


_in = editor("blog")


_REASON_AS_QUERY = _in(
    "routes", "reason read from the query string",
    "reason: Annotated[str | None, Body(embed=True, max_length=${reason_max})] = None",
    "reason: Annotated[str | None, Query(max_length=${reason_max})] = None")
_WRONG_HANDLER = Edit("validation handler catches pydantic's ValidationError",
                      "from fastapi.exceptions import RequestValidationError",
                      "from pydantic import ValidationError as RequestValidationError")
_EXCLUDE_DEFAULTS = _in("routes", "single post drops default values",
                        '@router.get("/posts/{post_id}", response_model=PostOut)',
                        '@router.get("/posts/{post_id}", response_model=PostOut,\n'
                        '            response_model_exclude_defaults=True)')
_NO_ALIAS = _in("routes", "page size lost its alias",
                'Query(alias="page-size", ge=1, le=${size_max})', "Query(ge=1, le=${size_max})")
_COOKIE_UNDERSCORE = _in("routes", "cookie name taken from the parameter",
                         'Cookie(alias="${cookie}")', "Cookie()")
_NO_STRIP = _in("models", "comment text not stripped",
                "    model_config = ConfigDict(str_strip_whitespace=True)\n", "")
_PENDING_SHOWN = _in("routes", "public comments filtered by not rejected",
                     'c["post_id"] == post_id and c["status"] == "approved"',
                     'c["post_id"] == post_id and c["status"] != "rejected"')
_PLAIN_PROPERTY = _in("models", "word count a plain property", '''\
    @computed_field
    @property
    def word_count''', '''\
    @property
    def word_count''')

FILES = {"blog/__init__.py": INIT, "blog/models.py": MODELS, "blog/store.py": STORE,
         "blog/routes.py": ROUTES}
PLANTED = (_REASON_AS_QUERY, _WRONG_HANDLER, _EXCLUDE_DEFAULTS, _NO_ALIAS, _COOKIE_UNDERSCORE,
           _NO_STRIP, _PENDING_SHOWN, _PLAIN_PROPERTY)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = '''\
MOD = {"Cookie": "${cookie}=${mod_secret}"}
WRITER = {"X-Author": "${author2}"}


def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _outcome(r):
    """A validation error as its status only (its body is another requirement's)."""
    return [422] if r.status_code == 422 else _row(r)


def _post(client, title, **extra):
    return client.post("/posts", headers=WRITER, json={"title": title, "body": "a b c", **extra})


def _comment(client, post_id, text="hello", author="${commenter}"):
    return client.post(f"/posts/{post_id}/comments", json={"author": author, "text": text})


def _moderate(client, comment_id, body):
    return client.post(f"/moderation/comments/{comment_id}", headers=MOD, json=body)


def probe_reject_reason_from_the_body(client):
    made = _comment(client, 1, "spam spam").json()["id"]
    rows = [_outcome(_moderate(client, made, {"action": "reject", "reason": "${reason}"}))]
    other = _comment(client, 1, "meh").json()["id"]
    rows.append(_outcome(client.post(f"/moderation/comments/{other}?reason=query",
                                     headers=MOD, json={"action": "approve"})))
    long = _comment(client, 1, "long").json()["id"]
    rows.append(_outcome(_moderate(client, long, {"action": "reject",
                                                  "reason": "r" * (${reason_max} + 1)})))
    return rows


def probe_validation_error_format(client):
    return [_row(_post(client, "")),
            _row(client.post("/posts", headers=WRITER, json={"body": "x", "tags": [1]})),
            _row(client.get("/posts?page=0")),
            _row(client.get("/posts/abc")),
            _row(_comment(client, 1, "")),
            _row(_comment(client, 1, "fine", author=""))]


def probe_every_post_key_shown(client):
    made = _post(client, "defaults").json()
    rows = [sorted(key for key in made if key != "word_count")]
    for path in [f"/posts/{made['id']}", "/posts/1"]:
        r = client.get(path, headers=WRITER)
        keys = sorted(key for key in r.json() if key != "word_count")
        rows.append([r.status_code, keys, r.json().get("tags"), r.json().get("status")])
    return rows


def probe_page_size_query(client):
    for number in range(${size_max} + 1):
        _post(client, f"p{number}", status="published")
    rows = []
    for query in ["", "?page-size=2", "?page=2&page-size=3", "?page-size=${size_max}",
                  "?page-size=0", "?page-size=${size_over}", "?page_size=1", "?page=99"]:
        r = client.get("/posts" + query)
        body = r.json()
        rows.append([query, r.status_code, [body["page"], [p["title"] for p in body["items"]]]
                     if r.status_code == 200 else None])
    return rows


def probe_moderator_cookie(client):
    rows = []
    for cookie in [None, "${cookie}=wrong", "${cookie_param}=${mod_secret}", "${cookie}=",
                   "${cookie}=${mod_secret}"]:
        r = client.get("/moderation/queue", headers={"Cookie": cookie} if cookie else {})
        rows.append([cookie, r.status_code, r.json() if r.status_code == 401
                     else isinstance(r.json(), list)])
    r = client.post("/moderation/comments/1", headers={"X-Moderator": "${mod_secret}"},
                    json={"action": "reject"})
    rows.append(_row(r))
    return rows


def probe_comment_text_is_stripped(client):
    rows = []
    for text in ["  padded  ", "   ", "\\ttabbed\\n", "x" * ${text_max},
                 " " + "y" * ${text_max} + " ", "z" * (${text_max} + 1)]:
        r = _comment(client, 1, text, author="  ${commenter}  ")
        rows.append([r.status_code, [r.json()["text"], r.json()["author"]]
                     if r.status_code == 201 else None])
    return rows


def probe_only_approved_comments_public(client):
    post = _post(client, "discussed", status="published").json()["id"]
    ids = [_comment(client, post, f"c{n}").json()["id"] for n in range(4)]
    _moderate(client, ids[1], {"action": "approve"})
    _moderate(client, ids[2], {"action": "reject"})
    _moderate(client, ids[3], {"action": "approve"})
    public = client.get(f"/posts/{post}/comments").json()
    queue = client.get("/moderation/queue", headers=MOD).json()
    return [[[c["text"], c["status"]] for c in public],
            [c["text"] for c in queue if c["post_id"] == post]]


def probe_word_count(client):
    rows = []
    for body in ["one", "two words", "  spaced   out\\ttext \\n", ""]:
        made = client.post("/posts", headers=WRITER, json={"title": "wc", "body": body,
                                                           "status": "published"}).json()
        shown = client.get(f"/posts/{made['id']}").json()
        rows.append([made.get("word_count"), shown.get("word_count")])
    listed = client.get("/posts").json()["items"][:1]
    rows.append([p.get("word_count") for p in listed])
    return rows


def probe_drafts_are_private(client):
    draft = _post(client, "secret", status="draft").json()["id"]
    return [[client.get("/posts/2").status_code],
            [client.get("/posts/2", headers={"X-Author": "${author1}"}).status_code],
            [client.get(f"/posts/{draft}", headers={"X-Author": "${author1}"}).status_code],
            [client.get(f"/posts/{draft}", headers=WRITER).status_code],
            _row(_comment(client, draft)), _row(client.get(f"/posts/{draft}/comments")),
            _row(client.get("/posts/999")),
            [draft in [p["id"] for p in
                       client.get("/posts?page-size=${size_max}").json()["items"]]]]


def probe_moderating_twice_is_409(client):
    made = _comment(client, 1, "twice").json()["id"]
    return [[_moderate(client, made, {"action": "approve"}).status_code],
            _row(_moderate(client, made, {"action": "reject"})),
            _row(_moderate(client, 9999, {"action": "approve"}))]


def probe_author_header_required(client):
    return [_row(client.post("/posts", json={"title": "t", "body": "b"})),
            _row(client.post("/posts", headers={"X-Author": ""}, json={"title": "t", "body": "b"})),
            [_post(client, "t" * ${title_max}).status_code],
            _outcome(_post(client, "t" * (${title_max} + 1)))]
'''

_SETS = {
    "people": [
        {"author1": "edith", "author2": "farid", "commenter": "gus", "mod_secret": "m0d-7",
         "title1": "Hello world", "body1": "First post here", "title2": "Second thoughts",
         "body2": "More words to count", "reason": "off topic"},
        {"author1": "hana", "author2": "ivan", "commenter": "jo", "mod_secret": "s3ss-42",
         "title1": "Launch day", "body1": "We are live today friends", "title2": "Roadmap",
         "body2": "Next up", "reason": "advertising"},
    ],
    "cookie": [{"cookie": "mod-session", "cookie_param": "mod_session"},
               {"cookie": "blog-mod", "cookie_param": "blog_mod"}],
    "sizes": [{"size_default": 3, "size_max": 5, "title_max": 80, "text_max": 200,
               "reason_max": 100},
              {"size_default": 4, "size_max": 8, "title_max": 40, "text_max": 120,
               "reason_max": 60},
              {"size_default": 2, "size_max": 6, "title_max": 60, "text_max": 50,
               "reason_max": 30}],
    "default_status": ["published", "draft"],
}

FAMILY = Family(
    id="repair/blog_moderation",
    title="Repair a blog with comment moderation that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a blog API: `solution.py` and the package `blog/` it imports (`models.py`,
`store.py`, `routes.py`). It should behave as described below but does not, in several ways.
Find and fix every deviation (edit or rewrite any file); `solution.py` must keep defining
`app` and `result`. State lives in memory and carries from one request to the next.

**State** at start: post 1 `${title1}` (body `${body1}`, tags `["news"]`, published) and
post 2 `Unfinished` (body `not yet`, no tags, draft), both by `${author1}`; no comments.

**Errors.** Errors raised by the service are `{"error": <message>}`: 401 `author required`,
401 `moderators only`, 404 `no such post`, 404 `no such comment`, 409 `already moderated`.
Every request validation error (body, query or path) is 422 `{"error": "invalid", "fields":
[...]}`, one entry per error: its location without the first part (`body`, `query`, `path`),
joined with dots (`"title"`, `"tags.0"`, `"page-size"`).

**Posts** are shown as `{"id", "title", "body", "tags", "status", "author", "word_count"}`,
every key always present; `word_count` is the number of whitespace-separated words of the body.
- `POST /posts` needs a non-empty `X-Author` header (else 401 `author required`), the author;
  body `{"title": 1 to ${title_max} characters, "body": string, "tags"?: list of strings
  (default []), "status"?: "draft" or "published" (default "${default_status}")}`. 201 with
  the post; ids 1, 2, 3, ... in order.
- `GET /posts?page=&page-size=`: 200 `{"page": page, "items": [...]}`, the published posts by
  id, `page-size` (1 to ${size_max}, default ${size_default}) per page, `page` >= 1
  (default 1).
- `GET /posts/{id}`: 200 with the post. A draft is found only when `X-Author` is its author;
  otherwise, like an unknown id, 404 `no such post`.

**Comments** are shown as `{"id", "post_id", "author", "text", "status", "reason"}`.
- `POST /posts/{id}/comments` with `{"author": 1 to 20 characters, "text": 1 to ${text_max}
  characters}`, both with surrounding whitespace removed before they are checked and stored:
  201 with the comment, status `pending`, reason null; 404 for a post that is not published.
- `GET /posts/{id}/comments`: 200, only the post's `approved` comments, by id (404 as above).

**Moderation** needs the cookie `${cookie}=${mod_secret}` (otherwise 401 `moderators only`).
- `GET /moderation/queue`: 200, every `pending` comment by id.
- `POST /moderation/comments/{id}` with `{"action": "approve" or "reject", "reason"?: at most
  ${reason_max} characters}`: 200 with the comment, now `approved` or `rejected`, its `reason`
  the one given (else null); 404 for an unknown comment; 409 if it is not pending.

`result` has five rows, each `[status, body]`, in this order:
1. `POST /posts` as `${author2}` with `{"title": "${title2}", "body": "${body2}"}`
2. `POST /posts/1/comments` with `{"author": "${commenter}", "text": "Nice post"}`
3. `POST /moderation/comments/1` as a moderator with `{"action": "approve"}`
4. `GET /posts/1/comments`
5. `GET /posts`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["people"][0], **_SETS["cookie"][0], **_SETS["sizes"][0],
              "default_status": "published"},
    space=_SETS,
    derive=lambda p: {"size_over": p["size_max"] + 1},
    instances=12,
    requirements=(
        Requirement("A moderation `reason` is read from the JSON body.",
                    probes=("reject_reason_from_the_body",), traps=(_REASON_AS_QUERY,)),
        Requirement('Every request validation error is 422 `{"error": "invalid", "fields": '
                    "[...]}`.",
                    probes=("validation_error_format",),
                    traps=(_WRONG_HANDLER,)),
        Requirement("Every post key is always shown, defaults included, on every route.",
                    probes=("every_post_key_shown",), traps=(_EXCLUDE_DEFAULTS,)),
        Requirement("`GET /posts` pages by `page` and `page-size` (1 to ${size_max}, default "
                    "${size_default}).",
                    probes=("page_size_query",), traps=(_NO_ALIAS,)),
        Requirement("Moderation needs the `${cookie}` cookie (401 `moderators only`).",
                    probes=("moderator_cookie",), traps=(_COOKIE_UNDERSCORE,)),
        Requirement("Comment author and text are stripped before they are checked and stored.",
                    probes=("comment_text_is_stripped",), traps=(_NO_STRIP,)),
        Requirement("Only approved comments are public; the queue holds the pending ones.",
                    probes=("only_approved_comments_public",), traps=(_PENDING_SHOWN,)),
        Requirement("Posts show `word_count`, the number of words of the body.",
                    probes=("word_count",), traps=(_PLAIN_PROPERTY,)),
        Requirement("A draft is visible to its author only (404 otherwise) and takes no "
                    "comments.",
                    probes=("drafts_are_private",),
                    traps=(_in("routes", "drafts visible to all",
                               ' or (post["status"] == "draft" and post["author"] != viewer)',
                               ""),)),
        Requirement("A comment is moderated once (409 `already moderated`).",
                    probes=("moderating_twice_is_409",),
                    traps=(_in("routes", "moderated twice", '''\
    if comment["status"] != "pending":
        raise HTTPException(409, "already moderated")
''', ""),)),
        Requirement("`POST /posts` needs a non-empty `X-Author`; titles are 1 to ${title_max} "
                    "characters.",
                    probes=("author_header_required",),
                    traps=(_in("routes", "empty author accepted", "    if not x_author:",
                               "    if x_author is None:"),
                           _in("models", "title unbounded",
                               "title: str = Field(min_length=1, max_length=${title_max})",
                               "title: str = Field(min_length=1)"))),
    ),
)
