"""Type-strict exact comparison of results: lists of rows of JSON values.

A result is what ``json.loads`` can yield for a list of rows: a ``list`` of ``list`` rows whose
cells are ``None``, ``bool``, ``int``, ``float``, ``str``, lists and dicts with ``str`` keys,
nested to any depth. Two results match only when they are equal *and* of the same JSON types at
every depth:

* ``True`` never equals ``1``, ``1`` never equals ``1.0``, ``"200"`` never equals ``200`` and
  ``None`` equals only ``None``. Floats compare exactly (no tolerance; ``-0.0 == 0.0`` as in
  IEEE 754 and in every JSON parser that yields numbers).
* Row order, row count, row width and list order matter; dict key order does not, but the key
  sets must be equal.
* Only plain JSON data is accepted, checked with exact ``type(x) is ...`` tests: tuples, sets,
  bytes, objects of other classes, subclasses of the JSON types (``IntEnum``, ``OrderedDict``,
  ...), non-``str`` dict keys, NaN and infinities, integers over ``MAX_INT_BITS`` bits, nesting
  deeper than ``MAX_DEPTH`` containers and more than ``MAX_VALUES`` values in all are malformed.
  A malformed result is a mismatch; a malformed answer key (``expected``) is a harness error
  (``key_error=True``, reason starting with ``"answer key malformed:"``). Neither ever raises.

The walk visits both values in lock step in document order, so the reason names the first
difference. It recurses once per container level, only after checking the level is within
``MAX_DEPTH`` (so at most ~64 Python frames, whatever the input), and counts values against
``MAX_VALUES`` before descending, so deep, huge or self-referential input cannot blow the stack
or hang it. No code of the compared objects runs: every operation on a value comes after an exact
type check. The rest of the answer key is validated whenever the walk stops early, so a malformed
key is always reported as such. The fast path only decides; the reason is worked out afterwards.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "MAX_VALUES",
    "Comparison",
    "compare",
    "validate_expected",
]

MAX_DEPTH = 64  # containers nested deeper than this (the result itself is level 1) are malformed
MAX_VALUES = 200_000  # more values than this in all (containers included) is malformed
MAX_INT_BITS = 1000  # integers wider than this are malformed

_INT_BOUND = 1 << MAX_INT_BITS  # a valid int v has _NEG_INT_BOUND < v < _INT_BOUND
_NEG_INT_BOUND = -_INT_BOUND
_FLOAT_MAX = sys.float_info.max  # a finite float v has _NEG_FLOAT_MAX <= v <= _FLOAT_MAX
_NEG_FLOAT_MAX = -_FLOAT_MAX
_TOO_MANY = f"more than {MAX_VALUES} values in all"
_NoneType = type(None)
_PREVIEW_CHARS = 100
_PREVIEW_ITEMS = 4
_PREVIEW_DEPTH = 2

_JSON_TYPE_NAMES = (
    (_NoneType, "null"),
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)
_TYPE_NAME = type.__dict__["__name__"]  # read a class's name without running its metaclass


@dataclass(frozen=True)
class Comparison:
    ok: bool
    reason: str = ""  # when not ok: the first mismatch by path, both values and their JSON types
    key_error: bool = False  # the answer key itself is malformed: a harness error


_MATCH = Comparison(True)

# A failure found by the walk: (blame the answer key?, reason).
_Failure = tuple[bool, str]


def compare(actual: Any, expected: Any) -> Comparison:
    """Compare a result with the answer key, type-strictly; never raises."""
    try:
        failure = _walk(actual, expected)
        if failure is None:
            return _MATCH
        key_error, reason = failure
        if not key_error:
            # The walk stopped at the first difference; the rest of the key must be valid too.
            problem = validate_expected(expected)
            if problem is not None:
                key_error, reason = True, problem
    except Exception as exc:  # pragma: no cover - a bug here must not crash a rollout
        return Comparison(False, f"comparator error: {_class_name(type(exc))}")
    if key_error:
        return Comparison(False, f"answer key malformed: {reason}", key_error=True)
    return Comparison(False, reason)


def validate_expected(value: Any) -> str | None:
    """None when ``value`` is a valid result (a list of rows of JSON values), else the reason."""
    try:
        failure = _walk(value, value)
    except Exception as exc:  # pragma: no cover - a bug here must not crash a rollout
        return f"validator error: {_class_name(type(exc))}"
    return None if failure is None else failure[1]


class _Found(Exception):
    """The first failure, raised by ``_items``; each level adds its label on the way out."""

    def __init__(self, x: Any, y: Any, label: int | str, too_many: bool = False) -> None:
        self.x, self.y, self.path, self.too_many = x, y, [label], too_many


def _walk(actual: Any, expected: Any) -> _Failure | None:
    """Walk both values in lock step; None when they match, else the first failure."""
    if (
        type(expected) is not list
        or type(actual) is not list
        or len(expected) > MAX_VALUES
        or len(actual) != len(expected)
    ):
        return _mismatch(actual, expected, ())
    count = 1 + len(expected)
    r = 0
    try:
        for row in expected:
            got = actual[r]
            if type(row) is not list or type(got) is not list or len(got) != len(row):
                return _mismatch(got, row, (r,))
            count += len(row)
            if count > MAX_VALUES:
                return True, f"{_where((r,))}: {_TOO_MANY}"
            count = _items(got, row, range(len(row)), 3, count)
            r += 1
    except _Found as found:
        found.path.append(r)
        path = tuple(reversed(found.path))
        if found.too_many:
            return True, f"{_where(path)}: {_TOO_MANY}"
        return _mismatch(found.x, found.y, path)
    return None


def _items(xs: Any, ys: Any, labels: Any, depth: int, count: int) -> int:
    """Check ``xs[i]`` against ``ys[i]`` for each label ``i`` of the container ``ys``.

    ``xs`` and ``ys`` are both lists (``labels`` is a range) or both dicts with the same ``str``
    keys (``labels`` is ``ys``). ``depth`` is the nesting level of the items; ``count`` the values
    seen so far, returned updated. Recursion is bounded: it stops at ``MAX_DEPTH``.
    """
    for i in labels:
        y = ys[i]
        x = xs[i]
        t = type(y)
        if t is str:
            if type(x) is not str or x != y:
                raise _Found(x, y, i)
        elif t is int:
            if type(x) is not int or x != y or not _NEG_INT_BOUND < y < _INT_BOUND:
                raise _Found(x, y, i)
        elif t is float:
            if type(x) is not float or x != y or not _NEG_FLOAT_MAX <= y <= _FLOAT_MAX:
                raise _Found(x, y, i)
        elif t is bool or t is _NoneType:
            if x is not y:  # True, False and None are singletons
                raise _Found(x, y, i)
        elif t is dict:
            if type(x) is not dict or depth > MAX_DEPTH or len(x) != len(y):
                raise _Found(x, y, i)
            count += len(y)
            if count > MAX_VALUES:
                raise _Found(x, y, i, too_many=True)
            for k in x:  # first, so that no lookup below can run a foreign key's __eq__
                if type(k) is not str:
                    raise _Found(x, y, i)
            for k in y:  # same size and every key of y in x: the same key sets
                if type(k) is not str or k not in x:
                    raise _Found(x, y, i)
            try:
                count = _items(x, y, y, depth + 1, count)
            except _Found as found:
                found.path.append(i)
                raise
        elif t is list:
            if type(x) is not list or len(x) != len(y) or depth > MAX_DEPTH:
                raise _Found(x, y, i)
            count += len(y)
            if count > MAX_VALUES:
                raise _Found(x, y, i, too_many=True)
            try:
                count = _items(x, y, range(len(y)), depth + 1, count)
            except _Found as found:
                found.path.append(i)
                raise
        else:  # not JSON: the answer key is malformed
            raise _Found(x, y, i)
    return count


# ---------------------------------------------------------------- diagnosis (the slow path only)


def _mismatch(x: Any, y: Any, path: tuple) -> _Failure:
    """Explain why ``x`` (from the result) does not match ``y`` (from the key) at ``path``."""
    where = _where(path)
    depth = len(path) + 1
    problem = _problem(y, depth)
    if problem is None and len(path) < 2 and type(y) is not list:
        problem = f"{'the result' if not path else 'a row'} must be an array, got {_show(y)}"
    if problem is not None:
        return True, f"{where}: {problem}"
    problem = _problem(x, depth)
    if problem is not None:
        return False, f"{where}: expected {_show(y)}, got {_show(x)}, which is malformed: {problem}"
    differs = f"{where}: expected {_show(y)}, got {_show(x)}"
    t = type(y)
    if type(x) is not t:
        return False, differs
    if t is list and len(x) != len(y):
        unit = ("row", "column")[len(path)] if len(path) < 2 else "item"
        sizes = f"expected {len(y)} {unit}{'s' * (len(y) != 1)}, got {len(x)}"
        return False, f"{where}: {sizes}; expected {_show(y)}, got {_show(x)}"
    if t is dict:
        missing = [k for k in y if k not in x]
        extra = [k for k in x if k not in y]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing key {_keys(missing)}")
            if extra:
                parts.append(f"unexpected key {_keys(extra)}")
            return False, f"{differs} ({'; '.join(parts)})"
    return False, differs


def _problem(v: Any, depth: int) -> str | None:
    """Why ``v`` itself (not its contents) is not valid JSON at nesting ``depth``, else None."""
    t = type(v)
    if t is str or t is bool or t is _NoneType:
        return None
    if t is int:
        if _NEG_INT_BOUND < v < _INT_BOUND:
            return None
        return f"an integer of {v.bit_length()} bits exceeds the {MAX_INT_BITS}-bit limit"
    if t is float:
        if v != v:
            return "NaN is not a JSON number"
        if not _NEG_FLOAT_MAX <= v <= _FLOAT_MAX:
            return f"{'-' if v < 0 else ''}Infinity is not a JSON number"
        return None
    if t is list or t is dict:
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep (or self-referential)"
        if len(v) > MAX_VALUES:
            return _TOO_MANY
        if t is dict:
            for k in v:
                if type(k) is not str:
                    return f"object key {_show(k)} is not a string"
        return None
    if t is tuple:
        return "a tuple is not a JSON value (arrays must be lists)"
    if t is set or t is frozenset:
        return f"a {t.__name__} is not a JSON value"
    if t is bytes or t is bytearray:
        return f"{t.__name__} is not a JSON value (strings must be str)"
    for base in (bool, int, float, str, list, dict):
        if issubclass(t, base):
            return f"{_class_name(t)} is a subclass of {base.__name__}, not plain JSON"
    return f"an object of class {_class_name(t)} is not a JSON value"


def _where(path: tuple) -> str:
    if not path:
        return "result"
    parts = [f"row {path[0]}"]
    if len(path) > 1:
        parts.append(f"column {path[1]}")
    for p in path[2:]:
        parts.append(f"key {_clip(repr(p), 40)}" if type(p) is str else f"index {p}")
    if len(parts) > 10:  # a deep path: keep both ends
        parts[5:-4] = [f"… {len(parts) - 9} more levels …"]
    return ", ".join(parts)


def _keys(keys: list[str]) -> str:
    shown = ", ".join(_clip(repr(k), 40) for k in keys[:5])
    return shown + (f" (and {len(keys) - 5} more)" if len(keys) > 5 else "")


def _show(v: Any) -> str:
    """A short preview of ``v`` and its JSON type, e.g. ``"200" (string)``."""
    t = type(v)
    for json_type, name in _JSON_TYPE_NAMES:  # identity tests: a foreign __hash__ must not run
        if t is json_type:
            kind = name
            break
    else:
        kind = f"not JSON: Python {_class_name(t)}"
    return f"{_clip(_preview(v, 0), _PREVIEW_CHARS)} ({kind})"


def _preview(v: Any, depth: int) -> str:
    """JSON-like text for ``v``, bounded in depth, width and length; never runs foreign code."""
    t = type(v)
    if t is _NoneType:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v) if _NEG_INT_BOUND < v < _INT_BOUND else f"<{v.bit_length()}-bit integer>"
    if t is float:
        if v != v:
            return "NaN"
        if not _NEG_FLOAT_MAX <= v <= _FLOAT_MAX:
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    if t is str:
        return json.dumps(v[:60]) + ("…" if len(v) > 60 else "")
    if t is list or t is dict:
        if not v:
            return "[]" if t is list else "{}"
        if depth >= _PREVIEW_DEPTH:
            return "[…]" if t is list else "{…}"
        if t is list:
            items = [_preview(e, depth + 1) for e in v[:_PREVIEW_ITEMS]]
        else:
            items = []
            for k, e in v.items():  # no lookups: a foreign key's __hash__ must not run
                if len(items) == _PREVIEW_ITEMS:
                    break
                key = json.dumps(k) if type(k) is str else _preview(k, depth + 1)
                items.append(f"{key}: {_preview(e, depth + 1)}")
        if len(v) > _PREVIEW_ITEMS:
            items.append("…")
        return ("[{}]" if t is list else "{{{}}}").format(", ".join(items))
    if t is tuple or t is set or t is frozenset or t is bytes or t is bytearray:
        return f"<{t.__name__} of length {len(v)}>"
    return f"<{_class_name(t)} object>"


def _class_name(t: type) -> str:
    return _TYPE_NAME.__get__(t, type)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
