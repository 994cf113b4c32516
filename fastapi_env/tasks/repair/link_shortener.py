"""Repair tier: a URL shortener with stats, a package of four modules in /workspace with nine
planted bugs (a fixed route shadowed by a path parameter, a redirect left at the default 307,
stats copied shallowly from a template so every link shares one referrer list, an ownership
check that builds the HTTPException but never raises it, a page sliced as [offset:limit], an
unanchored code pattern, an Optional code without a default, generated codes from a counter that
overwrites taken ones, a lowercasing validator running after the pattern check). Each bug is one
requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""A small URL shortener: links with owners, redirects that count hits, per-link stats."""
'''

MODELS = '''\
from pydantic import BaseModel, Field, field_validator


class LinkIn(BaseModel):
    url: str = Field(pattern=r"^https?://")
    code: str | None = Field(None, pattern=r"^[a-z0-9-]{2,${code_max}}$$")

    # Codes are case-insensitive: lowercase them before the pattern sees them.
    @field_validator("code", mode="before")
    @classmethod
    def lowercase(cls, value):
        return value.lower() if isinstance(value, str) else value


class LinkOut(BaseModel):
    code: str
    url: str
    owner: str
    hits: int


class Page(BaseModel):
    total: int
    items: list[LinkOut]


class Stats(BaseModel):
    code: str
    hits: int
    referrers: list[str]
'''

STORE = '''\
LINKS: dict[str, dict] = {}  # by code, in creation order


def new_stats() -> dict:
    return {"hits": 0, "referrers": []}


def add(code: str, url: str, owner: str) -> dict:
    LINKS[code] = {"code": code, "url": url, "owner": owner, "stats": new_stats()}
    return LINKS[code]


def free_code() -> str:
    """The generated code: l<n> for the smallest n >= 1 that no link uses."""
    n = 1
    while f"l{n}" in LINKS:
        n += 1
    return f"l{n}"


def show(link: dict) -> dict:
    return {**link, "hits": link["stats"]["hits"]}


add("${seed1}", "${seed1_url}", "${user1}")
add("${seed2}", "${seed2_url}", "${user2}")
for _ in range(${seed1_hits}):
    LINKS["${seed1}"]["stats"]["hits"] += 1
for _ in range(${seed2_hits}):
    LINKS["${seed2}"]["stats"]["hits"] += 1
'''

AUTH = '''\
from typing import Annotated

from fastapi import Header, HTTPException

TOKENS = {"${tok1}": "${user1}", "${tok2}": "${user2}"}


def current_user(x_token: Annotated[str | None, Header()] = None) -> str:
    if x_token not in TOKENS:
        raise HTTPException(401, "invalid token", headers={"WWW-Authenticate": "Token"})
    return TOKENS[x_token]
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Response
from fastapi.responses import RedirectResponse

from . import store
from .auth import current_user
from .models import LinkIn, LinkOut, Page, Stats

links = APIRouter(prefix="/links")
public = APIRouter()
User = Annotated[str, Depends(current_user)]


def find(code: str) -> dict:
    if code not in store.LINKS:
        raise HTTPException(404, "no such link")
    return store.LINKS[code]


def owned(code: str, user: str) -> dict:
    link = find(code)
    if link["owner"] != user:
        raise HTTPException(403, "not your link")
    return link


@links.post("", status_code=201, response_model=LinkOut)
def create_link(body: LinkIn, user: User):
    code = body.code or store.free_code()
    if code in store.LINKS:
        raise HTTPException(409, "code taken")
    return store.show(store.add(code, body.url, user))


@links.get("", response_model=Page)
def my_links(
    user: User,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=${page_max})] = ${page_default},
):
    mine = [store.show(link) for link in store.LINKS.values() if link["owner"] == user]
    return {"total": len(mine), "items": mine[offset:offset + limit]}


@links.get("/top", response_model=list[LinkOut])
def top_links(user: User, n: Annotated[int, Query(ge=1, le=10)] = ${top_default}):
    ranked = sorted(store.LINKS.values(), key=lambda link: (-link["stats"]["hits"], link["code"]))
    return [store.show(link) for link in ranked[:n]]


@links.get("/{code}", response_model=LinkOut)
def read_link(code: str, user: User):
    return store.show(find(code))


@links.get("/{code}/stats", response_model=Stats)
def link_stats(code: str, user: User):
    link = owned(code, user)
    return {"code": code, **link["stats"]}


