"""Service tier: an office print service specified like a product document (12 routes plus HEAD,
API keys with member and operator roles, multipart uploads with strict form fields, downloads
with exact headers, jobs with priorities and a page quota, `{"error"}` bodies with validation
as 400, and `/docs` as the service's own document list)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.service._core_400_invalid import (
    ERRORS_SOURCE,
    ROLE_SOURCE,
    ROW_HELPERS,
    router_headers_dropped,
)
from fastapi_env.tasks.traps import (
    extras_ignored,
    head_left_out_of_methods,
    router_errors_in_fastapi_format,
)

REFERENCE = '''\
import re
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException

KEYS = {"${k_m1}": "${m1}", "${k_m2}": "${m2}", "${k_op}": "${op}"}
ROLES = {"${m1}": "member", "${m2}": "member", "${op}": "operator"}
PRINTERS = ("${p1}", "${p2}")
TYPES = ${types__repr}
QUOTA, MAX_COPIES, MAX_BYTES, TITLE_MAX = ${quota}, ${max_copies}, ${max_bytes}, ${title_max}
PRIORITY = {"high": 0, "normal": 1, "low": 2}
ROUTER_CODES = {404: "no_route", 405: "method_not_allowed"}
DOCS: dict[int, dict] = {}
CONTENT: dict[int, bytes] = {}
JOBS: dict[int, dict] = {}
NEXT = {"doc": 1, "job": 1}

# `/docs` is this service's document list, so Swagger UI must not take it; `/docs/` is a 404.
app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, redirect_slashes=False)


''' + late_body.ROUTE_CLASS + '''

''' + ERRORS_SOURCE + '''def invalid(fields: list[str]) -> RequestValidationError:
    return RequestValidationError([{"loc": ("body", f), "type": "value_error", "msg": "invalid"}
                                   for f in fields])


def caller(x_api_key: Annotated[str | None, Header()] = None) -> str:
    if x_api_key not in KEYS:
        raise Failure(401, "unauthenticated")
    return KEYS[x_api_key]


Caller = Annotated[str, Depends(caller)]


''' + ROLE_SOURCE + '''Member = role("member")
Operator = role("operator")


def next_id(kind: str) -> int:
    NEXT[kind] += 1
    return NEXT[kind] - 1


def base_name(filename: str) -> str:
    # Browsers on Windows send `C:\\\\dir\\\\a.txt`: both separators count, whatever the OS.
    return re.split(r"[/\\\\]", filename)[-1]


def read_form_text(form, field: str, bad: list[str]):
    """The field's text, None when absent; an empty value is given and invalid."""
    value = form.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or value == "":
        bad.append(field)
        return None
    return value


def parse_upload(form) -> dict:
    bad: list[str] = []
    upload = form.get("file")
    if not isinstance(upload, UploadFile) or not base_name(upload.filename or ""):
        bad.append("file")
    title = read_form_text(form, "title", bad)
    if title is not None and not 1 <= len(title.strip()) <= TITLE_MAX:
        bad.append("title")
    copies = read_form_text(form, "copies", bad)
    if copies is not None and not (re.fullmatch("[0-9]+", copies) and 1 <= int(copies) <= MAX_COPIES):
        bad.append("copies")
    duplex = read_form_text(form, "duplex", bad)
    if duplex is not None and duplex not in ("true", "false"):
        bad.append("duplex")
    if bad:
        raise invalid(sorted(set(bad)))
    name = base_name(upload.filename)
    return {"upload": upload, "name": name,
            "title": title.strip() if title is not None else name,
            "copies": int(copies) if copies is not None else 1, "duplex": duplex == "true"}


def visible(table: dict, item_id: int, name: str, code: str) -> dict:
    item = table.get(item_id)
    if item is None or (item["owner"] != name and ROLES[name] != "operator"):
        raise Failure(404, code)
    return item


def printer_of(printer: str) -> str:
    if printer not in PRINTERS:
        raise Failure(404, "unknown_printer")
    return printer


def pages_used(name: str) -> int:
    return sum(j["pages"] * j["copies"] for j in JOBS.values()
               if j["owner"] == name and j["status"] != "cancelled")


def in_print_order(jobs) -> list[dict]:
    return sorted(jobs, key=lambda j: (PRIORITY[j["priority"]], j["id"]))


@app.post("/docs", status_code=201)
async def upload_doc(name: Member, request: Request, response: Response):
    try:
        form = await request.form()
    except StarletteHTTPException:  # a multipart body Starlette cannot parse (no boundary, ...)
        raise invalid(["body"]) from None
    given = parse_upload(form)
    kind = (given["upload"].content_type or "").split(";")[0].strip().lower()
    if kind not in TYPES:
        raise Failure(415, "unsupported_type")
    content = await given["upload"].read()
    if not content:
        raise Failure(400, "empty_file")
    if len(content) > MAX_BYTES:
        raise Failure(413, "too_large")
    doc = {"id": next_id("doc"), "name": given["name"], "title": given["title"], "type": kind,
           "size": len(content), "pages": content.count(b"\\f") + 1, "copies": given["copies"],
           "duplex": given["duplex"], "owner": name}
    DOCS[doc["id"]], CONTENT[doc["id"]] = doc, content
    response.headers["Location"] = f"/docs/{doc['id']}"
    return doc


@app.api_route("/docs", methods=["GET", "HEAD"])
def list_docs(name: Caller):
    return [d for d in sorted(DOCS.values(), key=lambda d: d["id"])
            if d["owner"] == name or ROLES[name] == "operator"]


