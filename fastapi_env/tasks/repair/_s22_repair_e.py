"""Helpers shared by the repair families of branch s22-repair-e (shipping_quotes, wiki_pages,
feature_flags): the probe helpers their probe modules start with. Edits aimed at one module of
a family's package come from `_s21_repair_d.editor`. Not a family (the leading `_`)."""

# Probe text (a template: `$$` is a dollar). `_row` is status and body; `_brief` keeps a 422's
# error locations only (their types depend on how a rule is written, which the prompts leave
# open); `_head` is what a response without a body shows: status and the named headers.
PROBE_HELPERS = '''\
def _body(r):
    if not r.content:
        return None
    try:
        return r.json()
    except ValueError:
        return r.text


def _row(r):
    return [r.status_code, _body(r)]


def _brief(r):
    if r.status_code == 422:
        return [422, [e["loc"] for e in r.json()["detail"]]]
    return _row(r)


def _head(r, *names):
    return [r.status_code, r.content.decode()] + [r.headers.get(n) for n in names]

'''