@links.delete("/{code}", status_code=204)
def delete_link(code: str, user: User):
    owned(code, user)
    del store.LINKS[code]
    return Response(status_code=204)


@public.get("/r/{code}")
def follow(code: str, referer: Annotated[str | None, Header()] = None):
    link = find(code)
    link["stats"]["hits"] += 1
    if referer and referer not in link["stats"]["referrers"]:
        link["stats"]["referrers"].append(referer)
    return RedirectResponse(link["url"], status_code=${redirect_status})
'''

SOLUTION = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException

from shortener.routes import links, public

app = FastAPI()
app.include_router(links)
app.include_router(public)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


client = TestClient(app)
owner = {"X-Token": "${tok1}"}
created = client.post("/links", headers=owner, json={"url": "${url3}"})
hop = client.get("/r/l1", follow_redirects=False)
result = [
    [created.status_code, created.json()],
    [hop.status_code, hop.headers.get("location")],
    [client.get("/links/l1", headers=owner).json()],
    [client.get("/links", headers=owner).json()],
]
'''


_in = editor("shortener")


_SHADOWED = _in("routes", "top declared after the link route", '''\
@links.get("/top", response_model=list[LinkOut])
def top_links(user: User, n: Annotated[int, Query(ge=1, le=10)] = ${top_default}):
    ranked = sorted(store.LINKS.values(), key=lambda link: (-link["stats"]["hits"], link["code"]))
    return [store.show(link) for link in ranked[:n]]


@links.get("/{code}", response_model=LinkOut)
def read_link(code: str, user: User):
    return store.show(find(code))
''', '''@links.get("/{code}", response_model=LinkOut)
def read_link(code: str, user: User):
    return store.show(find(code))


@links.get("/top", response_model=list[LinkOut])
def top_links(user: User, n: Annotated[int, Query(ge=1, le=10)] = ${top_default}):
    ranked = sorted(store.LINKS.values(), key=lambda link: (-link["stats"]["hits"], link["code"]))
    return [store.show(link) for link in ranked[:n]]
''')
_DEFAULT_REDIRECT = _in("routes", "redirect left at the default status",
                        'RedirectResponse(link["url"], status_code=${redirect_status})',
                        'RedirectResponse(link["url"])')
_SHARED_REFERRERS = _in("store", "stats copied shallowly from a template", '''\
def new_stats() -> dict:
    return {"hits": 0, "referrers": []}''', '''EMPTY_STATS = {"hits": 0, "referrers": []}


def new_stats() -> dict:
    return dict(EMPTY_STATS)''')
_NOT_RAISED = _in("routes", "ownership error built but not raised",
                  '        raise HTTPException(403, "not your link")',
                  '        HTTPException(403, "not your link")')
_PAGE_SLICE = _in("routes", "page sliced up to limit instead of offset + limit",
                  "mine[offset:offset + limit]", "mine[offset:limit]")
_UNANCHORED = _in("models", "code pattern unanchored", r'pattern=r"^[a-z0-9-]{2,${code_max}}$$"',
                  r'pattern=r"[a-z0-9-]{2,${code_max}}"')
_CODE_REQUIRED = _in("models", "optional code without a default",
                     "code: str | None = Field(None, pattern=", "code: str | None = Field(pattern=")
_COUNTER_CODES = _in("store", "generated codes from a counter", '''def free_code() -> str:
    """The generated code: l<n> for the smallest n >= 1 that no link uses."""
    n = 1
    while f"l{n}" in LINKS:
        n += 1
    return f"l{n}"''', '''_last_generated = 0


def free_code() -> str:
    """The generated code: l1, l2, l3, ..."""
    global _last_generated
    _last_generated += 1
    return f"l{_last_generated}"''')
_LOWERCASE_AFTER = _in("models", "lowercasing runs after the pattern",
                       '@field_validator("code", mode="before")', '@field_validator("code")')

FILES = {"shortener/__init__.py": INIT, "shortener/models.py": MODELS,
         "shortener/store.py": STORE, "shortener/auth.py": AUTH, "shortener/routes.py": ROUTES}
