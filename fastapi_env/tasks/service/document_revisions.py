"""Service tier: a document store that keeps every revision (10 routes, HTTP Basic auth with
editors and viewers, conditional requests with ETag / If-None-Match / If-Match and their list
and weak forms, HEAD, soft deletes, restore by content, filtered listing paged by cursor with a
`Link` header, and one error format with a strict failure order)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.traps import head_not_served, router_errors_in_fastapi_format

REFERENCE = '''\
import base64
import binascii
from typing import Annotated
from urllib.parse import urlencode

from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic import StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

USERS = {"${e1}": ("${p1}", "editor"), "${e2}": ("${p2}", "editor"),
         "${v1}": ("${pv}", "viewer")}
CHALLENGE = {"WWW-Authenticate": 'Basic realm="${realm}"'}
DOCS: dict[int, dict] = {}
NEXT_ID = [1]

# GET /docs is the document list, so Swagger UI must not claim that path.
app = FastAPI(docs_url=None)


class Refusal(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return JSONResponse({"code": exc.code}, status_code=exc.status, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_routing(request: Request, exc: StarletteHTTPException):
    code = "not_found" if exc.status_code == 404 else "method_not_allowed"
    return JSONResponse({"code": code}, status_code=exc.status_code, headers=exc.headers)


def field_name(loc) -> str:
    # ("body", "tags", 1) -> "tags.1"; a missing or non-object body is just ("body",)
    return ".".join(str(part) for part in loc[1:]) or str(loc[0])


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = sorted({field_name(e["loc"]) for e in exc.errors()})
    return JSONResponse({"code": "invalid", "fields": fields}, status_code=422)


def trimmed_title(value: str) -> str:
    value = value.strip()
    if not 1 <= len(value) <= ${title_max}:
        raise ValueError("a title is 1 to ${title_max} characters once trimmed")
    return value


def tag_form(value):
    return value.strip().lower() if isinstance(value, str) else value


def without_repeats(tags: list[str]) -> list[str]:
    kept = list(dict.fromkeys(tags))
    if len(kept) > ${tags_max}:
        raise ValueError("at most ${tags_max} tags")
    return kept


# Each tag is validated on its own, so a bad one is reported as tags.<index>.
Tag = Annotated[str, BeforeValidator(tag_form),
                StringConstraints(min_length=1, max_length=20, pattern=r"^[a-z0-9-]+$$")]


class DocIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, AfterValidator(trimmed_title)]
    body: str = Field(max_length=${body_max})
    tags: Annotated[list[Tag], AfterValidator(without_repeats)] = []


def credentials(authorization: Annotated[str | None, Header()] = None):
    scheme, _, encoded = (authorization or "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    name, colon, password = decoded.partition(":")
    return (name, password) if colon else None


def caller(creds: Annotated[tuple | None, Depends(credentials)]) -> dict:
    if creds is None or creds[0] not in USERS or USERS[creds[0]][0] != creds[1]:
        raise Refusal(401, "unauthenticated", CHALLENGE)
    return {"name": creds[0], "role": USERS[creds[0]][1]}


def editor(user: Annotated[dict, Depends(caller)]) -> dict:
    if user["role"] != "editor":
        raise Refusal(403, "read_only")
    return user


Reader = Annotated[dict, Depends(caller)]
Editor = Annotated[dict, Depends(editor)]


def live_doc(doc_id: int) -> dict:
    if doc_id not in DOCS:
        raise Refusal(404, "not_found")
    if DOCS[doc_id]["deleted"]:
        raise Refusal(${gone_status}, "deleted")
    return DOCS[doc_id]


def etag(doc: dict) -> str:
    return f'"{doc["id"]}${sep}{len(doc["revisions"])}"'


def listed_tags(header: str) -> list[str]:
    return [part.strip() for part in header.split(",")]


def none_match(header: str | None, doc: dict) -> bool:
    if header is None:
        return False
    if header.strip() == "*":
        return True
    return etag(doc) in [tag.removeprefix("W/") for tag in listed_tags(header)]


def if_match(header: str, doc: dict) -> bool:
    return header.strip() == "*" or etag(doc) in listed_tags(header)


def public(doc: dict) -> dict:
    current = doc["revisions"][-1]
    return {"id": doc["id"], "title": current["title"], "body": current["body"],
            "tags": list(current["tags"]), "revision": len(doc["revisions"]),
            "author": doc["author"]}


def shown(doc: dict, response: Response) -> dict:
    response.headers["ETag"] = etag(doc)
    return public(doc)


@app.post("/docs", status_code=201)
def create(body: DocIn, user: Editor, response: Response):
    doc = {"id": NEXT_ID[0], "author": user["name"], "deleted": False,
           "revisions": [body.model_dump()]}
    NEXT_ID[0] += 1
    DOCS[doc["id"]] = doc
    response.headers["Location"] = f"/docs/{doc['id']}"
    return shown(doc, response)


@app.get("/docs")
def listing(
    user: Reader,
    response: Response,
    q: str | None = None,
    tag: Annotated[list[str], Query()] = [],
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
):
    needle = (q or "").strip().lower()
    wanted = {t.strip().lower() for t in tag}
    matching = [d for _, d in sorted(DOCS.items()) if not d["deleted"] and d["id"] > after
                and needle in d["revisions"][-1]["title"].lower()
                and wanted <= set(d["revisions"][-1]["tags"])]
    page = matching[:limit]
    if len(matching) > limit:
        params = [("q", q)] if q is not None else []
        params += [("tag", t) for t in tag] + [("limit", limit), ("after", page[-1]["id"])]
        response.headers["Link"] = f'</docs?{urlencode(params)}>; rel="next"'
    return [public(d) for d in page]


@app.api_route("/docs/{doc_id}", methods=["GET", "HEAD"])
def read(doc_id: int, user: Reader, response: Response,
         if_none_match: Annotated[str | None, Header()] = None):
    doc = live_doc(doc_id)
    if none_match(if_none_match, doc):
        return Response(status_code=304, headers={"ETag": etag(doc)})
    return shown(doc, response)


@app.put("/docs/{doc_id}")
def replace(doc_id: int, body: DocIn, user: Editor, response: Response,
            if_match_header: Annotated[str | None, Header(alias="If-Match")] = None):
    doc = live_doc(doc_id)
    if if_match_header is None:
        raise Refusal(428, "precondition_required")
    if not if_match(if_match_header, doc):
        raise Refusal(412, "precondition_failed")
    doc["revisions"].append(body.model_dump())
    return shown(doc, response)


@app.delete("/docs/{doc_id}", status_code=204)
def delete(doc_id: int, user: Editor):
    doc = live_doc(doc_id)
    if doc["author"] != user["name"]:
        raise Refusal(403, "not_author")
    doc["deleted"] = True
    return Response(status_code=204)


@app.get("/docs/{doc_id}/revisions")
def revisions(doc_id: int, user: Reader):
    numbered = list(enumerate(live_doc(doc_id)["revisions"], 1))
    return [{"revision": n, "title": r["title"]} for n, r in reversed(numbered)]


def revision_of(doc: dict, n: int) -> dict:
    if n > len(doc["revisions"]):
        raise Refusal(404, "no_such_revision")
    return doc["revisions"][n - 1]


@app.get("/docs/{doc_id}/revisions/{n}")
def revision(doc_id: int, n: Annotated[int, Path(ge=1)], user: Reader):
    old = revision_of(live_doc(doc_id), n)
    return {"revision": n, "title": old["title"], "body": old["body"], "tags": old["tags"]}


@app.post("/docs/{doc_id}/revisions/{n}/restore")
def restore(doc_id: int, n: Annotated[int, Path(ge=1)], user: Editor, response: Response):
    doc = live_doc(doc_id)
    old = revision_of(doc, n)
    if old == doc["revisions"][-1]:
        raise Refusal(409, "already_current")
    doc["revisions"].append({**old, "tags": list(old["tags"])})
    return shown(doc, response)


def basic(name: str, password: str) -> dict:
    token = base64.b64encode(f"{name}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def row(r):
    return [r.status_code, r.json() if r.content else None, r.headers.get("etag")]


client = TestClient(app)
E1, V1 = basic("${e1}", "${p1}"), basic("${v1}", "${pv}")
first = client.post("/docs", json={"title": "  ${title}  ", "body": "${body}",
                                   "tags": ["${tag}", " ${tag_up} "]}, headers=E1)
result = [
    row(first),
    row(client.put("/docs/1", json={"title": "${title2}", "body": ""},
                   headers=E1 | {"If-Match": first.headers["etag"]})),
    row(client.get("/docs/1/revisions/1", headers=V1)),
    row(client.delete("/docs/1", headers=V1)),
]
'''

PROBES = '''\
import base64
import re


def _auth(name, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()}


E1, E2, V1 = _auth("${e1}", "${p1}"), _auth("${e2}", "${p2}"), _auth("${v1}", "${pv}")


def _body(r):
    return r.json() if r.content else None


def _etag(r, doc_id):
    """The ETag with the document's id (which depends on earlier probes) written as <id>."""
    tag = r.headers.get("etag")
    return tag if tag is None else tag.replace(str(doc_id), "<id>", 1)


