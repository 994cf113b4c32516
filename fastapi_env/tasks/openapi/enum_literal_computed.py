from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a map tiles API whose parameter and model schemas in `/openapi.json` come out exactly as
below. All validation is FastAPI's own (standard 422 responses).

- `${enum_name}`: a `str` enumeration (`class ${enum_name}(str, Enum)`) with the values
  ${layers_md}, in this order. Values are matched exactly (case-sensitive).
- `Tile`: a Pydantic model with `layer: ${enum_name}`, `fmt: str` and a **computed field**
  `url` (Pydantic's `@computed_field`, type `str`) equal to `"${prefix}/<layer value>/tile.<fmt>"`.

Routes:

- `GET /tiles/{layer}`: `layer` is a path parameter of type `${enum_name}`; the query parameter
  `fmt` is one of ${fmts_md}, default `"${fmt_def}"`, declared as a `typing.Literal` (not an
  enumeration class). It returns the `Tile` (its return type or response model is `Tile`).
- `POST /tiles` takes a `Tile` as JSON body (only `layer` and `fmt` are read) and returns it
  (return type `Tile`), status 200.

What `/openapi.json` shows, as FastAPI generates it from these declarations:
- `${enum_name}` is a component schema `{"type": "string", "enum": [...values...], "title":
  "${enum_name}"}` and the `layer` parameter's schema is `{"$$ref":
  "#/components/schemas/${enum_name}"}`;
- the `fmt` parameter's schema is inline: `{"enum": [...], "type": "string", "default":
  "${fmt_def}", "title": "Fmt"}` (no component for it);
- because `Tile` has a computed field, its input and output schemas differ and FastAPI
  documents two components, `Tile-Input` (without `url`) and `Tile-Output` (with `url`, read
  only and required).

Errors: a `layer` that is not a value is a 422 of type `enum` at `["path", "layer"]`; a `fmt`
that is not allowed is type `literal_error` at `["query", "fmt"]`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET /tiles/${l1}?fmt=${f2}`: `[status code (integer), JSON body]`
2. `GET /tiles/${l1_upper}`: `[status code, detail[0]["type"], detail[0]["loc"]]`
3. `GET /tiles/${l2}?fmt=gif`: `[status code, detail[0]["type"], detail[0]["loc"]]`
4. `sorted(doc["components"]["schemas"])` (a list of strings), `doc` being the document
5. The `layer` parameter's `schema` and the `fmt` parameter's `schema` of `GET /tiles/{layer}`:
   `[layer schema (object), fmt schema (object)]`
'''

HEAD = '''\
from enum import Enum
from typing import Literal

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, computed_field

'''

ENUM = '''\
class ${enum_name}(str, Enum):
${enum_members}
'''

MODEL = '''

class Tile(BaseModel):
    layer: ${enum_name}
    fmt: str

    @computed_field
    @property
    def url(self) -> str:
        return f"${prefix}/{self.layer.value}/tile.{self.fmt}"
'''

ROUTES = '''

app = FastAPI()


@app.get("/tiles/{layer}")
def read_tile(layer: ${enum_name}, fmt: ${fmt_literal} = "${fmt_def}") -> Tile:
    return Tile(layer=layer, fmt=fmt)


@app.post("/tiles")
def echo_tile(tile: Tile) -> Tile:
    return tile
'''

TAIL = '''

client = TestClient(app)
r = client.get("/tiles/${l1}?fmt=${f2}")
result = [[r.status_code, r.json()]]
for url in ["/tiles/${l1_upper}", "/tiles/${l2}?fmt=gif"]:
    r = client.get(url)
    d = r.json()["detail"][0]
    result.append([r.status_code, d["type"], d["loc"]])
doc = client.get("/openapi.json").json()
result.append(sorted(doc["components"]["schemas"]))
params = {p["name"]: p["schema"] for p in doc["paths"]["/tiles/{layer}"]["get"]["parameters"]}
result.append([params["layer"], params["fmt"]])
'''

REFERENCE = HEAD + ENUM + MODEL + ROUTES + TAIL

PROBES = '''\
def _row(r):
    body = r.json()
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_default_and_values(client):
    return [_row(client.get("/tiles/${l3}")), _row(client.get("/tiles/${l2}?fmt=${fmt_def}")),
            _row(client.get("/tiles/${l1}?fmt=${f2_upper}")),
            _row(client.get("/tiles/nope?fmt=gif"))]


def probe_enum_component(client):
    doc = client.get("/openapi.json").json()
    return [[doc["components"]["schemas"].get("${enum_name}")]]