@app.api_route("/docs/{doc_id}", methods=["GET", "HEAD"])
def read_doc(doc_id: int, name: Caller):
    return visible(DOCS, doc_id, name, "unknown_doc")


@app.api_route("/docs/{doc_id}/content", methods=["GET", "HEAD"])
def doc_content(doc_id: int, name: Caller):
    doc = visible(DOCS, doc_id, name, "unknown_doc")
    response = Response(CONTENT[doc_id])
    # Set directly: a media_type of text/... would get "; charset=utf-8" appended.
    response.headers["Content-Type"] = doc["type"]
    response.headers["Content-Disposition"] = f'attachment; filename="{doc["name"]}"'
    return response


class JobIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    doc_id: StrictInt
    printer: str
    copies: StrictInt = Field(default=None, ge=1, le=MAX_COPIES)  # absent: None; null invalid
    priority: Literal["low", "normal", "high"] = "normal"


@app.post("/jobs", status_code=201)
def create_job(name: Member, body: JobIn, response: Response):
    doc = visible(DOCS, body.doc_id, name, "unknown_doc")
    printer = printer_of(body.printer)
    copies = body.copies if body.copies is not None else doc["copies"]
    left = QUOTA - pages_used(name)
    if doc["pages"] * copies > left:
        raise Failure(409, "quota_exceeded")
    job = {"id": next_id("job"), "doc_id": doc["id"], "printer": printer, "copies": copies,
           "pages": doc["pages"], "priority": body.priority, "status": "queued", "owner": name}
    JOBS[job["id"]] = job
    response.headers["Location"] = f"/jobs/{job['id']}"
    response.headers["X-Pages-Left"] = str(QUOTA - pages_used(name))
    return job


@app.api_route("/jobs", methods=["GET", "HEAD"])
def list_jobs(name: Caller, status: Annotated[
        list[Literal["queued", "printing", "done", "cancelled"]] | None, Query()] = None):
    return [j for j in sorted(JOBS.values(), key=lambda j: j["id"])
            if (j["owner"] == name or ROLES[name] == "operator")
            and (not status or j["status"] in status)]


@app.api_route("/jobs/{job_id}", methods=["GET", "HEAD"])
def read_job(job_id: int, name: Caller):
    return visible(JOBS, job_id, name, "unknown_job")


@app.delete("/jobs/{job_id}")
def cancel_job(job_id: int, name: Caller):
    job = visible(JOBS, job_id, name, "unknown_job")
    if job["status"] != "queued":
        raise Failure(409, "not_cancellable")
    job["status"] = "cancelled"
    return job


@app.api_route("/printers/{printer}/queue", methods=["GET", "HEAD"])
def printer_queue(printer: str, name: Caller):
    printer = printer_of(printer)
    return in_print_order(j for j in JOBS.values()
                          if j["printer"] == printer and j["status"] == "queued")


@app.post("/printers/{printer}/next")
def take_next(printer: str, name: Operator):
    queue = in_print_order(j for j in JOBS.values()
                           if j["printer"] == printer_of(printer) and j["status"] == "queued")
    if not queue:
        return Response(status_code=204)
    queue[0]["status"] = "printing"
    return queue[0]


@app.post("/jobs/{job_id}/done")
def finish_job(job_id: int, name: Operator):
    job = visible(JOBS, job_id, name, "unknown_job")
    if job["status"] != "printing":
        raise Failure(409, "not_printing")
    job["status"] = "done"
    return job


@app.api_route("/me/quota", methods=["GET", "HEAD"])
def my_quota(name: Member):
    used = pages_used(name)
    return {"quota": QUOTA, "used": used, "left": QUOTA - used}


def row(r):
    if not r.content:
        return [r.status_code]
    is_json = r.headers.get("content-type") == "application/json"
    return [r.status_code, r.json() if is_json else r.text]


client = TestClient(app)
member = {"X-Api-Key": "${k_m1}"}
result = [
    row(client.post("/docs", headers=member, data={"copies": "${copies_in}"},
                    files={"file": ("${file_in}", b"page one\\fpage two\\fpage three", "${type_in}")})),
    row(client.post("/jobs", json={"doc_id": 1, "printer": "${p1}"}, headers=member)),
    row(client.get("/me/quota", headers=member)),
    row(client.get("/docs", headers=member)),
]
'''

PROBES = ROW_HELPERS + '''

M1, M2, OP = {"X-Api-Key": "${k_m1}"}, {"X-Api-Key": "${k_m2}"}, {"X-Api-Key": "${k_op}"}
P1, P2 = "${p1}", "${p2}"
TYPE = ${types__json}[0]


def _upload(client, headers=M1, name="notes.txt", content=b"text", kind=None, **form):
    return client.post("/docs", headers=headers, data=form,
                       files={"file": (name, content, kind or TYPE)})


def _doc(client, headers=M1, pages=1, **form):
    return _upload(client, headers, content=b"\\f".join([b"p"] * pages), **form).json()["id"]
''' + late_body.probe_source(
    [("POST", "/jobs")], [("no key", "{}"), ("operator", "OP"), ("member", "M1")]) + '''


def _job(client, doc, headers=M1, printer=P1, **fields):
    return client.post("/jobs", json={"doc_id": doc, "printer": printer} | fields,
                       headers=headers)


def _clear(client, printer):
    """Cancel what is queued on a printer, so one probe's jobs neither reach the next probe's
    queue nor use up a quota (cancelled pages are given back)."""
    for job in client.get(f"/printers/{printer}/queue", headers=OP).json():
        client.delete(f"/jobs/{job['id']}", headers=OP)


