"""Service tier: a shared recipe box specified like a product document (11 routes, a session
cookie with public routes that still reject an unknown session, authors / editors / readers,
drafts visible only to their author, ingredient quantities scaled exactly and rounded half up,
normalised and bounded tags, a revision counter that only real changes bump, favourites kept in
order, filtered and sorted page-numbered listing, FastAPI's standard error bodies).

The parameters change what a correct app answers: the users and the cookie name, the units,
the largest serving count, the decimal places of quantities, how many tags a recipe may carry,
the page sizes, the default sort, and whether a published recipe may go back to draft."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import ids_reused

REFERENCE = '''\
import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Literal

from fastapi import Cookie, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, Field

SESSIONS = {key: {"name": name, "role": role} for key, name, role in ${users__repr}}
RECIPES: dict[int, dict] = {}
FAVOURITES: list[tuple[str, int]] = []  # (user, recipe id), oldest first
NEXT = {"recipe": 1}
PLACES = Decimal(1).scaleb(-${places})
UNPUBLISH = ${unpublish}

app = FastAPI()


''' + late_body.route_class(fastapi_error=True) + '''

def session(${cookie}: Annotated[str | None, Cookie()] = None) -> dict | None:
    """The caller, or None for an anonymous one; an unknown session is refused everywhere."""
    if ${cookie} is None:
        return None
    if ${cookie} not in SESSIONS:
        raise HTTPException(401, "invalid_session")
    return SESSIONS[${cookie}]


def logged_in(user: Annotated[dict | None, Depends(session)]) -> dict:
    if user is None:
        raise HTTPException(401, "login_required")
    return user


def writer(user: Annotated[dict, Depends(logged_in)]) -> dict:
    if user["role"] == "reader":
        raise HTTPException(403, "forbidden")
    return user


Anyone = Annotated[dict | None, Depends(session)]
Member = Annotated[dict, Depends(logged_in)]
Writer = Annotated[dict, Depends(writer)]


def trimmed(low: int, high: int):
    def check(value: str) -> str:
        value = value.strip()
        if not low <= len(value) <= high:
            raise ValueError(f"{low}-{high} characters")
        return value
    return AfterValidator(check)


def normal_tags(tags: list[str]) -> list[str]:
    cleaned = sorted({tag.strip().lower() for tag in tags})
    for tag in cleaned:
        if not (1 <= len(tag) <= 20 and all(c.isascii() and (c.isalnum() or c == "-")
                                             for c in tag)):
            raise ValueError("a tag is 1-20 of a-z, 0-9 and -")
    if len(cleaned) > ${max_tags}:
        raise ValueError("too many tags")
    return cleaned


Title = Annotated[str, trimmed(3, 80)]
Servings = Annotated[int, Field(ge=1, le=${max_servings})]
Tags = Annotated[list[str], AfterValidator(normal_tags)]


class Ingredient(BaseModel):
    name: Annotated[str, trimmed(1, 40)]
    quantity: float = Field(gt=0, le=10000, strict=True)
    unit: Literal[${units_literal}]


Ingredients = Annotated[list[Ingredient], Field(min_length=1, max_length=${max_ingredients})]


class RecipeIn(BaseModel):
    title: Title
    servings: Servings
    ingredients: Ingredients
    tags: Tags = []
    status: Literal["draft", "published"] = "draft"


class RecipePatch(BaseModel):
    # Omitted fields stay None and unchanged; an explicit null fails the field's type.
    title: Title = None
    servings: Servings = None
    ingredients: Ingredients = None
    tags: Tags = None
    status: Literal["draft", "published"] = None


EDITOR_FIELDS = {"title", "tags"}


def shown_quantity(value: Decimal) -> int | float:
    rounded = value.quantize(PLACES, rounding=ROUND_HALF_UP)
    return int(rounded) if rounded == rounded.to_integral_value() else float(rounded)


def ingredients_out(recipe: dict, factor: Decimal = Decimal(1)) -> list[dict]:
    return [{"name": i["name"], "quantity": shown_quantity(i["quantity"] * factor),
             "unit": i["unit"]} for i in recipe["ingredients"]]


def favourites_of(recipe_id: int) -> int:
    return sum(1 for _, rid in FAVOURITES if rid == recipe_id)


def recipe_out(recipe: dict) -> dict:
    return {"id": recipe["id"], "title": recipe["title"], "author": recipe["author"],
            "servings": recipe["servings"], "status": recipe["status"], "tags": recipe["tags"],
            "ingredients": ingredients_out(recipe), "revision": recipe["revision"],
            "favourites": favourites_of(recipe["id"])}


def summary(recipe: dict) -> dict:
    return {key: recipe[key] for key in ("id", "title", "author", "status", "tags")}


def visible(recipe_id: int, user: dict | None) -> dict:
    recipe = RECIPES.get(recipe_id)
    if recipe is None or (recipe["status"] == "draft"
                          and (user is None or user["name"] != recipe["author"])):
        raise HTTPException(404, "recipe_not_found")
    return recipe


def stored_ingredients(items: list[Ingredient]) -> list[dict]:
    names = [i.name.lower() for i in items]
    if len(set(names)) != len(names):
        raise HTTPException(400, "duplicate_ingredient")
    return [{"name": i.name, "quantity": Decimal(str(i.quantity)), "unit": i.unit}
            for i in items]


@app.get("/me")
def me(user: Member):
    return user


@app.post("/recipes", status_code=201)
def create_recipe(user: Writer, body: RecipeIn, response: Response):
    recipe = {"id": NEXT["recipe"], "title": body.title, "author": user["name"],
              "servings": body.servings, "status": body.status, "tags": body.tags,
              "ingredients": stored_ingredients(body.ingredients), "revision": 1}
    NEXT["recipe"] += 1
    RECIPES[recipe["id"]] = recipe
    response.headers["Location"] = f"/recipes/{recipe['id']}"
    return recipe_out(recipe)


SORTS = {"title": lambda r: (r["title"].lower(), r["id"]), "newest": lambda r: -r["id"]}


@app.get("/recipes")
def list_recipes(
    user: Anyone,
    tag: Annotated[list[str], Query()] = [],
    q: str | None = None,
    author: str | None = None,
    ingredient: str | None = None,
    sort: Literal["title", "-title", "newest"] = ${default_sort__repr},
    page: Annotated[int, Query(ge=1)] = 1,
    size: Annotated[int, Query(ge=1, le=${size_max})] = ${size_default},
):
    wanted = {t.strip().lower() for t in tag}
    found = [r for r in RECIPES.values()
             if (r["status"] == "published" or (user and r["author"] == user["name"]))
             and wanted <= set(r["tags"])
             and (q is None or q.lower() in r["title"].lower())
             and (author is None or r["author"] == author)
             and (ingredient is None
                  or any(ingredient.lower() in i["name"].lower() for i in r["ingredients"]))]
    found.sort(key=SORTS[sort.lstrip("-")], reverse=sort.startswith("-"))
    start = (page - 1) * size
    return {"results": [summary(r) for r in found[start:start + size]], "count": len(found),
            "page": page, "pages": -(-len(found) // size)}


@app.get("/recipes/{recipe_id}")
def read_recipe(recipe_id: int, user: Anyone):
    return recipe_out(visible(recipe_id, user))


@app.get("/recipes/{recipe_id}/scaled")
def scaled(recipe_id: int, user: Anyone, servings: Annotated[int, Query(ge=1, le=${max_servings})]):
    recipe = visible(recipe_id, user)
    factor = Decimal(servings) / Decimal(recipe["servings"])
    return {"id": recipe["id"], "title": recipe["title"], "servings": servings,
            "ingredients": ingredients_out(recipe, factor)}


@app.patch("/recipes/{recipe_id}")
def update_recipe(recipe_id: int, user: Member, body: RecipePatch):
    recipe = visible(recipe_id, user)
    given = body.model_dump(exclude_unset=True)
    if user["name"] != recipe["author"]:
        if user["role"] != "editor":
            raise HTTPException(403, "not_your_recipe")
        if set(given) - EDITOR_FIELDS:
            raise HTTPException(403, "editors_change_title_and_tags_only")
    changes = {key: value for key, value in given.items() if key != "ingredients"}
    if "ingredients" in given:
        changes["ingredients"] = stored_ingredients(body.ingredients)
    if (changes.get("status") == "draft" and recipe["status"] == "published"
            and not UNPUBLISH):
        raise HTTPException(409, "already_published")
    changed = {key: value for key, value in changes.items() if recipe[key] != value}
    if changed:
        recipe.update(changed)
        recipe["revision"] += 1
    return recipe_out(recipe)


@app.delete("/recipes/{recipe_id}", status_code=204)
def delete_recipe(recipe_id: int, user: Member):
    recipe = visible(recipe_id, user)
    if user["name"] != recipe["author"]:
        raise HTTPException(403, "not_your_recipe")
    del RECIPES[recipe_id]
    FAVOURITES[:] = [f for f in FAVOURITES if f[1] != recipe_id]
    return Response(status_code=204)


@app.put("/recipes/{recipe_id}/favourite")
def favourite(recipe_id: int, user: Member, response: Response):
    recipe = visible(recipe_id, user)
    if (user["name"], recipe_id) not in FAVOURITES:
        FAVOURITES.append((user["name"], recipe_id))
        response.status_code = 201
    return {"recipe_id": recipe["id"], "favourites": favourites_of(recipe_id)}


@app.delete("/recipes/{recipe_id}/favourite", status_code=204)
def unfavourite(recipe_id: int, user: Member):
    visible(recipe_id, user)
    if (user["name"], recipe_id) not in FAVOURITES:
        raise HTTPException(404, "not_a_favourite")
    FAVOURITES.remove((user["name"], recipe_id))
    return Response(status_code=204)


@app.get("/me/favourites")
def my_favourites(user: Member):
    mine = [rid for name, rid in reversed(FAVOURITES) if name == user["name"]]
    return [summary(RECIPES[rid]) for rid in mine
            if RECIPES[rid]["status"] == "published" or RECIPES[rid]["author"] == user["name"]]


@app.get("/tags")
def tags(user: Anyone):
    counts: dict[str, int] = {}
    for recipe in RECIPES.values():
        if recipe["status"] == "published":
            for tag in recipe["tags"]:
                counts[tag] = counts.get(tag, 0) + 1
    return [{"tag": tag, "recipes": n}
            for tag, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
author = {${cookie__repr}: ${k1__repr}}
created = client.post("/recipes", cookies=author, json={
    "title": "  ${dish}  ", "servings": 4, "status": "published", "tags": ["Quick", " quick", "Veg"],
    "ingredients": [{"name": " flour ", "quantity": 250, "unit": "g"},
                    {"name": "milk", "quantity": 1.5, "unit": ${liquid__repr}}]})
result = [
    row(created),
    row(client.get(f"{created.headers['location']}/scaled", params={"servings": 3})),
    row(client.get("/tags")),
    row(client.get("/me")),
]
'''

PROBES = '''\
COOKIE = ${cookie__repr}
A1, A2, ED, RD = ({COOKIE: key} for key in (${k1__repr}, ${k2__repr}, ${k3__repr}, ${k4__repr}))
LIQUID, SOLID = ${liquid__repr}, "g"


''' + ROW + '''

def _errors(r):
    """A 422 as the sorted fields it names (a location's first two parts: how deep an error
    sits, and its type, depend on how the app declares the rule); other errors whole."""
    body = r.json()
    if r.status_code == 422:
        return [422, [list(loc) for loc in sorted({tuple(e["loc"][:2]) for e in body["detail"]})]]
    return [r.status_code, body]


def _missing(r):
    """A 422 for absent fields, where FastAPI's standard body is the same however declared."""
    return [r.status_code, sorted([e["type"], e["loc"], e["msg"]] for e in r.json()["detail"])]


