"""A club leaves: closed, it is hidden at once; purged, no row refers to it, its players or its
accounts that belong to no other club, while another club on the server keeps every row. An
operator undoes a closing within the 14 days; a forgotten player's amounts still add up."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Invitation, Membership, Player, PlayerClaim, Role
from club.clubs.services import clubs_lifecycle
from club.demo.services import demo, demo_showcase
from club.money.models import Debt, Delivery
from club.money.services import ledger
from club.play.models import Arrival, NightTotal, ScoreLine, TableLink
from club.play.services import arrivals, table_links

pytestmark = pytest.mark.django_db(transaction=True)


def row_counts() -> Counter:
    """Rows of every model installed (Django's own, axes', the task queue's, the club's)."""
    return Counter(
        {
            model._meta.label: model._base_manager.count()
            for model in apps.get_models(include_auto_created=True)
        }
    )


def refers_to(club_id: int, player_ids: set[int], user_ids: set[int]) -> list[str]:
    """Every row of any model whose foreign key names the club, one of its players or one of its
    gone accounts."""
    User = get_user_model()
    targets = {Club: {club_id}, Player: player_ids, User: user_ids}
    found = []
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.get_fields():
            if not isinstance(field, models.ForeignKey):
                continue
            ids = targets.get(field.related_model)
            if ids and model._base_manager.filter(**{f"{field.attname}__in": ids}).exists():
                found.append(f"{model._meta.label}.{field.name}")
    return found


@pytest.fixture
def kept_club(db):
    """Another club on the server, with its own season of hands, a secretary of its own and a
    member shared with the doomed club."""
    summary = demo.seed(slug="keep", name="Red Lion Solo", hands=40, with_users=False, seed=3)
    User = get_user_model()
    keeper = User.objects.create_user("keeper", "keeper@example.org", "pw-keeper")
    both = User.objects.create_user("both", "both@example.org", "pw-both")
    Membership.objects.create(club=summary.club, user=keeper, role=Role.SECRETARY)
    Membership.objects.create(club=summary.club, user=both, role=Role.VIEWER)
    queued("club.grades.services.grades.drain_grades", summary.club.pk)  # the kept club's: stays
    return summary.club


def queued(task: str, *args: int) -> None:
    """A row of the database task queue, as the worker would find it."""
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.create(
        task_path=task,
        args_kwargs={"args": list(args), "kwargs": {}},
        backend_name="default",
        run_after=timezone.now(),
    )


def doomed_club() -> Club:
    """A club with one of everything: nights, hands, a tournament, published results and their
    emails, debts part-paid and netted, grades, cards, links, arrivals, claims, invitations."""
    summary = demo.seed(slug="doomed", hands=60, seed=1)
    club = summary.club
    demo_showcase.showcase(club)
    secretary = get_user_model().objects.get(username="secretary")
    both = get_user_model().objects.get(username="both")
    Membership.objects.create(club=club, user=both, role=Role.SCORER)
    loner = get_user_model().objects.create_user("loner", "loner@example.org", "pw")
    Invitation.objects.create(club=club, user=loner, role=Role.VIEWER, invited_by=secretary)
    players = list(club.players.order_by("name"))
    arrivals.tick_in(club, players[0])
    PlayerClaim.objects.create(player=players[1], token_hash="f" * 64)
    open_night = club.seasons.get().nights.filter(status="open").first() or (
        club.seasons.get().nights.first()
    )
    table_links.night_links(open_night, secretary)
    owed = ledger.owed_pairs(club)
    pair = next(((a, b) for (a, b) in owed if (b, a) in owed), None)
    if pair is not None:
        ledger.net_pair(club, Player.objects.get(pk=pair[0]), Player.objects.get(pk=pair[1]), None)
    queued("club.grades.services.grades.drain_grades", club.pk)
    queued("club.money.services.publish.publish_when_due", open_night.pk)
    return club


def test_a_purged_club_leaves_no_row_and_the_other_club_every_row(kept_club):
    before = row_counts()
    kept_totals = list(
        NightTotal.objects.filter(season__club=kept_club).values_list("player_id", "net", "hands")
    )
    club = doomed_club()
    assert ScoreLine.objects.filter(season__club=club).exists()
    assert Debt.objects.filter(club=club).exists() and Delivery.objects.exists()
    assert TableLink.objects.filter(table__night__season__club=club).exists()
    player_ids = set(club.players.values_list("pk", flat=True))
    gone_users = set(
        get_user_model()
        .objects.filter(username__in=["secretary", "scorer", "viewer", "loner"])
        .values_list("pk", flat=True)
    )
    assert len(gone_users) == 4
    during = row_counts()
    assert during != before

    out = StringIO()
    call_command("delete_club", "doomed", "--now", stdout=out)

    said = int(re.search(r"for good: (\d+) rows, 4 accounts", out.getvalue()).group(1))
    # The log line's count is true: every row made since, and the closing's own audit event.
    assert said == sum(during.values()) - sum(before.values()) + 1

    assert refers_to(club.pk, player_ids, gone_users) == []
    assert row_counts() == before  # every model, row for row: the other club lost nothing
    assert not Club.all_objects.filter(slug="doomed").exists()
    assert get_user_model().objects.filter(username="both").exists()  # member of the other club
    assert Membership.objects.filter(user__username="both", club=kept_club).exists()
    assert (
        list(
            NightTotal.objects.filter(season__club=kept_club).values_list(
                "player_id", "net", "hands"
            )
        )
        == kept_totals
    )


def test_closing_hides_the_club_at_once_and_the_purge_waits_its_14_days(kept_club):
    club = doomed_club()
    link = TableLink.objects.filter(table__night__season__club=club, revoked_at=None).first()
    secretary = get_user_model().objects.get(username="secretary")
    browser = Client()
    browser.force_login(secretary)
    assert browser.get(reverse("club", args=["doomed"])).status_code == 200
    token = link.token
    assert table_links.find(token) is not None
    assert browser.get(reverse("link_table", args=[token])).status_code == 200

    clubs_lifecycle.close_club(club, secretary)

    outsider = Client()
    outsider.force_login(get_user_model().objects.get(username="keeper"))
    for name in ("club", "club_setup", "night_list", "standings", "player_list"):
        # Its member is told it closed (gone: 410); to anyone else it is a club that never was.
        answer = browser.get(reverse(name, args=["doomed"]))
        assert answer.status_code == 410, name
        assert "It will be deleted for good after" in answer.content.decode()
        assert outsider.get(reverse(name, args=["doomed"])).status_code == 404, name
    home = browser.get(reverse("home"))
    assert home.status_code == 200
    assert reverse("club", args=["doomed"]) not in home.content.decode()  # no link to it
    assert "it will be deleted for good after" in home.content.decode()  # listed as closing
    assert table_links.find(token) is None
    assert Client().get(reverse("link_table", args=[token])).status_code == 404
    assert Club.objects.filter(slug="doomed").count() == 0  # in no list

    call_command("purge_clubs")  # not yet: 14 days
    assert Club.all_objects.filter(slug="doomed").exists()
    later = timezone.now() + dt.timedelta(days=clubs_lifecycle.KEEP_CLOSED_DAYS, minutes=1)
    purged = clubs_lifecycle.purge_due(later)
    assert [p.slug for p in purged] == ["doomed"]
    assert not Club.all_objects.filter(slug="doomed").exists()
    assert Club.objects.filter(slug="keep").exists()


def test_an_operator_reopens_a_closed_club_with_every_row(kept_club):
    club = doomed_club()
    lines = ScoreLine.objects.filter(season__club=club).count()
    call_command("delete_club", "doomed")
    assert not Club.objects.filter(slug="doomed").exists()
    call_command("reopen_club", "doomed")
    club = Club.objects.get(slug="doomed")
    assert ScoreLine.objects.filter(season__club=club).count() == lines
    assert (club.closed_at, club.delete_after, club.closed_because) == (None, None, "")
    assert AuditEvent.objects.filter(club=club, subject="Club account reopened").exists()
    call_command("purge_clubs")
    assert Club.objects.filter(slug="doomed").exists()


def test_the_purge_logs_its_accounts_out_everywhere(kept_club):
    club = doomed_club()
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="secretary"))
    keeper = Client()
    keeper.force_login(get_user_model().objects.get(username="keeper"))
    assert Session.objects.count() == 2
    clubs_lifecycle.close_club(club, None, days=0)
    call_command("purge_clubs")
    assert Session.objects.count() == 1  # the keeper's
    assert keeper.get(reverse("club", args=["keep"])).status_code == 200


def nets(club: Club) -> list[tuple[int, int, int]]:
    return sorted(
        NightTotal.objects.filter(season__club=club).values_list("night_id", "player_id", "net")
    )


def test_a_forgotten_player_is_gone_by_name_and_every_amount_still_adds_up(kept_club):
    club = doomed_club()
    ann = club.players.exclude(user=None).first()
    name, email = ann.name, ann.email
    nets_before = nets(club)
    balances_before = ledger.balances(club)
    assert Delivery.objects.filter(player=ann).exclude(email="").exists()

    forgotten = clubs_lifecycle.forget_player(ann, None)

    forgotten.refresh_from_db()
    assert forgotten.name == "Former player 1"
    assert (forgotten.email, forgotten.user_id, forgotten.email_results) == ("", None, False)
    assert not Delivery.objects.filter(player=ann).exclude(email="").exists()
    assert not PlayerClaim.objects.filter(player=ann).exists()
    assert not club.players.filter(name=name).exists()
    assert not AuditEvent.objects.filter(club=club, subject__contains=name).exists()
    assert email not in str(list(AuditEvent.objects.filter(club=club).values("before", "after")))
    assert nets(club) == nets_before
    assert sum(net for _night, _player, net in nets(club)) == 0  # every hand still balances
    assert ledger.balances(club) == balances_before
    assert sum(ledger.balances(club).values()) == 0
    second = clubs_lifecycle.forget_player(club.players.exclude(pk=ann.pk).first(), None)
    assert second.name == "Former player 2"
    with pytest.raises(clubs_lifecycle.LifecycleError):
        clubs_lifecycle.forget_player(forgotten, None)
    assert Arrival.objects.filter(club=club).exists()


def test_a_closed_club_publishes_and_emails_nothing_until_it_is_reopened(
    night, table4, table5, players, secretary, club
):
    from club.money.services.publish import publish_due
    from club.play.services.nights import close_night
    from tests.kits.ledger_kit import give_emails, play

    give_emails(players)
    play(table4, secretary, players[1], "solo", 6)
    close_night(night, secretary)
    clubs_lifecycle.close_club(club, secretary)
    # Its members are told it closed (the secretary has the only address), and nothing more.
    assert [(m.to, m.subject) for m in mail.outbox] == [
        ([secretary.email], f"{club.name} has closed on Solo Whist")
    ]
    mail.outbox.clear()
    after_window = timezone.now() + dt.timedelta(minutes=31)
    assert publish_due(after_window) == (0, 0)
    night.refresh_from_db()
    assert not night.is_published and mail.outbox == []
    clubs_lifecycle.reopen_club(club)
    assert publish_due(after_window)[0] == 1
    # Emailed once reopened: each player who played a hand (table 1's four; table 2 played none).
    played = {seat.player.email for seat in table4.seats.all()}
    assert sorted(m.to[0] for m in mail.outbox) == sorted(played)


def test_a_dump_restores_a_closed_club_still_closed(club, players, secretary, tmp_path):
    clubs_lifecycle.close_club(club, secretary)
    dump = tmp_path / "backup.json"
    call_command(
        "dumpdata", "--natural-foreign", "--natural-primary", "--exclude=contenttypes",
        "--exclude=auth.permission", "--exclude=sessions", "--exclude=admin.logentry",
        output=str(dump), verbosity=0,
    )  # fmt: skip
    call_command("flush", "--noinput", verbosity=0)
    call_command("loaddata", str(dump), verbosity=0)
    restored = Club.all_objects.get(slug=club.slug)
    assert restored.closed_because == "secretary" and not Club.objects.exists()
    assert restored.players.count() == len(players)