PLANTED = (_SHADOWED, _DEFAULT_REDIRECT, _SHARED_REFERRERS, _NOT_RAISED, _PAGE_SLICE,
           _UNANCHORED, _CODE_REQUIRED, _COUNTER_CODES, _LOWERCASE_AFTER)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = '''\
ONE = {"X-Token": "${tok1}"}
TWO = {"X-Token": "${tok2}"}


''' + ROW + '''

def _brief(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return _row(r)


def probe_unknown_token_is_401_with_challenge(client):
    rows = []
    for headers in [{}, {"X-Token": ""}, {"X-Token": "${user1}"}, {"X-Token": "${tok1}".upper()}]:
        for method, path in [("GET", "/links"), ("POST", "/links"), ("GET", "/links/top"),
                             ("GET", "/links/${seed1}"), ("GET", "/links/${seed1}/stats"),
                             ("DELETE", "/links/${seed1}")]:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_top_route_ranks_by_hits(client):
    rows = []
    for query in ["", "?n=1", "?n=10", "?n=0", "?n=11"]:
        r = client.get("/links/top" + query, headers=TWO)
        rows.append([query, r.status_code, [[x["code"], x["hits"]] for x in r.json()]
                     if r.status_code == 200 else _brief(r)])
    for _ in range(${seed2_hits} + 2):
        client.get("/r/${seed1}", follow_redirects=False)
    rows.append([[x["code"], x["hits"]] for x in client.get("/links/top?n=2", headers=ONE).json()])
    return rows


def probe_redirect_status_and_location(client):
    rows = []
    for code in ["${seed2}", "${seed1}", "nope-404"]:
        r = client.get(f"/r/{code}", follow_redirects=False)
        rows.append([code, r.status_code, r.headers.get("location"),
                     r.json() if r.status_code == 404 else None])
    rows.append([client.get("/links/${seed2}", headers=ONE).json()["hits"]])
    return rows


def probe_referrers_are_per_link(client):
    hops = [("${seed1}", "https://a.example/"), ("${seed2}", "https://b.example/"),
            ("${seed1}", "https://a.example/"), ("${seed1}", None),
            ("${seed1}", "https://c.example/")]
    for code, referer in hops:
        client.get(f"/r/{code}", follow_redirects=False,
                   headers={"Referer": referer} if referer else {})
    made = client.post("/links", headers=TWO, json={"url": "https://fresh.example/",
                                                    "code": "fresh-ref"})
    return [_row(client.get("/links/${seed1}/stats", headers=ONE)),
            _row(client.get("/links/${seed2}/stats", headers=TWO)),
            [made.status_code], _row(client.get("/links/fresh-ref/stats", headers=TWO))]


def probe_only_the_owner_sees_stats_or_deletes(client):
    client.post("/links", headers=ONE, json={"url": "https://mine.example/", "code": "mine-1"})
    rows = [_row(client.get("/links/${seed2}/stats", headers=ONE)),
            _row(client.get("/links/mine-1/stats", headers=TWO)),
            _row(client.delete("/links/mine-1", headers=TWO)),
            [client.get("/links/mine-1", headers=TWO).status_code],
            _row(client.get("/links/nope-404/stats", headers=ONE)),
            _row(client.delete("/links/mine-1", headers=ONE)),
            _row(client.get("/links/mine-1", headers=ONE)),
            _row(client.delete("/links/mine-1", headers=ONE))]
    return rows


def probe_pages_of_own_links(client):
    for number in range(${page_max} + 2):
        client.post("/links", headers=TWO, json={"url": f"https://p{number}.example/",
                                                 "code": f"page-{number}"})
    rows = []
    for query in ["", "?limit=1", "?limit=${page_max}", "?offset=2&limit=2", "?offset=3",
                  "?offset=${page_max}&limit=${page_max}", "?offset=999", "?limit=0",
                  "?limit=${page_max_over}", "?offset=-1"]:
        r = client.get("/links" + query, headers=TWO)
        body = r.json()
        rows.append([query, r.status_code, [body["total"], [x["code"] for x in body["items"]]]
                     if r.status_code == 200 else _brief(r)[1]])
    return rows


def probe_code_format(client):
    rows = []
    for code in ["abc", "a", "a" * ${code_max}, "b" * (${code_max} + 1), "x_yz", "has space",
                 "ok-1", "-ok-", "abc!", "9" * ${code_max} + "x"]:
        r = client.post("/links", headers=ONE, json={"url": "https://f.example/", "code": code})
        rows.append([code, r.status_code, r.json()["code"] if r.status_code == 201
                     else _brief(r)[1]])
    return rows


def probe_code_is_optional(client):
    r = client.post("/links", headers=TWO, json={"url": "https://gen.example/"})
    rows = [[r.status_code, sorted(r.json())]]
    r = client.post("/links", headers=TWO, json={"url": "https://gen2.example/", "code": None})
    rows.append([r.status_code, sorted(r.json())])
    rows.append(_brief(client.post("/links", headers=TWO, json={})))
    rows.append(_brief(client.post("/links", headers=TWO, json={"code": "no-url"})))
    return rows


def probe_generated_codes_fill_the_smallest_gap(client):
    rows = []
    taken = client.post("/links", headers=ONE, json={"url": "https://t.example/",
                                                     "code": "${gap_code}"})
    rows.append([taken.status_code, taken.json().get("code")])
    for _ in range(3):
        r = client.post("/links", headers=ONE, json={"url": "https://g.example/", "code": None})
        rows.append([r.status_code, r.json().get("code")])
    rows.append(_row(client.get("/links/${gap_code}", headers=ONE)))
    rows.append(_row(client.delete("/links/l1", headers=ONE)))
    r = client.post("/links", headers=ONE, json={"url": "https://again.example/", "code": None})
    rows.append([r.status_code, r.json().get("code")])
    rows.append(_row(client.post("/links", headers=TWO, json={"url": "https://x.example/",
                                                              "code": "${gap_code}"})))
    return rows


def probe_codes_are_case_insensitive(client):
    rows = []
    for code in ["MiXed-Case", "UPPER", "A", "A_B"]:
        r = client.post("/links", headers=TWO, json={"url": "https://c.example/", "code": code})
        rows.append([code, r.status_code, r.json()["code"] if r.status_code == 201
                     else _brief(r)[1]])
    rows.append([client.get("/links/mixed-case", headers=TWO).status_code])
    rows.append(_row(client.post("/links", headers=TWO, json={"url": "https://c.example/",
                                                              "code": "${seed1_upper}"})))
    return rows


def probe_url_must_be_http(client):
    rows = []
    for url in ["http://plain.example/", "https://secure.example/a?b=1", "ftp://files.example/",
                "example.com", "", "HTTPS://shout.example/", "javascript:https://x"]:
        r = client.post("/links", headers=ONE, json={"url": url, "code": None})
        rows.append([url, r.status_code, r.json()["url"] if r.status_code == 201
                     else _brief(r)[1]])
    return rows
'''

