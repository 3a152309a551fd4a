"""What an outsider's attack on the public pages found, each closed:

- the claim page of a private club answered outsiders with the club's name, where an unknown
  slug is a 404;
- the claim form and the password reset had no limit (25 claim posts sent 25 emails to one
  member) and sent inside the request, so the time taken told members from strangers: now
  limited per address and per client, and the email goes through the task queue;
- the door's limit held per process without Redis (club/clubs/services/ratelimit.py counts in the
database:
  tests/clubs/test_write_limit_shared.py);
- the payee's emailed link marked payments while the night was reopened for correction;
- and the results email's one-click unsubscribe (RFC 8058).
"""

from __future__ import annotations

import email
import html
import re

import pytest
from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from club.clubs.models import Player, PlayerClaim
from club.money.models import Debt, Settlement
from club.money.services import publish as publish_service
from club.money.services import results_mail
from club.play.services.nights import close_night, reopen_night
from tests.kits.ledger_kit import play

pytestmark = pytest.mark.django_db
DB_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def claiming(club, players):
    club.players_may_claim = True
    club.save()
    cat = players[2]
    cat.email = "cat@example.org"
    cat.save()
    return club


# -- the claim page of a private club --------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_private_clubs_claim_page_answers_outsiders_as_a_missing_club(
    claiming, outsider, who, method
):
    assert not claiming.is_public
    client = Client()
    if who == "outsider":
        client.force_login(outsider)
    private = getattr(client, method)(reverse("claim", args=[claiming.slug]), {"email": "x@y.z"})
    unknown = getattr(client, method)(reverse("claim", args=["no-such-club"]), {"email": "x@y.z"})
    assert private.status_code == unknown.status_code == 404
    assert claiming.name not in _text(private) and "Crown" not in _text(private)
    assert mail.outbox == []


def test_a_private_clubs_member_may_still_claim_their_record(claiming, viewer):
    client = Client()
    client.force_login(viewer)
    response = client.post(reverse("claim", args=[claiming.slug]), {"email": "cat@example.org"})
    assert "a one-time link is on its way" in _text(response)
    assert [m.to for m in mail.outbox] == [["cat@example.org"]]


# -- limits per address and per client -------------------------------------------------------


@pytest.fixture
def public_claiming(claiming):
    claiming.is_public = True
    claiming.save()
    return claiming


def test_one_address_gets_at_most_three_claim_links_an_hour_whoever_asks(public_claiming):
    url = reverse("claim", args=[public_claiming.slug])
    answers = [
        Client(REMOTE_ADDR=f"10.0.0.{n}").post(url, {"email": "CAT@example.org"}) for n in range(25)
    ]
    # The same answer every time (nothing says the address is known or over its limit) ...
    assert all(a.status_code == 200 for a in answers)
    assert all("a one-time link is on its way" in _text(a) for a in answers)
    # ... but three emails, not 25.
    assert len(mail.outbox) == 3 and PlayerClaim.objects.count() == 3


def test_one_client_asking_for_many_addresses_is_told_to_wait(public_claiming):
    url = reverse("claim", args=[public_claiming.slug])
    client = Client(REMOTE_ADDR="10.9.9.9")
    answers = [client.post(url, {"email": f"guess{n}@example.org"}) for n in range(12)]
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 2
    assert 1 <= int(answers[-1]["Retry-After"]) <= 3600
    assert "Too many requests from here" in _text(answers[-1])
    # Another client is not held up by it.
    assert Client(REMOTE_ADDR="10.1.1.1").post(url, {"email": "cat@example.org"}).status_code == 200


def test_the_limits_hold_across_web_processes(public_claiming, settings):
    """Each process's own cache forgets (another gunicorn worker): the count is the database's.
    (With Redis the count is Redis's, shared already: tests/clubs/test_write_limit_shared.py.)"""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    url = reverse("claim", args=[public_claiming.slug])
    for _ in range(5):
        Client().post(url, {"email": "cat@example.org"})
        caches["default"].clear()
    assert len(mail.outbox) == 3


def test_password_reset_is_limited_per_address_and_per_client(secretary):
    secretary.email = "sec@example.org"
    secretary.save()
    url = reverse("password_reset")
    answers = [
        Client(REMOTE_ADDR=f"10.0.1.{n}").post(url, {"email": "sec@example.org"}) for n in range(6)
    ]
    assert all(a.status_code == 302 for a in answers)  # "sent", every time
    assert len(mail.outbox) == 3 and {m.to[0] for m in mail.outbox} == {"sec@example.org"}
    client = Client(REMOTE_ADDR="10.9.9.8")
    statuses = [client.post(url, {"email": f"n{n}@example.org"}).status_code for n in range(11)]
    assert statuses == [302] * 10 + [429]