def _body(title="Soup", **extra):
    return {"title": title, "servings": 2, "ingredients": [{"name": "water", "quantity": 1,
                                                            "unit": LIQUID}]} | extra


def _recipe(client, cookies=A1, **fields):
    return client.post("/recipes", json=_body(**fields), cookies=cookies).json()["id"]


def _listed(client, params, cookies=None):
    body = client.get("/recipes", params=params, cookies=cookies).json()
    return [[r["title"] for r in body["results"]], body["count"], body["page"], body["pages"]]


def probe_sessions(client):
    rows = []
    for cookies in [None, {COOKIE: "nope"}, {COOKIE: ""}, {"session": ${k1__repr}},
                    {COOKIE: ${u1__repr}}]:
        for method, path in [("GET", "/me"), ("POST", "/recipes"), ("PATCH", "/recipes/1"),
                             ("DELETE", "/recipes/1"), ("PUT", "/recipes/1/favourite"),
                             ("DELETE", "/recipes/1/favourite"), ("GET", "/me/favourites"),
                             ("GET", "/recipes"), ("GET", "/recipes/1"),
                             ("GET", "/recipes/1/scaled"), ("GET", "/tags")]:
            r = client.request(method, path, cookies=cookies, json={"title": 5})
            rows.append([method, path, r.status_code, r.json() if r.status_code in (401, 403)
                         else "passed"])
    return rows