def _row(r, doc_id=0):
    body = _body(r)
    if isinstance(body, dict) and body.get("id") == doc_id:
        body = {k: v for k, v in body.items() if k != "id"}
    return [r.status_code, body, _etag(r, doc_id)]


def _doc(client, headers=E1, **fields):
    body = {"title": "probe", "body": "text"} | fields
    return client.post("/docs", json=body, headers=headers).json()["id"]


def _current(client, doc_id):
    return client.get(f"/docs/{doc_id}", headers=E1).headers["etag"]


def _deleted(client):
    doc_id = _doc(client, title="to delete")
    client.delete(f"/docs/{doc_id}", headers=E1)
    return doc_id


def probe_bad_credentials(client):
    rows = []
    cases = [{}, {"Authorization": "Bearer ${p1}"}, {"Authorization": "Basic !!!"},
             {"Authorization": "Basic " + base64.b64encode(b"${e1}").decode()},
             _auth("${e1}", "${p1}".upper()), _auth("${e1}".upper(), "${p1}"),
             _auth("ghost", "${p1}"), _auth("${e1}", "${p2}"), _auth("${v1}", "")]
    for number, headers in enumerate(cases):
        for method, path, body in [("GET", "/docs", None), ("POST", "/docs", {"title": ""}),
                                   ("GET", "/docs/999", None), ("PUT", "/docs/x", None),
                                   ("HEAD", "/docs/1", None)]:
            r = client.request(method, path, headers=headers, json=body)
            rows.append([number, method, path, r.status_code, _body(r),
                         r.headers.get("www-authenticate")])
    return rows


def probe_good_credentials(client):
    lower = {"Authorization": E1["Authorization"].replace("Basic", "basic", 1)}
    upper = {"Authorization": E1["Authorization"].replace("Basic", "BASIC", 1)}
    rows = [[client.get("/docs", headers=h).status_code] for h in (lower, upper, E2, V1)]
    r = client.post("/docs", json={"title": "by e2", "body": ""}, headers=E2)
    rows.append([r.status_code, r.json().get("author")])
    return rows


