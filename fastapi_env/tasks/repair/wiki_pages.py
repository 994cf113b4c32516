"""Repair tier: a wiki with nested page slugs, revisions and conditional requests, a package of
six modules in /workspace with nine planted bugs (the list route declared as "/" under its
prefix, so `GET /pages` is a 307 redirect; a source URL typed as HttpUrl, which normalises it;
an ETag set on the injected Response while the route returns its own JSONResponse; an
If-None-Match compared as a whole; the raw view returned without a media type, so it has no
Content-Type; a response model with exclude_unset, dropping the defaults of fields never sent;
the `{slug:path}` page route declared before `{slug:path}/raw`, which it swallows; a yield
dependency that catches the route's errors without re-raising them, so they become 500s; a
missing If-Match let through). Each bug is one requirement's trap; the setup is the reference
with all of them."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""A wiki: pages under nested slugs, each edit a new revision, with ETags for caches."""
'''

MODELS = '''\
from typing import Annotated

from pydantic import AfterValidator, BaseModel, HttpUrl, StringConstraints, TypeAdapter

_HTTP_URL = TypeAdapter(HttpUrl)


def checked_url(url: str) -> str:
    _HTTP_URL.validate_python(url)  # refuses what is not an http(s) URL
    return url


Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+(/[a-z0-9-]+)*$$", max_length=60)]
Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                         max_length=${max_title})]
Source = Annotated[str, AfterValidator(checked_url)]


class PageIn(BaseModel):
    slug: Slug
    title: Title
    body: str
    tags: list[str] = []
    source: Source | None = None


class PageEdit(BaseModel):
    title: Title
    body: str
    tags: list[str] = []
    source: Source | None = None


class Page(BaseModel):
    slug: str
    title: str
    body: str
    tags: list[str] = []
    source: str | None = None
    revision: int


class Listed(BaseModel):
    slug: str
    title: str
    revision: int
'''

STORE = '''\
PAGES: dict[str, dict] = {}  # slug -> the current revision of the page
ETAG_PREFIX = "${etag_prefix}"


def etag(page: dict) -> str:
    return f'"{ETAG_PREFIX}{page["revision"]}"'


class Transaction:
    """Writes are staged and reach PAGES only on commit()."""

    def __init__(self):
        self.staged: dict[str, dict | None] = {}

    def put(self, slug: str, page: dict | None) -> None:
        self.staged[slug] = page

    def commit(self) -> None:
        for slug, page in self.staged.items():
            if page is None:
                PAGES.pop(slug, None)
            else:
                PAGES[slug] = page
'''

DEPS = '''\
from typing import Annotated

from fastapi import Depends

from . import store


def transaction():
    tx = store.Transaction()
    try:
        yield tx
    except Exception:
        tx.staged.clear()
        raise
    tx.commit()


Tx = Annotated[store.Transaction, Depends(transaction)]
'''

# The two GET routes of one page, in the order that matters: `{slug:path}` also matches `.../raw`.
RAW_ROUTE = '''\
@router.get("/{slug:path}/raw")
def raw_page(slug: str) -> Response:
    page = find(slug)
    headers = {"ETag": store.etag(page)}
    return Response(page["body"], media_type="text/markdown", headers=headers)
'''

VIEW_ROUTE = '''\
@router.get("/{slug:path}", response_model=Page)
def read_page(slug: str, response: Response,
              if_none_match: Annotated[str | None, Header()] = None):
    page = find(slug)
    tag = store.etag(page)
    if matches(if_none_match, tag):
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return page
'''

PAGES = '''\
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Response
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse

from . import store
from .deps import Tx
from .models import Listed, Page, PageEdit, PageIn

router = APIRouter(prefix="/pages")


def find(slug: str) -> dict:
    page = store.PAGES.get(slug)
    if page is None:
        raise HTTPException(404, "page not found")
    return page


def matches(if_none_match: str | None, tag: str) -> bool:
    """If-None-Match: `*` or a comma-separated list of entity tags."""
    if if_none_match is None:
        return False
    return any(part.strip() in ("*", tag) for part in if_none_match.split(","))


