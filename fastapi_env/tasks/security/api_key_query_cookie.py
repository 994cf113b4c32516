from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a reports API authenticated by an API key that a client may send either in the query
string as `${qname}` or in a cookie named `${cname}`. Declare both with FastAPI's security
schemes, `APIKeyQuery(name="${qname}", auto_error=False)` and
`APIKeyCookie(name="${cname}", auto_error=False)`, so that both are documented in OpenAPI.

Keys (module level): `KEYS = {"${k1}": "${t1}", "${k2}": "${t2}"}` (key -> tenant). Keys are
compared exactly (case-sensitive).

Which key counts:
- A source sent with an empty value (`?${qname}=`, a `${cname}=` cookie with nothing after the
  `=`) counts as not sent, as FastAPI's API key schemes do.
- When both sources carry a key, the **${prefer}** key is the one used and the other is ignored
  entirely (even if it would be valid while the ${prefer} one is not).
- A key sent any other way (e.g. a request header named `${qname}`) does not count.

Routes:

- `GET /reports` requires a key and returns `{"tenant": <tenant>, "source": "query" or
  "cookie"}` (the source of the key used).
  - No key: 401, JSON body `{"detail": "Not authenticated"}`, response header
    `WWW-Authenticate: APIKey`.
  - The key used is not in `KEYS`: 403, JSON body `{"detail": "${bad}"}` (no
    `WWW-Authenticate` header).
- `GET /status` works with or without a key: without one it returns `{"tenant": null,
  "source": null}`, otherwise the same as `/reports` (an unknown key is the same 403).

In `/openapi.json`, `components["securitySchemes"]` is exactly
`{"APIKeyQuery": {"type": "apiKey", "in": "query", "name": "${qname}"}, "APIKeyCookie":
{"type": "apiKey", "in": "cookie", "name": "${cname}"}}`, both operations list
`[{"APIKeyQuery": []}, {"APIKeyCookie": []}]` as their `security` (either scheme), and neither
documents any `parameters`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order (cookies sent as a `Cookie` request header). Rows 1-5 are
`[status code (integer), the WWW-Authenticate response header (string, or null if absent), JSON
body (object)]`:

1. `GET /reports` with no key
2. `GET /reports?${qname}=${k1}`
3. `GET /reports` with header `Cookie: ${cname}=${k2}`
4. `GET /reports?${qname}=nope`
5. `GET /status`
6. From `GET /openapi.json`: `[components["securitySchemes"] (object),
   paths["/reports"]["get"]["security"] (list)]`
'''

HEAD = '''\
from typing import Annotated

from fastapi import Cookie, Depends, FastAPI, HTTPException, Query, Security
from fastapi.security import APIKeyCookie, APIKeyQuery
from fastapi.testclient import TestClient

KEYS = {"${k1}": "${t1}", "${k2}": "${t2}"}

app = FastAPI()
'''

SCHEMES = '''
query_key = APIKeyQuery(name="${qname}", auto_error=False)
cookie_key = APIKeyCookie(name="${cname}", auto_error=False)
'''

PRESENTED = '''

def presented(
    from_query: Annotated[str | None, Security(query_key)],
    from_cookie: Annotated[str | None, Security(cookie_key)],
) -> tuple[str, str] | None:
    """The key that counts and where it came from; the schemes give None for absent or empty."""
    for source, key in ${candidates}:
        if key is not None:
            return source, key
    return None
'''

LOOKUP = '''

def lookup(found: tuple[str, str]) -> dict:
    source, key = found
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="${bad}")
    return {"tenant": KEYS[key], "source": source}


def tenant(found: Annotated[tuple[str, str] | None, Depends(presented)]) -> dict:
    if found is None:
        raise HTTPException(status_code=401, detail="Not authenticated",
                            headers={"WWW-Authenticate": "APIKey"})
    return lookup(found)


def maybe_tenant(found: Annotated[tuple[str, str] | None, Depends(presented)]) -> dict:
    if found is None:
        return {"tenant": None, "source": None}
    return lookup(found)


