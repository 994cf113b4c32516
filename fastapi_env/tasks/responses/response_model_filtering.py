from fastapi_env.tasks import Task

TASK = Task(
    id="responses/response_model_filtering",
    title="response_model drops fields the handler returned",
    category="responses",
    difficulty="easy",
    prompt='''\
Build an app with one route, `GET /users/{user_id}` (`user_id` an integer path parameter).
The handler looks the user up in this in-memory table and returns the whole stored record:

    USERS = {
        1: {"id": 1, "name": "ada", "password_hash": "x1"},
        2: {"id": 2, "name": "bob", "password_hash": "y2"},
    }

The response must contain only `id` and `name` (never `password_hash`): declare a Pydantic
model `UserOut` with `id: int` and `name: str` as the route's `response_model`. An unknown id
answers 404 with the JSON body `{"detail": "user not found"}`.

Then fill `result` with one row per request, in this order:
1. `GET /users/1`: `[status code (int), the response's JSON body (object)]`
2. `GET /users/3`: `[status code (int), the response's JSON body (object)]`
''',
    reference='''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

USERS = {
    1: {"id": 1, "name": "ada", "password_hash": "x1"},
    2: {"id": 2, "name": "bob", "password_hash": "y2"},
}


class UserOut(BaseModel):
    id: int
    name: str


app = FastAPI()


@app.get("/users/{user_id}", response_model=UserOut)
def get_user(user_id: int):
    if user_id not in USERS:
        raise HTTPException(status_code=404, detail="user not found")
    return USERS[user_id]


client = TestClient(app)
result = []
for path in ["/users/1", "/users/3"]:
    response = client.get(path)
    result.append([response.status_code, response.json()])
''',
    probes='''\
def probe_second_user(client):
    r = client.get("/users/2")
    return [[r.status_code, r.json()]]


def probe_non_integer_id(client):
    r = client.get("/users/abc")
    return [[r.status_code, r.json()["detail"][0]["type"]]]
''',
    traps={
        "no response_model": '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient

USERS = {
    1: {"id": 1, "name": "ada", "password_hash": "x1"},
    2: {"id": 2, "name": "bob", "password_hash": "y2"},
}
app = FastAPI()


@app.get("/users/{user_id}")
def get_user(user_id: int):
    if user_id not in USERS:
        raise HTTPException(status_code=404, detail="user not found")
    return USERS[user_id]


client = TestClient(app)
result = [[client.get(p).status_code, client.get(p).json()] for p in ["/users/1", "/users/3"]]
''',
    },
    expected_rows=[[200, {"id": 1, "name": "ada"}], [404, {"detail": "user not found"}]],
)
