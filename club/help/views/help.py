"""Help: the guides of docs/ served by the app itself, their pictures, and the players' guide as
a one-page PDF a club can print for its tables. Anyone may read them, signed in or not (they hold
nothing of any club)."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from club.help.queries import guides
from club.lib.pdf import pdf_response, render_pdf

PRINTED = "players"  # the guide a club prints for its tables


@require_safe
def help_index(request: HttpRequest) -> HttpResponse:
    context = {"guides": guides.club_guides(), "host_guides": guides.host_guides()}
    return render(request, "help/index.html", context)


@require_safe
def help_page(request: HttpRequest, name: str) -> HttpResponse:
    guide = guides.guide(name)
    if guide is None:
        raise Http404(f"There is no guide called {name}")
    return render(
        request,
        "help/page.html",
        {
            "guide": guide,
            "body": mark_safe(guide.html),  # the project's own docs/, not input
            "printable": name == PRINTED,
            "guides": guides.names(),
        },
    )


@require_safe
def help_image(request: HttpRequest, name: str) -> FileResponse:
    found = guides.image_path(name)
    if found is None:
        raise Http404(f"There is no picture called {name}")
    response = FileResponse(found.open("rb"), content_type=guides.IMAGE_TYPES[found.suffix])
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def players_pdf(request: HttpRequest) -> HttpResponse:
    """The players' guide on one A4 page, without its pictures, to print for the tables."""
    guide = guides.guide(PRINTED, images=False)
    if guide is None:  # pragma: no cover - docs/players.md is part of the app
        raise Http404("The players' guide is missing")
    pdf = render_pdf(
        "help/players_pdf.html",
        {"guide": guide, "body": mark_safe(guide.html), "printed_at": timezone.now()},
    )
    return pdf_response(pdf, "scoring-at-the-table.pdf")


urlpatterns = [
    path("help/", help_index, name="help"),
    path("help/players.pdf", players_pdf, name="help_players_pdf"),
    path("help/images/<str:name>", help_image, name="help_image"),
    path("help/<slug:name>/", help_page, name="help_page"),
]