@router.post("", status_code=201, response_model=Page)
def create_page(body: PageIn, response: Response, tx: Tx):
    if body.slug in store.PAGES:
        raise HTTPException(409, "page exists")
    page = body.model_dump(mode="json", exclude_unset=True) | {"revision": 1}
    tx.put(body.slug, page)
    response.headers["Location"] = f"/pages/{body.slug}"
    response.headers["ETag"] = store.etag(page)
    return page


@router.get("")
def list_pages() -> list[Listed]:
    return [store.PAGES[slug] for slug in sorted(store.PAGES)]


''' + RAW_ROUTE + '\n\n' + VIEW_ROUTE + '''

@router.put("/{slug:path}", response_model=Page)
def edit_page(slug: str, body: PageEdit, response: Response, tx: Tx,
              if_match: Annotated[str | None, Header()] = None):
    page = find(slug)
    if if_match is None:
        raise HTTPException(428, "If-Match required")
    if if_match != store.etag(page):
        raise HTTPException(412, "revision mismatch")
    edited = body.model_dump(mode="json", exclude_unset=True) | {
        "slug": slug, "revision": page["revision"] + 1}
    tx.put(slug, edited)
    response.headers["ETag"] = store.etag(edited)
    return edited


@router.delete("/{slug:path}", status_code=204)
def delete_page(slug: str, tx: Tx) -> None:
    find(slug)
    tx.put(slug, None)
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from wiki.pages import router

app = FastAPI()
app.include_router(router)''' + RESULT_CLIENT + '''\
made = client.post("/pages", json={"slug": "${slug1}", "title": "${title1}",
                                   "body": "${body1}", "source": "${source1}"})
edited = client.put("/pages/${slug1}", headers={"If-Match": made.headers.get("etag", "")},
                    json={"title": "${title2}", "body": "${body2}", "tags": ${tags2__json}})
