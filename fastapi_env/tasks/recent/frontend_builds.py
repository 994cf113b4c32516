"""Recent-features tier: serving frontend builds with ``app.frontend()`` / ``router.frontend()``
(FastAPI 0.138-0.141): low-priority static routes that API routes always beat, the
``index.html`` fallback for browser navigations only (by the Accept header), a build's own
``404.html``, directory redirects, 405 for other methods on files, and router dependencies
guarding a frontend (0.139). The builds are setup files; FastAPI's docs pages must give way
to the frontend's own ``/docs/``."""

from fastapi_env.tasks import Edit, Family, Requirement

SETUP = {
    "dist/index.html": "<!doctype html><title>${app_name}</title><div id=\"root\">${app_name} "
                       "app shell</div>\n",
    "dist/assets/app.js": "console.log(\"${app_name} ${bundle}\");\n",
    "dist/assets/site.css": "body { color: ${color}; }\n",
    "dist/docs/index.html": "<h1>${app_name} user guide</h1>\n",
    "dist/robots.txt": "User-agent: *\nDisallow: /${console}/\n",
    "dist/api/status": "stale file from an old build\n",
    "console-dist/index.html": "<h1>${app_name} ${console}</h1>\n",
    "console-dist/404.html": "<h1>No such ${console} page</h1>\n",
    "console-dist/reports/index.html": "<h1>${console} reports</h1>\n",
}

REFERENCE = '''\
from typing import Annotated

from fastapi import APIRouter, Cookie, Depends, FastAPI, HTTPException
from fastapi.testclient import TestClient

ITEMS = ${items__repr}

# The frontend has its own /docs/ and /redoc: FastAPI's pages would shadow them.
app = FastAPI(docs_url=None, redoc_url=None)


@app.get("/api/status")
def status():
    return {"status": "ok", "build": "${bundle}"}


@app.get("/api/items/{item_id}")
def item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(404, "no such item")
    return {"id": item_id, "name": ITEMS[item_id]}


# Unknown API paths must stay JSON 404s, never the app shell a browser gets.
@app.api_route("/api/{rest:path}", methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
               include_in_schema=False)
def unknown_api(rest: str):
    raise HTTPException(404, "Not Found")


def staff_only(staff_session: Annotated[str | None, Cookie()] = None):
    if staff_session != "${staff_token}":
        raise HTTPException(401, "staff only")


console = APIRouter(prefix="/${console}", dependencies=[Depends(staff_only)])
console.frontend("/", directory="console-dist")
app.include_router(console)
app.frontend("/", directory="dist")


def row(r):
    body = r.json() if r.headers.get("content-type") == "application/json" else r.text
    return [r.status_code, r.headers.get("content-type"), body]


client = TestClient(app, follow_redirects=False)
result = [
    row(client.get("/")),
    row(client.get("/api/status")),
    row(client.get("/${deep_link}", headers={"Accept": "text/html"})),
    row(client.get("/${console}/")),
]
'''

