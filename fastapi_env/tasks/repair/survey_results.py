"""Repair tier: surveys, responses and their aggregation, a package of four modules in
/workspace with nine planted bugs (the survey route's `response_model_exclude_unset=True`
dropping the defaults the spec requires; choice counts started from a mutable default dict and so
shared between requests and surveys; a comment-tidying validator in "before" mode, so a
non-string comment crashes it (500) instead of failing validation; a closed survey answered
with 400 instead of its status; an average formatted from a float (round half to even) where the
spec says half up; a page offset of page * size; the respondent header declared with
convert_underscores=False, so it is never found; a response body without extra="forbid";
respondents compared case-sensitively). Each bug is one requirement's trap; the setup is the
reference with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROWS_422_TYPE_LOC
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""Surveys with one single-choice question and a rating, their responses and results."""
'''

MODELS = '''\
from pydantic import BaseModel, ConfigDict, Field, field_validator


class SurveyIn(BaseModel):
    title: str = Field(min_length=1, max_length=${title_max})
    description: str | None = None
    options: list[str] = Field(min_length=2, max_length=6)

    @field_validator("options")
    @classmethod
    def distinct(cls, options):
        if len(set(options)) != len(options):
            raise ValueError("options must be distinct")
        return options


class SurveyOut(SurveyIn):
    id: int
    closed: bool = False


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choice: str
    rating: int = Field(ge=1, le=${scale})
    comment: str | None = None

    @field_validator("comment", mode="after")
    @classmethod
    def tidy_comment(cls, value):
        """Trimmed; a blank comment is no comment."""
        if value is None:
            return None
        return value.strip() or None


class AnswerOut(BaseModel):
    id: int
    survey: int
    respondent: str
    choice: str
    rating: int
    comment: str | None


class Page(BaseModel):
    total: int
    items: list[AnswerOut]


class Results(BaseModel):
    survey: int
    responses: int
    choices: dict[str, int]
    average_rating: str | None
'''

STORE = '''\
from fastapi import HTTPException

from .models import SurveyOut

SURVEYS: dict[int, SurveyOut] = {
    1: SurveyOut(id=1, title="${title1}", options=${options1__repr}),
}
ANSWERS: list[dict] = []  # every survey's responses, in submission order


def find_survey(survey_id: int) -> SurveyOut:
    if survey_id not in SURVEYS:
        raise HTTPException(404, "survey_not_found")
    return SURVEYS[survey_id]


def answers_to(survey_id: int) -> list[dict]:
    return [a for a in ANSWERS if a["survey"] == survey_id]
'''

STATS = '''\
from decimal import ROUND_HALF_UP, Decimal


def tally(options: list[str], answers: list[str]) -> dict[str, int]:
    """How many answers chose each option, every option listed, in the survey's order."""
    counts = dict.fromkeys(options, 0)
    for answer in answers:
        counts[answer] += 1
    return counts


