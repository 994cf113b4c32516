"""Service tier: a podcast host's shows, episodes and plays specified like a product document
(10 routes plus HEAD, Bearer tokens with editor and listener roles, strict JSON types, UTC
timestamps, repeatable tag filters, paging with a total header, `{"error"}` bodies with
validation as 400)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.service._core_400_invalid import (
    ERRORS_SOURCE,
    ROLE_SOURCE,
    ROW_HELPERS,
    router_headers_dropped,
)
from fastapi_env.tasks.traps import (
    head_left_out_of_methods,
    router_errors_in_fastapi_format,
    slashes_redirected,
)

REFERENCE = '''\
import re
from datetime import timezone
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import (AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool,
                      StrictInt, field_validator)
from starlette.exceptions import HTTPException as StarletteHTTPException

TOKENS = {"${t_ed}": "${ed}", "${t_l1}": "${l1}", "${t_l2}": "${l2}"}
ROLES = {"${ed}": "editor", "${l1}": "listener", "${l2}": "listener"}
ROUTER_CODES = {404: "no_route", 405: "method_not_allowed"}
SHOWS: dict[str, dict] = {}
EPISODES: dict[int, dict] = {}
NEXT_EPISODE = [1]

# The router must not answer `/shows/` with a redirect to `/shows`: the spec makes it a 404.
app = FastAPI(redirect_slashes=False)


''' + late_body.ROUTE_CLASS + '''

''' + ERRORS_SOURCE + '''def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise Failure(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


Caller = Annotated[str, Depends(caller)]


''' + ROLE_SOURCE + '''Editor = role("editor")
Listener = role("listener")


def trimmed(value):
    return value.strip() if isinstance(value, str) else value


# Trim and lowercase first, then check the pattern: "Night-Shift" is the slug night-shift.
Slug = Annotated[str, BeforeValidator(lambda v: trimmed(v).lower() if isinstance(v, str) else v),
                 Field(pattern=r"^[a-z0-9-]{3,${slug_max}}$$")]
Tag = Annotated[str, BeforeValidator(lambda v: trimmed(v).lower() if isinstance(v, str) else v),
                Field(min_length=1, max_length=20)]


class ShowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slug: Slug
    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=80)]


class EpisodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=120)]
    duration: StrictInt = Field(ge=1, le=${dur_max})
    published_at: AwareDatetime
    explicit: StrictBool = False
    tags: list[Tag] = Field(default=[], max_length=${tag_max})

    @field_validator("published_at", mode="before")
    @classmethod
    def text_only(cls, value):
        # Pydantic would read a number, or a string of digits, as seconds since 1970: the spec
        # wants an ISO 8601 text.
        if not isinstance(value, str):
            raise ValueError("published_at must be text")
        if not re.match(r"\\d{4}-\\d{2}-\\d{2}T", value):
            raise ValueError("published_at must be an ISO 8601 date and time")
        return value


class EpisodePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=120)] = None
    explicit: StrictBool = None
    summary: Annotated[str, BeforeValidator(trimmed), Field(max_length=200)] | None = None


class PlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seconds: StrictInt = Field(ge=1)


def stamp(moment) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def unique(tags: list[str]) -> list[str]:
    return list(dict.fromkeys(tags))


def show_of(slug: str) -> dict:
    show = SHOWS.get(slug.lower())
    if show is None:
        raise Failure(404, "unknown_show")
    return show


def episode_of(episode_id: int) -> dict:
    if episode_id not in EPISODES:
        raise Failure(404, "unknown_episode")
    return EPISODES[episode_id]


def show_view(show: dict) -> dict:
    count = sum(1 for e in EPISODES.values() if e["show"] == show["slug"])
    return {"slug": show["slug"], "title": show["title"], "episodes": count}


def episode_view(episode: dict) -> dict:
    return episode | {"published_at": stamp(episode["published_at"])}


@app.post("/shows", status_code=201)
def create_show(name: Editor, body: ShowIn, response: Response):
    if body.slug in SHOWS:
        raise Failure(409, "slug_taken")
    SHOWS[body.slug] = {"slug": body.slug, "title": body.title}
    response.headers["Location"] = f"/shows/{body.slug}"
    return show_view(SHOWS[body.slug])


@app.api_route("/shows", methods=["GET", "HEAD"])
def list_shows(name: Caller):
    return [show_view(SHOWS[slug]) for slug in sorted(SHOWS)]


@app.api_route("/shows/{slug}", methods=["GET", "HEAD"])
def read_show(slug: str, name: Caller):
    return show_view(show_of(slug))


@app.post("/shows/{slug}/episodes", status_code=201)
def create_episode(slug: str, name: Editor, body: EpisodeIn, response: Response):
    show = show_of(slug)
    episode = {"id": NEXT_EPISODE[0], "show": show["slug"], "title": body.title,
               "duration": body.duration, "published_at": body.published_at,
               "explicit": body.explicit, "tags": unique(body.tags), "summary": None,
               "plays": 0}
    NEXT_EPISODE[0] += 1
    EPISODES[episode["id"]] = episode
    response.headers["Location"] = f"/episodes/{episode['id']}"
    return episode_view(episode)


@app.api_route("/shows/{slug}/episodes", methods=["GET", "HEAD"])
def list_episodes(slug: str, name: Caller, response: Response,
                  tag: Annotated[list[str] | None, Query()] = None,
                  limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_def},
                  offset: Annotated[int, Query(ge=0)] = 0,
                  explicit: Literal["true", "false"] | None = None):
    flag = None if explicit is None else explicit == "true"
    show = show_of(slug)
    wanted = {t.strip().lower() for t in tag or []}
    found = [e for e in EPISODES.values() if e["show"] == show["slug"]
             and wanted <= set(e["tags"]) and (flag is None or e["explicit"] == flag)]
    found.sort(key=lambda e: e["id"])
    found.sort(key=lambda e: e["published_at"], reverse=${newest_first})
    response.headers["X-Total-Count"] = str(len(found))
    return [episode_view(e) for e in found[offset:offset + limit]]


@app.api_route("/episodes/{episode_id}", methods=["GET", "HEAD"])
def read_episode(episode_id: int, name: Caller):
    return episode_view(episode_of(episode_id))


@app.patch("/episodes/{episode_id}")
def update_episode(episode_id: int, name: Editor, body: EpisodePatch):
    episode = episode_of(episode_id)
    episode.update(body.model_dump(exclude_unset=True))
    return episode_view(episode)


@app.delete("/episodes/{episode_id}", status_code=204)
def delete_episode(episode_id: int, name: Editor):
    del EPISODES[episode_of(episode_id)["id"]]


@app.post("/episodes/{episode_id}/plays")
def record_play(episode_id: int, name: Listener, body: PlayIn):
    episode = episode_of(episode_id)
    if body.seconds > episode["duration"]:
        raise Failure(409, "beyond_duration")
    counted = body.seconds * 100 >= episode["duration"] * ${play_pct}
    episode["plays"] += counted
    return {"episode": episode["id"], "counted": counted, "plays": episode["plays"]}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
editor = {"Authorization": "Bearer ${t_ed}"}
result = [
    row(client.post("/shows", json={"slug": "${slug_in}", "title": "Late Notes"}, headers=editor)),
    row(client.post("/shows/${slug_out}/episodes", headers=editor,
                    json={"title": "Pilot", "duration": ${duration_in},
                          "published_at": "${published_in}", "tags": ["Jazz", "live"]})),
    row(client.get("/shows/${slug_out}/episodes", headers=editor)),
]
'''

PROBES = ROW_HELPERS + '''

ED = {"Authorization": "Bearer ${t_ed}"}
L1, L2 = {"Authorization": "Bearer ${t_l1}"}, {"Authorization": "Bearer ${t_l2}"}
STAMP = "2026-01-01T08:00:00Z"


def _show(client, slug):
    client.post("/shows", json={"slug": slug, "title": slug.title()}, headers=ED)
    return slug


def _episode(client, slug, **fields):
    body = {"title": "Ep", "duration": 600, "published_at": STAMP} | fields
    return client.post(f"/shows/{slug}/episodes", json=body, headers=ED)
''' + late_body.probe_source(
    [("POST", "/shows"), ("POST", "/shows/any-show/episodes"), ("PATCH", "/episodes/1"),
     ("POST", "/episodes/1/plays")],
    [("no token", "{}"), ("listener", "L1"), ("editor", "ED")]) + '''


def probe_bearer_format(client):
    rows = []
    for value in ["Bearer ${t_l1}", "bearer ${t_l1}", "BEARER ${t_l1}", "Bearer  ${t_l1}",
                  "Bearer ${t_l1} ", "Bearer ${l1}", "Bearer", "Bearer ", "${t_l1}",
                  "Token ${t_l1}", "Bearer ${t_l1}".upper()]:
        rows.append([value, _err(client.get("/shows", headers={"Authorization": value}))])
    rows.append(["none", _err(client.get("/shows"))])
    return rows


def probe_www_authenticate(client):
    rows = []
    for method, path, headers in [("GET", "/shows", {}), ("POST", "/shows", {}),
                                  ("GET", "/episodes/1", {"Authorization": "Bearer nope"}),
                                  ("DELETE", "/episodes/1", {"Authorization": "Basic x"}),
                                  ("GET", "/shows", ED)]:
        r = client.request(method, path, headers=headers)
        rows.append([method, path, r.status_code, r.headers.get("www-authenticate")])
    return rows


def probe_roles(client):
    rows = []
    for headers in (L1, ED):
        rows += [_err(client.post("/shows", json={"slug": 5}, headers=headers)),
                 _err(client.post("/shows/zzz-none/episodes", json={}, headers=headers)),
                 _err(client.patch("/episodes/99999", json={"title": ""}, headers=headers)),
                 _err(client.delete("/episodes/99999", headers=headers))]
    rows.append(_err(client.post("/episodes/99999/plays", json={"seconds": 0}, headers=ED)))
    rows.append(_err(client.post("/episodes/99999/plays", json={"seconds": 0}, headers=L2)))
    return rows


def probe_validation_format(client):
    return [_row(client.post("/shows", json={"slug": "", "title": "", "host": "x"}, headers=ED)),
            _row(client.post("/shows", json=["x"], headers=ED)),
            _row(client.get("/episodes/abc", headers=L1)),
            _row(client.post("/shows/no-show/episodes", headers=ED,
                             json={"title": "t", "duration": 5, "published_at": STAMP,
                                   "tags": ["ok", 5, ""]})),
            _row(client.get("/shows/any/episodes", params={"limit": "x", "offset": "-1"},
                            headers=L1))]


def probe_router_errors(client):
    return [_row(client.get("/nowhere", headers=L1)), _row(client.get("/nowhere")),
            _row(client.put("/shows", headers=L1)),
            _row(client.get("/episodes/1/plays", headers=L1))]


def probe_allow_header(client):
    rows = []
    for method in ["GET", "PUT", "DELETE"]:
        r = client.request(method, "/episodes/1/plays", headers=L1)
        rows.append([method, r.status_code, r.headers.get("allow")])
    return rows


def probe_trailing_slash(client):
    _show(client, "slash-show")
    rows = []
    for path in ["/shows/", "/shows/slash-show/", "/shows/slash-show/episodes/"]:
        r = client.get(path, headers=L1, follow_redirects=False)
        rows.append([path, r.status_code, r.headers.get("location"), _err(r)])
    return rows


def probe_head(client):
    slug = _show(client, "head-show")
    episode = _episode(client, slug).json()["id"]
    rows = []
    for path in ["/shows", f"/shows/{slug}", f"/shows/{slug}/episodes", f"/episodes/{episode}",
                 "/shows/no-such-show", "/episodes/99999"]:
        got, head = client.get(path, headers=L1), client.head(path, headers=L1)
        rows.append([path, head.status_code, head.status_code == got.status_code, head.content == b"",
                     head.headers.get("content-length") == got.headers.get("content-length"),
                     head.headers.get("x-total-count") == got.headers.get("x-total-count")])
    rows.append(["no key", client.head("/shows").status_code])
    return rows


def probe_slug_rules(client):
    rows = []
    for slug in ["Night-Owls", "  jazz-hour  ", "ABC", "ab", "a" * ${slug_max}, "b" * (${slug_max} + 1),
                 " " + "C" * ${slug_max} + " ", "two words", "snake_case", "ok-2"]:
        r = client.post("/shows", json={"slug": slug, "title": "T"}, headers=ED)
        rows.append([slug, r.status_code, r.json().get("slug", r.json().get("fields"))])
    return rows


def probe_show_create(client):
    r = client.post("/shows", json={"slug": "Morning-Run", "title": "  Morning Run  "}, headers=ED)
    rows = [[r.status_code, r.headers.get("location"), r.json()]]
    for slug in ["morning-run", "MORNING-RUN", " Morning-Run"]:
        rows.append(_err(client.post("/shows", json={"slug": slug, "title": "x"}, headers=ED)))
    for body in [{"slug": "title-less"}, {"slug": "blank-title", "title": "   "},
                 {"slug": "long-title", "title": "t" * 81}, {"slug": "max-title", "title": "t" * 80}]:
        rows.append(_fields(client.post("/shows", json=body, headers=ED)))
    return rows


def probe_show_list(client):
    for slug in ["zz-last", "aa-first", "mm-middle"]:
        _show(client, slug)
    _episode(client, "mm-middle")
    _episode(client, "mm-middle")
    shows = [s for s in client.get("/shows", headers=L2).json()
             if s["slug"] in ("zz-last", "aa-first", "mm-middle")]
    return [shows, _row(client.get("/shows/MM-Middle", headers=L1)),
            _err(client.get("/shows/nothing-here", headers=L1))]


def probe_duration(client):
    slug = _show(client, "duration-show")
    rows = []
    for duration in [1, ${dur_max}, 0, ${dur_max} + 1, "600", 600.0, True, 600.5, None, " 600 "]:
        r = _episode(client, slug, duration=duration)
        rows.append([repr(duration), r.status_code, r.json().get("duration", r.json().get("fields"))])
    return rows


def probe_explicit_strict(client):
    slug = _show(client, "explicit-input")
    rows = []
    for value in [True, False, "true", 1, 0, "yes", None]:
        r = _episode(client, slug, explicit=value)
        rows.append([repr(value), r.status_code, r.json().get("explicit", r.json().get("fields"))])
    r = client.post(f"/shows/{slug}/episodes", headers=ED,
                    json={"title": "E", "duration": 5, "published_at": STAMP})
    rows.append(["absent", r.status_code, r.json().get("explicit")])
    return rows


def probe_published_at_input(client):
    slug = _show(client, "stamp-input")
    rows = []
    for value in ["2026-03-01T10:00:00Z", "2026-03-01T10:00:00+01:00", "2026-03-01T10:00:00",
                  "2026-03-01", 1772359200, "1772359200", "yesterday", None]:
        rows.append([repr(value), _fields(_episode(client, slug, published_at=value))[:2]])
    return rows


def probe_published_at_output(client):
    slug = _show(client, "stamp-output")
    rows = []
    for value in ["2026-03-01T10:00:00Z", "2026-03-01T10:00:00+02:00",
                  "2026-03-01T01:30:00-05:00", "2026-03-01T10:00:00+00:00",
                  "2026-03-01T23:59:59.000-01:00"]:
        r = _episode(client, slug, published_at=value)
        rows.append([value, r.json()["published_at"],
                     client.get(f"/episodes/{r.json()['id']}", headers=L1).json()["published_at"]])
    return rows


def probe_tags(client):
    slug = _show(client, "tag-show")
    rows = []
    for tags in [[" Jazz ", "jazz", "LIVE", "live"], [], ["t"] * (${tag_max} + 1),
                 [f"t{i}" for i in range(${tag_max})], [f"t{i}" for i in range(${tag_max} + 1)],
                 ["   "], ["x" * 21], "jazz"]:
        r = _episode(client, slug, tags=tags)
        rows.append([r.status_code, r.json().get("tags", r.json().get("fields"))])
    return rows


def probe_episode_create(client):
    slug = _show(client, "create-show")
    r = client.post("/shows/Create-Show/episodes", headers=ED,
                    json={"title": "  First  ", "duration": 90, "published_at": STAMP})
    body = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/episodes/{body['id']}",
             sorted(body), body["show"], body["title"], body["explicit"], body["tags"],
             body["summary"], body["plays"]]]
    rows.append(_err(client.post("/shows/none-such/episodes", headers=ED,
                                 json={"title": "x", "duration": 9, "published_at": STAMP})))
    rows.append(_fields(client.post("/shows/none-such/episodes", headers=ED, json={"title": ""})))
    rows.append(_fields(_episode(client, slug, title="   ", extra=1)))
    rows.append([client.get(f"/episodes/{body['id']}", headers=L2).json() == body,
                 _err(client.get("/episodes/99999", headers=L2))])
    return rows


def _dated(client, slug, days):
    ids = []
    for day in days:
        r = _episode(client, slug, title=f"day {day}", published_at=f"2026-02-{day:02d}T12:00:00Z")
        ids.append(r.json()["id"])
    return ids


def _titles(r):
    return [e["title"] for e in r.json()] if r.status_code == 200 else _err(r)


def probe_episode_pages(client):
    slug = _show(client, "page-show")
    _dated(client, slug, [5, 1, 9, 3, 7, 2, 8, 4, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                          21, 22, 23, 24, 25])
    _dated(client, slug, [9])
    rows = []
    for params in [{}, {"limit": 1}, {"limit": ${limit_max}}, {"offset": 3, "limit": 2},
                   {"offset": 25, "limit": 5}, {"offset": 40}, {"limit": 0},
                   {"limit": ${limit_max} + 1}, {"offset": -1}]:
        r = client.get(f"/shows/{slug}/episodes", params=params, headers=L1)
        rows.append([params, _titles(r)])
    return rows


def probe_total_count(client):
    slug = _show(client, "count-show")
    _dated(client, slug, [1, 2, 3, 4, 5, 6, 7])
    rows = []
    for params in [{}, {"limit": 2}, {"offset": 6}, {"offset": 9}]:
        r = client.get(f"/shows/{slug}/episodes", params=params, headers=L1)
        rows.append([params, r.headers.get("x-total-count"), len(r.json())])
    return rows


def probe_tag_filter(client):
    slug = _show(client, "filter-show")
    for title, tags in [("a", ["jazz", "live"]), ("b", ["jazz"]), ("c", ["live", "talk"]),
                        ("d", [])]:
        _episode(client, slug, title=title, tags=tags)
    rows = []
    for query in ["", "tag=jazz", "tag=JAZZ", "tag=jazz&tag=live", "tag=live&tag=talk",
                  "tag=jazz&tag=talk", "tag=none"]:
        r = client.get(f"/shows/{slug}/episodes?{query}", headers=L1)
        rows.append([query, sorted(_titles(r)), r.headers.get("x-total-count")])
    return rows


def probe_explicit_filter(client):
    slug = _show(client, "flag-show")
    _episode(client, slug, title="clean")
    _episode(client, slug, title="rough", explicit=True)
    rows = []
    for value in ["true", "false", "yes", "1", "on", "TRUE", "f", ""]:
        r = client.get(f"/shows/{slug}/episodes", params={"explicit": value}, headers=L1)
        rows.append([value, _titles(r) if r.status_code == 200 else _fields(r)])
    return rows


def probe_patch(client):
    slug = _show(client, "patch-show")
    episode = _episode(client, slug, title="Before", explicit=True).json()["id"]
    rows = []
    for body in [{"summary": "About it"}, {"title": "  After  "}, {}, {"summary": None},
                 {"explicit": False}, {"title": None}, {"explicit": None}, {"title": ""},
                 {"summary": "s" * 201}, {"plays": 9}]:
        r = client.patch(f"/episodes/{episode}", json=body, headers=ED)
        got = r.json()
        rows.append([body, r.status_code, [got.get(k) for k in ("title", "explicit", "summary")]
                     if r.status_code == 200 else got.get("fields")])
    rows.append(_err(client.patch("/episodes/99999", json={}, headers=ED)))
    return rows


def probe_plays(client):
    slug = _show(client, "play-show")
    episode = _episode(client, slug, duration=200).json()["id"]
    needed = -(-200 * ${play_pct} // 100)
    rows = []
    for seconds in [needed - 1, needed, 200, 201, 0, "150", 150.0]:
        r = client.post(f"/episodes/{episode}/plays", json={"seconds": seconds}, headers=L1)
        body = r.json()
        rows.append([repr(seconds), r.status_code, body.get("counted"), body.get("plays"),
                     body.get("error")])
    rows.append(["stored", client.get(f"/episodes/{episode}", headers=L2).json()["plays"]])
    rows.append(_err(client.post("/episodes/99999/plays", json={"seconds": 1}, headers=L1)))
    return rows


def probe_delete(client):
    slug = _show(client, "delete-show")
    first = _episode(client, slug).json()["id"]
    r = client.delete(f"/episodes/{first}", headers=ED)
    rows = [[r.status_code, r.content == b""]]
    rows += [_err(client.delete(f"/episodes/{first}", headers=ED)),
             _err(client.get(f"/episodes/{first}", headers=L1)),
             _err(client.patch(f"/episodes/{first}", json={}, headers=ED)),
             ["left", client.get(f"/shows/{slug}", headers=L1).json()["episodes"]]]
    second = _episode(client, slug).json()["id"]
    rows.append([second > first, second - first])
    return rows
'''

PROMPT = """\
Build the HTTP API of a small podcast host: shows, their episodes, and play counts. All state is
in memory and starts empty; episode ids are 1, 2, ... in creation order and are never reused,
even after a deletion.

