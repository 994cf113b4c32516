"""Helpers shared by the repair families of branch s22-repair-e (shipping_quotes, wiki_pages,
feature_flags): the probe helpers their probe modules start with, and the part of their
`Family` that is the same for all three. Edits aimed at one module of a family's package come
from `_s21_repair_d.editor`. Not a family (the leading `_`)."""

from collections.abc import Mapping, Sequence

from fastapi_env.tasks import Edit, Family, with_edits
from fastapi_env.tasks.family import SOLUTION
from fastapi_env.tasks.repair import _s21_repair_d

# Probe text (a template: `$$` is a dollar): `_body`, `_row` and `_brief` (a 422 as its error
# locations only) from s21-repair-d, and `_head`, what a response without a body shows: status,
# the (empty) body and the named headers.
PROBE_HELPERS = _s21_repair_d.PROBE_HELPERS + '''

def _head(r, *names):
    return [r.status_code, r.content.decode()] + [r.headers.get(n) for n in names]

'''


def repair_family(*, solution: str, files: Mapping[str, str], planted: Sequence[Edit],
                  **fields) -> Family:
    """A hard repair family whose reference is `solution` over `files` and whose setup is that
    reference with every `planted` bug applied."""
    setup = with_edits(dict(files) | {SOLUTION: solution}, planted)
    return Family(category="repair", difficulty="hard", tier="repair", reference=solution,
                  files=files, setup=setup, **fields)
