"""Security tier: a team wiki with spaces, member roles, private pages and comments, all
nested; hidden probes try reaching pages and comments through another space or page (nested
IDOR), granting roles without being the owner or granting `owner`, viewers writing, reading
private pages, setting `author` or `version` through the body, and oversized inputs."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.traps import unknown_fields_ignored

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${t3}": "${u3}"}
Tag = Annotated[str, Field(pattern=r"^[a-z0-9-]{1,20}$$")]

spaces: dict[int, dict] = {}
pages: dict[int, dict] = {}
comments: dict[int, dict] = {}
last_id = {"space": 0, "page": 0, "comment": 0}

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class SpaceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)


class MemberIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["viewer", "editor"]


class PageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=80)
    body: str = Field("", max_length=${body_max})
    tags: list[Tag] = Field(default_factory=list, max_length=${tags_max})
    visibility: Literal["space", "private"] = "space"


class PagePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str | None = Field(None, min_length=1, max_length=80)
    body: str | None = Field(None, max_length=${body_max})
    tags: list[Tag] | None = Field(None, max_length=${tags_max})


class CommentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=500)


def new_id(kind: str) -> int:
    last_id[kind] += 1
    return last_id[kind]


def caller(x_token: Annotated[str | None, Header()] = None) -> str:
    if x_token not in TOKENS:
        raise HTTPException(401, "unauthorized")
    return TOKENS[x_token]


User = Annotated[str, Depends(caller)]


def membership(space_id: int, user: User) -> dict:
    space = spaces.get(space_id)
    if space is None or user not in space["members"]:
        raise HTTPException(404, "not_found")
    return {"space": space, "user": user, "role": space["members"][user]}


Member = Annotated[dict, Depends(membership)]


def editor(member: Member) -> dict:
    if member["role"] == "viewer":
        raise HTTPException(403, "forbidden")
    return member


def owner(member: Member) -> dict:
    if member["role"] != "owner":
        raise HTTPException(403, "forbidden")
    return member


def can_see(page: dict, member: dict) -> bool:
    return (page["visibility"] == "space" or page["author"] == member["user"]
            or member["role"] == "owner")


def visible_page(page_id: int, member: Member) -> dict:
    page = pages.get(page_id)
    if page is None or page["space_id"] != member["space"]["id"] or not can_see(page, member):
        raise HTTPException(404, "not_found")
    return page


def editable_page(page_id: int, member: Annotated[dict, Depends(editor)]) -> dict:
    return visible_page(page_id, member)


Page = Annotated[dict, Depends(visible_page)]


def page_comment(comment_id: int, page: Page) -> dict:
    comment = comments.get(comment_id)
    if comment is None or comment["page_id"] != page["id"]:
        raise HTTPException(404, "not_found")
    return comment


@app.post("/spaces", status_code=201)
def create_space(body: SpaceIn, user: User):
    space = {"id": new_id("space"), "name": body.name, "owner": user, "members": {user: "owner"}}
    spaces[space["id"]] = space
    return {"id": space["id"], "name": space["name"], "owner": user}


@app.get("/spaces")
def my_spaces(user: User):
    return [{"id": s["id"], "name": s["name"], "role": s["members"][user]}
            for s in spaces.values() if user in s["members"]]


def target_member(username: str, member: Annotated[dict, Depends(owner)]) -> dict:
    if username not in TOKENS.values():
        raise HTTPException(404, "not_found")
    if username == member["space"]["owner"]:
        raise HTTPException(409, "conflict")
    return {"user": username, "space": member["space"]}


Target = Annotated[dict, Depends(target_member)]


@app.put("/spaces/{space_id}/members/{username}")
def set_member(body: MemberIn, target: Target):
    target["space"]["members"][target["user"]] = body.role
    return {"user": target["user"], "role": body.role}


@app.delete("/spaces/{space_id}/members/{username}", status_code=204)
def remove_member(target: Target):
    if target["user"] not in target["space"]["members"]:
        raise HTTPException(404, "not_found")
    del target["space"]["members"][target["user"]]
    return Response(status_code=204)


@app.post("/spaces/{space_id}/pages", status_code=201)
def create_page(body: PageIn, member: Annotated[dict, Depends(editor)]):
    page = {"id": new_id("page"), "space_id": member["space"]["id"], **body.model_dump(),
            "author": member["user"], "version": 1}
    pages[page["id"]] = page
    return page


@app.get("/spaces/{space_id}/pages")
def list_pages(member: Member, tag: str | None = None,
               limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default}):
    found = [p for p in pages.values() if p["space_id"] == member["space"]["id"]
             and can_see(p, member) and (tag is None or tag in p["tags"])]
    return found[:limit]


@app.get("/spaces/{space_id}/pages/{page_id}")
def read_page(page: Page):
    return page


@app.patch("/spaces/{space_id}/pages/{page_id}")
def edit_page(changes: PagePatch, page: Annotated[dict, Depends(editable_page)]):
    page.update(changes.model_dump(exclude_none=True))
    page["version"] += 1
    return page


@app.post("/spaces/{space_id}/pages/{page_id}/comments", status_code=201)
def add_comment(body: CommentIn, page: Page, member: Member):
    comment = {"id": new_id("comment"), "page_id": page["id"], "author": member["user"],
               "text": body.text}
    comments[comment["id"]] = comment
    return comment


@app.get("/spaces/{space_id}/pages/{page_id}/comments")
def list_comments(page: Page):
    return [c for c in comments.values() if c["page_id"] == page["id"]]


@app.delete("/spaces/{space_id}/pages/{page_id}/comments/{comment_id}", status_code=204)
def delete_comment(comment: Annotated[dict, Depends(page_comment)], member: Member):
    if comment["author"] != member["user"] and member["role"] != "owner":
        raise HTTPException(403, "forbidden")
    del comments[comment["id"]]
    return Response(status_code=204)


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
as1, as2 = {"X-Token": "${t1}"}, {"X-Token": "${t2}"}
result = [
    row(client.post("/spaces", json={"name": "${space1}"}, headers=as1)),
    row(client.post("/spaces/1/pages", json={"title": "${title1}", "tags": ["${tag1}"]},
                    headers=as1)),
    row(client.put("/spaces/1/members/${u2}", json={"role": "viewer"}, headers=as1)),
    row(client.get("/spaces/1/pages/1", headers=as2)),
    row(client.patch("/spaces/1/pages/1", json={"body": "x"}, headers=as2)),
]
'''

PROBES = '''\
H1, H2, H3 = {"X-Token": "${t1}"}, {"X-Token": "${t2}"}, {"X-Token": "${t3}"}


def _plain(body):
    """A body without ids, which depend on what earlier checks created."""
    if isinstance(body, list):
        return [_plain(b) for b in body]
    if isinstance(body, dict):
        return {k: v for k, v in body.items() if k not in ("id", "space_id", "page_id")}
    return body


def _row(r):
    if not r.content:
        return [r.status_code]
    try:
        return [r.status_code, _plain(r.json())]
    except ValueError:
        return [r.status_code, r.text]


def _space(client, owner, name, members=()):
    sid = client.post("/spaces", json={"name": name}, headers=owner).json()["id"]
    for user, role in members:
        client.put(f"/spaces/{sid}/members/{user}", json={"role": role}, headers=owner)
    return sid


def _page(client, headers, sid, title, **fields):
    r = client.post(f"/spaces/{sid}/pages", json={"title": title, **fields}, headers=headers)
    return r.json()["id"]


def _comment(client, headers, sid, pid, text):
    r = client.post(f"/spaces/{sid}/pages/{pid}/comments", json={"text": text}, headers=headers)
    return r.json()["id"]


def probe_token_required(client):
    rows = []
    for headers in [{}, {"X-Token": ""}, {"X-Token": "${u1}"}, {"X-Token": "${t1} "},
                    {"X-Token": "${t1}".upper()}, {"Authorization": "Bearer ${t1}"},
                    {"X-Token": "${t1}x"}]:
        for method, path in [("GET", "/spaces"), ("POST", "/spaces"),
                             ("GET", "/spaces/1/pages"), ("PUT", "/spaces/1/members/${u3}")]:
            r = client.request(method, path, headers=headers, json={"name": "n", "role": "editor"})
            rows.append([headers, method, path, r.status_code, r.json()])
    return rows


def probe_spaces_private_to_members(client):
    sid = _space(client, H2, "closed")
    pid = _page(client, H2, sid, "inside")
    rows = [_row(client.get(f"/spaces/{sid}/pages", headers=H1)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H1)),
            _row(client.post(f"/spaces/{sid}/pages", json={"title": "t"}, headers=H1)),
            _row(client.put(f"/spaces/{sid}/members/${u1}", json={"role": "editor"}, headers=H1)),
            _row(client.post(f"/spaces/{sid}/pages/{pid}/comments", json={"text": "hi"},
                             headers=H1)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H3)),
            _row(client.get("/spaces/999999/pages", headers=H2))]
    rows.append([sid in [s["id"] for s in client.get("/spaces", headers=H1).json()],
                 [s["role"] for s in client.get("/spaces", headers=H2).json() if s["id"] == sid]])
    return rows


def probe_only_the_owner_manages_members(client):
    sid = _space(client, H1, "managed", [("${u2}", "editor")])
    rows = [_row(client.put(f"/spaces/{sid}/members/${u3}", json={"role": "viewer"}, headers=H2)),
            _row(client.put(f"/spaces/{sid}/members/${u2}", json={"role": "editor"}, headers=H2)),
            _row(client.delete(f"/spaces/{sid}/members/${u2}", headers=H2))]
    for body in [{"role": "owner"}, {"role": "admin"}, {"role": "Editor"}, {},
                 {"role": "viewer", "owner": True}]:
        rows.append([body, _row(client.put(f"/spaces/{sid}/members/${u3}", json=body,
                                           headers=H1))])
    rows.append(_row(client.put(f"/spaces/{sid}/members/${u1}", json={"role": "viewer"},
                                headers=H1)))
    rows.append(_row(client.put(f"/spaces/{sid}/members/mallory", json={"role": "viewer"},
                                headers=H1)))
    rows.append(_row(client.put(f"/spaces/{sid}/members/${u3}", json={"role": "viewer"},
                                headers=H1)))
    rows.append([[[s["name"], s["role"]] for s in client.get("/spaces", headers=H3).json()
                  if s["id"] == sid]])
    return rows


def probe_viewers_only_read(client):
    sid = _space(client, H1, "readers", [("${u3}", "viewer")])
    pid = _page(client, H1, sid, "rules")
    rows = [_row(client.post(f"/spaces/{sid}/pages", json={"title": "mine"}, headers=H3)),
            _row(client.patch(f"/spaces/{sid}/pages/{pid}", json={"body": "vandal"},
                              headers=H3)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H3)),
            _row(client.post(f"/spaces/{sid}/pages/{pid}/comments", json={"text": "nice"},
                             headers=H3))]
    return rows


def probe_server_sets_author_and_version(client):
    sid = _space(client, H1, "fields", [("${u2}", "editor")])
    rows = []
    for extra in [{"author": "${u1}"}, {"version": 9}, {"space_id": 999}, {"id": 5000}]:
        r = client.post(f"/spaces/{sid}/pages", json={"title": "x", **extra}, headers=H2)
        rows.append([extra, _row(r)])
    r = client.post(f"/spaces/{sid}/pages", json={"title": "honest"}, headers=H2)
    rows.append(_row(r))
    pid = r.json()["id"]
    for extra in [{"author": "${u1}"}, {"version": 1}, {"visibility": "private"}]:
        rows.append([extra, _row(client.patch(f"/spaces/{sid}/pages/{pid}", json=extra,
                                              headers=H2))])
    rows.append(_row(client.post(f"/spaces/{sid}/pages/{pid}/comments",
                                 json={"text": "t", "author": "${u1}"}, headers=H2)))
    rows.append(_row(client.post("/spaces", json={"name": "s", "owner": "${u3}"}, headers=H2)))
    return rows


def probe_pages_and_comments_only_through_their_parents(client):
    home = _space(client, H1, "home", [("${u2}", "editor")])
    away = _space(client, H2, "away")
    pid = _page(client, H1, home, "secret plan", body="the plan")
    other = _page(client, H1, home, "other page")
    cid = _comment(client, H1, home, pid, "owner's note")
    rows = [_row(client.get(f"/spaces/{away}/pages/{pid}", headers=H2)),
            _row(client.patch(f"/spaces/{away}/pages/{pid}", json={"body": "x"}, headers=H2)),
            _row(client.get(f"/spaces/{away}/pages/{pid}/comments", headers=H2)),
            _row(client.post(f"/spaces/{away}/pages/{pid}/comments", json={"text": "x"},
                             headers=H2)),
            _row(client.delete(f"/spaces/{home}/pages/{other}/comments/{cid}", headers=H1)),
            _row(client.delete(f"/spaces/{away}/pages/{pid}/comments/{cid}", headers=H2)),
            [[c["text"] for c in client.get(f"/spaces/{home}/pages/{pid}/comments",
                                            headers=H1).json()]],
            _row(client.get(f"/spaces/{home}/pages/{other}/comments", headers=H1)),
            _row(client.get(f"/spaces/{home}/pages/987654", headers=H1))]
    return rows


def probe_private_pages(client):
    sid = _space(client, H1, "team", [("${u2}", "editor"), ("${u3}", "editor")])
    private = _page(client, H2, sid, "draft of ${u2}", visibility="private", tags=["wip"])
    _page(client, H3, sid, "open page", tags=["wip"])
    rows = [_row(client.get(f"/spaces/{sid}/pages/{private}", headers=H3)),
            _row(client.patch(f"/spaces/{sid}/pages/{private}", json={"title": "taken"},
                              headers=H3)),
            _row(client.post(f"/spaces/{sid}/pages/{private}/comments", json={"text": "x"},
                             headers=H3)),
            [[p["title"] for p in client.get(f"/spaces/{sid}/pages", headers=H3).json()]],
            [[p["title"] for p in client.get(f"/spaces/{sid}/pages", params={"tag": "wip"},
                                             headers=H3).json()]],
            [[p["title"] for p in client.get(f"/spaces/{sid}/pages", headers=H2).json()]],
            [[p["title"] for p in client.get(f"/spaces/{sid}/pages", headers=H1).json()]],
            _row(client.get(f"/spaces/{sid}/pages/{private}", headers=H1)),
            _row(client.patch(f"/spaces/{sid}/pages/{private}", json={"body": "by owner"},
                              headers=H1))]
    return rows


def probe_edits_bump_the_version(client):
    sid = _space(client, H1, "versions", [("${u2}", "editor")])
    pid = _page(client, H1, sid, "v", body="one", tags=["a"])
    rows = [_row(client.patch(f"/spaces/{sid}/pages/{pid}", json={"body": "two"}, headers=H2)),
            _row(client.patch(f"/spaces/{sid}/pages/{pid}", json={"tags": []}, headers=H1)),
            _row(client.patch(f"/spaces/{sid}/pages/{pid}", json={}, headers=H1)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H2))]
    return rows


def probe_comment_deletion(client):
    sid = _space(client, H1, "talk", [("${u2}", "editor"), ("${u3}", "viewer")])
    pid = _page(client, H2, sid, "topic")
    by3 = _comment(client, H3, sid, pid, "from ${u3}")
    by2 = _comment(client, H2, sid, pid, "from ${u2}")
    rows = [_row(client.delete(f"/spaces/{sid}/pages/{pid}/comments/{by3}", headers=H2)),
            _row(client.delete(f"/spaces/{sid}/pages/{pid}/comments/{by3}", headers=H3)),
            _row(client.delete(f"/spaces/{sid}/pages/{pid}/comments/{by3}", headers=H3)),
            _row(client.delete(f"/spaces/{sid}/pages/{pid}/comments/{by2}", headers=H1)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}/comments", headers=H3))]
    return rows


def probe_removed_members_lose_access(client):
    sid = _space(client, H1, "leaving", [("${u2}", "editor"), ("${u3}", "viewer")])
    pid = _page(client, H2, sid, "by the leaver")
    rows = [_row(client.delete(f"/spaces/{sid}/members/${u2}", headers=H1)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H2)),
            _row(client.patch(f"/spaces/{sid}/pages/{pid}", json={"body": "still here"},
                              headers=H2)),
            _row(client.delete(f"/spaces/{sid}/members/${u2}", headers=H1)),
            _row(client.delete(f"/spaces/{sid}/members/${u1}", headers=H1)),
            _row(client.delete(f"/spaces/{sid}/members/${u1}", headers=H3)),
            _row(client.get(f"/spaces/{sid}/pages/{pid}", headers=H3))]
    return rows


def probe_input_bounds(client):
    sid = _space(client, H1, "bounds")
    rows = []
    for body in [{"title": ""}, {"title": "t" * 80}, {"title": "t" * 81},
                 {"title": "b", "body": "x" * ${body_max}},
                 {"title": "b", "body": "x" * (${body_max} + 1)},
                 {"title": "g", "tags": [f"t{i}" for i in range(${tags_max})]},
                 {"title": "g", "tags": [f"t{i}" for i in range(${tags_max} + 1)]},
                 {"title": "g", "tags": ["Upper"]}, {"title": "g", "tags": ["a b"]},
                 {"title": "g", "tags": ["x" * 20]}, {"title": "g", "tags": ["x" * 21]},
                 {"title": "g", "tags": [""]}, {"title": "v", "visibility": "public"},
                 {"title": "g", "tags": "solo"}]:
        r = client.post(f"/spaces/{sid}/pages", json=body, headers=H1)
        sizes = [len(body["title"]), len(body.get("body", "")), len(body.get("tags", []))]
        rows.append([sizes, r.status_code, r.json().get("error", "created")])
    pid = _page(client, H1, sid, "edit me")
    for body in [{"title": ""}, {"body": "y" * (${body_max} + 1)},
                 {"tags": ["t"] * (${tags_max} + 1)}, {"tags": ["OK"]}]:
        rows.append(_row(client.patch(f"/spaces/{sid}/pages/{pid}", json=body, headers=H1)))
    for text in ["", "c" * 500, "c" * 501]:
        r = client.post(f"/spaces/{sid}/pages/{pid}/comments", json={"text": text}, headers=H1)
        rows.append([len(text), r.status_code])
    for name in ["", "n" * 40, "n" * 41]:
        rows.append([len(name), client.post("/spaces", json={"name": name},
                                            headers=H1).status_code])
    return rows


def probe_listing_filters_and_limits(client):
    sid = _space(client, H1, "list")
    for i in range(${limit_max} + 2):
        _page(client, H1, sid, f"p{i}", tags=["even"] if i % 2 == 0 else ["odd", "x"])
    rows = []
    for params in [{}, {"limit": 1}, {"limit": ${limit_max}}, {"tag": "odd"},
                   {"tag": "Odd"}, {"tag": "ev"}, {"tag": "x", "limit": 2}]:
        r = client.get(f"/spaces/{sid}/pages", params=params, headers=H1)
        rows.append([params, r.status_code, [p["title"] for p in r.json()]])
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}]:
        rows.append([params, _row(client.get(f"/spaces/{sid}/pages", params=params,
                                             headers=H1))])
    return rows


def probe_checks_in_order(client):
    sid = _space(client, H1, "ordered", [("${u3}", "viewer")])
    bad = {"title": ""}
    return [_row(client.post(f"/spaces/{sid}/pages", json=bad)),
            _row(client.post(f"/spaces/{sid}/pages", json=bad, headers=H2)),
            _row(client.post(f"/spaces/{sid}/pages", json=bad, headers=H3)),
            _row(client.patch(f"/spaces/{sid}/pages/987654", json=bad, headers=H3)),
            _row(client.patch(f"/spaces/{sid}/pages/987654", json=bad, headers=H1)),
            _row(client.post(f"/spaces/{sid}/pages", json=bad, headers=H1)),
            _row(client.put(f"/spaces/{sid}/members/${u2}", json={"role": "owner"},
                            headers=H3))]
'''

PROMPT = '''\
Build a team wiki. State is kept in memory. Three users exist, each with a fixed token sent
in the header `X-Token` (exactly the token, nothing else):

| token | user |
|---|---|
| `${t1}` | `${u1}` |
| `${t2}` | `${u2}` |
| `${t3}` | `${u3}` |

A request without a valid `X-Token` is 401 on every route.

**Errors** have the body `{"error": <code>}`: 401 `"unauthorized"`, 403 `"forbidden"`, 404
`"not_found"`, 409 `"conflict"`, and 422 `"invalid"` for any body, path or query parameter
that is not valid as described. A body with a field not listed for its route is 422: the
server alone sets ids, owners, authors, versions and the space or page things belong to.
When several apply, the first in this order wins: 401; 404 for a space the caller is not a
member of; 403 for a role that may not do it; 404 for a member, page or comment; 409; 422.

**Spaces and roles.** Whoever creates a space is its `owner`; the owner adds members as
`viewer` or `editor` (no one else can be made owner, and only the owner changes membership).
To anyone who is not a member, a space and everything in it do not exist (404). Viewers
read and comment; editors and the owner also create and edit pages.

**Pages** are `{"id", "space_id", "title", "body", "tags", "visibility", "author",
"version"}`: title 1-80 characters, body at most ${body_max} (default `""`), at most
${tags_max} tags (default none), each 1-20 characters of `a-z0-9-`, visibility `space`
(default) or `private`. A private page exists only for its author and the space owner (404
for other members, and left out of listings). The author is the creator; version starts at
1 and each successful edit adds 1. **Comments** are `{"id", "page_id", "author", "text"}`
(text 1-500 characters). A page exists only under its own space and a comment only under
its own page. Ids count 1, 2, 3, ... per kind in creation order.

**Routes.**
- `POST /spaces` `{"name"}` (1-40 characters): 201 `{"id", "name", "owner"}`.
- `GET /spaces`: 200, the spaces the caller is a member of, by id, as `{"id", "name", "role"}`.
- `PUT /spaces/{space_id}/members/{username}` `{"role"}` (owner only): 200 `{"user", "role"}`;
  404 when `username` is not a user; 409 when it is the owner.
- `DELETE /spaces/{space_id}/members/{username}` (owner only): 204 with an empty body; 404
  when not a user or not a member; 409 when it is the owner.
- `POST /spaces/{space_id}/pages` `{"title", "body"?, "tags"?, "visibility"?}` (editor or
  owner): 201 with the page.
- `GET /spaces/{space_id}/pages?tag=&limit=`: 200, the pages the caller sees, by id; `tag`
  keeps pages having exactly that tag; `limit` 1 to ${limit_max} (default ${limit_default}).
- `GET /spaces/{space_id}/pages/{page_id}`: 200 with the page.
- `PATCH /spaces/{space_id}/pages/{page_id}` `{"title"?, "body"?, "tags"?}` (editor or owner):
  changes the fields given (same limits); 200 with the page.
- `POST /spaces/{space_id}/pages/{page_id}/comments` `{"text"}`: 201 with the comment.
- `GET /spaces/{space_id}/pages/{page_id}/comments`: 200, the page's comments by id.
- `DELETE /spaces/{space_id}/pages/{page_id}/comments/{comment_id}`: the comment's author or
  the space owner (others 403): 204 with an empty body.

`result`: one row per request, `[status code, JSON body]` (or `[status code]` when the body
is empty), as `${u1}` unless said otherwise:
1. `POST /spaces` `{"name": "${space1}"}`
2. `POST /spaces/1/pages` `{"title": "${title1}", "tags": ["${tag1}"]}`
3. `PUT /spaces/1/members/${u2}` `{"role": "viewer"}`
4. `GET /spaces/1/pages/1` as `${u2}`
5. `PATCH /spaces/1/pages/1` `{"body": "x"}` as `${u2}`
'''


_TOKEN_CHECK = '''    if x_token not in TOKENS:
        raise HTTPException(401, "unauthorized")
    return TOKENS[x_token]'''


FAMILY = Family(
    id="security/team_wiki",
    title="A team wiki with roles and private pages that withstands nested IDOR and escalation",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "nora", "u2": "omar", "u3": "pete", "tp": "wk_", "body_max": 2000,
              "tags_max": 5, "limit_max": 10, "limit_default": 4, "space1": "Handbook",
              "title1": "Onboarding", "tag1": "start"},
    space={
        "u1": [{"u1": "nora", "u2": "omar", "u3": "pete"},
               {"u1": "quin", "u2": "rosa", "u3": "sven"}],
        "tp": ["wk_", "T0k."],
        "body_max": [{"body_max": 2000, "tags_max": 5}, {"body_max": 500, "tags_max": 3},
                     {"body_max": 1200, "tags_max": 8}],
        "limit_max": [{"limit_max": 10, "limit_default": 4}, {"limit_max": 6, "limit_default": 2}],
        "space1": [{"space1": "Handbook", "title1": "Onboarding", "tag1": "start"},
                   {"space1": "Runbooks", "title1": "Paging", "tag1": "on-call"}],
    },
    derive=lambda p: {"t1": p["tp"] + p["u1"], "t2": p["tp"] + p["u2"], "t3": p["tp"] + p["u3"]},
    instances=10,
    requirements=(
        Requirement("Every route needs exactly a listed `X-Token`; else 401 `unauthorized`.",
                    probes=("token_required",),
                    traps=(Edit("token trimmed", _TOKEN_CHECK, _TOKEN_CHECK.replace(
                        "if x_token not in TOKENS:", "if (x_token or '').strip() not in TOKENS:"
                        ).replace("TOKENS[x_token]", "TOKENS[x_token.strip()]")),
                           Edit("token or user name", _TOKEN_CHECK, _TOKEN_CHECK.replace(
                               "if x_token not in TOKENS:",
                               "if x_token not in TOKENS and x_token not in TOKENS.values():"
                           ).replace("return TOKENS[x_token]",
                                     "return TOKENS.get(x_token, x_token)"))),
                    security=True),
        Requirement("To a non-member a space and everything in it is 404; `GET /spaces` lists "
                    "only the caller's spaces with their role.",
                    probes=("spaces_private_to_members",),
                    traps=(Edit("any user reads any space",
                                'if space is None or user not in space["members"]:',
                                "if space is None:"),
                           Edit("every space listed", 'for s in spaces.values() if user in '
                                's["members"]]', 'for s in spaces.values() if user in '
                                's["members"] or True]')),
                    security=True),
        Requirement("Only the owner manages members, only as `viewer` or `editor`; the owner "
                    "cannot be changed (409) and unknown users are 404.",
                    probes=("only_the_owner_manages_members",),
                    traps=(Edit("editors manage members",
                                "def target_member(username: str, member: Annotated[dict, "
                                "Depends(owner)]) -> dict:",
                                "def target_member(username: str, member: Annotated[dict, "
                                "Depends(editor)]) -> dict:"),
                           Edit("owner role grantable", 'role: Literal["viewer", "editor"]',
                                'role: Literal["viewer", "editor", "owner"]'),
                           Edit("owner may demote themselves",
                                '    if username == member["space"]["owner"]:\n'
                                '        raise HTTPException(409, "conflict")\n', ""),
                           unknown_fields_ignored("MemberIn")),
                    security=True),
        Requirement("Viewers read and comment but cannot create or edit pages (403).",
                    probes=("viewers_only_read",),
                    traps=(Edit("viewers edit", "def editable_page(page_id: int, member: "
                                "Annotated[dict, Depends(editor)])", "def editable_page(page_id: "
                                "int, member: Member)"),
                           Edit("viewers create", "def create_page(body: PageIn, member: "
                                "Annotated[dict, Depends(editor)]):", "def create_page(body: "
                                "PageIn, member: Member):")),
                    security=True),
        Requirement("The server sets ids, author, version and parents: unlisted body fields "
                    "are 422 on every route.",
                    probes=("server_sets_author_and_version",),
                    traps=(unknown_fields_ignored("PageIn"), unknown_fields_ignored("PagePatch"),
                           unknown_fields_ignored("CommentIn")),
                    security=True),
        Requirement("A page is reached only through its own space and a comment only through "
                    "its own page (404 otherwise).",
                    probes=("pages_and_comments_only_through_their_parents",),
                    traps=(Edit("page found by id alone",
                                'if page is None or page["space_id"] != member["space"]["id"] or '
                                "not can_see(page, member):",
                                "if page is None or not can_see(page, member):"),
                           Edit("comment found by id alone",
                                'if comment is None or comment["page_id"] != page["id"]:',
                                "if comment is None:")),
                    security=True),
        Requirement("A private page exists only for its author and the space owner, in "
                    "reads, edits, comments and listings.",
                    probes=("private_pages",),
                    traps=(Edit("private pages listed", "and can_see(p, member) and (tag",
                                "and (tag"),
                           Edit("owner cannot see private pages",
                                '    return (page["visibility"] == "space" or page["author"] == '
                                'member["user"]\n            or member["role"] == "owner")',
                                '    return (page["visibility"] == "space" or page["author"] == '
                                'member["user"])')),
                    security=True),
        Requirement("An edit changes only the fields given and adds 1 to the version.",
                    probes=("edits_bump_the_version",),
                    traps=(Edit("version unchanged", '    page["version"] += 1\n', ""),
                           Edit("empty tags dropped", "page.update(changes.model_dump("
                                "exclude_none=True))", "page.update({k: v for k, v in "
                                "changes.model_dump(exclude_none=True).items() if v})"))),
        Requirement("A comment is deleted by its author or the space owner only (403 for "
                    "others); a deleted comment is gone (404).",
                    probes=("comment_deletion",),
                    traps=(Edit("anyone deletes comments",
                                '    if comment["author"] != member["user"] and member["role"] '
                                '!= "owner":\n        raise HTTPException(403, "forbidden")\n',
                                ""),),
                    security=True),
        Requirement("A removed member loses access at once; the owner cannot be removed.",
                    probes=("removed_members_lose_access",),
                    traps=(Edit("removal does nothing",
                                '    del target["space"]["members"][target["user"]]\n', ""),),
                    security=True),
        Requirement("Titles 1-80, bodies at most ${body_max}, at most ${tags_max} tags of 1-20 "
                    "`a-z0-9-`, comments 1-500, space names 1-40; else 422.",
                    probes=("input_bounds",),
                    traps=(Edit("tags unbounded", "tags: list[Tag] = Field(default_factory=list, "
                                "max_length=${tags_max})", "tags: list[Tag] = "
                                "Field(default_factory=list)"),
                           Edit("tag pattern unanchored", 'pattern=r"^[a-z0-9-]{1,20}$$"',
                                'pattern=r"[a-z0-9-]{1,20}"'),
                           Edit("body unbounded on edit",
                                "body: str | None = Field(None, max_length=${body_max})",
                                "body: str | None = None")),
                    security=True),
        Requirement("Listing filters by an exact tag and pages with `limit` 1 to ${limit_max} "
                    "(default ${limit_default}).",
                    probes=("listing_filters_and_limits",),
                    traps=(Edit("limit unbounded", "Query(ge=1, le=${limit_max})",
                                "Query(ge=1)"),
                           Edit("tag matched as a substring", '(tag is None or tag in p["tags"])',
                                '(tag is None or any(tag in t for t in p["tags"]))'))),
        Requirement("With several failures: 401, then 404 for a non-member, then 403 for the "
                    "role, then 404 for a page, then 422.",
                    probes=("checks_in_order",),
                    traps=(Edit("body before the role", "def create_page(body: PageIn, member: "
                                "Annotated[dict, Depends(editor)]):\n", "def create_page(body: "
                                "PageIn, member: Member):\n    editor(member)\n"),
                           Edit("page looked up before the role",
                                "def editable_page(page_id: int, member: Annotated[dict, "
                                "Depends(editor)]) -> dict:\n    return visible_page(page_id, "
                                "member)", "def editable_page(page_id: int, member: Member) -> "
                                "dict:\n    page = visible_page(page_id, member)\n"
                                "    editor(member)\n    return page"))),
    ),
)
