"""Every page type sends the Content Security Policy and the other security headers,
no template carries what the policy would refuse, and a club may let its own site frame the
tournament projector page (and only that page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from club.clubs.forms.setup import ClubSettingsForm
from club.lib import charts
from tests.kits.scorebook import play
from tests.kits.tournament_kit import field, make_tournament

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'self'",
    "object-src": "'none'",
}


def policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    parts = (p.strip().split(None, 1) for p in header.split(";") if p.strip())
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def assert_locked_down(response) -> None:
    csp = policy(response)
    for directive, value in DIRECTIVES.items():
        assert csp.get(directive) == value, (directive, csp)
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] in {"same-origin", "strict-origin-when-cross-origin"}
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.fixture
def pages(club, night, season, secretary, players):
    play(night, secretary, players[0])
    tournament = make_tournament(season, field(club, 8), director=secretary)
    slug = club.slug
    return {
        "home": reverse("home"),
        "login": reverse("login"),
        "club": reverse("club", args=[slug]),
        "nights": reverse("night_list", args=[slug]),
        "night": reverse("night_detail", args=[slug, night.pk]),
        "table": reverse("table_detail", args=[slug, night.tables.get(number=1).pk]),
        "standings": reverse("standings", args=[slug]),
        "player": reverse("player_detail", args=[slug, players[0].pk]),
        "setup": reverse("club_setup", args=[slug]),
        "members": reverse("member_list", args=[slug]),
        "tournament": reverse("tournament_detail", args=[slug, tournament.pk]),
        "projector": reverse("leaderboard", args=[slug, tournament.pk]),
        "night sheet": reverse("night_sheet", args=[slug, night.pk]),
        "standings csv": reverse("standings_csv", args=[slug]),
    }


def test_every_page_type_sends_the_policy_and_headers(client, secretary, pages):
    client.force_login(secretary)
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == (302 if name == "home" else 200), name
        assert_locked_down(response)


def test_anonymous_and_error_pages_send_it_too(client, club, pages):
    for url in (pages["home"], pages["login"], pages["night"], "/c/no-such-club/"):
        assert_locked_down(client.get(url))


def test_a_club_may_let_its_own_site_frame_the_projector_only(client, club, secretary, pages):
    club.projector_embed_origins = "https://crown-solo.example.org https://screens.example.org"
    club.save()
    client.force_login(secretary)
    projector = client.get(pages["projector"])
    csp = policy(projector)
    assert csp["frame-ancestors"] == "https://crown-solo.example.org https://screens.example.org"
    assert "X-Frame-Options" not in projector.headers
    assert csp["script-src"] == "'self'"
    for name in ("tournament", "night", "standings"):
        other = client.get(pages[name])
        assert policy(other)["frame-ancestors"] == "'none'", name
        assert other.headers["X-Frame-Options"] == "DENY", name


@pytest.mark.parametrize(
    "value",
    [
        "http://crown.example.org",
        "https://crown.example.org/page",
        "https://crown.example.org; script-src *",
        "*",
        "'self'",
    ],
)
def test_embedding_origins_must_be_plain_https_origins(club, value):
    data = {
        "name": club.name,
        "unit_kind": "money",
        "currency_symbol": "£",
        "minor_units": 100,
        "points_label": "pts",
        "projector_embed_origins": value,
    }
    form = ClubSettingsForm(data, instance=club)
    assert not form.is_valid()
    assert "projector_embed_origins" in form.errors


def _template_texts():
    for path in TEMPLATES.rglob("*.html"):
        if "pdf" in path.relative_to(TEMPLATES).parts:
            continue  # WeasyPrint's input, never a browser's: the policy does not apply
        yield path.relative_to(TEMPLATES), path.read_text()


def test_no_template_has_inline_script_style_or_handlers():
    found = []
    for name, text in _template_texts():
        text = re.sub(r"{#.*?#}|{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
        for match in re.finditer(r"<script\b[^>]*>", text):
            tag = match.group(0)
            if "src=" not in tag and 'type="application/json"' not in tag:
                found.append((name, tag))
        found += [(name, m.group(0)) for m in re.finditer(r"<style\b", text)]
        found += [(name, m.group(0)) for m in re.finditer(r"\sstyle\s*=", text)]
        found += [(name, m.group(0)) for m in re.finditer(r"\son[a-z]+\s*=", text)]
        found += [(name, m.group(0)) for m in re.finditer(r"\shx-on[:-]", text)]
    assert found == []


def test_server_drawn_charts_carry_no_style_attributes():
    line = charts.line_chart(
        [charts.Series("Ann", [1, -2, 3]), charts.Series("Bob", [0, 2, -1])],
        ["1 Nov", "8 Nov", "15 Nov"],
        title="Season",
        description="Nets",
    )
    spark = charts.sparkline([1, -2, 3], label="Ann")
    for svg in (str(line), str(spark)):
        assert "<svg" in svg
        assert "style=" not in svg
        assert "<style" not in svg
