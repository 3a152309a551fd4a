"""The service worker that lets an opened table page load again with no connection.

It is served from the site root (`/sw.js`), not from /static/, because a worker only controls
pages under the folder it comes from: from the root it covers the club pages (`/c/...`) and the
table links (`/t/<token>/...`). It caches the table pages the phone has opened and the static
files they use; saves made offline are kept by the page itself (static/js/offline-queue.js).
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import path
from django.views.decorators.http import require_GET

# What a table page needs to draw itself (the pages say the same in their <head> and scripts).
SHELL_ASSETS = (
    "css/app.css",
    "css/entry.css",
    "django_htmx/htmx-2.min.js",
    "js/vendor/idb-keyval.umd.js",
    "js/offline-queue.js",
    "js/entry-form.js",
    "js/table-events.js",
    "js/table-fields.js",
    "js/table-drafts.js",
    "js/table-outbox.js",
    "js/table-poll.js",
    "js/table.js",
    # A table's link page (club/play/views/table_links.py) adds these.
    "css/table_links.css",
    "js/table_link.js",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    assets = [static(name) for name in SHELL_ASSETS]
    # A new release (new hashed static names, or a change here) gets a new cache.
    version = hashlib.sha256(json.dumps(assets).encode()).hexdigest()[:12]
    script = render_to_string(
        "play/offline/sw.js", {"assets": json.dumps(assets), "version": json.dumps(version)}
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit; never keep an old one in a cache.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


urlpatterns = [path("sw.js", service_worker, name="service_worker")]


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the page says: the app's icon."""
    return redirect(static("favicon.svg"), permanent=True)