def probe_me(client):
    return [_row(client.get("/me", cookies=c)) for c in (A1, A2, ED, RD)]


''' + late_body.probe_source(
    [("POST", "/recipes"), ("PATCH", "/recipes/1")],
    [("no session", "{}"), ("unknown session", '{"Cookie": COOKIE + "=nope"}'),
     ("reader", '{"Cookie": COOKIE + "=" + RD[COOKIE]}'),
     ("author", '{"Cookie": COOKIE + "=" + A1[COOKIE]}')]) + '''


def probe_readers_cannot_write(client):
    return [_row(client.post("/recipes", json=_body(), cookies=RD)),
            _row(client.post("/recipes", json={"title": 1}, cookies=RD)),
            _row(client.post("/recipes", json=[], cookies=RD))]


def probe_create(client):
    r = client.post("/recipes", cookies=ED, json={
        "title": " Lemon   Tart ", "servings": 6, "tags": ["Baking", "sweet ", "baking"],
        "ingredients": [{"name": " Lemons", "quantity": 3, "unit": "piece"},
                        {"name": "sugar", "quantity": 120.5, "unit": SOLID}],
        "chef": "ignored", "revision": 9})
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    r = client.post("/recipes", cookies=A2, json=_body("Plain"))
    rows.append([r.status_code, r.json()["status"], r.json()["tags"], r.json()["revision"]])
    return rows


def probe_recipe_validation(client):
    ing = {"name": "salt", "quantity": 1, "unit": SOLID}
    rows = []
    for body in [{"title": "ab"}, {"title": "  abc  "}, {"title": "x" * 81}, {"title": "x" * 80},
                 {"title": "  ab  "}, {"title": " " + "y" * 80 + " "},
                 {"servings": 0}, {"servings": ${max_servings}}, {"servings": ${max_servings} + 1},
                 {"servings": "3"}, {"ingredients": []},
                 {"ingredients": [ing] * ${max_ingredients}},
                 {"ingredients": [ing] * (${max_ingredients} + 1)},
                 {"ingredients": [ing | {"quantity": 0}]},
                 {"ingredients": [ing | {"quantity": 10000}]},
                 {"ingredients": [ing | {"quantity": 10000.5}]},
                 {"ingredients": [ing | {"quantity": "2"}]},
                 {"ingredients": [ing | {"unit": "bucket"}]},
                 {"ingredients": [ing | {"name": "  "}]}, {"status": "secret"},
                 {"title": None}, {"tags": None}]:
        r = client.post("/recipes", json=_body() | body, cookies=A1)
        rows.append([r.status_code, _errors(r)[1] if r.status_code >= 400 else "created"])
    rows.append(_missing(client.post("/recipes", json={}, cookies=A1)))
    rows.append(_missing(client.post("/recipes", json={"servings": 2}, cookies=A1)))
    return rows


def probe_duplicate_ingredients(client):
    twice = [{"name": "Salt", "quantity": 1, "unit": SOLID},
             {"name": " salt ", "quantity": 2, "unit": SOLID}]
    first = _recipe(client, title="Once")
    return [_row(client.post("/recipes", json=_body(ingredients=twice), cookies=A1)),
            _row(client.patch(f"/recipes/{first}", json={"ingredients": twice}, cookies=A1)),
            _row(client.get(f"/recipes/{first}", cookies=A1))]


def probe_tags(client):
    rows = []
    limit = ${max_tags}
    for tags in [["A", "a", " a "], [f"t{n}" for n in range(limit)],
                 [f"t{n}" for n in range(limit + 1)], [f"t{n}" for n in range(limit)] + ["T0"],
                 ["two words"], ["x" * 20], ["x" * 21], ["ok_no"], [""], ["  -  "], ["café"],
                 ["b2", "a1", "B2"]]:
        r = client.post("/recipes", json=_body(tags=tags), cookies=A2)
        rows.append([tags, r.status_code, r.json()["tags"] if r.status_code == 201
                     else _errors(r)])
    return rows


def probe_quantities(client):
    rows = []
    for values in [[2.0, 0.5, 1.005, 0.125, 0.25], [0.35, 3.14159, 0.004, 0.005, 9999.999]]:
        r = client.post("/recipes", cookies=A1, json=_body(ingredients=[
            {"name": f"i{n}", "quantity": q, "unit": SOLID} for n, q in enumerate(values)]))
        rows.append([[i["quantity"] for i in r.json()["ingredients"]],
                     [type(i["quantity"]).__name__ for i in r.json()["ingredients"]]])
    return rows


