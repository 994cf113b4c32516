import textwrap

from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

app = FastAPI(redirect_slashes=${redirect})


@app.get("/${files}/{file_path:path}")
def read_file(file_path: str):
    return {"path": file_path, "depth": len(file_path.split("/"))}


@app.get("/${vp}{version:int}/items/{item_id}")
def read_item(version: int, item_id: int):
    return {"version": version, "item_id": item_id}


@app.get("/${reports}/")
def list_reports(q: str | None = None):
    return {"${reports}": [], "q": q}


@app.get("/${status}")
def status():
    return {"${status}": "ok"}
'''

_RESULT = '''

def row(response):
    body = response.json() if response.content else None
    if response.status_code == 422:
        body = [[e["type"], e["loc"]] for e in body["detail"]]
    return [response.status_code, response.headers.get("location"), body]


client = TestClient(app)
PATHS = [
    "/${files}/${dir1}/${dir2}/${leaf}",
    "/${vp}${version_padded}/items/${item_neg}",
    "/${vp}x/items/5",
    "/${vp}3/items/five",
    "/${reports}?q=${word}",
    "/${status}/",
]
result = [row(client.get(path, follow_redirects=False)) for path in PATHS]
'''

_MODES = {
    True: ("Slash mismatches redirect: a request whose path differs from a route's path only "
           "by a trailing slash (added or missing) answers 307 with an empty body and the "
           "`location` header set to the absolute URL of the route's spelling, keeping the query "
           "string (the test client's host is `http://testserver`). This holds for every "
           "method."),
    False: ("Slash mismatches do not redirect: a path that differs from a route's path only by "
            "a trailing slash (added or missing) is FastAPI's 404 `{\"detail\": \"Not Found\"}` "
            "(no `location` header), for every method."),
}

PROMPT = '''\
Build an app with these four `GET` routes. Paths are case-sensitive and spelled exactly as
written, including a trailing slash where one is shown.

- `/${files}/<file path>`: the file path is everything after `/${files}/`, slashes included
  (`/${files}/a/b.txt` is the path `a/b.txt`). 200 `{"path": <file path>, "depth": <number of
  slash-separated parts of it>}`.
- `/${vp}<version>/items/<item_id>`: `<version>` is one or more decimal digits directly after
  `${vp}` and is given to the handler as an integer (`${vp}007` is version 7); a version that
  is not only digits (letters, a sign, empty) matches no route, so it is FastAPI's 404
  `{"detail": "Not Found"}`. `item_id` is any integer (negative ones too); a segment that is
  not an integer is FastAPI's 422 validation error (`int_parsing` at `["path", "item_id"]`).
  200 `{"version": <int>, "item_id": <int>}`.
- `/${reports}/` (with the trailing slash) and an optional string query parameter `q`:
  200 `{"${reports}": [], "q": <q or null>}`.
- `/${status}` (no trailing slash): 200 `{"${status}": "ok"}`.

${mode_text}

Then fill `result` with one row per request, in this order, each sent with
`client.get(path, follow_redirects=False)`. Each row is `[status code (integer), the
"location" response header (string, or null when absent), body]` where body is null for an
empty body, `[[type, loc] for each entry of detail]` for a 422, and the JSON body otherwise:

1. `/${files}/${dir1}/${dir2}/${leaf}`
2. `/${vp}${version_padded}/items/${item_neg}`
3. `/${vp}x/items/5`
4. `/${vp}3/items/five`
5. `/${reports}?q=${word}`
6. `/${status}/`
'''

PROBES = '''\
def _row(response):
    body = response.json() if response.content else None
    if response.status_code == 422:
        body = [[e["type"], e["loc"]] for e in body["detail"]]
    return [response.status_code, response.headers.get("location"), body]


def _get(client, path):
    return _row(client.get(path, follow_redirects=False))


def probe_file_paths(client):
    return [
        _get(client, "/${files}/${leaf}"),
        _get(client, "/${files}/${dir2}/${dir1}/${dir2}/${leaf}"),
        _get(client, "/${files}//etc/${leaf}"),
        _get(client, "/${files}/${dir1}/"),
    ]


