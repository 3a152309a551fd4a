"""The page a visitor sees when the server fails: it says so plainly and gives the request's
reference, which the operator finds in the logs beside the error
(club.operations.logs.request_log)."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader

from club.operations.logs.request_log import request_id_of
from club.operations.views import outage


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    if error is not None and outage.is_outage(error):
        # The database went away after the view (a session saved on the way out): still a 503.
        return outage.unavailable(request, error)
    reference = request_id_of(request)
    try:
        # A page of its own, with no club, user or database in it: whatever failed, this renders.
        body = loader.get_template("500.html").render({"reference": reference})
    except Exception:
        body = f"<h1>Server error</h1><p>Reference: {reference}</p>"
    return HttpResponseServerError(body)
