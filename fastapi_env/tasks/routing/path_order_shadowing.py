from fastapi_env.tasks import Edit, Family, Requirement

_TRAP_TEMPLATE = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient

ITEMS = ${items_code}
app = FastAPI()

{routes}

client = TestClient(app)
result = []
for path in ["/users/${me}", "/users/grace", "/items/${latest}", "/items/${second}", "/items/${unknown}",
             "/files/docs/readme.txt", "/files/docs/readme.txt/${meta}"]:
    r = client.get(path)
    result.append([path, r.status_code, r.json()])
'''

_USERS_RIGHT = '''\
@app.get("/users/${me}")
def read_me():
    return {"username": "${user}", "self": True}


@app.get("/users/{username}")
def read_user(username: str):
    return {"username": username, "self": False}
'''

_USERS_WRONG = '''\
@app.get("/users/{username}")
def read_user(username: str):
    return {"username": username, "self": False}


@app.get("/users/${me}")
def read_me():
    return {"username": "${user}", "self": True}
'''

_ITEMS_RIGHT = '''\
@app.get("/items/${latest}")
def latest_item():
    item_id = max(ITEMS)
    return {"id": item_id, "name": ITEMS[item_id]}


@app.get("/items/{item_id}")
def read_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return {"id": item_id, "name": ITEMS[item_id]}
'''

_ITEMS_WRONG = '''\
@app.get("/items/{item_id}")
def read_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return {"id": item_id, "name": ITEMS[item_id]}


@app.get("/items/${latest}")
def latest_item():
    item_id = max(ITEMS)
    return {"id": item_id, "name": ITEMS[item_id]}
'''

_FILES_RIGHT = '''\
@app.get("/files/{file_path:path}/${meta}")
def file_meta(file_path: str):
    return {"path": file_path, "depth": file_path.count("/") + 1}


@app.get("/files/{file_path:path}")
def read_file(file_path: str):
    return {"path": file_path}
'''

_FILES_WRONG = '''\
@app.get("/files/{file_path:path}")
def read_file(file_path: str):
    return {"path": file_path}


@app.get("/files/{file_path:path}/${meta}")
def file_meta(file_path: str):
    return {"path": file_path, "depth": file_path.count("/") + 1}
'''


def _app(users: str, items: str, files: str) -> str:
    return _TRAP_TEMPLATE.replace("{routes}", "\n\n".join([users, items, files]))


FAMILY = Family(
    id="routing/path_order_shadowing",
    title="Fixed paths next to parameterised paths: declaration order decides",
    category="routing",
    difficulty="medium",
    prompt='''\
Build a small directory API. Every route is a `GET` route and returns JSON.

Users:
- `GET /users/{username}` (`username` a string path parameter) returns the public profile
  stub `{"username": <username>, "self": false}` for any username.
- `GET /users/${me}` returns the signed-in user: always `{"username": "${user}", "self": true}`.

Items, stored in this in-memory table:

    ITEMS = ${items_code}

- `GET /items/{item_id}` (`item_id` an integer path parameter) returns
  `{"id": <item_id>, "name": <name>}`; an id not in the table answers 404 with
  `{"detail": "item not found"}`. A non-integer id is rejected by FastAPI's normal validation (422).
- `GET /items/${latest}` returns the item with the highest id, in the same shape
  (`{"id": ${last_id}, "name": "${last_name}"}`).

Files (paths may contain slashes, so both routes use the `:path` convertor):
- `GET /files/{file_path:path}` returns `{"path": <file_path>}`.
- `GET /files/{file_path:path}/${meta}` returns `{"path": <file_path>, "depth": <number of
  slash-separated segments in file_path, an integer>}`; e.g. `/files/a/b.txt/${meta}` returns
  `{"path": "a/b.txt", "depth": 2}`.

Each URL above must reach the route described for it: `/users/${me}` is the signed-in user, not a
profile called "${me}"; `/items/${latest}` is the newest item; a path ending in `/${meta}` under `/files/`
is the metadata route.