def probe_body_round_trip(client):
    return [_row(client.post("/tiles", json={"layer": "${l2}", "fmt": "${f2}"})),
            _row(client.post("/tiles", json={"layer": "${l2}", "fmt": "${f2}", "url": "/evil"})),
            _row(client.post("/tiles", json={"layer": "${l1_upper}", "fmt": "${f2}"}))]


def probe_input_output_schemas(client):
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    rows = []
    for name in ["Tile-Input", "Tile-Output", "Tile"]:
        s = schemas.get(name)
        rows.append([name, None if s is None else sorted(s.get("properties", {})),
                     None if s is None else s.get("required")])
    return rows
'''

_LAYER_LITERAL = "def read_tile(layer: Literal[${layers_csv}], "

FAMILY = Family(
    id="openapi/enum_literal_computed",
    title="Enum parameters as components, Literal inline, computed fields split Input/Output",
    category="openapi",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"enum_name": "Layer", "layers": ["roads", "terrain", "satellite"],
              "fmts": ["png", "webp", "jpg"], "fmt_def": "webp", "prefix": "/cdn"},
    space={
        "enum_name": [{"enum_name": "Layer", "layers": ["roads", "terrain", "satellite"]},
                      {"enum_name": "MapStyle", "layers": ["dark", "light", "contrast"]},
                      {"enum_name": "Basemap", "layers": ["osm", "topo", "hybrid", "night"]}],
        "fmts": [{"fmts": ["png", "webp", "jpg"], "fmt_def": "webp"},
                 {"fmts": ["svg", "png"], "fmt_def": "svg"},
                 {"fmts": ["avif", "jpg", "png"], "fmt_def": "png"}],
        "prefix": ["/cdn", "/tiles/v2", ""],
    },
    derive=lambda p: {
        "enum_members": "\n".join(f"    {v} = {v!r}" for v in p["layers"]),
        "layers_md": ", ".join(f"`{v!r}`".replace("'", '"') for v in p["layers"]),
        "layers_csv": ", ".join(repr(v) for v in p["layers"]),
        "fmts_md": ", ".join(f'`"{v}"`' for v in p["fmts"]),
        "fmt_literal": "Literal[" + ", ".join(repr(v) for v in p["fmts"]) + "]",
        "l1": p["layers"][0], "l2": p["layers"][1], "l3": p["layers"][2],
        "l1_upper": p["layers"][0].upper(),
        "f2": [f for f in p["fmts"] if f != p["fmt_def"]][0],
        "f2_upper": [f for f in p["fmts"] if f != p["fmt_def"]][0].upper(),
    },
    instances=27,
    requirements=(
        Requirement(
            "`layer` is the `${enum_name}` enumeration: a component schema referenced by the "
            "parameter, values case-sensitive, errors of type `enum`.",
            probes=("enum_component", "default_and_values", "body_round_trip"),
            traps=(Edit("layer declared as a Literal", "def read_tile(layer: ${enum_name}, ",
                        _LAYER_LITERAL),
                   Edit("case-insensitive enum lookup", "class ${enum_name}(str, Enum):\n", '''\
class ${enum_name}(str, Enum):
    @classmethod
    def _missing_(cls, value):
        for member in cls:
            if isinstance(value, str) and member.value == value.lower():
                return member
        return None

''')),
        ),
        Requirement(
            "`fmt` is an inline Literal of ${fmts_md} with default `${fmt_def}` (errors of type "
            "`literal_error`, no component).",
            probes=("default_and_values",),
            traps=(Edit("fmt declared as an enumeration class", '''\
@app.get("/tiles/{layer}")
def read_tile(layer: ${enum_name}, fmt: ${fmt_literal} = "${fmt_def}") -> Tile:
    return Tile(layer=layer, fmt=fmt)''', '''\
Fmt = Enum("Fmt", {v: v for v in ${fmts__repr}}, type=str)


@app.get("/tiles/{layer}")
def read_tile(layer: ${enum_name}, fmt: Fmt = "${fmt_def}") -> Tile:
    return Tile(layer=layer, fmt=fmt.value if isinstance(fmt, Enum) else fmt)'''),),
        ),
        Requirement(
            "`url` is a computed field: sent in every `Tile` response (never read from input) and "
            "documented, so `Tile-Input` and `Tile-Output` are separate components.",
            probes=("input_output_schemas", "body_round_trip"),
            traps=(Edit("url as a plain property (not serialised or documented)",
                        "    @computed_field\n", ""),),
        ),
    ),
)
