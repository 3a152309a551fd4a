"""The htmx details of a request (django-htmx's middleware sets `request.htmx`, which Django's
own HttpRequest, and so its type stubs, does not have)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


def htmx(request: HttpRequest) -> HtmxDetails:
    """Truthy when htmx sent the request; `.boosted`, `.target` and the rest as django-htmx says."""
    details: HtmxDetails = request.htmx  # type: ignore[attr-defined]  # set by the middleware
    return details