def probe_scaling(client):
    recipe = client.post("/recipes", cookies=A2, json={
        "title": "Scaled", "servings": 4, "status": "published",
        "ingredients": [{"name": "a", "quantity": 1.5, "unit": SOLID},
                        {"name": "b", "quantity": 250, "unit": SOLID},
                        {"name": "c", "quantity": 1, "unit": SOLID},
                        {"name": "d", "quantity": 2.5, "unit": SOLID},
                        {"name": "e", "quantity": 0.1, "unit": SOLID},
                        {"name": "f", "quantity": 0.125, "unit": SOLID}]}).json()["id"]
    thirds = client.post("/recipes", cookies=A2, json={
        "title": "Thirds", "servings": 3, "status": "published",
        "ingredients": [{"name": "a", "quantity": 0.375, "unit": SOLID},
                        {"name": "b", "quantity": 0.45, "unit": SOLID}]}).json()["id"]
    rows = [_row(client.get(f"/recipes/{thirds}/scaled", params={"servings": 1}))]
    for servings in [3, 6, 1, 4, 2, ${max_servings}]:
        r = client.get(f"/recipes/{recipe}/scaled", params={"servings": servings})
        rows.append([servings, r.status_code, r.json()])
    for servings in [0, ${max_servings} + 1, "two"]:
        rows.append([servings, _errors(client.get(f"/recipes/{recipe}/scaled",
                                                   params={"servings": servings}))])
    rows.append(_missing(client.get(f"/recipes/{recipe}/scaled")))
    rows.append(_row(client.get("/recipes/99999/scaled", params={"servings": 2})))
    return rows


def probe_drafts_private(client):
    draft = _recipe(client, A1, title="Secret draft")
    rows = [[who, _row(client.get(f"/recipes/{draft}", cookies=c))[0]]
            for who, c in [("author", A1), ("other author", A2), ("editor", ED),
                           ("reader", RD), ("anonymous", None)]]
    rows.append(_row(client.get(f"/recipes/{draft}/scaled", params={"servings": 2}, cookies=ED)))
    rows.append(_row(client.patch(f"/recipes/{draft}", json={"title": "Mine"}, cookies=ED)))
    rows.append(_row(client.put(f"/recipes/{draft}/favourite", cookies=RD)))
    rows.append(_row(client.delete(f"/recipes/{draft}", cookies=A2)))
    rows.append(_row(client.get("/recipes/99999", cookies=A1)))
    return rows


def probe_list_visibility(client):
    _recipe(client, A1, title="Vis draft one", tags=["vis"])
    _recipe(client, A2, title="Vis draft two", tags=["vis"])
    _recipe(client, A2, title="Vis public", tags=["vis"], status="published")
    return [[who] + _listed(client, {"tag": "vis", "sort": "title"}, c)
            for who, c in [("a1", A1), ("a2", A2), ("editor", ED), ("anonymous", None)]]


def probe_list_filters(client):
    for title, tags, who, ing in [("Flt Apple Pie", ["fltx", "sweet"], A1, "Apple"),
                                  ("flt banana bread", ["fltx", "sweet", "bake"], A2, "Banana"),
                                  ("Flt Carrot Soup", ["fltx", "soup"], A1, "carrot"),
                                  ("FLT apple salad", ["fltx"], A2, "green apple")]:
        client.post("/recipes", cookies=who, json={
            "title": title, "servings": 2, "tags": tags, "status": "published",
            "ingredients": [{"name": ing, "quantity": 1, "unit": SOLID}]})
    rows = []
    for params in [{"tag": "fltx", "sort": "title"}, {"tag": ["fltx", "sweet"], "sort": "title"},
                   {"tag": ["fltx", " SWEET", "bake"]}, {"tag": "fltx", "q": "APPLE", "sort": "title"},
                   {"tag": "fltx", "author": ${u2__repr}, "sort": "title"},
                   {"tag": "fltx", "author": ${u2__repr}.upper()},
                   {"tag": "fltx", "ingredient": "APPLE", "sort": "title"},
                   {"tag": "fltx", "q": "", "sort": "-title"}, {"tag": ["fltx", "nothing"]}]:
        rows.append([params] + _listed(client, params, RD))
    return rows


def probe_list_sort_and_pages(client):
    for title in ["srt delta", "Srt alpha", "SRT charlie", "srt Bravo", "srt echo"]:
        _recipe(client, A2, title=title, tags=["srt"], status="published")
    rows = []
    for params in [{}, {"sort": "newest"}, {"sort": "title"}, {"sort": "-title"},
                   {"sort": "title", "size": 2}, {"sort": "title", "size": 2, "page": 3},
                   {"sort": "title", "size": 2, "page": 4}, {"size": 5}, {"size": ${size_max}}]:
        rows.append([params] + _listed(client, params | {"tag": "srt"}))
    rows.append(_listed(client, {"tag": "none-such"}))
    for params in [{"size": 0}, {"size": ${size_max} + 1}, {"page": 0}, {"sort": "oldest"}]:
        rows.append([params, _errors(client.get("/recipes", params=params))])
    return rows


def probe_patch(client):
    recipe = _recipe(client, A1, title="Patched")
    rows = [_row(client.patch(f"/recipes/{recipe}", json={"title": "  Patched v2 ",
                                                          "servings": 3}, cookies=A1))]
    rows.append(_row(client.patch(f"/recipes/{recipe}", json={"ingredients": [
        {"name": "oil", "quantity": 0.75, "unit": LIQUID}], "tags": ["Fry"]}, cookies=A1)))
    for body in [{"title": None}, {"servings": None}, {"tags": None}, {"servings": 0},
                 {"title": "x"}]:
        rows.append([body, _errors(client.patch(f"/recipes/{recipe}", json=body, cookies=A1))])
    rows.append(_row(client.get(f"/recipes/{recipe}", cookies=A1)))
    rows.append(_row(client.patch("/recipes/99999", json={}, cookies=A1)))
    rows.append(_errors(client.patch("/recipes/99999", json={"servings": 0}, cookies=A1)))
    return rows


def probe_revision_counts_real_changes(client):
    recipe = _recipe(client, A2, title="Counted", tags=["b", "a"])
    rows = []
    for body in [{}, {"title": "Counted"}, {"title": " Counted "}, {"tags": ["A", "b"]},
                 {"servings": 2, "status": "draft"}, {"servings": 5}, {"title": "Recounted"},
                 {"tags": ["a"]}, {"servings": 3, "title": "Twice"}]:
        r = client.patch(f"/recipes/{recipe}", json=body, cookies=A2)
        rows.append([body, r.status_code, r.json()["revision"]])
    return rows