_SETS = {
    "seed": [
        {"seed1": "docs", "seed1_upper": "DOCS", "seed1_url": "https://example.org/docs",
         "seed2": "blog", "seed2_url": "https://blog.example.net/", "user1": "ana",
         "user2": "ben", "tok1": "tk-ana-41", "tok2": "tk-ben-77",
         "url3": "https://example.org/pricing"},
        {"seed1": "home", "seed1_upper": "Home", "seed1_url": "https://acme.test/",
         "seed2": "jobs", "seed2_url": "http://jobs.acme.test/open", "user1": "kim",
         "user2": "lou", "tok1": "k1m-secret", "tok2": "l0u-secret",
         "url3": "https://acme.test/about"},
    ],
    "hits": [{"seed1_hits": 3, "seed2_hits": 5, "top_default": 3},
             {"seed1_hits": 6, "seed2_hits": 2, "top_default": 5},
             {"seed1_hits": 4, "seed2_hits": 4, "top_default": 2}],
    "page": [{"page_default": 5, "page_max": 20}, {"page_default": 3, "page_max": 8},
             {"page_default": 2, "page_max": 5}],
    "code_max": [{"code_max": 12, "gap_code": "l5"}, {"code_max": 8, "gap_code": "l6"}],
    "redirect_status": [302, 301, 308],
}