def _print_next(client, printer):
    job = client.post(f"/printers/{printer}/next", headers=OP).json()["id"]
    client.post(f"/jobs/{job}/done", headers=OP)
    return job


def probe_api_keys(client):
    rows = []
    for headers in [{}, {"X-Api-Key": ""}, {"X-Api-Key": "${m1}"}, {"X-Api-Key": "${k_m1}".upper()},
                    {"X-Api-Key": " ${k_m1}"}, {"Authorization": "Bearer ${k_m1}"}]:
        for method, path in [("GET", "/docs"), ("POST", "/docs"), ("GET", "/docs/1/content"),
                             ("POST", "/jobs"), ("DELETE", "/jobs/1"), ("GET", "/me/quota"),
                             ("POST", f"/printers/{P1}/next")]:
            rows.append([method, path, _err(client.request(method, path, headers=headers))])
    return rows


def probe_roles(client):
    rows = []
    for headers in (OP, M1):
        rows += [_err(client.post("/docs", headers=headers)),
                 _err(client.post("/jobs", json={}, headers=headers)),
                 _err(client.get("/me/quota", headers=headers))]
    for headers in (M1, OP):
        rows += [_err(client.post("/printers/no-printer/next", headers=headers)),
                 _err(client.post("/jobs/99999/done", headers=headers))]
    return rows


def probe_error_format(client):
    return [_row(client.get("/nowhere", headers=M1)), _row(client.get("/nowhere")),
            _row(client.put("/docs", headers=M1)),
            _row(client.post("/jobs", json={"doc_id": "x", "printer": 5, "color": 1}, headers=M1)),
            _row(client.post("/jobs", json=[1], headers=M1)),
            _row(client.get("/jobs/abc", headers=M1)),
            _row(client.get("/jobs", params={"status": "lost"}, headers=M1))]


def probe_allow_header(client):
    return [[method, path, r.status_code, r.headers.get("allow")]
            for method, path in [("GET", f"/printers/{P1}/next"), ("PUT", "/jobs/1/done"),
                                 ("GET", "/jobs/1/done")]
            for r in [client.request(method, path, headers=OP)]]


def probe_no_schema(client):
    return [[path, _row(client.get(path, headers=headers))]
            for path in ("/openapi.json", "/redoc") for headers in ({}, M1)]


def probe_trailing_slash(client):
    rows = []
    for path in ["/jobs/", "/me/quota/", f"/printers/{P1}/queue/"]:
        r = client.get(path, headers=M1, follow_redirects=False)
        rows.append([path, r.status_code, r.headers.get("location"), _err(r)])
    return rows


def probe_docs_list(client):
    mine = _doc(client, M2, title="Mine")
    other = _doc(client, M1, title="Other")
    r = client.get("/docs", headers=M2)
    rows = [[r.status_code, r.headers.get("content-type"),
             [d["title"] for d in r.json() if d["id"] in (mine, other)]]]
    rows.append([d["title"] for d in client.get("/docs", headers=OP).json() if d["id"] in (mine, other)])
    rows.append(_err(client.get("/docs")))
    return rows


def probe_upload(client):
    r = _upload(client, name="report.txt", content=b"one\\ftwo", copies="2", duplex="true")
    body = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/docs/{body['id']}",
             {k: v for k, v in body.items() if k != "id"}]]
    r = client.get(f"/docs/{body['id']}", headers=M1)
    rows.append([r.status_code, r.json() == body])
    rows.append([_err(client.get(f"/docs/{body['id']}", headers=M2)),
                 _row(client.get(f"/docs/{body['id']}", headers=OP))[0],
                 _err(client.get("/docs/99999", headers=M1))])
    return rows


def probe_unreadable_form(client):
    rows = []
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        r = client.post("/docs", content=b"--x\\r\\n", headers=M1 | {"Content-Type": content_type})
        rows.append([content_type, _row(r)])
    return rows


def probe_file_names(client):
    rows = []
    for name in ["plain.txt", "../../etc/passwd.txt", "/abs/dir/a.txt", "C:\\\\Users\\\\ann\\\\b.txt",
                 "mixed/dir\\\\c.txt", "dir/"]:
        r = _upload(client, name=name)
        rows.append([name, r.status_code, r.json().get("name", r.json().get("fields")),
                     r.json().get("title")])
    return rows


def probe_types(client):
    rows = []
    for kind in ${types__json} + [t.upper() for t in ${types__json}] + [
            ${types__json}[0] + "; charset=utf-8", "application/pdf", "text/html", "image/png"]:
        r = _upload(client, kind=kind)
        rows.append([kind, r.status_code, r.json().get("type", r.json().get("error"))])
    return rows


def probe_sizes(client):
    rows = []
    for size in [1, ${max_bytes}, ${max_bytes} + 1, 0]:
        r = _upload(client, content=b"x" * size)
        rows.append([size, r.status_code, r.json().get("size", r.json().get("error"))])
    rows.append(_err(_upload(client, content=b"", kind="image/png")))
    rows.append(_err(_upload(client, content=b"", copies="x")))
    return rows


def probe_pages(client):
    rows = []
    for content in [b"single", b"a\\fb", b"\\f", b"\\f\\f\\f", b"a\\n\\nb", b"a\\fb\\fc\\f"]:
        r = _upload(client, content=content)
        rows.append([content.decode(), r.json()["pages"]])
    return rows


def probe_title(client):
    rows = []
    for title in [None, "  Annual Report  ", "", "   ", "t" * ${title_max}, "t" * (${title_max} + 1)]:
        form = {} if title is None else {"title": title}
        r = _upload(client, name="dir/fallback.txt", **form)
        rows.append([title, r.status_code, r.json().get("title", r.json().get("fields"))])
    return rows