shown = client.get("/pages/${slug1}")
result = [
    [made.status_code, body(made), made.headers.get("etag")],
    [edited.status_code, body(edited), edited.headers.get("etag")],
    [shown.status_code, body(shown), shown.headers.get("etag")],
]
'''

_in = editor("wiki")

_LIST_REDIRECTS = _in("pages", "list route declared with a trailing slash",
                      '@router.get("")\ndef list_pages', '@router.get("/")\ndef list_pages')
_URL_NORMALISED = _in("models", "source typed as HttpUrl", "    source: Source | None = None\n\n\n"
                      "class PageEdit", "    source: HttpUrl | None = None\n\n\nclass PageEdit")
_ETAG_LOST = _in("pages", "ETag set on the injected response, JSONResponse returned",
                 '    response.headers["ETag"] = tag\n    return page\n',
                 '    response.headers["ETag"] = tag\n'
                 '    return JSONResponse(jsonable_encoder(Page(**page)))\n')
_WHOLE_HEADER = _in("pages", "If-None-Match compared as a whole",
                    'return any(part.strip() in ("*", tag) for part in if_none_match.split(","))',
                    'return if_none_match in ("*", tag)')
_RAW_UNTYPED = _in("pages", "raw view without a media type",
                   'return Response(page["body"], media_type="text/markdown", headers=headers)',
                   'return Response(page["body"], headers=headers)')
_DEFAULTS_DROPPED = _in("pages", "page view with exclude_unset",
                        '@router.get("/{slug:path}", response_model=Page)',
                        '@router.get("/{slug:path}", response_model=Page, '
                        'response_model_exclude_unset=True)')
_RAW_SHADOWED = _in("pages", "page route declared before the raw route",
                    RAW_ROUTE + "\n\n" + VIEW_ROUTE, VIEW_ROUTE + "\n\n" + RAW_ROUTE)
_ERRORS_SWALLOWED = _in("deps", "transaction swallows the route's errors", '''\
    except Exception:
        tx.staged.clear()
        raise
    tx.commit()''', '''\
    except Exception:
        tx.staged.clear()
    else:
        tx.commit()''')
_IF_MATCH_OPTIONAL = _in("pages", "a missing If-Match is let through", '''\
    if if_match is None:
        raise HTTPException(428, "If-Match required")
    if if_match != store.etag(page):''', '''\
    if if_match is not None and if_match != store.etag(page):''')

FILES = {"wiki/__init__.py": INIT, "wiki/models.py": MODELS, "wiki/store.py": STORE,
         "wiki/deps.py": DEPS, "wiki/pages.py": PAGES}
# The route move first: the edits after it change lines it moves.
PLANTED = (_RAW_SHADOWED, _LIST_REDIRECTS, _URL_NORMALISED, _ETAG_LOST, _WHOLE_HEADER,
           _DEFAULTS_DROPPED, _RAW_UNTYPED, _ERRORS_SWALLOWED, _IF_MATCH_OPTIONAL)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
PREFIX = "${etag_prefix}"
MAX_TITLE = ${max_title}


def _page(client, slug, **fields):
    return client.post("/pages", json={"slug": slug, "title": fields.pop("title", "T"),
                                       "body": fields.pop("body", "text"), **fields})


def _tagged(r):
    return [r.status_code, _body(r), r.headers.get("etag")]


def probe_list_answers_directly(client):
    _page(client, "${nest}/zeta", title="Zeta")
    _page(client, "alpha", title="Alpha")
    r = client.get("/pages", follow_redirects=False)
    return [[r.status_code, r.headers.get("location")],
            [[p for p in _body(r) if p["slug"] in ("alpha", "${nest}/zeta")]
             if r.status_code == 200 else None]]


def probe_source_kept_as_sent(client):
    rows = []
    for n, source in enumerate(["${source2}", "https://example.org", "ftp://example.org/x",
                                "not a url", None]):
        r = _page(client, f"source-{n}", source=source)
        rows.append([source, r.json().get("source") if r.status_code == 201 else _brief(r)])
    r = client.put("/pages/source-1", headers={"If-Match": f'"{PREFIX}1"'},
                   json={"title": "T", "body": "b", "source": "${source2}"})
    rows.append([r.status_code, _body(r).get("source") if r.status_code == 200 else None])
    return rows


def probe_page_view_has_etag(client):
    _page(client, "${nest}/etag")
    r = client.get("/pages/${nest}/etag")
    rows = [[r.status_code, _body(r).get("revision"), r.headers.get("etag")]]
    client.put("/pages/${nest}/etag", headers={"If-Match": f'"{PREFIX}1"'},
               json={"title": "Again", "body": "two"})
    r = client.get("/pages/${nest}/etag")
    rows.append([r.status_code, _body(r).get("revision"), r.headers.get("etag")])
    return rows


def probe_if_none_match(client):
    _page(client, "cached")
    rows = []
    for value in [f'"{PREFIX}1"', "*", f'"{PREFIX}9", "{PREFIX}1"', f'"{PREFIX}9"',
                  f'"{PREFIX}9","{PREFIX}1"', f"{PREFIX}1", ""]:
        r = client.get("/pages/cached", headers={"If-None-Match": value})
        # the ETag of a 304 only: a 200's is another requirement's
        etag = r.headers.get("etag") if r.status_code == 304 else None
        rows.append([value, r.status_code, etag, bool(r.content)])
    return rows


def probe_raw_view(client):
    _page(client, "${nest}/raw-doc", body="${body1}")
    r = client.get("/pages/${nest}/raw-doc/raw")
    rows = [[r.status_code, r.text, r.headers.get("content-type"), r.headers.get("etag")]]
    rows.append(_row(client.get("/pages/nothing/raw")))
    return rows


def probe_raw_route_reachable(client):
    _page(client, "${nest}/deep/page", body="deep body")
    _page(client, "${nest}/deep", body="shallow body")
    return [[client.get("/pages/${nest}/deep/page/raw").text],
            [client.get("/pages/${nest}/deep/raw").text],
            [client.get("/pages/${nest}/deep").json().get("body")]]


def probe_defaults_shown(client):
    _page(client, "plain")
    rows = [_row(client.get("/pages/plain"))]
    client.put("/pages/plain", headers={"If-Match": f'"{PREFIX}1"'},
               json={"title": "Plain", "body": "b", "tags": ["x"], "source": "${source2}"})
    client.put("/pages/plain", headers={"If-Match": f'"{PREFIX}2"'},
               json={"title": "Plain", "body": "c"})
    rows.append(_row(client.get("/pages/plain")))
    return rows


def probe_errors_stay_errors(client):
    _page(client, "guarded")
    rows = [_row(client.put("/pages/nothing", headers={"If-Match": "*"},
                            json={"title": "T", "body": "b"})),
            _row(client.put("/pages/nothing", json={"title": "T", "body": "b"})),
            _row(client.put("/pages/guarded", headers={"If-Match": f'"{PREFIX}7"'},
                            json={"title": "T", "body": "b"})),
            _row(client.delete("/pages/nothing")),
            [client.get("/pages/guarded").json()["revision"]]]
    r = client.delete("/pages/guarded")
    rows.append([r.status_code, r.content.decode()])
    rows.append(_row(client.get("/pages/guarded")))
    return rows


def probe_if_match_required(client):
    _page(client, "locked")
    edit = {"title": "New", "body": "b"}
    rows = [_row(client.put("/pages/locked", json=edit)),
            _row(client.put("/pages/locked", headers={"If-Match": f'"{PREFIX}2"'}, json=edit)),
            [client.get("/pages/locked").json()["revision"]]]
    r = client.put("/pages/locked", headers={"If-Match": f'"{PREFIX}1"'}, json=edit)
    rows.append(_tagged(r))
    rows.append(_row(client.put("/pages/locked", headers={"If-Match": f'"{PREFIX}1"'}, json=edit)))
    return rows


def probe_create_rules(client):
    rows = []
    for slug, title in [("Upper", "T"), ("a//b", "T"), ("trail/", "T"), ("ok-slug", "  "),
                        ("ok-slug", "t" * (MAX_TITLE + 1)), ("ok-slug", " " + "t" * MAX_TITLE)]:
        r = _page(client, slug, title=title)
        rows.append([slug, len(title), r.json()["title"] if r.status_code == 201 else _brief(r)])
    r = _page(client, "ok-slug", title="Dup")
    rows.append([r.status_code, _body(r), r.headers.get("location")])
    r = _page(client, "${nest}/made", title="Made")
    rows.append([r.status_code, r.headers.get("location"), r.headers.get("etag")])
    return rows
'''

