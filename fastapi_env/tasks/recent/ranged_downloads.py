"""Recent-features tier: a download mirror on Starlette's file responses as Starlette 1.x has
them: HTTP Range requests (single ranges as 206 with ``Content-Range``, several as
``multipart/byteranges`` with overlapping ranges merged, unsatisfiable ranges as 416 with
``Content-Range: bytes */<size>``, malformed ones as 400 text), ``If-Range`` validated against
the ETag, HEAD without a body, and ``application/octet-stream`` as the media type fallback
(Starlette 1.1; ``text/plain`` before). A download counts only once its bytes were sent: a
background task of the file response, which refused ranges never run. The files are setup
files (their mtimes change per run, so no row shows an ETag or a date)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import shown_headers_row
from fastapi_env.tasks.traps import head_not_served

FILE_HEADERS = ("content-type", "content-disposition", "content-range", "content-length",
                "accept-ranges")

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

SETUP = {
    "mirror/firmware.fwu": "${fw_body}",
    "mirror/notes.txt": "${notes}",
    "mirror/manifest.json": "${manifest}",
    "mirror/.upload-token": "tok-${brand}-never-served\n",
    "mirror/archive/notes.txt": "archived notes\n",
}

REFERENCE = '''\
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse
from fastapi.testclient import TestClient
from starlette.background import BackgroundTask

MIRROR = Path("mirror")
DOWNLOAD_PREFIX = "${prefix}"
DOWNLOADS: dict[str, int] = {}

app = FastAPI()


def published(name: str) -> Path:
    path = MIRROR / name
    # Dot files are private; directories are not downloads (a file response would fail on one).
    if name.startswith(".") or not path.is_file():
        raise HTTPException(404, "no such file")
    return path


def count_download(name: str):
    DOWNLOADS[name] = DOWNLOADS.get(name, 0) + 1


def send_file(request: Request, name: str, disposition: str, filename: str):
    path = published(name)
    # The file response runs its background task only after sending the file: a refused range
    # (400, 416) never counts, and HEAD sends no file.
    counted = BackgroundTask(count_download, name) if request.method == "GET" else None
    return FileResponse(path, filename=filename, content_disposition_type=disposition,
                        background=counted)


@app.get("/files")
def list_files():
    return [{"name": path.name, "size": path.stat().st_size}
            for path in sorted(MIRROR.iterdir())
            if path.is_file() and not path.name.startswith(".")]


@app.api_route("/files/{name}", methods=["GET", "HEAD"])
def download(name: str, request: Request):
    return send_file(request, name, "attachment", DOWNLOAD_PREFIX + name)


@app.api_route("/files/{name}/view", methods=["GET", "HEAD"])
def view(name: str, request: Request):
    return send_file(request, name, "inline", name)


@app.get("/stats")
def stats():
    return {"downloads": dict(sorted(DOWNLOADS.items()))}


''' + shown_headers_row(FILE_HEADERS) + '''
client = TestClient(app)
result = [
    ["files", client.get("/files").json()],
    row(client.get("/files/firmware.fwu", headers={"Range": "${range_a}"})),
    row(client.get("/files/notes.txt/view")),
    row(client.get("/files/firmware.fwu", headers={"Range": "bytes=${fw_len}-"})),
    ["stats", client.get("/stats").json()],
]
'''

PROBES = '''\
FW = "firmware.fwu"

''' + shown_headers_row(FILE_HEADERS) + '''

def _row(r):
    status, body, shown = row(r)
    ctype = shown.get("content-type", "")
    if ctype.startswith("multipart/byteranges; boundary="):
        # The boundary is random: show it as BOUNDARY.
        boundary = ctype.split("=", 1)[1]
        shown["content-type"] = ctype.replace(boundary, "BOUNDARY")
        body = body.replace(boundary, "BOUNDARY")
    return [status, body, shown]


def _get(client, path, rng=None, method="GET", **headers):
    if rng is not None:
        headers["Range"] = rng
    return _row(client.request(method, path, headers=headers))


def _downloads(client):
    return client.get("/stats").json()["downloads"]


def probe_listing(client):
    return [client.get("/files").json()]


def probe_full_downloads(client):
    return [[name, _get(client, f"/files/{name}")]
            for name in [FW, "notes.txt", "manifest.json"]]


def probe_unknown_type_fallback(client):
    r = client.get(f"/files/{FW}")
    return [[r.headers.get("content-type"), client.get(f"/files/{FW}/view").headers.get(
        "content-type")]]


def _ranged(client, ranges, path=f"/files/{FW}"):
    return [[rng, _get(client, path, rng)] for rng in ranges]


def probe_single_ranges(client):
    return _ranged(client, ["bytes=0-0", "bytes=0-9", "${range_a}", "bytes=-7", "bytes=${fw_last}-",
                            "bytes=${fw_last}-${fw_last}", "bytes=3-999", "bytes=-999",
                            "bytes= 2-4", "BYTES=1-2", "bytes=0-"]
                   ) + _ranged(client, ["bytes=2-6"], "/files/notes.txt")


def probe_several_ranges(client):
    return _ranged(client, ["bytes=0-1,5-6", "bytes=5-6,0-1", "bytes=0-4,2-8", "bytes=0-3,4-5",
                            "bytes=-2,0-0", "bytes=1-2,,x-y,6-7"]
                   ) + _ranged(client, ["bytes=0-1,4-5"], "/files/notes.txt/view")


def probe_refused_ranges(client):
    return _ranged(client, ["bytes=${fw_len}-", "bytes=${fw_len}-${fw_len}", "bytes=-0",
                            "bytes=0-1,${fw_len}-", "items=0-5", "bytes=6-2", "bytes",
                            "bytes=abc", "bytes=,"])


def probe_if_range(client):
    head = client.head(f"/files/{FW}")
    etag, modified = head.headers["etag"], head.headers["last-modified"]
    rows = []
    for label, value in [("etag", etag), ("date", modified), ("weak", "W/" + etag),
                         ("other", '"0000"'), ("empty", "")]:
        r = client.get(f"/files/{FW}", headers={"Range": "bytes=0-3", "If-Range": value})
        rows.append([label, _row(r)])
    return rows


def probe_head_requests(client):
    rows = []
    for path, rng in [(f"/files/{FW}", None), (f"/files/{FW}", "bytes=0-3"),
                      ("/files/notes.txt/view", None), ("/files/missing.bin", None),
                      (f"/files/{FW}", "bytes=${fw_len}-")]:
        r = client.head(path, headers={"Range": rng} if rng else {})
        rows.append([path, rng, _row(r)])
    return rows


def probe_inline_views(client):
    rows = []
    for name in [FW, "notes.txt", "manifest.json"]:
        status, _, headers = _get(client, f"/files/{name}/view")
        rows.append([name, status, headers])
    return rows


def probe_only_published_files(client):
    rows = []
    for path in ["/files/.upload-token", "/files/.upload-token/view", "/files/archive",
                 "/files/archive/view", "/files/missing.bin", "/files/NOTES.TXT",
                 "/files/archive/notes.txt", "/files/%2e%2e", "/files/notes.txt%20"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json() if r.headers.get("content-type")
                     == "application/json" else r.text[:40]])
    return rows


def probe_downloads_counted_when_sent(client):
    before = _downloads(client)
    client.get(f"/files/{FW}")
    client.get(f"/files/{FW}", headers={"Range": "bytes=0-1"})
    client.get("/files/notes.txt/view", headers={"Range": "bytes=0-1,3-4"})
    client.get(f"/files/{FW}", headers={"Range": "bytes=${fw_len}-"})
    client.get(f"/files/{FW}", headers={"Range": "items=0-1"})
    client.head("/files/manifest.json")
    client.get("/files/.upload-token")
    client.get("/files/archive")
    after = _downloads(client)
    return [[name, after.get(name, 0) - before.get(name, 0)]
            for name in sorted(set(before) | set(after) | {FW, "notes.txt", "manifest.json"})]
'''

PROMPT = '''\
Build the ${brand} download mirror with FastAPI, serving the files in `/workspace/mirror/`
(already there; do not change them) with the installed Starlette's file responses, which
support HTTP Range requests (recent: Starlette added range support and, in 1.1, changed the
fallback media type for unknown extensions). If you do not know these, read the installed
source under `python3 -c "import starlette, os; print(os.path.dirname(starlette.__file__))"`
(`responses.py`). "Starlette's standard" below means exactly the status, headers and body that
Starlette's file response gives.

**Published files** are the regular files directly in `mirror/` whose name does not start with
`.`; everything else (dot files, directories, anything deeper) is never served and is 404
`{"detail": "no such file"}` (or FastAPI's standard 404 for paths no route matches).

- `GET /files`: 200, the published files as `[{"name", "size"}]` (size in bytes) sorted by name.
- `GET` and `HEAD` `/files/{name}`: a download. `Content-Disposition` is an attachment named
  `${prefix}<name>` (Starlette's standard header for that file name, `filename*=utf-8''...`
  when it needs quoting). `/files/{name}/view`: the same file as `inline`, named `<name>`.
- Content types come from the extension: `notes.txt` is `text/plain; charset=utf-8`,
  `manifest.json` `application/json`, and `firmware.fwu` (an extension nothing knows) gets
  Starlette's standard fallback.
- Both routes answer `Range` and `If-Range` requests the standard way: `Accept-Ranges: bytes`;
  one satisfiable range is 206 with `Content-Range` and that slice; several are one 206
  `multipart/byteranges` response (overlapping ranges merged, in file order); a range that
  starts at or past the end (any one of several) is 416 with `Content-Range: bytes */<size>`
  and an empty body; a malformed `Range` header is 400 with Starlette's plain-text reason
  (Starlette's parsing decides what is malformed and what is skipped); an `If-Range` that is not
  the file's current `ETag` or `Last-Modified` value (a weak tag included) gets the whole file
  (200). `HEAD` gives the same status and headers without a body.
- `GET /stats`: 200 `{"downloads": {<name>: <count>}}`, names sorted, only names with a count:
  a `GET` of either route counts once for that file when the file's bytes were actually sent
  (200 or 206). `HEAD` requests, refused ranges (400, 416) and 404s do not count.

`result`, in order:
1. `["files", <the body of GET /files>]`
2. `GET /files/firmware.fwu` with `Range: ${range_a}`, as `[status, body text, headers]`, the
   headers a dict of those among `content-type`, `content-disposition`, `content-range`,
   `content-length`, `accept-ranges` that the response has (lower-case names)
3. `GET /files/notes.txt/view`, the same way
4. `GET /files/firmware.fwu` with `Range: bytes=${fw_len}-`, the same way
5. `["stats", <the body of GET /stats>]` after those
'''


def _derive(p):
    body = ALPHABET[:p["fw_len"]]
    return {"fw_body": body, "fw_last": p["fw_len"] - 1}


FAMILY = Family(
    id="recent/ranged_downloads",
    title="A download mirror on Starlette's range-aware file responses (recent Starlette)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    setup=SETUP,
    original={"brand": "Hearth", "prefix": "hearth-",
              "notes": "Hearth 2.4.1: faster pairing, fixed the hall sensor.\n",
              "manifest": '{"version": "2.4.1", "files": 1}\n', "fw_len": 40,
              "range_a": "bytes=5-14"},
    space={
        "brand": [{"brand": "Hearth", "prefix": "hearth-",
                   "notes": "Hearth 2.4.1: faster pairing, fixed the hall sensor.\n",
                   "manifest": '{"version": "2.4.1", "files": 1}\n'},
                  {"brand": "Voltly", "prefix": "Voltly release ",
                   "notes": "Voltly 3.0\nCharging schedules.\n",
                   "manifest": '{"release": "3.0"}\n'}],
        "fw_len": [40, 57],
        "range_a": ["bytes=5-14", "bytes=-12", "bytes=20-"],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("`GET /files` lists the published files (no dot files, no directories) "
                    "with their sizes, by name.",
                    probes=("listing",),
                    traps=(Edit("dot files listed", "if path.is_file() and not path.name."
                                "startswith(\".\")]", "if path.is_file()]"),
                           Edit("directories listed", "if path.is_file() and not path.name.",
                                "if not path.name."))),
        Requirement("Downloads are attachments named `${prefix}<name>` with the extension's "
                    "content type and `Accept-Ranges: bytes`.",
                    probes=("full_downloads",),
                    traps=(Edit("download named without prefix",
                                'send_file(request, name, "attachment", DOWNLOAD_PREFIX + name)',
                                'send_file(request, name, "attachment", name)'),)),
        Requirement("A file of unknown type is sent as Starlette's standard fallback type.",
                    probes=("unknown_type_fallback",),
                    traps=(Edit("text/plain fallback (older Starlette)",
                                "    return FileResponse(path, filename=filename,",
                                "    media_type = __import__('mimetypes').guess_type(name)[0]"
                                " or 'text/plain'\n"
                                "    return FileResponse(path, filename=filename, "
                                "media_type=media_type,"),)),
        Requirement("One satisfiable range is a 206 with `Content-Range` and that slice.",
                    probes=("single_ranges",),
                    traps=(Edit("ranges ignored", "    path = published(name)\n",
                                "    path = published(name)\n    request.scope[\"headers\"] = "
                                "[h for h in request.scope[\"headers\"] if h[0] != b\"range\"]\n"),
                           )),
        Requirement("Several ranges are one 206 `multipart/byteranges`, overlaps merged.",
                    probes=("several_ranges",),
                    traps=(Edit("one range at most", "    return FileResponse(path, filename=",
                                "    FileResponse.max_ranges = 1\n"
                                "    return FileResponse(path, filename="),)),
        Requirement("A range past the end is 416 with `Content-Range: bytes */<size>`; a "
                    "malformed one is Starlette's 400.",
                    probes=("refused_ranges",),
                    traps=(Edit("own 416 for ranges past the end", "    path = published(name)\n",
                                '''    path = published(name)
    rng = request.headers.get("range", "")
    if rng.startswith("bytes=") and rng[6:].split("-")[0].isdigit() and int(
            rng[6:].split("-")[0]) >= path.stat().st_size:
        raise HTTPException(416, "range not satisfiable")
'''),)),
        Requirement("An `If-Range` other than the current ETag or date gets the whole file.",
                    probes=("if_range",),
                    traps=(Edit("If-Range ignored", "    path = published(name)\n",
                                "    path = published(name)\n    request.scope[\"headers\"] = "
                                "[h for h in request.scope[\"headers\"] if h[0] != b\"if-range\"]\n"),
                           )),
        Requirement("`HEAD` on both routes gives the status and headers without a body.",
                    probes=("head_requests",),
                    traps=(head_not_served('@app.api_route("/files/{name}", methods=["GET", "HEAD"])',
                                           "no HEAD on downloads"),)),
        Requirement("`/files/{name}/view` sends the file inline, named `<name>`.",
                    probes=("inline_views",),
                    traps=(Edit("views as attachments", 'send_file(request, name, "inline", name)',
                                'send_file(request, name, "attachment", name)'),)),
        Requirement("Dot files, directories and deeper paths are 404, never served.",
                    probes=("only_published_files",),
                    traps=(Edit("dot files served", 'if name.startswith(".") or not path.is_file():',
                                "if not path.is_file():"),
                           Edit("directories not refused",
                                'if name.startswith(".") or not path.is_file():',
                                'if name.startswith(".") or not path.exists():'))),
        Requirement("`/stats` counts GETs whose file was sent (200/206), never HEAD, refused "
                    "ranges or 404s.",
                    probes=("downloads_counted_when_sent",),
                    traps=(Edit("counted before sending",
                                '    counted = BackgroundTask(count_download, name) if '
                                'request.method == "GET" else None',
                                '    if request.method == "GET":\n'
                                '        count_download(name)\n    counted = None'),
                           Edit("HEAD counted", 'BackgroundTask(count_download, name) if '
                                'request.method == "GET" else None',
                                "BackgroundTask(count_download, name)"))),
    ),
)
