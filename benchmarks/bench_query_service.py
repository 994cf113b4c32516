"""What one ``query_service`` call costs as a session grows: each call replays every earlier
request of the session in the box before the new ones (fastapi_env/hidden_service). Prints the
median wall time of a call of 40 requests to the shipped black-box service, at several lengths
of the session's log, and its ratio to the first (an empty log), in one box. A script that
prints figures, never a test.

    uv run python benchmarks/bench_query_service.py [--logs 0,400,1200,2400] [--calls 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from fastapi_env.dataset import load_records, task_service
from fastapi_env.grading.host import GRADER_PRELOAD
from fastapi_env.hidden_service import MAX_REQUESTS, ServiceSession, checked_request
from fastapi_env.sandbox.docker import DockerSandbox


def batch(start: int) -> list[dict]:
    """Requests like an explorer's: creates, reads, a list, movements, errors."""
    requests = []
    for n in range(start, start + MAX_REQUESTS):
        sku = f"AB-{n % 9999}"
        requests.append([
            {"method": "POST", "target": "/items", "headers": "",
             "body": json.dumps({"sku": sku, "name": f"item {n}", "unit_price": 1 + n % 90})},
            {"method": "GET", "target": f"/items/{sku}", "headers": "", "body": ""},
            {"method": "GET", "target": "/items?sort=-value&per_page=5", "headers": "",
             "body": ""},
            {"method": "POST", "target": f"/items/{sku}/movements", "headers": "",
             "body": json.dumps({"kind": "in", "qty": 3})},
            {"method": "GET", "target": "/items?page=0&per_page=x", "headers": "", "body": ""},
        ][n % 5])
    return [checked_request(r | {"body_base64": False}) for r in requests]


async def main(logs: list[int], calls: int) -> None:
    task_id = next(r["id"] for r in load_records() if r.get("hidden_service"))
    async with DockerSandbox(preload=GRADER_PRELOAD) as box:
        session = ServiceSession(box, task_service(task_id))
        baseline = None
        print(f"task {task_id}; a call of {MAX_REQUESTS} requests, {calls} calls per log length")
        for length in logs:
            times = []
            for _ in range(calls):
                session.log = batch(0) * (length // MAX_REQUESTS)
                started = time.monotonic()
                answers = await session.ask(batch(length))
                times.append(time.monotonic() - started)
                assert not any("error" in a for a in answers), answers
            median = statistics.median(times)
            baseline = baseline or median
            print(f"log {length:>5} requests: median {median * 1000:7.1f} ms "
                  f"({median / baseline:.2f}x the empty log)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", default="0,400,1200,2400")
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main([int(n) for n in args.logs.split(",")], args.calls))