def probe_copies(client):
    rows = []
    for copies in [None, "1", "${max_copies}", "0", str(${max_copies} + 1), "", "2.0", " 2", "+2",
                   "two", "02"]:
        form = {} if copies is None else {"copies": copies}
        r = _upload(client, **form)
        rows.append([copies, r.status_code, r.json().get("copies", r.json().get("fields"))])
    return rows


def probe_duplex(client):
    rows = []
    for duplex in [None, "true", "false", "", "yes", "on", "1", "True"]:
        form = {} if duplex is None else {"duplex": duplex}
        r = _upload(client, **form)
        rows.append([duplex, r.status_code, r.json().get("duplex", r.json().get("fields"))])
    rows.append(_fields(_upload(client, copies="", duplex="", title="")))
    return rows


def probe_content(client):
    rows = []
    for kind in ${types__json}:
        doc = _upload(client, name="sub/out.txt", content=b"abc\\fdef", kind=kind).json()["id"]
        r = client.get(f"/docs/{doc}/content", headers=M1)
        rows.append([r.status_code, r.headers.get("content-type"),
                     r.headers.get("content-disposition"), r.text])
    doc = _upload(client, kind=${types__json}[0] + "; charset=latin-1").json()["id"]
    rows.append(["charset upload", client.get(f"/docs/{doc}/content", headers=OP).headers.get("content-type")])
    rows += [_err(client.get(f"/docs/{doc}/content", headers=M2)),
             _err(client.get("/docs/99999/content", headers=M1))]
    return rows


def probe_head(client):
    doc = _doc(client)
    job = _job(client, doc).json()["id"]
    rows = []
    for label, path, headers in [
            ("docs", "/docs", M1), ("doc", f"/docs/{doc}", M1),
            ("content", f"/docs/{doc}/content", M1), ("jobs", "/jobs", M1),
            ("job", f"/jobs/{job}", M1), ("queue", f"/printers/{P1}/queue", M1),
            ("quota", "/me/quota", M1), ("others' doc", f"/docs/{doc}", M2),
            ("operator's quota", "/me/quota", OP)]:
        got, head = client.get(path, headers=headers), client.head(path, headers=headers)
        rows.append([label, head.status_code, head.status_code == got.status_code,
                     head.content == b"", head.headers.get("content-type") == got.headers.get("content-type")])
    client.delete(f"/jobs/{job}", headers=M1)
    return rows


def probe_job_create(client):
    doc = _doc(client, pages=2, copies="3")
    r = _job(client, doc, priority="high")
    body = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/jobs/{body['id']}",
             {k: v for k, v in body.items() if k not in ("id", "doc_id")}]]
    r = _job(client, doc, copies=1, printer=P2)
    rows.append([r.status_code, r.json()["copies"], r.json()["priority"]])
    rows += [_err(_job(client, 99999)), _err(_job(client, doc, headers=M2)),
             _err(_job(client, doc, printer=P1.upper())), _err(_job(client, 99999, printer="nope"))]
    _clear(client, P1)
    _clear(client, P2)
    return rows


def probe_job_fields(client):
    doc = _doc(client)
    rows = []
    for fields in [{"copies": 0}, {"copies": ${max_copies}}, {"copies": ${max_copies} + 1},
                   {"copies": "2"}, {"copies": 2.0}, {"copies": True}, {"priority": "urgent"},
                   {"priority": "low"}, {"doc_id": str(doc)}, {"extra": 1}, {"copies": None}]:
        r = client.post("/jobs", json={"doc_id": doc, "printer": P1} | fields, headers=M1)
        shown = {k: v if k != "doc_id" else type(v).__name__ for k, v in fields.items()}
        rows.append([shown, r.status_code, r.json().get("copies", r.json().get("fields"))])
    _clear(client, P1)
    return rows


def _quota(client, headers):
    body = client.get("/me/quota", headers=headers).json()
    return [body.get("quota"), body.get("used"), body.get("left")]


def probe_quota(client):
    _clear(client, P2)
    start = client.get("/me/quota", headers=M2).json()
    doc = _doc(client, M2, pages=5)
    rows = [[start["quota"], start["used"], start["left"]]]
    made = []
    while True:
        r = _job(client, doc, headers=M2, printer=P2, copies=1)
        if r.status_code != 201:
            rows.append(_err(r))
            break
        made.append(r.json()["id"])
        rows.append([r.headers.get("x-pages-left")])
    rows.append(_quota(client, M2))
    client.delete(f"/jobs/{made[-1]}", headers=M2)
    rows.append(_quota(client, M2))
    _clear(client, P1)
    printing = client.post(f"/printers/{P2}/next", headers=OP).json()["id"]
    rows.append(_quota(client, M2))
    client.post(f"/jobs/{printing}/done", headers=OP)
    _clear(client, P2)
    rows.append(_quota(client, M2))
    return rows


def probe_queue_order(client):
    doc = _doc(client)
    ids = {}
    for label, priority in [("n1", "normal"), ("l1", "low"), ("h1", "high"), ("n2", None),
                            ("h2", "high"), ("l2", "low")]:
        fields = {} if priority is None else {"priority": priority}
        ids[_job(client, doc, printer=P2, **fields).json()["id"]] = label
    r = client.get(f"/printers/{P2}/queue", headers=M2)
    rows = [[ids.get(j["id"], "?") for j in r.json()]]
    rows.append(_err(client.get("/printers/nowhere/queue", headers=M1)))
    _clear(client, P2)
    return rows


