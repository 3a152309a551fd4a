"""The correction window, publishing, and each player's results email."""

from __future__ import annotations

import datetime as dt
import re
import threading

import pytest
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from club.clubs.models import AuditEvent
from club.grades.models import GradeBacklog
from club.money.models import Debt, Delivery, Publication
from club.money.services import publish as publish_service
from club.money.services import results_mail
from club.money.services.publish import publish, publish_due, send_results
from club.play.models import Night
from club.play.services.hands import HandConflict, update_hand
from club.play.services.nights import close_night
from tests.kits.ledger_kit import FlakyBackend, core_payments, give_emails, nets, play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    """The test's transaction never commits: run what publishing queues after commit at once."""
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def played(night, table4, table5, players, secretary):
    """Table 1: Bob makes a solo, Cat fails an abundance. Table 2: Eve makes a misère."""
    ann, bob, cat, dan, eve = players[:5]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "abundance", 8)
    play(table5, secretary, eve, "misere", 0)
    return night


def test_closing_starts_the_correction_window_and_publishes_when_it_ends(
    played, secretary, players
):
    give_emails(players)
    close_night(played, secretary)
    played.refresh_from_db()
    assert played.is_provisional and not played.is_published
    assert played.publish_after == played.closed_at + dt.timedelta(minutes=30)
    assert mail.outbox == []
    # Before the window ends the periodic check leaves it alone...
    assert publish_due(played.closed_at + dt.timedelta(minutes=29)) == (0, 0)
    assert not Night.objects.get(pk=played.pk).is_published
    # ... and after, it publishes it, once.
    assert publish_due(timezone.now() + dt.timedelta(minutes=31))[0] == 1
    assert Night.objects.get(pk=played.pk).is_published
    assert publish_due(timezone.now() + dt.timedelta(minutes=31))[0] == 0
    assert Publication.objects.filter(night=played).count() == 1
    assert len(mail.outbox) == 8  # not the player who sat out table 2's only hand


def test_a_window_of_zero_publishes_on_close(played, secretary, club, players):
    club.correction_minutes = 0
    club.save()
    give_emails(players)
    close_night(played, secretary)
    played.refresh_from_db()
    assert played.is_published
    assert len(mail.outbox) == 8  # not the player who sat out table 2's only hand


def _figures(body: str) -> dict:
    net = re.search(r"Your net: ([+-]?£[\d.]+)", body)
    pays = re.findall(r"- You pay (\w+) £([\d.]+)", body)
    gets = re.findall(r"- (\w+) pays you £([\d.]+)", body)
    table = re.search(r"Place at table (\d+): (\d+) of (\d+)", body)
    return {
        "net": net.group(1) if net else None,
        "pays": sorted((n, round(float(a) * 100)) for n, a in pays),
        "gets": sorted((n, round(float(a) * 100)) for n, a in gets),
        "table": table.groups() if table else None,
    }


def test_publish_sends_one_message_per_opted_in_player_with_their_figures(
    played, secretary, players, club
):
    give_emails(players, opted_out=("Dan", "Gus"))
    players[8].email = ""  # Ivy has no address
    players[8].save()
    close_night(played, secretary)
    publish(played, secretary)

    expected = core_payments(played)
    by_name = nets(played)
    recipients = sorted(m.to[0] for m in mail.outbox)
    assert recipients == sorted(
        f"{p.name.lower()}@example.org" for p in players if p.name not in ("Dan", "Gus", "Ivy")
    )
    for message in mail.outbox:
        name = message.to[0].split("@")[0].capitalize()
        figures = _figures(message.body)
        assert figures["net"] == club.format_amount(by_name.get(name, 0), signed=True)
        assert figures["pays"] == sorted(
            (payee, a) for payer, payee, a in expected if payer == name
        )
        assert figures["gets"] == sorted(
            (payer, a) for payer, payee, a in expected if payee == name
        )
        assert message.subject == (
            f"Club night 20 Nov 2026: {club.format_amount(by_name.get(name, 0), signed=True)}"
            " · Crown & Anchor Solo School"
        )
        # An unsubscribe link that works without logging in, and the statement link.
        assert "/unsubscribe/" in message.body and "/statement.pdf?season=" in message.body
        assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/c/crown/")
    # Bob made a solo with one over-trick at table 1 (Ann, Bob, Cat, Dan): he is first there.
    bob = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert _figures(bob.body)["table"] == ("1", "1", "4")
    deliveries = Delivery.objects.filter(publication__night=played)
    assert deliveries.count() == 6 and set(deliveries.values_list("status", flat=True)) == {"sent"}


