"""A player's printed statement (/c/<club>/players/<id>/statement.pdf) shows the money he owes or
is owed only to the club's secretaries and to the member whose claimed record it is: to the public
of a public club, a viewer, a scorer or another member it is the season's figures without it.
Read back with pdftotext."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import Membership, Role
from club.money.services import ledger
from club.play.services.nights import close_night
from tests.kits.ledger_kit import nets, play


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return " ".join(done.stdout.decode().split())


@pytest.fixture
def owing(night, table4, players, secretary, club):
    """Bob fails a misère at table 1: he owes Ann, Cat and Dan, closed on the ledger."""
    play(table4, secretary, players[1], "misere", 1)
    close_night(night, secretary)
    bob = players[1]
    assert ledger.balance(bob) == nets(night)["Bob"] < 0
    return bob


def _member(django_user_model, club, name, role=Role.VIEWER):
    user = django_user_model.objects.create_user(username=name, password="pw")
    Membership.objects.create(user=user, club=club, role=role)
    return user


@pytest.mark.parametrize(
    ("who", "sees"),
    [
        ("anonymous", False),  # the club is public: anyone reads its statements
        ("viewer", False),
        ("scorer", False),
        ("another member", False),  # a member whose claimed record is Ann's, not Bob's
        ("own account", True),  # the member who claimed Bob's record
        ("secretary", True),
    ],
)
def test_money_owed_is_printed_only_for_the_secretary_and_the_player_himself(
    who, sees, owing, night, club, season, players, secretary, scorer, viewer, django_user_model
):
    club.is_public = True
    club.save()
    client = Client()
    if who == "viewer":
        client.force_login(viewer)
    elif who == "scorer":
        client.force_login(scorer)
    elif who == "secretary":
        client.force_login(secretary)
    elif who == "another member":
        ann = players[0]
        ann.user = _member(django_user_model, club, "ann")
        ann.save()
        client.force_login(ann.user)
    elif who == "own account":
        owing.user = _member(django_user_model, club, "bob")
        owing.save()
        client.force_login(owing.user)
    url = reverse("player_statement", args=[club.slug, owing.pk]) + f"?season={season.pk}"
    response = client.get(url)
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Statement · Bob · Winter 2026" in text  # the season's figures, for everyone
    assert club.format_amount(nets(night)["Bob"], signed=True) in text
    owed = f"Bob owes {club.format_amount(-ledger.balance(owing))}"
    assert ("Money owed" in text) is sees, text
    assert (owed in text) is sees, text
