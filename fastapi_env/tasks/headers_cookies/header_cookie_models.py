from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build one route, `GET /feed`, that reads its request headers into one Pydantic model and its
cookies into another, declared as FastAPI header and cookie parameter models
(`Annotated[FeedHeaders, Header()]` and `Annotated[FeedCookies, Cookie()]`, the header model
declared first). All validation is FastAPI's own (standard 422 responses).

`FeedHeaders` (header names are the field names with `_` written as `-`, matched
case-insensitively, as FastAPI does by default):

- `x_tenant`: string, required (header `X-Tenant`). If the header is sent several times, the
  first occurrence is used.
- `x_page_size`: integer, default ${pdef}, between ${pmin} and ${pmax} inclusive (header
  `X-Page-Size`).
- `x_tag`: list of strings, default empty (header `X-Tag`): every `X-Tag` header line is one
  value, exactly as sent (a comma inside a line does not split it), in the order sent.

Clients send many other headers of their own (`Host`, `User-Agent`, `Accept`, ...): any header
that is not a field is simply ignored.

`FeedCookies` accepts no other cookie than its fields (names are case-sensitive):

- `${sk}`: string, required.
- `${ck}`: string, default `"${ckdef}"`.

Any other cookie is an error of type `extra_forbidden` at loc `["cookie", <its name>]`. If a
cookie is sent twice, the last one is used.

A valid request answers 200 with `{"tenant": ..., "page_size": <int>, "tags": [...],
"session": <the ${sk} cookie>, "${ck}": ...}`.

The 422 `detail` list holds the header model's errors first (in field order), then the cookie
model's: its fields in order, then one `extra_forbidden` entry per unknown cookie, in the order
the cookies were sent. A header or cookie sent with an empty value is the empty string, not
missing. A missing header is at loc `["header", "<header name, lower case with
hyphens>"]` (e.g. `["header", "x-tenant"]`), a missing cookie at `["cookie", "<name>"]`.

Then fill `result` with one row per request, in this order (`client.get("/feed",
headers=...)`; a `Cookie` header carries the cookies as `name=value` pairs joined by `; `).
Each row is `[200, JSON body]` for a 200, and for a 422 `[422, [[type, loc], ...]]` with one
`[entry["type"] (string), entry["loc"] (list)]` pair per entry of `detail`, in order.

1. headers `X-Tenant: acme`, `Cookie: ${sk}=s-1`
2. headers `X-Tenant: acme`, `X-Page-Size: ${pmax}`, `Cookie: ${sk}=s-1; ${ck}=${ckval}`
3. headers `X-Page-Size: ${pbelow}`, `Cookie: tracker=t1`
4. header lines (a list of pairs) `X-Tenant: acme`, `X-Tag: red`, `X-Tag: green, blue`,
   `Cookie: ${sk}=s-2`
'''

HEAD = '''\
from typing import Annotated

from fastapi import Cookie, Depends, FastAPI, Header
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

app = FastAPI()

'''

HEADERS_MODEL = '''\
class FeedHeaders(BaseModel):
    x_tenant: str
    x_page_size: int = Field(${pdef}, ge=${pmin}, le=${pmax})
    x_tag: list[str] = []
'''

COOKIES_MODEL = '''

class FeedCookies(BaseModel):
    # unknown cookies are rejected (headers are not: clients add their own)
    model_config = ConfigDict(extra="forbid")

    ${sk}: str
    ${ck}: str = "${ckdef}"
'''

ROUTE = '''

@app.get("/feed")
def feed(
    headers: Annotated[FeedHeaders, Header()],
    cookies: Annotated[FeedCookies, Cookie()],
):
    return {"tenant": headers.x_tenant, "page_size": headers.x_page_size, "tags": headers.x_tag,
            "session": cookies.${sk}, "${ck}": cookies.${ck}}
'''

TAIL = '''