Then fill `result` with one row per request, in this order, each row
`[the request path (string), status code (integer), the response's JSON body]`:
1. `GET /users/${me}`
2. `GET /users/grace`
3. `GET /items/${latest}`
4. `GET /items/${second}`
5. `GET /items/${unknown}`
6. `GET /files/docs/readme.txt`
7. `GET /files/docs/readme.txt/${meta}`
''',
    reference=_app(_USERS_RIGHT, _ITEMS_RIGHT, _FILES_RIGHT),
    probes='''\
def probe_users(client):
    rows = []
    for path in ["/users/${me}", "/users/${me}l", "/users/${me_upper}"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    return rows


def probe_items(client):
    rows = []
    for path in ["/items/${latest}", "/items/${first}", "/items/${last_id}", "/items/0", "/items/-1"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    r = client.get("/items/${not_latest}")
    rows.append(["/items/${not_latest}", r.status_code, r.json()["detail"][0]["type"],
                 r.json()["detail"][0]["loc"]])
    return rows


def probe_files(client):
    rows = []
    for path in ["/files/a/b/c/${meta}", "/files/x.txt/${meta}", "/files/a/${meta}data", "/files/${meta}"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    return rows
''',
    original={"me": "me", "user": "ada", "latest": "latest", "meta": "meta",
              "items": [[1, "hammer"], [2, "saw"], [3, "drill"]]},
    space={
        "me": [{"me": "me", "user": "ada"}, {"me": "self", "user": "lin"}, {"me": "current", "user": "max"}],
        "latest": ["latest", "newest", "last"],
        "meta": ["meta", "info", "stat"],
        "items": [[[1, "hammer"], [2, "saw"], [3, "drill"]], [[4, "awl"], [7, "file"], [12, "vise"], [15, "clamp"]],
                  [[2, "rake"], [5, "hoe"]]],
    },
    derive=lambda p: {
        "items_code": "{" + ", ".join(f'{i}: "{n}"' for i, n in p["items"]) + "}",
        "first": p["items"][0][0], "second": p["items"][1][0],
        "last_id": p["items"][-1][0], "last_name": p["items"][-1][1],
        "unknown": 9 if p["items"][-1][0] < 9 else 99,
        "me_upper": p["me"].upper(), "not_latest": "newest" if p["latest"] != "newest" else "latest",
    },
    instances=60,
    requirements=(
        Requirement(
            "`/users/${me}` is the signed-in user; any other username (a longer one, another "
            "case) is a profile stub.",
            probes=("users",),
            traps=(Edit("profile route declared before /users/${me}", _USERS_RIGHT, _USERS_WRONG),),
        ),
        Requirement(
            "`/items/${latest}` is the highest id; other ids are looked up (404 for 0, negative "
            "or unknown ids; a non-integer is 422).",
            probes=("items",),
            traps=(Edit("int item route declared before /items/${latest}", _ITEMS_RIGHT, _ITEMS_WRONG)),
        ),
        Requirement(
            "A `:path` ending in `/${meta}` is the metadata route with the segment count; "
            "anything else under `/files/` is the file route.",
            probes=("files",),
            traps=(Edit("catch-all :path route declared before the /${meta} route", _FILES_RIGHT, _FILES_WRONG),
                   Edit("depth counts slashes", 'file_path.count("/") + 1', 'file_path.count("/")')),
        ),
    ),
    expected_rows=[
        ["/users/me", 200, {"username": "ada", "self": True}],
        ["/users/grace", 200, {"username": "grace", "self": False}],
        ["/items/latest", 200, {"id": 3, "name": "drill"}],
        ["/items/2", 200, {"id": 2, "name": "saw"}],
        ["/items/9", 404, {"detail": "item not found"}],
        ["/files/docs/readme.txt", 200, {"path": "docs/readme.txt"}],
        ["/files/docs/readme.txt/meta", 200, {"path": "docs/readme.txt", "depth": 2}],
    ],
)
