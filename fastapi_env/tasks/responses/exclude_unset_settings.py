from fastapi_env.tasks import Edit, Family, Requirement

_APP_HEAD = '''\
from typing import Literal

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Settings(BaseModel):
    theme: Literal["${t0}", "${t1}"] = "${t0}"
    language: str = "${lang0}"
    nickname: str | None = None
    notifications: bool = ${notif0}


STORE: dict[str, dict] = {}
app = FastAPI()
'''

_RESULT = '''

client = TestClient(app)
result = []
for method, path, body in [
    ("PATCH", "/settings/${u1}", {"theme": "${t1}"}),
    ("PATCH", "/settings/${u1}", {"nickname": None, "notifications": True}),
    ("GET", "/settings/${u1}", None),
    ("GET", "/settings/${u1}/effective", None),
    ("GET", "/settings/${u2}", None),
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

FAMILY = Family(
    id="responses/exclude_unset_settings",
    title="Sparse settings: omit only the fields never set, keep explicit nulls and defaults",
    category="responses",
    difficulty="hard",
    prompt='''\
Build a small per-user settings service. A user's settings follow this Pydantic model (use it as
is, for the request body and for the responses):

    class Settings(BaseModel):
        theme: Literal["${t0}", "${t1}"] = "${t0}"
        language: str = "${lang0}"
        nickname: str | None = None
        notifications: bool = ${notif0}

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
1. `PATCH /settings/${u1}` with JSON body `{"theme": "${t1}"}`
2. `PATCH /settings/${u1}` with JSON body `{"nickname": null, "notifications": true}`
3. `GET /settings/${u1}`
4. `GET /settings/${u1}/effective`
5. `GET /settings/${u2}`
''',
    reference=_REFERENCE,
    probes='''\
def probe_default_valued_field_is_kept(client):
    rows = []
    r = client.patch("/settings/cy", json={"language": "${lang0}", "theme": "${t0}"})
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
    r = client.patch("/settings/dee", json={"nickname": None, "language": "${lang1}"})
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
    r = client.patch("/settings/eve", json={"theme": "${t0_upper}"})
    rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    r = client.get("/settings/eve")
    rows.append([r.status_code, r.json()])
    return rows

def probe_unknown_user_on_effective(client):
    r = client.get("/settings/${u2}/effective")
    rows = [[r.status_code, r.json()]]
    r = client.patch("/settings/${u2}", json={"notifications": ${notif0}})
    rows.append([r.status_code, r.json()])
    return rows
''',
    original={"t0": "light", "t1": "dark", "lang0": "en", "notif0": True, "u1": "ada", "u2": "bob"},
    space={
        "t0": [{"t0": "light", "t1": "dark"}, {"t0": "day", "t1": "night"}, {"t0": "modern", "t1": "classic"}],
        # user names never reach a row: they ride with the language default
        "lang0": [{"lang0": "en", "u1": "ada", "u2": "bob"}, {"lang0": "de", "u1": "lin", "u2": "max"},
                  {"lang0": "pt", "u1": "kim", "u2": "lou"}],
        "notif0": [True, False],
    },
    derive=lambda p: {"lang1": "fr" if p["lang0"] != "fr" else "it", "t0_upper": p["t0"].upper()},
    instances=36,
    requirements=(
        Requirement(
            "GET and PATCH answer exactly the recorded fields: an explicit null or a value equal to "
            "the default is kept, a never-sent field is left out.",
            probes=("default_valued_field_is_kept", "overwrite_and_null", "empty_patch_and_invalid"),
            traps=(Edit("exclude_none instead of exclude_unset", "response_model_exclude_unset=True",
                        "response_model_exclude_none=True", count=2),
                   Edit("exclude_defaults instead of exclude_unset", "response_model_exclude_unset=True",
                        "response_model_exclude_defaults=True", count=2)),
        ),
        Requirement(
            "A PATCH records exactly the fields present in its body (an explicit null included); "
            "an empty body creates the user with nothing recorded.",
            probes=("overwrite_and_null", "empty_patch_and_invalid"),
            traps=(Edit("stores model_dump(exclude_none=True)", "changes.model_dump(exclude_unset=True)",
                        "changes.model_dump(exclude_none=True)"),
                   Edit("stores model_dump() without exclude_unset", "changes.model_dump(exclude_unset=True)",
                        "changes.model_dump()")),
        ),
        Requirement(
            "`effective` renders all four fields with the model's defaults (theme ${t0}, "
            "language ${lang0}, notifications ${notif0}) where nothing is recorded.",
            probes=("default_valued_field_is_kept", "overwrite_and_null"),
            traps=(Edit("effective excludes unset fields too",
                        '@app.get("/settings/{user}/effective", response_model=Settings)',
                        '@app.get("/settings/{user}/effective", response_model=Settings, response_model_exclude_unset=True)'),),
        ),
        Requirement(
            'Both GET routes answer 404 `{"detail": "no settings"}` for a user without settings; '
            "an invalid theme (its capitalised form included) is 422 and records nothing.",
            probes=("unknown_user_on_effective", "empty_patch_and_invalid"),
            traps=(Edit("effective of an unknown user renders the defaults",
                        'def effective_settings(user: str):\n    if user not in STORE:\n'
                        '        raise HTTPException(status_code=404, detail="no settings")\n    return STORE[user]',
                        'def effective_settings(user: str):\n    return STORE.get(user, {})'),),
        ),
    ),
    expected_rows=[
        [200, {"theme": "dark"}],
        [200, {"theme": "dark", "nickname": None, "notifications": True}],
        [200, {"theme": "dark", "nickname": None, "notifications": True}],
        [200, {"theme": "dark", "language": "en", "nickname": None, "notifications": True}],
        [404, {"detail": "no settings"}],
    ],
)