def probe_viewers_only_read(client):
    doc = _doc(client)
    tag = _current(client, doc)
    rows = []
    for method, path, body, extra in [
            ("POST", "/docs", {"title": "v", "body": ""}, {}),
            ("POST", "/docs", {"title": ""}, {}),
            ("PUT", f"/docs/{doc}", {"title": "v", "body": ""}, {"If-Match": tag}),
            ("PUT", f"/docs/{doc}", None, {}),
            ("DELETE", f"/docs/{doc}", None, {}),
            ("POST", f"/docs/{doc}/revisions/1/restore", None, {}),
            ("GET", f"/docs/{doc}/revisions", None, {}),
            ("GET", f"/docs/{doc}/revisions/1", None, {})]:
        r = client.request(method, path, json=body, headers=V1 | extra)
        rows.append([method, r.status_code, _body(r)])
    rows.append(_row(client.get(f"/docs/{doc}", headers=V1), doc))
    return rows


def probe_failure_order(client):
    gone = _deleted(client)
    rows = []
    for headers, method, path, body, extra in [
            ({}, "PUT", "/docs/x", {"title": ""}, {}),
            (V1, "PUT", "/docs/999", {"title": ""}, {}),
            (E1, "PUT", "/docs/999", {"title": ""}, {}),
            (E1, "PUT", "/docs/999", {"title": "ok", "body": ""}, {}),
            (E1, "PUT", f"/docs/{gone}", {"title": "ok", "body": ""}, {"If-Match": '"x"'}),
            (E1, "GET", "/docs/999/revisions/0", None, {}),
            (E1, "GET", f"/docs/{gone}/revisions/99", None, {}),
            (E1, "POST", f"/docs/{gone}/revisions/9/restore", None, {}),
            (E2, "DELETE", "/docs/999", None, {}),
            (E2, "DELETE", f"/docs/{gone}", None, {})]:
        r = client.request(method, path, json=body, headers=headers | extra)
        rows.append([method, r.status_code, _body(r)])
    return rows


def probe_routing_errors(client):
    rows = []
    # Paths served by a single one-method route: Starlette's Allow names only the methods of
    # the first route matching the path, in set order when a route has several.
    for method, path in [("GET", "/nope"), ("GET", "/docs/1/history"),
                         ("PUT", "/docs/1/revisions"), ("DELETE", "/docs/1/revisions/1"),
                         ("GET", "/docs/1/revisions/1/restore")]:
        r = client.request(method, path, headers=E1)
        rows.append([method, path, r.status_code, _body(r), r.headers.get("allow"),
                     r.headers.get("content-type")])
    return rows


def probe_invalid_fields(client):
    doc = _doc(client)
    rows = []
    for body in [None, ["x"], "text", {}, {"title": "ok", "body": "", "author": "me"},
                 {"title": 5, "body": None, "tags": "x"}, {"title": "ok", "body": "", "tags": [1, "ok", "a b"]}]:
        r = client.post("/docs", json=body, headers=E1)
        rows.append([body, r.status_code, _body(r), r.headers.get("content-type")])
    for path in ["/docs?limit=0", "/docs?after=-1&limit=x", f"/docs/{doc}/revisions/0",
                 "/docs/abc/revisions/x"]:
        r = client.get(path, headers=E1)
        rows.append([path.replace(str(doc), "<id>"), r.status_code, _body(r)])
    return rows


def probe_title_rules(client):
    rows = []
    for title in ["  " + "t" * ${title_max} + "  ", "t" * ${title_max}, "t" * (${title_max} + 1),
                  "   ", "", " x ", "\\tTabbed\\n"]:
        r = client.post("/docs", json={"title": title, "body": ""}, headers=E1)
        rows.append([len(title), r.status_code,
                     r.json()["title"] if r.status_code == 201 else r.json()])
    return rows


def probe_body_rules(client):
    rows = []
    for body in ["", "b" * ${body_max}, "b" * (${body_max} + 1), "  spaced  ", 12]:
        r = client.post("/docs", json={"title": "body rules", "body": body}, headers=E1)
        rows.append([body if isinstance(body, int) else len(body), r.status_code,
                     r.json()["body"] if r.status_code == 201 else r.json()])
    return rows


def probe_tag_rules(client):
    rows = []
    for tags in [None, [], [" Alpha ", "alpha", "BETA"], ["a"] * (${tags_max} + 2),
                 [f"t{i}" for i in range(${tags_max})] + ["T0"],
                 [f"t{i}" for i in range(${tags_max} + 1)],
                 ["ok", "bad tag", "x" * 21, ""], ["x" * 20, "a-1"], [3]]:
        body = {"title": "tag rules", "body": ""} | ({} if tags is None else {"tags": tags})
        r = client.post("/docs", json=body, headers=E1)
        rows.append([tags, r.status_code, r.json()["tags"] if r.status_code == 201 else r.json()])
    return rows


def probe_create(client):
    r = client.post("/docs", json={"title": " Created ", "body": "b", "tags": ["x"]},
                    headers=E2)
    first = r.json()["id"]
    rows = [[r.status_code] + _row(r, first), [r.headers.get("location") == f"/docs/{first}"]]
    client.delete(f"/docs/{first}", headers=E2)
    r = client.post("/docs", json={"title": "next", "body": ""}, headers=E1)
    rows.append([r.status_code, r.json()["id"] - first, r.json()["revision"],
                 r.headers.get("location") == f"/docs/{first + 1}"])
    return rows


def probe_etags(client):
    doc = _doc(client)
    rows = [[_etag(client.get(f"/docs/{doc}", headers=V1), doc)]]
    put = client.put(f"/docs/{doc}", json={"title": "two", "body": ""},
                     headers=E1 | {"If-Match": "*"})
    rows.append([put.status_code, _etag(put, doc)])
    restored = client.post(f"/docs/{doc}/revisions/1/restore", headers=E1)
    rows.append([restored.status_code, _etag(restored, doc)])
    rows.append([_etag(client.get(f"/docs/{doc}", headers=E2), doc)])
    listed = client.get("/docs", headers=E1)
    rows.append([listed.status_code, listed.headers.get("etag")])
    return rows


