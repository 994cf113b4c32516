from fastapi_env.tasks import Task

_HEAD = '''\
from fastapi import FastAPI, HTTPException, Response
from fastapi.testclient import TestClient
from pydantic import BaseModel


class BookmarkIn(BaseModel):
    url: str


BOOKMARKS: dict[int, str] = {}
app = FastAPI()
'''

_RESULT = '''

client = TestClient(app)
result = []
r = client.post("/bookmarks", json={"url": "https://a.example"})
result.append([r.status_code, r.json()])
r = client.put("/bookmarks/1", json={"url": "https://b.example"})
result.append([r.status_code, r.json()])
r = client.put("/bookmarks/5", json={"url": "https://c.example"})
result.append([r.status_code, r.json()])
r = client.post("/bookmarks", json={"url": "https://d.example"})
result.append([r.status_code, r.json()])
r = client.delete("/bookmarks/1")
result.append([r.status_code, r.text])
r = client.delete("/bookmarks/1")
result.append([r.status_code, r.json()])
'''

_GET_AND_DELETE = '''

@app.get("/bookmarks/{bookmark_id}")
def get_bookmark(bookmark_id: int):
    if bookmark_id not in BOOKMARKS:
        raise HTTPException(status_code=404, detail="bookmark not found")
    return {"id": bookmark_id, "url": BOOKMARKS[bookmark_id]}


@app.delete("/bookmarks/{bookmark_id}", status_code=204)
def delete_bookmark(bookmark_id: int):
    if bookmark_id not in BOOKMARKS:
        raise HTTPException(status_code=404, detail="bookmark not found")
    del BOOKMARKS[bookmark_id]
'''

_CREATE = '''

@app.post("/bookmarks", status_code=201)
def create_bookmark(bookmark: BookmarkIn):
    new_id = max(BOOKMARKS, default=0) + 1
    BOOKMARKS[new_id] = bookmark.url
    return {"id": new_id, "url": bookmark.url}
'''

_UPSERT = '''

@app.put("/bookmarks/{bookmark_id}")
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn, response: Response):
    if bookmark_id not in BOOKMARKS:
        response.status_code = 201
    BOOKMARKS[bookmark_id] = bookmark.url
    return {"id": bookmark_id, "url": bookmark.url}
'''

_REFERENCE = _HEAD + _CREATE + _UPSERT + _GET_AND_DELETE + _RESULT

_POST_DEFAULT_200 = _REFERENCE.replace('@app.post("/bookmarks", status_code=201)', '@app.post("/bookmarks")')

_PUT_ALWAYS_201 = _HEAD + _CREATE + '''

@app.put("/bookmarks/{bookmark_id}", status_code=201)
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn):
    BOOKMARKS[bookmark_id] = bookmark.url
    return {"id": bookmark_id, "url": bookmark.url}
''' + _GET_AND_DELETE + _RESULT

_PUT_STATUS_IN_BODY = _HEAD + _CREATE + '''

@app.put("/bookmarks/{bookmark_id}")
def put_bookmark(bookmark_id: int, bookmark: BookmarkIn, response: Response):
    created = bookmark_id not in BOOKMARKS
    BOOKMARKS[bookmark_id] = bookmark.url
    if created:
        return Response(status_code=201)
    return {"id": bookmark_id, "url": bookmark.url}
''' + _GET_AND_DELETE + _RESULT.replace(
    'r = client.put("/bookmarks/5", json={"url": "https://c.example"})\nresult.append([r.status_code, r.json()])',
    'r = client.put("/bookmarks/5", json={"url": "https://c.example"})\nresult.append([r.status_code, r.json() if r.content else None])',
)

_DELETE_RETURNS_NONE = _REFERENCE.replace(
    '@app.delete("/bookmarks/{bookmark_id}", status_code=204)', '@app.delete("/bookmarks/{bookmark_id}")'
)

TASK = Task(
    id="responses/status_codes",
    title="201 on create, 201-or-200 on upsert, 204 with an empty body on delete",
    category="responses",
    difficulty="easy",
    prompt='''\
Build an in-memory bookmark store (starting empty). A bookmark has an integer `id` and a string
`url`; it is always rendered as the JSON object `{"id": <id>, "url": <url>}`. Request bodies are
JSON objects `{"url": <string>}` (a missing `url` is FastAPI's standard 422 validation error).

Routes (`bookmark_id` is an integer path parameter):
- `POST /bookmarks`: creates a bookmark whose id is one more than the largest id currently
  stored (1 when the store is empty). Answers **201** with the new bookmark.
- `PUT /bookmarks/{bookmark_id}`: stores the bookmark under that id. If no bookmark had that
  id, it is created and the answer is **201**; if one existed, its url is replaced and the
  answer is **200**. Either way the body is the stored bookmark.
- `GET /bookmarks/{bookmark_id}`: 200 with the bookmark.
- `DELETE /bookmarks/{bookmark_id}`: removes the bookmark and answers **204** with an empty
  body (zero bytes).
- GET and DELETE answer 404 with `{"detail": "bookmark not found"}` for an unknown id.

Then fill `result` with one row per request, in this order:
1. `POST /bookmarks` with JSON `{"url": "https://a.example"}`: `[status code (integer), the JSON body]`
2. `PUT /bookmarks/1` with JSON `{"url": "https://b.example"}`: `[status code (integer), the JSON body]`
3. `PUT /bookmarks/5` with JSON `{"url": "https://c.example"}`: `[status code (integer), the JSON body]`
4. `POST /bookmarks` with JSON `{"url": "https://d.example"}`: `[status code (integer), the JSON body]`
5. `DELETE /bookmarks/1`: `[status code (integer), the raw response body as a string (empty
   string for an empty body)]`
6. `DELETE /bookmarks/1`: `[status code (integer), the JSON body]`
''',
    reference=_REFERENCE,
    probes='''\
def probe_upsert_cycle(client):
    rows = []
    r = client.put("/bookmarks/20", json={"url": "https://x.example"})
    rows.append([r.status_code, r.json()])
    r = client.put("/bookmarks/20", json={"url": "https://y.example"})
    rows.append([r.status_code, r.json()])
    r = client.get("/bookmarks/20")
    rows.append([r.status_code, r.json()])
    r = client.post("/bookmarks", json={"url": "https://z.example"})
    rows.append([r.status_code, r.json()])
    return rows


def probe_delete_then_get(client):
    rows = []
    r = client.delete("/bookmarks/20")
    rows.append([r.status_code, r.text, len(r.content)])
    r = client.get("/bookmarks/20")
    rows.append([r.status_code, r.json()])
    r = client.delete("/bookmarks/999")
    rows.append([r.status_code, r.json()])
    return rows


def probe_invalid_body(client):
    r = client.post("/bookmarks", json={"link": "https://q.example"})
    return [[r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]]]
''',
    traps={
        "POST without status_code=201": _POST_DEFAULT_200,
        "PUT always 201 from the decorator": _PUT_ALWAYS_201,
        "PUT returns a bare Response(201) on create": _PUT_STATUS_IN_BODY,
        "DELETE returns None with the default 200": _DELETE_RETURNS_NONE,
    },
    expected_rows=[
        [201, {"id": 1, "url": "https://a.example"}],
        [200, {"id": 1, "url": "https://b.example"}],
        [201, {"id": 5, "url": "https://c.example"}],
        [201, {"id": 6, "url": "https://d.example"}],
        [204, ""],
        [404, {"detail": "bookmark not found"}],
    ],
)