PROBES = '''\
HTML = {"Accept": "text/html"}
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
STAFF = {"staff_session": "${staff_token}"}


def _row(r):
    ctype = r.headers.get("content-type")
    body = r.json() if ctype == "application/json" else r.text
    return [r.status_code, ctype, body, r.headers.get("location")]


def _get(client, path, headers=None, cookies=None, method="GET"):
    client.cookies.clear()
    for name, value in (cookies or {}).items():
        client.cookies.set(name, value)
    r = client.request(method, path, headers=headers or {}, follow_redirects=False)
    client.cookies.clear()
    return _row(r)


def probe_build_files_are_served(client):
    return [[path, _get(client, path)] for path in
            ["/", "/index.html", "/assets/app.js", "/assets/site.css", "/robots.txt"]
            ] + [["HEAD /", _get(client, "/", method="HEAD")]]


def probe_directories(client):
    return [[path, _get(client, path, headers)] for path, headers in
            [("/docs/", None), ("/docs", None), ("/docs/index.html", None),
             ("/assets", HTML), ("/assets", None), ("/assets/", None)]]


def probe_app_shell_for_navigations_only(client):
    rows = []
    for path in ["/${deep_link}", "/settings/profile", "/users/ana.lopez", "/assets/old.js"]:
        for headers in [HTML, BROWSER, {"Accept": "application/xhtml+xml"}, None,
                        {"Accept": "application/json"}, {"Accept": "text/html;q=0"},
                        {"Accept": "*/*"}]:
            rows.append([path, headers, _get(client, path, headers)[:3]])
    return rows


def probe_api_before_files(client):
    rows = []
    for path, headers, method in [("/api/status", HTML, "GET"), ("/api/items/1", None, "GET"),
                                  ("/api/items/${missing_item}", HTML, "GET"),
                                  ("/api/nope", HTML, "GET"),
                                  ("/api/nope", BROWSER, "GET"), ("/api/", HTML, "GET"),
                                  ("/api/nope", None, "POST"), ("/api/status", None, "DELETE")]:
        r = _get(client, path, headers, method=method)
        rows.append([method, path, r[0], r[1], r[2] if r[1] == "application/json" else r[2][:60]])
    return rows


def probe_docs_belong_to_the_frontend(client):
    schema = client.get("/openapi.json")
    return [_get(client, "/docs/"), _get(client, "/redoc", HTML)[:3],
            _get(client, "/redoc")[:3],
            [schema.status_code, sorted(schema.json()["paths"])]]


def probe_other_methods_on_files(client):
    rows = []
    for method, path in [("POST", "/"), ("PUT", "/index.html"), ("DELETE", "/assets/site.css"),
                         ("POST", "/missing-page"), ("PATCH", "/${deep_link}")]:
        rows.append([method, path, _get(client, path, HTML, method=method)[:3]])
    return rows


def probe_console_is_for_staff(client):
    rows = []
    for cookies in [None, {"staff_session": "${staff_token}x"}, {"staff_session": ""},
                    {"session": "${staff_token}"}]:
        for path in ["/${console}/", "/${console}/reports/", "/${console}/nothing",
                     "/${console}"]:
            rows.append([cookies, path, _get(client, path, HTML, cookies)[:3]])
    return rows


def probe_console_pages(client):
    rows = []
    for path, headers in [("/${console}/", None), ("/${console}", None),
                          ("/${console}/index.html", None), ("/${console}/reports", None),
                          ("/${console}/reports/", None), ("/${console}/nothing", HTML),
                          ("/${console}/nothing", {"Accept": "application/json"}),
                          ("/${console}x", HTML), ("/console-dist/index.html", None)]:
        rows.append([path, headers, _get(client, path, headers, STAFF)])
    rows.append(["POST", _get(client, "/${console}/", None, STAFF, method="POST")[:3]])
    return rows


def probe_nothing_outside_the_builds(client):
    rows = []
    for path in ["/solution.py", "/%2e%2e/solution.py", "/assets/..%2f..%2fsolution.py",
                 "/assets/%2e%2e/%2e%2e/solution.py", "/console-dist/404.html",
                 "/docs/..%2f..%2fconsole-dist%2findex.html"]:
        rows.append([path, _get(client, path)[:3]])
    return rows
'''

PROMPT = '''\
Serve a single-page app, a staff console and a small JSON API from one FastAPI app, with the
installed FastAPI's frontend support (recent: `app.frontend()` and `router.frontend()`; read
the installed package's source under
`python3 -c "import fastapi, os; print(os.path.dirname(fastapi.__file__))"` if you do not
know it). `/workspace` already holds the two builds (do not change them): `dist/` (the app:
`index.html`, `assets/`, `docs/index.html`, `robots.txt`, ...) and `console-dist/` (the
console: `index.html`, `404.html`, `reports/index.html`). Paths below are URL paths.

**API.**
- `GET /api/status`: 200 `{"status": "ok", "build": "${bundle}"}`.
- `GET /api/items/{item_id}` (an integer): 200 `{"id", "name"}` for the items
  `${items__repr}`; an unknown id is 404 `{"detail": "no such item"}`.
- Every other request under `/api/`, whatever its method and `Accept` header, is 404
  `{"detail": "Not Found"}` (JSON, never a page). `GET /openapi.json` (the API schema) lists
  exactly the two routes above; FastAPI's own docs pages are off: `/docs` and `/redoc`
  belong to the app.

**The app**, from `dist/`, for every path not taken by the API or the console:
- a file of the build is served as is (`GET` and `HEAD`), with the content type its
  extension gives (e.g. `text/html; charset=utf-8`);
- a directory with an `index.html` is served at `<dir>/`; `<dir>` without the slash is a
  307 redirect to `<dir>/`;
- any other `GET`/`HEAD` path: a browser navigation (an `Accept` header listing `text/html`
  or `application/xhtml+xml` with a non-zero quality) gets `dist/index.html` with 200, so
  that the app can route it; any other request gets 404 `{"detail": "Not Found"}`;
- other methods get 405 `{"detail": "Method Not Allowed"}` at a file and 404 elsewhere.

**The console**, from `console-dist/`, under `/${console}/` (and `/${console}` itself),
with the same rules, except that a path of it that is no file gets its `404.html` with status
404, for every request. Only staff may see any of it: a request without the cookie
`staff_session=${staff_token}` gets 401 `{"detail": "staff only"}`, whatever the path.

Nothing outside the two builds is ever served.

`result`: one row per request, `[status code, content-type header, body]`, the body parsed
when the content type is `application/json`, else the text (do not follow redirects):
1. `GET /`
2. `GET /api/status`
3. `GET /${deep_link}` with `Accept: text/html`
4. `GET /${console}/` without cookies
'''