def probe_if_none_match(client):
    doc = _doc(client)
    tag = _current(client, doc)
    rows = []
    for value in [tag, f'"zzz", {tag}', f'"zzz",{tag}', f"W/{tag}", "*", '"zzz"',
                  tag + "x", ""]:
        r = client.get(f"/docs/{doc}", headers=E1 | {"If-None-Match": value})
        rows.append([value.replace(str(doc), "<id>"), r.status_code, _body(r) is None,
                     _etag(r, doc)])
    client.put(f"/docs/{doc}", json={"title": "changed", "body": ""},
               headers=E1 | {"If-Match": tag})
    r = client.get(f"/docs/{doc}", headers=E1 | {"If-None-Match": tag})
    rows.append([r.status_code, _etag(r, doc)])
    return rows


def probe_head(client):
    doc = _doc(client)
    gone = _deleted(client)
    tag = _current(client, doc)
    rows = []
    for path, headers in [(f"/docs/{doc}", E1), (f"/docs/{doc}", V1 | {"If-None-Match": tag}),
                          ("/docs/999", E1), (f"/docs/{gone}", E1), (f"/docs/{doc}", {})]:
        r = client.head(path, headers=headers)
        rows.append([r.status_code, len(r.content), _etag(r, doc),
                     r.headers.get("www-authenticate")])
    return rows


def probe_if_match(client):
    doc = _doc(client)
    tag = _current(client, doc)
    body = {"title": "next", "body": ""}
    rows = []
    for value in [None, '"zzz"', f"W/{tag}", "", f'"zzz", {tag}', tag, " * "]:
        extra = {} if value is None else {"If-Match": value}
        r = client.put(f"/docs/{doc}", json=body, headers=E1 | extra)
        shown = value if value is None else value.replace(str(doc), "<id>")
        rows.append([shown, r.status_code, _body(r).get("revision", _body(r).get("code")),
                     _etag(r, doc)])
    return rows


def probe_put_replaces(client):
    doc = _doc(client, title="Old", body="old", tags=["keep", "more"])
    r = client.put(f"/docs/{doc}", json={"title": "  New  ", "body": "fresh"},
                   headers=E2 | {"If-Match": _current(client, doc)})
    rows = [_row(r, doc)]
    r = client.put(f"/docs/{doc}", json={"title": "Newer", "body": "", "tags": ["B", "a"]},
                   headers=E1 | {"If-Match": _current(client, doc)})
    rows.append(_row(r, doc))
    return rows


def probe_delete(client):
    doc = _doc(client)
    rows = [[client.delete(f"/docs/{doc}", headers=E2).status_code]]
    r = client.delete(f"/docs/{doc}", headers=E1)
    rows.append([r.status_code, r.content == b""])
    for method, path, extra in [("GET", f"/docs/{doc}", {}), ("PUT", f"/docs/{doc}", {"If-Match": "*"}),
                                ("DELETE", f"/docs/{doc}", {}),
                                ("GET", f"/docs/{doc}/revisions", {}),
                                ("GET", f"/docs/{doc}/revisions/1", {}),
                                ("POST", f"/docs/{doc}/revisions/1/restore", {})]:
        body = {"title": "again", "body": ""} if method == "PUT" else None
        r = client.request(method, path, json=body, headers=E1 | extra)
        rows.append([method, path.replace(str(doc), "<id>"), r.status_code, _body(r)])
    listed = client.get("/docs", params={"limit": ${limit_max}, "after": doc - 1}, headers=E1)
    rows.append([doc in [d["id"] for d in listed.json()]])
    return rows


def probe_revision_list(client):
    doc = _doc(client, title="one")
    for title in ["two", "three"]:
        client.put(f"/docs/{doc}", json={"title": title, "body": ""},
                   headers=E1 | {"If-Match": _current(client, doc)})
    return [[client.get(f"/docs/{doc}/revisions", headers=V1).json()]]


def probe_old_revisions(client):
    doc = _doc(client, title="first", body="v1", tags=["a", "b"])
    client.put(f"/docs/{doc}", json={"title": "second", "body": "v2"},
               headers=E1 | {"If-Match": _current(client, doc)})
    rows = []
    for n in [1, 2, 3, 0]:
        r = client.get(f"/docs/{doc}/revisions/{n}", headers=V1)
        rows.append([n, r.status_code, _body(r)])
    return rows


def probe_restore(client):
    doc = _doc(client, title="A", body="alpha", tags=["x"])
    client.put(f"/docs/{doc}", json={"title": "B", "body": "beta"},
               headers=E1 | {"If-Match": _current(client, doc)})
    rows = []
    for n in [1, 1, 3, 2, 9, 4]:
        r = client.post(f"/docs/{doc}/revisions/{n}/restore", headers=E2)
        rows.append([n] + _row(r, doc))
    rows.append([client.get(f"/docs/{doc}/revisions/1", headers=E1).json()])
    return rows


def _listed(client, params):
    r = client.get("/docs", params=params, headers=V1)
    return [d["title"] for d in r.json()] if r.status_code == 200 else [r.status_code, r.json()]


def probe_list_filters(client):
    mark = "filters"
    docs = [_doc(client, title=title, tags=[mark] + tags) for title, tags in
            [("Alpha plan", ["red"]), ("beta PLAN", []), ("Gamma", ["red", "blue"]),
             ("plan delta", ["blue"]), ("Epsilon", ["red"])]]
    client.delete(f"/docs/{docs[4]}", headers=E1)
    rows = []
    for params in [{"tag": mark}, {"tag": [mark, "red"]}, {"tag": [mark, " RED "]},
                   {"tag": mark, "q": "PLAN"}, {"tag": mark, "q": "  plan  "},
                   {"tag": mark, "q": ""}, {"tag": [mark, "red", "blue"]},
                   {"tag": mark, "q": "an d"}, {"tag": [mark, "green"]}]:
        rows.append([params, _listed(client, params | {"limit": ${limit_max}})])
    return rows


