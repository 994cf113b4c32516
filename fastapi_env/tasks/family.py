"""Task families: one file describes many task instances.

A family is a prompt template, a reference template and a probes template over a parameter
space, plus the requirements its prompt states. Each requirement names the hidden probes that
check it and the traps that violate only it; a trap is the reference with one named ``Edit``
(a replacement that must apply exactly, or expansion fails loudly).

Templates are ``string.Template`` text (``${name}``; ``$$`` for a literal dollar) or a function
of the parameters returning text. Every parameter ``p`` is available as ``${p}`` (``str``),
``${p__repr}`` (a Python literal) and ``${p__json}`` (a JSON literal).

``expand`` draws instances with a seed fixed by the family id: the ``original`` parameters first
(they reproduce the hand-written task this family grew from), then distinct draws from
``space``. An instance's id is the family id plus a short hash of its parameters, so it stays the
same however the other instances change.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Params = dict[str, Any]
Template = str | Callable[[Params], str]
# About a fifth of the families form the test split: those whose salted id hash falls in it.
# Fixed: changing the salt or the rule reshuffles the splits of every trained model.
SPLIT_SALT = "fastapi-env/splits/v1"
TEST_SPLIT_BUCKETS = 5
# What kind of work a task asks for (see docs/authoring-tasks.md): one or two behaviours
# (basic), a product-style spec of a whole service, repairing an existing app in /workspace,
# FastAPI/Starlette/Pydantic features newer than a model's training, a spec with exploit probes,
# a running service to reproduce from its answers alone (its code hidden).
TIERS = ("basic", "service", "repair", "recent", "security", "blackbox")
SOLUTION = "solution.py"


class FamilyError(ValueError):
    """A family that cannot expand: a template names an unknown parameter, an edit that no
    longer applies, a requirement without probe or trap."""


def render(template: Template, params: Params) -> str:
    if callable(template):
        return template(params)
    values: dict[str, str] = {}
    for key, value in params.items():
        values[key] = str(value)
        values[f"{key}__repr"] = repr(value)
        values[f"{key}__json"] = json.dumps(value)
    try:
        return string.Template(template).substitute(values)
    except (KeyError, ValueError) as exc:
        raise FamilyError(f"template does not render: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True)
class Edit:
    """A trap: the reference with ``old`` replaced by ``new`` (both templates). ``old`` must
    occur exactly ``count`` times in the rendered reference."""

    name: str
    old: Template
    new: Template
    count: int = 1
    file: str = SOLUTION  # which file of the reference's workspace the edit applies to

    def apply(self, source: str, params: Params) -> str:
        old, new = render(self.old, params), render(self.new, params)
        found = source.count(old)
        if found != self.count or old == new:
            why = "old equals new" if old == new else f"found {found} time(s), not {self.count}"
            raise FamilyError(f"edit {self.name!r} does not apply: {why}: {old[:80]!r}")
        return source.replace(old, new)


@dataclass(frozen=True)
class Requirement:
    """One behaviour the prompt states (``text``, a template), the hidden probes that check it
    (``probe_<name>`` functions, named with or without the prefix), and traps violating it."""

    text: Template
    probes: tuple[str, ...]
    traps: tuple[Edit, ...]
    # A security requirement (an exploit must fail); the grade's security_ok counts these.
    security: bool = False

    def __post_init__(self) -> None:  # a lone probe name or Edit is a tuple of one
        if isinstance(self.probes, str):
            object.__setattr__(self, "probes", (self.probes,))
        if isinstance(self.traps, Edit):
            object.__setattr__(self, "traps", (self.traps,))

    def probe_names(self) -> tuple[str, ...]:
        return tuple(p if p.startswith("probe_") else f"probe_{p}" for p in self.probes)


@dataclass(frozen=True)
class Family:
    id: str
    title: str
    category: str
    difficulty: str
    prompt: Template
    reference: Template
    probes: Template
    requirements: tuple[Requirement, ...]
    original: Params
    # Each axis is a list of values for one parameter; a dict value sets several at once.
    space: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    derive: Callable[[Params], Params] | None = None  # parameters computed from the others
    valid: Callable[[Params], bool] | None = None  # draws to skip
    instances: int = 20
    expected_rows: list[list[Any]] | None = None  # hand-written rows of the original instance
    tags: tuple[str, ...] = ()
    tier: str = "basic"
    # Files in /workspace before the model's first turn (path relative to it: template), e.g.
    # the app a repair task asks to fix. The model's workspace, the reference's and every
    # trap's start from them.
    setup: Mapping[str, Template] = field(default_factory=dict)
    # The reference's files besides solution.py (written over the setup files).
    files: Mapping[str, Template] = field(default_factory=dict)
    # Other correct solutions (name: solution.py over the setup files), written independently of
    # the reference: `--verify` fails the family unless each scores 1.0 on the reference's key,
    # so a probe that only the reference's own quirks pass is caught (a positive control).
    alternatives: Mapping[str, Template] = field(default_factory=dict)
    # A hidden service (Python source defining ``handle(raw: bytes) -> bytes``, the standard
    # library only) the model may query with the ``query_service`` tool and never read: see
    # fastapi_env/hidden_service. Rendered on the host by task id; never in the box or a prompt.
    service: Template | None = None

    @property
    def split(self) -> str:
        return split_of(self.id)

    def draws(self) -> list[Params]:
        """The parameter dicts of this family's instances, original first, without repeats."""
        rng = random.Random(self.id)
        axes = sorted(self.space)
        chosen: list[Params] = [dict(self.original)]
        seen = {instance_hash(self.original)}
        for combo in _shuffled_combos([len(self.space[a]) for a in axes], rng):
            if len(chosen) >= self.instances:
                break
            params: Params = {}
            for axis, index in zip(axes, combo, strict=True):
                value = self.space[axis][index]
                params |= value if isinstance(value, dict) else {axis: value}
            if set(params) != set(self.original):
                raise FamilyError(
                    f"{self.id}: the space sets {sorted(params)}, the original "
                    f"{sorted(self.original)}: they must name the same parameters"
                )
            digest = instance_hash(params)
            if digest in seen or (self.valid and not self.valid(params)):
                continue
            seen.add(digest)
            chosen.append(params)
        return chosen

    def full_params(self, params: Params) -> Params:
        return params | (self.derive(params) if self.derive else {})

    def check(self) -> list[str]:
        """Problems with the family's structure, found without running anything."""
        problems = []
        if not self.requirements:
            problems.append("lists no requirement")
        for number, req in enumerate(self.requirements, 1):
            if not req.probes:
                problems.append(f"requirement {number} names no probe")
            if not req.traps:
                problems.append(f"requirement {number} has no trap")
        names = [e.name for r in self.requirements for e in r.traps]
        if len(names) != len(set(names)):
            problems.append("two traps share a name")
        return problems


