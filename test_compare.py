"""Proof of the type-strict comparator (fastapi_env/compare.py).

1. unit checks, one per rule, each a function of the comparator module under test;
2. properties (hypothesis) against a type-tagged canonical form written here;
3. planted defects: the real module's source with one small, plausible bug each, run through the
   same unit checks; every mutant must be caught by at least one check;
4. a benchmark (printed, not asserted).

Run ``uv run python test_compare.py`` (prints every check, the mutant table, the benchmark and
``N passed, N failed``; exit status 0 only when everything passed) or
``uv run pytest test_compare.py``.
"""

from __future__ import annotations

import collections
import copy
import enum
import json
import statistics
import sys
import time
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastapi_env.compare as real

NAN = float("nan")
INF = float("inf")
KEY_PREFIX = "answer key malformed:"

# ---------------------------------------------------------------------------------- helpers

CHECKS: list[tuple[str, Callable[[Any], None]]] = []


def check(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    """Register a unit check: a function of the comparator module (real or mutant)."""
    CHECKS.append((fn.__name__.removeprefix("check_"), fn))
    return fn


def matches(m: Any, actual: Any, expected: Any) -> None:
    verdict = m.compare(actual, expected)
    assert verdict.ok, f"expected a match, got: {verdict.reason}"
    assert verdict.reason == "" and not verdict.key_error


def differs(m: Any, actual: Any, expected: Any, *fragments: str) -> str:
    """Assert a plain mismatch (not a key error) whose reason contains every fragment."""
    verdict = m.compare(actual, expected)
    assert not verdict.ok, f"expected a mismatch: {actual!r} vs {expected!r}"
    assert not verdict.key_error, f"not the key's fault: {verdict.reason}"
    assert verdict.reason, "a mismatch must say why"
    assert not verdict.reason.startswith(("comparator error", KEY_PREFIX)), verdict.reason
    for fragment in fragments:
        assert fragment in verdict.reason, f"{fragment!r} not in reason {verdict.reason!r}"
    return verdict.reason


def key_error(m: Any, actual: Any, expected: Any, *fragments: str) -> str:
    """Assert the answer key is reported malformed, with every fragment in the reason."""
    verdict = m.compare(actual, expected)
    assert not verdict.ok, "a malformed key must never pass"
    assert verdict.key_error, f"expected key_error, got: {verdict.reason}"
    assert verdict.reason.startswith(KEY_PREFIX), verdict.reason
    for fragment in fragments:
        assert fragment in verdict.reason, f"{fragment!r} not in reason {verdict.reason!r}"
    problem = m.validate_expected(expected)
    assert isinstance(problem, str) and problem, "validate_expected must reject it too"
    return verdict.reason


def both_ways(m: Any, a: Any, b: Any, *fragments: str) -> None:
    differs(m, [[a]], [[b]], *fragments)
    differs(m, [[b]], [[a]], *fragments)


def nested_result(depth: int) -> list:
    """A result whose deepest array sits at nesting ``depth`` (the result itself is depth 1)."""
    value: list = []
    for _ in range(depth - 2):
        value = [value]
    return [value]


class Color(enum.IntEnum):
    RED = 1


class Label(str):
    pass


class Number(float):
    pass


class Row(list):
    pass


class EvilKey:
    """Hashes like "a" and equals anything: would pass a key-set comparison if it ever ran."""

    def __hash__(self) -> int:
        return hash("a")

    def __eq__(self, other: object) -> bool:
        return True


class Meta(type):
    def __eq__(cls, other: object) -> bool:
        raise RuntimeError("metaclass __eq__ ran")

    def __hash__(cls) -> int:
        raise RuntimeError("metaclass __hash__ ran")

    def __repr__(cls) -> str:
        raise RuntimeError("metaclass __repr__ ran")

    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise RuntimeError("metaclass __name__ ran")


class Hostile(metaclass=Meta):
    """Every hook raises: the comparator must never call any of them."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("__eq__ ran")

    def __hash__(self) -> int:
        raise RuntimeError("__hash__ ran")

    def __repr__(self) -> str:
        raise RuntimeError("__repr__ ran")

    def __len__(self) -> int:
        raise RuntimeError("__len__ ran")

    def __iter__(self) -> Any:
        raise RuntimeError("__iter__ ran")


class RaisingKey:
    """Hashes like "a"; comparing it raises."""

    def __hash__(self) -> int:
        return hash("a")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("key __eq__ ran")


# ------------------------------------------------------------------------------ unit checks


@check
def check_equal_values_match(m: Any) -> None:
    rows = [
        [1, "a", 2.5, True, None, {"k": [1, {"x": None}], "j": "v"}],
        [-7, "", -0.5, False, None, {}],
        [[], [[]], {"a": {"b": {"c": [1.0, 2]}}}, "ü\u2603", 10**20, 1e300],
    ]
    matches(m, rows, rows)
    matches(m, copy.deepcopy(rows), rows)
    matches(m, json.loads(json.dumps(rows)), rows)
    matches(m, [], [])
    matches(m, [[]], [[]])


@check
def check_true_is_not_1(m: Any) -> None:
    differs(m, [[1]], [[True]], "row 0, column 0", "expected true (boolean), got 1 (integer)")
    differs(m, [[True]], [[1]], "expected 1 (integer), got true (boolean)")
    both_ways(m, True, 1.0)
    both_ways(m, True, "true")


@check
def check_false_is_not_0(m: Any) -> None:
    differs(m, [[0]], [[False]], "expected false (boolean), got 0 (integer)")
    differs(m, [[False]], [[0]], "expected 0 (integer), got false (boolean)")
    both_ways(m, False, 0.0)
    both_ways(m, False, None)
    both_ways(m, False, "")


@check
def check_int_is_not_float(m: Any) -> None:
    differs(m, [[1.0]], [[1]], "expected 1 (integer), got 1.0 (number)")
    differs(m, [[1]], [[1.0]], "expected 1.0 (number), got 1 (integer)")
    differs(m, [[{"n": 0.0}]], [[{"n": 0}]], "key 'n'", "(integer)", "(number)")
    differs(m, [[[2**53 + 0.0]]], [[[2**53]]], "index 0")


@check
def check_string_is_not_number(m: Any) -> None:
    reason = differs(m, [[1], [2], [0, {"detail": "200"}]], [[1], [2], [0, {"detail": 200}]])
    assert reason == "row 2, column 1, key 'detail': expected 200 (integer), got \"200\" (string)"
    differs(m, [[200]], [["200"]], 'expected "200" (string), got 200 (integer)')
    both_ways(m, "1.5", 1.5)
    both_ways(m, "null", None)


@check
def check_none_equals_only_none(m: Any) -> None:
    matches(m, [[None]], [[None]])
    for other in (0, 0.0, False, "", "null", [], {}):
        both_ways(m, None, other, "null")


@check
def check_none_is_not_a_missing_key(m: Any) -> None:
    differs(m, [[{}]], [[{"a": None}]], "missing key 'a'", "(object)")
    differs(m, [[{"a": None}]], [[{}]], "unexpected key 'a'")
    differs(m, [[{"a": None, "b": 1}]], [[{"b": 1, "c": None}]], "missing key 'c'")


@check
def check_extra_and_missing_keys(m: Any) -> None:
    differs(m, [[{"a": 1, "c": 2}]], [[{"a": 1}]], "unexpected key 'c'")
    differs(m, [[{"a": 1}]], [[{"a": 1, "b": 2}]], "missing key 'b'")
    differs(m, [[{"a": 1, "c": 2}]], [[{"a": 1, "b": 2}]], "missing key 'b'", "unexpected key 'c'")
    differs(m, [[{"A": 1}]], [[{"a": 1}]])


@check
def check_key_order_is_irrelevant(m: Any) -> None:
    matches(m, [[{"b": 2, "a": 1}]], [[{"a": 1, "b": 2}]])
    matches(
        m,
        [[{"x": {"d": 4, "c": [{"f": 6, "e": 5}]}, "w": 0}]],
        [[{"w": 0, "x": {"c": [{"e": 5, "f": 6}], "d": 4}}]],
    )


@check
def check_row_order_matters(m: Any) -> None:
    differs(m, [[2], [1]], [[1], [2]], "row 0, column 0: expected 1 (integer), got 2 (integer)")
    differs(m, [[1, 2], [3, 4]], [[3, 4], [1, 2]], "row 0")


@check
def check_list_order_matters(m: Any) -> None:
    differs(m, [[[2, 1]]], [[[1, 2]]], "row 0, column 0, index 0")
    differs(m, [[2, 1]], [[1, 2]], "row 0, column 0")
    differs(m, [[{"a": ["y", "x"]}]], [[{"a": ["x", "y"]}]], "key 'a', index 0")


@check
def check_row_count_matters(m: Any) -> None:
    differs(m, [[1], [2], [3]], [[1], [2]], "result: expected 2 rows, got 3")
    differs(m, [[1]], [[1], [2]], "result: expected 2 rows, got 1")
    differs(m, [], [[1]], "expected 1 row, got 0")
    differs(m, [[]], [], "expected 0 rows, got 1")


@check
def check_row_width_matters(m: Any) -> None:
    differs(m, [[1, 2, 3]], [[1, 2]], "row 0: expected 2 columns, got 3")
    differs(m, [[1]], [[1, 2]], "row 0: expected 2 columns, got 1")
    differs(m, [[1, 2], [3]], [[1, 2], [3, 4]], "row 1:")
    differs(m, [[]], [[None]], "expected 1 column, got 0")


@check
def check_nested_array_length_matters(m: Any) -> None:
    differs(m, [[[1, 2, 3]]], [[[1, 2]]], "row 0, column 0: expected 2 items, got 3")
    differs(m, [[{"a": [1]}]], [[{"a": [1, None]}]], "key 'a': expected 2 items, got 1")


@check
def check_floats_compare_exactly(m: Any) -> None:
    differs(m, [[0.1 + 0.2]], [[0.3]], "expected 0.3 (number), got 0.30000000000000004 (number)")
    differs(m, [[1e16 + 2]], [[1e16]])
    differs(m, [[5e-324]], [[0.0]])
    differs(m, [[1.0000000000000002]], [[1.0]])
    matches(m, [[0.1 + 0.2]], [[0.30000000000000004]])
    matches(m, [[-0.0]], [[0.0]])  # IEEE equality: what every JSON number parser yields


@check
def check_nan_rejected_in_actual(m: Any) -> None:
    differs(m, [[NAN]], [[1.0]], "NaN", "malformed")
    differs(m, [[{"v": [NAN]}]], [[{"v": [0.5]}]], "key 'v', index 0", "NaN")
    differs(m, [[NAN]], [[None]], "NaN")


@check
def check_nan_rejected_in_expected(m: Any) -> None:
    key_error(m, [[1.0]], [[NAN]], "row 0, column 0", "NaN")
    nan_rows = [[NAN]]
    key_error(m, nan_rows, nan_rows, "NaN")  # the same object on both sides
    key_error(m, [[NAN]], [[NAN]], "NaN")
    key_error(m, [[{"v": [1]}]], [[{"v": [NAN]}]], "key 'v', index 0", "NaN")


@check
def check_infinity_rejected(m: Any) -> None:
    differs(m, [[INF]], [[1.0]], "Infinity")
    differs(m, [[-INF]], [[1.0]], "-Infinity")
    key_error(m, [[INF]], [[INF]], "Infinity")
    key_error(m, [[-INF]], [[-INF]], "-Infinity")
    key_error(m, [[{"x": 1}]], [[{"x": INF}]], "key 'x'")


@check
def check_huge_ints_rejected(m: Any) -> None:
    limit = 2**real.MAX_INT_BITS
    matches(m, [[limit - 1, -(limit - 1)]], [[limit - 1, -(limit - 1)]])
    key_error(m, [[limit]], [[limit]], "bits")
    key_error(m, [[-limit]], [[-limit]], "bits")
    differs(m, [[limit]], [[1]], "bits", "malformed")
    differs(m, [[10**5000]], [[1]], "malformed")  # no str() of a 5000-digit int


@check
def check_tuples_rejected(m: Any) -> None:
    differs(m, ([1],), [[1]], "result:", "tuple")
    differs(m, [(1,)], [[1]], "row 0:", "tuple")
    differs(m, [[(1, 2)]], [[[1, 2]]], "row 0, column 0", "tuple")
    differs(m, [[{"a": (1,)}]], [[{"a": [1]}]], "key 'a'", "tuple")
    key_error(m, [[1]], [(1,)], "tuple")
    key_error(m, [[(1,)]], [[(1,)]], "tuple")


@check
def check_sets_bytes_objects_rejected(m: Any) -> None:
    for bad in ({1}, frozenset(), b"a", bytearray(b"a"), object(), 1j, Hostile()):
        differs(m, [[bad]], [[1]], "malformed")
        key_error(m, [[1]], [[bad]])
        key_error(m, [[bad]], [[bad]])
    differs(m, [[b"200"]], [["200"]], "bytes")


@check
def check_subclasses_rejected(m: Any) -> None:
    cases = [
        (Color.RED, 1),
        (Label("a"), "a"),
        (Number(1.5), 1.5),
        (Row([1]), [1]),
        (collections.OrderedDict(a=1), {"a": 1}),
        (collections.defaultdict(int, a=1), {"a": 1}),
        (collections.Counter(a=1), {"a": 1}),
    ]
    for bad, plain in cases:
        differs(m, [[bad]], [[plain]], "subclass", "not plain JSON")
        key_error(m, [[plain]], [[bad]], "subclass")
        key_error(m, [[bad]], [[bad]], "subclass")
    differs(m, [Row([1])], [[1]], "row 0", "subclass")


@check
def check_non_string_keys_rejected(m: Any) -> None:
    for bad_key in (1, None, True, 1.5, ("a",)):
        differs(m, [[{bad_key: 1}]], [[{"k": 1}]], "not a string")
        key_error(m, [[{"k": 1}]], [[{bad_key: 1}]], "not a string")
        key_error(m, [[{bad_key: 1}]], [[{bad_key: 1}]], "not a string")
    differs(m, [[{1: "a"}]], [[{"1": "a"}]], "object key 1 (integer) is not a string")


@check
def check_foreign_key_code_never_runs(m: Any) -> None:
    differs(m, [[{EvilKey(): 1}]], [[{"a": 1}]], "not a string")
    differs(m, [[{"a": 1, EvilKey(): 2}]], [[{"a": 1, "b": 2}]])


@check
def check_deep_nesting_rejected(m: Any) -> None:
    limit = real.MAX_DEPTH
    matches(m, nested_result(limit), nested_result(limit))
    key_error(m, nested_result(limit + 1), nested_result(limit + 1), f"{limit} levels")
    key_error(m, nested_result(10_000), nested_result(10_000), "levels")
    differs(m, nested_result(10_000), nested_result(3), "(array)")
    differs(m, nested_result(limit + 1), nested_result(limit))
    assert m.validate_expected(nested_result(limit)) is None
    deep_dict: Any = 1
    for _ in range(limit + 5):
        deep_dict = {"d": deep_dict}
    key_error(m, [[deep_dict]], [[deep_dict]], "key 'd'", "levels")


@check
def check_huge_size_rejected(m: Any) -> None:
    n = real.MAX_VALUES
    at_limit = [[0] * (n - 2)]  # the result, one row and n - 2 cells: n values
    over = [[0] * (n - 1)]
    matches(m, copy.copy(at_limit), at_limit)
    key_error(m, over, over, f"more than {n} values")
    key_error(m, [[0]] * (n + 1), [[0]] * (n + 1), "values")
    differs(m, over, [[0]])
    wide = [[{str(i): i for i in range(n)}]]
    key_error(m, wide, wide, "values")


@check
def check_self_referential_input_terminates(m: Any) -> None:
    loop: list = []
    loop.append(loop)
    key_error(m, loop, loop, "self-referential")
    differs(m, loop, [[1]], "(array)")
    differs(m, [[loop]], [[[1]]])
    knot: dict = {}
    knot["k"] = knot
    key_error(m, [[knot]], [[knot]], "levels")
    differs(m, [[knot]], [[{"k": 1}]], "key 'k'")
    wide: list = []
    wide.extend([wide] * 50)  # 50 ** 64 paths: must stop early
    key_error(m, wide, wide)


@check
def check_malformed_top_level(m: Any) -> None:
    for bad in (None, 1, "rows", {"rows": []}, [1, 2], [{"a": 1}], [None], ((),)):
        verdict = m.compare(bad, [[1]])
        assert not verdict.ok and not verdict.key_error and verdict.reason
        key_error(m, [[1]], bad)
    differs(m, None, [[1]], "result: expected [[1]] (array), got null (null)")
    differs(m, [{"a": 1}], [[1]], 'row 0: expected [1] (array), got {"a": 1} (object)')
    key_error(m, [[1]], [1], "row 0: a row must be an array")
    key_error(m, [[1]], {"a": 1}, "result: the result must be an array")


@check
def check_key_error_only_for_the_key(m: Any) -> None:
    # Malformed key found after an earlier difference: still the key's fault.
    key_error(m, [[0], [1]], [[1], [NAN]], "row 1, column 0")
    key_error(m, [[1, 2]], [[1, (2,)], [3]])
    key_error(m, [], [[1], [INF]], "row 1")
    key_error(m, None, [[1], [{1: 2}]], "row 1")
    # A malformed result is the result's fault.
    differs(m, [[NAN], [(1,)]], [[1.0], [[1]]])
    differs(m, [[1], [{1: 2}]], [[1], [{"1": 2}]])


@check
def check_reasons_name_path_and_json_types(m: Any) -> None:
    reason = differs(m, [[{"a": [1, {"b": [1]}]}]], [[{"a": [1, {"b": [True]}]}]])
    want = "row 0, column 0, key 'a', index 1, key 'b', index 0: expected true (boolean), got 1"
    assert reason == want + " (integer)", reason
    names = {None: "null", True: "boolean", 3: "integer", 2.5: "number", "s": "string"}
    for value, name in names.items():
        differs(m, [[value]], [[[]]], f"({name})", "expected [] (array)")
        differs(m, [[value]], [[{}]], f"({name})", "expected {} (object)")
    differs(m, [[1]], [[2]], "row 0, column 0: expected 2 (integer), got 1 (integer)")


@check
def check_first_difference_is_reported(m: Any) -> None:
    reason = differs(m, [[0, 1, 9], [9, 5, 9], [9]], [[0, 1, 2], [3, 5, 6], [7]])
    assert reason.startswith("row 0, column 2:"), reason
    reason = differs(m, [[{"a": 9}, 9]], [[{"a": 1}, 2]])
    assert reason.startswith("row 0, column 0, key 'a':"), reason


@check
def check_never_raises(m: Any) -> None:
    loop: list = []
    loop.append(loop)
    odd = [
        None,
        1,
        "x",
        b"x",
        (),
        set(),
        object(),
        Hostile(),
        [Hostile()],
        [[Hostile()]],
        [[{RaisingKey(): 1}]],
        [[{"a": Hostile()}]],
        loop,
        [[loop]],
        [[NAN]],
        [[10**400]],
        [[{"b": 1, RaisingKey(): 2}]],
        [[Color.RED]],
        [[collections.OrderedDict()]],
        nested_result(500),
        [[{"a": [Hostile()]}]],
    ]
    for i, a in enumerate(odd):
        for j, e in enumerate(odd + [[[1]], [[{"a": 1, "b": 2}]]]):
            verdict = m.compare(a, e)
            assert not verdict.ok, f"odd[{i}] vs odd[{j}] passed"
            assert not verdict.reason.startswith("comparator error"), verdict.reason
        problem = m.validate_expected(a)
        assert isinstance(problem, str) and problem, f"odd[{i}] validated"
        assert not problem.startswith("validator error"), problem


@check
def check_validate_expected(m: Any) -> None:
    for good in ([], [[]], [[1, "a", None, True, 1.5, [], {}]], [[{"a": [{"b": None}]}]]):
        assert m.validate_expected(good) is None, good
    for bad in (None, [1], [(1,)], [[NAN]], [[{1: 1}]], (), [[Color.RED]]):
        problem = m.validate_expected(bad)
        assert isinstance(problem, str) and problem, bad
        assert not problem.startswith(KEY_PREFIX)
    assert "NaN" in m.validate_expected([[1], [{"a": [NAN]}]])
    assert "row 1, column 0, key 'a', index 0" in m.validate_expected([[1], [{"a": [NAN]}]])


# ------------------------------------------------------------------------------- properties


def canonical(value: Any) -> Any:
    """The value tagged with its JSON type at every depth, dict items sorted."""
    t = type(value)
    if t is list:
        return ("array", tuple(canonical(v) for v in value))
    if t is dict:
        return ("object", tuple(sorted((k, canonical(v)) for k, v in value.items())))
    tags = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string"}
    return (tags[t], value)


def reorder(value: Any) -> Any:
    """A deep copy with every dict's key order reversed."""
    if type(value) is list:
        return [reorder(v) for v in value]
    if type(value) is dict:
        return {k: reorder(value[k]) for k in reversed(value)}
    return value


bound = 2**real.MAX_INT_BITS - 1
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-bound, max_value=bound)
    | st.integers(min_value=-5, max_value=5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
results = st.lists(st.lists(json_values, max_size=4), max_size=4)

# A small domain of look-alikes, so that equal and nearly equal pairs are common.
look_alikes = st.sampled_from([None, True, False, 0, 1, 0.0, -0.0, 1.0, "", "0", "1", "a"])
small_values = st.recursive(
    look_alikes,
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)
    ),
    max_leaves=4,
)
small_results = st.lists(st.lists(small_values, max_size=2), max_size=2)