def probe_paging(client):
    mark = "paging"
    ids = [_doc(client, title=f"p{i}", tags=[mark]) for i in range(${limit_default} * 2 + 1)]
    rows = []
    for label, params in [("default", {}), ("after the second", {"after": ids[1]}),
                          ("last one", {"limit": 1, "after": ids[-2]}),
                          ("after the last", {"after": ids[-1]}),
                          ("widest", {"limit": ${limit_max}}),
                          ("too wide", {"limit": ${limit_max} + 1}), ("zero", {"limit": 0}),
                          ("negative after", {"after": -1}), ("after zero", {"after": 0})]:
        rows.append([label, _listed(client, {"tag": mark} | params)])
    return rows


def probe_next_links(client):
    mark = "links"
    ids = [_doc(client, title=f"Link {i}", tags=[mark, "x"]) for i in range(3)]

    def relative(link):
        if link is None:
            return None
        return re.sub(r"after=(\\d+)", lambda m: f"after=<{ids.index(int(m.group(1)))}>", link)

    rows = []
    for params in [{"tag": mark, "limit": 1}, {"limit": 2, "q": " link ", "tag": [mark, "X"]},
                   {"tag": mark, "limit": 3}, {"tag": mark, "limit": 2, "after": ids[0]},
                   {"q": "", "tag": mark, "limit": 1}, {"tag": mark},
                   {"tag": mark, "limit": 1, "after": ids[1]}, {"tag": mark, "q": "link 2"}]:
        r = client.get("/docs", params=params, headers=E1)
        shown = {k: ids.index(v) if k == "after" else v for k, v in params.items()}
        rows.append([shown, len(r.json()), relative(r.headers.get("link"))])
    return rows
'''

PROMPT = '''\
Build the HTTP API of a small document store that keeps every revision of every document. All
state is in memory and starts empty.

## Access
HTTP Basic authentication: `Authorization: Basic <base64 of name:password>`. The scheme word
may be in any case; the name ends at the first colon, the password is everything after it.
Names and passwords are case-sensitive.

| name | password | role |
|---|---|---|
| `${e1}` | `${p1}` | editor |
| `${e2}` | `${p2}` | editor |
| `${v1}` | `${pv}` | viewer |

Every route needs valid credentials (a path or method that no route serves is answered 404
or 405 first, whatever the credentials): a missing header, another scheme, credentials that are
not base64 or have no colon, an unknown name or a wrong password are 401 `unauthenticated`
with the header `WWW-Authenticate: Basic realm="${realm}"`. Viewers only read: every `POST`,
`PUT` and `DELETE` is 403 `read_only` for them.

## Errors
An error is the JSON object `{"code": <code>}` with the status given. An invalid request
(body, path or query) is 422 with `{"code": "invalid", "fields": [...]}`: for each problem,
its location without the first part (`body`, `query` or `path`), joined with dots (`title`,
`tags.1`, `limit`, `doc_id`), or just `body` when the body is missing or is not a JSON
object; sorted, without repeats. A path that matches no route is 404 `not_found`; a known path
with a method it does not serve is 405 `method_not_allowed`, keeping the `Allow` header.

Failures are checked in this order: credentials (401), role (403), the request's validity
(422), the document (404 `not_found` for an id never given out, ${gone_status} `deleted` for
a deleted document), its revision (404 `no_such_revision`), the author (403 `not_author`),
preconditions (428, 412), then conflicts (409).

## Documents
A document is shown as `{"id", "title", "body", "tags", "revision", "author"}`. Ids are 1, 2,
... in creation order and are never given out again. The body of `POST` and `PUT` has exactly
these fields:
- `title`: trimmed of surrounding whitespace, then 1 to ${title_max} characters;
- `body`: a string of at most ${body_max} characters, kept as given (it may be empty);
- `tags` (optional, default none): a list; each tag is trimmed and lowercased, then must be 1
  to 20 characters of `a-z`, `0-9` and `-`; repeats are dropped keeping the first; at most
  ${tags_max} may remain.

Every response that shows one document (in the shape above) carries the header
`ETag: "<id>${sep}<revision>"` (with the double quotes); revision views and lists carry none.
Revisions count from 1.

- `POST /docs`: 201 with the new document (revision 1, `author` the caller), its `ETag` and
  `Location: /docs/<id>`.
- `GET /docs/{doc_id}`: 200 with the document. When the request's `If-None-Match` is `*` or a
  comma-separated list of tags one of which is the current `ETag` (a `W/` prefix on a tag is
  ignored): 304 with an empty body and the `ETag`.
- `HEAD /docs/{doc_id}`: the status and headers `GET` would send, without a body.
- `PUT /docs/{doc_id}`: replaces the title, body and tags (omitted tags become none) and adds a
  revision; the author does not change. Needs `If-Match`: without it 428
  `precondition_required`; unless it is `*` or a comma-separated list of tags one of which is
  exactly the current `ETag` (a `W/` tag never matches), 412 `precondition_failed`. 200 with
  the document and its new `ETag`.
- `DELETE /docs/{doc_id}`: only by the document's author (other editors 403 `not_author`): 204
  with an empty body. Every later request about the document answers ${gone_status} `deleted`.
- `GET /docs/{doc_id}/revisions`: 200, `[{"revision", "title"}, ...]`, newest first.
- `GET /docs/{doc_id}/revisions/{n}`: `n` is an integer >= 1; 404 `no_such_revision` above the
  current revision; else 200 with `{"revision", "title", "body", "tags"}` as they were then.
- `POST /docs/{doc_id}/revisions/{n}/restore`: adds a revision whose title, body and tags are
  revision `n`'s: 200 with the document and its new `ETag`; 409 `already_current` when they
  already equal the current title, body and tags.