_SETS = {
    "pages": [
        {"slug1": "guides/install", "title1": "Installing", "body1": "# Install\\nRun it.",
         "source1": "HTTPS://Docs.Example.com/Install?lang=en",
         "source2": "http://WIKI.example.net", "title2": "  Installation  ",
         "body2": "Run the installer.", "tags2": ["setup", "howto"], "nest": "guides"},
        {"slug1": "teams/ops/oncall", "title1": "On call", "body1": "Pager *rota*",
         "source1": "https://intranet.example.com:443/ops",
         "source2": "HTTP://Example.COM/a/../b", "title2": "On-call rota",
         "body2": "Weekly, Monday to Monday.", "tags2": [], "nest": "teams/ops"},
        {"slug1": "api/v2/auth", "title1": "Auth", "body1": "Tokens: `Bearer`",
         "source1": "https://api.example.io/v2/#auth",
         "source2": "https://example.io:8443", "title2": "Authentication",
         "body2": "Use a bearer token.", "tags2": ["api"], "nest": "api/v2"},
    ],
    "rules": [{"etag_prefix": "r", "max_title": 40}, {"etag_prefix": "rev-", "max_title": 60},
              {"etag_prefix": "v", "max_title": 25}],
}

PROMPT = '''\
`/workspace` holds a small wiki: `solution.py` and the package `wiki/` it imports
(`models.py`, `store.py`, `deps.py`, `pages.py`). It should behave as described below but does
not, in several ways. Find and fix every deviation (edit or rewrite any file); `solution.py`
must keep defining `app` and `result`. State lives in memory and carries from one request to
the next; there are no pages at start. Errors are FastAPI's standard `{"detail": <message>}`
(request validation: its standard 422).

**Pages** live under a slug of one or more segments separated by `/` (each segment lower-case
letters, digits and `-`; at most 60 characters in all), e.g. `${slug1}`. A page is shown as
`{"slug", "title", "body", "tags", "source", "revision"}`, every key always present (`tags`
is `[]` and `source` null unless set). `title` is trimmed and must then be 1 to ${max_title}
characters; `body` any string; `tags` a list of strings; `source` null or an http(s) URL, shown
exactly as it was sent (not normalised in any way). Each page's current revision has the ETag
`"${etag_prefix}<revision>"` (with the double quotes); revisions count 1, 2, 3, ...

- `POST /pages` with `{"slug", "title", "body", "tags"?, "source"?}`: 201 with the page
  (revision 1), `Location: /pages/<slug>` and its `ETag`; a slug already used is 409
  `page exists`.
- `GET /pages`: 200 with `[{"slug", "title", "revision"}, ...]` in slug order, answered
  directly (never a redirect).
- `GET /pages/<slug>`: 200 with the page and its `ETag`. When `If-None-Match` is `*` or a
  comma-separated list of ETags one of which is the current one, 304 with the `ETag` and no
  body instead.
- `GET /pages/<slug>/raw`: 200 with just the body, as `Content-Type: text/markdown;
  charset=utf-8`, with the `ETag`.
- `PUT /pages/<slug>` with `{"title", "body", "tags"?, "source"?}` replaces the page (unsent
  `tags` and `source` go back to `[]` and null) as the next revision: 200 with the page and its
  new `ETag`. It needs `If-Match` with the current ETag: missing is 428 `If-Match required`,
  any other value 412 `revision mismatch` (an unknown page is 404 first).
- `DELETE /pages/<slug>`: 204 with no body.
- An unknown page is 404 `page not found` on every route; a failed request changes nothing.

`result` has three rows, each `[status, body, ETag header]`:
1. `POST /pages` with `{"slug": "${slug1}", "title": "${title1}", "body": "${body1}",
   "source": "${source1}"}`
2. `PUT /pages/${slug1}` with `If-Match` set to the ETag of row 1 and `{"title": "${title2}",
   "body": "${body2}", "tags": ${tags2__json}}`
3. `GET /pages/${slug1}`
'''