FAMILY = Family(
    id="repair/link_shortener",
    title="Repair a URL shortener with stats that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a URL shortener: `solution.py` and the package `shortener/` it imports
(`models.py`, `store.py`, `auth.py`, `routes.py`). It is meant to behave as described below
but does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next.

**Users.** Every route under `/links` needs the header `X-Token`: `${tok1}` is user `${user1}`,
`${tok2}` is user `${user2}`. A missing or unknown token gets 401 with the header
`WWW-Authenticate: Token`. `GET /r/{code}` is public.

**Errors** raised by the service have the body `{"error": <message>}`: 401 `invalid token`,
403 `not your link`, 404 `no such link`, 409 `code taken`. Request validation errors keep
FastAPI's standard 422 body.

**A link** is shown as `{"code", "url", "owner", "hits"}`. At start there are two links, in
this order: `${seed1}` -> `${seed1_url}` owned by `${user1}` with ${seed1_hits} hits, and
`${seed2}` -> `${seed2_url}` owned by `${user2}` with ${seed2_hits} hits (neither has any
referrer yet).

**Routes.**
- `POST /links` with `{"url", "code"?}`: `url` must start with `http://` or `https://`
  (exactly these lowercase prefixes). `code` is optional (absent or null: generated); a given
  code is case-insensitive: it is lowercased first and must then be 2 to ${code_max}
  characters, each a lowercase letter, a digit or `-`. A generated code is `l<n>` for the
  smallest n >= 1 that no existing link uses. A code in use is 409 (`code taken`). 201 with the
  new link (owned by the caller, 0 hits).
- `GET /links?offset=&limit=`: 200 `{"total": <number of the caller's links>, "items": [...]}`,
  the caller's links in creation order, skipping `offset` (>= 0, default 0) and returning at
  most `limit` (1 to ${page_max}, default ${page_default}).
- `GET /links/top?n=`: 200, the `n` links (1 to 10, default ${top_default}) with the most
  hits, of any owner; ties by code, alphabetically.
- `GET /links/{code}`: 200 with the link (any user may read any link), 404 if none.
- `GET /links/{code}/stats`: 200 `{"code", "hits", "referrers"}`, `referrers` being the
  distinct `Referer` header values of this link's redirects, in the order first seen; owner
  only (403 otherwise); 404 if none.
- `DELETE /links/{code}`: owner only (403, nothing deleted); 204 with an empty body; 404 if
  none.
- `GET /r/{code}`: ${redirect_status} with `Location: <url>`; it counts one hit for the link and
  records its `Referer`, if the request has one. 404 if none.

`result` has four rows:
1. `[status, body]` of `POST /links` with `{"url": "${url3}"}` as `${user1}`
2. `[status, Location header]` of `GET /r/l1` (do not follow the redirect)
3. `[body]` of `GET /links/l1` as `${user1}`
4. `[body]` of `GET /links` as `${user1}`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["seed"][0], **_SETS["hits"][0], **_SETS["page"][0],
              **_SETS["code_max"][0], "redirect_status": 302},
    space=_SETS,
    derive=lambda p: {"page_max_over": p["page_max"] + 1},
    instances=12,
    requirements=(
        Requirement("A missing or unknown token gets 401 `invalid token` with "
                    "`WWW-Authenticate: Token` on every `/links` route.",
                    probes=("unknown_token_is_401_with_challenge",),
                    traps=(Edit("error handler drops the exception's headers",
                                "status_code=exc.status_code, headers=exc.headers)",
                                "status_code=exc.status_code)"),)),
        Requirement("`GET /links/top` ranks every link by hits (ties by code; n 1 to 10, "
                    "default ${top_default}).",
                    probes=("top_route_ranks_by_hits",), traps=(_SHADOWED,)),
        Requirement("`GET /r/{code}` answers ${redirect_status} with the link's URL in "
                    "`Location` and counts a hit.",
                    probes=("redirect_status_and_location",), traps=(_DEFAULT_REDIRECT,)),
        Requirement("Each link's stats list only its own distinct referrers, in first-seen "
                    "order.",
                    probes=("referrers_are_per_link",), traps=(_SHARED_REFERRERS,)),
        Requirement("Only a link's owner reads its stats or deletes it (403 `not your link`, "
                    "nothing deleted).",
                    probes=("only_the_owner_sees_stats_or_deletes",), traps=(_NOT_RAISED,)),
        Requirement("`GET /links` pages the caller's links by `offset` and `limit` (1 to "
                    "${page_max}, default ${page_default}) with their total.",
                    probes=("pages_of_own_links",), traps=(_PAGE_SLICE,)),
        Requirement("A given code is 2 to ${code_max} lowercase letters, digits or hyphens, "
                    "the whole code.",
                    probes=("code_format",), traps=(_UNANCHORED,)),
        Requirement("`code` is optional: absent or null, one is generated.",
                    probes=("code_is_optional",), traps=(_CODE_REQUIRED,)),
        Requirement("A generated code is `l<n>` for the smallest free n; a code in use is 409.",
                    probes=("generated_codes_fill_the_smallest_gap",),
                    traps=(_COUNTER_CODES,)),
        Requirement("A given code is lowercased before it is checked.",
                    probes=("codes_are_case_insensitive",), traps=(_LOWERCASE_AFTER,)),
        Requirement("`url` must start with `http://` or `https://`.",
                    probes=("url_must_be_http",),
                    traps=(Edit("url unchecked", 'url: str = Field(pattern=r"^https?://")',
                                "url: str", file="shortener/models.py"),)),
    ),
)