def test_email_balance_is_the_ledger_balance(played, secretary, players, club):
    give_emails(players)
    close_night(played, secretary)
    publish(played, secretary)
    for message in mail.outbox:
        name = message.to[0].split("@")[0].capitalize()
        net = nets(played).get(name, 0)
        if net > 0:
            assert f"you are owed {club.format_amount(net)}" in message.body
        elif net < 0:
            assert f"you owe {club.format_amount(-net)}" in message.body
        else:
            assert "square" in message.body


def test_publishing_twice_is_impossible(played, secretary, players):
    give_emails(players)
    close_night(played, secretary)
    assert publish(played, secretary) is not None
    assert publish(played, secretary) is None
    assert publish_service.publish(played, None, only_if_due=True) is None
    assert Publication.objects.filter(night=played).count() == 1
    assert len(mail.outbox) == 8  # not the player who sat out table 2's only hand
    assert AuditEvent.objects.filter(night=played, subject="Results published").count() == 1


def test_an_open_night_cannot_be_published(played, secretary):
    with pytest.raises(publish_service.PublishError, match="Close the night"):
        publish(played, secretary)


@pytest.mark.django_db(transaction=True)
def test_publishing_from_two_threads_at_once_publishes_once(
    night, table4, table5, players, secretary
):
    play(table4, secretary, players[1], "solo", 6)
    give_emails(players)
    close_night(night, secretary)
    barrier = threading.Barrier(4)
    results = []

    def go():
        try:
            barrier.wait()
            results.append(publish_service.publish(Night(pk=night.pk), None))
        except Exception as error:  # a lock timeout would show here
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    published = [r for r in results if isinstance(r, Publication)]
    assert len(published) == 1, results
    others = [r for r in results if not isinstance(r, Publication)]
    if connection.vendor == "postgresql":
        assert others == [None] * 3  # they waited for the row lock, then found it published
    else:
        # SQLite's deferred transactions refuse a second writer at once ("database is locked")
        # unless the database runs IMMEDIATE transactions; either way nobody published twice.
        assert all(r is None or "locked" in str(r) for r in others), results
    assert Publication.objects.filter(night=night).count() == 1
    assert Delivery.objects.filter(publication__night=night).count() == 4  # table 1 played


@pytest.fixture
def flaky_mail(settings):
    settings.EMAIL_BACKEND = "tests.kits.ledger_kit.FlakyBackend"


@pytest.mark.usefixtures("flaky_mail")
def test_a_failed_send_is_retried_later_and_nothing_is_sent_twice(played, secretary, players):
    give_emails(players[:4])  # table 1 only
    FlakyBackend.failures, FlakyBackend.sent = 2, []
    close_night(played, secretary)
    publication = publish(played, secretary)  # the task runs at once: two of four fail
    assert len(FlakyBackend.sent) == 2
    waiting = Delivery.objects.filter(publication=publication, status="pending")
    assert waiting.count() == 2
    assert all(d.attempts == 1 and d.next_attempt_at for d in waiting)
    assert all("will retry" in d.error for d in waiting)

    # Run the task again now (a retry that came early, or a second worker): nothing is due.
    send_results.enqueue(publication.pk)
    assert len(FlakyBackend.sent) == 2
    # When the retry time comes, the two are sent; the two already sent are not sent again.
    later = timezone.now() + dt.timedelta(minutes=2)
    assert results_mail.send_publication(publication.pk, later).sent == 2
    assert sorted(m.to[0] for m in FlakyBackend.sent) == sorted(
        f"{p.name.lower()}@example.org" for p in players[:4]
    )
    # Any number of further runs send nothing.
    for _ in range(3):
        send_results.enqueue(publication.pk)
        results_mail.send_publication(publication.pk, later + dt.timedelta(days=1))
    assert len(FlakyBackend.sent) == 4
    assert set(
        Delivery.objects.filter(publication=publication).values_list("status", flat=True)
    ) == {"sent"}


