"""The one way a sheet becomes a PDF: a Django template rendered to HTML, laid out by WeasyPrint
and sent as a download with a meaningful file name.

The print templates link their stylesheet relative to the project's `static/` folder
(`<link href="css/print.css">`), which is the base URL of every sheet. WeasyPrint may read files
under that folder and `data:` URLs, nothing else: a sheet never reaches the network, and a name
typed into the app can never make it read a file (names are escaped by the template anyway).
Fonts come from fontconfig: DejaVu Sans (Debian's fonts-dejavu-core, see the README) has the suit
symbols, £, $ and accented letters.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import weasyprint
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.utils.text import slugify

PDF_MIME = "application/pdf"


def static_dir() -> Path:
    return Path(settings.BASE_DIR, "static").resolve()


@cache
def base_url() -> str:
    """The base URL the print templates' relative links resolve against: the static folder."""
    return static_dir().as_uri() + "/"


class StaticOnlyFetcher(weasyprint.URLFetcher):
    """Fetches `data:` URLs and files inside the static folder; refuses anything else, loudly
    (a sheet without its stylesheet must not be handed out as if it were fine)."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)

    def fetch(self, url: str, headers: Any = None) -> weasyprint.urls.URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "file":
            path = Path(unquote(parts.path)).resolve()
            if not path.is_relative_to(static_dir()):
                raise ValueError(f"A sheet may only use the project's static files, not {url}")
        return super().fetch(url, headers)


class SheetError(RuntimeError):
    """A sheet could not be laid out (e.g. it links a file it may not read)."""


def html_to_pdf(html: str) -> bytes:
    """Lay out the HTML of a sheet and return the PDF bytes."""
    document = weasyprint.HTML(string=html, base_url=base_url(), url_fetcher=StaticOnlyFetcher())
    try:
        return document.write_pdf()
    except weasyprint.urls.FatalURLFetchingError as error:
        # WeasyPrint's fatal fetching error is a BaseException, which Django would not turn into
        # a 500 page: make it an ordinary error.
        raise SheetError(str(error)) from error


def render_html(
    template_name: str, context: Mapping[str, Any], request: HttpRequest | None = None
) -> str:
    return render_to_string(template_name, dict(context), request=request)


def render_pdf(
    template_name: str, context: Mapping[str, Any], request: HttpRequest | None = None
) -> bytes:
    """Render a print template (an app's templates/<app>/pdf/) to PDF bytes."""
    return html_to_pdf(render_html(template_name, context, request))


def file_name(*parts: object) -> str:
    """`file_name("club-night", date)` -> "club-night-2026-11-20.pdf": ASCII, lower case, no
    spaces (accents are dropped: "Zoë" -> "zoe"), safe in a Content-Disposition header. Empty
    parts (None, "") are left out."""
    slugs = (slugify(str(p)) for p in parts if p not in (None, "", False))
    stem = "-".join(filter(None, slugs)) or "sheet"
    return f"{stem}.pdf"


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """A download of the PDF under `filename`; never cached by shared caches, and revalidated
    (an open night's sheet changes with every hand)."""
    response = HttpResponse(pdf, content_type=PDF_MIME)
    response["Content-Disposition"] = content_disposition_header(True, filename) or ""
    response["Content-Length"] = str(len(pdf))
    patch_cache_control(response, private=True, no_cache=True)
    return response


def sheet_response(
    template_name: str,
    context: Mapping[str, Any],
    filename: str,
    request: HttpRequest | None = None,
) -> HttpResponse:
    """Render the template to PDF and return it as a download."""
    return pdf_response(render_pdf(template_name, context, request), filename)
