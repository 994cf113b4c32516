from fastapi_env.tasks import Task

_APP_HEAD = '''\
from typing import Literal

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Settings(BaseModel):
    theme: Literal["light", "dark"] = "light"
    language: str = "en"
    nickname: str | None = None
    notifications: bool = True


STORE: dict[str, dict] = {}
app = FastAPI()
'''

_RESULT = '''

client = TestClient(app)
result = []
for method, path, body in [
    ("PATCH", "/settings/ada", {"theme": "dark"}),
    ("PATCH", "/settings/ada", {"nickname": None, "notifications": True}),
    ("GET", "/settings/ada", None),
    ("GET", "/settings/ada/effective", None),
    ("GET", "/settings/bob", None),
]:
    response = client.request(method, path, json=body)
    result.append([response.status_code, response.json()])
'''

_REFERENCE = _APP_HEAD + '''

@app.patch("/settings/{user}", response_model=Settings, response_model_exclude_unset=True)
def patch_settings(user: str, changes: Settings):
    stored = STORE.setdefault(user, {})
    stored.update(changes.model_dump(exclude_unset=True))
    return stored


@app.get("/settings/{user}", response_model=Settings, response_model_exclude_unset=True)
def get_settings(user: str):
    if user not in STORE:
        raise HTTPException(status_code=404, detail="no settings")
    return STORE[user]


@app.get("/settings/{user}/effective", response_model=Settings)
def effective_settings(user: str):
    if user not in STORE:
        raise HTTPException(status_code=404, detail="no settings")
    return STORE[user]
''' + _RESULT

_EXCLUDE_NONE = _REFERENCE.replace(
    "response_model_exclude_unset=True", "response_model_exclude_none=True"
)

_EXCLUDE_DEFAULTS = _REFERENCE.replace(
    "response_model_exclude_unset=True", "response_model_exclude_defaults=True"
)

_STORE_EXCLUDE_NONE = _REFERENCE.replace(
    "changes.model_dump(exclude_unset=True)", "changes.model_dump(exclude_none=True)"
)

_STORE_FULL_DUMP = _REFERENCE.replace(
    "changes.model_dump(exclude_unset=True)", "changes.model_dump()"
)

TASK = Task(
    id="responses/exclude_unset_settings",
    title="Sparse settings: omit only the fields never set, keep explicit nulls and defaults",
    category="responses",
    difficulty="hard",
    prompt='''\
Build a small per-user settings service. A user's settings follow this Pydantic model (use it as
is, for the request body and for the responses):

    class Settings(BaseModel):
        theme: Literal["light", "dark"] = "light"
        language: str = "en"
        nickname: str | None = None
        notifications: bool = True

The service keeps, for each user, only the fields that a client has explicitly sent so far
(in memory, starting empty). Routes (`user` is a string path parameter):

- `PATCH /settings/{user}`: the JSON body is a `Settings` object in which every field is
  optional. Every field present in the body is recorded for that user (overwriting an earlier
  value of the same field); fields absent from the body are left as they were. A user that has
  no settings yet is created by this call. Answers 200 with the user's stored settings, rendered
  as for `GET /settings/{user}` below. An invalid body (e.g. an unknown `theme` value) is the
  standard FastAPI 422 validation error.
- `GET /settings/{user}`: 200 with a JSON object holding exactly the fields recorded for that
  user, with their recorded values. A field that was explicitly sent is included even when its
  value is `null` or equals the field's default; a field that was never sent for that user is
  left out of the object.
- `GET /settings/{user}/effective`: 200 with a JSON object holding all four fields: the recorded
  value where there is one, the model's default otherwise.
- Both GET routes answer 404 with `{"detail": "no settings"}` for a user that has no settings.

Then fill `result` with one row per request, in this order, each row being
`[status code (integer), the JSON body]`:
1. `PATCH /settings/ada` with JSON body `{"theme": "dark"}`
2. `PATCH /settings/ada` with JSON body `{"nickname": null, "notifications": true}`
3. `GET /settings/ada`
4. `GET /settings/ada/effective`
5. `GET /settings/bob`
''',
    reference=_REFERENCE,
    probes='''\
def probe_default_valued_field_is_kept(client):
    rows = []
    r = client.patch("/settings/cy", json={"language": "en", "theme": "light"})
    rows.append([r.status_code, r.json()])
    r = client.get("/settings/cy")
    rows.append([r.status_code, r.json()])
    r = client.get("/settings/cy/effective")
    rows.append([r.status_code, r.json()])
    return rows


def probe_overwrite_and_null(client):
    rows = []
    r = client.patch("/settings/dee", json={"nickname": "d"})
    rows.append([r.status_code, r.json()])
    r = client.patch("/settings/dee", json={"nickname": None, "language": "fr"})
    rows.append([r.status_code, r.json()])
    r = client.get("/settings/dee/effective")
    rows.append([r.status_code, r.json()])
    return rows


def probe_empty_patch_and_invalid(client):
    rows = []
    r = client.patch("/settings/eve", json={})
    rows.append([r.status_code, r.json()])
    r = client.get("/settings/eve")
    rows.append([r.status_code, r.json()])
    r = client.patch("/settings/eve", json={"theme": "blue"})
    rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    r = client.get("/settings/eve")
    rows.append([r.status_code, r.json()])
    return rows
''',
    traps={
        "exclude_none instead of exclude_unset": _EXCLUDE_NONE,
        "exclude_defaults instead of exclude_unset": _EXCLUDE_DEFAULTS,
        "stores model_dump(exclude_none=True)": _STORE_EXCLUDE_NONE,
        "stores model_dump() without exclude_unset": _STORE_FULL_DUMP,
    },
    expected_rows=[
        [200, {"theme": "dark"}],
        [200, {"theme": "dark", "nickname": None, "notifications": True}],
        [200, {"theme": "dark", "nickname": None, "notifications": True}],
        [200, {"theme": "dark", "language": "en", "nickname": None, "notifications": True}],
        [404, {"detail": "no settings"}],
    ],
)
