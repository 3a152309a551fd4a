"""Lookalike names. A name is stored normalised (NFC, no invisible or bidi control
characters, single spaces) and two players of a club never share its case-folded key."""

from __future__ import annotations

import unicodedata

import pytest
from django.db import IntegrityError, transaction
from hypothesis import given
from hypothesis import strategies as st

from club.clubs.forms.setup import PlayerForm
from club.clubs.models import Player
from club.clubs.services.setup import add_players
from club.lib.names import name_key, normalise_name
from club.play.forms.nights import parse_names

LOOKALIKES = [
    "Ann\u200b Baxter",  # zero-width space
    "Ann Baxter\u200d",  # zero-width joiner
    "\u202eAnn Baxter",  # right-to-left override
    "\u2067Ann Baxter\u2069",  # right-to-left isolate
    "Ann\u00a0Baxter",  # no-break space
    "\ufeffAnn  Baxter",  # byte-order mark, two spaces
    "ANN BAXTER",
    "ann baxter",
]


@pytest.mark.parametrize("lookalike", LOOKALIKES)
def test_a_lookalike_of_a_players_name_is_refused(club, lookalike):
    Player.objects.create(club=club, name="Ann Baxter")
    form = PlayerForm({"name": lookalike}, club=club)
    assert not form.is_valid()
    assert form.errors["name"] == ["There is already a player called Ann Baxter in this club."]
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name=lookalike)


def test_accents_typed_either_way_are_one_name(club):
    Player.objects.create(club=club, name="Zo\u00eb")  # precomposed
    decomposed = "Zoe\u0308"
    assert not PlayerForm({"name": decomposed}, club=club).is_valid()
    assert add_players(club, [decomposed])[0].name == "Zo\u00eb"
    assert Player.objects.count() == 1


def test_names_are_stored_normalised(club):
    player = Player.objects.create(club=club, name="  \u202eBob\u200b   Smith ")
    player.refresh_from_db()
    assert player.name == "Bob Smith" and player.name_key == "bob smith"
    player.name = "Bob\u2066 SMITHSON"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("Bob SMITHSON", "bob smithson")


def test_the_night_form_reads_lookalikes_as_one_new_name():
    assert parse_names("Ann Baxter, ann\u200b baxter\n\u202eANN BAXTER; Cy") == ["Ann Baxter", "Cy"]


def test_a_lookalike_of_an_inactive_player_brings_them_back(club):
    ann = Player.objects.create(club=club, name="Ann Baxter", active=False)
    (back,) = add_players(club, ["ann\u200b BAXTER"])
    assert back.pk == ann.pk and Player.objects.get(pk=ann.pk).active


@given(st.text(max_size=30))
def test_normalising_is_idempotent_and_leaves_nothing_invisible(text):
    once = normalise_name(text)
    assert normalise_name(once) == once
    assert name_key(once) == name_key(text)
    assert not any(unicodedata.category(c) in ("Cf", "Cc") for c in once)
    assert once == once.strip() and "  " not in once


@pytest.mark.django_db(transaction=True)
def test_the_migration_normalises_existing_names_and_keeps_lookalikes_apart():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from club.money.models.ledger import install_debt_check
    from club.play.models.totals import install_triggers

    before = ("club", "0007_table_links")
    # SQLite rebuilds tables when migrating back; the ledger's trigger on club_debt names
    # club_night and would stop that. Migrations leave the triggers to post_migrate, so this test
    # takes that one off and puts both back itself.
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for event in ("INSERT", "UPDATE"):
                cursor.execute(f"DROP TRIGGER IF EXISTS club_debt_same_club_{event}")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    apps = executor.loader.project_state([before]).apps
    OldClub = apps.get_model("club", "Club")
    OldPlayer = apps.get_model("club", "Player")
    club = OldClub.objects.create(name="Old", slug="old")
    OldPlayer.objects.create(club=club, name="Ann Baxter")
    OldPlayer.objects.create(club=club, name="Ann\u200b Baxter")
    OldPlayer.objects.create(club=club, name="\u202eCy  Twombly")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    install_triggers(connection)
    install_debt_check(connection)
    names = list(
        Player.objects.filter(club__slug="old").order_by("pk").values_list("name", "name_key")
    )
    assert names == [
        ("Ann Baxter", "ann baxter"),
        ("Ann Baxter (2)", "ann baxter (2)"),
        ("Cy Twombly", "cy twombly"),
    ]