def probe_printing(client):
    doc = _doc(client)
    _clear(client, P1)
    r = client.post(f"/printers/{P1}/next", headers=OP)
    rows = [[r.status_code, r.content == b""]]
    low = _job(client, doc, priority="low").json()["id"]
    high = _job(client, doc, priority="high").json()["id"]
    r = client.post(f"/printers/{P1}/next", headers=OP)
    rows.append([r.status_code, r.json()["id"] == high, r.json()["status"]])
    rows += [_err(client.post(f"/jobs/{low}/done", headers=OP)),
             _err(client.post("/jobs/99999/done", headers=OP)),
             _err(client.post("/printers/nowhere/next", headers=OP))]
    r = client.post(f"/jobs/{high}/done", headers=OP)
    rows.append([r.status_code, r.json()["status"]])
    rows.append(_err(client.post(f"/jobs/{high}/done", headers=OP)))
    _clear(client, P1)
    return rows


def probe_cancel(client):
    doc = _doc(client)
    first, second = _job(client, doc).json()["id"], _job(client, doc).json()["id"]
    rows = [_err(client.delete(f"/jobs/{first}", headers=M2))]
    r = client.delete(f"/jobs/{first}", headers=M1)
    rows.append([r.status_code, r.json()["status"]])
    rows.append(_err(client.delete(f"/jobs/{first}", headers=M1)))
    r = client.delete(f"/jobs/{second}", headers=OP)
    rows.append([r.status_code, r.json()["status"]])
    _clear(client, P1)
    third = _job(client, doc).json()["id"]
    client.post(f"/printers/{P1}/next", headers=OP)
    rows.append(["printing", _err(client.delete(f"/jobs/{third}", headers=M1))])
    client.post(f"/jobs/{third}/done", headers=OP)
    rows += [_err(client.delete(f"/jobs/{third}", headers=M1)),
             _err(client.delete("/jobs/99999", headers=OP)),
             [client.get(f"/jobs/{first}", headers=M1).json()["status"],
              _err(client.get(f"/jobs/{first}", headers=M2))]]
    return rows


def probe_job_list(client):
    doc = _doc(client, M2)
    _clear(client, P1)
    done = _job(client, doc, headers=M2).json()["id"]
    _print_next(client, P1)
    cancelled, queued = (_job(client, doc, headers=M2).json()["id"] for _ in range(2))
    client.delete(f"/jobs/{cancelled}", headers=M2)
    mine = {done: "done", cancelled: "cancelled", queued: "queued"}
    rows = []
    for query in ["", "status=queued", "status=done&status=cancelled", "status=printing",
                  "status=done&status=queued&status=cancelled"]:
        r = client.get(f"/jobs?{query}", headers=M2)
        rows.append([query, [mine.get(j["id"], j["owner"]) for j in r.json()
                             if j["id"] in mine or j["owner"] != "${m2}"]])
    rows.append(["operator", [mine[j["id"]] for j in client.get("/jobs", headers=OP).json()
                         if j["id"] in mine]])
    client.delete(f"/jobs/{queued}", headers=M2)
    return rows