def average(ratings: list[int]) -> str | None:
    """The mean with exactly two decimals, rounded half up; None without ratings."""
    if not ratings:
        return None
    mean = Decimal(sum(ratings)) / Decimal(len(ratings))
    return str(mean.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query

from . import stats, store
from .models import AnswerIn, AnswerOut, Page, Results, SurveyIn, SurveyOut

router = APIRouter()


@router.post("/surveys", status_code=201, response_model=SurveyOut)
def create_survey(body: SurveyIn):
    survey = SurveyOut(id=len(store.SURVEYS) + 1, **body.model_dump(exclude_unset=True))
    store.SURVEYS[survey.id] = survey
    return survey


@router.get("/surveys/{survey_id}", response_model=SurveyOut)
def read_survey(survey_id: int):
    return store.find_survey(survey_id)


@router.post("/surveys/{survey_id}/close", response_model=SurveyOut)
def close_survey(survey_id: int):
    survey = store.find_survey(survey_id)
    survey.closed = True
    return survey


@router.post("/surveys/{survey_id}/responses", status_code=201, response_model=AnswerOut)
def answer_survey(survey_id: int, body: AnswerIn,
                  x_respondent: Annotated[str, Header(min_length=1, max_length=${resp_max})]):
    survey = store.find_survey(survey_id)
    if survey.closed:
        raise HTTPException(${closed_status}, "survey_closed")
    if any(a["respondent"].lower() == x_respondent.lower() for a in store.answers_to(survey_id)):
        raise HTTPException(409, "already_answered")
    if body.choice not in survey.options:
        raise HTTPException(400, "invalid_choice")
    record = {"id": len(store.ANSWERS) + 1, "survey": survey_id, "respondent": x_respondent,
              **body.model_dump()}
    store.ANSWERS.append(record)
    return record


@router.get("/surveys/{survey_id}/responses", response_model=Page)
def list_answers(survey_id: int, page: Annotated[int, Query(ge=1)] = 1,
                 size: Annotated[int, Query(ge=1, le=${size_max})] = ${size_default}):
    store.find_survey(survey_id)
    answers = store.answers_to(survey_id)
    start = (page - 1) * size
    return {"total": len(answers), "items": answers[start:start + size]}


@router.get("/surveys/{survey_id}/results", response_model=Results)
def survey_results(survey_id: int):
    survey = store.find_survey(survey_id)
    answers = store.answers_to(survey_id)
    return {"survey": survey_id, "responses": len(answers),
            "choices": stats.tally(survey.options, [a["choice"] for a in answers]),
            "average_rating": stats.average([a["rating"] for a in answers])}
'''

SOLUTION = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from surveys.routes import router

app = FastAPI()
app.include_router(router)


@app.exception_handler(HTTPException)
async def survey_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.get("/surveys/1")),
    row(client.post("/surveys/1/responses", headers={"X-Respondent": "${resp1}"},
                    json={"choice": "${opt1}", "rating": ${rating1}, "comment": "  ${comment1}  "})),
    row(client.get("/surveys/1/results")),
    row(client.post("/surveys", json={"title": "Lunch", "options": ["soup", "salad"]})),
]
'''

_in = editor("surveys")

_EXCLUDE_UNSET = _in("routes", "survey shown without its unset defaults",
                     '@router.get("/surveys/{survey_id}", response_model=SurveyOut)',
                     '@router.get("/surveys/{survey_id}", response_model=SurveyOut,\n'
                     '            response_model_exclude_unset=True)')
_SHARED_COUNTS = _in("stats", "counts start from a mutable default", '''\
def tally(options: list[str], answers: list[str]) -> dict[str, int]:
    """How many answers chose each option, every option listed, in the survey's order."""
    counts = dict.fromkeys(options, 0)
''', '''\
def tally(options: list[str], answers: list[str], counts: dict[str, int] = {}) -> dict[str, int]:
    """How many answers chose each option, every option listed, in the survey's order."""
    for option in options:
        counts.setdefault(option, 0)
''')
_COMMENT_BEFORE = _in("models", "comment validator runs before type validation",
                      '@field_validator("comment", mode="after")',
                      '@field_validator("comment", mode="before")')
_CLOSED_400 = _in("routes", "closed survey answered with 400",
                  'raise HTTPException(${closed_status}, "survey_closed")',
                  'raise HTTPException(400, "survey_closed")')
_FLOAT_AVERAGE = _in("stats", "average formatted from a float", '''\
    mean = Decimal(sum(ratings)) / Decimal(len(ratings))
    return str(mean.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))''',
                     '    return f"{sum(ratings) / len(ratings):.2f}"')
_PAGE_OFFSET = _in("routes", "page offset counted from 0", "start = (page - 1) * size",
                   "start = page * size")
_HEADER_UNDERSCORES = _in("routes", "respondent header expected with underscores",
                          "Header(min_length=1, max_length=${resp_max})",
                          "Header(min_length=1, max_length=${resp_max}, "
                          "convert_underscores=False)")
_EXTRA_ALLOWED = _in("models", "unknown response keys ignored",
                     '    model_config = ConfigDict(extra="forbid")\n\n', "")
_RESPONDENT_CASE = _in("routes", "respondents compared case-sensitively",
                       'a["respondent"].lower() == x_respondent.lower()',
                       'a["respondent"] == x_respondent')

FILES = {"surveys/__init__.py": INIT, "surveys/models.py": MODELS, "surveys/store.py": STORE,
         "surveys/stats.py": STATS, "surveys/routes.py": ROUTES}
PLANTED = (_EXCLUDE_UNSET, _SHARED_COUNTS, _COMMENT_BEFORE, _CLOSED_400, _FLOAT_AVERAGE,
           _PAGE_OFFSET, _HEADER_UNDERSCORES, _EXTRA_ALLOWED, _RESPONDENT_CASE)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROWS_422_TYPE_LOC + '''\
OPTIONS = ${options1__repr}


def _survey(client, options=("red", "green", "blue"), **extra):
    return client.post("/surveys", json={"title": "probe", "options": list(options),
                                         **extra}).json()["id"]


def _answer(client, survey, respondent, choice="red", rating=1, **extra):
    return client.post(f"/surveys/{survey}/responses", headers={"X-Respondent": respondent},
                       json={"choice": choice, "rating": rating, **extra})


def _shown(r):
    if r.status_code != 200:
        return _row(r)
    return [r.status_code, [[key, value] for key, value in sorted(r.json().items())]]


def probe_surveys_show_every_field(client):
    plain = _survey(client)
    described = _survey(client, description="about colours")
    nulled = _survey(client, description=None)
    rows = [_shown(client.get("/surveys/1")), _shown(client.get(f"/surveys/{plain}")),
            _shown(client.get(f"/surveys/{described}")), _shown(client.get(f"/surveys/{nulled}"))]
    client.post(f"/surveys/{plain}/close")
    rows.append(_shown(client.get(f"/surveys/{plain}")))
    return rows


def probe_results_count_each_request_afresh(client):
    first = _survey(client, ("tea", "coffee", "water"))
    for number, choice in enumerate(["coffee", "tea", "coffee"]):
        _answer(client, first, f"r{number}", choice, 2)
    rows = [_row(client.get(f"/surveys/{first}/results")),
            _row(client.get(f"/surveys/{first}/results"))]
    second = _survey(client, ("yes", "no"))
    rows.append(_row(client.get(f"/surveys/{second}/results")))
    _answer(client, second, "r0", "no", 5)
    rows.append(_row(client.get(f"/surveys/{second}/results")))
    rows.append(_row(client.get(f"/surveys/{first}/results")))
    return rows


def probe_comment_tidied_and_typed(client):
    survey = _survey(client)
    rows = []
    for number, comment in enumerate(["  fine  ", "", "   ", None, "a  b", 5, True, [],
                                      {"text": "x"}, 2.5]):
        r = _answer(client, survey, f"c{number}", comment=comment)
        rows.append([comment, r.json()["comment"] if r.status_code == 201 else _brief(r)])
    return rows


def probe_closed_survey_refuses_answers(client):
    survey = _survey(client)
    _answer(client, survey, "early")
    closed = client.post(f"/surveys/{survey}/close")
    return [[closed.status_code, closed.json()["closed"]],
            _row(_answer(client, survey, "late")), _row(_answer(client, survey, "late")),
            _row(_answer(client, survey, "early")),
            [client.post(f"/surveys/{survey}/close").status_code],
            [client.get(f"/surveys/{survey}/results").json()["responses"]]]


def probe_average_rounds_half_up(client):
    rows = []
    for ratings in [[3, 3, 3, 3, 3, 3, 3, 4], [4, 4, 4, 4, 4, 4, 2, 3], [1, 1, 2], [4, 5], [1],
                    [2, 2, 2, 2, 2, 2, 2, 1]]:
        survey = _survey(client)
        for number, rating in enumerate(ratings):
            _answer(client, survey, f"a{number}", rating=rating)
        rows.append([ratings, client.get(f"/surveys/{survey}/results").json()["average_rating"]])
    rows.append([client.get(f"/surveys/{_survey(client)}/results").json()["average_rating"]])
    return rows


def probe_pages_of_responses(client):
    survey = _survey(client)
    for number in range(${size_max} + 2):
        _answer(client, survey, f"p{number}")
    rows = []
    for query in ["", "?page=1", "?page=2", "?page=2&size=2", "?page=3&size=${size_max}",
                  "?size=${size_max}", "?page=0", "?size=0", "?size=${size_over}", "?page=99"]:
        r = client.get(f"/surveys/{survey}/responses{query}")
        rows.append([query, [r.json()["total"], [a["respondent"] for a in r.json()["items"]]]
                     if r.status_code == 200 else _brief(r)])
    return rows


def probe_respondent_header(client):
    survey = _survey(client)
    rows = []
    for headers in [{"X-Respondent": "hdr-a"}, {"x-respondent": "hdr-b"}, {},
                    {"X-Respondent": ""}, {"X-Respondent": "h" * ${resp_max}},
                    {"X-Respondent": "i" * (${resp_max} + 1)}]:
        r = client.post(f"/surveys/{survey}/responses", headers=headers,
                        json={"choice": "red", "rating": 1})
        rows.append([sorted(headers), r.json()["respondent"] if r.status_code == 201
                     else _brief(r)])
    return rows


def probe_unknown_body_keys_refused(client):
    survey = _survey(client)
    rows = []
    for number, body in enumerate([{"choice": "red", "rating": 2, "score": 5},
                                   {"choice": "red", "rating": 2, "Comment": "hi"},
                                   {"choice": "red", "rating": 2, "comment": "ok"},
                                   {"choice": "red", "rating": 2, "respondent": "other"}]):
        r = client.post(f"/surveys/{survey}/responses", headers={"X-Respondent": f"k{number}"},
                        json=body)
        rows.append([sorted(body), _brief(r)[0], _brief(r)[1] if r.status_code == 422
                     else r.json()["respondent"]])
    return rows


def probe_one_answer_per_respondent(client):
    survey = _survey(client)
    other = _survey(client)
    return [[_answer(client, survey, "${resp2}").status_code],
            _row(_answer(client, survey, "${resp2_lower}")),
            _row(_answer(client, survey, "${resp2_upper}", "green")),
            [_answer(client, other, "${resp2_lower}").status_code],
            [client.get(f"/surveys/{survey}/results").json()["responses"]]]


def probe_answer_failures_in_order(client):
    survey = _survey(client)
    _answer(client, survey, "dup")
    closed = _survey(client)
    _answer(client, closed, "dup")
    client.post(f"/surveys/{closed}/close")
    return [_row(_answer(client, 9999, "dup", "purple")),
            _brief(_answer(client, 9999, "dup", rating=0)),
            _row(_answer(client, closed, "dup", "purple")),
            _row(_answer(client, survey, "dup", "purple")),
            _row(_answer(client, survey, "new", "purple")),
            _row(_answer(client, survey, "new", "Red")),
            _brief(_answer(client, survey, "new", rating=${scale_over})),
            [_answer(client, survey, "new", rating=${scale}).status_code]]


def probe_survey_validation(client):
    rows = []
    for body in [{"title": "t", "options": ["a"]}, {"title": "t", "options": ["a", "b"]},
                 {"title": "t", "options": ["a", "b", "c", "d", "e", "f"]},
                 {"title": "t", "options": ["a", "b", "c", "d", "e", "f", "g"]},
                 {"title": "t", "options": ["a", "b", "a"]}, {"title": "", "options": ["a", "b"]},
                 {"title": "t" * ${title_max}, "options": ["a", "b"]},
                 {"title": "t" * (${title_max} + 1), "options": ["a", "b"]}]:
        r = client.post("/surveys", json=body)
        rows.append([r.status_code, _brief(r)[1] if r.status_code == 422
                     else [r.json()["options"], r.json()["closed"]]])
    return rows


def probe_unknown_surveys(client):
    rows = []
    for method, path in [("GET", "/surveys/9999"), ("POST", "/surveys/9999/close"),
                         ("GET", "/surveys/9999/responses"), ("GET", "/surveys/9999/results"),
                         ("GET", "/surveys/one"), ("GET", "/surveys/one/results")]:
        rows.append([method, path, _brief(client.request(method, path))])
    return rows


def probe_response_ids_run_across_surveys(client):
    first, second = _survey(client), _survey(client)
    ids = [_answer(client, survey, name).json()["id"]
           for survey, name in [(first, "ids-a"), (second, "ids-a"), (first, "ids-b")]]
    return [[ids[1] - ids[0], ids[2] - ids[0]]]
'''

_SETS = {
    "seed": [
        {"title1": "Team offsite", "options1": ["lake", "city", "forest"], "opt1": "city",
         "resp1": "Ana", "resp2": "Bea", "resp2_lower": "bea", "resp2_upper": "BEA",
         "comment1": "nice idea"},
        {"title1": "Office snacks", "options1": ["fruit", "nuts", "crisps", "none"],
         "opt1": "nuts", "resp1": "Kofi", "resp2": "Lin", "resp2_lower": "lin",
         "resp2_upper": "LIN", "comment1": "more please"},
    ],
    "scale": [{"scale": 5, "scale_over": 6, "rating1": 4},
              {"scale": 10, "scale_over": 11, "rating1": 7},
              {"scale": 7, "scale_over": 8, "rating1": 6}],
    "paging": [{"size_default": 2, "size_max": 5, "size_over": 6},
               {"size_default": 3, "size_max": 10, "size_over": 11},
               {"size_default": 5, "size_max": 8, "size_over": 9}],
    "limits": [{"closed_status": 409, "title_max": 40, "resp_max": 16},
               {"closed_status": 403, "title_max": 24, "resp_max": 12},
               {"closed_status": 423, "title_max": 60, "resp_max": 20}],
}

FAMILY = Family(
    id="repair/survey_results",
    title="Repair a survey service whose results misbehave",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a survey service: `solution.py` and the package `surveys/` it imports
(`models.py`, `store.py`, `stats.py`, `routes.py`). It should behave as described below but
does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next.

**A survey** asks one single-choice question and for a rating. It is shown as `{"id", "title",
"description", "options", "closed"}`, always with all five keys (`description` null when none
was given, `closed` false until closed). At start there is survey 1, "${title1}", with the
options ${options1__json}, no description, open. New surveys get ids 2, 3, ...

**Errors** raised by the service have the body `{"error": <code>}`: 404 `survey_not_found`,
${closed_status} `survey_closed`, 409 `already_answered`, 400 `invalid_choice`. Request
validation errors keep FastAPI's standard 422 body; they are reported before any of these.

**Routes.**
- `POST /surveys` with `{"title", "description"?, "options"}`: title 1 to ${title_max}
  characters, 2 to 6 distinct options; 201 with the new survey.
- `GET /surveys/{id}`: 200 with the survey, 404 if none.
- `POST /surveys/{id}/close`: 200 with the survey, now closed (closing again is fine).
- `POST /surveys/{id}/responses` with the header `X-Respondent` (1 to ${resp_max} characters)
  and the body `{"choice", "rating", "comment"?}` and no other key (any other key is a 422):
  `rating` an integer from 1 to ${scale}; `comment` a string or null, stored trimmed of
  surrounding whitespace, a blank one stored as null; any other JSON type is a 422. Checked in
  this order: the survey exists (404), it is open (`survey_closed`), this respondent has not
  answered it yet (`already_answered`; respondent names are compared ignoring case), the
  choice is exactly one of its options (`invalid_choice`). 201 with `{"id", "survey",
  "respondent", "choice", "rating", "comment"}`, the respondent as sent; response ids are 1,
  2, 3, ... across all surveys.
- `GET /surveys/{id}/responses?page=&size=`: 200 `{"total": <its number of responses>,
  "items": [...]}`, the survey's responses in submission order, page `page` (1-based, >= 1,
  default 1) of `size` (1 to ${size_max}, default ${size_default}) items.
- `GET /surveys/{id}/results`: 200 `{"survey": id, "responses": n, "choices": {<option>:
  <count>, ...}, "average_rating": <string or null>}`: `choices` has every option of that
  survey (and only those), 0 when nobody chose it; `average_rating` is the mean rating as a
  string with exactly two decimals, rounded half up (`"3.13"` for 3.125), null without
  responses.

`result` has four rows, each `[status, body]`, in this order:
1. `GET /surveys/1`
2. `POST /surveys/1/responses` with `X-Respondent: ${resp1}` and
   `{"choice": "${opt1}", "rating": ${rating1}, "comment": "  ${comment1}  "}`
3. `GET /surveys/1/results`
4. `POST /surveys` with `{"title": "Lunch", "options": ["soup", "salad"]}`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["seed"][0], **_SETS["scale"][0], **_SETS["paging"][0],
              **_SETS["limits"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("A survey always shows all five keys: `description` null when not given, "
                    "`closed` false until closed.",
                    probes=("surveys_show_every_field",), traps=(_EXCLUDE_UNSET,)),
        Requirement("Results count each survey's responses afresh on every request, listing "
                    "every option of that survey and only those.",
                    probes=("results_count_each_request_afresh",), traps=(_SHARED_COUNTS,)),
        Requirement("A comment is trimmed, blank means null, and a non-string comment is a "
                    "422.",
                    probes=("comment_tidied_and_typed",), traps=(_COMMENT_BEFORE,)),
        Requirement("A closed survey takes no response (${closed_status} `survey_closed`).",
                    probes=("closed_survey_refuses_answers",), traps=(_CLOSED_400,)),
        Requirement("`average_rating` has exactly two decimals, rounded half up.",
                    probes=("average_rounds_half_up",), traps=(_FLOAT_AVERAGE,)),
        Requirement("Responses are paged 1-based (`size` 1 to ${size_max}, default "
                    "${size_default}).",
                    probes=("pages_of_responses",), traps=(_PAGE_OFFSET,)),
        Requirement("The respondent is read from the `X-Respondent` header (1 to ${resp_max} "
                    "characters).",
                    probes=("respondent_header",), traps=(_HEADER_UNDERSCORES,)),
        Requirement("A response body with any key but choice, rating and comment is a 422.",
                    probes=("unknown_body_keys_refused",), traps=(_EXTRA_ALLOWED,)),
        Requirement("A respondent answers a survey once, names compared ignoring case "
                    "(409 `already_answered`).",
                    probes=("one_answer_per_respondent",), traps=(_RESPONDENT_CASE,)),
        Requirement("Response failures are reported in the stated order: validation, unknown "
                    "survey, closed, already answered, invalid choice.",
                    probes=("answer_failures_in_order",),
                    traps=(_in("routes", "choice checked before the repeat", '''\
    if any(a["respondent"].lower() == x_respondent.lower() for a in store.answers_to(survey_id)):
        raise HTTPException(409, "already_answered")
    if body.choice not in survey.options:
        raise HTTPException(400, "invalid_choice")
''', '''\
    if body.choice not in survey.options:
        raise HTTPException(400, "invalid_choice")
    if any(a["respondent"].lower() == x_respondent.lower() for a in store.answers_to(survey_id)):
        raise HTTPException(409, "already_answered")
'''),)),
        Requirement("A survey has a title of 1 to ${title_max} characters and 2 to 6 distinct "
                    "options.",
                    probes=("survey_validation",),
                    traps=(_in("models", "options not checked for repeats", '''\
        if len(set(options)) != len(options):
            raise ValueError("options must be distinct")
''', ""),)),
        Requirement("Unknown surveys are 404 `survey_not_found` on every route.",
                    probes=("unknown_surveys",),
                    traps=(_in("store", "unknown survey looked up directly", '''\
    if survey_id not in SURVEYS:
        raise HTTPException(404, "survey_not_found")
''', ""),)),
        Requirement("Response ids are 1, 2, 3, ... across all surveys.",
                    probes=("response_ids_run_across_surveys",),
                    traps=(_in("routes", "response ids counted per survey",
                               '"id": len(store.ANSWERS) + 1',
                               '"id": len(store.answers_to(survey_id)) + 1'),)),
    ),
)