def _shuffled_combos(sizes: list[int], rng: random.Random, enumerate_up_to: int = 50_000):
    """Index tuples into the axes in a seeded random order: all of them, shuffled, when the
    space is small; else a long stream of random draws (repeats are skipped by the caller)."""
    if math.prod(sizes) <= enumerate_up_to:
        combos = list(itertools.product(*(range(n) for n in sizes)))
        rng.shuffle(combos)
        yield from combos
        return
    for _ in range(enumerate_up_to):
        yield tuple(rng.randrange(n) for n in sizes)


def split_of(family_id: str) -> str:
    digest = hashlib.sha256(f"{SPLIT_SALT}:{family_id}".encode()).digest()
    return "test" if digest[0] % TEST_SPLIT_BUCKETS == 0 else "train"


def instance_hash(params: Params) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]


def with_edits(files: Mapping[str, str], edits: Sequence[Edit]) -> dict[str, str]:
    """Template files with every edit applied in turn, to its own file: a repair family's
    setup is its reference (``files`` plus ``solution.py``) with all the planted bugs, each
    bug also being one requirement's trap. Raises FamilyError when an edit does not apply."""
    out = dict(files)
    for edit in edits:
        if not isinstance(edit.old, str) or not isinstance(edit.new, str):
            raise FamilyError(f"edit {edit.name!r}: planted bugs must be text templates")
        text = out.get(edit.file, "")
        if text.count(edit.old) != edit.count:
            raise FamilyError(f"planted bug {edit.name!r} does not apply to {edit.file}")
        out[edit.file] = text.replace(edit.old, edit.new)
    return out
