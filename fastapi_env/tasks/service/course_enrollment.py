"""Service tier: a course-enrollment service specified like a product document (10 routes, API
keys with two roles, a seeded catalogue and grade history, courses with prerequisites and seat
limits, enrollment rules checked in a stated order, drops, grade entry by the course's own
instructor, retakes after a failing grade, a transcript with a weighted GPA, cursor pagination).

The parameters change what a correct app answers: the users and role names, the catalogue and
its history, the credit limit, the lowest passing grade, whether grades may be changed, which of
two enrollment failures wins, and the page sizes and seat bound."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.security import APIKeyHeader
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

INSTRUCTOR, STUDENT = ${instructor_role__repr}, ${student_role__repr}
KEYS = {
    ${k_i1__repr}: {"name": ${i1__repr}, "role": INSTRUCTOR},
    ${k_i2__repr}: {"name": ${i2__repr}, "role": INSTRUCTOR},
    ${k_s1__repr}: {"name": ${s1__repr}, "role": STUDENT},
    ${k_s2__repr}: {"name": ${s2__repr}, "role": STUDENT},
    ${k_s3__repr}: {"name": ${s3__repr}, "role": STUDENT},
    ${k_s4__repr}: {"name": ${s4__repr}, "role": STUDENT},
}
STUDENTS = {u["name"] for u in KEYS.values() if u["role"] == STUDENT}
COURSES: dict[str, dict] = {}
for _code, _title, _credits, _seats, _prerequisites, _instructor in ${catalogue__repr}:
    COURSES[_code] = {"code": _code, "title": _title, "credits": _credits, "seats": _seats,
                      "prerequisites": _prerequisites, "instructor": _instructor}
# (course code, student) -> enrollment; the history's grades are already entered.
ENROLLMENTS: dict[tuple[str, str], dict] = {
    (_code, _student): {"course": _code, "student": _student, "status": "completed",
                        "grade": _grade}
    for _student, _code, _grade in ${history__repr}
}
POINTS = {"A": 4, "B": 3, "C": 2, "D": 1, "F": 0}
PASSING = set(${passing__repr})
MAX_CREDITS = ${max_credits}
REGRADE_ALLOWED = ${regrade_allowed}

app = FastAPI()
api_key = APIKeyHeader(name="X-API-Key", auto_error=False)


''' + late_body.ROUTE_CLASS + '''


class Refused(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None, **extra):
        self.status, self.code, self.headers, self.extra = status, code, headers, extra


def error(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"status": status, "code": code, **extra}, status_code=status,
                        headers=headers)


@app.exception_handler(Refused)
async def on_refused(request: Request, exc: Refused):
    return error(exc.status, exc.code, exc.headers, **exc.extra)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "no_such_route" if exc.status_code == 404 else "method_not_allowed"
    return error(exc.status_code, code, exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {".".join(str(part) for part in e["loc"][:2]) for e in exc.errors()}
    return error(422, "invalid", fields=sorted(fields))


class CourseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z]{2,4}[0-9]{3}$$")
    title: str = Field(min_length=1, max_length=80)
    credits: int = Field(ge=1, le=6)
    seats: int = Field(ge=1, le=${max_seats})
    prerequisites: list[str] = Field(default_factory=list, max_length=3)


class CoursePatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Defaults are not validated: omitted stays None, an explicit null is invalid.
    title: str = Field(None, min_length=1, max_length=80)
    seats: int = Field(None, ge=1, le=${max_seats})


class GradeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    grade: Literal["A", "B", "C", "D", "F"]


def current_user(key: Annotated[str | None, Depends(api_key)]) -> dict:
    if key is None or key not in KEYS:
        raise Refused(401, "unauthenticated", {"WWW-Authenticate": "ApiKey"})
    return KEYS[key]


def role(required: str):
    def check(user: Annotated[dict, Depends(current_user)]) -> dict:
        if user["role"] != required:
            raise Refused(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(current_user)]
Instructor = Annotated[dict, Depends(role(INSTRUCTOR))]
Student = Annotated[dict, Depends(role(STUDENT))]


def find_course(code: str) -> dict:
    if code not in COURSES:
        raise Refused(404, "course_not_found")
    return COURSES[code]


def taught_course(code: str, user: Instructor) -> dict:
    course = find_course(code)
    if course["instructor"] != user["name"]:
        raise Refused(403, "not_your_course")
    return course


TaughtCourse = Annotated[dict, Depends(taught_course)]


def in_progress(course: dict) -> int:
    return sum(1 for e in ENROLLMENTS.values()
               if e["course"] == course["code"] and e["status"] == "enrolled")


def course_out(course: dict) -> dict:
    return {**course, "prerequisites": list(course["prerequisites"]),
            "enrolled": in_progress(course)}


def passed(student: str, code: str) -> bool:
    return ENROLLMENTS.get((code, student), {}).get("grade") in PASSING


def check_prerequisites(course: dict, student: str) -> None:
    missing = [p for p in course["prerequisites"] if not passed(student, p)]
    if missing:
        raise Refused(409, "missing_prerequisites", missing=missing)


def check_seats(course: dict, student: str) -> None:
    if in_progress(course) >= course["seats"]:
        raise Refused(409, "course_full")


def check_credits(course: dict, student: str) -> None:
    load = sum(COURSES[e["course"]]["credits"] for e in ENROLLMENTS.values()
               if e["student"] == student and e["status"] == "enrolled")
    if load + course["credits"] > MAX_CREDITS:
        raise Refused(409, "credit_limit")


@app.get("/me")
def me(user: AnyUser):
    return user


@app.get("/courses")
def list_courses(
    user: AnyUser,
    q: str | None = None,
    instructor: str | None = None,
    has_seats: bool | None = None,
    after: str | None = None,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
):
    courses = [course_out(c) for c in sorted(COURSES.values(), key=lambda c: c["code"])]
    if q is not None:
        courses = [c for c in courses if q.lower() in c["title"].lower()]
    if instructor is not None:
        courses = [c for c in courses if c["instructor"] == instructor]
    if has_seats is not None:
        courses = [c for c in courses if (c["enrolled"] < c["seats"]) == has_seats]
    if after is not None:
        courses = [c for c in courses if c["code"] > after]
    page = courses[:limit]
    return {"items": page, "next": page[-1]["code"] if len(courses) > limit else None}


@app.post("/courses", status_code=201)
def create_course(user: Instructor, body: CourseIn, response: Response):
    if body.code in COURSES:
        raise Refused(409, "course_exists")
    unknown = sorted({p for p in body.prerequisites if p not in COURSES})
    if unknown:
        raise Refused(400, "unknown_prerequisites", codes=unknown)
    course = {**body.model_dump(), "prerequisites": sorted(set(body.prerequisites)),
              "instructor": user["name"]}
    COURSES[body.code] = course
    response.headers["Location"] = f"/courses/{body.code}"
    return course_out(course)


@app.get("/courses/{code}")
def read_course(code: str, user: AnyUser):
    return course_out(find_course(code))


@app.patch("/courses/{code}")
def update_course(course: TaughtCourse, body: CoursePatch):
    changes = body.model_dump(exclude_unset=True)
    if "seats" in changes and changes["seats"] < in_progress(course):
        raise Refused(409, "seats_below_enrolled")
    course.update(changes)
    return course_out(course)


@app.post("/courses/{code}/enrollments", status_code=201)
def enroll(user: Student, course: Annotated[dict, Depends(find_course)], response: Response):
    student = user["name"]
    record = ENROLLMENTS.get((course["code"], student))
    if record is not None and record["status"] == "enrolled":
        raise Refused(409, "already_enrolled")
    if record is not None and record["grade"] in PASSING:
        raise Refused(409, "already_passed")
    for check in ${check_order}:
        check(course, student)
    check_credits(course, student)
    record = {"course": course["code"], "student": student, "status": "enrolled",
              "grade": None}
    ENROLLMENTS[(course["code"], student)] = record
    response.headers["Location"] = f"/courses/{course['code']}/enrollments/{student}"
    return record


@app.get("/courses/{code}/enrollments")
def course_enrollments(course: TaughtCourse):
    return sorted((e for e in ENROLLMENTS.values() if e["course"] == course["code"]),
                  key=lambda e: e["student"])


@app.delete("/courses/{code}/enrollments/{student}", status_code=204)
def drop(code: str, student: str, user: AnyUser):
    course = find_course(code)
    if user["role"] == STUDENT and user["name"] != student:
        raise Refused(403, "not_yours")
    if user["role"] == INSTRUCTOR and course["instructor"] != user["name"]:
        raise Refused(403, "not_your_course")
    record = ENROLLMENTS.get((code, student))
    if record is None:
        raise Refused(404, "not_enrolled")
    if record["status"] == "completed":
        raise Refused(409, "already_graded")
    del ENROLLMENTS[(code, student)]
    return Response(status_code=204)


@app.put("/courses/{code}/enrollments/{student}/grade")
def enter_grade(student: str, course: TaughtCourse, body: GradeIn):
    record = ENROLLMENTS.get((course["code"], student))
    if record is None:
        raise Refused(404, "not_enrolled")
    if record["status"] == "completed" and not REGRADE_ALLOWED:
        raise Refused(409, "already_graded")
    record.update(status="completed", grade=body.grade)
    return record


@app.get("/students/{name}/transcript")
def transcript(name: str, user: AnyUser):
    if user["role"] == STUDENT and user["name"] != name:
        raise Refused(403, "forbidden")
    if name not in STUDENTS:
        raise Refused(404, "student_not_found")
    mine = sorted((e for e in ENROLLMENTS.values() if e["student"] == name),
                  key=lambda e: e["course"])
    done = [e for e in mine if e["status"] == "completed"]
    credits = {e["course"]: COURSES[e["course"]]["credits"] for e in mine}
    weight = sum(credits[e["course"]] for e in done)
    points = sum(POINTS[e["grade"]] * credits[e["course"]] for e in done)
    return {
        "student": name,
        "completed": [{"code": e["course"], "title": COURSES[e["course"]]["title"],
                       "credits": credits[e["course"]], "grade": e["grade"]} for e in done],
        "current": [e["course"] for e in mine if e["status"] == "enrolled"],
        "credits_earned": sum(credits[e["course"]] for e in done if e["grade"] in PASSING),
        "gpa": round(points / weight, 2) if weight else None,
    }


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
teacher, learner = {"X-API-Key": ${k_i1__repr}}, {"X-API-Key": ${k_s4__repr}}
result = [
    row(client.post("/courses", json={"code": ${new_code__repr}, "title": "Seminar",
                                      "credits": 2, "seats": 5}, headers=teacher)),
    row(client.post("/courses/${new_code}/enrollments", headers=learner)),
    row(client.get("/courses/${new_code}", headers=learner)),
    row(client.get("/students/${s1}/transcript", headers=teacher)),
    row(client.get("/courses")),
]
'''

PROBES = '''\
I1, I2 = {"X-API-Key": ${k_i1__repr}}, {"X-API-Key": ${k_i2__repr}}
S1, S2 = {"X-API-Key": ${k_s1__repr}}, {"X-API-Key": ${k_s2__repr}}
S3, S4 = {"X-API-Key": ${k_s3__repr}}, {"X-API-Key": ${k_s4__repr}}
FIRST, SECOND, THIRD, FOURTH = ${codes__repr}


''' + ROW + late_body.probe_source(
    [("POST", "/courses"), ("PATCH", "/courses/${i1_code}"), ("PATCH", "/courses/NONE999"),
     ("PUT", "/courses/${i1_code}/enrollments/${s1}/grade")],
    [("no key", "{}"), ("unknown key", '{"X-API-Key": "nope"}'), ("student", "S1"),
     ("other instructor", "I2"), ("course's instructor", "I1")]) + '''

def _course(client, code, credits=1, seats=5, prerequisites=(), headers=I1, title=None):
    body = {"code": code, "title": title or f"Course {code}", "credits": credits,
            "seats": seats, "prerequisites": list(prerequisites)}
    return client.post("/courses", json=body, headers=headers)


def _enroll(client, code, headers):
    return client.post(f"/courses/{code}/enrollments", headers=headers)


def _drop(client, code, student, headers):
    return client.delete(f"/courses/{code}/enrollments/{student}", headers=headers)


def _grade(client, code, student, grade, headers=I1):
    return client.put(f"/courses/{code}/enrollments/{student}/grade", json={"grade": grade},
                      headers=headers)


def probe_keys_required(client):
    rows = []
    for headers in [{}, {"X-API-Key": ""}, {"X-API-Key": "nope"}, {"X-API-Key": ${s1__repr}},
                    {"Authorization": "Bearer " + ${k_s1__repr}},
                    {"X-API-Key": ${k_s1__repr}.upper()}]:
        for method, path in [("GET", "/me"), ("GET", "/courses"), ("POST", "/courses"),
                             ("GET", f"/courses/{FIRST}"), ("PATCH", f"/courses/{FIRST}"),
                             ("POST", f"/courses/{FIRST}/enrollments"),
                             ("GET", f"/courses/{FIRST}/enrollments"),
                             ("DELETE", f"/courses/{FIRST}/enrollments/${s1}"),
                             ("PUT", f"/courses/{FIRST}/enrollments/${s1}/grade"),
                             ("GET", "/students/${s1}/transcript")]:
            r = client.request(method, path, headers=headers, json={"grade": "Z"})
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (I1, I2, S1, S2, S3, S4)]


def probe_transcript(client):
    return [_row(client.get(f"/students/{name}/transcript", headers=headers))
            for name, headers in [(${s1__repr}, S1), (${s2__repr}, I2), (${s3__repr}, S3),
                                  (${s3__repr}, S1), ("nobody", S1), ("nobody", I1),
                                  (${i1__repr}, I1)]]


def probe_transcript_in_progress(client):
    _course(client, "TP101", credits=2)
    _course(client, "TP102", credits=1)
    _enroll(client, "TP102", S4)
    _enroll(client, "TP101", S4)
    rows = [_row(client.get("/students/${s4}/transcript", headers=S4))]
    _grade(client, "TP101", ${s4__repr}, "A")
    rows.append(_row(client.get("/students/${s4}/transcript", headers=I1)))
    _drop(client, "TP102", ${s4__repr}, S4)
    return rows


def probe_roles(client):
    return [_row(_course(client, "RL101", headers=S1)),
            _row(client.post("/courses", json={"code": "bad"}, headers=S2)),
            _row(_enroll(client, FIRST, I1)),
            _row(client.patch(f"/courses/{FIRST}", json={"title": "Mine"}, headers=S1)),
            _row(client.get(f"/courses/{FIRST}/enrollments", headers=S1)),
            _row(client.put(f"/courses/{FIRST}/enrollments/${s1}/grade", json={"grade": "A"},
                            headers=S3)),
            _row(client.put(f"/courses/{FIRST}/enrollments/${s1}/grade", json={"grade": "Q"},
                            headers=S3)),
            _row(client.get(f"/courses/{FIRST}", headers=S4))]


def probe_create_course(client):
    r = _course(client, "NEW101", credits=3, seats=4, prerequisites=[SECOND, FIRST, FIRST],
                headers=I2, title="Brand new")
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get(r.headers["location"], headers=S1)))
    r = client.post("/courses", json={"code": "NEW102", "title": "No prerequisites",
                                      "credits": 1, "seats": 1}, headers=I1)
    rows.append([r.status_code, r.json()["prerequisites"], r.json()["instructor"]])
    return rows


def probe_course_validation(client):
    rows = []
    base = {"title": "Valid", "credits": 2, "seats": 3}
    for n, body in enumerate([{"code": "cs901"}, {"code": "C901"}, {"code": "ABCDE901"},
                              {"code": "CS91"}, {"code": "CS9011"}, {"code": "CS901 "},
                              {"code": "CS902\\n"}, {"code": "ABCD903"}, {"code": "AB904"},
                              {"code": "VC905", "title": ""}, {"code": "VC906", "title": "t" * 80},
                              {"code": "VC907", "title": "t" * 81}, {"code": "VC908", "credits": 0},
                              {"code": "VC909", "credits": 6}, {"code": "VC910", "credits": 7},
                              {"code": "VC911", "seats": 0},
                              {"code": "VC912", "seats": ${max_seats}},
                              {"code": "VC913", "seats": ${max_seats} + 1},
                              {"code": "VC914", "prerequisites": [FIRST, FIRST, FIRST, FIRST]},
                              {"code": "VC915", "prerequisites": FIRST},
                              {"code": "VC916", "instructor": ${i2__repr}}]):
        r = client.post("/courses", json=base | body, headers=I1)
        rows.append([n, r.status_code, r.json() if r.status_code >= 400 else r.json()["code"]])
    for body in [{}, [], {"code": "VC917", "title": "x"}]:
        rows.append(_row(client.post("/courses", json=body, headers=I1)))
    return rows


def probe_course_conflicts(client):
    return [_row(_course(client, FIRST)),
            _row(_course(client, "CF101", prerequisites=["ZZ999", "AA999", FIRST])),
            _row(_course(client, FIRST, prerequisites=["ZZ999"])),
            _row(_course(client, "CF102", prerequisites=["CF102"])),
            _row(client.get("/courses/CF101", headers=S1)),
            _row(client.get(f"/courses/{FIRST}", headers=S1))]


def probe_list_courses(client):
    for code, seats in [("QQ103", 1), ("QQ101", 2), ("QQ105", 1), ("QQ102", 3), ("QQ104", 2)]:
        _course(client, code, seats=seats, title=f"Quux {code[-1]}",
                headers=I2 if code in ("QQ102", "QQ105") else I1)
    _enroll(client, "QQ103", S4)
    _enroll(client, "QQ105", S4)
    rows = []
    for params in [{"q": "quux"}, {"q": "QUUX", "limit": 2}, {"q": "quux", "limit": 2,
                                                              "after": "QQ102"},
                   {"q": "quux", "limit": 2, "after": "QQ104"}, {"q": "quux", "after": "QQ105"},
                   {"q": "quux", "after": "QQ1025"}, {"q": "quux", "has_seats": "false"},
                   {"q": "quux", "has_seats": "true", "instructor": ${i1__repr}},
                   {"q": "quux", "instructor": ${i2__repr}, "limit": 1},
                   {"q": "quux 4"}, {"q": "nothing"}]:
        body = client.get("/courses", params=params, headers=S1).json()
        rows.append([params, [c["code"] for c in body["items"]], body["next"]])
    first = client.get("/courses", params={"q": "quux", "limit": 1}, headers=S1).json()
    rows.append(first["items"])
    _drop(client, "QQ103", ${s4__repr}, S4)
    _drop(client, "QQ105", ${s4__repr}, S4)
    return rows


def probe_list_validation(client):
    rows = []
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"limit": ${limit_max}},
                   {"has_seats": "maybe"}, {"limit": "many", "has_seats": "x"}]:
        r = client.get("/courses", params=params, headers=S2)
        rows.append([params, r.status_code, r.json() if r.status_code >= 400
                     else len(r.json()["items"]) <= ${limit_max}])
    return rows


def probe_read_course(client):
    return [_row(client.get(f"/courses/{c}", headers=S3)) for c in (FIRST, FOURTH)] + [
        _row(client.get(f"/courses/{FIRST.lower()}", headers=S3)),
        _row(client.get("/courses/NONE999", headers=I1))]


def probe_update_course(client):
    _course(client, "UP101", seats=3)
    _enroll(client, "UP101", S1)
    _enroll(client, "UP101", S2)
    rows = [_row(client.patch("/courses/UP101", json={"title": "Updated"}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"seats": 1}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"seats": 2}, headers=I1)),
            _row(client.patch("/courses/UP101", json={}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"title": None}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"credits": 5}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"seats": ${max_seats} + 1}, headers=I1)),
            _row(client.patch("/courses/UP101", json={"title": "Stolen"}, headers=I2)),
            _row(client.patch("/courses/UP101", json={"seats": "lots"}, headers=I2)),
            _row(client.patch("/courses/NONE999", json={"seats": "lots"}, headers=I2)),
            _row(client.get("/courses/UP101", headers=I2))]
    _drop(client, "UP101", ${s1__repr}, S1)
    _drop(client, "UP101", ${s2__repr}, S2)
    return rows


def probe_enroll(client):
    _course(client, "EN101", credits=2, seats=4)
    r = _enroll(client, "EN101", S3)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(_enroll(client, "EN101", S3)))
    rows.append(_row(client.get("/courses/EN101", headers=S3)))
    rows.append(_row(_enroll(client, "NONE999", S3)))
    _drop(client, "EN101", ${s3__repr}, S3)
    return rows


def probe_prerequisites(client):
    rows = [[name, _row(_enroll(client, SECOND, headers))]
            for name, headers in [("s4", S4), ("s1", S1), ("s2", S2), ("s3", S3)]]
    rows.append(_row(_enroll(client, THIRD, S4)))
    rows.append(_row(_enroll(client, THIRD, S1)))
    for student, headers in [(${s1__repr}, S1), (${s3__repr}, S3)]:
        _drop(client, SECOND, student, headers)
    return rows


def probe_course_full(client):
    _course(client, "FU101", seats=1)
    rows = [_row(_enroll(client, "FU101", S1)), _row(_enroll(client, "FU101", S2)),
            _row(client.get("/courses", params={"q": "FU101", "has_seats": "false"},
                            headers=S2))]
    _drop(client, "FU101", ${s1__repr}, S1)
    rows.append(_row(_enroll(client, "FU101", S2)))
    _drop(client, "FU101", ${s2__repr}, S2)
    return rows


def probe_full_and_missing_prerequisite(client):
    _course(client, "OR101", seats=1, prerequisites=[FIRST])
    _enroll(client, "OR101", S1)
    rows = [_row(_enroll(client, "OR101", S4))]
    _drop(client, "OR101", ${s1__repr}, S1)
    rows.append(_row(_enroll(client, "OR101", S4)))
    return rows


def probe_credit_limit(client):
    _course(client, "CL101", credits=6, seats=9)
    _course(client, "CL102", credits=${max_credits} - 6, seats=9)
    _course(client, "CL103", credits=1, seats=9)
    rows = [_row(_enroll(client, c, S2)) for c in ("CL101", "CL102", "CL103")]
    rows.append(_row(_grade(client, "CL102", ${s2__repr}, "B")))
    rows.append(_row(_enroll(client, "CL103", S2)))
    for code in ("CL101", "CL103"):
        _drop(client, code, ${s2__repr}, S2)
    return rows


def probe_retake_after_failing(client):
    _course(client, "RT101", credits=2)
    _enroll(client, "RT101", S4)
    rows = [_row(_grade(client, "RT101", ${s4__repr}, "F")), _row(_enroll(client, "RT101", S4)),
            _row(client.get("/students/${s4}/transcript", headers=S4)),
            _row(_grade(client, "RT101", ${s4__repr}, "${lowest_pass}")),
            _row(_enroll(client, "RT101", S4))]
    _course(client, "RT102", credits=2)
    _enroll(client, "RT102", S3)
    _grade(client, "RT102", ${s3__repr}, "${highest_fail}")
    rows.append(_row(_enroll(client, "RT102", S3)))
    _drop(client, "RT102", ${s3__repr}, S3)
    return rows


def probe_drop_rules(client):
    _course(client, "DR101", seats=5)
    for headers in (S1, S2, S3):
        _enroll(client, "DR101", headers)
    _grade(client, "DR101", ${s3__repr}, "A")
    return [_row(_drop(client, "DR101", ${s1__repr}, S2)),
            _row(_drop(client, "DR101", ${s1__repr}, I2)),
            _row(_drop(client, "DR101", ${s1__repr}, S1)),
            _row(_drop(client, "DR101", ${s1__repr}, S1)),
            _row(_drop(client, "DR101", ${s2__repr}, I1)),
            _row(_drop(client, "DR101", ${s3__repr}, S3)),
            _row(_drop(client, "DR101", ${s4__repr}, I1)),
            _row(_drop(client, "NONE999", ${s1__repr}, S1)),
            _row(client.get("/courses/DR101", headers=S1))]


def probe_grading(client):
    _course(client, "GR101", credits=3, seats=4)
    _enroll(client, "GR101", S1)
    _enroll(client, "GR101", S2)
    return [_row(_grade(client, "GR101", ${s1__repr}, "B")),
            _row(_grade(client, "GR101", ${s4__repr}, "A")),
            _row(_grade(client, "GR101", ${s2__repr}, "B", headers=I2)),
            _row(client.put("/courses/GR101/enrollments/${s2}/grade", json={"grade": "E"},
                            headers=I2)),
            _row(client.put("/courses/GR101/enrollments/${s2}/grade", json={"grade": "a"},
                            headers=I1)),
            _row(client.put("/courses/GR101/enrollments/${s2}/grade",
                            json={"grade": "A", "points": 4}, headers=I1)),
            _row(client.put("/courses/GR101/enrollments/${s2}/grade", json={}, headers=I1)),
            _row(_grade(client, "NONE999", ${s2__repr}, "A")),
            _row(client.get("/courses/GR101", headers=I1)),
            _row(client.get("/courses/GR101/enrollments", headers=I1))]


def probe_regrading(client):
    _course(client, "RG101", credits=2)
    _enroll(client, "RG101", S1)
    return [_row(_grade(client, "RG101", ${s1__repr}, "C")),
            _row(_grade(client, "RG101", ${s1__repr}, "A")),
            _row(client.get("/courses/RG101/enrollments", headers=I1))]


def probe_course_enrollments(client):
    _course(client, "CE101", seats=5, headers=I2)
    for headers in (S3, S1, S4):
        _enroll(client, "CE101", headers)
    _grade(client, "CE101", ${s4__repr}, "A", headers=I2)
    rows = [_row(client.get("/courses/CE101/enrollments", headers=I2)),
            _row(client.get("/courses/CE101/enrollments", headers=I1)),
            _row(client.get("/courses/NONE999/enrollments", headers=I1))]
    for student, headers in [(${s3__repr}, S3), (${s1__repr}, S1)]:
        _drop(client, "CE101", student, headers)
    return rows


def probe_unknown_paths_and_methods(client):
    rows = []
    for method, path in [("GET", "/nothing"), ("DELETE", "/me"),
                         ("GET", "/students/${s1}/transcript/x"),
                         ("POST", "/students/${s1}/transcript")]:
        r = client.request(method, path, headers=S1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_openapi_api_key_scheme(client):
    doc = client.get("/openapi.json").json()
    schemes = [[s.get("type"), s.get("in"), s.get("name")]
               for s in doc.get("components", {}).get("securitySchemes", {}).values()]
    unsecured = sorted([path, method] for path, item in doc["paths"].items()
                       for method, op in item.items() if not op.get("security"))
    return [["schemes", schemes], ["operations without security", unsecured]]
'''

PROMPT = '''\
Build the HTTP API of a small course-enrollment service, as specified below. All state is in
memory, starting from the data given here.

## Users
Requests authenticate with the header `X-API-Key`:

| key | user | role |
|---|---|---|
| `${k_i1}` | `${i1}` | ${instructor_role} |
| `${k_i2}` | `${i2}` | ${instructor_role} |
| `${k_s1}` | `${s1}` | ${student_role} |
| `${k_s2}` | `${s2}` | ${student_role} |
| `${k_s3}` | `${s3}` | ${student_role} |
| `${k_s4}` | `${s4}` | ${student_role} |

Every route needs one of these keys (exactly); otherwise 401 `unauthenticated` with the header
`WWW-Authenticate: ApiKey`. Routes marked *${instructor_role}* or *${student_role}* answer 403
`forbidden` to the other role. Authentication, then the role, are checked before anything else
about the request, a body that is not JSON included: such a body is an invalid body like any
other, answered where the route checks its body. `GET /me` answers 200 `{"name", "role"}`. `/openapi.json` declares one
security scheme, an API key in the header `X-API-Key`, used by every operation.

## Errors
Every error body is `{"status": <status code>, "code": <code>}`, with the extra keys named
below. Invalid input (body or query) is 422 `invalid` with `"fields"`: the sorted list, without
repeats, of `"<where>.<name>"` strings (`body.title`, `query.limit`), or `"body"` when the body
is missing, not JSON or not a JSON object. Bodies with fields not listed for them are invalid. A path
that matches no route is 404 `no_such_route`; a known path with another method 405
`method_not_allowed`, with the `Allow` header. A course that does not exist is 404
`course_not_found` (codes are case-sensitive).

## Courses
A course is shown as `{"code", "title", "credits", "seats", "prerequisites", "instructor",
"enrolled"}`; `enrolled` counts its enrollments in progress (status `enrolled`): only these take
a seat. The catalogue starts with:

${catalogue_table}

- `POST /courses` *${instructor_role}* `{"code", "title", "credits", "seats", "prerequisites"}`:
  `code` is 2-4 capital letters followed by 3 digits and nothing else; `title` 1-80 characters;
  `credits` 1-6; `seats` 1-${max_seats}; `prerequisites` a list of at most 3 course codes
  (default empty), stored sorted and without repeats. Then 409 `course_exists` if the code is
  taken, then 400 `unknown_prerequisites` with `"codes"`: the sorted codes, without repeats, that
  are not in the catalogue (a course cannot require itself). 201 with the course, taught by the
  caller, and `Location: /courses/<code>`.
- `GET /courses`: 200 `{"items", "next"}`: the courses by code, filtered by the optional `q`
  (contained in the title, ignoring case), `instructor` (exact name) and `has_seats` (a boolean:
  `enrolled` below `seats` or not), then only those whose code sorts after the optional `after`
  (plain string comparison), then the first `limit` (1-${limit_max}, default ${limit_default});
  `next` is the code of the last item when more matching courses follow it, else null.
- `GET /courses/{code}`: 200 with the course.
- `PATCH /courses/{code}` *${instructor_role}*: `title` and/or `seats` (same rules; null is
  invalid; `{}` changes nothing); a `seats` below `enrolled` is 409 `seats_below_enrolled`.
  200 with the course.

## Enrollments
An enrollment is `{"course", "student", "status", "grade"}`: status `enrolled` with grade null,
or `completed` with a grade `A`, `B`, `C`, `D` or `F`. Grades ${passing_text} are passing. The
history (completed enrollments) starts as:

${history_table}

- `POST /courses/{code}/enrollments` *${student_role}* (no body) enrolls the caller: 201 with the
  enrollment and `Location: /courses/<code>/enrollments/<student>`. The first failing rule
  answers, in this order:
  1. 404 for the course;
  2. 409 `already_enrolled` if the caller is enrolled in it;
  3. 409 `already_passed` if the caller completed it with a passing grade;
  4. ${first_check_text}
  5. ${second_check_text}
  6. 409 `credit_limit` if the credits of the caller's enrollments in progress plus this
     course's would exceed ${max_credits}.

  A course completed with a failing grade may be taken again: the new enrollment replaces the
  old one (its grade leaves the transcript).
- `DELETE /courses/{code}/enrollments/{student}`: by that ${student_role} or the course's
  ${instructor_role}: 204, empty body; the enrollment is gone. In order: 404 for the course; 403
  `not_yours` for another ${student_role}; 403 `not_your_course` for another
  ${instructor_role}; 404 `not_enrolled` if the student has no enrollment in it; 409
  `already_graded` if it is completed.
- `GET /courses/{code}/enrollments` *${instructor_role}*: 200, the course's enrollments (any
  status) sorted by student name.
- `PUT /courses/{code}/enrollments/{student}/grade` *${instructor_role}* `{"grade"}`: completes
  the enrollment with the grade: 200 with it; 404 `not_enrolled` if the student has no
  enrollment in the course.
  ${regrade_text}

On these last two routes, and on `PATCH /courses/{code}`, only the course's own
${instructor_role} may act: another gets 403 `not_your_course`. The order is: authentication,
role, the course exists, it is the caller's, then the body, then the rest.

## Transcripts
`GET /students/{name}/transcript`: a ${student_role} may read only their own (any other name,
even an unknown one, is 403 `forbidden`); ${instructor_role} users read any. An unknown
${student_role} name is 404 `student_not_found`. 200 `{"student", "completed": [{"code",
"title", "credits", "grade"}, ...] (by code), "current": [codes in progress, sorted],
"credits_earned": <credits of the passing completed courses>, "gpa": <the credit-weighted
mean of the completed courses' points (A 4, B 3, C 2, D 1, F 0), rounded to 2 decimals, a
float; null with no completed course>}`.

## result
One row per request, each `[status code, JSON body]`:
1. `POST /courses` as `${i1}` with `{"code": "${new_code}", "title": "Seminar", "credits": 2,
   "seats": 5}`
2. `POST /courses/${new_code}/enrollments` as `${s4}`
3. `GET /courses/${new_code}` as `${s4}`
4. `GET /students/${s1}/transcript` as `${i1}`
5. `GET /courses` without a key
'''

CATALOGUES = {
    "cs": {"courses": [["CS101", "Intro to Programming", 4, 3, [], "i1"],
                       ["CS201", "Data Structures", 4, 2, ["CS101"], "i1"],
                       ["CS301", "Algorithms", 3, 2, ["CS201", "MA101"], "i2"],
                       ["MA101", "Calculus I", 3, 30, [], "i2"]],
           "history": [["s1", "CS101", "A"], ["s1", "MA101", "C"], ["s2", "CS101", "F"],
                       ["s3", "CS101", "D"], ["s3", "MA101", "B"]]},
    "bio": {"courses": [["BI101", "Cell Biology", 3, 3, [], "i2"],
                        ["BI201", "Genetics", 4, 2, ["BI101"], "i2"],
                        ["BI301", "Molecular Biology", 3, 2, ["BI201", "CH101"], "i1"],
                        ["CH101", "General Chemistry", 4, 25, [], "i1"]],
            "history": [["s1", "BI101", "A"], ["s1", "CH101", "C"], ["s2", "BI101", "F"],
                        ["s3", "BI101", "D"], ["s3", "CH101", "B"]]},
}
PASS_MARKS = {"D": ["A", "B", "C", "D"], "C": ["A", "B", "C"]}
FULL_TEXT = "409 `course_full` when `enrolled` has reached `seats`;"
PREREQUISITES_TEXT = ('409 `missing_prerequisites`, with `"missing"`: the course\'s '
                      "prerequisites\n     (in their stored order) the caller has not completed "
                      "with a passing grade;")


def derive(p):
    users = {k: p[k] for k in ("i1", "i2", "s1", "s2", "s3", "s4")}
    seed = CATALOGUES[p["catalogue_name"]]
    catalogue = [[code, title, credits, seats, prereqs, users[who]]
                 for code, title, credits, seats, prereqs, who in seed["courses"]]
    history = [[users[who], code, grade] for who, code, grade in seed["history"]]
    course_table = ("| code | title | credits | seats | prerequisites | instructor |\n"
                    "|---|---|---|---|---|---|\n" + "\n".join(
                        f"| {c} | {t} | {cr} | {s} | {', '.join(pr) or '(none)'} | `{i}` |"
                        for c, t, cr, s, pr, i in catalogue))
    history_table = "| student | course | grade |\n|---|---|---|\n" + "\n".join(
        f"| `{s}` | {c} | {g} |" for s, c, g in history)
    passing = PASS_MARKS[p["pass_mark"]]
    return {
        **{f"k_{k}": f"{p['key_prefix']}{v}" for k, v in users.items()},
        "catalogue": catalogue, "history": history, "catalogue_table": course_table,
        "history_table": history_table, "passing": passing,
        "passing_text": ", ".join(passing[:-1]) + " and " + passing[-1],
        "lowest_pass": passing[-1], "highest_fail": "D" if p["pass_mark"] == "C" else "F",
        "codes": [c[0] for c in catalogue],
        "i1_code": next(c[0] for c in catalogue if c[5] == users["i1"]),
        "check_order": "(check_seats, check_prerequisites)" if p["full_first"]
        else "(check_prerequisites, check_seats)",
        **dict(zip(("first_check_text", "second_check_text"),
                   (FULL_TEXT, PREREQUISITES_TEXT) if p["full_first"]
                   else (PREREQUISITES_TEXT, FULL_TEXT), strict=True)),
        "first_failure": "course_full" if p["full_first"] else "missing_prerequisites",
        "regrade_text": "A completed enrollment may be graded again (the new grade replaces the "
        "old)." if p["regrade_allowed"] else "A completed enrollment keeps its grade: grading it "
        "again is 409 `already_graded`.",
    }


FAMILY = Family(
    id="service/course_enrollment",
    title="A course-enrollment service with prerequisites, grades and transcripts",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"i1": "irene", "i2": "ivan", "s1": "sam", "s2": "sara", "s3": "sol", "s4": "sven",
              "key_prefix": "key-", "instructor_role": "instructor", "student_role": "student",
              "catalogue_name": "cs", "new_code": "SEM100", "max_credits": 12,
              "pass_mark": "D", "regrade_allowed": False, "full_first": True,
              "limit_default": 3, "limit_max": 10, "max_seats": 200},
    space={
        "users": [{"i1": "irene", "i2": "ivan", "s1": "sam", "s2": "sara", "s3": "sol",
                   "s4": "sven", "key_prefix": "key-"},
                  {"i1": "hal", "i2": "hugo", "s1": "ada", "s2": "bea", "s3": "cy", "s4": "di",
                   "key_prefix": "k_"}],
        "roles": [{"instructor_role": "instructor", "student_role": "student"},
                  {"instructor_role": "teacher", "student_role": "learner"}],
        "catalogue": [{"catalogue_name": "cs", "new_code": "SEM100"},
                      {"catalogue_name": "bio", "new_code": "LAB200"}],
        "max_credits": [12, 9],
        "pass_mark": ["D", "C"],
        "regrade_allowed": [False, True],
        "full_first": [True, False],
        "paging": [{"limit_default": 3, "limit_max": 10, "max_seats": 200},
                   {"limit_default": 2, "limit_max": 25, "max_seats": 60}],
    },
    derive=derive,
    instances=14,
    requirements=(
        Requirement("Every route needs an exact listed `X-API-Key`: else 401 `unauthenticated` "
                    "with `WWW-Authenticate: ApiKey`, before anything else.",
                    probes="keys_required",
                    traps=(Edit("no challenge", 'raise Refused(401, "unauthenticated", '
                                '{"WWW-Authenticate": "ApiKey"})',
                                'raise Refused(401, "unauthenticated")'),
                           Edit("keys ignore case", "if key is None or key not in KEYS:\n"
                                "        raise Refused(401, \"unauthenticated\", "
                                "{\"WWW-Authenticate\": \"ApiKey\"})\n    return KEYS[key]",
                                "key = next((k for k in KEYS if key and k.lower() == "
                                "key.lower()), None)\n"
                                "    if key is None or key not in KEYS:\n"
                                "        raise Refused(401, \"unauthenticated\", "
                                "{\"WWW-Authenticate\": \"ApiKey\"})\n    return KEYS[key]"))),
        Requirement("`GET /me` names the caller and the role.",
                    probes="me",
                    traps=Edit("me without role", "def me(user: AnyUser):\n    return user",
                               'def me(user: AnyUser):\n    return {"name": user["name"]}')),
        Requirement("The key, the role and, where the route says so, the course and its "
                    "${instructor_role} are checked before the body, even a body that is not JSON "
                    "(then 422 `invalid` with `fields` [\"body\"]).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to the other role, before "
                    "the body is validated.",
                    probes="roles",
                    traps=(Edit("body validated before the role",
                                "def create_course(user: Instructor, body: CourseIn, "
                                "response: Response):\n",
                                "def create_course(body: CourseIn, user: AnyUser, "
                                "response: Response):\n    role(INSTRUCTOR)(user)\n"),
                           Edit("instructors may enroll",
                                "def enroll(user: Student,", "def enroll(user: AnyUser,"))),
        Requirement("`POST /courses` answers 201 with the course (prerequisites sorted without "
                    "repeats, default empty, taught by the caller, `enrolled` 0) and its "
                    "`Location`.",
                    probes="create_course",
                    traps=(Edit("prerequisites kept as sent",
                                '"prerequisites": sorted(set(body.prerequisites)),',
                                '"prerequisites": body.prerequisites,'),
                           Edit("no Location",
                                '    response.headers["Location"] = f"/courses/{body.code}"\n',
                                ""))),
        Requirement("Course bodies: code of 2-4 capitals and 3 digits and nothing else, title "
                    "1-80, credits 1-6, seats 1-${max_seats}, at most 3 prerequisites, no other "
                    "fields; failures list `where.name` fields.",
                    probes="course_validation",
                    traps=(Edit("code matched with Python's re",
                                'code: str = Field(pattern=r"^[A-Z]{2,4}[0-9]{3}$$")',
                                'code: str\n\n    @__import__("pydantic").field_validator("code")'
                                '\n    @classmethod\n    def _code(cls, v):\n'
                                '        if not __import__("re").match(r"^[A-Z]{2,4}[0-9]{3}$$", '
                                'v):\n            raise ValueError("bad code")\n'
                                '        return v'),
                           Edit("seats unbounded", "seats: int = Field(ge=1, le=${max_seats})",
                                "seats: int = Field(ge=1)"),
                           Edit("prerequisites unbounded",
                                "Field(default_factory=list, max_length=3)",
                                "Field(default_factory=list)"),
                           Edit("fields without where",
                                '".".join(str(part) for part in e["loc"][:2])',
                                'str(e["loc"][-1])'))),
        Requirement("A taken code is 409 `course_exists`, then unknown prerequisites 400 "
                    "`unknown_prerequisites` with their sorted codes; nothing is created.",
                    probes="course_conflicts",
                    traps=(Edit("conflicts in the other order", '''    if body.code in COURSES:
        raise Refused(409, "course_exists")
    unknown = sorted({p for p in body.prerequisites if p not in COURSES})
    if unknown:
        raise Refused(400, "unknown_prerequisites", codes=unknown)
''', '''    unknown = sorted({p for p in body.prerequisites if p not in COURSES})
    if unknown:
        raise Refused(400, "unknown_prerequisites", codes=unknown)
    if body.code in COURSES:
        raise Refused(409, "course_exists")
'''),
                           Edit("unknown codes unsorted",
                                "unknown = sorted({p for p in body.prerequisites if p not in "
                                "COURSES})",
                                "unknown = list(dict.fromkeys(p for p in body.prerequisites "
                                "if p not in COURSES))"))),
        Requirement("`GET /courses` filters (`q` ignoring case, `instructor`, `has_seats`), "
                    "then pages by code with `after` and `limit` (default ${limit_default}); "
                    "`next` is the last code only when more follow.",
                    probes="list_courses",
                    traps=(Edit("next always set",
                                '"next": page[-1]["code"] if len(courses) > limit else None}',
                                '"next": page[-1]["code"] if page else None}'),
                           Edit("after inclusive", 'if c["code"] > after]',
                                'if c["code"] >= after]'),
                           Edit("q case-sensitive", 'q.lower() in c["title"].lower()',
                                'q in c["title"]'))),
        Requirement("List parameters are validated: `limit` 1-${limit_max}, `has_seats` a "
                    "boolean.",
                    probes="list_validation",
                    traps=Edit("limit unbounded", "Query(ge=1, le=${limit_max})", "Query(ge=1)")),
        Requirement("`GET /courses/{code}` shows a course; codes are case-sensitive; unknown is "
                    "404 `course_not_found`.",
                    probes="read_course",
                    traps=Edit("codes ignore case", '''def find_course(code: str) -> dict:
    if code not in COURSES:''', '''def find_course(code: str) -> dict:
    code = code.upper()
    if code not in COURSES:''')),
        Requirement("`PATCH` changes `title`/`seats` (null and other fields invalid); seats "
                    "below `enrolled` is 409 `seats_below_enrolled`; another ${instructor_role} "
                    "gets 403 `not_your_course` before the body is validated.",
                    probes="update_course",
                    traps=(Edit("seats below enrolled allowed",
                                '        raise Refused(409, "seats_below_enrolled")\n',
                                "        pass\n"),
                           Edit("anyone edits", '''    if course["instructor"] != user["name"]:
        raise Refused(403, "not_your_course")
''', ""),
                           Edit("null title accepted",
                                "title: str = Field(None, min_length=1, max_length=80)",
                                "title: str | None = Field(None, min_length=1, max_length=80)"))),
        Requirement("Enrolling answers 201 with the enrollment and its `Location`; twice is 409 "
                    "`already_enrolled`; the course's `enrolled` counts it.",
                    probes="enroll",
                    traps=(Edit("enrollment without Location",
                                '    response.headers["Location"] = f"/courses/{course[\'code\']}'
                                '/enrollments/{student}"\n', ""),
                           Edit("double enrollment allowed",
                                '''    if record is not None and record["status"] == "enrolled":
        raise Refused(409, "already_enrolled")
''', ""))),
        Requirement("Prerequisites must be completed with a passing grade (${passing_text}): "
                    "else 409 `missing_prerequisites` listing the missing ones.",
                    probes="prerequisites",
                    traps=(Edit("any completed grade counts",
                                'return ENROLLMENTS.get((code, student), {}).get("grade") in '
                                'PASSING',
                                'return ENROLLMENTS.get((code, student), {}).get("grade") '
                                'is not None'),
                           Edit("passing grades of the other mark",
                                "PASSING = set(${passing__repr})",
                                lambda p: "PASSING = set("
                                + repr(["A", "B", "C"] if p["pass_mark"] == "D"
                                       else ["A", "B", "C", "D"]) + ")"))),
        Requirement("A course whose `enrolled` reached `seats` is 409 `course_full`; a drop frees "
                    "the seat.",
                    probes="course_full",
                    traps=Edit("one seat too many", 'if in_progress(course) >= course["seats"]:',
                               'if in_progress(course) > course["seats"]:')),
        Requirement("When a course is full and a prerequisite is missing, `${first_failure}` "
                    "wins.",
                    probes="full_and_missing_prerequisite",
                    traps=Edit("enrollment checks in the other order",
                               "for check in ${check_order}:",
                               lambda p: "for check in " + (
                                   "(check_prerequisites, check_seats)" if p["full_first"]
                                   else "(check_seats, check_prerequisites)") + ":")),
        Requirement("Credits in progress may not exceed ${max_credits}: the next is 409 "
                    "`credit_limit`; completed courses do not count.",
                    probes="credit_limit",
                    traps=(Edit("credit limit off by one",
                                'if load + course["credits"] > MAX_CREDITS:',
                                'if load + course["credits"] >= MAX_CREDITS:'),
                           Edit("completed courses count",
                                'if e["student"] == student and e["status"] == "enrolled")',
                                'if e["student"] == student)'))),
        Requirement("A passing completion is 409 `already_passed`; after a failing grade the "
                    "course may be taken again, replacing the old grade.",
                    probes="retake_after_failing",
                    traps=(Edit("failed courses blocked",
                                'if record is not None and record["grade"] in PASSING:',
                                'if record is not None and record["grade"] is not None:'),
                           Edit("retakes keep the old enrollment",
                                '    ENROLLMENTS[(course["code"], student)] = record\n',
                                '    ENROLLMENTS.setdefault((course["code"], student), record)\n'
                                ))),
        Requirement("Dropping: by the ${student_role} (others 403 `not_yours`) or the course's "
                    "${instructor_role} (others 403 `not_your_course`); 404 `not_enrolled`; a "
                    "completed one is 409 `already_graded`; 204, empty body.",
                    probes="drop_rules",
                    traps=(Edit("students drop others",
                                '''    if user["role"] == STUDENT and user["name"] != student:
        raise Refused(403, "not_yours")
''', ""),
                           Edit("graded enrollments droppable",
                                '''    if record["status"] == "completed":
        raise Refused(409, "already_graded")
    del ENROLLMENTS''', "    del ENROLLMENTS"))),
        Requirement("Grades (A-F, exact) are entered by the course's ${instructor_role} only "
                    "(403 `not_your_course` before validation); 404 `not_enrolled`; grading "
                    "frees the seat.",
                    probes="grading",
                    traps=(Edit("any instructor grades",
                                "def enter_grade(student: str, course: TaughtCourse, "
                                "body: GradeIn):",
                                "def enter_grade(student: str, code: str, user: Instructor, "
                                "body: GradeIn):\n    course = find_course(code)"),
                           Edit("grade not completing",
                                'record.update(status="completed", grade=body.grade)',
                                'record.update(grade=body.grade)'))),
        Requirement("${regrade_text}",
                    probes="regrading",
                    traps=Edit("regrading the other way",
                               "REGRADE_ALLOWED = ${regrade_allowed}",
                               lambda p: f"REGRADE_ALLOWED = {not p['regrade_allowed']}")),
        Requirement("The course's ${instructor_role} lists its enrollments of any status sorted "
                    "by student name; another gets 403 `not_your_course`.",
                    probes="course_enrollments",
                    traps=Edit("enrollments in insertion order",
                               'return sorted((e for e in ENROLLMENTS.values() if e["course"] '
                               '== course["code"]),\n                  key=lambda e: '
                               'e["student"])',
                               'return [e for e in ENROLLMENTS.values() if e["course"] == '
                               'course["code"]]')),
        Requirement("Transcripts: a ${student_role} reads only their own (403 first), unknown "
                    "names are 404; completed by code, credits earned from passing grades, a "
                    "credit-weighted GPA rounded to 2 decimals.",
                    probes="transcript",
                    traps=(Edit("unweighted gpa",
                                'points = sum(POINTS[e["grade"]] * credits[e["course"]] '
                                'for e in done)',
                                'points = sum(POINTS[e["grade"]] for e in done) * weight '
                                '/ max(len(done), 1)'),
                           Edit("earned counts failing grades",
                                'for e in done if e["grade"] in PASSING),',
                                'for e in done),'),
                           Edit("404 before 403", '''\
    if user["role"] == STUDENT and user["name"] != name:
        raise Refused(403, "forbidden")
    if name not in STUDENTS:
        raise Refused(404, "student_not_found")
''', '''    if name not in STUDENTS:
        raise Refused(404, "student_not_found")
    if user["role"] == STUDENT and user["name"] != name:
        raise Refused(403, "forbidden")
'''))),
        Requirement("The transcript lists courses in progress under `current` and a null GPA "
                    "without completed courses.",
                    probes="transcript_in_progress",
                    traps=Edit("gpa zero without grades",
                               '"gpa": round(points / weight, 2) if weight else None,',
                               '"gpa": round(points / weight, 2) if weight else 0.0,')),
        Requirement("Unknown paths are 404 `no_such_route`, other methods 405 "
                    "`method_not_allowed` with `Allow`.",
                    probes="unknown_paths_and_methods",
                    traps=router_errors_in_fastapi_format()),
        Requirement("OpenAPI declares one API-key scheme in the `X-API-Key` header, used by every "
                    "operation.",
                    probes="openapi_api_key_scheme",
                    traps=Edit("key read as a plain header",
                               'api_key = APIKeyHeader(name="X-API-Key", auto_error=False)',
                               "def api_key(x_api_key: Annotated[str | None, "
                               "__import__('fastapi').Header()] = None):\n"
                               "    return x_api_key")),
    ),
)