FAMILY = Family(
    id="recent/frontend_builds",
    title="Frontend builds, fallbacks and a guarded console with FastAPI's frontend routes",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    setup=SETUP,
    original={"app_name": "Plantly", "bundle": "main.3f9a1c", "color": "seagreen",
              "console": "console", "staff_token": "st-8841", "deep_link": "plants/42/edit",
              "items": {1: "fern", 2: "cactus"}, "missing_item": 3},
    space={
        "app_name": [{"app_name": "Plantly", "bundle": "main.3f9a1c", "color": "seagreen"},
                     {"app_name": "Quill", "bundle": "app.77be02", "color": "navy"}],
        "console": [{"console": "console", "staff_token": "st-8841"},
                    {"console": "backoffice", "staff_token": "bo_token_2"}],
        "deep_link": ["plants/42/edit", "account"],
        "items": [{"items": {1: "fern", 2: "cactus"}, "missing_item": 3},
                  {"items": {1: "ink", 3: "nib", 4: "paper"}, "missing_item": 2}],
    },
    instances=10,
    requirements=(
        Requirement("Build files are served as they are, with their content types.",
                    probes=("build_files_are_served",),
                    traps=(Edit("app served from the wrong directory",
                                'app.frontend("/", directory="dist")',
                                'app.frontend("/", directory="console-dist")'),)),
        Requirement("A directory with an index is served at `<dir>/`; `<dir>` redirects there "
                    "(307).",
                    probes=("directories",),
                    traps=(Edit("Swagger UI at /docs", "app = FastAPI(docs_url=None, "
                                "redoc_url=None)", "app = FastAPI(redoc_url=None)"),)),
        Requirement("Other paths get `index.html` for browser navigations only; other requests "
                    "are 404.",
                    probes=("app_shell_for_navigations_only",),
                    traps=(Edit("no app shell fallback", 'app.frontend("/", directory="dist")',
                                'app.frontend("/", directory="dist", fallback=None)'),)),
        Requirement("The API wins over build files, and every other `/api/` request is a JSON "
                    "404, even for browsers.",
                    probes=("api_before_files",),
                    traps=(Edit("unknown API paths fall through to the app",
                                '@app.api_route("/api/{rest:path}", methods=["GET", "HEAD", '
                                '"POST", "PUT", "PATCH", "DELETE"],\n               '
                                'include_in_schema=False)\ndef unknown_api(rest: str):\n'
                                '    raise HTTPException(404, "Not Found")', ""),)),
        Requirement("`/docs` and `/redoc` are the app's; the schema lists only the two API "
                    "routes.",
                    probes=("docs_belong_to_the_frontend",),
                    traps=(Edit("ReDoc left on", "app = FastAPI(docs_url=None, redoc_url=None)",
                                "app = FastAPI(docs_url=None)"),
                           Edit("catch-all in the schema", ',\n               '
                                'include_in_schema=False)', ")"))),
        Requirement("Other methods are 405 at a file and 404 elsewhere.",
                    probes=("other_methods_on_files",),
                    traps=(Edit("the catch-all takes every method",
                                'methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]',
                                'methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])\n'
                                '@app.api_route("/{rest:path}", methods=["POST", "PUT", '
                                '"PATCH", "DELETE"]'),)),
        Requirement("The console is for staff only: without the exact cookie every path under "
                    "it is 401 `staff only`.",
                    probes=("console_is_for_staff",),
                    traps=(Edit("console unguarded", 'console = APIRouter(prefix="/${console}", '
                                'dependencies=[Depends(staff_only)])',
                                'console = APIRouter(prefix="/${console}")'),
                           Edit("any staff cookie", 'if staff_session != "${staff_token}":',
                                "if not staff_session:")),
                    security=True),
        Requirement("The console serves its pages and answers its missing paths with its "
                    "`404.html` (404).",
                    probes=("console_pages",),
                    traps=(Edit("console falls back to its index",
                                'console.frontend("/", directory="console-dist")',
                                'console.frontend("/", directory="console-dist", '
                                'fallback="index.html")'),)),
        Requirement("Nothing outside the two builds is served.",
                    probes=("nothing_outside_the_builds",),
                    traps=(Edit("the whole workspace served", 'app.frontend("/", '
                                'directory="dist")', 'app.frontend("/", directory=".")'),),
                    security=True),
    ),
)
