"""The page a visitor sees when the server fails: it says so plainly and gives the request's
reference, which the operator finds in the logs beside the error (club.request_log)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseServerError
from django.template import loader

from club.request_log import request_id_of


def server_error(request: HttpRequest) -> HttpResponseServerError:
    reference = request_id_of(request)
    try:
        # A page of its own, with no club, user or database in it: whatever failed, this renders.
        body = loader.get_template("500.html").render({"reference": reference})
    except Exception:
        body = f"<h1>Server error</h1><p>Reference: {reference}</p>"
    return HttpResponseServerError(body)
