from fastapi_env.tasks import Task

PROMPT = '''\
Build a small book catalogue API whose operations are documented precisely in the generated
OpenAPI document (`GET /openapi.json`).

Data: `BOOKS = [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]` (module level).

Routes:

- `GET /books` returns `BOOKS`. Its OpenAPI operation must have: `operationId` `"listBooks"`,
  `summary` `"List books"`, `description` `"Returns every book in the catalogue."`, `tags`
  `["books"]`, the description of its `200` response `"All books"`, and it is not deprecated
  (no `deprecated` key).
- `GET /v0/books` is the legacy listing: it still works and returns `BOOKS` with status 200, but
  its OpenAPI operation is marked `"deprecated": true`, with `operationId` `"listBooksLegacy"`,
  `summary` `"List books (legacy)"`, `tags` `["books", "legacy"]`, no `description` key, and the
  default `200` response description `"Successful Response"`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `GET /v0/books`: `[status code (integer), JSON body (list)]`
2. `GET /openapi.json`, reading the operation object `op = paths["/books"]["get"]`:
   `[op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")]`
   (strings, a list of strings, and null where a key is absent)
3. The same for `op = paths["/v0/books"]["get"]` (from the same document).
'''

REFERENCE = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

BOOKS = [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]

app = FastAPI()


@app.get(
    "/books",
    operation_id="listBooks",
    summary="List books",
    tags=["books"],
    response_description="All books",
)
def list_books():
    """Returns every book in the catalogue."""
    return BOOKS


@app.get(
    "/v0/books",
    operation_id="listBooksLegacy",
    summary="List books (legacy)",
    tags=["books", "legacy"],
    deprecated=True,
)
def list_books_legacy():
    return BOOKS


client = TestClient(app)
result = []
r = client.get("/v0/books")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
for path in ["/books", "/v0/books"]:
    op = spec["paths"][path]["get"]
    result.append([op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")])
'''

PROBES = '''\
def probe_books(client):
    r = client.get("/books")
    return [[r.status_code, r.json()]]


def probe_response_descriptions(client):
    spec = client.get("/openapi.json").json()
    return [[
        spec["paths"]["/books"]["get"]["responses"]["200"]["description"],
        spec["paths"]["/v0/books"]["get"]["responses"]["200"]["description"],
    ]]


def probe_operation_keys(client):
    spec = client.get("/openapi.json").json()
    return [[sorted(spec["paths"]), sorted(spec["paths"]["/books"]), sorted(spec["paths"]["/v0/books"]["get"])]]
'''

TRAP_DOCSTRING_SUMMARY = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

BOOKS = [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]

app = FastAPI()


@app.get("/books", operation_id="listBooks", tags=["books"], description="Returns every book in the catalogue.",
         response_description="All books")
def list_books():
    """List books"""
    return BOOKS


@app.get("/v0/books", operation_id="listBooksLegacy", tags=["books", "legacy"], deprecated=True)
def list_books_legacy():
    """List books (legacy)"""
    return BOOKS


client = TestClient(app)
result = []
r = client.get("/v0/books")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
for path in ["/books", "/v0/books"]:
    op = spec["paths"][path]["get"]
    result.append([op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")])
'''

TRAP_GONE = REFERENCE.replace('''def list_books_legacy():
    return BOOKS''', '''def list_books_legacy():
    raise HTTPException(status_code=410, detail="deprecated")''').replace(
    "from fastapi import FastAPI", "from fastapi import FastAPI, HTTPException")

TRAP_DESCRIPTION_AS_RESPONSE = REFERENCE.replace(
    '''    response_description="All books",
)
def list_books():
    """Returns every book in the catalogue."""''', '''    description="All books",
)
def list_books():
    """Returns every book in the catalogue."""''')

TRAP_DEFAULT_OPERATION_IDS = REFERENCE.replace('    operation_id="listBooks",\n', '').replace(
    '    operation_id="listBooksLegacy",\n', '')

TASK = Task(
    id="openapi/operation_metadata",
    title="operationId, summary, description, tags and deprecated in /openapi.json",
    category="openapi",
    difficulty="easy",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "summary written as the docstring": TRAP_DOCSTRING_SUMMARY,
        "legacy route answers 410 instead of being marked deprecated": TRAP_GONE,
        "description= used for the response description": TRAP_DESCRIPTION_AS_RESPONSE,
        "default operation ids": TRAP_DEFAULT_OPERATION_IDS,
    },
    expected_rows=[
        [200, [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]],
        ["listBooks", "List books", "Returns every book in the catalogue.", ["books"], None],
        ["listBooksLegacy", "List books (legacy)", None, ["books", "legacy"], True],
    ],
)