- `GET /docs`: 200, the documents not deleted, by id, filtered by the optional `q` (trimmed;
  part of the title, in any case) and `tag` (repeatable; a document must carry every tag
  given, compared trimmed and lowercased), after `after` (an integer >= 0: only documents with
  a higher id; default 0), at most `limit` (1 to ${limit_max}, default ${limit_default}). When
  more matching documents follow the page, the response has the header
  `Link: </docs?<query>>; rel="next"`, where `<query>` encodes, as an HTML form would (a space
  is `+`), in this order: `q` if the request had it, as given, each `tag` of the request as given,
  `limit` (the one used) and `after` (the id of the page's last document).

## result
One row per request, `[status code, JSON body or null when the body is empty, ETag or null]`:
1. `POST /docs` as `${e1}` with `{"title": "  ${title}  ", "body": "${body}", "tags": ["${tag}", " ${tag_up} "]}`
2. `PUT /docs/1` as `${e1}` with `{"title": "${title2}", "body": ""}` and `If-Match` set to row 1's `ETag`
3. `GET /docs/1/revisions/1` as `${v1}`
4. `DELETE /docs/1` as `${v1}`
'''

_PUT_HEAD = ('def replace(doc_id: int, body: DocIn, user: Editor, response: Response,\n'
             '            if_match_header: Annotated[str | None, Header(alias="If-Match")] = None):\n'
             '    doc = live_doc(doc_id)\n')

FAMILY = Family(
    id="service/document_revisions",
    title="A document store with revisions, conditional requests and cursor paging",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"e1": "ada", "p1": "Quill-42", "e2": "ben", "p2": "s3:cret", "v1": "cy",
              "pv": "ReadOnly", "realm": "docs", "sep": ".", "title_max": 60, "body_max": 200,
              "tags_max": 3, "limit_default": 2, "limit_max": 5, "gone_status": 410,
              "title": "Release notes", "body": "First draft.", "tag": "ops",
              "title2": "Release notes v2"},
    space={
        "people": [{"e1": "ada", "p1": "Quill-42", "e2": "ben", "p2": "s3:cret", "v1": "cy",
                    "pv": "ReadOnly"},
                   {"e1": "noor", "p1": "Lamp-7", "e2": "omar", "p2": "x:y:Z9", "v1": "pia",
                    "pv": "View-Only"}],
        "realm": ["docs", "handbook"],
        "sep": [".", "-v"],
        "title_max": [60, 40],
        "body_max": [200, 120],
        "tags_max": [3, 4],
        "paging": [{"limit_default": 2, "limit_max": 5}, {"limit_default": 3, "limit_max": 8}],
        "gone_status": [410, 404],
        "content": [{"title": "Release notes", "body": "First draft.", "tag": "ops",
                     "title2": "Release notes v2"},
                    {"title": "Onboarding", "body": "Read me.", "tag": "hr",
                     "title2": "Onboarding guide"}],
    },
    derive=lambda p: {"tag_up": p["tag"].upper()},
    instances=14,
    requirements=(
        Requirement("Missing, malformed or wrong credentials are 401 `unauthenticated` with "
                    '`WWW-Authenticate: Basic realm="${realm}"`, before anything else; names '
                    "and passwords are case-sensitive.",
                    probes="bad_credentials",
                    traps=(Edit("challenge without realm", """{"WWW-Authenticate": 'Basic realm="${realm}"'}""",
                                """{"WWW-Authenticate": "Basic"}"""),
                           Edit("passwords compared in any case",
                                "USERS[creds[0]][0] != creds[1]",
                                "USERS[creds[0]][0].lower() != creds[1].lower()"))),
        Requirement("The scheme word may be in any case, and a password is everything after "
                    "the first colon.",
                    probes="good_credentials",
                    traps=(Edit("scheme compared exactly", 'if scheme.lower() != "basic":',
                                'if scheme != "Basic":'),
                           Edit("credentials split at every colon",
                                'name, colon, password = decoded.partition(":")',
                                'name, password = decoded.split(":")\n    colon = ":"'))),
        Requirement("Viewers only read: every `POST`, `PUT` and `DELETE` is 403 `read_only`, "
                    "restore included, before validation.",
                    probes="viewers_only_read",
                    traps=(Edit("viewers restore", "def restore(doc_id: int, n: Annotated[int, Path(ge=1)], user: Editor,",
                                "def restore(doc_id: int, n: Annotated[int, Path(ge=1)], user: Reader,"),
                           Edit("role checked after validation",
                                "def create(body: DocIn, user: Editor, response: Response):\n",
                                "def create(body: DocIn, user: Reader, response: Response):\n"
                                "    editor(user)\n"))),
        Requirement("Failures come in the stated order: 401, 403, 422, the document, its "
                    "revision, the author, preconditions, conflicts.",
                    probes="failure_order",
                    traps=(Edit("document looked up before validation", _PUT_HEAD,
                                'def replace(doc: Annotated[dict, Depends(live_doc)], body: DocIn, user: Editor,\n'
                                '            response: Response,\n'
                                '            if_match_header: Annotated[str | None, Header(alias="If-Match")] = None):\n'),
                           Edit("precondition before the document", _PUT_HEAD,
                                _PUT_HEAD.replace("    doc = live_doc(doc_id)\n", "")
                                + "    if if_match_header is None:\n"
                                '        raise Refusal(428, "precondition_required")\n'
                                "    doc = live_doc(doc_id)\n"),
                           Edit("author checked before the document",
                                "    doc = live_doc(doc_id)\n    if doc[\"author\"] != user[\"name\"]:",
                                "    doc = DOCS.get(doc_id, {})\n    if doc and doc[\"author\"] != user[\"name\"]:\n"
                                '        raise Refusal(403, "not_author")\n    doc = live_doc(doc_id)\n'
                                "    if doc[\"author\"] != user[\"name\"]:"))),
        Requirement("Unknown paths are 404 `not_found`, unserved methods 405 "
                    "`method_not_allowed` with `Allow`, as JSON `{\"code\"}`.",
                    probes="routing_errors",
                    traps=(router_errors_in_fastapi_format(),
                           Edit("Allow dropped",
                                'return JSONResponse({"code": code}, status_code=exc.status_code, headers=exc.headers)',
                                'return JSONResponse({"code": code}, status_code=exc.status_code)'))),
        Requirement("Invalid requests are 422 `invalid` with the sorted, unrepeated `fields` "
                    "(location without its first part, dotted; `body` for a missing or "
                    "non-object body).",
                    probes="invalid_fields",
                    traps=(Edit("location keeps its source",
                                'return ".".join(str(part) for part in loc[1:]) or str(loc[0])',
                                'return ".".join(str(part) for part in loc)'),
                           Edit("fields in error order",
                                'fields = sorted({field_name(e["loc"]) for e in exc.errors()})',
                                'fields = list(dict.fromkeys(field_name(e["loc"]) for e in exc.errors()))'),
                           Edit("unknown fields ignored", 'model_config = ConfigDict(extra="forbid")',
                                'model_config = ConfigDict(extra="ignore")'))),
        Requirement("A title is trimmed, then 1 to ${title_max} characters.",
                    probes="title_rules",
                    traps=(Edit("title length checked before trimming",
                                "    value = value.strip()\n    if not 1 <= len(value) <= ${title_max}:\n"
                                '        raise ValueError("a title is 1 to ${title_max} characters once trimmed")\n',
                                "    if not 1 <= len(value) <= ${title_max}:\n"
                                '        raise ValueError("a title is 1 to ${title_max} characters once trimmed")\n'
                                "    value = value.strip()\n"),
                           Edit("title stored untrimmed",
                                "    value = value.strip()\n    if not 1 <= len(value) <= ${title_max}:",
                                "    if not 1 <= len(value.strip()) <= ${title_max}:"))),
        Requirement("A body is a string of at most ${body_max} characters, kept as given, "
                    "possibly empty.",
                    probes="body_rules",
                    traps=(Edit("empty body refused", "body: str = Field(max_length=${body_max})",
                                "body: str = Field(min_length=1, max_length=${body_max})"),
                           Edit("body unbounded", "body: str = Field(max_length=${body_max})",
                                "body: str"))),
        Requirement("Tags are trimmed and lowercased, each 1-20 of `a-z0-9-` (reported as "
                    "`tags.<i>`), repeats dropped keeping the first, at most ${tags_max} left.",
                    probes="tag_rules",
                    traps=(Edit("repeats counted against the limit",
                                "    kept = list(dict.fromkeys(tags))\n    if len(kept) > ${tags_max}:",
                                "    kept = list(dict.fromkeys(tags))\n    if len(tags) > ${tags_max}:"),
                           Edit("tags validated as a whole list",
                                "tags: Annotated[list[Tag], AfterValidator(without_repeats)] = []",
                                "tags: Annotated[list, AfterValidator(lambda t: without_repeats("
                                "[__import__('pydantic').TypeAdapter(Tag).validate_python(x) for x in t]))] = []"),
                           Edit("repeats sorted", "kept = list(dict.fromkeys(tags))",
                                "kept = sorted(set(tags))"),
                           Edit("tags kept in their case", "return value.strip().lower() if isinstance(value, str) else value",
                                "return value.strip() if isinstance(value, str) else value"))),
        Requirement("`POST /docs` answers 201 with revision 1, the caller as author and "
                    "`Location`; ids are never given out again.",
                    probes="create",
                    traps=(Edit("no Location", '    response.headers["Location"] = f"/docs/{doc[\'id\']}"\n', ""),
                           Edit("ids from the live count",
                                '    doc = {"id": NEXT_ID[0], "author"',
                                '    NEXT_ID[0] = sum(not d["deleted"] for d in DOCS.values()) + 1\n'
                                '    doc = {"id": NEXT_ID[0], "author"'))),
        Requirement('Every response showing one document has `ETag: "<id>${sep}<revision>"`, '
                    "restore included; lists have none.",
                    probes="etags",
                    traps=(Edit("ETag without quotes",
                                """return f'"{doc["id"]}${sep}{len(doc["revisions"])}"'""",
                                """return f'{doc["id"]}${sep}{len(doc["revisions"])}'"""),
                           Edit("restore without ETag",
                                '    doc["revisions"].append({**old, "tags": list(old["tags"])})\n    return shown(doc, response)',
                                '    doc["revisions"].append({**old, "tags": list(old["tags"])})\n    return public(doc)'))),
        Requirement("`If-None-Match` with `*` or a list holding the current ETag (`W/` ignored) "
                    "is 304 with an empty body and the ETag.",
                    probes="if_none_match",
                    traps=(Edit("weak tags never match",
                                'return etag(doc) in [tag.removeprefix("W/") for tag in listed_tags(header)]',
                                "return etag(doc) in listed_tags(header)"),
                           Edit("If-None-Match compared whole",
                                'return etag(doc) in [tag.removeprefix("W/") for tag in listed_tags(header)]',
                                'return etag(doc) == header.removeprefix("W/")'),
                           Edit("star ignored",
                                '    if header.strip() == "*":\n        return True\n    return etag(doc) in [tag',
                                "    return etag(doc) in [tag"))),
        Requirement("`HEAD /docs/{doc_id}` answers as `GET` would, without a body.",
                    probes="head",
                    traps=head_not_served('@app.api_route("/docs/{doc_id}", methods=["GET", "HEAD"])')),
        Requirement("`PUT` needs `If-Match` (428 without; 412 unless `*` or a list holding "
                    "exactly the current ETag, `W/` never matching).",
                    probes="if_match",
                    traps=(Edit("If-Match optional",
                                "    if if_match_header is None:\n        raise Refusal(428, \"precondition_required\")\n"
                                "    if not if_match(if_match_header, doc):",
                                "    if if_match_header is not None and not if_match(if_match_header, doc):"),
                           Edit("weak tags match",
                                'return header.strip() == "*" or etag(doc) in listed_tags(header)',
                                'return header.strip() == "*" or etag(doc) in '
                                '[t.removeprefix("W/") for t in listed_tags(header)]'),
                           Edit("an empty If-Match counts as none",
                                "    if if_match_header is None:\n        raise Refusal(428",
                                "    if not if_match_header:\n        raise Refusal(428"))),
        Requirement("`PUT` replaces title, body and tags (omitted tags become none) as a new "
                    "revision; the author stays.",
                    probes="put_replaces",
                    traps=(Edit("omitted tags kept",
                                "    doc[\"revisions\"].append(body.model_dump())\n    return shown(doc, response)\n\n\n@app.delete",
                                "    changes = body.model_dump(exclude_unset=True)\n"
                                "    doc[\"revisions\"].append({**doc[\"revisions\"][-1], **changes})\n"
                                "    return shown(doc, response)\n\n\n@app.delete"),
                           Edit("last editor becomes the author",
                                "    doc[\"revisions\"].append(body.model_dump())\n    return shown(doc, response)\n\n\n@app.delete",
                                "    doc[\"revisions\"].append(body.model_dump())\n    doc[\"author\"] = user[\"name\"]\n"
                                "    return shown(doc, response)\n\n\n@app.delete"))),
        Requirement("Only a document's author deletes it (204, empty); afterwards every request "
                    "about it is ${gone_status} `deleted` and lists omit it.",
                    probes="delete",
                    traps=(Edit("any editor deletes",
                                '    if doc["author"] != user["name"]:\n        raise Refusal(403, "not_author")\n', ""),
                           Edit("deleted documents forgotten", '    doc["deleted"] = True\n',
                                "    del DOCS[doc_id]\n"))),
        Requirement("`GET /docs/{doc_id}/revisions` lists revision numbers and titles, newest "
                    "first.",
                    probes="revision_list",
                    traps=Edit("oldest first",
                               'return [{"revision": n, "title": r["title"]} for n, r in reversed(numbered)]',
                               'return [{"revision": n, "title": r["title"]} for n, r in numbered]')),
        Requirement("`GET /docs/{doc_id}/revisions/{n}` shows revision `n` as it was; `n` >= 1; "
                    "404 `no_such_revision` above the current one.",
                    probes="old_revisions",
                    traps=(Edit("revision numbers unbounded below",
                                "def revision(doc_id: int, n: Annotated[int, Path(ge=1)], user: Reader):",
                                "def revision(doc_id: int, n: int, user: Reader):"),
                           Edit("a revision beyond the current is the current",
                                "    if n > len(doc[\"revisions\"]):\n        raise Refusal(404, \"no_such_revision\")\n"
                                "    return doc[\"revisions\"][n - 1]",
                                "    return doc[\"revisions\"][min(n, len(doc[\"revisions\"])) - 1]"))),
        Requirement("Restoring adds a revision with revision `n`'s content; 409 "
                    "`already_current` when that content is already current.",
                    probes="restore",
                    traps=Edit("already current by number",
                               'if old == doc["revisions"][-1]:',
                               'if n == len(doc["revisions"]):')),
        Requirement("`GET /docs` lists live documents by id, filtered by `q` (trimmed, any case) "
                    "and every `tag` (trimmed, lowercased).",
                    probes="list_filters",
                    traps=(Edit("q case-sensitive",
                                'needle in d["revisions"][-1]["title"].lower()',
                                'needle in d["revisions"][-1]["title"]'),
                           Edit("any tag matches", 'and wanted <= set(d["revisions"][-1]["tags"])',
                                'and (not wanted or wanted & set(d["revisions"][-1]["tags"]))'),
                           Edit("q untrimmed", 'needle = (q or "").strip().lower()',
                                'needle = (q or "").lower()'),
                           Edit("deleted documents listed",
                                'if not d["deleted"] and d["id"] > after', 'if d["id"] > after'),
                           Edit("Swagger UI left at /docs", "app = FastAPI(docs_url=None)",
                                "app = FastAPI()"))),
        Requirement("Pages start after `after` (>= 0, default 0) and hold at most `limit` "
                    "(1-${limit_max}, default ${limit_default}) documents.",
                    probes="paging",
                    traps=(Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"),
                           Edit("after inclusive", 'and d["id"] > after', 'and d["id"] >= after'),
                           Edit("negative after allowed", "after: Annotated[int, Query(ge=0)] = 0",
                                "after: int = 0"))),
        Requirement('A page with more matches after it has `Link: </docs?...>; rel="next"` '
                    "with `q`, each `tag`, `limit` and `after`, form-encoded, in that order.",
                    probes="next_links",
                    traps=(Edit("link on every full page", "    if len(matching) > limit:",
                                "    if len(page) == limit:"),
                           Edit("filters dropped from the link",
                                '        params = [("q", q)] if q is not None else []\n'
                                '        params += [("tag", t) for t in tag] + [("limit", limit), ("after", page[-1]["id"])]',
                                '        params = [("limit", limit), ("after", page[-1]["id"])]'),
                           Edit("spaces encoded as %20",
                                "response.headers[\"Link\"] = f'</docs?{urlencode(params)}>; rel=\"next\"'",
                                "response.headers[\"Link\"] = f'</docs?{urlencode(params, quote_via=__import__(\"urllib.parse\").parse.quote)}>; rel=\"next\"'"),
                           Edit("empty q left out of the link",
                                '        params = [("q", q)] if q is not None else []',
                                '        params = [("q", q)] if q else []'))),
    ),
)