@pytest.mark.usefixtures("flaky_mail")
def test_a_row_being_sent_by_another_worker_is_not_sent_again(played, secretary, players):
    give_emails(players[:4])
    FlakyBackend.failures, FlakyBackend.sent = 0, []
    close_night(played, secretary)
    with override_settings(
        TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    ):
        publication = publish(played, secretary)  # queued, not run
    taken = Delivery.objects.filter(publication=publication).order_by("id").first()
    Delivery.objects.filter(pk=taken.pk).update(status="sending")  # another worker has it
    results_mail.send_publication(publication.pk)
    assert len(FlakyBackend.sent) == 3 and taken.email not in [m.to[0] for m in FlakyBackend.sent]


@pytest.mark.usefixtures("flaky_mail")
def test_bounced_and_malformed_addresses_are_reported_and_the_rest_are_sent(
    played, secretary, players, sec_client
):
    ann, bob, cat, dan = players[:4]
    give_emails([ann, bob, cat, dan])
    FlakyBackend.failures, FlakyBackend.sent = 0, []
    bob.email = "bounce@example.org"
    bob.save()
    type(cat).objects.filter(pk=cat.pk).update(email="cat at example")  # bad data from elsewhere
    close_night(played, secretary)
    publication = publish(played, secretary)
    assert sorted(m.to[0] for m in FlakyBackend.sent) == ["ann@example.org", "dan@example.org"]
    status = dict(
        Delivery.objects.filter(publication=publication).values_list("player__name", "status")
    )
    assert status == {"Ann": "sent", "Bob": "failed", "Cat": "failed", "Dan": "sent"}
    page = sec_client.get(reverse("night_detail", args=["crown", played.pk])).content.decode()
    assert "Refused by the mail server: 550 No such user" in page
    assert "Not an email address: &#x27;cat at example&#x27;" in page


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


def test_secretary_corrects_in_the_window_scorer_cannot_and_nobody_after_publishing(
    played, secretary, scorer, table4, players
):
    close_night(played, secretary)
    hand = table4.hands.get(number=1)
    entry = _entry(hand, tricks=7)
    with pytest.raises(HandConflict):
        update_hand(hand, entry, scorer, hand.version)
    before = list(Debt.objects.filter(night=played).values_list("payer__name", "amount"))
    update_hand(hand, entry, secretary, hand.version)  # the correction window
    assert AuditEvent.objects.filter(night=played, action="update", subject__contains="hand 1")
    # The debts follow the corrected settle-up.
    after = sorted(
        (d.payer.name, d.payee.name, d.amount - sum(s.amount for s in d.settlements.all()))
        for d in Debt.objects.filter(night=played)
        if d.amount - sum(s.amount for s in d.settlements.all())
    )
    assert after == sorted(core_payments(played)) and after != sorted(before)
    publish(played, secretary)
    hand.refresh_from_db()
    with pytest.raises(HandConflict):
        update_hand(hand, _entry(hand, tricks=5), secretary, hand.version)


def _entry(hand, tricks):
    from club.play.services.hand_entry import HandEntry

    return HandEntry(
        dealer=hand.dealer, contract=hand.contract, declarer=hand.declarer, tricks=tricks
    )


def test_reopening_a_published_night_sends_the_corrected_results(
    played, secretary, players, table4, sec_client
):
    give_emails(players[:4])
    close_night(played, secretary)
    publish(played, secretary)
    assert len(mail.outbox) == 4
    response = sec_client.post(reverse("night_reopen", args=["crown", played.pk]))
    assert response.status_code == 302
    played.refresh_from_db()
    assert not played.is_closed and played.published_at is None
    hand = table4.hands.get(number=1)
    update_hand(hand, _entry(hand, tricks=8), secretary, hand.version)
    close_night(played, secretary)
    publish(played, secretary)
    corrected = mail.outbox[4:]
    assert len(corrected) == 4 and all(m.subject.startswith("Corrected: ") for m in corrected)
    assert all("were corrected" in m.body for m in corrected)
    bob = next(m for m in corrected if m.to == ["bob@example.org"])
    assert _figures(bob.body)["net"] == "+£" + f"{nets(played)['Bob'] / 100:.2f}"
    assert list(Publication.objects.filter(night=played).values_list("number", flat=True)) == [1, 2]