@app.get("/reports")
def reports(who: Annotated[dict, Depends(tenant)]):
    return who


@app.get("/status")
def status(who: Annotated[dict, Depends(maybe_tenant)]):
    return who
'''

TAIL = '''

client = TestClient(app)
result = []
for url, headers in [
    ("/reports", {}),
    ("/reports?${qname}=${k1}", {}),
    ("/reports", {"Cookie": "${cname}=${k2}"}),
    ("/reports?${qname}=nope", {}),
    ("/status", {}),
]:
    r = client.get(url, headers=headers)
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
spec = client.get("/openapi.json").json()
result.append([spec.get("components", {}).get("securitySchemes"),
               spec["paths"]["/reports"]["get"].get("security")])
'''

REFERENCE = HEAD + SCHEMES + PRESENTED + LOOKUP + TAIL

PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def _get(client, url, cookie=None):
    return _row(client.get(url, headers={"Cookie": cookie} if cookie else {}))


def probe_missing_key(client):
    return [_get(client, "/reports?other=${k1}"),
            _row(client.get("/reports", headers={"${qname}": "${k1}"})),
            _get(client, "/reports", "other=${k1}")]


def probe_either_source(client):
    return [_get(client, "/reports", "${cname}=${k1}"), _get(client, "/status?${qname}=${k2}"),
            _get(client, "/status", "${cname}=${k2}")]


def probe_precedence(client):
    return [_get(client, "/reports?${qname}=${k1}", "${cname}=${k2}"),
            _get(client, "/status?${qname}=${k2}", "${cname}=${k1}")]


def probe_invalid_preferred_key(client):
    return [_get(client, "/reports?${qname}=${pref_bad_q}", "${cname}=${pref_bad_c}"),
            _get(client, "/status?${qname}=${k1_upper}"), _get(client, "/status", "${cname}=${t1}")]


def probe_empty_means_absent(client):
    return [_get(client, "/reports?${qname}="), _get(client, "/reports", "${cname}="),
            _get(client, "/reports?${qname}=", "${cname}=${k2}"),
            _get(client, "/status?${qname}=${k1}", "${cname}="),
            _get(client, "/status?${qname}=", "${cname}=")]


def probe_documented_schemes(client):
    spec = client.get("/openapi.json").json()
    rows = []
    for path in ["/reports", "/status"]:
        op = spec["paths"][path]["get"]
        rows.append([path, op.get("security"), [p["name"] for p in op.get("parameters", [])]])
    rows.append([sorted(spec.get("components", {}).get("securitySchemes", {}))])
    return rows
'''

_QUERY_PARAM = '''\
def presented(
    from_query: Annotated[str | None, Query(alias="${qname}")] = None,
    from_cookie: Annotated[str | None, Security(cookie_key)] = None,
) -> tuple[str, str] | None:'''

_COOKIE_PARAM = '''\
def presented(
    from_query: Annotated[str | None, Security(query_key)],
    from_cookie: Annotated[str | None, Cookie(alias="${cname}")] = None,
) -> tuple[str, str] | None:'''

_FALLBACK = '''\
def lookup(found: tuple[str, str]) -> dict:
    source, key = found
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="${bad}")
    return {"tenant": KEYS[key], "source": source}
'''

_FALLBACK_WRONG = '''\
def lookup(found: tuple[str, str]) -> dict:
    source, key = found
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="${bad}")
    return {"tenant": KEYS[key], "source": source}


def presented_valid(
    from_query: Annotated[str | None, Security(query_key)],
    from_cookie: Annotated[str | None, Security(cookie_key)],
) -> tuple[str, str] | None:
    """Tries each source until one holds a valid key."""
    sent = [(s, k) for s, k in ${candidates} if k is not None]
    for source, key in sent:
        if key in KEYS:
            return source, key
    return sent[0] if sent else None
'''

_PRESENTED_HEAD = '''\
def presented(
    from_query: Annotated[str | None, Security(query_key)],
    from_cookie: Annotated[str | None, Security(cookie_key)],
) -> tuple[str, str] | None:'''


