"""Service tier: a conference's call for papers specified like a product document (12 routes,
HTTP Basic credentials checked by the app with a realm, three roles, speakers registered by the
chair, talk proposals with a per-speaker limit and unique titles, strictly typed review scores
with one review per reviewer and none on one's own talk, averages with a stated rounding rule,
accept/reject with a review quorum and a score threshold, a schedule without room or speaker
overlaps; FastAPI's own error shapes)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import rows_without_top_ids
from fastapi_env.tasks.traps import check_order, checks_reversed, without_location

REFERENCE = '''\
import base64
import binascii
import json
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, StrictInt, StringConstraints

REALM = "${realm}"
MAX_TALKS = ${max_talks}
MIN_REVIEWS = ${min_reviews}
ACCEPT_MIN = ${accept_min}
ROUNDING = ${rounding_mode}
OPEN_MINUTE, CLOSE_MINUTE = ${open_hour} * 60, ${close_hour} * 60

USERS = {
    "${chair}": {"password": "${chair_pw}", "role": "chair"},
    "${r1}": {"password": "${r1_pw}", "role": "reviewer"},
    "${r2}": {"password": "${r2_pw}", "role": "reviewer"},
    "${r3}": {"password": "${r3_pw}", "role": "reviewer"},
    "${r4}": {"password": "${r4_pw}", "role": "reviewer"},
    "${s1}": {"password": "${s1_pw}", "role": "speaker"},
    "${s2}": {"password": "${s2_pw}", "role": "speaker"},
}
TALKS = {
    1: {"id": 1, "title": "${t1_title}", "track": "${track0}", "minutes": ${dur0},
        "speaker": "${s1}", "status": "submitted"},
    2: {"id": 2, "title": "${t2_title}", "track": "${track1}", "minutes": ${dur1},
        "speaker": "${r1}", "status": "submitted"},
    3: {"id": 3, "title": "${t3_title}", "track": "${track0}", "minutes": ${dur1},
        "speaker": "${s2}", "status": "submitted"},
}
REVIEWS: dict[int, dict[str, dict]] = {}  # talk id -> reviewer -> review
SLOTS: dict[int, dict] = {}  # talk id -> its place in the schedule
NEXT_TALK = {"id": 4}

app = FastAPI()


''' + late_body.route_class(fastapi_error=True) + '''


def unauthorized():
    return HTTPException(401, "bad_credentials",
                         headers={"WWW-Authenticate": f'Basic realm="{REALM}"'})


def caller(request: Request) -> dict:
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        raise unauthorized()
    try:
        decoded = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise unauthorized() from None
    # The password may itself hold colons: the username ends at the first one.
    username, colon, password = decoded.partition(":")
    user = USERS.get(username)
    if not colon or user is None or user["password"] != password:
        raise unauthorized()
    return {"username": username, "role": user["role"]}


def role(*allowed: str):
    def check(user: Annotated[dict, Depends(caller)]) -> dict:
        if user["role"] not in allowed:
            raise HTTPException(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(caller)]
Chair = Annotated[dict, Depends(role("chair"))]
Reviewer = Annotated[dict, Depends(role("reviewer"))]
Proposer = Annotated[dict, Depends(role("speaker", "reviewer"))]

Track = Literal[${tracks_literal}]
Room = Literal[${rooms_literal}]
Status = Literal["submitted", "accepted", "rejected", "withdrawn"]


class SpeakerIn(BaseModel):
    username: str = Field(pattern=r"^[a-z]{3,12}$$")
    password: str = Field(min_length=8)


class TalkIn(BaseModel):
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=5,
                                            max_length=${title_max})]
    track: Track
    minutes: Literal[${durations_literal}]


class ReviewIn(BaseModel):
    score: Annotated[StrictInt, Field(ge=${score_min}, le=${score_max})]
    comment: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] | None = None


class DecisionIn(BaseModel):
    decision: Literal["accept", "reject"]


class SlotIn(BaseModel):
    day: int = Field(ge=1, le=${days})
    room: Room
    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][05]$$")


def minutes_of(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def sees(user: dict, talk: dict) -> bool:
    return user["role"] != "speaker" or talk["speaker"] == user["username"]


def visible_talk(talk_id: int, user: dict) -> dict:
    talk = TALKS.get(talk_id)
    if talk is None or not sees(user, talk):
        raise HTTPException(404, "talk_not_found")
    return talk


def average(talk_id: int) -> float | None:
    scores = [r["score"] for r in REVIEWS.get(talk_id, {}).values()]
    if not scores:
        return None
    exact = Decimal(sum(scores)) / Decimal(len(scores))
    return float(exact.quantize(Decimal("0.1"), rounding=ROUNDING))


def check_limit(user: dict, body: TalkIn) -> None:
    active = [t for t in TALKS.values()
              if t["speaker"] == user["username"] and t["status"] != "withdrawn"]
    if len(active) >= MAX_TALKS:
        raise HTTPException(409, "too_many_talks")


def check_title(user: dict, body: TalkIn) -> None:
    for talk in TALKS.values():
        if talk["status"] != "withdrawn" and talk["title"].lower() == body.title.lower():
            raise HTTPException(409, "duplicate_title")


@app.get("/me")
def me(user: AnyUser):
    return user


@app.post("/speakers", status_code=201)
def register_speaker(body: SpeakerIn, user: Chair, response: Response):
    if body.username in USERS:
        raise HTTPException(409, "username_taken")
    USERS[body.username] = {"password": body.password, "role": "speaker"}
    response.headers["Location"] = f"/speakers/{body.username}"
    return {"username": body.username, "role": "speaker"}


@app.post("/talks", status_code=201)
def submit_talk(body: TalkIn, user: Proposer, response: Response):
    for check in (${submit_checks}):
        check(user, body)
    talk = {"id": NEXT_TALK["id"], "title": body.title, "track": body.track,
            "minutes": body.minutes, "speaker": user["username"], "status": "submitted"}
    NEXT_TALK["id"] += 1
    TALKS[talk["id"]] = talk
    response.headers["Location"] = f"/talks/{talk['id']}"
    return talk


@app.get("/talks")
def list_talks(user: AnyUser, track: Track | None = None, status: Status | None = None):
    return [t for t in sorted(TALKS.values(), key=lambda t: t["id"]) if sees(user, t)
            and (track is None or t["track"] == track)
            and (status is None or t["status"] == status)]


@app.get("/talks/{talk_id}")
def read_talk(talk_id: int, user: AnyUser):
    return visible_talk(talk_id, user)


@app.post("/talks/{talk_id}/withdraw")
def withdraw(talk_id: int, user: AnyUser):
    talk = visible_talk(talk_id, user)
    if talk["speaker"] != user["username"]:
        raise HTTPException(403, "not_owner")
    if talk["status"] in ("rejected", "withdrawn"):
        raise HTTPException(409, "cannot_withdraw")
    talk["status"] = "withdrawn"
    SLOTS.pop(talk_id, None)
    return talk


@app.post("/talks/{talk_id}/reviews", status_code=201)
def review(talk_id: int, body: ReviewIn, user: Reviewer):
    talk = visible_talk(talk_id, user)
    if talk["speaker"] == user["username"]:
        raise HTTPException(403, "own_talk")
    if talk["status"] != "submitted":
        raise HTTPException(409, "not_under_review")
    reviews = REVIEWS.setdefault(talk_id, {})
    if user["username"] in reviews:
        raise HTTPException(409, "already_reviewed")
    reviews[user["username"]] = {"talk_id": talk_id, "reviewer": user["username"],
                                 "score": body.score, "comment": body.comment or None}
    return reviews[user["username"]]


@app.get("/talks/{talk_id}/reviews")
def list_reviews(talk_id: int, user: Chair):
    visible_talk(talk_id, user)
    reviews = REVIEWS.get(talk_id, {})
    return [reviews[name] for name in sorted(reviews)]


@app.get("/talks/{talk_id}/score")
def score(talk_id: int, user: AnyUser):
    visible_talk(talk_id, user)
    return {"talk_id": talk_id, "reviews": len(REVIEWS.get(talk_id, {})),
            "average": average(talk_id)}


@app.post("/talks/{talk_id}/decision")
def decide(talk_id: int, body: DecisionIn, user: Chair):
    talk = visible_talk(talk_id, user)
    if talk["status"] != "submitted":
        raise HTTPException(409, "not_pending")
    if len(REVIEWS.get(talk_id, {})) < MIN_REVIEWS:
        raise HTTPException(409, "not_enough_reviews")
    if body.decision == "accept" and average(talk_id) < ACCEPT_MIN:
        raise HTTPException(409, "score_too_low")
    talk["status"] = "accepted" if body.decision == "accept" else "rejected"
    return talk


def clash(slot: dict, other: dict) -> bool:
    return (slot["day"] == other["day"] and slot["begin"] < other["finish"]
            and other["begin"] < slot["finish"])


@app.put("/talks/{talk_id}/slot")
def schedule_talk(talk_id: int, body: SlotIn, user: Chair):
    talk = visible_talk(talk_id, user)
    if talk["status"] != "accepted":
        raise HTTPException(409, "not_accepted")
    begin = minutes_of(body.start)
    slot = {"day": body.day, "room": body.room, "begin": begin,
            "finish": begin + talk["minutes"]}
    if begin < OPEN_MINUTE or slot["finish"] > CLOSE_MINUTE:
        raise HTTPException(409, "outside_hours")
    others = {i: s for i, s in SLOTS.items() if i != talk_id}  # moving a talk frees its place
    if any(s["room"] == body.room and clash(slot, s) for s in others.values()):
        raise HTTPException(409, "room_taken")
    if any(TALKS[i]["speaker"] == talk["speaker"] and clash(slot, s)
           for i, s in others.items()):
        raise HTTPException(409, "speaker_busy")
    SLOTS[talk_id] = slot
    return slot_out(talk_id)


def slot_out(talk_id: int) -> dict:
    slot, talk = SLOTS[talk_id], TALKS[talk_id]
    return {"talk_id": talk_id, "title": talk["title"], "speaker": talk["speaker"],
            "day": slot["day"], "room": slot["room"], "start": hhmm(slot["begin"]),
            "end": hhmm(slot["finish"])}


@app.get("/schedule")
def schedule(user: AnyUser, day: Annotated[int, Query(ge=1, le=${days})]):
    entries = [slot_out(i) for i, s in SLOTS.items() if s["day"] == day]
    return sorted(entries, key=lambda e: (e["start"], e["room"]))


def basic(username, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.get("/talks", headers=basic("${s1}", "${s1_pw}"))),
    row(client.post("/talks/1/reviews", json={"score": ${score_max}, "comment": "  Great  "},
                    headers=basic("${r2}", "${r2_pw}"))),
    row(client.get("/talks/1/score", headers=basic("${chair}", "${chair_pw}"))),
    row(client.get("/me")),
]
'''

PROBES = '''\
import base64

SCORE_MIN, SCORE_MAX = ${score_min}, ${score_max}
REVIEWERS = [("${r1}", "${r1_pw}"), ("${r2}", "${r2_pw}"), ("${r3}", "${r3_pw}"),
             ("${r4}", "${r4_pw}")]
TRACKS = ${tracks__repr}
DURATIONS = ${durations__repr}
ROOMS = ${rooms__repr}


def _basic(username, password):
    raw = f"{username}:{password}".encode()
    return {"Authorization": "Basic " + base64.b64encode(raw).decode()}


CHAIR = _basic("${chair}", "${chair_pw}")
R = [_basic(*pair) for pair in REVIEWERS]
S1, S2 = _basic("${s1}", "${s1_pw}"), _basic("${s2}", "${s2_pw}")


''' + late_body.probe_source(
    [("POST", "/speakers"), ("POST", "/talks"), ("POST", "/talks/1/reviews"),
     ("POST", "/talks/1/decision"), ("PUT", "/talks/1/slot")],
    [("no credentials", "{}"), ("wrong password", '_basic("${s1}", "wrong")'),
     ("speaker", "S1"), ("reviewer", "R[1]"), ("chair", "CHAIR")], row="_gist") + '''


''' + rows_without_top_ids(("id", "talk_id")) + '''

def _gist(r):
    """Status and what went wrong: the code of an error; for a 422 the locations of its
    failures (their types depend on how a rule is written, their places do not)."""
    body = r.json()
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, list):
        return [r.status_code, [list(loc) for loc in sorted({tuple(e["loc"]) for e in detail})]]
    return [r.status_code, detail if detail is not None else "ok"]


def _name(prefix, number):
    """A username of lowercase letters only: the prefix and one letter per number."""
    return prefix + "abcdefghijklmnopqrstuvwxyz"[number]


def _speaker(client, username):
    """A fresh speaker (no talks yet): their credentials."""
    client.post("/speakers", json={"username": username, "password": "pass-" + username},
                headers=CHAIR)
    return _basic(username, "pass-" + username)


def _talk(client, who, title, track=None, minutes=None):
    body = {"title": title, "track": track or TRACKS[0], "minutes": minutes or DURATIONS[0]}
    return client.post("/talks", json=body, headers=who)


def _talk_id(client, who, title, **kw):
    return _talk(client, who, title, **kw).json()["id"]


def _review(client, talk_id, reviewer, score, comment=None):
    body = {"score": score} if comment is None else {"score": score, "comment": comment}
    return client.post(f"/talks/{talk_id}/reviews", json=body, headers=R[reviewer])


def _accepted(client, who, title, minutes=None):
    talk_id = _talk_id(client, who, title, minutes=minutes)
    for reviewer in range(${min_reviews}):
        _review(client, talk_id, reviewer, SCORE_MAX)
    client.post(f"/talks/{talk_id}/decision", json={"decision": "accept"}, headers=CHAIR)
    return talk_id


def probe_credentials_required(client):
    rows = []
    routes = [("GET", "/me"), ("POST", "/speakers"), ("POST", "/talks"), ("GET", "/talks"),
              ("GET", "/talks/1"), ("POST", "/talks/1/withdraw"),
              ("POST", "/talks/1/reviews"), ("GET", "/talks/1/reviews"),
              ("GET", "/talks/1/score"), ("POST", "/talks/1/decision"),
              ("PUT", "/talks/1/slot"), ("GET", "/schedule")]
    for headers in [{}, _basic("${s1}", "wrong"), _basic("nobody", "${s1_pw}"),
                    {"Authorization": "Basic !!!not-base64"}, {"Authorization": "Basic "},
                    {"Authorization": "Bearer " + S1["Authorization"][6:]},
                    {"Authorization": "Basic " + base64.b64encode(b"${s1}").decode()},
                    _basic("${s1}", "")]:
        for method, path in routes:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_credentials_parsing(client):
    lower = {"Authorization": "basic " + S1["Authorization"][6:]}
    upper = {"Authorization": "BASIC " + S2["Authorization"][6:]}
    return [_row(client.get("/me", headers=lower)), _row(client.get("/me", headers=upper)),
            _row(client.get("/me", headers=_basic("${s1}".upper(), "${s1_pw}"))),
            _row(client.get("/me", headers=_basic("${s1}", "${s1_pw}".upper()))),
            _row(client.get("/me", headers=_basic("${s1}", "${s1_pw}" + " "))),
            _row(client.get("/me", headers=_basic("${chair}", "${chair_pw}" + ":x")))]


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in [CHAIR, R[0], R[3], S1, S2]]


def probe_roles_before_validation(client):
    return [
        _row(client.post("/speakers", json={}, headers=R[0])),
        _row(client.post("/speakers", json={"username": "rolecheck", "password": "x" * 9},
                         headers=S1)),
        _row(client.post("/talks", json={}, headers=CHAIR)),
        _row(client.post("/talks/3/reviews", json={"score": "high"}, headers=S1)),
        _row(client.post("/talks/3/reviews", json={"score": SCORE_MAX}, headers=CHAIR)),
        _row(client.get("/talks/1/reviews", headers=R[1])),
        _row(client.get("/talks/abc/reviews", headers=S2)),
        _row(client.post("/talks/3/decision", json={"decision": "maybe"}, headers=R[2])),
        _row(client.put("/talks/3/slot", json={}, headers=S2)),
    ]


def probe_register_speakers(client):
    r = client.post("/speakers", json={"username": "newbie", "password": "long-enough"},
                    headers=CHAIR)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get("/me", headers=_basic("newbie", "long-enough"))))
    for name in ["newbie", "${s2}", "${r3}", "${chair}"]:
        rows.append([name, _row(client.post("/speakers", json={"username": name,
                                                               "password": "long-enough"},
                                            headers=CHAIR))])
    for body in [{"username": "ab", "password": "long-enough"},
                 {"username": "a" * 12, "password": "long-enough"},
                 {"username": "a" * 13, "password": "long-enough"},
                 {"username": "Abcd", "password": "long-enough"},
                 {"username": "abcde", "password": "x" * 7},
                 {"username": "abcdf", "password": "x" * 8}]:
        rows.append([body, _gist(client.post("/speakers", json=body, headers=CHAIR))])
    return rows


def probe_submit(client):
    who = _speaker(client, "submitter")
    r = client.post("/talks", json={"title": "  Async all the way  ", "track": TRACKS[1],
                                    "minutes": DURATIONS[-1], "status": "accepted",
                                    "speaker": "${s2}"}, headers=who)
    body = r.json()
    rows = [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/talks/{body['id']}"]]
    second = _talk(client, R[3], "Reviewers speak too")
    rows.append([second.status_code, second.json()["id"] == body["id"] + 1,
                 second.json()["speaker"]])
    shown = client.get(f"/talks/{body['id']}", headers=who)
    rows.append([shown.status_code, shown.json() == body])
    return rows


def probe_talk_validation(client):
    rows = []
    for number, change in enumerate([
            {"title": "    Four   "}, {"title": "Fiver"}, {"title": "t" * ${title_max}},
            {"title": "t" * (${title_max} + 1)}, {"title": " " + "u" * ${title_max} + " "},
            {"track": TRACKS[0].upper()}, {"track": "cooking"},
            {"minutes": DURATIONS[0] + 5}, {"minutes": str(DURATIONS[0])}, {"title": None},
            {"track": TRACKS[-1], "minutes": DURATIONS[-1]}]):
        # A fresh speaker and title per case: only validation can refuse it.
        who = _speaker(client, _name("valid", number))
        body = {"title": f"Valid title {number}", "track": TRACKS[0],
                "minutes": DURATIONS[0]} | change
        rows.append([change, _gist(client.post("/talks", json=body, headers=who))])
    who = _speaker(client, "validshape")
    for body in [{"track": TRACKS[0], "minutes": DURATIONS[0]}, [], "text"]:
        rows.append([body, _gist(client.post("/talks", json=body, headers=who))])
    return rows


def probe_talk_limit(client):
    who = _speaker(client, "prolific")
    made = [_talk(client, who, f"Prolific talk {i}") for i in range(${max_talks})]
    rows = [[r.status_code for r in made], _row(_talk(client, who, "One talk too many"))]
    client.post(f"/talks/{made[0].json()['id']}/withdraw", headers=who)
    rows.append([_talk(client, who, "One talk too many").status_code])
    rows.append(_row(_talk(client, who, "And yet another")))
    return rows


def probe_duplicate_title(client):
    first, second = _speaker(client, "dupone"), _speaker(client, "duptwo")
    original = _talk(client, first, "Types at Scale").json()["id"]
    rows = [_gist(_talk(client, second, "  types AT scale ")),
            _gist(_talk(client, first, "Types at Scale!"))]
    client.post(f"/talks/{original}/withdraw", headers=first)
    rows.append([_talk(client, second, "TYPES AT SCALE").status_code])
    rows.append(_gist(_talk(client, first, "${t3_title}")))
    return rows


def probe_limit_versus_duplicate(client):
    who = _speaker(client, "bothfail")
    for i in range(${max_talks}):
        _talk(client, who, f"Both fail {i}")
    return [_row(_talk(client, who, "${t1_title}")), _row(_talk(client, who, "Both fail 0"))]


def probe_list_scope(client):
    who = _speaker(client, "lister")
    mine = _talk_id(client, who, "Listed for its speaker")
    rows = []
    for name, headers in [("new speaker", who), ("s1", S1), ("s2", S2), ("reviewer", R[1]),
                          ("chair", CHAIR)]:
        talks = client.get("/talks", headers=headers).json()
        ids = [t["id"] for t in talks]
        rows.append([name, [i for i in ids if i <= 3], mine in ids, ids == sorted(ids),
                     sorted({t["speaker"] for t in talks if t["speaker"] in
                             ("lister", "${s1}", "${s2}", "${r1}")})])
    return rows


def probe_list_filters(client):
    who = _speaker(client, "filterer")
    _talk(client, who, "Filter one", track=TRACKS[1])
    gone = _talk_id(client, who, "Filter two", track=TRACKS[2])
    client.post(f"/talks/{gone}/withdraw", headers=who)
    _talk(client, who, "Filter three", track=TRACKS[1])
    rows = []
    for params in [{}, {"track": TRACKS[1]}, {"status": "withdrawn"},
                   {"track": TRACKS[2], "status": "withdrawn"},
                   {"track": TRACKS[1], "status": "withdrawn"}, {"track": TRACKS[0]}]:
        rows.append([params, [[t["title"], t["status"]] for t in
                              client.get("/talks", params=params, headers=who).json()]])
    for params in [{"track": "nope"}, {"status": "Withdrawn"}, {"track": ""}]:
        rows.append([params, _gist(client.get("/talks", params=params, headers=who))])
    return rows


def probe_read_talk(client):
    rows = []
    for headers in [S1, S2, R[0], CHAIR]:
        rows.append(_row(client.get("/talks/1", headers=headers)))
    rows.append(_row(client.get("/talks/99999", headers=CHAIR)))
    rows.append(_gist(client.get("/talks/one", headers=CHAIR)))
    return rows


def probe_withdraw(client):
    who = _speaker(client, "quitter")
    talk_id = _talk_id(client, who, "Soon withdrawn")
    path = f"/talks/{talk_id}/withdraw"
    rows = [_row(client.post(path, headers=S2)), _row(client.post(path, headers=R[0])),
            _row(client.post(path, headers=CHAIR))]
    done = client.post(path, headers=who)
    rows.append([done.status_code, done.json()["status"]])
    rows.append(_row(client.post(path, headers=who)))
    rejected = _talk_id(client, who, "Rejected then withdrawn")
    for reviewer in range(${min_reviews}):
        _review(client, rejected, reviewer, SCORE_MIN)
    client.post(f"/talks/{rejected}/decision", json={"decision": "reject"}, headers=CHAIR)
    rows.append(_row(client.post(f"/talks/{rejected}/withdraw", headers=who)))
    accepted = _accepted(client, who, "Accepted then withdrawn")
    r = client.post(f"/talks/{accepted}/withdraw", headers=who)
    rows.append([r.status_code, r.json().get("status")])
    rows.append(_row(client.post("/talks/99999/withdraw", headers=who)))
    return rows


def probe_review_score_type_and_bounds(client):
    talk_id = _talk_id(client, _speaker(client, "scored"), "Scores are strict")
    rows = []
    for score in [SCORE_MIN - 1, SCORE_MAX + 1, str(SCORE_MAX), float(SCORE_MAX), True,
                  SCORE_MIN + 0.5, None]:
        rows.append([score, _gist(_review(client, talk_id, 0, score))])
    rows.append(_gist(client.post(f"/talks/{talk_id}/reviews", json={}, headers=R[0])))
    rows.append([_review(client, talk_id, 0, SCORE_MIN).json()["score"],
                 _review(client, talk_id, 1, SCORE_MAX).json()["score"]])
    return rows


def probe_review_rules(client):
    who = _speaker(client, "reviewed")
    talk_id = _talk_id(client, who, "Reviewed once each")
    rows = [_row(_review(client, talk_id, 2, 3)), _row(_review(client, talk_id, 2, 4)),
            _row(_review(client, 2, 0, 3)), _row(_review(client, 99999, 0, 3))]
    withdrawn = _talk_id(client, who, "Withdrawn before review")
    client.post(f"/talks/{withdrawn}/withdraw", headers=who)
    rows.append(_row(_review(client, withdrawn, 1, 3)))
    accepted = _accepted(client, who, "Decided before review")
    rows.append(_row(_review(client, accepted, 3, 3)))
    # Two failures at once: the reviewer's own talk that is also withdrawn.
    own = _talk_id(client, R[1], "My own withdrawn talk")
    client.post(f"/talks/{own}/withdraw", headers=R[1])
    rows.append(_row(_review(client, own, 1, 3)))
    return rows


def probe_review_comment(client):
    talk_id = _talk_id(client, _speaker(client, "commented"), "Comments are trimmed")
    rows = [_row(_review(client, talk_id, 0, 3)),
            _row(_review(client, talk_id, 1, 3, "   ")),
            _row(_review(client, talk_id, 2, 3, "  tidy  ")),
            _gist(_review(client, talk_id, 3, 3, "c" * 201)),
            [_review(client, talk_id, 3, 3, " " + "c" * 200 + " ").status_code]]
    return rows


def probe_reviews_listing(client):
    talk_id = _talk_id(client, _speaker(client, "listedrev"), "Reviews by reviewer")
    for reviewer, score in [(3, 2), (0, 5), (2, 4), (1, 3)]:
        _review(client, talk_id, reviewer, score)
    listed = client.get(f"/talks/{talk_id}/reviews", headers=CHAIR)
    empty = _talk_id(client, _speaker(client, "unreviewed"), "Nobody reviewed this")
    return [[listed.status_code, [[r["reviewer"], r["score"]] for r in listed.json()]],
            _row(client.get(f"/talks/{empty}/reviews", headers=CHAIR)),
            _row(client.get("/talks/99999/reviews", headers=CHAIR))]


def probe_score_counts_and_visibility(client):
    who = _speaker(client, "counted")
    talk_id = _talk_id(client, who, "Counted reviews")
    rows = [_row(client.get(f"/talks/{talk_id}/score", headers=who))]
    _review(client, talk_id, 0, 4)
    _review(client, talk_id, 1, 2)
    for headers in [who, R[2], CHAIR, S1]:
        rows.append(_row(client.get(f"/talks/{talk_id}/score", headers=headers)))
    return rows


def probe_score_rounding(client):
    rows = []
    for number, scores in enumerate([[2, 2, 2, 3], [3, 4, 4, 4], [1, 2, 2], [1, 1, 2],
                                     [5, 4, 4, 4], [4, 4], [3, 4], [5]]):
        who = _speaker(client, _name("round", number))
        talk_id = _talk_id(client, who, f"Rounded average {number}")
        for reviewer, score in enumerate(scores):
            _review(client, talk_id, reviewer, score)
        body = client.get(f"/talks/{talk_id}/score", headers=CHAIR).json()
        rows.append([scores, body["reviews"], body["average"]])
    return rows


def probe_decision_rules(client):
    who = _speaker(client, "decided")
    talk_id = _talk_id(client, who, "Awaiting a decision")
    path = f"/talks/{talk_id}/decision"
    rows = [_row(client.post(path, json={"decision": "reject"}, headers=CHAIR))]
    for reviewer in range(${min_reviews} - 1):
        _review(client, talk_id, reviewer, SCORE_MAX)
    rows.append(_row(client.post(path, json={"decision": "accept"}, headers=CHAIR)))
    _review(client, talk_id, ${min_reviews} - 1, SCORE_MAX)
    done = client.post(path, json={"decision": "accept"}, headers=CHAIR)
    rows.append([done.status_code, done.json().get("status")])
    rows.append(_row(client.post(path, json={"decision": "reject"}, headers=CHAIR)))
    gone = _talk_id(client, who, "Withdrawn before deciding")
    client.post(f"/talks/{gone}/withdraw", headers=who)
    rows.append(_row(client.post(f"/talks/{gone}/decision", json={"decision": "reject"},
                                 headers=CHAIR)))
    rows.append(_row(client.post("/talks/99999/decision", json={"decision": "reject"},
                                 headers=CHAIR)))
    for body in [{"decision": "Accept"}, {}, {"decision": None}]:
        rows.append([body, _gist(client.post("/talks/99999/decision", json=body,
                                             headers=CHAIR))])
    return rows


def probe_accept_threshold(client):
    rows = []
    for number, scores in enumerate([${accept_at}, ${accept_below}]):
        who = _speaker(client, "threshold" + "x" * number)
        talk_id = _talk_id(client, who, f"On the threshold {number}")
        for reviewer, score in enumerate(scores):
            _review(client, talk_id, reviewer, score)
        path = f"/talks/{talk_id}/decision"
        rows.append([scores, _row(client.post(path, json={"decision": "accept"},
                                              headers=CHAIR))])
        rows.append([scores, _gist(client.post(path, json={"decision": "reject"},
                                               headers=CHAIR))])
    return rows


def probe_slot_validation(client):
    talk_id = _accepted(client, _speaker(client, "slotcheck"), "Slot validation")
    good = {"day": 1, "room": ROOMS[0], "start": "${open_hhmm}"}
    rows = []
    for change in [{"day": 0}, {"day": ${days} + 1}, {"room": ROOMS[0].lower()},
                   {"room": "Garage"}, {"start": "9:00"}, {"start": "${open_hhmm}:00"},
                   {"start": "24:00"}, {"start": "${open_hh}:07"}, {"day": "first"}]:
        r = client.put(f"/talks/{talk_id}/slot", json=good | change, headers=CHAIR)
        rows.append([change, _gist(r)])
    rows.append(_gist(client.put(f"/talks/{talk_id}/slot", json={"day": ${days},
                                                               "room": ROOMS[-1]},
                                 headers=CHAIR)))
    return rows


def probe_slot_rules(client):
    who = _speaker(client, "slotrules")
    pending = _talk_id(client, who, "Not yet accepted")
    rows = [_row(client.put(f"/talks/{pending}/slot", json={"day": 1, "room": ROOMS[0],
                                                           "start": "${open_hhmm}"},
                            headers=CHAIR)),
            _row(client.put("/talks/99999/slot", json={"day": 1, "room": ROOMS[0],
                                                      "start": "${open_hhmm}"},
                            headers=CHAIR))]
    talk_id = _accepted(client, who, "Inside the hours", minutes=DURATIONS[0])
    close = ${close_hour} * 60
    last_start = close - DURATIONS[0]
    for start in ["${before_open}", f"{last_start // 60:02d}:{last_start % 60:02d}",
                  f"{(last_start + 5) // 60:02d}:{(last_start + 5) % 60:02d}",
                  "${open_hhmm}"]:
        r = client.put(f"/talks/{talk_id}/slot", json={"day": 1, "room": ROOMS[0],
                                                       "start": start}, headers=CHAIR)
        rows.append([start, _row(r)])
    return rows


def probe_room_conflicts(client):
    def slot(talk_id, start, room=ROOMS[0], day=1):
        r = client.put(f"/talks/{talk_id}/slot", json={"day": day, "room": room,
                                                       "start": start}, headers=CHAIR)
        return [start, room, day, r.status_code, r.json().get("detail", r.json().get("end"))]

    talks = [_accepted(client, _speaker(client, _name("roomer", i)), f"Room user {i}",
                       minutes=DURATIONS[0]) for i in range(4)]
    base, length = ${open_hour} * 60 + 60, DURATIONS[0]

    def at(shift):
        return f"{(base + shift) // 60:02d}:{(base + shift) % 60:02d}"

    rows = [slot(talks[0], at(0)), slot(talks[1], at(length - 5)), slot(talks[1], at(length)),
            slot(talks[2], at(5 - length)), slot(talks[2], at(-length)),
            slot(talks[3], at(0), ROOMS[1]), slot(talks[3], at(5), ROOMS[1]),
            slot(talks[3], at(0), day=2)]
    rows.append([[talks.index(e["talk_id"]), e["start"], e["end"], e["room"]] for e in
                 client.get("/schedule", params={"day": 1}, headers=S1).json()
                 if e["talk_id"] in talks])
    return rows


def probe_speaker_busy(client):
    who = _speaker(client, "busybee")
    first = _accepted(client, who, "Busy speaker first", minutes=DURATIONS[0])
    second = _accepted(client, who, "Busy speaker second", minutes=DURATIONS[0])
    other = _accepted(client, _speaker(client, "roomhog"), "Room hog", minutes=DURATIONS[0])
    start = "${open_hh}:00"
    rows = []
    for talk_id, room, day in [(first, ROOMS[0], 2), (second, ROOMS[1], 2),
                               (other, ROOMS[1], 2), (second, ROOMS[1], 1)]:
        r = client.put(f"/talks/{talk_id}/slot", json={"day": day, "room": room,
                                                       "start": start}, headers=CHAIR)
        rows.append([room, day, r.status_code, r.json().get("detail", "placed")])
    # Both the room and the speaker are taken: the room is reported.
    r = client.put(f"/talks/{second}/slot", json={"day": 2, "room": ROOMS[0],
                                                  "start": start}, headers=CHAIR)
    rows.append(_row(r))
    return rows


def probe_schedule_listing(client):
    speakers, placed = [], []
    for number, (room, start) in enumerate([(ROOMS[1], "${late_hhmm}"),
                                            (ROOMS[0], "${late_hhmm}"),
                                            (ROOMS[1], "${open_hh}:30")]):
        speakers.append(_speaker(client, _name("sched", number)))
        talk_id = _accepted(client, speakers[-1], f"Scheduled talk {number}",
                            minutes=DURATIONS[0])
        client.put(f"/talks/{talk_id}/slot", json={"day": ${days}, "room": room,
                                                   "start": start}, headers=CHAIR)
        placed.append(talk_id)
    def day_rows():
        entries = client.get("/schedule", params={"day": ${days}}, headers=R[0]).json()
        return [[placed.index(e["talk_id"]), e["room"], e["start"], e["end"], e["day"]]
                for e in entries if e["talk_id"] in placed]
    rows = [day_rows()]
    client.post(f"/talks/{placed[1]}/withdraw", headers=speakers[1])
    rows.append(day_rows())
    for params in [{}, {"day": 0}, {"day": ${days} + 1}, {"day": "two"}]:
        rows.append([params, _gist(client.get("/schedule", params=params, headers=S2))])
    return rows
'''


def derive(p):
    tracks, durations, rooms = p["tracks"], p["durations"], p["rooms"]
    order = check_order(p["submit_order"],
                        {"limit": "check_limit", "duplicate": "check_title"},
                        {"limit": "too_many_talks", "duplicate": "duplicate_title"},
                        "submit_checks")
    open_hh = f"{p['open_hour']:02d}"
    late = p["close_hour"] * 60 - 2 * durations[0] - 60
    return order | {
        "track0": tracks[0], "track1": tracks[1],
        "dur0": durations[0], "dur1": durations[-1],
        "tracks_literal": ", ".join(f'"{t}"' for t in tracks),
        "rooms_literal": ", ".join(f'"{r}"' for r in rooms),
        "durations_literal": ", ".join(str(d) for d in durations),
        "tracks_md": ", ".join(f"`{t}`" for t in tracks),
        "rooms_md": ", ".join(f"`{r}`" for r in rooms),
        "durations_md": ", ".join(str(d) for d in durations),
        "rounding_mode": {"half_up": "ROUND_HALF_UP", "down": "ROUND_DOWN"}[p["rounding"]],
        "rounding_text": {"half_up": "rounded to one decimal place, halves rounding up "
                                     "(2.25 becomes 2.3)",
                          "down": "cut (not rounded) to one decimal place (2.29 becomes "
                                  "2.2)"}[p["rounding"]],
        "open_hh": open_hh, "open_hhmm": f"{open_hh}:00",
        "before_open": f"{p['open_hour'] - 1:02d}:55",
        "late_hhmm": f"{late // 60:02d}:{late % 60:02d}",
    }


PROMPT = '''\
Build the HTTP API of a conference's call for papers, as specified below. Keep all state in
memory, starting from the data given here.

## Access
Every request authenticates with HTTP Basic credentials: `Authorization: Basic <base64 of
username:password>` (the word `Basic` in any letter case). The username ends at the first
colon; everything after it is the password, which may itself contain colons. Usernames and
passwords are compared exactly (case-sensitive).

| username | password | role |
|---|---|---|
| `${chair}` | `${chair_pw}` | chair |
| `${r1}` | `${r1_pw}` | reviewer |
| `${r2}` | `${r2_pw}` | reviewer |
| `${r3}` | `${r3_pw}` | reviewer |
| `${r4}` | `${r4_pw}` | reviewer |
| `${s1}` | `${s1_pw}` | speaker |
| `${s2}` | `${s2_pw}` | speaker |

Speakers the chair registers later (see below) log in the same way. A missing header, another
scheme, a value that is not base64 of `username:password`, an unknown user or a wrong
password: 401 with the body `{"detail": "bad_credentials"}` and the header
`WWW-Authenticate: Basic realm="${realm}"`. Routes marked with roles answer 403
`{"detail": "forbidden"}` to users of any other role. Credentials are checked first, then the
role, before anything else about the request (path, query and body included), a body that is
not JSON too: after them such a body gets FastAPI's standard 422 for it (type `json_invalid`,
location `["body", <offset of the problem>]`).

## Errors
Every other refusal is `{"detail": <code>}` with the status given below. Invalid bodies, path
and query parameters get FastAPI's standard 422 validation response, unchanged; a request that
passes the credential and role checks is validated before any of the refusals listed for its
route.

## Users
- `GET /me`: 200 `{"username", "role"}`.
- `POST /speakers` *chair* `{"username", "password"}`: `username` 3-12 lowercase letters a-z,
  `password` at least 8 characters. 201 `{"username", "role": "speaker"}` and the header
  `Location: /speakers/<username>`; 409 `username_taken` if any user has that username.

## Talks
A talk is `{"id", "title", "track", "minutes", "speaker", "status"}`; `speaker` is the
username, `status` one of `submitted`, `accepted`, `rejected`, `withdrawn`. Speakers see only
their own talks; reviewers and the chair see every talk. A talk the caller may not see is
answered exactly like one that does not exist: 404 `talk_not_found`. The talks so far (new
ones get ids 4, 5, ... in submission order):

| id | title | track | minutes | speaker | status |
|---|---|---|---|---|---|
| 1 | ${t1_title} | ${track0} | ${dur0} | ${s1} | submitted |
| 2 | ${t2_title} | ${track1} | ${dur1} | ${r1} | submitted |
| 3 | ${t3_title} | ${track0} | ${dur1} | ${s2} | submitted |

- `POST /talks` *speaker, reviewer* `{"title", "track", "minutes"}`: `title` has leading and
  trailing whitespace removed and must then be 5-${title_max} characters; `track` one of
  ${tracks_md} (exactly); `minutes` one of ${durations_md} (a JSON number, not a string).
  Other fields in the body are ignored (a new talk is always the caller's and `submitted`). Then ${first_check} before
  ${second_check}: `too_many_talks` when the caller already has ${max_talks} talks that are
  not withdrawn, `duplicate_title` when a talk that is not withdrawn has the same (trimmed)
  title ignoring letter case. 201 with the talk and `Location: /talks/<id>`.
- `GET /talks`: 200, the talks the caller sees, sorted by id; the optional `track` (one of the
  tracks) and `status` (one of the four statuses, exactly) keep the matching ones.
- `GET /talks/{talk_id}`: 200 with the talk.
- `POST /talks/{talk_id}/withdraw`: 404 `talk_not_found`; 403 `not_owner` unless the caller
  is the talk's speaker; 409 `cannot_withdraw` if it is rejected or already withdrawn. 200 with
  the talk, now `withdrawn`; an accepted talk leaves the schedule.

## Reviews and scores
- `POST /talks/{talk_id}/reviews` *reviewer* `{"score", "comment"}`: `score` a JSON integer
  from ${score_min} to ${score_max} (strings, booleans and numbers with a fraction part or a
  decimal point, such as `4.0`, are invalid); `comment` optional, at most 200 characters once
  trimmed of leading and trailing whitespace, stored trimmed, `null` when absent or empty once
  trimmed. Then, in this order: 404 `talk_not_found`; 403 `own_talk` on the reviewer's own
  talk; 409 `not_under_review` unless the talk is `submitted`; 409 `already_reviewed` if this
  reviewer reviewed it before. 201 `{"talk_id", "reviewer", "score", "comment"}`.
- `GET /talks/{talk_id}/reviews` *chair*: 200, the talk's reviews sorted by reviewer username;
  404 `talk_not_found`.
- `GET /talks/{talk_id}/score`: anyone who sees the talk. 200 `{"talk_id", "reviews",
  "average"}`: the number of reviews and the mean of their scores ${rounding_text}, always a
  JSON float (`4.0`, not `4`); `average` is `null` without reviews.
- `POST /talks/{talk_id}/decision` *chair* `{"decision": "accept" | "reject"}`: in this order
  404 `talk_not_found`; 409 `not_pending` unless the talk is `submitted`; 409
  `not_enough_reviews` with fewer than ${min_reviews} reviews; 409 `score_too_low` when
  accepting a talk whose average (as `/score` shows it) is below ${accept_min}. 200 with the
  talk, now `accepted` or `rejected`. Rejecting needs no minimum score.

## Schedule
The conference has ${days} day(s) numbered from 1 and the rooms ${rooms_md}. Talks run from
${open_hhmm} and must end by ${close_hour}:00.
- `PUT /talks/{talk_id}/slot` *chair* `{"day", "room", "start"}`: `day` an integer from 1 to
  ${days}, `room` one of the rooms (exactly), `start` a string `HH:MM` (two digits each,
  00:00-23:59) on a multiple of 5 minutes. Places the talk from `start` for its `minutes`.
  In this order: 404 `talk_not_found`; 409 `not_accepted` unless the talk is accepted; 409
  `outside_hours` if it starts before ${open_hhmm} or ends after ${close_hour}:00; 409
  `room_taken` if it overlaps another talk in that room on that day; 409 `speaker_busy` if it
  overlaps another talk of the same speaker on that day in any room. A talk ending exactly when
  another starts does not overlap. A talk that already has a place moves (its old place does
  not count against it). 200 `{"talk_id", "title", "speaker", "day", "room", "start", "end"}`
  (`end` as `HH:MM`).
- `GET /schedule?day=<n>` (required, 1 to ${days}): 200, that day's entries (same shape),
  sorted by start, then room name.

## result
One row per request, `[status code, JSON body]`:
1. `GET /talks` as `${s1}`
2. `POST /talks/1/reviews` as `${r2}` with `{"score": ${score_max}, "comment": "  Great  "}`
3. `GET /talks/1/score` as `${chair}`
4. `GET /me` without credentials
'''

PEOPLE = [
    {"chair": "chiara", "chair_pw": "gavel-99", "r1": "rosa", "r1_pw": "red:pen",
     "r2": "ravi", "r2_pw": "margin-2", "r3": "rhea", "r3_pw": "notes-77", "r4": "rolf",
     "r4_pw": "ink:blot:3", "s1": "sam", "s1_pw": "mic:check:1", "s2": "sofia",
     "s2_pw": "slides-42", "realm": "cfp",
     "t1_title": "Typed Pipelines", "t2_title": "Caching Myths", "t3_title": "Zero Downtime"},
    {"chair": "chen", "chair_pw": "podium:7", "r1": "rene", "r1_pw": "grader-5",
     "r2": "rima", "r2_pw": "scale:10", "r3": "ruth", "r3_pw": "remark-8", "r4": "remy",
     "r4_pw": "score-44", "s1": "sid", "s1_pw": "talk:talk", "s2": "siri",
     "s2_pw": "keynote-3", "realm": "papers",
     "t1_title": "Graph Queries", "t2_title": "Fuzzing Parsers", "t3_title": "Edge Functions"},
    {"chair": "carla", "chair_pw": "agenda-11", "r1": "ravel", "r1_pw": "bolero:1",
     "r2": "rudi", "r2_pw": "verdict-6", "r3": "rana", "r3_pw": "opinion:9", "r4": "rex",
     "r4_pw": "critic-12", "s1": "stan", "s1_pw": "demo:gods", "s2": "sunny",
     "s2_pw": "lightning", "realm": "Conference 2031",
     "t1_title": "Rust for Pythonistas", "t2_title": "Quiet Alerts",
     "t3_title": "Schema Drift"},
]

FAMILY = Family(
    id="service/conference_talks",
    title="A conference call for papers: proposals, reviews, decisions and a schedule",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | {"tracks": ["web", "data", "security"], "durations": [25, 45],
                          "rooms": ["Hall A", "Hall B"], "max_talks": 2,
                          "submit_order": "limit,duplicate", "score_min": 1, "score_max": 5,
                          "accept_min": 3.5, "accept_at": [3, 4, 3, 4],
                          "accept_below": [3, 3, 4, 3], "rounding": "half_up",
                          "min_reviews": 2, "open_hour": 9, "close_hour": 17, "days": 2,
                          "title_max": 60},
    space={
        "people": PEOPLE,
        "program": [{"tracks": ["web", "data", "security"], "durations": [25, 45],
                     "rooms": ["Hall A", "Hall B"]},
                    {"tracks": ["backend", "frontend", "devops", "ml"],
                     "durations": [20, 40, 90], "rooms": ["Aurora", "Borealis", "Cosmos"]}],
        "max_talks": [2, 3],
        "submit_order": ["limit,duplicate", "duplicate,limit"],
        "scoring": [{"score_min": 1, "score_max": 5, "accept_min": 3.5,
                     "accept_at": [3, 4, 3, 4], "accept_below": [3, 3, 4, 3]},
                    {"score_min": 0, "score_max": 10, "accept_min": 3.0,
                     "accept_at": [3, 3, 3], "accept_below": [3, 3, 3, 2]}],
        "rounding": ["half_up", "down"],
        "min_reviews": [2, 3],
        "hours": [{"open_hour": 9, "close_hour": 17}, {"open_hour": 10, "close_hour": 18}],
        "days": [2, 3],
        "title_max": [60, 80],
    },
    derive=derive,
    instances=8,
    requirements=(
        Requirement("Every route needs valid Basic credentials: else 401 `bad_credentials` with "
                    "`WWW-Authenticate: Basic realm=\"${realm}\"` (malformed values included).",
                    probes="credentials_required",
                    traps=(Edit("realm dropped", """headers={"WWW-Authenticate": f'Basic realm="{REALM}"'})""",
                                """headers={"WWW-Authenticate": "Basic"})"""),
                           Edit("standard basic parsing", '''def caller(request: Request) -> dict:
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        raise unauthorized()
    try:
        decoded = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise unauthorized() from None
    # The password may itself hold colons: the username ends at the first one.
    username, colon, password = decoded.partition(":")''', '''from fastapi.security import HTTPBasic

basic_scheme = HTTPBasic(realm=REALM, auto_error=False)


def caller(credentials=Depends(basic_scheme)) -> dict:
    if credentials is None:
        raise unauthorized()
    username, colon, password = credentials.username, ":", credentials.password'''),
                           Edit("empty password accepted",
                                'if not colon or user is None or user["password"] != password:',
                                'if not colon or user is None or password and user["password"] != password:'))),
        Requirement("The `Basic` scheme is accepted in any case; the username ends at the first "
                    "colon and both parts are compared exactly.",
                    probes="credentials_parsing",
                    traps=(Edit("scheme case-sensitive", 'if scheme.lower() != "basic":',
                                'if scheme != "Basic":'),
                           Edit("split at the last colon",
                                'username, colon, password = decoded.partition(":")',
                                'username, colon, password = decoded.rpartition(":")'),
                           Edit("usernames ignore case", "    user = USERS.get(username)\n",
                                "    username = username.lower()\n    user = USERS.get(username)\n"))),
        Requirement("`GET /me` gives the username and role.",
                    probes="me",
                    traps=Edit("me without role", "def me(user: AnyUser):\n    return user",
                               'def me(user: AnyUser):\n    return {"username": user["username"]}')),
        Requirement("Credentials and the role are checked before the body, even a body that is "
                    "not JSON (then FastAPI's standard 422 `json_invalid`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to other roles, before the "
                    "path, query or body is validated.",
                    probes="roles_before_validation",
                    traps=(Edit("role checked in the handler",
                                "def submit_talk(body: TalkIn, user: Proposer, response: Response):\n",
                                "def submit_talk(body: TalkIn, user: AnyUser, response: Response):\n"
                                "    role('speaker', 'reviewer')(user)\n"),
                           Edit("chair may review",
                                'Reviewer = Annotated[dict, Depends(role("reviewer"))]',
                                'Reviewer = Annotated[dict, Depends(role("reviewer", "chair"))]'),
                           Edit("reviewers read reviews",
                                "def list_reviews(talk_id: int, user: Chair):",
                                "def list_reviews(talk_id: int, user: Reviewer):"))),
        Requirement("The chair registers speakers (201, `Location`, 3-12 lowercase letters, "
                    "password of 8+); any existing username is 409 `username_taken`.",
                    probes="register_speakers",
                    traps=(Edit("only speakers' names taken", "    if body.username in USERS:",
                                '    if USERS.get(body.username, {}).get("role") == "speaker":'),
                           without_location("speaker without Location",
                                            'response.headers["Location"] = f"/speakers/{body.username}"'),
                           Edit("password of 7 accepted", "password: str = Field(min_length=8)",
                                "password: str = Field(min_length=7)"))),
        Requirement("Submitting answers 201 with the caller's `submitted` talk (title trimmed) "
                    "and its `Location`, ids from 4; other body fields are ignored.",
                    probes="submit",
                    traps=(without_location("talk without Location",
                                            '''response.headers["Location"] = f"/talks/{talk['id']}"'''),
                           Edit("unknown fields refused",
                                'class TalkIn(BaseModel):\n',
                                'class TalkIn(BaseModel):\n    model_config = {"extra": "forbid"}\n'),
                           Edit("talk created with 200", '@app.post("/talks", status_code=201)',
                                '@app.post("/talks")'))),
        Requirement("Talk bodies: title 5-${title_max} after trimming, track and minutes from "
                    "their lists exactly; failures are FastAPI's standard 422.",
                    probes="talk_validation",
                    traps=(Edit("title not trimmed",
                                "title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=5,",
                                "title: Annotated[str, StringConstraints(min_length=5,"),
                           Edit("title of 4 accepted", "StringConstraints(strip_whitespace=True, min_length=5,",
                                "StringConstraints(strip_whitespace=True, min_length=4,"),
                           Edit("any minutes", "    minutes: Literal[${durations_literal}]",
                                "    minutes: int"))),
        Requirement("A speaker holds at most ${max_talks} talks that are not withdrawn (409 "
                    "`too_many_talks`).",
                    probes="talk_limit",
                    traps=(Edit("talk limit off by one", "if len(active) >= MAX_TALKS:",
                                "if len(active) > MAX_TALKS:"),
                           Edit("withdrawn talks count",
                                '''if t["speaker"] == user["username"] and t["status"] != "withdrawn"]''',
                                '''if t["speaker"] == user["username"]]'''))),
        Requirement("A title equal to a live talk's ignoring case is 409 `duplicate_title`; "
                    "withdrawn talks free their title.",
                    probes="duplicate_title",
                    traps=(Edit("titles compared with case",
                                'talk["title"].lower() == body.title.lower()',
                                'talk["title"] == body.title'),
                           Edit("withdrawn titles stay taken",
                                'if talk["status"] != "withdrawn" and talk["title"]',
                                'if talk["title"]'))),
        Requirement("When both apply, ${first_check} is answered before ${second_check}.",
                    probes="limit_versus_duplicate",
                    traps=checks_reversed("submit checks swapped", "submit_checks")),
        Requirement("Speakers list only their own talks, reviewers and the chair all, sorted by "
                    "id.",
                    probes="list_scope",
                    traps=(Edit("speakers list everything",
                                'return [t for t in sorted(TALKS.values(), key=lambda t: t["id"]) if sees(user, t)',
                                'return [t for t in sorted(TALKS.values(), key=lambda t: t["id"]) if True'),
                           Edit("reviewers list their own",
                                'return user["role"] != "speaker" or talk["speaker"] == user["username"]',
                                'return user["role"] == "chair" or talk["speaker"] == user["username"]'))),
        Requirement("`GET /talks` filters by `track` and `status` (validated, exact).",
                    probes="list_filters",
                    traps=(Edit("status filter free text",
                                "def list_talks(user: AnyUser, track: Track | None = None, status: Status | None = None):",
                                "def list_talks(user: AnyUser, track: Track | None = None, status: str | None = None):"),
                           Edit("track filter ignored", 'and (track is None or t["track"] == track)',
                                "and True"))),
        Requirement("A talk is read by whoever sees it; others get 404 `talk_not_found`.",
                    probes="read_talk",
                    traps=Edit("hidden talks forbidden", '''    if talk is None or not sees(user, talk):
        raise HTTPException(404, "talk_not_found")''', '''    if talk is None:
        raise HTTPException(404, "talk_not_found")
    if not sees(user, talk):
        raise HTTPException(403, "forbidden")''')),
        Requirement("Only the speaker withdraws (403 `not_owner`); rejected or withdrawn talks "
                    "are 409 `cannot_withdraw`; accepted ones may be withdrawn.",
                    probes="withdraw",
                    traps=(Edit("chair may withdraw", 'if talk["speaker"] != user["username"]:',
                                'if talk["speaker"] != user["username"] and user["role"] != "chair":'),
                           Edit("accepted talks stay", 'if talk["status"] in ("rejected", "withdrawn"):',
                                'if talk["status"] != "submitted":'))),
        Requirement("Scores are JSON integers ${score_min}-${score_max}: strings, booleans and "
                    "floats such as 4.0 are 422.",
                    probes="review_score_type_and_bounds",
                    traps=(Edit("lax integer score", "score: Annotated[StrictInt, Field(",
                                "score: Annotated[int, Field("),
                           Edit("maximum score exclusive", "le=${score_max})]", "lt=${score_max})]"))),
        Requirement("Reviews: 404, then 403 `own_talk`, then 409 `not_under_review`, then 409 "
                    "`already_reviewed`.",
                    probes="review_rules",
                    traps=(Edit("second review replaces", '''    if user["username"] in reviews:
        raise HTTPException(409, "already_reviewed")
''', ""),
                           Edit("status before ownership", '''    if talk["speaker"] == user["username"]:
        raise HTTPException(403, "own_talk")
    if talk["status"] != "submitted":
        raise HTTPException(409, "not_under_review")''', '''    if talk["status"] != "submitted":
        raise HTTPException(409, "not_under_review")
    if talk["speaker"] == user["username"]:
        raise HTTPException(403, "own_talk")'''),
                           Edit("decided talks reviewable", 'if talk["status"] != "submitted":\n        raise HTTPException(409, "not_under_review")',
                                'if talk["status"] == "withdrawn":\n        raise HTTPException(409, "not_under_review")'))),
        Requirement("A comment is trimmed, at most 200, and `null` when absent or blank.",
                    probes="review_comment",
                    traps=(Edit("blank comment kept", '"comment": body.comment or None}',
                                '"comment": body.comment}'),
                           Edit("comment not trimmed",
                                "comment: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]",
                                "comment: Annotated[str, StringConstraints(max_length=200)]"))),
        Requirement("The chair lists a talk's reviews sorted by reviewer username.",
                    probes="reviews_listing",
                    traps=Edit("reviews in arrival order", "return [reviews[name] for name in sorted(reviews)]",
                               "return list(reviews.values())")),
        Requirement("`/score` counts the reviews for anyone who sees the talk; `average` is null "
                    "without reviews.",
                    probes="score_counts_and_visibility",
                    traps=(Edit("no reviews average zero", "    if not scores:\n        return None",
                                "    if not scores:\n        return 0.0"),
                           Edit("score hidden from speakers",
                                "def score(talk_id: int, user: AnyUser):\n    visible_talk(talk_id, user)",
                                "def score(talk_id: int, user: AnyUser):\n    visible_talk(talk_id, user)\n"
                                "    role('reviewer', 'chair')(user)"))),
        Requirement("The average is ${rounding_text}, always a float.",
                    probes="score_rounding",
                    traps=(Edit("python rounding",
                                'return float(exact.quantize(Decimal("0.1"), rounding=ROUNDING))',
                                "return round(sum(scores) / len(scores), 1)"),
                           Edit("integral averages as int",
                                'return float(exact.quantize(Decimal("0.1"), rounding=ROUNDING))',
                                'value = float(exact.quantize(Decimal("0.1"), rounding=ROUNDING))\n'
                                "    return int(value) if value.is_integer() else value"))),
        Requirement("Decisions: 404, then 409 `not_pending`, then `not_enough_reviews` (under "
                    "${min_reviews}); the talk becomes accepted or rejected.",
                    probes="decision_rules",
                    traps=(Edit("quorum off by one", "< MIN_REVIEWS:", "<= MIN_REVIEWS:"),
                           Edit("decisions revisable", 'if talk["status"] != "submitted":\n        raise HTTPException(409, "not_pending")',
                                'if talk["status"] == "withdrawn":\n        raise HTTPException(409, "not_pending")'))),
        Requirement("Accepting needs an average of at least ${accept_min} (else 409 "
                    "`score_too_low`); rejecting does not.",
                    probes="accept_threshold",
                    traps=(Edit("threshold exclusive", "average(talk_id) < ACCEPT_MIN:",
                                "average(talk_id) <= ACCEPT_MIN:"),
                           Edit("threshold on rejects too", 'if body.decision == "accept" and average(talk_id) < ACCEPT_MIN:',
                                "if average(talk_id) < ACCEPT_MIN:"))),
        Requirement("Slot bodies: day 1-${days}, a listed room exactly, `HH:MM` on 5 minutes; "
                    "FastAPI's 422 otherwise.",
                    probes="slot_validation",
                    traps=(Edit("any minute", r'pattern=r"^([01][0-9]|2[0-3]):[0-5][05]$$")',
                                r'pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$$")'),
                           Edit("day unbounded", "day: int = Field(ge=1, le=${days})",
                                "day: int = Field(ge=1)"))),
        Requirement("Only accepted talks are placed (409 `not_accepted`), inside "
                    "${open_hhmm}-${close_hour}:00 (409 `outside_hours`).",
                    probes="slot_rules",
                    traps=(Edit("end may pass closing", 'slot["finish"] > CLOSE_MINUTE:',
                                "begin >= CLOSE_MINUTE:"),
                           Edit("pending talks placed", 'if talk["status"] != "accepted":\n        raise HTTPException(409, "not_accepted")',
                                'if talk["status"] == "withdrawn":\n        raise HTTPException(409, "not_accepted")'))),
        Requirement("Overlaps in a room are 409 `room_taken`; touching talks, other rooms and "
                    "days are fine; a moved talk does not clash with its old place.",
                    probes="room_conflicts",
                    traps=(Edit("touching talks overlap",
                                'slot["begin"] < other["finish"]\n            and other["begin"] < slot["finish"])',
                                'slot["begin"] <= other["finish"]\n            and other["begin"] <= slot["finish"])'),
                           Edit("moving clashes with itself",
                                "others = {i: s for i, s in SLOTS.items() if i != talk_id}",
                                "others = dict(SLOTS)"),
                           Edit("rooms ignore the day",
                                'return (slot["day"] == other["day"] and slot["begin"]',
                                'return (slot["begin"]'))),
        Requirement("A speaker's talks may not overlap in any room (409 `speaker_busy`, after "
                    "`room_taken`).",
                    probes="speaker_busy",
                    traps=(Edit("speakers double-booked", '''    if any(TALKS[i]["speaker"] == talk["speaker"] and clash(slot, s)
           for i, s in others.items()):
        raise HTTPException(409, "speaker_busy")
''', ""),
                           Edit("speaker before room", '''    if any(s["room"] == body.room and clash(slot, s) for s in others.values()):
        raise HTTPException(409, "room_taken")
    if any(TALKS[i]["speaker"] == talk["speaker"] and clash(slot, s)
           for i, s in others.items()):
        raise HTTPException(409, "speaker_busy")''', '''    if any(TALKS[i]["speaker"] == talk["speaker"] and clash(slot, s)
           for i, s in others.items()):
        raise HTTPException(409, "speaker_busy")
    if any(s["room"] == body.room and clash(slot, s) for s in others.values()):
        raise HTTPException(409, "room_taken")'''))),
        Requirement("`GET /schedule` needs a day 1-${days}, lists it by start then room with "
                    "`end`; withdrawn talks leave it.",
                    probes="schedule_listing",
                    traps=(Edit("schedule by talk id", 'return sorted(entries, key=lambda e: (e["start"], e["room"]))',
                                'return sorted(entries, key=lambda e: e["talk_id"])'),
                           Edit("withdrawn talks stay scheduled", "    SLOTS.pop(talk_id, None)\n", ""),
                           Edit("day optional", "day: Annotated[int, Query(ge=1, le=${days})]):",
                                "day: Annotated[int, Query(ge=1, le=${days})] = 1):"))),
    ),
)
