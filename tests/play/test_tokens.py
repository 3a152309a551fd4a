"""Revoking and re-issuing a table's link or a table's card, through the one pair of views that
serves both: the old token stops working at once, the new one works, each change is audited
once, and another club's secretary (404) or this club's scorer (403) changes nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import TableCard, TableLink
from club.play.services import table_cards as card_service
from club.play.services import table_links as link_service

pytestmark = pytest.mark.django_db


def text(response) -> str:
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return html.unescape(re.sub(r"\s+", " ", words))


@pytest.fixture(params=["link", "card"])
def issued(request, club, night, table4, secretary):
    """One live token of each kind: its revoke and re-issue addresses, its page, its name."""
    if request.param == "link":
        link = link_service.night_links(night, secretary)[table4.pk]
        ids = [club.slug, night.pk, table4.pk]
        return {
            "kind": "link",
            "revoke": reverse("table_link_revoke", args=ids),
            "reissue": reverse("table_link_reissue", args=ids),
            "other": reverse("table_link_revoke", args=["redlion", night.pk, table4.pk]),
            "page": lambda token: reverse("link_table", args=[token]),
            "token": link.token,
            "live": lambda: TableLink.objects.filter(table=table4, revoked_at=None),
            "subject": "Table 1's link",
            "asks": "Revoke table 1's link?",
        }
    card = card_service.issue_cards(club, secretary)[0]
    return {
        "kind": "card",
        "revoke": reverse("table_card_revoke", args=[club.slug, card.pk]),
        "reissue": reverse("table_card_reissue", args=[club.slug, card.pk]),
        "other": reverse("table_card_revoke", args=["redlion", card.pk]),
        "page": lambda token: reverse("card_page", args=[token]),
        "token": card.token,
        "live": lambda: TableCard.objects.filter(club=club, number=1, revoked_at=None),
        "subject": "Table 1's card",
        "asks": "Revoke Table 1's card?",
    }


def _audited(club, subject: str, action: str) -> int:
    return AuditEvent.objects.filter(club=club, subject=subject, action=action).count()


def test_revoking_asks_first_then_stops_the_token_once_and_audits_it(
    client, club, secretary, issued
):
    client.force_login(secretary)
    assert client.get(issued["page"](issued["token"])).status_code != 404
    asked = client.get(issued["revoke"])
    assert issued["asks"] in text(asked)
    assert issued["live"]().count() == 1  # asking changes nothing
    done = client.post(issued["revoke"], follow=True)
    assert "is revoked" in text(done)
    assert not issued["live"]().exists()
    assert client.get(issued["page"](issued["token"])).status_code == 404
    again = client.post(issued["revoke"], follow=True)
    assert ("had no live link" if issued["kind"] == "link" else "was revoked already") in text(
        again
    )
    assert _audited(club, issued["subject"], AuditEvent.Action.REVOKE) == 1


def test_reissuing_gives_a_new_working_token_and_the_old_one_is_not_found(
    client, club, secretary, issued
):
    client.force_login(secretary)
    issues_before = _audited(club, issued["subject"], AuditEvent.Action.ISSUE)
    client.post(issued["reissue"])
    new = issued["live"]().get()
    assert new.token != issued["token"]
    assert client.get(issued["page"](issued["token"])).status_code == 404
    assert client.get(issued["page"](new.token)).status_code != 404
    assert new.issued_by == secretary
    assert _audited(club, issued["subject"], AuditEvent.Action.REVOKE) == 1
    assert _audited(club, issued["subject"], AuditEvent.Action.ISSUE) == issues_before + 1


def test_another_clubs_secretary_and_a_scorer_change_nothing(
    client, club, scorer, outsider, issued
):
    audit_before = AuditEvent.objects.count()
    client.force_login(outsider)
    for url in (issued["revoke"], issued["reissue"], issued["other"]):
        assert client.post(url).status_code == 404
    client.force_login(scorer)
    for url in (issued["revoke"], issued["reissue"]):
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    assert issued["live"]().get().token == issued["token"]
    assert AuditEvent.objects.count() == audit_before