'''

PROMPT = """\
Build the HTTP API of an office print service: members upload documents and send them to
printers as jobs; an operator runs the printers. All state is in memory and starts empty;
document ids and job ids are each 1, 2, ... in creation order.

## Access
Every request carries the header `X-Api-Key` (matched exactly):

| key | user | role |
|---|---|---|
| `${k_m1}` | `${m1}` | member |
| `${k_m2}` | `${m2}` | member |
| `${k_op}` | `${op}` | operator |

A missing or unknown key is 401 `unauthenticated` on every route (paths the service does not
have and methods a path does not serve are answered 404 and 405 below, with or without a key).
Routes marked (member) or (operator) answer 403 `forbidden` to the other role. On a route, the
key is checked first, then the role,
then the request's validity, then the route's own checks in the order given; a body that is
not JSON is no exception (without a known key it is 401, with the other role's key 403). The printers are
`${p1}` and `${p2}` (names matched exactly).

## Errors
Every error body is `{"error": "<code>"}`. An invalid request is **400** (not 422)
`{"error": "invalid", "fields": [...]}`: the sorted names, without repeats, of the invalid
fields, form fields or parameters (the field's own name, not a position within it; `"body"`
when the body as a whole is wrong: missing, not JSON, not a JSON object, or a multipart
body that cannot be read, such as one without a boundary). A path the service does not have is
404 `no_route`; a path with a trailing slash (`/jobs/`) is such a path too, answered 404
directly, never redirected, and so are `/openapi.json` and `/redoc`: the service publishes no
API documentation or schema. A known path with a method it does not serve is 405 `method_not_allowed`, carrying FastAPI's
standard `Allow` header naming the methods that path's route serves. Every route documented
below as GET also answers HEAD: the same status and headers as the GET would give, with no body.

## Documents
A document: `{"id", "name", "title", "type", "size", "pages", "copies", "duplex", "owner"}`.
A member sees their own documents, the operator sees all; a document someone may not see is
404 `unknown_doc`, exactly like one that does not exist.
- `POST /docs` (member): a multipart form with
  - `file` (required): the document. Its `name` is the upload's file name without any directory
    part: whatever follows the last `/` or `\\` (`C:\\docs\\a.txt` is `a.txt`); a file name that
    leaves nothing is invalid (field `file`);
  - `title` (optional): trimmed, 1 to ${title_max} characters; when the field is absent the
    title is the `name`;
  - `copies` (optional, default 1): written in plain digits only (`2`; not `2.0`, ` 2` or
    `+2`), from 1 to ${max_copies};
  - `duplex` (optional, default `false`): exactly `true` or `false`.
  A form field that is present but empty (`copies=`) is invalid, never taken as absent. Other
  form fields are ignored. Then the checks, in this order: the upload's content type, without
  its parameters and ignoring case, must be one of ${types_words} (else 415
  `unsupported_type`; `type` is stored in lowercase without parameters); an empty file is 400
  `empty_file`; more than ${max_bytes} bytes is 413 `too_large`. `size` is the byte count and
  `pages` is 1 plus the number of form-feed characters (byte 0x0C) in the file. 201 with the
  document and `Location: /docs/<id>`.
- `GET /docs`: 200, the documents the caller sees, by id.
- `GET /docs/{doc_id}`: 200 the document.
- `GET /docs/{doc_id}/content`: 200 with the file's bytes exactly as uploaded,
  `Content-Type` exactly the stored `type`, and
  `Content-Disposition: attachment; filename="<name>"`.

## Jobs
A job: `{"id", "doc_id", "printer", "copies", "pages", "priority", "status", "owner"}`, with
`status` one of `queued`, `printing`, `done`, `cancelled`. A member sees their own jobs, the
operator all; other jobs are 404 `unknown_job` like missing ones.
- `POST /jobs` (member): JSON body `{"doc_id", "printer", "copies", "priority"}`: `doc_id` a
  JSON integer; `printer` a string; `copies` optional, a JSON integer from 1 to ${max_copies}
  (strings, booleans and fractions are invalid), defaulting to the document's `copies`;
  `priority` `low`, `normal` (default) or `high`; other fields invalid, and so is `null` for
  any field (`"copies": null` is not an absent `copies`). Then 404
  `unknown_doc`, then 404 `unknown_printer`; then the quota: every member may have at most
  ${quota} pages (`pages` x `copies`) in jobs that are not cancelled, and a job that would go
  beyond is 409 `quota_exceeded`. 201 with the job (`queued`), `Location: /jobs/<id>` and
  `X-Pages-Left`: the member's pages left after this job.
- `GET /jobs`: 200 the jobs the caller sees, by id; `status`, repeatable
  (`?status=done&status=cancelled`), keeps the jobs in any of the given statuses (each must be
  one of the four).
- `GET /jobs/{job_id}`: 200 the job.
- `DELETE /jobs/{job_id}` (its owner, or the operator): a `queued` job becomes `cancelled`
  (200 the job); any other status is 409 `not_cancellable`.
- `GET /printers/{printer}/queue` (either role): 200 the printer's `queued` jobs of every member,
  whoever asks, in print order: `high`, then
  `normal`, then `low`, and by id within a priority. 404 `unknown_printer`.
- `POST /printers/{printer}/next` (operator): 404 `unknown_printer`; the first job in print
  order becomes `printing` (200 the job); when nothing is queued, 204 with an empty body.
- `POST /jobs/{job_id}/done` (operator): 404 `unknown_job`; a `printing` job becomes `done`
  (200 the job), any other is 409 `not_printing`.
- `GET /me/quota` (member): 200 `{"quota", "used", "left"}` in pages.

## result
One row per request, `[status code, JSON body]`, as `${m1}`:
1. `POST /docs` with the form field `copies=${copies_in}` and the file `${file_in}` of type
   `${type_in}` holding `page one<FF>page two<FF>page three` (`<FF>` a form feed)
2. `POST /jobs` with `{"doc_id": 1, "printer": "${p1}"}`
3. `GET /me/quota`
4. `GET /docs`
"""

NAMES = [{"m1": "mona", "m2": "niko", "op": "olaf", "k_m1": "pq-mona-11", "k_m2": "pq-niko-42",
          "k_op": "pq-olaf-07", "p1": "lobby", "p2": "lab-2"},
         {"m1": "ruth", "m2": "saul", "op": "tess", "k_m1": "key:ruth", "k_m2": "key:saul",
          "k_op": "key:tess", "p1": "north", "p2": "annex"}]
FIXTURES = [{"copies_in": "2", "file_in": "drafts/plan.txt", "type_in": "text/plain"},
            {"copies_in": "3", "file_in": "C:\\\\Users\\\\me\\\\memo.txt", "type_in": "TEXT/PLAIN; charset=utf-8"}]


def _derive(p):
    return {"types_words": " or ".join(f"`{t}`" for t in p["types"])}


UPLOAD_EMPTY_IS_ABSENT = Edit("empty form fields taken as absent", '''    if value is None:
        return None
    if not isinstance(value, str) or value == "":''', '''    if value is None or value == "":
        return None
    if not isinstance(value, str):''')

FAMILY = Family(
    id="service/print_queue",
    title="An office print service's documents, jobs and queues from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=NAMES[0] | FIXTURES[0] | {"types": ["text/plain", "text/csv"], "quota": 40,
                                       "max_copies": 10, "max_bytes": 2000, "title_max": 60},
    space={
        "names": NAMES,
        "fixture": FIXTURES,
        "types": [["text/plain", "text/csv"], ["text/plain", "text/markdown"]],
        "limits": [{"quota": 40, "max_copies": 10}, {"quota": 25, "max_copies": 5}],
        "sizes": [{"max_bytes": 2000, "title_max": 60}, {"max_bytes": 1000, "title_max": 40}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("Every route needs a known, exact `X-Api-Key`, else 401 `unauthenticated`, "
                    "before anything else.",
                    probes="api_keys",
                    traps=Edit("keys trimmed", "    if x_api_key not in KEYS:\n",
                               "    x_api_key = (x_api_key or '').strip()\n    if x_api_key not in KEYS:\n")),
        Requirement("The key and the role are checked before the body, even a body that is not "
                    "JSON (then 400 `invalid` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Member and operator routes answer 403 `forbidden` to the other role, before "
                    "validation and the route's checks.",
                    probes="roles",
                    traps=(Edit("operators upload", "async def upload_doc(name: Member,",
                                "async def upload_doc(name: Caller,"),
                           Edit("members take jobs", "def take_next(printer: str, name: Operator):",
                                "def take_next(printer: str, name: Caller):"))),
        Requirement("Errors are `{error}`; invalid requests 400 `invalid` with sorted field names; "
                    "unknown paths 404 `no_route`, wrong methods 405 `method_not_allowed`.",
                    probes="error_format",
                    traps=(Edit("validation stays 422", 'return failure(400, "invalid", fields=sorted(names))',
                                'return failure(422, "invalid", fields=sorted(names))'),
                           router_errors_in_fastapi_format())),
        Requirement("A 405 carries FastAPI's standard `Allow` header.",
                    probes="allow_header", traps=router_headers_dropped()),
        Requirement("A path with a trailing slash is 404 `no_route`, not a redirect.",
                    probes="trailing_slash",
                    traps=Edit("trailing slashes redirected", "openapi_url=None, redirect_slashes=False)",
                               "openapi_url=None)")),
        Requirement("The service publishes no documentation or schema: `/openapi.json` and "
                    "`/redoc` are 404 `no_route`.",
                    probes="no_schema",
                    traps=Edit("schema and ReDoc served", "redoc_url=None, openapi_url=None, ", "")),
        Requirement("`GET /docs` is the service's document list (own documents, all for the "
                    "operator, by id).",
                    probes="docs_list",
                    traps=(Edit("Swagger UI keeps /docs",
                                "FastAPI(docs_url=None, redoc_url=None, openapi_url=None, ",
                                "FastAPI(redoc_url=None, "),
                           Edit("members list every document",
                                'if d["owner"] == name or ROLES[name] == "operator"]', "]"))),
        Requirement("An upload is 201 with `Location: /docs/<id>` and the documented fields; "
                    "documents are visible to their owner and the operator only (else 404).",
                    probes="upload",
                    traps=(Edit("no Location for documents",
                                "    response.headers[\"Location\"] = f\"/docs/{doc['id']}\"\n", ""),
                           Edit("documents visible to everyone",
                                'if item is None or (item["owner"] != name and ROLES[name] != "operator"):',
                                "if item is None:"))),
        Requirement("A multipart body that cannot be read (no boundary) is 400 `invalid` naming "
                    "`body`.",
                    probes="unreadable_form",
                    traps=Edit("unreadable form as a router error",
                               "    try:\n        form = await request.form()\n    except StarletteHTTPException:",
                               "    try:\n        form = await request.form()\n    except KeyError:")),
        Requirement("A document's name is what follows the last `/` or `\\` of the file name; "
                    "nothing left is invalid.",
                    probes="file_names",
                    traps=(Edit("names cut with os.path.basename", r'return re.split(r"[/\\]", filename)[-1]',
                                "return __import__('os').path.basename(filename)"),
                           Edit("file names kept whole", r'return re.split(r"[/\\]", filename)[-1]',
                                "return filename"))),
        Requirement("Only ${types_words} are accepted (case and parameters ignored, stored bare), "
                    "else 415 `unsupported_type`.",
                    probes="types",
                    traps=(Edit("content types compared whole",
                                '(given["upload"].content_type or "").split(";")[0].strip().lower()',
                                '(given["upload"].content_type or "")'),)),
        Requirement("After the type, an empty file is 400 `empty_file` and one over ${max_bytes} "
                    "bytes 413 `too_large`.",
                    probes="sizes",
                    traps=(Edit("size limit off by one", "if len(content) > MAX_BYTES:",
                                "if len(content) >= MAX_BYTES:"),
                           Edit("size checked before the type", '''    kind = (given["upload"].content_type or "").split(";")[0].strip().lower()
    if kind not in TYPES:
        raise Failure(415, "unsupported_type")
    content = await given["upload"].read()
    if not content:
        raise Failure(400, "empty_file")
