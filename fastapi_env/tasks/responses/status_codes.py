from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from fastapi import FastAPI, HTTPException, Response
from fastapi.testclient import TestClient
from pydantic import BaseModel


class BookmarkIn(BaseModel):
    ${field}: str


BOOKMARKS: dict[int, str] = {}
app = FastAPI()
'''

_RESULT = '''

client = TestClient(app)
result = []
r = client.post("/${res}", json={"${field}": "https://${d1}"})
result.append([r.status_code, r.json()])
r = client.put("/${res}/1", json={"${field}": "https://${d2}"})
result.append([r.status_code, r.json()])
r = client.put("/${res}/${pid}", json={"${field}": "https://c.example"})
result.append([r.status_code, r.json()])
r = client.post("/${res}", json={"${field}": "https://d.example"})
result.append([r.status_code, r.json()])
r = client.delete("/${res}/1")
result.append([r.status_code, r.text])
r = client.delete("/${res}/1")
result.append([r.status_code, r.json()])
'''

_GET_AND_DELETE = '''

@app.get("/${res}/{bookmark_id}")
def get_bookmark(bookmark_id: int):
    if bookmark_id not in BOOKMARKS:
        raise HTTPException(status_code=404, detail="${singular} not found")
    return {"id": bookmark_id, "${field}": BOOKMARKS[bookmark_id]}


@app.delete("/${res}/{bookmark_id}", status_code=204)
def delete_bookmark(bookmark_id: int):
    if bookmark_id not in BOOKMARKS:
        raise HTTPException(status_code=404, detail="${singular} not found")
    del BOOKMARKS[bookmark_id]
'''

_CREATE = '''

@app.post("/${res}", status_code=201)
def create_bookmark(bookmark: BookmarkIn):
    new_id = max(BOOKMARKS, default=0) + 1
    BOOKMARKS[new_id] = bookmark.${field}
    return {"id": new_id, "${field}": bookmark.${field}}
'''

_UPSERT = '''

@app.put("/${res}/{bookmark_id}")
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn, response: Response):
    if bookmark_id not in BOOKMARKS:
        response.status_code = 201
    BOOKMARKS[bookmark_id] = bookmark.${field}
    return {"id": bookmark_id, "${field}": bookmark.${field}}
'''

_REFERENCE = _HEAD + _CREATE + _UPSERT + _GET_AND_DELETE + _RESULT

_PUT_ALWAYS_201_ROUTE = '''

@app.put("/${res}/{bookmark_id}", status_code=201)
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn):
    BOOKMARKS[bookmark_id] = bookmark.${field}
    return {"id": bookmark_id, "${field}": bookmark.${field}}
'''

_PUT_BARE_ROUTE = '''

@app.put("/${res}/{bookmark_id}")
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn, response: Response):
    created = bookmark_id not in BOOKMARKS
    BOOKMARKS[bookmark_id] = bookmark.${field}
    if created:
        return Response(status_code=201)
    return {"id": bookmark_id, "${field}": bookmark.${field}}
'''

FAMILY = Family(
    id="responses/status_codes",
    title="201 on create, 201-or-200 on upsert, 204 with an empty body on delete",
    category="responses",
    difficulty="easy",
    prompt='''\
