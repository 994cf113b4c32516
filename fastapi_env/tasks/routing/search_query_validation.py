from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = 'Build an app with one route, `GET /search`, whose query parameters are validated by FastAPI\n(declare them with `Annotated[..., Query(...)]` constraints). Parameters, in this order:\n\n- `q`: string, required, ${qmin} to ${qmax} characters\n- `page`: integer, optional, default ${pdef}, between 1 and ${pmax} inclusive\n- `lang`: string or null, optional (default null); when given it must match the regular\n  expression `^[a-z]{${llen}}$$` (exactly ${llen_word} lower-case letters)\n- `exact`: boolean, optional, default `false`. Accepted spellings, case-insensitive:\n  `true`/`1`/`yes`/`on`/`t`/`y` are true and `false`/`0`/`no`/`off`/`f`/`n` are false;\n  anything else, including an empty value (`?exact=`), is an error\n- `min_score`: number (float), optional, default ${sdef}, strictly greater than 0 and at most 1\n\nAny violation is FastAPI\'s standard 422 validation error listing one entry per invalid\nparameter, in the parameter order above, each at loc `["query", "<name>"]` with type:\n`missing` (q absent), `string_too_short` / `string_too_long` (q), `int_parsing`,\n`greater_than_equal`, `less_than_equal` (page), `string_pattern_mismatch` (lang),\n`bool_parsing` (exact), `float_parsing`, `greater_than`, `less_than_equal` (min_score).\n\nA valid request answers 200 with the JSON body\n`{"q": ..., "page": <int>, "lang": <string or null>, "exact": <bool>, "min_score": <float>}`.\n\nThen fill `result` with one row per request, in this order, each sent with\n`client.get(<path with query string>)` exactly as written. For a 422 the row is\n`[422, [[entry["type"], entry["loc"]] for each entry of detail, in order]]` (a list of\n[string, list] pairs); otherwise `[status code (integer), the JSON body (object)]`.\n\n1. `GET /search?q=${word}`\n2. `GET /search?q=${word}&page=3&lang=${lang_ok}&exact=yes`\n3. `GET /search?q=${q_short}&page=0`\n4. `GET /search?q=${word}&lang=${lang_long}&exact=`\n5. `GET /search?q=${word}&min_score=0`\n'

REFERENCE = 'from typing import Annotated\n\nfrom fastapi import FastAPI, Query\nfrom fastapi.testclient import TestClient\n\napp = FastAPI()\n\n\n@app.get("/search")\ndef search(\n    q: Annotated[str, Query(min_length=${qmin}, max_length=${qmax})],\n    page: Annotated[int, Query(ge=1, le=${pmax})] = ${pdef},\n    lang: Annotated[str | None, Query(pattern="^[a-z]{${llen}}$$")] = None,\n    exact: Annotated[bool, Query()] = False,\n    min_score: Annotated[float, Query(gt=0, le=1)] = ${sdef},\n):\n    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}\n\n\ndef row(response):\n    body = response.json()\n    if response.status_code == 422:\n        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]\n    return [response.status_code, body]\n\n\nclient = TestClient(app)\nresult = [\n    row(client.get("/search?q=${word}")),\n    row(client.get("/search?q=${word}&page=3&lang=${lang_ok}&exact=yes")),\n    row(client.get("/search?q=${q_short}&page=0")),\n    row(client.get("/search?q=${word}&lang=${lang_long}&exact=")),\n    row(client.get("/search?q=${word}&min_score=0")),\n]\n'

PROBES = 'def _row(r):\n    body = r.json()\n    if r.status_code == 422:\n        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]\n    return [r.status_code, body]\n\n\ndef probe_boolean_spellings(client):\n    rows = []\n    for value in ["On", "1", "t", "Y", "off", "N", "0", "maybe", "2"]:\n        rows.append([value, _row(client.get(f"/search?q=${q_min_ok}x&exact={value}"))])\n    rows.append(["bare", _row(client.get("/search?q=${q_min_ok}x&exact"))])\n    return rows\n\n\ndef probe_boundaries(client):\n    return [\n        _row(client.get("/search?q=${q_min_ok}&page=${pmax}&min_score=1")),\n        _row(client.get("/search?q=" + "x" * ${qmax} + "&page=${pmax_over}&min_score=1.01")),\n        _row(client.get("/search?q=" + "x" * ${qmax_over} + "&min_score=0.001")),\n        _row(client.get("/search?page=two&min_score=cheap")),\n        _row(client.get("/search?q=${q_min_ok}&min_score=0")),\n    ]\n\n\ndef probe_lang_pattern(client):\n    return [\n        _row(client.get("/search?q=${q_min_ok}x&lang=${lang_ok2}")),\n        _row(client.get("/search?q=${q_min_ok}x&lang=${lang_upper}")),\n        _row(client.get("/search?q=${q_min_ok}x&lang=${lang_digit}")),\n        _row(client.get("/search?q=${q_min_ok}x&lang=x${lang_ok2}")),\n        _row(client.get("/search?q=${q_min_ok}x&lang=${lang_ok2}x")),\n    ]\n\n\ndef probe_defaults_and_empty_values(client):\n    return [\n        _row(client.get("/search?q=${q_min_ok}&lang=")),\n        _row(client.get("/search?q=")),\n        _row(client.get("/search?q=${q_min_ok}&page=")),\n        _row(client.get("/search?q=${q_min_ok}&page=1&min_score=0.5")),\n        _row(client.get("/search?q=${q_min_ok}")),\n    ]\n'