malformed_values = st.sampled_from(
    [
        NAN,
        INF,
        -INF,
        2**real.MAX_INT_BITS,
        (1,),
        (),
        {1},
        b"x",
        object(),
        Color.RED,
        Label("a"),
        Number(0.5),
        Row(),
        collections.OrderedDict(),
        {1: "a"},
        {None: 1},
    ]
)

fast = settings(
    max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@fast
@given(results)
def test_every_json_value_equals_itself_and_its_round_trip(rows: Any) -> None:
    assert real.validate_expected(rows) is None
    assert real.compare(rows, rows).ok
    assert real.compare(copy.deepcopy(rows), rows).ok
    assert real.compare(json.loads(json.dumps(rows)), rows).ok
    assert real.compare(rows, json.loads(json.dumps(rows))).ok
    assert real.compare(reorder(rows), rows).ok


@fast
@given(small_results, small_results)
def test_equal_exactly_when_canonical_forms_equal(a: Any, b: Any) -> None:
    verdict = real.compare(a, b)
    assert verdict.ok == (canonical(a) == canonical(b)), (a, b, verdict)
    assert verdict.ok == real.compare(b, a).ok
    assert not verdict.key_error
    assert verdict.ok or verdict.reason


@fast
@given(results, st.data())
def test_one_changed_leaf_is_found(rows: Any, data: st.DataObject) -> None:
    """Swap one value for a look-alike: the comparator agrees with the canonical form."""
    slots = [(r, c) for r, row in enumerate(rows) for c in range(len(row))]
    if not slots:
        rows = [[None]]
        slots = [(0, 0)]
    r, c = data.draw(st.sampled_from(slots))
    changed = copy.deepcopy(rows)
    changed[r][c] = data.draw(look_alikes | small_values)
    verdict = real.compare(changed, rows)
    assert verdict.ok == (canonical(changed) == canonical(rows))
    if not verdict.ok:
        assert verdict.reason.startswith(f"row {r}, column {c}"), verdict.reason


@fast
@given(results, malformed_values, st.data())
def test_a_malformed_value_anywhere_is_rejected(rows: Any, bad: Any, data: st.DataObject) -> None:
    """Plant one non-JSON value: a mismatch in the result, a key error in the key; no raising."""
    spots: list[tuple[Any, Any]] = []  # (container, index or key) of every slot

    def collect(value: Any) -> None:
        if type(value) is list:
            spots.extend((value, i) for i in range(len(value)))
        elif type(value) is dict:
            spots.extend((value, k) for k in value)
        else:
            return
        for child in list(value.values() if type(value) is dict else value):
            collect(child)

    planted = copy.deepcopy(rows) or [[]]
    for row in planted:
        collect(row)
    if spots:
        container, where = data.draw(st.sampled_from(spots))
        container[where] = bad
    else:
        planted[0].append(bad)
    assert real.validate_expected(planted) is not None
    assert real.validate_expected(rows) is None
    verdict = real.compare(planted, rows)
    assert not verdict.ok and not verdict.key_error and verdict.reason
    verdict = real.compare(rows, planted)
    assert not verdict.ok and verdict.key_error and verdict.reason.startswith(KEY_PREFIX)
    verdict = real.compare(planted, planted)
    assert not verdict.ok and verdict.key_error


PROPERTIES = [
    test_every_json_value_equals_itself_and_its_round_trip,
    test_equal_exactly_when_canonical_forms_equal,
    test_one_changed_leaf_is_found,
    test_a_malformed_value_anywhere_is_rejected,
]

# ------------------------------------------------------------------------- planted defects

# Each mutant: the real source with small edits (old -> new, each old text found exactly once).
MUTANTS: dict[str, list[tuple[str, str]]] = {
    "bool compared by value (True == 1)": [
        ("if x is not y:  # True, False", "if x != y:  # True, False"),
    ],
    "int and float conflated (1 == 1.0)": [
        ("if type(x) is not int or x != y", "if type(x) not in (int, float) or x != y"),
    ],
    'strings compared via str() ("200" == 200)': [
        ("if type(x) is not str or x != y:", "if str(x) != y:"),
    ],
    "str subclasses accepted (isinstance)": [
        ("if type(x) is not str or x != y:", "if not isinstance(x, str) or x != y:"),
    ],
    "row order ignored (rows sorted first)": [
        (
            "    count = 1 + len(expected)\n",
            "    count = 1 + len(expected)\n"
            "    actual, expected = sorted(actual, key=repr), sorted(expected, key=repr)\n",
        ),
    ],
    "extra rows ignored (row count unchecked)": [
        ("        or len(actual) != len(expected)\n", ""),
    ],
    "row width ignored (zip truncation)": [
        (
            "if type(row) is not list or type(got) is not list or len(got) != len(row):",
            "if type(row) is not list or type(got) is not list:",
        ),
        ("_items(got, row, range(len(row)),", "_items(got, row, range(min(len(got), len(row))),"),
    ],
    "float tolerance (math.isclose)": [
        (
            "if type(x) is not float or x != y or",
            'if type(x) is not float or not __import__("math").isclose(x, y) or',
        ),
    ],
    "extra object keys ignored (only expected keys checked)": [
        (
            "if type(x) is not dict or depth > MAX_DEPTH or len(x) != len(y):",
            "if type(x) is not dict or depth > MAX_DEPTH:",
        ),
    ],
    "result's keys not type-checked (foreign __eq__ runs)": [
        ("            for k in x:  # first,", "            for k in ():  # first,"),
    ],
    "tuple accepted as an array": [
        (
            "if type(x) is not list or len(x) != len(y) or depth > MAX_DEPTH:",
            "if type(x) not in (list, tuple) or len(x) != len(y) or depth > MAX_DEPTH:",
        ),
    ],
    "NaN and Infinity accepted (NaN == NaN)": [
        (
            "if type(x) is not float or x != y or not _NEG_FLOAT_MAX <= y <= _FLOAT_MAX:",
            "if type(x) is not float or (x != y and not (x != x and y != y)):",
        ),
    ],
    "Infinity accepted (finiteness unchecked)": [
        (" or not _NEG_FLOAT_MAX <= y <= _FLOAT_MAX:", ":"),
    ],
    "huge integers accepted": [
        (" or not _NEG_INT_BOUND < y < _INT_BOUND:", ":"),
    ],
    "nesting depth unchecked": [
        ("or len(x) != len(y) or depth > MAX_DEPTH:", "or len(x) != len(y):"),
    ],
    "nesting limit off by one": [
        (
            "or len(x) != len(y) or depth > MAX_DEPTH:",
            "or len(x) != len(y) or depth > MAX_DEPTH + 1:",
        ),
    ],
    "value count unchecked": [
        ("MAX_VALUES = 200_000", "MAX_VALUES = 10**12"),
    ],
    "answer key validated only up to the first difference": [
        ("        if not key_error:\n", "        if False:\n"),
    ],
}

_SOURCE = Path(real.__file__).read_text(encoding="utf-8")


def load_mutant(name: str) -> types.ModuleType:
    source = _SOURCE
    for old, new in MUTANTS[name]:
        found = source.count(old)
        assert found == 1, f"mutant {name!r}: {old!r} found {found} times in compare.py"
        source = source.replace(old, new)
    module = types.ModuleType(f"compare_mutant_{list(MUTANTS).index(name)}")
    sys.modules[module.__name__] = module  # dataclasses looks the module up
    exec(compile(source, f"<mutant: {name}>", "exec"), module.__dict__)
    return module


def first_catch(name: str) -> str | None:
    """The first unit check that fails on the mutant, or None when it survives them all."""
    mutant = load_mutant(name)
    for check_name, fn in CHECKS:
        try:
            fn(mutant)
        except Exception:  # an AssertionError, or a crash: either way the defect is seen
            return check_name
    return None


# ----------------------------------------------------------------------------- pytest entry


@pytest.mark.parametrize("name", [name for name, _ in CHECKS])
def test_unit_check(name: str) -> None:
    dict(CHECKS)[name](real)


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_mutant_is_caught(mutant: str) -> None:
    assert first_catch(mutant) is not None, f"no check catches the mutant: {mutant}"


def test_mutants_apply_to_the_source() -> None:
    for name in MUTANTS:
        assert load_mutant(name).compare([[1]], [[1]]).ok, name


# ---------------------------------------------------------------------------- script entry


def benchmark(runs: int = 101) -> str:
    rows = [
        [i, f"name {i}", {"id": i, "tags": ["a", "b"]}, i / 7, i % 2 == 0, None]
        for i in range(1000)
    ]
    copy_ = json.loads(json.dumps(rows))
    assert real.compare(copy_, rows).ok
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        real.compare(copy_, rows)
        times.append(time.perf_counter() - start)
    median, best = statistics.median(times) * 1e3, min(times) * 1e3
    return (
        f"benchmark: 1,000 rows x 6 columns (int, str, object, number, bool, null) vs a copy: "
        f"median {median:.3f} ms, best {best:.3f} ms over {runs} runs"
    )


def main() -> int:
    passed = failed = 0

    def record(label: str, run: Callable[[], Any]) -> Any:
        nonlocal passed, failed
        try:
            outcome = run()
        except Exception as exc:
            failed += 1
            print(f"FAIL  {label}: {type(exc).__name__}: {exc}")
            if not isinstance(exc, AssertionError):
                traceback.print_exc()
            return None
        passed += 1
        print(f"PASS  {label}")
        return outcome

    for name, fn in CHECKS:
        record(f"check {name}", lambda fn=fn: fn(real))
    for prop in PROPERTIES:
        record(f"property {prop.__name__.removeprefix('test_')}", prop)

    print("mutants (planted defects) and the first check that catches each:")
    width = max(map(len, MUTANTS))
    for name in MUTANTS:
        catcher = record(f"mutant caught: {name}", lambda name=name: _caught(name))
        print(f"    {name:<{width}}  ->  {catcher or 'NOT CAUGHT'}")

    print(benchmark())
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def _caught(name: str) -> str:
    catcher = first_catch(name)
    assert catcher is not None, "survives every check"
    return catcher


if __name__ == "__main__":
    sys.exit(main())
