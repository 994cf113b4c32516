"""Probe text shared by the service families of branch s21-service-e (coworking_desks,
bike_rentals). Probes are templates run in the sandbox, so what they share is source text."""

ROW_HELPER = '''\
def _row(r):
    """[status, body] of a response; [status, content type] when it has no body."""
    if not r.content:
        return [r.status_code, r.headers.get("content-type")]
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]
'''