# -- the emails go through the task queue -----------------------------------------------------


def _sent_card(response) -> str:
    found = re.search(r'<p class="card">(.*?)</p>', _text(response), re.S)
    return found.group(1) if found else ""


def run_queued() -> None:
    """What a worker does with each queued task (the worker itself: test_outages.py)."""
    from django_tasks_db.models import DBTaskResult

    for queued in DBTaskResult.objects.filter(status="READY").order_by("enqueued_at"):
        result = queued.task_result
        queued.task.call(*result.args, **result.kwargs)


def test_a_claim_link_is_sent_by_the_worker_not_the_request(public_claiming, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DB_QUEUE
    url = reverse("claim", args=[public_claiming.slug])
    known = Client(REMOTE_ADDR="10.0.0.1").post(url, {"email": "cat@example.org"})
    unknown = Client(REMOTE_ADDR="10.0.0.2").post(url, {"email": "nobody@example.org"})
    # The same answer and the same work for both: one task queued each, nothing sent yet.
    assert _sent_card(known) == _sent_card(unknown) != ""
    assert mail.outbox == [] and PlayerClaim.objects.count() == 0
    queued = DBTaskResult.objects.filter(task_path__endswith="send_claim_link", status="READY")
    assert queued.count() == 2
    run_queued()
    assert [m.to for m in mail.outbox] == [["cat@example.org"]]
    assert PlayerClaim.objects.count() == 1


def test_a_password_reset_is_sent_by_the_worker_not_the_request(secretary, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DB_QUEUE
    secretary.email = "sec@example.org"
    secretary.save()
    response = Client().post(reverse("password_reset"), {"email": "sec@example.org"})
    assert response.status_code == 302 and mail.outbox == []
    assert DBTaskResult.objects.filter(task_path__endswith="send_password_reset").count() == 1
    run_queued()
    assert [m.to for m in mail.outbox] == [["sec@example.org"]]
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    assert link.strip().startswith("http://testserver/accounts/reset/")


# -- the payee's link while the night is reopened ---------------------------------------------


@pytest.fixture
def owed(night, table4, players, secretary, monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())
    play(table4, secretary, players[1], "solo", 5)  # Ann, Cat and Dan each owe Bob
    close_night(night, secretary)
    return night


def test_the_payees_link_refuses_while_the_night_is_reopened_saying_why(owed, players, secretary):
    bob, cat = players[1], players[2]
    token = results_mail.payee_token(bob.pk)
    debt = Debt.objects.get(night=owed, payer=cat)
    reopen_night(owed, secretary)
    page = Client().get(reverse("payee_owed", args=["crown", token]))
    assert "has been reopened for correction" in _text(page)
    assert "Mark paid" not in _text(page)
    answer = Client().post(
        reverse("payee_pay", args=["crown", token, debt.pk]), {"amount": "0.02"}, follow=True
    )
    assert "has been reopened for correction" in _text(answer)
    assert not Settlement.objects.filter(debt=debt).exists()
    # Closed again: the link marks payments as before.
    close_night(owed, secretary)
    debt = Debt.objects.get(night=owed, payer=cat)
    Client().post(reverse("payee_pay", args=["crown", token, debt.pk]), {"amount": "0.02"})
    assert Settlement.objects.filter(debt=debt, amount=2).exists()


# -- one-click unsubscribe --------------------------------------------------------------------


def test_results_emails_offer_one_click_unsubscribe_and_the_link_takes_its_post(
    owed, players, secretary, settings
):
    from tests.kits.ledger_kit import give_emails

    give_emails(players[:4])
    mail.outbox.clear()
    publish_service.publish(owed, secretary)
    ann_mail = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    message = email.message_from_bytes(ann_mail.message().as_bytes())
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = "".join(str(message["List-Unsubscribe"]).split()).strip("<>")
    url = url.removeprefix("http://testserver")
    # The mail provider's POST: no session, no CSRF token, just the RFC 8058 body.
    provider = Client(enforce_csrf_checks=True)
    answer = provider.post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    assert Player.objects.get(pk=players[0].pk).email_results is False
    assert Player.objects.get(pk=players[1].pk).email_results is True
