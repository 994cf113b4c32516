"""Recent-features tier: Pydantic's polymorphic serialization (``ConfigDict(
polymorphic_serialization=True)``, Pydantic 2.14: a field or return type declared as the base
model serializes a subclass instance with the subclass's fields, also through FastAPI's
response models) and ``url_preserve_empty_path`` (2.12: ``https://host`` stays without the
``/`` URL types otherwise add). A media catalogue whose detail, list and shelf responses show
each kind's own fields while its cards show only the base ones, and whose curator header is
stored but never shown (storing it on a polymorphic model would leak it everywhere)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ERRORS_TYPE_LOC

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import FastAPI, Header, HTTPException, Query
from fastapi.testclient import TestClient
from pydantic import AnyUrl, BaseModel, ConfigDict, Field, HttpUrl, TypeAdapter

RATINGS = Literal[${ratings_literal}]


class Item(BaseModel):
    # Polymorphic: wherever an Item is declared, a Book, Film or Podcast shows its own fields.
    model_config = ConfigDict(polymorphic_serialization=True,
                              url_preserve_empty_path=${preserve})
    id: int = 0
    kind: str
    title: str = Field(min_length=1, max_length=80)
    link: AnyUrl | None = None


class Book(Item):
    kind: Literal["book"]
    author: str = Field(min_length=1, max_length=60)
    pages: int = Field(ge=1, le=${pages_max})


class Film(Item):
    kind: Literal["film"]
    minutes: int = Field(ge=1, le=${minutes_max})
    rating: RATINGS


class Podcast(Item):
    kind: Literal["podcast"]
    feed: HttpUrl
    episodes: int = Field(0, ge=0)


NewItem = Annotated[Book | Film | Podcast, Field(discriminator="kind")]


class Card(BaseModel):
    id: int
    kind: str
    title: str


class Shelf(BaseModel):
    name: str
    count: int
    lead: Item | None


ITEMS: dict[int, Item] = {}
CURATORS: dict[int, str] = {}  # who added each item: kept, never shown
for number, seed in enumerate(${seed__repr}, start=1):
    ITEMS[number] = TypeAdapter(NewItem).validate_python(seed).model_copy(update={"id": number})
    CURATORS[number] = "${curator}"
NEXT_ID = [len(ITEMS) + 1]  # ids are never reused, even after deletions

app = FastAPI()


def find(item_id: int) -> Item:
    if item_id not in ITEMS:
        raise HTTPException(404, "no such item")
    return ITEMS[item_id]


@app.post("/items", status_code=201)
def add_item(item: NewItem, x_curator: Annotated[str, Header(min_length=1)]) -> Item:
    item_id = NEXT_ID[0]
    NEXT_ID[0] += 1
    ITEMS[item_id] = item.model_copy(update={"id": item_id})
    CURATORS[item_id] = x_curator
    return ITEMS[item_id]


@app.get("/items")
def list_items(kind: Annotated[Literal["book", "film", "podcast"] | None, Query()] = None
               ) -> list[Item]:
    return [ITEMS[item_id] for item_id in sorted(ITEMS)
            if kind is None or ITEMS[item_id].kind == kind]


@app.get("/items/{item_id}")
def get_item(item_id: int) -> Item:
    return find(item_id)


@app.get("/items/{item_id}/card")
def get_card(item_id: int) -> Card:
    item = find(item_id)
    return Card(id=item.id, kind=item.kind, title=item.title)


@app.delete("/items/{item_id}", status_code=204)
def delete_item(item_id: int, x_curator: Annotated[str, Header(min_length=1)]):
    find(item_id)
    del ITEMS[item_id]
    del CURATORS[item_id]


@app.get("/shelf")
def shelf() -> Shelf:
    lead = ITEMS[max(ITEMS)] if ITEMS else None
    return Shelf(name="${branch} picks", count=len(ITEMS), lead=lead)


client = TestClient(app)
CURATOR = {"X-Curator": "${curator}"}
created = client.post("/items", headers=CURATOR, json=${new_item__repr})
result = [
    [created.status_code, created.json()],
    ["items", client.get("/items").json()],
    ["card", client.get("/items/1/card").json()],
    ["shelf", client.get("/shelf").json()],
]
'''

PROBES = '''\
CURATOR = {"X-Curator": "${curator}"}


''' + ERRORS_TYPE_LOC + '''

def _row(r):
    if r.status_code == 422:
        return [422, errors(r)]
    return [r.status_code, r.json() if r.content else None]


def _add(client, body, headers=CURATOR):
    return client.post("/items", json=body, headers=headers)


def probe_created_items(client):
    rows = []
    for body in [{"kind": "book", "title": "Dune", "author": "Frank Herbert", "pages": 412},
                 {"kind": "film", "title": "Alien", "minutes": 117, "rating": "${rating_ok}",
                  "id": 1},
                 {"kind": "podcast", "title": "Deep Field", "feed": "https://pods.example/df"}]:
        r = _add(client, body)
        rows.append([r.status_code, r.json()])
    return rows


def probe_kind_dispatch(client):
    rows = []
    for body in [{"title": "x"}, {"kind": "comic", "title": "x"}, {"kind": "Book", "title": "x"},
                 {"kind": "film", "title": "x", "pages": 3},
                 {"kind": "book", "title": "x", "author": "y", "minutes": 5}, [], "book"]:
        rows.append([body, _row(_add(client, body))])
    return rows


def probe_field_bounds(client):
    base = {"kind": "book", "title": "T", "author": "A", "pages": 10}
    film = {"kind": "film", "title": "F", "minutes": 90, "rating": "${rating_ok}"}
    rows = []
    for body in [base | {"pages": 1}, base | {"pages": ${pages_max}}, base | {"pages": 0},
                 base | {"pages": ${pages_max} + 1}, base | {"title": ""},
                 base | {"title": "t" * 80}, base | {"title": "t" * 81}, base | {"author": ""},
                 film | {"minutes": ${minutes_max}}, film | {"minutes": ${minutes_max} + 1},
                 film | {"rating": "${rating_bad}"}, film | {"rating": "${rating_ok}".lower()},
                 film | {"rating": "${rating_last}"}, {"kind": "film", "title": "F"}]:
        r = _add(client, body)
        rows.append([body, r.status_code, errors(r) if r.status_code == 422
                     else {k: r.json()[k] for k in sorted(body)}])
    return rows


def probe_feed_urls(client):
    rows = []
    for feed in ["https://pods.example/feed.xml", "HTTPS://Pods.EXAMPLE:443/Feed",
                 "http://pods.example:8080/x?y=1", "https://pods.example",
                 "ftp://pods.example/feed", "pods.example/feed", "", "https://"]:
        r = _add(client, {"kind": "podcast", "title": "P", "feed": feed, "episodes": 2})
        rows.append([feed, r.status_code, r.json()["feed"] if r.status_code == 201
                     else errors(r)])
    return rows


def probe_links_keep_or_gain_their_path(client):
    rows = []
    for link in ["https://${branch_host}", "HTTPS://${branch_host}:443", "https://${branch_host}/",
                 "https://${branch_host}/a", "mailto:desk@${branch_host}", "not a url", None]:
        body = {"kind": "book", "title": "L", "author": "A", "pages": 5}
        if link is not None:
            body["link"] = link
        r = _add(client, body)
        rows.append([link, r.status_code, r.json()["link"] if r.status_code == 201
                     else errors(r)])
    rows.append(["seed", [item["link"] for item in client.get("/items").json()[:${seed_count}]]])
    return rows


def probe_item_details(client):
    rows = [[item_id, _row(client.get(f"/items/{item_id}"))]
            for item_id in range(1, ${seed_count} + 1)]
    film = _add(client, {"kind": "film", "title": "Heat", "minutes": 170,
                         "rating": "${rating_last}"}).json()["id"]
    rows.append(["film", _row(client.get(f"/items/{film}"))])
    for item_id in ["999", "0", "-1", "abc"]:
        rows.append([item_id, _row(client.get(f"/items/{item_id}"))])
    return rows


def probe_listing_and_filter(client):
    rows = []
    for params in [{}, {"kind": "book"}, {"kind": "film"}, {"kind": "podcast"},
                   {"kind": "Book"}, {"kind": "comic"}, {"kind": ""}]:
        r = client.get("/items", params=params)
        rows.append([params, r.status_code, r.json() if r.status_code == 200 else errors(r)])
    return rows


def probe_cards_show_only_the_basics(client):
    rows = []
    podcast = _add(client, {"kind": "podcast", "title": "Card Pod",
                            "feed": "https://pods.example/c", "episodes": 9,
                            "link": "https://${branch_host}/c"}).json()["id"]
    for item_id in [1, ${seed_count}, podcast, 999]:
        rows.append([item_id, _row(client.get(f"/items/{item_id}/card"))])
    return rows


def probe_curator_header(client):
    rows = []
    body = {"kind": "book", "title": "Curated", "author": "C", "pages": 3}
    for headers in [{}, {"X-Curator": ""}, {"X-Curator": "zoe"}, {"x-curator": "zoe"}]:
        r = _add(client, body, headers)
        rows.append([headers, _row(r)])
    rows.append(["both wrong", _row(_add(client, {"kind": "book", "title": ""}, {}))])
    missing = client.delete("/items/1")
    rows.append(["delete without curator", _row(missing)])
    text = client.get("/items").text + client.get("/shelf").text
    rows.append(["curators shown", "${curator}" in text or "zoe" in text])
    return rows


def probe_deletes_never_reuse_ids(client):
    rows = []
    first = _add(client, {"kind": "book", "title": "Gone", "author": "G", "pages": 2}).json()["id"]
    second = _add(client, {"kind": "book", "title": "Kept", "author": "K", "pages": 2}).json()["id"]
    deleted = client.delete(f"/items/{second}", headers=CURATOR)
    rows.append(["delete", deleted.status_code, deleted.text])
    rows.append(["again", _row(client.delete(f"/items/{second}", headers=CURATOR))])
    rows.append(["read", _row(client.get(f"/items/{second}"))])
    third = _add(client, {"kind": "book", "title": "New", "author": "N", "pages": 2}).json()["id"]
    rows.append(["ids", second - first, third - second])
    rows.append(["unknown", _row(client.delete("/items/999", headers=CURATOR))])
    return rows


def probe_shelf_leads_with_the_newest(client):
    rows = [_row(client.get("/shelf"))]
    newest = _add(client, {"kind": "film", "title": "Lead", "minutes": 99,
                           "rating": "${rating_ok}", "link": "https://${branch_host}"}).json()
    shelf = client.get("/shelf").json()
    rows.append([shelf["lead"] == newest, shelf])
    for item in client.get("/items").json():
        client.delete(f"/items/{item['id']}", headers=CURATOR)
    rows.append(_row(client.get("/shelf")))
    return rows
'''

PROMPT = '''\
Build the ${branch} branch's media catalogue with FastAPI, using the installed Pydantic's
polymorphic serialization (recent: `polymorphic_serialization`, Pydantic 2.14: a value declared
as a base model is serialized with the fields of the subclass it really is) and its URL option
to keep empty paths (`url_preserve_empty_path`, Pydantic 2.12). If you do not know them, read
the installed package's source under
`python3 -c "import pydantic, os; print(os.path.dirname(pydantic.__file__))"` (`config.py`).

**Items** have `id`, `kind`, `title` (1-80 characters) and `link` (optional, any URL, default
null), and by kind:
- `book`: `author` (1-60 characters), `pages` (1-${pages_max});
- `film`: `minutes` (1-${minutes_max}), `rating` (one of ${ratings_text}, exact case);
- `podcast`: `feed` (an `http` or `https` URL), `episodes` (>= 0, default 0).

URLs are rendered as Pydantic's URL types render them (scheme and host lower-cased, a default
port dropped); ${preserve_text}. The catalogue starts with these items, ids 1, 2, ... in this
order: `${seed__repr}`, all added by curator `${curator}`.

Validation failures are FastAPI's standard 422 `{"detail": [...]}`; the checks compare each
error's `type` and `loc`, in order. A request body is chosen by `kind` alone: no `kind` is
`union_tag_not_found` at `["body"]`, another value `union_tag_invalid` at `["body"]`, and a
field error of the chosen kind is at `["body", <kind>, <field>]`. Extra fields are ignored,
an `id` in a body too.

- `POST /items` (JSON item without id) with the header `X-Curator` (required, non-empty;
  otherwise FastAPI's standard 422 for that header, reported before the body's errors): 201,
  the new item with every field of its kind. Ids go up from ${next_id} and are never reused,
  even after a deletion. The curator is kept with the item but never appears in any response.
- `GET /items?kind=` (`kind` optional: `book`, `film` or `podcast`, exact case): 200, the
  items sorted by id, each with every field of its kind.
- `GET /items/{item_id}`: 200, the item with every field of its kind; an unknown id is 404
  `{"detail": "no such item"}` (so on every route with an id).
- `GET /items/{item_id}/card`: 200 `{"id", "kind", "title"}` and nothing else.
- `DELETE /items/{item_id}` with `X-Curator` (same rule): 204 with an empty body.
- `GET /shelf`: 200 `{"name": "${branch} picks", "count": <items>, "lead": <the item with the
  highest id, with every field of its kind, or null when there are none>}`.

`result`, in order: `[status, body]` of `POST /items` with `X-Curator: ${curator}` and the
body `${new_item__repr}`; then `["items", <body of GET /items>]`, `["card", <body of
GET /items/1/card>]` and `["shelf", <body of GET /shelf>]`.
'''


def _derive(p):
    ratings = p["ratings"]
    return {
        "ratings_literal": ", ".join(repr(r) for r in ratings),
        "ratings_text": ", ".join(f"`{r}`" for r in ratings),
        "rating_ok": ratings[1], "rating_last": ratings[-1], "rating_bad": p["rating_bad"],
        "seed_count": len(p["seed"]), "next_id": len(p["seed"]) + 1,
        "preserve_text": ("a URL with an empty path is kept as sent (`https://host` stays "
                          "`https://host`)" if p["preserve"] else
                          "a URL with an empty path gets Pydantic's default `/` path "
                          "(`https://host` becomes `https://host/`)"),
    }


_RIVERSIDE = [{"kind": "book", "title": "Middlemarch", "author": "George Eliot", "pages": 880,
               "link": "https://riverside.example"},
              {"kind": "podcast", "title": "Shelf Talk", "feed": "https://pods.example/shelf",
               "episodes": 41}]
_HILLTOP = [{"kind": "film", "title": "Paterson", "minutes": 118, "rating": "PG",
             "link": "https://hilltop.example/films"},
            {"kind": "book", "title": "Beloved", "author": "Toni Morrison", "pages": 324},
            {"kind": "podcast", "title": "Late Returns", "feed": "http://pods.example:8080/lr",
             "link": "HTTPS://Hilltop.Example"}]

FAMILY = Family(
    id="recent/polymorphic_catalogue",
    title="Subclass fields through base-typed responses (Pydantic's polymorphic serialization)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"branch": "Riverside", "branch_host": "riverside.example", "seed": _RIVERSIDE,
              "curator": "mira", "preserve": True, "pages_max": 2000, "minutes_max": 600,
              "ratings": ["G", "PG", "PG-13", "R"], "rating_bad": "15",
              "new_item": {"kind": "film", "title": "Arrival", "minutes": 116, "rating": "PG",
                           "link": "https://films.example"}},
    space={
        "branch": [{"branch": "Riverside", "branch_host": "riverside.example",
                    "seed": _RIVERSIDE, "curator": "mira",
                    "new_item": {"kind": "film", "title": "Arrival", "minutes": 116,
                                 "rating": "PG", "link": "https://films.example"}},
                   {"branch": "Hilltop", "branch_host": "hilltop.example", "seed": _HILLTOP,
                    "curator": "osei",
                    "new_item": {"kind": "podcast", "title": "Night Desk",
                                 "feed": "HTTPS://Pods.Example:443", "link": "https://nd.example"}}],
        "preserve": [True, False],
        "limits": [{"pages_max": 2000, "minutes_max": 600}, {"pages_max": 1200, "minutes_max": 240}],
        "ratings": [{"ratings": ["G", "PG", "PG-13", "R"], "rating_bad": "15"},
                    {"ratings": ["U", "PG", "12A", "15", "18"], "rating_bad": "R"}],
    },
    derive=_derive,
    instances=16,
    requirements=(
        Requirement("`POST /items` is 201 with the new item, every field of its kind, and the "
                    "next id (a body `id` ignored).",
                    probes=("created_items",),
                    traps=(Edit("created as 200", '@app.post("/items", status_code=201)',
                                '@app.post("/items")'),
                           Edit("body id kept", 'ITEMS[item_id] = item.model_copy(update={"id": '
                                'item_id})', 'ITEMS[item_id] = item.model_copy(update={"id": '
                                'item.id or item_id})'))),
        Requirement("Bodies are chosen by `kind` with FastAPI's tagged-union errors.",
                    probes=("kind_dispatch",),
                    traps=(Edit("union without discriminator",
                                'NewItem = Annotated[Book | Film | Podcast, Field(discriminator='
                                '"kind")]', "NewItem = Book | Film | Podcast"),)),
        Requirement("Titles, authors, pages (1-${pages_max}), minutes (1-${minutes_max}) and "
                    "ratings (${ratings_text}) are checked at both ends.",
                    probes=("field_bounds",),
                    traps=(Edit("pages unbounded above", "pages: int = Field(ge=1, le=${pages_max})",
                                "pages: int = Field(ge=1)"),
                           Edit("rating any text", "    rating: RATINGS\n", "    rating: str\n"),
                           Edit("title unbounded", "title: str = Field(min_length=1, max_length=80)",
                                "title: str = Field(min_length=1)"))),
        Requirement("`feed` takes only http(s) URLs, rendered the way Pydantic renders them.",
                    probes=("feed_urls",),
                    traps=(Edit("feed any URL", "    feed: HttpUrl\n", "    feed: AnyUrl\n"),)),
        Requirement("URLs with an empty path: ${preserve_text}.",
                    probes=("links_keep_or_gain_their_path",),
                    traps=(Edit("empty paths the other way", "url_preserve_empty_path=${preserve})",
                                "url_preserve_empty_path=not ${preserve})"),)),
        Requirement("`GET /items/{id}` shows every field of the item's kind; unknown ids are 404.",
                    probes=("item_details",),
                    traps=(Edit("detail as the base model", "    return find(item_id)\n",
                                "    return Item.model_validate(find(item_id).model_dump())\n"),
                           Edit("unknown id as 200 null", '''    if item_id not in ITEMS:
        raise HTTPException(404, "no such item")
    return ITEMS[item_id]''', '''    if item_id not in ITEMS and item_id > 0:
        raise HTTPException(404, "no such item")
    return ITEMS.get(item_id)'''))),
        Requirement("`GET /items` lists every item by id with its kind's fields and filters by "
                    "an exact `kind`.",
                    probes=("listing_and_filter",),
                    traps=(Edit("kind filter any text",
                                'kind: Annotated[Literal["book", "film", "podcast"] | None, Query()]',
                                "kind: Annotated[str | None, Query()]"),
                           Edit("list as base models",
                                "    return [ITEMS[item_id] for item_id in sorted(ITEMS)",
                                "    return [Item.model_validate(ITEMS[item_id].model_dump())"
                                " for item_id in sorted(ITEMS)"))),
        Requirement("A card is `{\"id\", \"kind\", \"title\"}` and nothing else.",
                    probes=("cards_show_only_the_basics",),
                    traps=(Edit("card is the item", "def get_card(item_id: int) -> Card:\n"
                                "    item = find(item_id)\n"
                                "    return Card(id=item.id, kind=item.kind, title=item.title)",
                                "def get_card(item_id: int) -> Item:\n"
                                "    return find(item_id)"),)),
        Requirement("`X-Curator` is required (non-empty) on create and delete, reported before "
                    "body errors, and never shown.",
                    probes=("curator_header",),
                    traps=(Edit("curator stored on the item", "    link: AnyUrl | None = None\n",
                                "    link: AnyUrl | None = None\n    curator: str = '${curator}'\n"),
                           Edit("empty curator accepted",
                                "def add_item(item: NewItem, x_curator: Annotated[str, "
                                "Header(min_length=1)]) -> Item:",
                                "def add_item(item: NewItem, x_curator: Annotated[str, "
                                "Header()]) -> Item:"),
                           Edit("delete without curator",
                                "def delete_item(item_id: int, x_curator: Annotated[str, "
                                "Header(min_length=1)]):",
                                "def delete_item(item_id: int):"))),
        Requirement("`DELETE` is 204 with no body, then 404; ids are never reused.",
                    probes=("deletes_never_reuse_ids",),
                    traps=(Edit("ids reused after deletes", "    item_id = NEXT_ID[0]\n",
                                "    item_id = max(ITEMS, default=0) + 1\n"),
                           Edit("delete answers 200", '''@app.delete("/items/{item_id}", status_code=204)''',
                                '''@app.delete("/items/{item_id}", status_code=200)'''))),
        Requirement("`/shelf` leads with the highest-id item, with its kind's fields, or null.",
                    probes=("shelf_leads_with_the_newest",),
                    traps=(Edit("lead is the oldest", "lead = ITEMS[max(ITEMS)] if ITEMS else None",
                                "lead = ITEMS[min(ITEMS)] if ITEMS else None"),
                           Edit("lead as the base model", "lead = ITEMS[max(ITEMS)] if ITEMS else None",
                                "lead = Item.model_validate(ITEMS[max(ITEMS)].model_dump()) if "
                                "ITEMS else None"))),
    ),
)
