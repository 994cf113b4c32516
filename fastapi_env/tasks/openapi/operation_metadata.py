from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a small book catalogue API whose operations are documented precisely in the generated
OpenAPI document (`GET /openapi.json`).

Data: `BOOKS = ${books_code}` (module level).

Routes:

- `GET /books` returns `BOOKS`. Its OpenAPI operation must have: `operationId` `"${op_id}"`,
  `summary` `"${summary}"`, `description` `"Returns every book in the catalogue."`, `tags`
  `["${tag}"]`, the description of its `200` response `"${resp_desc}"`, and it is not deprecated
  (no `deprecated` key).
- `GET /${legacy}/books` is the legacy listing: it still works and returns `BOOKS` with status 200, but
  its OpenAPI operation is marked `"deprecated": true`, with `operationId` `"${op_id}Legacy"`,
  `summary` `"${summary} (legacy)"`, `tags` `["${tag}", "legacy"]`, no `description` key, and the
  default `200` response description `"Successful Response"`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `GET /${legacy}/books`: `[status code (integer), JSON body (list)]`
2. `GET /openapi.json`, reading the operation object `op = paths["/books"]["get"]`:
   `[op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")]`
   (strings, a list of strings, and null where a key is absent)
3. The same for `op = paths["/${legacy}/books"]["get"]` (from the same document).
'''

REFERENCE = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

BOOKS = ${books_code}

app = FastAPI()


@app.get(
    "/books",
    operation_id="${op_id}",
    summary="${summary}",
    tags=["${tag}"],
    response_description="${resp_desc}",
)
def list_books():
    """Returns every book in the catalogue."""
    return BOOKS


@app.get(
    "/${legacy}/books",
    operation_id="${op_id}Legacy",
    summary="${summary} (legacy)",
    tags=["${tag}", "legacy"],
    deprecated=True,
)
def list_books_legacy():
    return BOOKS


client = TestClient(app)
result = []
r = client.get("/${legacy}/books")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
for path in ["/books", "/${legacy}/books"]:
    op = spec["paths"][path]["get"]
    result.append([op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")])
'''

PROBES = '''\
def probe_books(client):
    return [[r.status_code, r.json()] for r in (client.get("/books"), client.get("/${legacy}/books"))]


def probe_response_descriptions(client):
    spec = client.get("/openapi.json").json()
    return [[
        spec["paths"]["/books"]["get"]["responses"]["200"]["description"],
        spec["paths"]["/${legacy}/books"]["get"]["responses"]["200"]["description"],
    ]]


def probe_operation_ids_are_unique_and_exact(client):
    spec = client.get("/openapi.json").json()
    ops = [op for item in spec["paths"].values() for op in item.values()]
    return [[sorted(op["operationId"] for op in ops), [op.get("deprecated") for op in ops]]]


def probe_operation_keys(client):
    spec = client.get("/openapi.json").json()
    return [[sorted(spec["paths"]), sorted(spec["paths"]["/books"]), sorted(spec["paths"]["/${legacy}/books"]["get"])]]
'''

TRAP_DOCSTRING_SUMMARY = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

BOOKS = ${books_code}

app = FastAPI()


@app.get("/books", operation_id="${op_id}", tags=["${tag}"], description="Returns every book in the catalogue.",
         response_description="${resp_desc}")
def list_books():
    """${summary}"""
    return BOOKS


@app.get("/${legacy}/books", operation_id="${op_id}Legacy", tags=["${tag}", "legacy"], deprecated=True)
def list_books_legacy():
    """${summary} (legacy)"""
    return BOOKS


client = TestClient(app)
result = []
r = client.get("/${legacy}/books")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
for path in ["/books", "/${legacy}/books"]:
    op = spec["paths"][path]["get"]
    result.append([op["operationId"], op["summary"], op.get("description"), op["tags"], op.get("deprecated")])
'''

FAMILY = Family(
    id="openapi/operation_metadata",
    title="operationId, summary, description, tags and deprecated in /openapi.json",
    category="openapi",
    difficulty="easy",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"books": [[1, "Dune"], [2, "Emma"]], "legacy": "v0", "op_id": "listBooks", "tag": "books",
              "resp_desc": "All books", "summary": "List books"},
    space={
        "books": [[[1, "Dune"], [2, "Emma"]], [[3, "Ulysses"]], [[5, "Kim"], [8, "Beloved"], [9, "Carrie"]]],
        "legacy": ["v0", "old", "v1"],
        "op_id": [{"op_id": "listBooks", "summary": "List books"}, {"op_id": "getCatalogue", "summary": "Catalogue"}],
        "tag": [{"tag": "books", "resp_desc": "All books"}, {"tag": "catalogue", "resp_desc": "Every title"}],
    },
    derive=lambda p: {"books_code": "[" + ", ".join(f'{{"id": {i}, "title": "{t}"}}' for i, t in p["books"]) + "]"},
    instances=36,
    requirements=(
        Requirement(
            "`GET /books` is documented with operationId `${op_id}`, summary, description (no "
            "summary from the docstring), tags `[\"${tag}\"]` and the 200 description `${resp_desc}`.",
            probes=("response_descriptions", "operation_keys", "operation_ids_are_unique_and_exact"),
            traps=(Edit("summary written as the docstring", REFERENCE, TRAP_DOCSTRING_SUMMARY),
                   Edit("description= used for the response description",
                        '    response_description="${resp_desc}",\n)\ndef list_books():',
                        '    description="${resp_desc}",\n)\ndef list_books():'),
                   Edit("default operation ids", '    operation_id="${op_id}",\n', "")),
        ),
        Requirement(
            "`GET /${legacy}/books` still answers 200 with the books, and is documented deprecated "
            "with its own operationId, summary and tags, and the default response description.",
            probes=("response_descriptions", "operation_keys", "books"),
            traps=(Edit("legacy route answers 410 instead of being marked deprecated",
                        "def list_books_legacy():\n    return BOOKS",
                        "def list_books_legacy():\n    from fastapi import HTTPException\n"
                        "    raise HTTPException(status_code=410, detail=\"deprecated\")"),
                   Edit("legacy route not marked deprecated", "    deprecated=True,\n", "")),
        ),
    ),
    expected_rows=[
        [200, [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]],
        ["listBooks", "List books", "Returns every book in the catalogue.", ["books"], None],
        ["listBooksLegacy", "List books (legacy)", None, ["books", "legacy"], True],
    ],
)