def _candidates(prefer):
    pairs = ['("query", from_query)', '("cookie", from_cookie)']
    return "[" + ", ".join(pairs if prefer == "query" else pairs[::-1]) + "]"


FAMILY = Family(
    id="security/api_key_query_cookie",
    title="APIKeyQuery and APIKeyCookie with auto_error=False: precedence, empty keys, 401 vs 403",
    category="security",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"qname": "api_key", "cname": "session", "prefer": "query", "k1": "k-east",
              "t1": "east", "k2": "k-west", "t2": "west", "bad": "Invalid API key"},
    space={
        "qname": [{"qname": "api_key", "cname": "session"}, {"qname": "token", "cname": "auth"},
                  {"qname": "key", "cname": "api_session"}],
        "prefer": ["query", "cookie"],
        "k1": [{"k1": "k-east", "t1": "east", "k2": "k-west", "t2": "west"},
               {"k1": "Alpha7", "t1": "acme", "k2": "bravo9", "t2": "globex"}],
        "bad": ["Invalid API key", "unknown key"],
    },
    derive=lambda p: {
        "candidates": _candidates(p["prefer"]), "k1_upper": p["k1"].upper(),
        "other_source": "cookie" if p["prefer"] == "query" else "query",
        # the preferred source carries a bad key, the other a valid one
        "pref_bad_q": "bogus" if p["prefer"] == "query" else p["k1"],
        "pref_bad_c": p["k1"] if p["prefer"] == "query" else "bogus",
    },
    instances=24,
    requirements=(
        Requirement(
            "No key (or a key sent another way) on `/reports` is 401 `Not authenticated` with "
            "`WWW-Authenticate: APIKey`.",
            probes=("missing_key",),
            traps=(Edit("missing key answered 403 (FastAPI before 0.122)", '''\
        raise HTTPException(status_code=401, detail="Not authenticated",
                            headers={"WWW-Authenticate": "APIKey"})''', '''\
        raise HTTPException(status_code=403, detail="Not authenticated")'''),),
            security=True,
        ),
        Requirement(
            "Either source alone authenticates (query `${qname}` or cookie `${cname}`), on both "
            "routes, reporting its source.",
            probes=("either_source",),
            traps=(Edit("query scheme raises when its key is absent",
                        'APIKeyQuery(name="${qname}", auto_error=False)',
                        'APIKeyQuery(name="${qname}")'),),
        ),
        Requirement(
            "With keys in both sources the ${prefer} one is used.",
            probes=("precedence",),
            traps=(Edit("precedence inverted", "for source, key in ${candidates}:",
                        "for source, key in ${candidates}[::-1]:"),),
        ),
        Requirement(
            "An unknown ${prefer} key is 403 `${bad}` without a challenge, even when the "
            "${other_source} carries a valid key; keys are case-sensitive.",
            probes=("invalid_preferred_key",),
            traps=(Edit("falls back to the other source's valid key", _FALLBACK,
                        _FALLBACK_WRONG + "\n\npresented = presented_valid\n"),
                   Edit("keys compared case-insensitively", "    source, key = found\n",
                        "    source, key = found\n"
                        "    key = {k.lower(): k for k in KEYS}.get(key.lower(), key)\n")),
            security=True,
        ),
        Requirement(
            "An empty query value or cookie counts as absent (falling back to the other source, "
            "or 401 / anonymous).",
            probes=("empty_means_absent",),
            traps=(Edit("query key read with Query() (empty value counts)", _PRESENTED_HEAD,
                        _QUERY_PARAM),),
        ),
        Requirement(
            "Both schemes are documented (`securitySchemes`, `security` alternatives on both "
            "operations, no documented parameters).",
            probes=("documented_schemes",),
            traps=(Edit("cookie read with Cookie() (undocumented scheme)", _PRESENTED_HEAD,
                        _COOKIE_PARAM),),
        ),
    ),
)