def probe_version_converter(client):
    return [
        _get(client, "/${vp}-1/items/3"),
        _get(client, "/${vp}/items/3"),
        _get(client, "/${vp}1.5/items/3"),
        _get(client, "/${vp}${version}/items/0"),
        _get(client, "/${vp_upper}${version}/items/2"),
    ]


def probe_item_id_validation(client):
    return [
        _get(client, "/${vp}${version}/items/-${item_pos}"),
        _get(client, "/${vp}${version}/items/${item_pos}.5"),
        _get(client, "/${vp}${version}/items/${item_pos}x"),
    ]


def probe_trailing_slashes(client):
    return [
        _get(client, "/${reports}/?q=${word}"),
        _get(client, "/${reports}"),
        _get(client, "/${status}"),
        _get(client, "/${status}/?verbose=1"),
        _row(client.post("/${reports}", follow_redirects=False)),
        _get(client, "/${vp}${version}/items/${item_pos}/"),
    ]
'''

_NAMES = [
    {"files": "files", "vp": "v", "vp_upper": "V", "reports": "reports", "status": "status",
     "dir1": "docs", "dir2": "2024", "leaf": "notes.txt"},
    {"files": "static", "vp": "api", "vp_upper": "API", "reports": "exports",
     "status": "health", "dir1": "css", "dir2": "themes", "leaf": "dark.css"},
    {"files": "assets", "vp": "rev", "vp_upper": "Rev", "reports": "invoices", "status": "ping",
     "dir1": "img", "dir2": "icons", "leaf": "logo.png"},
]

FAMILY = Family(
    id="routing/path_converters_and_slashes",
    title="Path converters (:path, :int) and trailing-slash redirects or 404s",
    category="routing",
    difficulty="hard",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original=_NAMES[0] | {"redirect": True, "version": 2, "version_padded": "02",
                          "item_neg": -4, "item_pos": 9, "word": "q1"},
    space={
        "names": _NAMES,
        "redirect": [True, False],
        "ids": [{"version": 2, "version_padded": "02", "item_neg": -4, "item_pos": 9},
                {"version": 7, "version_padded": "007", "item_neg": -1, "item_pos": 12},
                {"version": 10, "version_padded": "10", "item_neg": -30, "item_pos": 3}],
        "word": ["q1", "draft", "2025"],
    },
    derive=lambda p: {"mode_text": textwrap.fill(_MODES[p["redirect"]], width=95),
                      "redirect_other": not p["redirect"]},
    instances=40,
    requirements=(
        Requirement(
            "The file path takes the rest of the URL, slashes included (a leading or trailing "
            "slash gives an empty first or last part).",
            probes=("file_paths",),
            traps=(Edit("file path as a single segment", '"/${files}/{file_path:path}"',
                        '"/${files}/{file_path}"'),),
        ),
        Requirement(
            "The version is digits only, matched in the path: a sign, a letter, an empty or a "
            "decimal version is 404 Not Found; `${vp}` is case-sensitive.",
            probes=("version_converter",),
            traps=(Edit("version validated as a parameter, not matched by the path",
                        '"/${vp}{version:int}/items/{item_id}"',
                        '"/${vp}{version}/items/{item_id}"'),),
        ),
        Requirement(
            "`item_id` is any integer, negatives included; a non-integer is a 422 `int_parsing`, "
            "not a 404.",
            probes=("item_id_validation",),
            traps=(Edit("item_id matched with the :int converter",
                        "/items/{item_id}\")", "/items/{item_id:int}\")"),),
        ),
        Requirement(
            lambda p: ("Trailing-slash mismatches answer 307 with the route's absolute URL (query "
                       "kept) in `location`, for every method." if p["redirect"] else
                       "Trailing-slash mismatches answer 404 Not Found without `location`, for "
                       "every method."),
            probes=("trailing_slashes",),
            traps=(Edit("redirect_slashes set the other way",
                        "FastAPI(redirect_slashes=${redirect})",
                        "FastAPI(redirect_slashes=${redirect_other})"),
                   Edit("both spellings of the status route registered",
                        '@app.get("/${status}")\n',
                        '@app.get("/${status}")\n'
                        '@app.get("/${status}/", include_in_schema=False)\n')),
        ),
    ),
)
