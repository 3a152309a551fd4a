"""`bench --peak`: the report's arithmetic, the phone's posted form, and one tiny evening end to
end (two clubs, a few seconds) on a real gunicorn node over the test database: every kind of
request is timed, the saves are stored once and zero-sum, and the processes' CPU is reported."""

from __future__ import annotations

import pytest
from django.test.utils import override_settings
from django.urls import reverse

from club.operations.bench import peak, peak_engine, peak_report, peak_setup
from club.operations.bench.peak_load import hand_body, live_attributes, subscriber_url
from club.play.models import Hand, ScoreLine
from tests.kits.nodes_kit import free_port, process_env


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(100, 0, -1)]  # 1..100, unsorted
    assert peak_report.percentile(values, 0.5) == 50
    assert peak_report.percentile(values, 0.99) == 99
    assert peak_report.percentile([*values, 1000.0], 0.99) == 100
    assert peak_report.percentile([7.0], 0.99) == 7


def test_an_evening_holds_only_under_the_goal_with_nothing_lost():
    fast = peak_report.Kind("save", 10, 0, 20.0, 249.0)
    evening = peak_report.Evening(1, 10, [fast], 1.0, [], [], 0, {})
    assert evening.holds()
    evening.kinds = [fast, peak_report.Kind("board poll", 10, 0, 20.0, 250.0)]
    assert not evening.holds()
    evening.kinds = [peak_report.Kind("save", 10, 1, 20.0, 30.0)]
    assert not evening.holds()
    evening.kinds, evening.lost = [fast], 1
    assert not evening.holds()


def test_a_page_names_its_subscription_in_a_data_live_attribute():
    html = (
        '<div data-live-etag="&quot;open-1&quot;"></div><div data-live-url="/sub/abc?x=1&amp;y=2">'
    )
    assert live_attributes(html) == {"etag": '"open-1"', "url": "/sub/abc?x=1&y=2"}
    assert subscriber_url(html, "http://127.0.0.1:8000/t/tok/") == (
        "http://127.0.0.1:8000/sub/abc?x=1&y=2"
    )
    assert subscriber_url('<div data-live-etag="x"></div>', "http://h/") is None


@pytest.mark.django_db
def test_the_phone_posts_what_the_form_posts_and_the_hand_is_saved(client):
    clubs = peak_setup.ensure_clubs(1)
    _nights, plan = peak_setup.open_evening(clubs, run=1)
    assert len(plan.phones) == 10
    assert sorted(len(p.seats) for p in plan.phones) == [4] * 7 + [5] * 3
    # Checkboxes nobody ticked are left out, as a browser leaves them out.
    assert "wrong_cards" not in plan.form_fields and "dealer" in plan.form_fields
    five = next(p for p in plan.phones if len(p.seats) == 5)
    csrf = "0123456789abcdef0123456789abcdef"
    client.cookies["csrftoken"] = csrf
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        for number in (1, 2, 3):
            answer = client.post(
                reverse("link_create", args=[five.token]),
                hand_body(plan.form_fields, five.__dict__, number, csrf),
                content_type="application/x-www-form-urlencoded",
                HTTP_HX_REQUEST="true",
            )
            assert answer["X-Hand-Outcome"] == "saved"
    hands = list(Hand.objects.filter(table_id=five.table_id).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    # At a table of five the one sitting out neither pays nor receives.
    for hand in hands:
        assert hand.sitting_out_id == five.out[str(hand.dealer_id)]
        assert not ScoreLine.objects.filter(hand=hand, player_id=hand.sitting_out_id).exists()


@pytest.mark.django_db(transaction=True)
def test_a_tiny_evening_runs_end_to_end_on_a_real_node(settings):
    said: list[str] = []
    evening = peak.evening(
        2,
        seconds=4,
        warmup=2,
        port=free_port(),
        workers=2,
        server_env=process_env(),
        secretary_rate=2.0,
        save_mean=2.0,  # a hand every 2 s a table, to have saves in so short a run
        say=said.append,
    )
    kinds = {k.name: k for k in evening.kinds}
    # 20 phones every 10 s, 2 boards every second, over 4 s.
    assert 1 <= kinds["phone poll"].count <= 20
    assert 6 <= kinds["board poll"].count <= 10
    assert kinds["save"].count >= 10 and kinds["secretary page"].count >= 1
    assert evening.errors == 0, evening.samples
    assert evening.stored == evening.saves_answered == Hand.objects.count()
    assert evening.lost == evening.unbalanced == evening.uneven_nights == 0
    assert evening.cpu["gunicorn (the app)"] > 0 and "load generator" in evening.cpu
    report = peak_report.lines(evening)
    assert any(line.split()[:2] == ["board", "poll"] for line in report)
    assert any("lost 0" in line for line in said + report)


@pytest.mark.django_db(transaction=True)
def test_a_tiny_evening_with_push_runs_through_nginx_and_nchan(settings):
    if why := peak_engine.missing():
        pytest.skip(why)
    evening = peak.evening(
        1,
        seconds=4,
        warmup=1,
        port=free_port(),
        publisher_port=free_port(),
        workers=2,
        push=True,
        server_env=process_env(),
        secretary_rate=0.0,
        save_mean=1.5,
        say=lambda _line: None,
    )
    kinds = {k.name: k for k in evening.kinds}
    # Ten phones, the board and the night page each held a subscription on the engine.
    assert evening.subscriptions == 12 and evening.subscription_errors == 0
    assert evening.errors == 0, evening.samples
    # A save's message reached the board, which then redrew; the phones and the night page
    # asked on a message too, and no page polled as today's do (a board every second).
    assert evening.push_ms and evening.board_ms
    assert max(evening.push_ms) < 1000
    assert kinds["board after push"].count >= 1 and kinds["night after push"].count >= 1
    assert kinds["phone after push"].count >= 1
    assert "board poll" not in kinds or kinds["board poll"].count <= 1
    assert evening.stored == evening.saves_answered == Hand.objects.count() > 0
    assert evening.lost == 0
    assert evening.cpu["push engine (nginx, nchan)"] >= 0 and evening.engine_kb > 0
