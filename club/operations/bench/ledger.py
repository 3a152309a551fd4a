"""`manage.py bench --ledger`: what publishing and the ledger cost, against bare baselines.

1. Publishing a night of 6 tables x 4 players with 24 hands each, every player with an email
   address: `publish()` as the request runs it (the state move, the ledger's debts, 24 outbox
   rows, the sending task queued); then the sending task as the worker runs it (each message's
   figures, its statement PDF, rendering and the locmem mail backend), beside sending 24
   pre-rendered messages of the same size, with no attachment, through Django's mail framework.
2. The club's ledger page with many open debts (nights x 8 debts, 40 players), through the test
   client as the secretary, against its SQL replayed through a bare cursor, and the balances
   aggregate alone.

Seeds a club `bench-ledger` once (later runs reuse it).
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from club.clubs.models import Club, Membership, Player, Role, Season
from club.clubs.services.setup import rule_set_from_preset
from club.demo.services.demo import random_entry
from club.money.models import Debt, Publication
from club.money.services import ledger, publish, results_mail
from club.play.models import Night
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night

SLUG = "bench-ledger"
USER = "bench-ledger-sec"


def median_ms(fn: Callable[[], object], runs: int, before: Callable[[], object] | None = None):
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _seed() -> tuple[Club, Night]:
    club = Club.objects.filter(slug=SLUG).first()
    if club is not None:
        return club, Night.objects.filter(season__club=club, title="Bench night").get()
    club = Club.objects.create(name="Bench ledger", slug=SLUG)
    rules = rule_set_from_preset(club, "hoyle", "Hoyle")
    season = Season.objects.create(
        club=club,
        name="Bench",
        start=dt.date(2000, 1, 1),
        end=dt.date(2030, 12, 31),
        rule_set=rules,
    )
    players = [
        Player.objects.create(club=club, name=f"Player {n:02d}", email=f"p{n:02d}@example.org")
        for n in range(40)
    ]
    user = get_user_model().objects.create_user(USER, password="bench")
    Membership.objects.create(user=user, club=club, role=Role.SECRETARY)
    night = create_night(
        season,
        dt.date(2030, 1, 1),
        [(players[t * 4 : t * 4 + 4], 0) for t in range(6)],
        title="Bench night",
    )
    rng = random.Random(11)
    for table in night.tables.all():
        seats = [s.player for s in table.seats.all()]
        for _ in range(24):
            dealer = next_hand(table)["dealer"]
            record_hand(table, random_entry(rng, dealer, seats, rules.rules), user)
    # Many older nights with open debts for the ledger page: 8 debts a night.
    nights = Night.objects.bulk_create(
        Night(season=season, date=dt.date(2001, 1, 1) + dt.timedelta(days=7 * n), status="closed")
        for n in range(250)
    )
    debts = []
    for n in nights:
        for _ in range(8):
            payer, payee = rng.sample(players, 2)
            debts.append(
                Debt(club=club, night=n, payer=payer, payee=payee, amount=rng.randint(1, 200))
            )
    Debt.objects.bulk_create(debts)
    return club, night


def run(write: Callable[[str], object], runs: int) -> None:
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        _run(write, runs)


def _run(write: Callable[[str], object], runs: int) -> None:
    club, night = _seed()
    user = get_user_model().objects.get(username=USER)
    players = Player.objects.filter(club=club).count()

    def reset() -> None:
        # Back to closed and provisional, with no publication, for the next run.
        Publication.objects.filter(night=night).delete()
        Night.objects.filter(pk=night.pk).update(
            status="closed", published_at=None, publish_after=dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
        )
        mail.outbox = []

    if not Night.objects.get(pk=night.pk).is_closed:
        close_night(night, user)
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        # The request's part alone: the sending task is queued, not run (the worker runs it).
        TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}},
    ):
        from django.core.mail import EmailMessage

        def publish_once() -> Publication | None:
            with transaction.atomic():
                return publish.publish(Night.objects.get(pk=night.pk), user)

        reset()
        publication = publish_once()
        assert publication is not None
        ours = median_ms(publish_once, runs, reset)

        # The worker's part: each message's figures, its statement PDF and the sending, for a
        # publication made before the clock starts. Fewer runs: each is seconds of PDFs.
        publications: list[int] = []

        def a_fresh_publication() -> None:
            reset()
            made = publish_once()
            assert made is not None
            publications.append(made.pk)

        sending = median_ms(
            lambda: results_mail.send_publication(publications[-1]),
            max(3, runs // 5),
            a_fresh_publication,
        )
        sent = len(mail.outbox)
        sample = mail.outbox[0]

        def bare() -> None:
            for n in range(sent):
                EmailMessage(sample.subject, sample.body, to=[f"p{n:02d}@example.org"]).send()

        baseline = median_ms(bare, runs, reset)
        reset()
        publish_once()  # leave it published
    write(
        f"publish a night of 6 tables x 24 hands (the request: state, debts, {sent} outbox "
        f"rows, the sending task queued): {ours:.1f} ms"
    )
    write(
        f"the worker sends its {sent} emails, each with its statement PDF: {sending:.0f} ms; "
        f"the same {sent} messages sent bare, no attachment: {baseline:.1f} ms"
    )

    open_debts = len(ledger.open_debts(club))
    client = Client()
    client.force_login(user)
    url = reverse("club_ledger", args=[club.slug])
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    statements = [q["sql"] for q in captured.captured_queries]

    def replay() -> None:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
                cursor.fetchall()

    page = median_ms(lambda: client.get(url), runs)
    sql = median_ms(replay, runs)
    balances = median_ms(lambda: ledger.balances(club), runs)
    write(
        f"ledger page, {open_debts} open debts, {players} players: page {page:.1f} ms, its "
        f"{len(statements)} queries replayed {sql:.1f} ms (ratio {page / sql:.2f}), "
        f"balances aggregate {balances:.1f} ms"
    )