def probe_who_may_patch(client):
    recipe = _recipe(client, A1, title="Shared", status="published")
    return [_row(client.patch(f"/recipes/{recipe}", json={"title": "Edited", "tags": ["ed"]},
                              cookies=ED)),
            _row(client.patch(f"/recipes/{recipe}", json={"servings": 9}, cookies=ED)),
            _row(client.patch(f"/recipes/{recipe}", json={"title": "Again", "status": "published"},
                              cookies=ED)),
            _row(client.patch(f"/recipes/{recipe}", json={"title": "Hijack"}, cookies=A2)),
            _row(client.patch(f"/recipes/{recipe}", json={"title": "Hijack"}, cookies=RD)),
            _errors(client.patch(f"/recipes/{recipe}", json={"title": "x"}, cookies=RD)),
            _row(client.get(f"/recipes/{recipe}", cookies=RD))]


def probe_publishing(client):
    recipe = _recipe(client, A2, title="Going public")
    rows = [_row(client.patch(f"/recipes/{recipe}", json={"status": "published"}, cookies=A2))]
    rows.append(_row(client.get(f"/recipes/{recipe}")))
    rows.append(_row(client.patch(f"/recipes/{recipe}", json={"status": "draft"}, cookies=A2)))
    rows.append(_row(client.get(f"/recipes/{recipe}")))
    rows.append(_row(client.patch(f"/recipes/{recipe}", json={"status": "published"}, cookies=A2)))
    return rows


def probe_delete(client):
    recipe = _recipe(client, A1, title="Doomed", status="published")
    client.put(f"/recipes/{recipe}/favourite", cookies=RD)
    rows = [_row(client.delete(f"/recipes/{recipe}", cookies=ED)),
            _row(client.delete(f"/recipes/{recipe}", cookies=A2)),
            _row(client.delete(f"/recipes/{recipe}", cookies=A1)),
            _row(client.get(f"/recipes/{recipe}", cookies=A1)),
            _row(client.delete(f"/recipes/{recipe}", cookies=A1)),
            [recipe in [r["id"] for r in client.get("/me/favourites", cookies=RD).json()]]]
    newer = _recipe(client, A1, title="Successor")
    rows.append([newer > recipe])
    return rows


def probe_favourites(client):
    first = _recipe(client, A1, title="Fav one", status="published")
    second = _recipe(client, A2, title="Fav two", status="published")
    rows = [_row(client.put(f"/recipes/{first}/favourite", cookies=RD)),
            _row(client.put(f"/recipes/{second}/favourite", cookies=RD)),
            _row(client.put(f"/recipes/{first}/favourite", cookies=ED)),
            _row(client.put(f"/recipes/{first}/favourite", cookies=RD)),
            [[r["title"] for r in client.get("/me/favourites", cookies=RD).json()]],
            _row(client.get(f"/recipes/{first}", cookies=RD)),
            _row(client.delete(f"/recipes/{second}/favourite", cookies=RD)),
            _row(client.delete(f"/recipes/{second}/favourite", cookies=RD)),
            _row(client.delete(f"/recipes/{first}/favourite", cookies=A2)),
            _row(client.put("/recipes/99999/favourite", cookies=RD)),
            [[r["title"] for r in client.get("/me/favourites", cookies=RD).json()]],
            _row(client.get("/me/favourites", cookies=A2))]
    return rows