_WORDS = {2: "two", 3: "three"}

_EXACT_TAIL = """\
    exact: Annotated[bool, Query()] = False,
    min_score: Annotated[float, Query(gt=0, le=1)] = ${sdef},
):
    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}
"""

FAMILY = Family(
    id="routing/search_query_validation",
    title='Validated search query parameters and their 422 error types',
    category="routing",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"qmin": 2, "qmax": 30, "pmax": 50, "pdef": 1, "llen": 2, "sdef": 0.5, "word": "fastapi"},
    space={
        "qmin": [{"qmin": 2, "qmax": 30}, {"qmin": 3, "qmax": 12}, {"qmin": 1, "qmax": 8}],
        "pmax": [{"pmax": 50, "pdef": 1}, {"pmax": 10, "pdef": 2}, {"pmax": 200, "pdef": 5}],
        "llen": [2, 3],
        "sdef": [0.5, 0.25, 1.0],
        "word": ["fastapi", "pydantic"],
    },
    valid=lambda p: len(p["word"]) <= p["qmax"],
    derive=lambda p: {
        "llen_word": _WORDS[p["llen"]],
        "q_short": "f" * (p["qmin"] - 1) if p["qmin"] > 1 else "", "q_min_ok": "ab"[: p["qmin"]] if p["qmin"] <= 2 else "abc",
        "qmax_over": p["qmax"] + 1, "pmax_over": p["pmax"] + 1,
        "lang_ok": "en" if p["llen"] == 2 else "eng", "lang_long": "eng" if p["llen"] == 2 else "engl",
        "lang_ok2": "fr" if p["llen"] == 2 else "fra", "lang_upper": "EN" if p["llen"] == 2 else "ENG",
        "lang_digit": "e1" if p["llen"] == 2 else "e1g",
        "qmax_minus": p["qmax"] - 1, "pdef_other": p["pdef"] + 1,
        "sdef_other": 0.75 if p["sdef"] != 0.75 else 0.5,
    },
    instances=60,
    requirements=(
        Requirement(
            "`q` is required and ${qmin}..${qmax} characters (both ends inclusive; missing, "
            "empty, too short or too long are the matching 422s).",
            probes=("boundaries", "defaults_and_empty_values"),
            traps=(Edit("q length bounds off by one", "min_length=${qmin}, max_length=${qmax}",
                        "min_length=${qmin}, max_length=${qmax_minus}"),),
        ),
        Requirement(
            "`page` defaults to ${pdef} and lies in 1..${pmax} inclusive; an empty value is "
            "`int_parsing`.",
            probes=("boundaries", "defaults_and_empty_values"),
            traps=(Edit("gt=0 / lt for page (different error types)", "Query(ge=1, le=${pmax})",
                        "Query(gt=0, lt=${pmax_over})"),
                   Edit("wrong page default", "le=${pmax})] = ${pdef},", "le=${pmax})] = ${pdef_other},")),
        ),
        Requirement(
            "`lang` is optional and, when given, exactly ${llen} lower-case letters (anchored: a "
            "longer value, capitals, digits, an empty value are `string_pattern_mismatch`).",
            probes=("lang_pattern", "defaults_and_empty_values"),
            traps=(Edit("unanchored pattern", 'pattern="^[a-z]{${llen}}$$"', 'pattern="[a-z]{${llen}}"'),),
        ),
        Requirement(
            "`exact` accepts the listed spellings in any case; anything else, the empty and the "
            "bare value included, is `bool_parsing`.",
            probes=("boolean_spellings",),
            traps=(Edit("boolean compared with 'true' by hand", _EXACT_TAIL,
                        _EXACT_TAIL.replace("exact: Annotated[bool, Query()] = False", 'exact: str = "false"')
                        .replace('"exact": exact,', '"exact": exact.lower() == "true",')),
                   Edit("optional exact with an empty value treated as false", _EXACT_TAIL,
                        _EXACT_TAIL.replace("exact: Annotated[bool, Query()] = False",
                                            "exact: Annotated[str | None, Query()] = None")
                        .replace('"exact": exact,', '"exact": (exact or "false").lower() in '
                                 '{"true", "1", "yes", "on", "t", "y"},'))),
        ),
        Requirement(
            "`min_score` defaults to ${sdef}, must be greater than 0 (0 itself is `greater_than`) "
            "and at most 1.",
            probes=("boundaries", "defaults_and_empty_values"),
            traps=(Edit("ge=0 where the spec says strictly greater", "Query(gt=0, le=1)", "Query(ge=0, le=1)"),
                   Edit("wrong min_score default", "le=1)] = ${sdef},", "le=1)] = ${sdef_other},")),
        ),
    ),
    expected_rows=[[200, {'q': 'fastapi', 'page': 1, 'lang': None, 'exact': False, 'min_score': 0.5}], [200, {'q': 'fastapi', 'page': 3, 'lang': 'en', 'exact': True, 'min_score': 0.5}], [422, [['string_too_short', ['query', 'q']], ['greater_than_equal', ['query', 'page']]]], [422, [['string_pattern_mismatch', ['query', 'lang']], ['bool_parsing', ['query', 'exact']]]], [422, [['greater_than', ['query', 'min_score']]]]],
)