## Access
Every request carries `Authorization: Bearer <token>`: the word `Bearer` spelt exactly so
(capital B, the rest lowercase), one space, then the token, exactly, with nothing before or
after it. The tokens:

| token | user | role |
|---|---|---|
| `${t_ed}` | `${ed}` | editor |
| `${t_l1}` | `${l1}` | listener |
| `${t_l2}` | `${l2}` | listener |

A missing header, another scheme, any other spelling of `Bearer`, extra spaces, or an unknown
token is 401 `unauthenticated`, and every 401 carries the header `WWW-Authenticate: Bearer`.
Routes marked (editor) or (listener) answer 403 `forbidden` to the other role. On a route
the service has, the token is checked first, then the role, then the request's validity (body,
path and query), then the route's own checks in the order given; a body that is not JSON is no
exception (without a known token it is 401, with the other role's token 403). Unknown paths and methods
(404 and 405 below) are answered before any token is looked at, with or without one.

## Errors
Every error body is `{"error": "<code>"}`. An invalid request is **400** (not 422)
`{"error": "invalid", "fields": [...]}`: the sorted names, without repeats, of the invalid
fields or parameters (for an error inside a field or parameter, the field's own name, not the
position within it; `"body"` when the body as a whole is wrong, e.g. not JSON). A path the service does not
have is 404 `no_route`; a path with a trailing slash (`/shows/`) is such a path too, answered
404 directly, never redirected. A known path with a method it does not serve is 405
`method_not_allowed`, carrying FastAPI's standard `Allow` header naming the methods that path's
route serves. Every route documented below as GET also answers HEAD: the same status and
headers as the GET would give, with no body.

Text fields are trimmed of surrounding whitespace before any check. Bodies with fields not
listed are invalid.

## Shows
A show: `{"slug", "title", "episodes"}` (`episodes`: how many episodes it has now).
- `POST /shows` (editor): body `{"slug", "title"}`. The slug is trimmed and lowercased first,
  and then must be 3 to ${slug_max} characters, each a lowercase letter, a digit or `-`
  (so `" Night-Owls "` is the slug `night-owls`). The title is 1 to 80 characters. A slug
  already taken is 409 `slug_taken`. 201 with the show, and `Location: /shows/<slug>`.
- `GET /shows`: 200, every show, sorted by slug.
- `GET /shows/{slug}`: 200 the show; the slug in a path is matched ignoring case. 404
  `unknown_show`.

## Episodes
An episode: `{"id", "show", "title", "duration", "published_at", "explicit", "tags", "summary",
"plays"}` (`show` is the show's slug).
- `POST /shows/{slug}/episodes` (editor): body
  - `title`: 1 to 120 characters, required;
  - `duration`: seconds, required, a JSON integer from 1 to ${dur_max}; a string (even
    `"600"`), a boolean, or a number written with a fraction (even `600.0`) is invalid;
  - `published_at`: required, a JSON string holding an ISO 8601 date and time written
    `YYYY-MM-DDTHH:MM:SS` (a fraction of a second may follow) and then a UTC offset (`Z` or
    `+02:00`); a time without an offset, a date alone, a number, or a string of digits (such as
    seconds since 1970) is invalid;
  - `explicit`: optional, a JSON boolean (`true`/`false` only; not `1`, not `"true"`, not
    `null`), default `false`;
  - `tags`: optional (default `[]`), a list of at most ${tag_max} entries as sent (repeats
    count), each trimmed then lowercased, then 1 to 20 characters; repeats after that are
    dropped, keeping the first.
  Then 404 `unknown_show`. 201 with the episode (`summary` null, `plays` 0), and
  `Location: /episodes/<id>`.
- Wherever an episode is returned, `published_at` is the instant converted to UTC and written
  `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, always ending in `Z`): `2026-03-01T10:00:00+02:00` is
  `2026-03-01T08:00:00Z`.
- `GET /shows/{slug}/episodes`: 200 the show's episodes sorted by `published_at`,
  ${order_words}, ties by id ascending. Query parameters, all optional:
  - `tag`, repeatable: only episodes carrying every given tag (a given tag is trimmed and
    lowercased before comparing); `?tag=jazz&tag=live` means both;
  - `explicit`: exactly `true` or `false` (any other value is invalid): only episodes with that
    flag;
  - `limit` 1 to ${limit_max}, default ${limit_def}, and `offset` 0 or more, default 0: the page
    of the sorted, filtered list.
  The header `X-Total-Count` is the number of episodes matching the filters, before `limit` and
  `offset`. After validation, 404 `unknown_show`.
- `GET /episodes/{episode_id}`: 200 the episode; 404 `unknown_episode`.
- `PATCH /episodes/{episode_id}` (editor): body with any of `title` (as above), `explicit` (a
  JSON boolean), `summary` (a string of at most 200 characters, or `null` to clear it); only the
  fields sent change, `{}` changes nothing, `null` for `title` or `explicit` is invalid. 200 the
  episode; 404 `unknown_episode`.
- `DELETE /episodes/{episode_id}` (editor): 204 with an empty body; afterwards the episode is
  404 `unknown_episode` everywhere.
- `POST /episodes/{episode_id}/plays` (listener): body `{"seconds"}`, a JSON integer of 1 or
  more (strings and fractions invalid), how long the listener played it. Then 404
  `unknown_episode`; more seconds than the episode's duration is 409 `beyond_duration`. The play
  counts when `seconds` is at least ${play_pct}% of the duration. 200
  `{"episode": <id>, "counted": <boolean>, "plays": <the episode's counted plays now>}`.

## result
One row per request, `[status code, JSON body]` (a body-less response is `[status code]`), as
`${ed}`:
1. `POST /shows` with `{"slug": "${slug_in}", "title": "Late Notes"}`
2. `POST /shows/${slug_out}/episodes` with `{"title": "Pilot", "duration": ${duration_in},
   "published_at": "${published_in}", "tags": ["Jazz", "live"]}`
3. `GET /shows/${slug_out}/episodes`
"""

CALLER_BY_HTTP_BEARER = '''def caller(credentials=Depends(__import__("fastapi.security", fromlist=["x"]).HTTPBearer(auto_error=False))) -> str:
    token = credentials.credentials if credentials else None
    if token not in TOKENS:
        raise Failure(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]'''

CALLER = '''def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise Failure(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]'''

NAMES = [{"ed": "erin", "l1": "lou", "l2": "lena", "t_ed": "pod-ed-7f3", "t_l1": "pod-li-21a",
          "t_l2": "pod-li-9c0"},
         {"ed": "omar", "l1": "pia", "l2": "quin", "t_ed": "tk.omar.55", "t_l1": "tk.pia.08",
          "t_l2": "tk.quin.31"}]
FIXTURES = [{"slug_in": " Late-Notes ", "slug_out": "late-notes", "duration_in": 1800,
             "published_in": "2026-03-01T10:00:00+02:00"},
            {"slug_in": "Night-Shift-2", "slug_out": "night-shift-2", "duration_in": 2400,
             "published_in": "2026-02-28T23:30:00-01:00"}]


def _derive(p):
    return {"order_words": "newest first" if p["newest_first"] else "oldest first"}


FAMILY = Family(
    id="service/podcast_episodes",
    title="A podcast host's shows, episodes and plays from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=NAMES[0] | FIXTURES[0] | {"slug_max": 24, "dur_max": 14400, "tag_max": 5,
                                       "limit_def": 5, "limit_max": 20, "newest_first": True,
                                       "play_pct": 50},
    space={
        "names": NAMES,
        "fixture": FIXTURES,
        "bounds": [{"slug_max": 24, "dur_max": 14400, "tag_max": 5},
                   {"slug_max": 16, "dur_max": 10800, "tag_max": 3}],
        "pages": [{"limit_def": 5, "limit_max": 20}, {"limit_def": 3, "limit_max": 10}],
        "newest_first": [True, False],
        "play_pct": [50, 75],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("Authorization is exactly `Bearer <token>` (that spelling, one space, the "
                    "exact token); anything else is 401 `unauthenticated`.",
                    probes="bearer_format",
                    traps=(Edit("bearer scheme read by FastAPI's HTTPBearer", CALLER,
                                CALLER_BY_HTTP_BEARER),
                           Edit("token trimmed", 'scheme, _, token = (authorization or "").partition(" ")',
                                'scheme, _, token = (authorization or "").partition(" ")\n    token = token.strip()'))),
        Requirement("Every 401 carries `WWW-Authenticate: Bearer`.",
                    probes="www_authenticate",
                    traps=Edit("401 without WWW-Authenticate",
                               "    return failure(exc.status, exc.code, headers=exc.headers)",
                               "    return failure(exc.status, exc.code)")),
        Requirement("The token and the role are checked before the body, even a body that is not "
                    "JSON (then 400 `invalid` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Editor and listener routes answer 403 `forbidden` to the other role, after "
                    "the token and before validation and the route's checks.",
                    probes="roles",
                    traps=(Edit("listeners may create shows",
                                "def create_show(name: Editor,", "def create_show(name: Caller,"),
                           Edit("editors may record plays", 'Listener = role("listener")',
                                'Listener = role("listener") if False else Caller'))),
        Requirement("Invalid requests are 400 `invalid` with the sorted names of the invalid "
                    "fields or parameters.",
                    probes="validation_format",
                    traps=(Edit("validation stays 422", 'return failure(400, "invalid", fields=sorted(names))',
                                'return failure(422, "invalid", fields=sorted(names))'),
                           Edit("fields named by the last part of their location",
                                'str(e["loc"][1]) if len(e["loc"]) > 1', 'str(e["loc"][-1]) if len(e["loc"]) > 1'))),
        Requirement("Unknown paths are 404 `no_route` and wrong methods 405 `method_not_allowed`, "
                    "in the service's error format.",
                    probes="router_errors",
                    traps=router_errors_in_fastapi_format()),
        Requirement("A 405 carries FastAPI's standard `Allow` header.",
                    probes="allow_header", traps=router_headers_dropped()),
        Requirement("A path with a trailing slash is 404 `no_route`, not a redirect.",
                    probes="trailing_slash", traps=slashes_redirected("FastAPI(redirect_slashes=False)")),
        Requirement("Every GET route answers HEAD with the GET's status and headers and no body.",
                    probes="head", traps=head_left_out_of_methods(4)),
        Requirement("A slug is trimmed and lowercased, then must be 3-${slug_max} lowercase "
                    "letters, digits or hyphens.",
                    probes="slug_rules",
                    traps=(Edit("slug pattern checked before lowercasing",
                                '''Slug = Annotated[str, BeforeValidator(lambda v: trimmed(v).lower() if isinstance(v, str) else v),
                 Field(pattern=''',
                                '''Slug = Annotated[str, __import__("pydantic").StringConstraints(strip_whitespace=True, to_lower=True,
                 pattern='''),
                           Edit("slug length unchecked", "{3,${slug_max}}", "{3,}"))),
        Requirement("A show is 201 with `Location: /shows/<slug>`; a taken slug is 409 "
                    "`slug_taken`; titles are trimmed, 1-80 characters.",
                    probes="show_create",
                    traps=(Edit("no Location for shows",
                                '    response.headers["Location"] = f"/shows/{body.slug}"\n', ""),
                           Edit("titles not trimmed",
                                '''    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=80)]''',
                                '''    title: Annotated[str, Field(min_length=1, max_length=80)]'''))),
        Requirement("`GET /shows` sorts by slug with episode counts; `GET /shows/{slug}` matches "
                    "the slug ignoring case, else 404 `unknown_show`.",
                    probes="show_list",
                    traps=(Edit("shows in creation order", "for slug in sorted(SHOWS)]", "for slug in SHOWS]"),
                           Edit("path slugs matched exactly", "SHOWS.get(slug.lower())", "SHOWS.get(slug)"))),
        Requirement("`duration` is a JSON integer 1-${dur_max}: strings, booleans and fractions "
                    "(even `600.0`) are invalid.",
                    probes="duration",
                    traps=(Edit("durations read leniently", "duration: StrictInt = Field(ge=1, le=${dur_max})",
                                "duration: int = Field(ge=1, le=${dur_max})"),
                           Edit("duration unbounded", "duration: StrictInt = Field(ge=1, le=${dur_max})",
                                "duration: StrictInt = Field(ge=1)"))),
        Requirement("`explicit` is a JSON boolean only, default `false`.",
                    probes="explicit_strict",
                    traps=Edit("explicit read leniently", "    explicit: StrictBool = False",
                               "    explicit: bool = False")),
        Requirement("`published_at` must be text with a UTC offset: no naive times, bare dates "
                    "or numbers.",
                    probes="published_at_input",
                    traps=(Edit("numbers read as timestamps", '''        if not isinstance(value, str):
            raise ValueError("published_at must be text")''', ""),
                           Edit("digit strings read as timestamps",
                                '''        if not re.match(r"\\d{4}-\\d{2}-\\d{2}T", value):
            raise ValueError("published_at must be an ISO 8601 date and time")''', ""),
                           Edit("times without offset accepted", "    published_at: AwareDatetime",
                                "    published_at: __import__('datetime').datetime"))),
        Requirement("`published_at` is returned in UTC as `YYYY-MM-DDTHH:MM:SSZ`.",
                    probes="published_at_output",
                    traps=(Edit("UTC written +00:00", 'return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")',
                                "return moment.astimezone(timezone.utc).isoformat()"),
                           Edit("offset kept", 'return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")',
                                'return moment.strftime("%Y-%m-%dT%H:%M:%SZ")'))),
        Requirement("Tags: at most ${tag_max}, each trimmed, lowercased, 1-20 characters, repeats "
                    "dropped keeping the first.",
                    probes="tags",
                    traps=(Edit("repeated tags kept", '"tags": unique(body.tags)', '"tags": body.tags'),
                           Edit("tag count unbounded", "max_length=${tag_max})", ")"))),
        Requirement("A new episode is 201 with `Location: /episodes/<id>` and the documented "
                    "fields; unknown shows are 404 after validation; unknown episodes 404.",
                    probes="episode_create",
                    traps=(Edit("no Location for episodes",
                                "    response.headers[\"Location\"] = f\"/episodes/{episode['id']}\"\n", ""),
                           Edit("show checked before validation",
                                "def create_episode(slug: str, name: Editor, body: EpisodeIn, response: Response):\n    show = show_of(slug)",
                                "def create_episode(slug: str, name: Editor, response: Response,\n"
                                "                   show: dict = Depends(lambda slug: show_of(slug)),\n"
                                "                   body: EpisodeIn = None):"))),
        Requirement("Episodes list ${order_words} by `published_at`, ties by id, paged by `limit` "
                    "(1-${limit_max}, default ${limit_def}) and `offset` (0 or more).",
                    probes="episode_pages",
                    traps=(Edit("order reversed", "reverse=${newest_first})", "reverse=not ${newest_first})"),
                           Edit("default page size wrong", "= ${limit_def},", "= ${limit_max},"),
                           Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)"))),
        Requirement("`X-Total-Count` counts the filtered episodes before paging.",
                    probes="total_count",
                    traps=Edit("count of the page", 'str(len(found))', 'str(len(found[offset:offset + limit]))')),
        Requirement("`tag` is repeatable and keeps episodes carrying every given tag, compared "
                    "lowercased.",
                    probes="tag_filter",
                    traps=(Edit("tag list read from the body",
                                "tag: Annotated[list[str] | None, Query()] = None", "tag: list[str] | None = None"),
                           Edit("any given tag suffices", "wanted <= set(e[\"tags\"])",
                                "(not wanted or wanted & set(e[\"tags\"]))"))),
        Requirement("`explicit` filters only on exactly `true` or `false`; other values are 400 "
                    "`invalid`.",
                    probes="explicit_filter",
                    traps=Edit("explicit filter read as a FastAPI bool",
                               '''explicit: Literal["true", "false"] | None = None):
    flag = None if explicit is None else explicit == "true"''',
                               '''explicit: bool | None = None):
    flag = explicit''')),
        Requirement("PATCH changes only the fields sent; `null` clears `summary` and is invalid "
                    "for `title` and `explicit`.",
                    probes="patch",
                    traps=(Edit("PATCH skips nulls", "body.model_dump(exclude_unset=True)",
                                "body.model_dump(exclude_none=True)"),
                           Edit("PATCH null title accepted", '''    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=120)] = None
    explicit: StrictBool = None''', '''    title: Annotated[str, BeforeValidator(trimmed), Field(min_length=1, max_length=120)] | None = None
    explicit: StrictBool | None = None'''))),
        Requirement("Plays: 404 `unknown_episode`, more than the duration 409 `beyond_duration`; "
                    "a play counts at ${play_pct}% of the duration or more.",
                    probes="plays",
                    traps=(Edit("threshold exclusive", ">= episode[\"duration\"] * ${play_pct}",
                                "> episode[\"duration\"] * ${play_pct}"),
                           Edit("plays beyond the duration accepted", '''    if body.seconds > episode["duration"]:
        raise Failure(409, "beyond_duration")
''', ""))),
        Requirement("DELETE is 204 with an empty body, later 404 everywhere, and ids are never "
                    "reused.",
                    probes="delete",
                    traps=(Edit("204 with a JSON null body", '    del EPISODES[episode_of(episode_id)["id"]]',
                                '    del EPISODES[episode_of(episode_id)["id"]]\n    return JSONResponse(None, status_code=204)'),
                           Edit("ids reused after deletion", '{"id": NEXT_EPISODE[0],',
                                '{"id": max(EPISODES, default=0) + 1,'))),
    ),
)