''', '''    content = await given["upload"].read()
    if not content:
        raise Failure(400, "empty_file")
    kind = (given["upload"].content_type or "").split(";")[0].strip().lower()
    if kind not in TYPES:
        raise Failure(415, "unsupported_type")
'''))),
        Requirement("`pages` is 1 plus the number of form feeds in the file.",
                    probes="pages",
                    traps=Edit("pages counted by lines", 'content.count(b"\\f") + 1',
                               'content.count(b"\\n") + 1')),
        Requirement("`title` is trimmed, 1-${title_max} characters, and defaults to the name when "
                    "absent; an empty one is invalid.",
                    probes="title",
                    traps=(Edit("titles not trimmed", "if title is not None and not 1 <= len(title.strip()) <= TITLE_MAX:",
                                "if title is not None and not 1 <= len(title) <= TITLE_MAX:"),
                           Edit("empty title taken as absent", '''    title = read_form_text(form, "title", bad)''',
                                '''    title = read_form_text(form, "title", bad) if form.get("title") != "" else None'''))),
        Requirement("`copies` is plain digits 1-${max_copies} (default 1); `2.0`, ` 2`, `+2` and "
                    "an empty value are invalid.",
                    probes="copies",
                    traps=(Edit("copies read as a FastAPI form integer",
                                '''    if copies is not None and not (re.fullmatch("[0-9]+", copies) and 1 <= int(copies) <= MAX_COPIES):
        bad.append("copies")''', '''    try:
        copies = None if copies is None else str(int(float(copies)))
    except ValueError:
        copies = "x"
    if copies is not None and not (re.fullmatch("[0-9]+", copies) and 1 <= int(copies) <= MAX_COPIES):
        bad.append("copies")'''),
                           Edit("copies unbounded", "1 <= int(copies) <= MAX_COPIES)", "1 <= int(copies))"))),
        Requirement("`duplex` is exactly `true` or `false` (default false); an empty form field "
                    "is invalid, never absent.",
                    probes="duplex",
                    traps=(Edit("duplex read as a FastAPI bool", 'duplex not in ("true", "false")',
                                'duplex.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0")'),
                           UPLOAD_EMPTY_IS_ABSENT)),
        Requirement("The content route sends the bytes with `Content-Type` exactly the stored type "
                    "and `Content-Disposition: attachment; filename=\"<name>\"`.",
                    probes="content",
                    traps=(Edit("charset appended to text types", '''    response = Response(CONTENT[doc_id])
    # Set directly: a media_type of text/... would get "; charset=utf-8" appended.
    response.headers["Content-Type"] = doc["type"]''', '''    response = Response(CONTENT[doc_id], media_type=doc["type"])'''),
                           Edit("no Content-Disposition",
                                '''    response.headers["Content-Disposition"] = f'attachment; filename="{doc["name"]}"'\n''', ""))),
        Requirement("Every GET route answers HEAD with the GET's status and headers and no body.",
                    probes="head", traps=head_left_out_of_methods(7)),
        Requirement("A job is 201 with `Location` and the documented fields; `copies` defaults to "
                    "the document's; 404 `unknown_doc` before `unknown_printer`.",
                    probes="job_create",
                    traps=(Edit("copies default to 1", 'copies = body.copies if body.copies is not None else doc["copies"]',
                                "copies = body.copies or 1"),
                           Edit("printer checked before the document", '''    doc = visible(DOCS, body.doc_id, name, "unknown_doc")
    printer = printer_of(body.printer)''', '''    printer = printer_of(body.printer)
    doc = visible(DOCS, body.doc_id, name, "unknown_doc")'''),
                           Edit("no Location for jobs",
                                "    response.headers[\"Location\"] = f\"/jobs/{job['id']}\"\n", ""))),
        Requirement("Job `copies` is a JSON integer 1-${max_copies}; `priority` low/normal/high; "
                    "`doc_id` a JSON integer; no other fields.",
                    probes="job_fields",
                    traps=(Edit("job fields read leniently", "    copies: StrictInt = Field(",
                                "    copies: int = Field("),
                           Edit("null copies taken as absent", "    copies: StrictInt = Field(",
                                "    copies: StrictInt | None = Field("),
                           extras_ignored("extra job fields ignored", "JobIn"))),
        Requirement("The quota counts pages x copies of jobs not cancelled: 409 `quota_exceeded` "
                    "beyond ${quota}, `X-Pages-Left` after each job, `GET /me/quota`.",
                    probes="quota",
                    traps=(Edit("quota check off by one", 'if doc["pages"] * copies > left:',
                                'if doc["pages"] * copies >= left:'),
                           Edit("cancelled jobs still counted", ' and j["status"] != "cancelled")', ")"),
                           Edit("pages left before the job", '''    JOBS[job["id"]] = job
    response.headers["Location"] = f"/jobs/{job['id']}"
    response.headers["X-Pages-Left"] = str(QUOTA - pages_used(name))''', '''    response.headers["X-Pages-Left"] = str(QUOTA - pages_used(name))
    JOBS[job["id"]] = job
    response.headers["Location"] = f"/jobs/{job['id']}"'''))),
        Requirement("A printer's queue lists its queued jobs high, normal, low, then by id; 404 "
                    "`unknown_printer`.",
                    probes="queue_order",
                    traps=Edit("queue by id only", 'key=lambda j: (PRIORITY[j["priority"]], j["id"])',
                               'key=lambda j: j["id"]')),
        Requirement("`next` takes the first job in print order (204 with no body when none); "
                    "`done` finishes a printing job, else 409 `not_printing`.",
                    probes="printing",
                    traps=(Edit("empty queue as a JSON null", "        return Response(status_code=204)",
                                "        return JSONResponse(None, status_code=204)"),
                           Edit("done accepted from any status", '''    if job["status"] != "printing":
        raise Failure(409, "not_printing")
''', ""))),
        Requirement("Only a queued job can be cancelled, by its owner or the operator; else 409 "
                    "`not_cancellable` (404 for others' jobs).",
                    probes="cancel",
                    traps=Edit("printing jobs cancellable", '    if job["status"] != "queued":\n        raise Failure(409, "not_cancellable")',
                               '    if job["status"] in ("done", "cancelled"):\n        raise Failure(409, "not_cancellable")')),
        Requirement("`GET /jobs` lists visible jobs by id; `status` is repeatable and keeps any of "
                    "the given statuses.",
                    probes="job_list",
                    traps=(Edit("status list read from the body", '''status: Annotated[
        list[Literal["queued", "printing", "done", "cancelled"]] | None, Query()] = None''',
                                '''status: list[Literal["queued", "printing", "done", "cancelled"]] | None = None'''),
                           Edit("members see every job", '''            if (j["owner"] == name or ROLES[name] == "operator")
            and''', "            if"))),
    ),
)