def probe_unknown_routes(client):
    rows = []
    # Paths served by one method only: with several, Starlette's Allow names those of the
    # route declared first.
    for method, path in [("GET", "/nope"), ("PUT", "/tags"), ("POST", "/me"),
                         ("DELETE", "/me/favourites"), ("GET", "/recipes/1/scaled/x")]:
        r = client.request(method, path, cookies=A1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_tag_counts(client):
    before = {t["tag"]: t["recipes"] for t in client.get("/tags").json()}
    for tags, status in [(["cnt-b", "cnt-a"], "published"), (["cnt-b"], "published"),
                         (["cnt-c", "cnt-a"], "published"), (["cnt-z"], "draft"),
                         (["cnt-c"], "published"), (["cnt-c"], "published")]:
        _recipe(client, A1, tags=tags, status=status)
    after = client.get("/tags").json()
    ours = [t for t in after if t["tag"].startswith("cnt-")]
    return [ours, [before == {t["tag"]: t["recipes"] for t in after
                              if not t["tag"].startswith("cnt-")}],
            [[t["recipes"] for t in after] == sorted((t["recipes"] for t in after), reverse=True)]]
'''

PROMPT = '''\
Build the HTTP API of a shared recipe box, as specified below. All state is in memory and
starts empty.

## Users and sessions
A caller is identified by the cookie `${cookie}`, whose value is a session key:

| session key | user | role |
|---|---|---|
${user_table}

`GET /recipes`, `GET /recipes/{recipe_id}`, `GET /recipes/{recipe_id}/scaled` and `GET /tags`
are public: without the cookie the caller is anonymous. Every other route needs a session:
without the cookie it is 401 `login_required`. A cookie whose value is not a session key is
401 `invalid_session` on every route, public ones included. Authors and editors write recipes;
readers may not create one (403 `forbidden`). The session and the role are checked before the
request's input, a body that is not JSON included: after them, such a body is FastAPI's
standard 422 for it (type `json_invalid`, location `["body", <offset of the problem>]`).

## Errors
Errors use FastAPI's standard bodies: `{"detail": <code>}` for the errors named here, FastAPI's
standard 422 body for invalid input (path, query or body), and FastAPI's standard answers to
unknown paths and methods. Request body fields not listed below are ignored.

## Recipes
A recipe is shown as `{"id", "title", "author", "servings", "status", "tags", "ingredients",
"revision", "favourites"}`; ids are 1, 2, ... in creation order, never reused. `status` is
`draft` or `published`. `favourites` counts the users who favourited it.

Input rules:
- `title`: stored trimmed, then 3-80 characters. `servings`: a whole number 1-${max_servings}
  (FastAPI's standard parsing: `"3"` is accepted as 3).
- `ingredients`: a list of 1-${max_ingredients} objects `{"name", "quantity", "unit"}`:
  `name` stored trimmed, then 1-40 characters; `quantity` a JSON number (integer or decimal,
  not a string) above 0 and at most 10000; `unit` one of ${units_text}. Two ingredients of one
  recipe may not have the same name ignoring case: 400 `duplicate_ingredient`.
- `tags`: a list of strings, each trimmed and lower-cased, then 1-20 characters of `a-z`, `0-9`
  and `-`; stored without repeats, sorted; at most ${max_tags} distinct tags. Default `[]`.
- `status`: `draft` (the default) or `published`.

Quantities are exact decimals: every quantity a response shows is rounded to ${places} decimal
place(s), halves rounded up (away from zero), and written as a JSON integer when the rounded
value is whole, else as a JSON number (`2.0` is shown as `2`).

A draft is visible only to its author: for anyone else (editors included) it is 404
`recipe_not_found`, like a missing recipe, on every route that names it.

- `POST /recipes` (authors and editors) `{"title", "servings", "ingredients", "tags",
  "status"}`: 201 with the recipe (author the caller, `revision` 1) and
  `Location: /recipes/<id>`.
- `GET /recipes`: 200 `{"results", "count", "page", "pages"}`. The recipes the caller can see
  (every published one, and the caller's own drafts), filtered by the optional `tag` (may be
  repeated: a recipe must carry every tag given, compared after trimming and lower-casing),
  `q` (contained in the title, ignoring case), `author` (exact name) and `ingredient`
  (contained in an ingredient's name, ignoring case); sorted by `sort`: `newest` (highest id
  first), `title` (ignoring case, then by id) or `-title` (the exact reverse of `title`); the
  default is `${default_sort}`. `count` is the number of matches, `pages` the number of pages
  (0 when nothing matches), `results` page `page` (>= 1, default 1) of `size` (1-${size_max},
  default ${size_default}) matches, each shown as `{"id", "title", "author", "status", "tags"}`.
- `GET /recipes/{recipe_id}`: 200 with the recipe.
- `GET /recipes/{recipe_id}/scaled?servings=<n>` (`n` required, 1-${max_servings}): 200 `{"id",
  "title", "servings", "ingredients"}`, each quantity multiplied by `n` / the recipe's servings
  before rounding.
- `PATCH /recipes/{recipe_id}` (logged in) with any of the five input fields (same rules; null
  is invalid): its author may change anything; an editor may change `title` and `tags` of
  another author's published recipe, and a body from such an editor naming any other field is
  403 `editors_change_title_and_tags_only`; anyone else gets 403 `not_your_recipe`. ${unpublish_rule}
  The fields given replace the stored ones; `revision` grows by one when at least one stored
  value actually changed, else it stays. 200 with the recipe.
- `DELETE /recipes/{recipe_id}` (logged in): only its author (else 403 `not_your_recipe`): 204
  with an empty body; it leaves every favourites list.

The order of checks: session and role, the input, the recipe exists and is visible (404),
permission (403), then the other rules.

## Favourites and tags
- `PUT /recipes/{recipe_id}/favourite` (logged in): 201 `{"recipe_id", "favourites"}` when it
  becomes a favourite of the caller, 200 with the same body when it already was.
- `DELETE /recipes/{recipe_id}/favourite` (logged in): 204; 404 `not_a_favourite` when it was
  not the caller's favourite.
- `GET /me/favourites` (logged in): 200, the caller's favourites that the caller can still see,
  most recently favourited first, each as in the listing.
- `GET /tags`: 200 `[{"tag", "recipes"}]`: every tag of a published recipe with the number of
  published recipes carrying it, most used first, then by tag.
- `GET /me` (logged in): 200 `{"name", "role"}`.

## result
One row per request, each `[status code, JSON body]`:
1. `POST /recipes` as `${u1}` with `{"title": "  ${dish}  ", "servings": 4, "status":
   "published", "tags": ["Quick", " quick", "Veg"], "ingredients": [{"name": " flour ",
   "quantity": 250, "unit": "g"}, {"name": "milk", "quantity": 1.5, "unit": "${liquid}"}]}`
2. `GET <the Location of row 1>/scaled?servings=3` without a cookie
3. `GET /tags` without a cookie
4. `GET /me` without a cookie
'''

USER_SETS = {
    "kitchen": [["ks-101", "amara", "author"], ["ks-202", "bruno", "author"],
                ["ks-303", "chen", "editor"], ["ks-404", "dora", "reader"]],
    "bistro": [["b7-alpha", "elif", "author"], ["b7-beta", "femi", "author"],
               ["b7-gamma", "greta", "editor"], ["b7-delta", "hugo", "reader"]],
}
UNITS = {
    "metric": ["g", "ml", "tsp", "tbsp", "piece"],
    "mixed": ["g", "kg", "cup", "l", "pinch", "piece"],
}


def derive(p):
    users = USER_SETS[p["user_set"]]
    units = UNITS[p["unit_set"]]
    return {
        "users": users,
        **{f"k{n}": u[0] for n, u in enumerate(users, 1)},
        **{f"u{n}": u[1] for n, u in enumerate(users, 1)},
        "user_table": "\n".join(f"| `{k}` | `{n}` | {r} |" for k, n, r in users),
        "units_literal": ", ".join(repr(u) for u in units),
        "units_text": ", ".join(f"`{u}`" for u in units),
        "liquid": "ml" if "ml" in units else "cup",
        "unpublish_rule": "A published recipe may go back to `draft`." if p["unpublish"] else
        "A published recipe cannot go back to draft: `status` `draft` on a published recipe "
        "is 409 `already_published`.",
    }


FAMILY = Family(
    id="service/recipe_box",
    title="A shared recipe box with drafts, exact scaling and roles, from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"user_set": "kitchen", "cookie": "rb_session", "unit_set": "metric",
              "dish": "Pancakes", "max_servings": 12, "max_ingredients": 10, "places": 2,
              "max_tags": 5, "size_default": 3, "size_max": 10, "default_sort": "newest",
              "unpublish": False},
    space={
        "users": [{"user_set": "kitchen", "cookie": "rb_session"},
                  {"user_set": "bistro", "cookie": "kitchen_sid"}],
        "units": [{"unit_set": "metric", "dish": "Pancakes"},
                  {"unit_set": "mixed", "dish": "Crepes"}],
        "limits": [{"max_servings": 12, "max_ingredients": 10},
                   {"max_servings": 24, "max_ingredients": 6}],
        "places": [2, 1],
        "max_tags": [5, 3],
        "paging": [{"size_default": 3, "size_max": 10}, {"size_default": 4, "size_max": 6}],
        "default_sort": ["newest", "title"],
        "unpublish": [False, True],
    },
    derive=derive,
    instances=12,
    requirements=(
        Requirement("Without the `${cookie}` cookie the private routes are 401 `login_required` "
                    "and the public ones anonymous; an unknown session is 401 `invalid_session` "
                    "everywhere; both before the input.",
                    probes="sessions",
                    traps=(Edit("unknown session anonymous on public routes",
                                "    if ${cookie} not in SESSIONS:\n"
                                '        raise HTTPException(401, "invalid_session")\n'
                                "    return SESSIONS[${cookie}]",
                                "    return SESSIONS.get(${cookie})"),
                           Edit("empty cookie anonymous", "    if ${cookie} is None:\n",
                                "    if not ${cookie}:\n"))),
        Requirement("`GET /me` names the caller and the role.",
                    probes="me",
                    traps=Edit("me without role", "def me(user: Member):\n    return user",
                               'def me(user: Member):\n    return {"name": user["name"]}')),
        Requirement("The session and the role are checked before the body, even a body that is "
                    "not JSON (then FastAPI's standard 422 `json_invalid`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Readers may not create recipes: 403 `forbidden`, before the body.",
                    probes="readers_cannot_write",
                    traps=Edit("body validated before the role",
                               "def create_recipe(user: Writer, body: RecipeIn, response: "
                               "Response):\n",
                               "def create_recipe(body: RecipeIn, user: Member, response: "
                               "Response):\n    writer(user)\n")),
        Requirement("`POST /recipes` answers 201 with the recipe (trimmed fields, normalised "
                    "tags, draft by default, revision 1, unknown fields ignored) and `Location`.",
                    probes="create",
                    traps=(Edit("no Location on recipes",
                                "    response.headers[\"Location\"] = f\"/recipes/"
                                "{recipe['id']}\"\n", ""),
                           Edit("unknown fields refused", "class RecipeIn(BaseModel):\n",
                                "class RecipeIn(BaseModel):\n    model_config = "
                                "{'extra': 'forbid'}\n"),
                           Edit("ingredient names not trimmed",
                                "    name: Annotated[str, trimmed(1, 40)]",
                                "    name: Annotated[str, Field(min_length=1, max_length=40)]"))),
        Requirement("Recipe input: title 3-80 after trimming, servings 1-${max_servings}, 1-"
                    "${max_ingredients} ingredients with quantity a JSON number in (0, 10000] "
                    "and a listed unit; FastAPI's standard 422.",
                    probes="recipe_validation",
                    traps=(Edit("title length before trimming",
                                "Title = Annotated[str, trimmed(3, 80)]",
                                "Title = Annotated[str, Field(min_length=3, max_length=80), "
                                "AfterValidator(str.strip)]"),
                           Edit("quantity strings accepted",
                                "quantity: float = Field(gt=0, le=10000, strict=True)",
                                "quantity: float = Field(gt=0, le=10000)"),
                           Edit("ingredient count unbounded",
                                "Field(min_length=1, max_length=${max_ingredients})]",
                                "Field(min_length=1)]"),
                           Edit("servings bound off by one",
                                "Servings = Annotated[int, Field(ge=1, le=${max_servings})]",
                                "Servings = Annotated[int, Field(ge=1, lt=${max_servings})]"))),
        Requirement("Two ingredients with one name ignoring case are 400 "
                    "`duplicate_ingredient`, on create and on edit.",
                    probes="duplicate_ingredients",
                    traps=(Edit("duplicate names case-sensitive",
                                "    names = [i.name.lower() for i in items]",
                                "    names = [i.name for i in items]"),
                           Edit("duplicates unchecked on edit",
                                '        changes["ingredients"] = stored_ingredients('
                                'body.ingredients)',
                                '        changes["ingredients"] = [{"name": i.name, "quantity": '
                                'Decimal(str(i.quantity)), "unit": i.unit} for i in '
                                'body.ingredients]'))),
        Requirement("Tags are trimmed, lower-cased, 1-20 of `a-z0-9-`, stored distinct and "
                    "sorted, at most ${max_tags} distinct.",
                    probes="tags",
                    traps=(Edit("tag limit before removing repeats",
                                "    if len(cleaned) > ${max_tags}:",
                                "    if len(tags) > ${max_tags}:"),
                           Edit("tags in given order",
                                "    cleaned = sorted({tag.strip().lower() for tag in tags})",
                                "    cleaned = list(dict.fromkeys(tag.strip().lower() for tag "
                                "in tags))"),
                           Edit("non-ASCII tags allowed",
                                "all(c.isascii() and (c.isalnum() or c == \"-\")",
                                "all((c.isalnum() or c == \"-\")"))),
        Requirement("Quantities are shown rounded half up to ${places} place(s), whole values as "
                    "JSON integers.",
                    probes="quantities",
                    traps=(Edit("binary rounding",
                                "    rounded = value.quantize(PLACES, rounding=ROUND_HALF_UP)",
                                "    rounded = Decimal(str(round(float(value), ${places})))"),
                           Edit("whole quantities as floats",
                                "    return int(rounded) if rounded == "
                                "rounded.to_integral_value() else float(rounded)",
                                "    return float(rounded)"))),
        Requirement("`/scaled` multiplies by `servings` / the recipe's servings before rounding; "
                    "`servings` is required, 1-${max_servings}.",
                    probes="scaling",
                    traps=(Edit("scaled servings unbounded",
                                "servings: Annotated[int, Query(ge=1, le=${max_servings})]):",
                                "servings: Annotated[int, Query(ge=1)]):"),
                           Edit("scaled from the rounded quantity",
                                '"quantity": shown_quantity(i["quantity"] * factor),',
                                '"quantity": shown_quantity(Decimal(str(shown_quantity('
                                'i["quantity"]))) * factor),'),
                           Edit("scaling in floats",
                                "    factor = Decimal(servings) / Decimal(recipe[\"servings\"])",
                                "    factor = Decimal(servings / recipe[\"servings\"])"))),
        Requirement("A draft is 404 `recipe_not_found` for everyone but its author, on every "
                    "route.",
                    probes="drafts_private",
                    traps=Edit("editors see drafts",
                               '                          and (user is None or user["name"] != '
                               'recipe["author"])):',
                               '                          and (user is None or (user["name"] != '
                               'recipe["author"] and user["role"] != "editor"))):')),
        Requirement("Listings hold every published recipe and the caller's own drafts.",
                    probes="list_visibility",
                    traps=Edit("drafts never listed",
                               'if (r["status"] == "published" or (user and r["author"] == '
                               'user["name"]))',
                               'if r["status"] == "published"')),
        Requirement("Listing filters: every repeated `tag` (normalised), `q` and `ingredient` "
                    "ignoring case, `author` exact.",
                    probes="list_filters",
                    traps=(Edit("one tag parameter only",
                                "    tag: Annotated[list[str], Query()] = [],",
                                "    tag: str | None = None,"),
                           Edit("tag filter not normalised",
                                "    wanted = {t.strip().lower() for t in tag}",
                                "    wanted = set(tag)"),
                           Edit("any tag matches", "and wanted <= set(r[\"tags\"])",
                                "and (not wanted or wanted & set(r[\"tags\"]))"))),
        Requirement("Sorting (`newest`, `title` ignoring case, `-title`; default "
                    "`${default_sort}`) and pages (`size` 1-${size_max}, default ${size_default}; "
                    "`pages` 0 when empty).",
                    probes="list_sort_and_pages",
                    traps=(Edit("title sort case-sensitive",
                                'SORTS = {"title": lambda r: (r["title"].lower(), r["id"]),',
                                'SORTS = {"title": lambda r: (r["title"], r["id"]),'),
                           Edit("default sort of the other kind",
                                "= ${default_sort__repr},",
                                lambda p: "= " + repr("title" if p["default_sort"] == "newest"
                                                      else "newest") + ","),
                           Edit("pages rounded down", '"pages": -(-len(found) // size)}',
                                '"pages": len(found) // size}'),
                           Edit("size unbounded", "Query(ge=1, le=${size_max})",
                                "Query(ge=1)"))),
        Requirement("`PATCH` replaces the given fields (null invalid) and answers the recipe.",
                    probes="patch",
                    traps=(Edit("nulls accepted",
                                "    title: Title = None\n    servings: Servings = None\n",
                                "    title: Title | None = None\n    servings: Servings | None "
                                "= None\n"),
                           Edit("patch ingredients ignored",
                                '    if "ingredients" in given:\n',
                                '    if False:\n'))),
        Requirement("`revision` grows only when a stored value actually changes.",
                    probes="revision_counts_real_changes",
                    traps=(Edit("every patch bumps the revision", "    if changed:\n",
                                "    if True:\n"),
                           Edit("revision counts fields",
                                '        recipe["revision"] += 1',
                                '        recipe["revision"] += len(changed)'))),
        Requirement("An editor changes only `title` and `tags` of another's published recipe "
                    "(else 403 `editors_change_title_and_tags_only`); others 403 "
                    "`not_your_recipe`; validation first.",
                    probes="who_may_patch",
                    traps=(Edit("editors change anything",
                                "        if set(given) - EDITOR_FIELDS:",
                                "        if False:"),
                           Edit("authors edit each other's recipes",
                                '        if user["role"] != "editor":',
                                '        if user["role"] == "reader":'))),
        Requirement("${unpublish_rule}",
                    probes="publishing",
                    traps=Edit("unpublish rule of the other mode",
                               "UNPUBLISH = ${unpublish}",
                               lambda p: f"UNPUBLISH = {not p['unpublish']}")),
        Requirement("Only the author deletes (403 `not_your_recipe`): 204, then 404; it leaves "
                    "favourites; ids are not reused.",
                    probes="delete",
                    traps=(Edit("editors delete",
                                '    if user["name"] != recipe["author"]:\n'
                                '        raise HTTPException(403, "not_your_recipe")\n'
                                "    del RECIPES[recipe_id]",
                                '    if user["name"] != recipe["author"] and user["role"] != '
                                '"editor":\n        raise HTTPException(403, "not_your_recipe")\n'
                                "    del RECIPES[recipe_id]"),
                           ids_reused("ids reused", "    recipe = ", "RECIPES", "recipe"))),
        Requirement("Favourites: 201 when added, 200 when already; removing a non-favourite is "
                    "404 `not_a_favourite`; `/me/favourites` is most recent first; the recipe "
                    "counts them.",
                    probes="favourites",
                    traps=(Edit("favourite always 201",
                                "        FAVOURITES.append((user[\"name\"], recipe_id))\n"
                                "        response.status_code = 201\n",
                                "        FAVOURITES.append((user[\"name\"], recipe_id))\n"
                                "    response.status_code = 201\n"),
                           Edit("favourites oldest first",
                                "for name, rid in reversed(FAVOURITES)",
                                "for name, rid in FAVOURITES"),
                           Edit("removing a non-favourite succeeds",
                                "        raise HTTPException(404, \"not_a_favourite\")\n"
                                "    FAVOURITES.remove",
                                "        return Response(status_code=204)\n    FAVOURITES.remove"))),
        Requirement("Unknown paths and methods get FastAPI's standard 404 and 405 (with "
                    "`Allow`).",
                    probes="unknown_routes",
                    traps=Edit("error handler drops headers", "app = FastAPI()\n",
                               "app = FastAPI()\n\n\n@app.exception_handler(__import__("
                               "'starlette.exceptions').exceptions.HTTPException)\n"
                               "async def on_http(request, exc):\n"
                               "    return __import__('fastapi').responses.JSONResponse("
                               "{'detail': exc.detail}, status_code=exc.status_code)\n")),
        Requirement("`GET /tags` counts published recipes per tag, most used first, then by "
                    "tag.",
                    probes="tag_counts",
                    traps=(Edit("drafts counted in tags",
                                '        if recipe["status"] == "published":\n'
                                '            for tag in recipe["tags"]:',
                                '        if True:\n            for tag in recipe["tags"]:'),
                           Edit("tags by name only",
                                "key=lambda item: (-item[1], item[0]))]",
                                "key=lambda item: item[0])]"))),
    ),
)
