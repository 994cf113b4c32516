from fastapi_env.tasks import Edit, Family, Requirement


def _prompt(p):
    redoc = (f"ReDoc is served at `{p['rurl']}` (also loading the document from `{p['ourl']}`); "
             "nothing is served at `/redoc`."
             if p["rurl"] else "ReDoc is disabled: nothing is served at `/redoc` (404).")
    return f'''\
Build a map tiles API whose generated documentation lives at non-default URLs.

Application: `FastAPI(title="Tiles", version="{p["version"]}", ...)`.

- The OpenAPI document is served at `{p["ourl"]}`; nothing is served at `/openapi.json` (404).
- Swagger UI is served at `{p["docs"]}` (an HTML page that loads the document from
  `{p["ourl"]}`); nothing is served at `/docs` (404).
- {redoc}
- The document's top-level `servers` is exactly
  `[{{"url": "{p["s1"]}", "description": "{p["s1d"]}"}}, {{"url": "{p["s2"]}"}}]`.

Route: `GET /tiles/{{z}}` with `z` an integer path parameter between 0 and {p["zmax"]} inclusive
(FastAPI's 422 otherwise), returning `{{"z": z, "tiles": 4 ** z}}`. Its OpenAPI operation carries
the vendor extension `"x-rate-limit": {p["rate"]}` (an integer) next to FastAPI's own keys.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET /tiles/2`: `[status code (integer), JSON body]`
2. For each URL of `["/openapi.json", "{p["ourl"]}", "/docs", "{p["docs"]}", "/redoc"]`, in this
   order: the status code (one row: a list of 5 integers)
3. From the document: `[doc["info"]["title"], doc["info"]["version"], doc["servers"],
   op.get("x-rate-limit")]` where `op = doc["paths"]["/tiles/{{z}}"]["get"]`
'''


HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Path
from fastapi.testclient import TestClient

'''

APP = '''\
app = FastAPI(
    title="Tiles",
    version="${version}",
    openapi_url="${ourl}",
    docs_url="${docs}",
    redoc_url=${rurl_or_none},
    servers=[{"url": "${s1}", "description": "${s1d}"}, {"url": "${s2}"}],
)
'''

ROUTE = '''

@app.get("/tiles/{z}", openapi_extra={"x-rate-limit": ${rate}})
def tile_count(z: Annotated[int, Path(ge=0, le=${zmax})]):
    return {"z": z, "tiles": 4 ** z}
'''

TAIL = '''

client = TestClient(app)
r = client.get("/tiles/2")
result = [[r.status_code, r.json()]]
result.append([client.get(url).status_code
               for url in ["/openapi.json", "${ourl}", "/docs", "${docs}", "/redoc"]])
doc = client.get("${ourl}").json()
op = doc["paths"]["/tiles/{z}"]["get"]
result.append([doc["info"]["title"], doc["info"]["version"], doc["servers"],
               op.get("x-rate-limit")])
'''

REFERENCE = HEAD + APP + ROUTE + TAIL

PROBES = '''\
def probe_pages_load_the_document(client):
    rows = []
    for url in ["${docs}", ${rurl_or_none}]:
        if url is None:
            rows.append(["disabled"])
            continue
        r = client.get(url)
        rows.append([url, r.status_code, r.headers.get("content-type"), "${ourl}" in r.text])
    return rows


def probe_default_urls_absent(client):
    return [[url, client.get(url).status_code]
            for url in ["/openapi.json", "/docs", "/redoc"]]


def probe_servers_and_extension(client):
    doc = client.get("${ourl}").json()
    op = doc["paths"]["/tiles/{z}"]["get"]
    params = {p["name"]: p["schema"] for p in op.get("parameters", [])}
    bounds = [params.get("z", {}).get("minimum"), params.get("z", {}).get("maximum")]
    extensions = sorted(k for k in op if k.startswith("x-"))
    return [doc.get("servers"), extensions, [op.get("x-rate-limit")], bounds]


def probe_tile_bounds(client):
    rows = []
    for z in ["0", "${zmax}", "${zover}", "-1"]:
        r = client.get("/tiles/" + z)
        body = r.json()
        rows.append([r.status_code, body["detail"][0]["type"] if r.status_code == 422 else body])
    return rows
'''

FAMILY = Family(
    id="openapi/docs_urls_servers",
    title="OpenAPI and docs at custom URLs, ReDoc moved or disabled, servers, a vendor extension",
    category="openapi",
    difficulty="medium",
    prompt=_prompt,
    reference=REFERENCE,
    probes=PROBES,
    original={"version": "1.2.0", "ourl": "/api/openapi.json", "docs": "/api/docs", "rurl": "",
              "s1": "https://tiles.example", "s1d": "production", "s2": "/", "zmax": 12,
              "rate": 100},
    space={
        "version": ["1.2.0", "2.0.1"],
        "ourl": [{"ourl": "/api/openapi.json", "docs": "/api/docs"},
                 {"ourl": "/schema.json", "docs": "/swagger"},
                 {"ourl": "/v2/spec.json", "docs": "/v2/docs"}],
        "rurl": ["", "/reference", "/api/redoc"],
        "s1": [{"s1": "https://tiles.example", "s1d": "production", "s2": "/"},
               {"s1": "https://eu.tiles.test/v2", "s1d": "EU", "s2": "http://localhost:8000"}],
        "zmax": [{"zmax": 12, "rate": 100}, {"zmax": 18, "rate": 5}],
    },
    derive=lambda p: {"rurl_or_none": repr(p["rurl"] or None), "zover": str(p["zmax"] + 1)},
    instances=40,
    requirements=(
        Requirement(
            "The document is served at `${ourl}` and Swagger UI at `${docs}`, both pages loading "
            "it; `/openapi.json` and `/docs` are 404.",
            probes=("pages_load_the_document", "default_urls_absent"),
            traps=(Edit("docs left at /docs", '    docs_url="${docs}",\n', ""),
                   Edit("document left at /openapi.json", '    openapi_url="${ourl}",\n', "")),
        ),
        Requirement(
            "ReDoc is only where the spec puts it (nothing at `/redoc`).",
            probes=("default_urls_absent", "pages_load_the_document"),
            traps=(Edit("ReDoc left at its default URL", "    redoc_url=${rurl_or_none},\n", ""),),
        ),
        Requirement(
            "The document's `servers` is exactly the two given entries and the operation carries "
            "`x-rate-limit: ${rate}` as an integer.",
            probes=("servers_and_extension",),
            traps=(Edit("second server given a description", '{"url": "${s2}"}',
                        '{"url": "${s2}", "description": "${s2}"}'),
                   Edit("rate limit extension as a string", '{"x-rate-limit": ${rate}}',
                        '{"x-rate-limit": "${rate}"}')),
        ),
        Requirement(
            "`z` lies in 0..${zmax} inclusive (documented as minimum and maximum).",
            probes=("tile_bounds", "servers_and_extension"),
            traps=(Edit("z bound exclusive", "le=${zmax})", "lt=${zmax})"),),
        ),
    ),
)
