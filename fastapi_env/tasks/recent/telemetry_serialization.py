"""Recent-features tier: Pydantic 2.12-2.14 serialization and validation features through
FastAPI's response models: the ``MISSING`` sentinel (absent fields left out, distinct from
null; public in ``pydantic`` since 2.14), ``Field(exclude_if=...)`` (2.12) and
``computed_field(exclude_if=...)`` (2.13), ``ser_json_temporal``/``val_temporal_unit``
(2.12: datetimes as epoch milliseconds, rendered as JSON floats) and
``StringConstraints(ascii_only=True)`` (2.13)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
from datetime import datetime
from typing import Annotated

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import MISSING, BaseModel, ConfigDict, Field, StringConstraints, computed_field

HIGH = ${high}
LOW = ${low}
SensorId = Annotated[
    str, StringConstraints(ascii_only=True, min_length=1, max_length=${sensor_max})
]


class ReadingIn(BaseModel):
    model_config = ConfigDict(extra="forbid", ser_json_temporal="milliseconds",
                              val_temporal_unit="milliseconds")
    sensor: SensorId
    at: datetime
    value: float
    offset: float = Field(0.0, exclude_if=lambda v: v == 0)
    note: str | None | MISSING = MISSING


class Reading(ReadingIn):
    id: int

    @computed_field(exclude_if=lambda v: v is None)
    @property
    def alert(self) -> str | None:
        level = self.value + self.offset
        return "high" if level > HIGH else "low" if level < LOW else None


class ReadingPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: float | MISSING = MISSING
    offset: float | MISSING = MISSING
    note: str | None | MISSING = MISSING


READINGS: dict[int, Reading] = {}
app = FastAPI()


def stored(reading_id: int) -> Reading:
    if reading_id not in READINGS:
        raise HTTPException(404, "no such reading")
    return READINGS[reading_id]


@app.post("/readings", status_code=201)
def record(body: ReadingIn) -> Reading:
    reading = Reading(id=len(READINGS) + 1, **body.model_dump(exclude_unset=True))
    READINGS[reading.id] = reading
    return reading


@app.get("/readings")
def all_readings() -> list[Reading]:
    return [READINGS[i] for i in sorted(READINGS)]


@app.get("/readings/{reading_id}")
def one(reading_id: int) -> Reading:
    return stored(reading_id)


@app.patch("/readings/{reading_id}")
def amend(reading_id: int, changes: ReadingPatch) -> Reading:
    data = stored(reading_id).model_dump(exclude={"alert"})
    data |= changes.model_dump()  # MISSING fields are left out: unchanged
    if "note" in changes.model_fields_set and changes.note is None:
        del data["note"]  # null removes the note
    READINGS[reading_id] = Reading(**data)
    return READINGS[reading_id]


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.post("/readings", json={"sensor": "${s1}", "at": ${t1}, "value": ${v1}})),
    row(client.post("/readings", json={"sensor": "${s2}", "at": "${iso2}", "value": ${v2},
                                       "offset": ${off2}, "note": None})),
    row(client.patch("/readings/1", json={"note": "checked"})),
    row(client.get("/readings/1")),
]
'''

PROBES = '''\
def _row(r):
    return [r.status_code, r.json()]


def _errors(r):
    return [[e["type"], e["loc"]] for e in r.json()["detail"]]


def _new(client, **fields):
    body = {"sensor": "probe", "at": 0, "value": (${high} + ${low}) / 2} | fields
    return client.post("/readings", json=body).json()["id"]


def probe_timestamps_in_milliseconds(client):
    rows = []
    for at in [${t1}, 1700000000, 0, 1500.5, "${iso2}", "2024-03-01T12:00:00+02:00",
               "2024-03-01T12:00:00.250Z", "yesterday", None]:
        r = client.post("/readings", json={"sensor": "clock", "at": at, "value": 1})
        rows.append([at, r.status_code, r.json()["at"] if r.status_code == 201 else _errors(r)])
    return rows


def probe_sensor_ids_are_ascii(client):
    rows = []
    for sensor in ["${s1}", "t\\u00e4", "\\u03b8-probe", "caf\\u00e9", "", "x" * ${sensor_max},
                   "x" * (${sensor_max} + 1), "tab\\tok", 42]:
        r = client.post("/readings", json={"sensor": sensor, "at": 1, "value": 1})
        rows.append([sensor, r.status_code, r.json()["sensor"] if r.status_code == 201
                     else _errors(r)])
    return rows


def probe_note_absent_is_not_null(client):
    rows = []
    for extra in [{}, {"note": None}, {"note": ""}, {"note": "ok"}]:
        r = client.post("/readings", json={"sensor": "n", "at": 5, "value": 1} | extra)
        body = r.json()
        rows.append([extra, r.status_code, "note" in body, body.get("note")])
    return rows


def probe_offset_left_out_when_zero(client):
    rows = []
    for extra in [{}, {"offset": 0}, {"offset": 0.0}, {"offset": -0.0}, {"offset": 1.5},
                  {"offset": -2}]:
        r = client.post("/readings", json={"sensor": "o", "at": 5, "value": 1} | extra)
        rows.append([extra, r.status_code, sorted(r.json())])
    return rows


def probe_alert_only_when_out_of_range(client):
    rows = []
    for value, offset in [(${high}, 0), (${high} + 0.5, 0), (${high}, 1), (${low}, 0),
                          (${low} - 0.5, 0), (${low}, -1), ((${high} + ${low}) / 2, 0)]:
        r = client.post("/readings", json={"sensor": "a", "at": 5, "value": value,
                                           "offset": offset})
        rows.append([value, offset, r.json().get("alert", "left out"), "alert" in r.json()])
    return rows


def probe_patch_absent_null_and_values(client):
    rid = _new(client, note="first", offset=2)
    rows = []
    for changes in [{}, {"value": ${high} + 5}, {"note": "second"}, {"offset": 0},
                    {"note": None}, {"value": (${high} + ${low}) / 2, "offset": 1}, {"note": None}]:
        r = client.patch(f"/readings/{rid}", json=changes)
        body = r.json()
        rows.append([changes, r.status_code, {k: v for k, v in body.items() if k != "id"}])
    for changes in [{"sensor": "other"}, {"at": 1}, {"id": 99}, {"value": "high"}]:
        r = client.patch(f"/readings/{rid}", json=changes)
        rows.append([changes, r.status_code, _errors(r)])
    return rows


def probe_reads_and_unknown_ids(client):
    rid = _new(client, note="kept", at=${t1})
    listed = client.get("/readings").json()
    ids = [r["id"] for r in listed]
    mine = client.get(f"/readings/{rid}")
    return [[ids == sorted(ids), listed[-1] == mine.json()],
            [mine.status_code, {k: v for k, v in mine.json().items() if k != "id"}],
            _row(client.get("/readings/99999")), _row(client.patch("/readings/99999", json={})),
            [client.post("/readings", json={"sensor": "s", "at": 1, "value": 1,
                                            "alert": "high"}).status_code]]
'''

PROMPT = '''\
Build a telemetry API whose models use the installed Pydantic's recent features (Pydantic
2.14: the `MISSING` sentinel, `exclude_if` on fields and computed fields, temporal
serialization settings, `ascii_only` string constraints). If you do not know them, read the
installed package's source under
`python3 -c "import pydantic, os; print(os.path.dirname(pydantic.__file__))"`. State is in
memory.

**A reading** has:
- `sensor`: 1-${sensor_max} characters, ASCII only (a non-ASCII one is rejected with
  Pydantic's `string_not_ascii` error);
- `at`: a timestamp, sent either as a number of milliseconds since the Unix epoch (any
  number, even a small one, is milliseconds) or as an ISO 8601 string, and always answered as
  milliseconds since the epoch, as a JSON float (e.g. `1704164645123.0`);
- `value`: a number; `offset`: a number (default 0);
- `note`: a string or null, or absent; absent is not null: a reading without a note has no
  `note` key at all, while a reading with `"note": null` shows `"note": null`.

Responses show `offset` only when it is not 0, and a computed `alert`: `"high"` when
`value + offset > ${high}`, `"low"` when it is `< ${low}`, and no `alert` key otherwise.
Ids are 1, 2, 3, ... in creation order. Numbers are JSON floats in responses. Validation
failures are FastAPI's standard 422 (the checks compare each error's `type` and `loc`). A
body with a field not listed for its route is 422.

**Routes.**
- `POST /readings` `{"sensor", "at", "value", "offset"?, "note"?}`: 201 with the reading
  (`id` after the fields sent, then `alert`).
- `GET /readings`: 200, all readings by id. `GET /readings/{reading_id}`: 200 with the
  reading; an unknown id is 404 `{"detail": "no such reading"}` (on `PATCH` too).
- `PATCH /readings/{reading_id}` `{"value"?, "offset"?, "note"?}`: a field left out stays
  as it is; `"note": null` removes the note (it becomes absent); 200 with the reading.

`result`: `[status code, JSON body]` of each of:
1. `POST /readings` `{"sensor": "${s1}", "at": ${t1}, "value": ${v1}}`
2. `POST /readings` `{"sensor": "${s2}", "at": "${iso2}", "value": ${v2}, "offset": ${off2},
   "note": null}`
3. `PATCH /readings/1` `{"note": "checked"}`
4. `GET /readings/1`
'''

FAMILY = Family(
    id="recent/telemetry_serialization",
    title="Absent-vs-null, conditional exclusion and epoch-millisecond timestamps (Pydantic 2.14)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"high": 50, "low": -10, "sensor_max": 12, "s1": "boiler-1", "t1": 1704164645123,
              "v1": 21.5, "s2": "pump-7", "iso2": "2024-01-02T03:04:05.500Z", "v2": 49.5,
              "off2": 1},
    space={
        "high": [{"high": 50, "low": -10}, {"high": 80, "low": 5}],
        "sensor_max": [12, 8],
        "s1": [{"s1": "boiler-1", "t1": 1704164645123, "v1": 21.5},
               {"s1": "fan", "t1": 1717171717000, "v1": 90}],
        "s2": [{"s2": "pump-7", "iso2": "2024-01-02T03:04:05.500Z", "v2": 49.5, "off2": 1},
               {"s2": "tank", "iso2": "2025-06-30T23:59:59Z", "v2": 3, "off2": -2.5}],
    },
    instances=12,
    requirements=(
        Requirement("`at` takes epoch milliseconds (any number) or ISO 8601 and is answered "
                    "as epoch milliseconds, a JSON float.",
                    probes=("timestamps_in_milliseconds",),
                    traps=(Edit("ISO timestamps in responses", 'ser_json_temporal="milliseconds",'
                                "\n", "\n"),
                           Edit("small numbers read as seconds",
                                '\n                              val_temporal_unit="milliseconds"',
                                ""))),
        Requirement("`sensor` is 1-${sensor_max} ASCII characters (`string_not_ascii` "
                    "otherwise).",
                    probes=("sensor_ids_are_ascii",),
                    traps=(Edit("any characters", "StringConstraints(ascii_only=True, "
                                "min_length=1", "StringConstraints(min_length=1"),)),
        Requirement("A note left out is absent from the reading, a null note is shown as null.",
                    probes=("note_absent_is_not_null",),
                    traps=(Edit("absent note shown as null", "    note: str | None | MISSING = "
                                "MISSING\n\n\nclass Reading", "    note: str | None = None\n\n\n"
                                "class Reading"),)),
        Requirement("`offset` is shown only when it is not 0.",
                    probes=("offset_left_out_when_zero",),
                    traps=(Edit("offset always shown", "offset: float = Field(0.0, "
                                "exclude_if=lambda v: v == 0)", "offset: float = 0.0"),)),
        Requirement("`alert` is `high` above ${high}, `low` below ${low} (strictly, on value + "
                    "offset), and absent otherwise.",
                    probes=("alert_only_when_out_of_range",),
                    traps=(Edit("alert null when in range", "@computed_field(exclude_if=lambda v: "
                                "v is None)", "@computed_field"),
                           Edit("bounds inclusive", "level > HIGH else \"low\" if level < LOW",
                                "level >= HIGH else \"low\" if level <= LOW"),
                           Edit("offset ignored", "level = self.value + self.offset",
                                "level = self.value"))),
        Requirement("`PATCH` leaves out what is absent, removes the note on null, recomputes "
                    "`alert`, and refuses other fields.",
                    probes=("patch_absent_null_and_values",),
                    traps=(Edit("null note kept as null",
                                '    if "note" in changes.model_fields_set and changes.note is '
                                'None:\n        del data["note"]  # null removes the note\n',
                                ""),
                           Edit("absent fields reset", "data |= changes.model_dump()",
                                'data |= {"value": 0.0, "offset": 0.0} | changes.model_dump()'),
                           extras_ignored("patch takes any field", "ReadingPatch"))),
        Requirement("Readings are listed by id and read back as stored; unknown ids are 404 "
                    "`no such reading`.",
                    probes=("reads_and_unknown_ids",),
                    traps=(Edit("unknown id is 500", '''    if reading_id not in READINGS:
        raise HTTPException(404, "no such reading")
''', ""),)),
    ),
)
