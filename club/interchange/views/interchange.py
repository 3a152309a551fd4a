"""The club data file in the app: export (the whole club, or one night), import with a preview and
a confirmation, the paper-sheet CSV template, and the format's JSON Schema.

Export and import are the secretary's (MANAGE): a scorer or viewer gets 403, anyone outside a
private club 404, and an anonymous visitor is asked to log in. The schema is public.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.cache import cache_control

from club.clubs.models import Club
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.interchange import (
    BACKUP,
    LEAGUE_SCHEMA_PATH,
    LEAGUE_VERSION,
    SCHEMA_PATHS,
    SHAREABLE,
    VERSIONS,
)
from club.interchange.format import document
from club.interchange.forms.interchange import ConfirmImportForm, ImportForm
from club.interchange.services import csv_sheets, staging
from club.interchange.services.export import export_text
from club.interchange.services.import_summary import Summary
from club.interchange.services.importer import existing_for, import_document
from club.lib.words import count
from club.play.models import Night
from club.play.queries import night_access


def _download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@login_if_hidden
def club_export(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    today = club.today().isoformat()
    # ?kind=shareable: without emails, accounts, token hashes and the audit trail.
    shareable = request.GET.get("kind") == SHAREABLE
    text = export_text(club, kind=SHAREABLE if shareable else BACKUP)
    suffix = "-shareable" if shareable else ""
    return _download(text, f"{club.slug}-{today}{suffix}.json", "application/json")


@login_if_hidden
def night_export(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    text = export_text(club, nights=Night.objects.filter(pk=night.pk))
    suffix = f"-{night.title}" if night.title else ""
    filename = f"{club.slug}-{night.date.isoformat()}{suffix}.json"
    return _download(
        text, "".join(c if c.isalnum() or c in "-_." else "-" for c in filename), "application/json"
    )


@login_if_hidden
def csv_template(request: HttpRequest, slug: str) -> HttpResponse:
    access.get_club(request, slug, access.MANAGE)
    return _download(csv_sheets.template(), "paper-sheets-template.csv", "text/csv")


def _read(club: Club, raw: bytes, kind: str) -> document.Document:
    if kind == "csv":
        return csv_sheets.read_csv(raw, club)
    return document.read(raw, existing_for(club))


def _page(request: HttpRequest, club: Club, **context: object) -> HttpResponse:
    return render(
        request,
        "interchange/setup/import.html",
        {"club": club, "form": context.pop("form", None) or ImportForm(), **context},
    )


@login_if_hidden
def club_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload, then a preview of what the file adds (or every problem in it), then confirm."""
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return _page(request, club)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, club, form=form)
    upload = form.cleaned_data["file"]
    raw = upload.read()
    name = upload.name
    try:
        doc = _read(club, raw, form.kind)
        # Counted as carried: the page offers to carry them (ticked), or not.
        _, summary = import_document(
            doc,
            into=club,
            user=access.acting_user(request),
            dry_run=True,
            carry_settle_ups=True,
        )
    except document.ImportRefused as refused:
        return _page(request, club, form=form, problems=refused.problems, filename=name)
    token = staging.stage(
        raw, club_id=club.pk, user_id=access.signed_in(request).pk, kind=form.kind, name=name
    )
    return _page(
        request,
        club,
        summary=summary,
        filename=name,
        confirm=ConfirmImportForm(initial={"token": token}),
    )


@login_if_hidden
def club_import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = ConfirmImportForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Upload the file again: the confirmation was incomplete.")
        return redirect("club_import", slug=club.slug)
    try:
        staged = staging.load(
            form.cleaned_data["token"], club_id=club.pk, user_id=access.signed_in(request).pk
        )
    except staging.StagingError as error:
        messages.error(request, str(error))
        return redirect("club_import", slug=club.slug)
    try:
        doc = _read(club, staged.raw, staged.kind)
        _, summary = import_document(
            doc,
            into=club,
            user=access.acting_user(request),
            source=staged.name,
            carry_settle_ups=form.cleaned_data["carry_settle_ups"],
        )
    except document.ImportRefused as refused:
        # The club changed since the preview (a night entered meanwhile): nothing was written.
        return _page(request, club, problems=refused.problems, filename=staged.name)
    staging.discard(staged.digest)
    messages.success(request, _done(summary, staged.name))
    return redirect("club_setup", slug=club.slug)


def _done(summary: Summary, name: str) -> str:
    done = (
        f"Imported {name}: {count(len(summary.nights), 'night')}, "
        f"{count(summary.tables, 'table')}, {count(summary.hands, 'hand')}; "
        f"{count(len(summary.players_added), 'player')} added."
    )
    carried = summary.settle_ups_line()
    return f"{done} {carried}" if carried else done


@cache_control(public=True, max_age=3600)
def schema(request: HttpRequest, version: int) -> FileResponse:
    """The JSON Schema of the club data file, for other tools to validate against."""
    return FileResponse(SCHEMA_PATHS[version].open("rb"), content_type="application/schema+json")


@cache_control(public=True, max_age=3600)
def league_schema(request: HttpRequest) -> FileResponse:
    """The JSON Schema of the league file."""
    return FileResponse(LEAGUE_SCHEMA_PATH.open("rb"), content_type="application/schema+json")


urlpatterns = [
    path("setup/export/", club_export, name="club_export"),
    path("setup/import/", club_import, name="club_import"),
    path("setup/import/confirm/", club_import_confirm, name="club_import_confirm"),
    path("setup/import/template.csv", csv_template, name="import_csv_template"),
    path("nights/<int:night_id>/export/", night_export, name="night_export"),
]
schema_urlpatterns = [
    path(
        f"schema/solo-whist-club-v{version}.json",
        schema,
        {"version": version},
        name="interchange_schema" if version == 1 else f"interchange_schema_v{version}",
    )
    for version in VERSIONS
]
schema_urlpatterns.append(
    path(
        f"schema/solo-whist-league-v{LEAGUE_VERSION}.json",
        league_schema,
        name="interchange_schema_league",
    )
)