FAMILY = repair_family(
    id="repair/wiki_pages",
    title="Repair a wiki with nested pages, revisions and ETags that misbehaves",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_SETS["pages"][0], **_SETS["rules"][0]},
    space=_SETS,
    instances=9,
    requirements=(
        Requirement("`GET /pages` answers 200 directly, never a redirect.",
                    probes=("list_answers_directly",), traps=(_LIST_REDIRECTS,)),
        Requirement("`source` is shown exactly as sent; only http(s) URLs are accepted.",
                    probes=("source_kept_as_sent",), traps=(_URL_NORMALISED,)),
        Requirement("`GET /pages/<slug>` sends the page's current `ETag`.",
                    probes=("page_view_has_etag",), traps=(_ETAG_LOST,)),
        Requirement("`If-None-Match` with `*` or a list holding the current ETag is 304 with "
                    "the ETag and no body.",
                    probes=("if_none_match",), traps=(_WHOLE_HEADER,)),
        Requirement("The raw view is the body as `text/markdown; charset=utf-8` with the ETag.",
                    probes=("raw_view",), traps=(_RAW_UNTYPED,)),
        Requirement("`/raw` is reachable under nested slugs, whatever pages exist.",
                    probes=("raw_route_reachable",), traps=(_RAW_SHADOWED,)),
        Requirement("A page always shows every key, `tags` `[]` and `source` null when unset.",
                    probes=("defaults_shown",), traps=(_DEFAULTS_DROPPED,)),
        Requirement("Failed edits and deletes are their stated 404 and 412, and change nothing; "
                    "a delete is 204 without a body.",
                    probes=("errors_stay_errors",), traps=(_ERRORS_SWALLOWED,)),
        Requirement("An edit without `If-Match` is 428, with a stale one 412; the right one "
                    "makes the next revision.",
                    probes=("if_match_required",), traps=(_IF_MATCH_OPTIONAL,)),
        Requirement("Slugs and titles follow their stated rules; a used slug is 409.",
                    probes=("create_rules",),
                    traps=(_in("models", "titles not trimmed",
                               "StringConstraints(strip_whitespace=True, min_length=1,",
                               "StringConstraints(min_length=1,"),
                           _in("pages", "create overwrites a used slug", '''\
    if body.slug in store.PAGES:
        raise HTTPException(409, "page exists")
''', ""))),
    ),
)
