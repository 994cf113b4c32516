"""Template text shared by the recent families of branch s21-recent-b (private_network_cors,
ranged_downloads, polymorphic_catalogue). Not a family: modules starting with `_` are skipped
at load. Each snippet is Python source pasted into a reference or a probes template, so every
reference stays one self-contained app; the snippets hold no `$`."""


def shown_headers_row(names: tuple[str, ...]) -> str:
    """Source of `SHOWN_HEADERS` and `row(r)`: `[status, body, {header: value}]`, the body as
    JSON when the response is a whole JSON document (not empty, not a 206 slice) and as text
    otherwise, the headers those of `names` that the response has (lower-case names)."""
    return f'''SHOWN_HEADERS = {names!r}


def row(r):
    shown = {{name: r.headers[name] for name in SHOWN_HEADERS if name in r.headers}}
    whole_json = (r.headers.get("content-type") == "application/json" and r.content
                  and r.status_code != 206)
    body = r.json() if whole_json else r.text
    return [r.status_code, body, shown]

'''


# The parts of FastAPI's standard 422 the probes compare: each error's type and loc, in order.
ERRORS = '''def errors(r):
    return [[e["type"], e["loc"]] for e in r.json()["detail"]]

'''
