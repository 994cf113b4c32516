"""Repair tier: a multi-file inventory API in /workspace with seven planted bugs of the kind
FastAPI users hit (a body turned into query parameters, a response model missing so an
internal field leaks, a permission dependency that returns instead of raising, an error handler
that drops the exception's headers, route order shadowing, PATCH with exclude_none, an
off-by-one bound). Each bug is one requirement's trap; the setup is the reference with all of
them."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROW

MODELS = '''\
from pydantic import BaseModel, Field


class ItemIn(BaseModel):
    name: str = Field(min_length=1, max_length=${name_max})
    qty: int = Field(ge=0)
    price_cents: int = Field(gt=0)
    cost_cents: int = Field(gt=0)
    note: str | None = None


class ItemPatch(BaseModel):
    name: str = Field(None, min_length=1, max_length=${name_max})
    qty: int = Field(None, ge=0)
    note: str | None = None


class ItemOut(BaseModel):
    id: int
    name: str
    qty: int
    price_cents: int
    note: str | None
'''

STORE = '''\
KEYS = {"${staff_key}": "staff", "${admin_key}": "admin"}
ITEMS: dict[int, dict] = {}


def add(data: dict) -> dict:
    item = {"id": len(ITEMS) + 1 if not ITEMS else max(ITEMS) + 1, **data}
    ITEMS[item["id"]] = item
    return item
'''

AUTH = '''\
from typing import Annotated

from fastapi import Depends, Header, HTTPException
from fastapi.responses import JSONResponse

from store import KEYS


def require_key(x_api_key: Annotated[str | None, Header()] = None) -> str:
    if x_api_key not in KEYS:
        raise HTTPException(401, "unknown api key", headers={"WWW-Authenticate": "ApiKey"})
    return KEYS[x_api_key]


def require_admin(role: Annotated[str, Depends(require_key)]) -> str:
    if role != "admin":
        raise HTTPException(403, "admin only")
    return role
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Response

import store
from auth import require_admin, require_key
from models import ItemIn, ItemOut, ItemPatch

router = APIRouter(prefix="/items", dependencies=[Depends(require_key)])


def find(item_id: int) -> dict:
    if item_id not in store.ITEMS:
        raise HTTPException(404, "no such item")
    return store.ITEMS[item_id]


@router.get("", response_model=list[ItemOut])
def list_items():
    return [store.ITEMS[i] for i in sorted(store.ITEMS)]


@router.post("", status_code=201, response_model=ItemOut)
def create_item(item: ItemIn):
    return store.add(item.model_dump())


@router.get("/low-stock", response_model=list[ItemOut])
def low_stock(below: Annotated[int, Query(ge=1)] = ${below}):
    return [store.ITEMS[i] for i in sorted(store.ITEMS) if store.ITEMS[i]["qty"] < below]


@router.get("/{item_id}", response_model=ItemOut)
def read_item(item_id: int):
    return find(item_id)


@router.patch("/{item_id}", response_model=ItemOut)
def update_item(item_id: int, patch: ItemPatch):
    item = find(item_id)
    item.update(patch.model_dump(exclude_unset=True))
    return item


@router.delete("/{item_id}", status_code=204, dependencies=[Depends(require_admin)])
def delete_item(item_id: int):
    find(item_id)
    del store.ITEMS[item_id]
    return Response(status_code=204)
'''

SOLUTION = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from routes import router

app = FastAPI()
app.include_router(router)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse(
        {"error": exc.detail, "status": exc.status_code},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
staff = {"X-API-Key": "${staff_key}"}
result = [
    row(client.post("/items", headers=staff, json={
        "name": "${item1}", "qty": ${qty1}, "price_cents": 250, "cost_cents": 90})),
    row(client.get("/items/1", headers=staff)),
    row(client.get("/items/low-stock", headers=staff)),
    row(client.get("/items")),
]
'''

_AS_QUERY = Edit("create body read from the query string", "def create_item(item: ItemIn):",
                 "def create_item(item: Annotated[ItemIn, Depends()]):", file="routes.py")
_LEAK = Edit("read without its response model", '''@router.get("/{item_id}", response_model=ItemOut)
def read_item''', '''@router.get("/{item_id}")
def read_item''', file="routes.py")
_NO_SHORT_CIRCUIT = Edit(
    "admin check returns a response instead of raising",
    '''        raise HTTPException(403, "admin only")''',
    '''        return JSONResponse({"error": "admin only", "status": 403}, status_code=403)''',
    file="auth.py",
)
_DROPS_HEADERS = Edit("error handler drops the exception's headers", '''        status_code=exc.status_code,
        headers=exc.headers,
    )''', '''        status_code=exc.status_code,
    )''')
_SHADOWED = Edit("low-stock declared after the item route", '''@router.get("/low-stock", response_model=list[ItemOut])
def low_stock(below: Annotated[int, Query(ge=1)] = ${below}):
    return [store.ITEMS[i] for i in sorted(store.ITEMS) if store.ITEMS[i]["qty"] < below]


@router.get("/{item_id}", response_model=ItemOut)
def read_item(item_id: int):
    return find(item_id)
''', '''@router.get("/{item_id}", response_model=ItemOut)
def read_item(item_id: int):
    return find(item_id)


@router.get("/low-stock", response_model=list[ItemOut])
def low_stock(below: Annotated[int, Query(ge=1)] = ${below}):
    return [store.ITEMS[i] for i in sorted(store.ITEMS) if store.ITEMS[i]["qty"] < below]
''', file="routes.py")
_EXCLUDE_NONE = Edit("patch drops nulls", "patch.model_dump(exclude_unset=True)",
                     "patch.model_dump(exclude_none=True)", file="routes.py")
_OFF_BY_ONE = Edit("quantity must be positive", "    qty: int = Field(ge=0)",
                   "    qty: int = Field(gt=0)", file="models.py")

FILES = {"models.py": MODELS, "store.py": STORE, "auth.py": AUTH, "routes.py": ROUTES}
# Moving the route first: the leak then edits the moved text.
PLANTED = (_AS_QUERY, _SHADOWED, _LEAK, _NO_SHORT_CIRCUIT, _DROPS_HEADERS, _EXCLUDE_NONE,
           _OFF_BY_ONE)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = '''\
STAFF = {"X-API-Key": "${staff_key}"}
ADMIN = {"X-API-Key": "${admin_key}"}
NEW = {"name": "${item2}", "qty": 0, "price_cents": 1200, "cost_cents": 700}


''' + ROW + '''

def _errors(r):
    body = r.json()
    return [r.status_code, sorted({e["loc"][0] for e in body["detail"]})] \\
        if r.status_code == 422 and "detail" in body else _row(r)


def probe_create_reads_the_json_body(client):
    r = client.post("/items", headers=STAFF, json={**NEW, "qty": 3})
    rows = [_row(r)]
    rows.append(_errors(client.post("/items", headers=STAFF, json={"name": "x"})))
    rows.append(_errors(client.post("/items?name=q&qty=1&price_cents=1&cost_cents=1",
                                    headers=STAFF)))
    return rows


def probe_internal_cost_never_shown(client):
    r = client.post("/items", headers=STAFF, json={**NEW, "name": "hidden cost", "qty": 4})
    item_id = r.json()["id"]
    rows = [sorted(r.json())]
    for path in [f"/items/{item_id}", "/items", "/items/low-stock?below=100"]:
        body = client.get(path, headers=STAFF).json()
        for item in body if isinstance(body, list) else [body]:
            rows.append([path.split("?")[0].replace(str(item_id), "<id>"), sorted(item)])
    rows.append([sorted(client.patch(f"/items/{item_id}", headers=STAFF,
                                     json={"qty": 5}).json())])
    return rows


def probe_only_admins_delete(client):
    item_id = client.post("/items", headers=STAFF, json={**NEW, "name": "to go", "qty": 9}
                          ).json()["id"]
    rows = [_row(client.delete(f"/items/{item_id}", headers=STAFF)),
            [client.get(f"/items/{item_id}", headers=STAFF).status_code],
            _row(client.delete(f"/items/{item_id}", headers=ADMIN)),
            _row(client.get(f"/items/{item_id}", headers=STAFF)),
            _row(client.delete(f"/items/{item_id}", headers=ADMIN))]
    return rows


def probe_unauthenticated_gets_401_with_challenge(client):
    rows = []
    for headers in [{}, {"X-API-Key": "nope"}, {"X-API-Key": ""}]:
        for method, path in [("GET", "/items"), ("POST", "/items"), ("GET", "/items/1"),
                             ("DELETE", "/items/1"), ("GET", "/items/low-stock")]:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_low_stock_route_is_reachable(client):
    rows = []
    for query in ["", "?below=1", "?below=4", "?below=1000", "?below=0", "?below=x"]:
        r = client.get("/items/low-stock" + query, headers=STAFF)
        rows.append([query, r.status_code,
                     [i["name"] for i in r.json()] if r.status_code == 200 else r.json()])
    return rows


def probe_patch_changes_only_given_fields(client):
    item_id = client.post("/items", headers=STAFF, json={**NEW, "name": "noted", "qty": 2,
                                                         "note": "fragile"}).json()["id"]
    rows = [_row(client.patch(f"/items/{item_id}", headers=STAFF, json={"qty": 7}))]
    rows.append(_row(client.patch(f"/items/{item_id}", headers=STAFF, json={"note": None})))
    rows.append(_row(client.patch(f"/items/{item_id}", headers=STAFF, json={})))
    rows.append(_row(client.get(f"/items/{item_id}", headers=STAFF)))
    rows.append(_row(client.patch("/items/999", headers=STAFF, json={"qty": 1})))
    return rows


def probe_name_bounds(client):
    rows = []
    for name in ["", "n" * ${name_max}, "n" * (${name_max} + 1)]:
        r = client.post("/items", headers=STAFF, json={**NEW, "name": name})
        rows.append([len(name), _errors(r) if r.status_code == 422 else r.status_code])
    item_id = client.post("/items", headers=STAFF, json=NEW).json()["id"]
    for name in ["", "m" * ${name_max}, "m" * (${name_max} + 1), None]:
        r = client.patch(f"/items/{item_id}", headers=STAFF, json={"name": name})
        rows.append(["patch", None if name is None else len(name),
                     _errors(r) if r.status_code == 422 else r.status_code])
    rows.append(_row(client.get(f"/items/{item_id}", headers=STAFF)))
    return rows


def probe_quantity_bounds(client):
    rows = []
    for qty in [0, -1, 1]:
        r = client.post("/items", headers=STAFF, json={**NEW, "name": f"q{qty}", "qty": qty})
        rows.append([qty, r.status_code])
    item_id = client.post("/items", headers=STAFF, json={**NEW, "qty": 5}).json()["id"]
    for qty in [0, -1, None]:
        r = client.patch(f"/items/{item_id}", headers=STAFF, json={"qty": qty})
        rows.append(["patch", qty, r.status_code])
    rows.append(_row(client.get(f"/items/{item_id}", headers=STAFF)))
    return rows
'''

FAMILY = Family(
    id="repair/inventory_api",
    title="Repair a multi-file inventory API that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` already holds an inventory API: `solution.py` and the modules it imports
(`models.py`, `store.py`, `auth.py`, `routes.py`). It is meant to implement the behaviour below
but misbehaves in several places. Find and fix every deviation (edit any file; you may also
rewrite them); `solution.py` must keep defining `app` and `result`.

**Access.** Every route needs the header `X-API-Key`: `${staff_key}` is a staff key,
`${admin_key}` an admin key. A missing or unknown key gets 401 with the header
`WWW-Authenticate: ApiKey`.

**Errors.** Errors raised by the service have the body `{"error": <message>, "status": <code>}`:
401 `"unknown api key"`, 403 `"admin only"`, 404 `"no such item"`. Request validation errors
keep FastAPI's standard 422 body (`{"detail": [...]}`, each error's `loc` starting with where
the bad value was: `"body"`, `"query"` or `"path"`).

**An item** is shown as `{"id", "name", "qty", "price_cents", "note"}`. It is created from a
JSON body `{"name": 1-${name_max} characters, "qty": integer >= 0, "price_cents": integer > 0,
"cost_cents": integer > 0, "note"?: string or null (default null)}`. `cost_cents` is internal:
it is stored but never appears in any response. A new item's id is one more than the highest
id stored at that moment (1 when there is none), so a deleted last item's id is given again.

**Routes** (under `/items`):
- `GET /items`: 200, every item by id.
- `POST /items`: 201 with the new item.
- `GET /items/low-stock?below=N`: 200, the items with `qty` < N by id; N >= 1, default ${below}.
- `GET /items/{item_id}`: 200 with the item, 404 if there is none.
- `PATCH /items/{item_id}` with a JSON body of any of `name`, `qty`, `note` (same rules as on
  creation: only `note` may be null): changes exactly the fields given (`"note": null` clears
  the note), 200 with the item; 404 if there is none.
- `DELETE /items/{item_id}`: admins only (staff get 403 and nothing is deleted); 204 with an
  empty body; 404 if there is none.

`result` is one row per request, in this order, with the staff key unless said otherwise;
each row is `[status code, JSON body]`:
1. `POST /items` with `{"name": "${item1}", "qty": ${qty1}, "price_cents": 250, "cost_cents": 90}`
2. `GET /items/1`
3. `GET /items/low-stock`
4. `GET /items` without a key
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={"staff_key": "staff-7f3", "admin_key": "admin-c21", "name_max": 40, "below": 5,
              "item1": "bolts", "qty1": 3, "item2": "washers"},
    space={
        # The keys never show in a response: they vary with the item names, which do.
        "item1": [{"item1": "bolts", "item2": "washers", "staff_key": "staff-7f3",
                   "admin_key": "admin-c21"},
                  {"item1": "hinges", "item2": "nails", "staff_key": "s-0001",
                   "admin_key": "a-9999"}],
        "name_max": [40, 24],
        "below": [{"below": 5, "qty1": 3}, {"below": 3, "qty1": 2}, {"below": 10, "qty1": 8}],
    },
    instances=8,
    requirements=(
        Requirement("`POST /items` reads the item from the JSON body.",
                    probes=("create_reads_the_json_body",), traps=(_AS_QUERY,)),
        Requirement("`cost_cents` never appears in a response.",
                    probes=("internal_cost_never_shown",), traps=(_LEAK,)),
        Requirement("Only admins delete: staff get 403 and the item stays.",
                    probes=("only_admins_delete",), traps=(_NO_SHORT_CIRCUIT,)),
        Requirement("A missing or unknown key gets 401 with `WWW-Authenticate: ApiKey`.",
                    probes=("unauthenticated_gets_401_with_challenge",), traps=(_DROPS_HEADERS,)),
        Requirement("`GET /items/low-stock` answers with the low-stock items (N >= 1, default "
                    "${below}).",
                    probes=("low_stock_route_is_reachable",), traps=(_SHADOWED,)),
        Requirement("PATCH changes exactly the fields given; `\"note\": null` clears the note.",
                    probes=("patch_changes_only_given_fields",), traps=(_EXCLUDE_NONE,)),
        Requirement("Names are 1 to ${name_max} characters, on creation and on update (a null "
                    "name is 422).",
                    probes=("name_bounds",),
                    traps=(Edit("patch name unbounded", "    name: str = Field(None, "
                                "min_length=1, max_length=${name_max})",
                                "    name: str | None = None", file="models.py"),
                           Edit("patch accepts a null name", "    name: str = Field(None, "
                                "min_length=1, max_length=${name_max})",
                                "    name: str | None = Field(None, min_length=1, "
                                "max_length=${name_max})", file="models.py"))),
        Requirement("A quantity of 0 is valid, a negative or null one is not (422).",
                    probes=("quantity_bounds",),
                    traps=(_OFF_BY_ONE,
                           Edit("patch accepts a null quantity", "    qty: int = Field(None, ge=0)",
                                "    qty: int | None = Field(None, ge=0)", file="models.py"))),
    ),
)