def test_a_points_club_is_emailed_without_money(played, secretary, players, club):
    club.unit_kind = "points"
    club.save()
    give_emails(players[:4])
    close_night(played, secretary)
    publish(played, secretary)
    assert not Debt.objects.exists()
    assert len(mail.outbox) == 4
    assert all("Settling up" not in m.body and "ledger" not in m.body for m in mail.outbox)


def test_publish_now_page_and_roles(played, secretary, scorer, client, players):
    close_night(played, secretary)
    url = reverse("night_publish", args=["crown", played.pk])
    client.force_login(scorer)
    assert client.post(url).status_code == 403
    assert not Night.objects.get(pk=played.pk).is_published
    client.force_login(secretary)
    assert "Publish now" in client.get(url).content.decode()
    response = client.post(url, follow=True)
    assert "results are published: final" in response.content.decode()
    assert Night.objects.get(pk=played.pk).is_published
    response = client.post(url, follow=True)
    assert "were already published" in response.content.decode()


def test_the_night_page_publishes_a_night_whose_window_has_ended(played, secretary, client):
    close_night(played, secretary)
    Night.objects.filter(pk=played.pk).update(
        publish_after=timezone.now() - dt.timedelta(minutes=1)
    )
    client.force_login(secretary)
    page = client.get(reverse("night_detail", args=["crown", played.pk])).content.decode()
    assert "results published" in page
    assert Night.objects.get(pk=played.pk).is_published


def test_a_night_closed_without_a_window_is_final(played, secretary):
    """Closed before there was a window (or written closed by an import or the demo): final."""
    Night.objects.filter(pk=played.pk).update(status="closed")
    night = Night.objects.get(pk=played.pk)
    assert night.is_published and not night.is_provisional
    assert publish(night, secretary) is None
    assert publish_due(timezone.now() + dt.timedelta(days=1)) == (0, 0)


def test_closing_queues_the_publication_for_the_end_of_the_window(
    played, secretary, players, settings
):
    """With the database queue (as in production) closing schedules the task at publish_after;
    the worker running it early publishes nothing, on time it publishes once."""
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    give_emails(players[:4])
    close_night(played, secretary)
    played.refresh_from_db()
    queued = DBTaskResult.objects.get(task_path="club.money.services.publish.publish_when_due")
    assert queued.run_after == played.publish_after
    assert queued.args_kwargs == {"args": [played.pk], "kwargs": {}}
    from club.money.services.publish import publish_when_due

    assert publish_when_due.call(played.pk) is False  # too early: nothing happens
    Night.objects.filter(pk=played.pk).update(publish_after=timezone.now())
    assert publish_when_due.call(played.pk) is True
    assert publish_when_due.call(played.pk) is False
    assert Publication.objects.filter(night=played).count() == 1
    # The emails were queued for the worker, not sent in the request.
    assert (
        DBTaskResult.objects.filter(task_path="club.money.services.publish.send_results").count()
        == 1
    )
    assert mail.outbox == []


def test_publish_due_command(played, secretary, players):
    from io import StringIO

    from django.core.management import call_command

    give_emails(players[:4])
    close_night(played, secretary)
    Night.objects.filter(pk=played.pk).update(publish_after=timezone.now())
    out = StringIO()
    call_command("publish_due", stdout=out)
    # The hands the fixture recorded were still waiting for their grades: publish_due caught up.
    assert re.fullmatch(
        r"1 night\(s\) published, 0 email\(s\) sent, [1-9]\d* hand\(s\) graded\.",
        out.getvalue().strip(),
    )
    assert not GradeBacklog.objects.exists()
    assert len(mail.outbox) == 4  # sent by the task the publication queued


def test_no_results_email_goes_to_a_player_who_played_no_hand(
    night, table4, players, secretary, club
):
    """Table 2 (Eve to Ivy) never played: its players are seated but have no result to send."""
    club.correction_minutes = 0
    club.save()
    give_emails(players)
    play(table4, secretary, players[1], "solo", 6)
    close_night(night, secretary)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{p.name.lower()}@example.org" for p in players[:4]
    )
    assert not any("Hands played: 0" in m.body for m in mail.outbox)