def row(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return [r.status_code, r.json()]


client = TestClient(app)
result = []
for headers in [
    {"X-Tenant": "acme", "Cookie": "${sk}=s-1"},
    {"X-Tenant": "acme", "X-Page-Size": "${pmax}", "Cookie": "${sk}=s-1; ${ck}=${ckval}"},
    {"X-Page-Size": "${pbelow}", "Cookie": "tracker=t1"},
    [("X-Tenant", "acme"), ("X-Tag", "red"), ("X-Tag", "green, blue"), ("Cookie", "${sk}=s-2")],
]:
    result.append(row(client.get("/feed", headers=headers)))
'''

REFERENCE = HEAD + HEADERS_MODEL + COOKIES_MODEL + ROUTE + TAIL

PROBES = '''\
def _row(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return [r.status_code, r.json()]


def _get(client, headers):
    return _row(client.get("/feed", headers=headers))


def probe_header_fields(client):
    cookie = ("Cookie", "${sk}=s")
    return [
        _get(client, [("x-tenant", "first"), ("X-TENANT", "second"), cookie]),
        _get(client, [("X-Tenant", "t"), ("X-Page-Size", "${pmin}"), cookie]),
        _get(client, [("X-Tenant", "t"), ("X-Page-Size", "${pabove}"), cookie]),
        _get(client, [("X-Tenant", "t"), ("X-Page-Size", "ten"), cookie]),
        _get(client, [("X-Tenant", ""), ("x-tag", "a,b"), ("X-Tag", ""), ("X-Tag", "c"), cookie]),
        _get(client, [("x_tenant", "underscored"), cookie]),
    ]


def probe_other_headers_ignored(client):
    return [_get(client, {"X-Tenant": "t", "X-Debug": "1", "Accept-Language": "fr",
                          "User-Agent": "probe/1", "Cookie": "${sk}=s"})]


def probe_cookie_fields(client):
    rows = []
    for cookie in ["${ck}=${ckval}", "${sk}=a; ${sk}=b", "${sk}=s; ${ck}=",
                   "${sk}=s; ${ck_upper}=x", "zz=1; ${sk}=s; aa=2", "${sk}="]:
        rows.append(_get(client, {"X-Tenant": "t", "Cookie": cookie}))
    rows.append(_get(client, {"X-Tenant": "t"}))
    return rows


def probe_cookies_not_from_query(client):
    return [_get(client, {"X-Tenant": "t", "Cookie": "${ck}=q"}),
            _row(client.get("/feed?${sk}=from-query", headers={"X-Tenant": "t"}))]


def probe_error_order(client):
    return [_get(client, {"X-Page-Size": "0", "Cookie": "b=2; a=1"}),
            _get(client, {"X-Page-Size": "${pabove}", "Cookie": "${ck}=x; extra=1"})]
'''

FAMILY = Family(
    id="headers_cookies/header_cookie_models",
    title="Header and cookie parameter models: extra headers ignored, extra cookies forbidden",
    category="headers_cookies",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"pmin": 1, "pmax": 50, "pdef": 10, "sk": "session_id", "ck": "theme",
              "ckdef": "light", "ckval": "dark"},
    space={
        "pmin": [{"pmin": 1, "pmax": 50, "pdef": 10}, {"pmin": 5, "pmax": 100, "pdef": 25},
                 {"pmin": 2, "pmax": 20, "pdef": 20}],
        "sk": ["session_id", "sid", "auth_token"],
        "ck": [{"ck": "theme", "ckdef": "light", "ckval": "dark"},
               {"ck": "lang", "ckdef": "en", "ckval": "pt-BR"},
               {"ck": "currency", "ckdef": "EUR", "ckval": "usd"}],
    },
    derive=lambda p: {"pbelow": p["pmin"] - 1, "pabove": p["pmax"] + 1,
                      "ck_upper": p["ck"].upper()},
    instances=27,
    requirements=(
        Requirement(
            "The header model reads `X-Tenant` (required, first occurrence), `X-Page-Size` "
            "(${pmin}..${pmax} inclusive, default ${pdef}) and every `X-Tag` line as sent.",
            probes=("header_fields",),
            traps=(Edit("page size bounds exclusive", "ge=${pmin}, le=${pmax}",
                        "gt=${pmin}, lt=${pmax}"),
                   Edit("header model without underscore conversion",
                        "headers: Annotated[FeedHeaders, Header()],",
                        "headers: Annotated[FeedHeaders, Header(convert_underscores=False)],")),
        ),
        Requirement(
            "Headers that are not fields of the model (the client's own included) are ignored.",
            probes=("other_headers_ignored",),
            traps=(Edit("extra='forbid' copied onto the header model", HEADERS_MODEL,
                        HEADERS_MODEL.replace(
                            "(BaseModel):\n",
                            '(BaseModel):\n    model_config = {"extra": "forbid"}\n\n')),),
        ),
        Requirement(
            "The cookie model requires `${sk}` (last occurrence wins), defaults `${ck}` to "
            "`${ckdef}` and rejects any other cookie (case-sensitive names) as `extra_forbidden`, "
            "after the header errors, in the order sent; query parameters are not cookies.",
            probes=("cookie_fields", "cookies_not_from_query", "error_order"),
            traps=(Edit("unknown cookies ignored",
                        '    model_config = ConfigDict(extra="forbid")\n', ""),
                   Edit("cookie model read with Depends() (query parameters)",
                        "cookies: Annotated[FeedCookies, Cookie()],",
                        "cookies: Annotated[FeedCookies, Depends()],")),
        ),
    ),
)