Build an in-memory ${singular} store (starting empty). A ${singular} has an integer `id` and a string
`${field}`; it is always rendered as the JSON object `{"id": <id>, "${field}": <${field}>}`. Request bodies are
JSON objects `{"${field}": <string>}` (a missing `${field}` is FastAPI's standard 422 validation error).

Routes (`bookmark_id` is an integer path parameter):
- `POST /${res}`: creates a ${singular} whose id is one more than the largest id currently
  stored (1 when the store is empty). Answers **201** with the new ${singular}.
- `PUT /${res}/{bookmark_id}`: stores the ${singular} under that id. If no ${singular} had that
  id, it is created and the answer is **201**; if one existed, its url is replaced and the
  answer is **200**. Either way the body is the stored ${singular}.
- `GET /${res}/{bookmark_id}`: 200 with the ${singular}.
- `DELETE /${res}/{bookmark_id}`: removes the ${singular} and answers **204** with an empty
  body (zero bytes).
- GET and DELETE answer 404 with `{"detail": "${singular} not found"}` for an unknown id.

Then fill `result` with one row per request, in this order:
1. `POST /${res}` with JSON `{"${field}": "https://${d1}"}`: `[status code (integer), the JSON body]`
2. `PUT /${res}/1` with JSON `{"${field}": "https://${d2}"}`: `[status code (integer), the JSON body]`
3. `PUT /${res}/${pid}` with JSON `{"${field}": "https://c.example"}`: `[status code (integer), the JSON body]`
4. `POST /${res}` with JSON `{"${field}": "https://d.example"}`: `[status code (integer), the JSON body]`
5. `DELETE /${res}/1`: `[status code (integer), the raw response body as a string (empty
   string for an empty body)]`
6. `DELETE /${res}/1`: `[status code (integer), the JSON body]`
''',
    reference=_REFERENCE,
    probes='''\
def probe_upsert_cycle(client):
    rows = []
    r = client.put("/${res}/${p2}", json={"${field}": "https://x.example"})
    rows.append([r.status_code, r.json()])
    r = client.put("/${res}/${p2}", json={"${field}": "https://y.example"})
    rows.append([r.status_code, r.json()])
    r = client.get("/${res}/${p2}")
    rows.append([r.status_code, r.json()])
    r = client.post("/${res}", json={"${field}": "https://z.example"})
    rows.append([r.status_code, r.json()])
    return rows


def probe_delete_then_get(client):
    rows = []
    r = client.delete("/${res}/${p2}")
    rows.append([r.status_code, r.text, len(r.content)])
    r = client.get("/${res}/${p2}")
    rows.append([r.status_code, r.json()])
    r = client.delete("/${res}/999")
    rows.append([r.status_code, r.json()])
    return rows


def probe_invalid_body(client):
    r = client.post("/${res}", json={"link": "https://q.example"})
    return [[r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]]]

def probe_ids_follow_the_largest_stored(client):
    rows = []
    r = client.delete("/${res}/${pid}")
    rows.append([r.status_code, r.text])
    r = client.post("/${res}", json={"${field}": "https://after.example"})
    rows.append([r.status_code, r.json()])
    r = client.get("/${res}/0")
    rows.append([r.status_code, r.json()])
    return rows
''',
    original={"res": "bookmarks", "singular": "bookmark", "field": "url", "pid": 5, "d1": "a.example",
              "d2": "b.example"},
    space={
        "res": [{"res": "bookmarks", "singular": "bookmark"}, {"res": "links", "singular": "link"},
                {"res": "notes", "singular": "note"}],
        "field": ["url", "href", "target"],
        "pid": [5, 3, 12],
        "d1": [{"d1": "a.example", "d2": "b.example"}, {"d1": "one.test", "d2": "two.test"}],
    },
    derive=lambda p: {"p2": p["pid"] + 15},
    instances=54,
    requirements=(
        Requirement(
            "POST answers 201 with an id one more than the largest stored (not a counter, not the "
            "count).",
            probes=("upsert_cycle", "ids_follow_the_largest_stored"),
            traps=(Edit("POST without status_code=201", '@app.post("/${res}", status_code=201)', '@app.post("/${res}")'),
                   Edit("ids from a counter", "    new_id = max(BOOKMARKS, default=0) + 1\n",
                        "    new_id = len(BOOKMARKS) + 1\n")),
        ),
        Requirement(
            "PUT answers 201 when it creates and 200 when it replaces, with the stored ${singular}.",
            probes=("upsert_cycle",),
            traps=(Edit("PUT always 201 from the decorator", _UPSERT, _PUT_ALWAYS_201_ROUTE),
                   Edit("PUT returns a bare Response(201) on create", _UPSERT, _PUT_BARE_ROUTE)),
        ),
        Requirement(
            "DELETE answers 204 with zero bytes; GET and DELETE of an unknown id (0 included, or "
            "one already deleted) are 404.",
            probes=("delete_then_get", "ids_follow_the_largest_stored"),
            traps=(Edit("DELETE returns None with the default 200",
                        '@app.delete("/${res}/{bookmark_id}", status_code=204)', '@app.delete("/${res}/{bookmark_id}")'),),
        ),
        Requirement(
            "A body without `${field}` is FastAPI's 422 `missing` at `[\"body\", \"${field}\"]`.",
            probes=("invalid_body",),
            traps=(Edit("${field} optional with an empty default", "class BookmarkIn(BaseModel):\n    ${field}: str\n",
                        "class BookmarkIn(BaseModel):\n    ${field}: str = \"\"\n"),),
        ),
    ),
    expected_rows=[
        [201, {"id": 1, "url": "https://a.example"}],
        [200, {"id": 1, "url": "https://b.example"}],
        [201, {"id": 5, "url": "https://c.example"}],
        [201, {"id": 6, "url": "https://d.example"}],
        [204, ""],
        [404, {"detail": "bookmark not found"}],
    ],
)
