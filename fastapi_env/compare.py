"""PLACEHOLDER: being replaced by the full type-strict comparator (issue 3)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Comparison:
    ok: bool
    reason: str = ""
    key_error: bool = False


def _tag(v: Any) -> Any:
    if type(v) is list:
        return ["list", [_tag(x) for x in v]]
    if type(v) is dict:
        return ["dict", sorted((k, _tag(x)) for k, x in v.items())]
    return [type(v).__name__, v]


def validate_expected(value: Any) -> str | None:
    if type(value) is not list or any(type(r) is not list for r in value):
        return "not a list of rows"
    return None


def compare(actual: Any, expected: Any) -> Comparison:
    problem = validate_expected(expected)
    if problem:
        return Comparison(False, f"answer key malformed: {problem}", key_error=True)
    if validate_expected(actual):
        return Comparison(False, "result is not a list of rows")
    if json.dumps(_tag(actual)) == json.dumps(_tag(expected)):
        return Comparison(True)
    return Comparison(False, f"{actual!r} != {expected!r}")
