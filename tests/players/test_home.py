"""A person's home across clubs (/me/): every club whose record their account claimed, their
latest nights in each, one grade over all those clubs' hands; each club's own pages unchanged;
unlinking a club; the page's queries fixed however many clubs."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings
from django.urls import reverse
from django_tasks import default_task_backend

from club.clubs.models import AuditEvent, Membership, Player, Role
from club.grades.models import Grade, GradeLine, GradeNight, GradeSettings
from club.grades.services import grades
from club.play.models import Hand, NightTotal
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.players.queries import home as home_queries
from club.players.services import home_grade
from scoring import grade as core
from tests.kits.home_kit import claim, club_with_hands

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
CROWN = ["Ann", "Bob", "Cat", "Dan"]
LION = ["Annie", "Rex", "Sid", "Tom"]


@pytest.fixture
def crown(db):
    return club_with_hands("Crown & Anchor Solo School", "crown", CROWN, seed=1)


@pytest.fixture
def lion(db):
    return club_with_hands(
        "Red Lion Solo", "redlion", LION, seed=2, first=dt.date(2026, 10, 2), hands=10
    )


@pytest.fixture
def pat(django_user_model, crown, lion):
    """Ann at the Crown (a viewer there) and Annie at the Red Lion (not a member: private)."""
    user = django_user_model.objects.create_user("pat", "pat@example.org", "pw-pat")
    Membership.objects.create(user=user, club=crown, role=Role.VIEWER)
    claim(user, crown, "Ann")
    claim(user, lion, "Annie")
    return user


def afresh(clubs, same: dict[int, str]) -> dict[str, core.Rating]:
    """scoring.grade over every hand of these clubs, read afresh from the hands and score lines,
    the players in `same` (id -> name) merged."""
    found = []
    for hand in Hand.objects.filter(table__night__season__club__in=clubs).select_related(
        "table__night"
    ):

        def who(pk):
            return None if pk is None else same.get(pk, str(pk))

        rated = core.grade_hand(
            grades.hand_key(hand),
            hand.table.night.date.toordinal(),
            [who(line.player_id) for line in hand.score_lines.order_by("pk")],
            hand.contract,
            who(hand.declarer_id),
            who(hand.partner_id),
            hand.made,
            who(hand.last_trick_by_id),
        )
        if rated is not None:
            found.append(rated)
    return core.rate(found)


def own_grade(club, name) -> core.Grade:
    return core.shown(Grade.objects.get(player__club=club, player__name=name).rating)


def test_a_person_in_two_clubs_sees_both_and_one_grade_over_both(client, pat, crown, lion):
    client.force_login(pat)
    response = client.get(reverse("player_home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Crown &amp; Anchor Solo School" in page and "Red Lion Solo" in page
    # Each club's latest nights, with the net (5 shown of each club's).
    ann, annie = (Player.objects.get(user=pat, club=c) for c in (crown, lion))
    for record in (ann, annie):
        latest = NightTotal.objects.filter(player=record).order_by("-night__date").first()
        assert latest.night.date.strftime("%-d %b %Y") in page
        assert record.club.format_amount(latest.net, signed=True) in page
        assert reverse("me", args=[record.club.slug]) in page
    # The Crown's player page is linked (a member); the private Red Lion's is not.
    assert reverse("player_detail", args=["crown", ann.pk]) in page
    assert reverse("player_detail", args=["redlion", annie.pk]) not in page

    shown = response.context["grade"]
    in_crown, in_lion = own_grade(crown, "Ann"), own_grade(lion, "Annie")
    assert in_crown.hands > 0 and in_lion.hands > 0
    assert shown.hands == in_crown.hands + in_lion.hands
    assert shown.hands_by_club == {crown.pk: in_crown.hands, lion.pk: in_lion.hands}
    assert f'<span id="home-grade-hands">{shown.hands}</span>' in page
    assert str(shown.grade) in page
    assert shown.grade.value not in (in_crown.value, in_lion.value)
    # The same as the grade's engine over both clubs' hands read afresh, Ann and Annie one.
    expected = afresh([crown, lion], {ann.pk: "me", annie.pk: "me"})["me"]
    assert shown.grade == core.shown(expected)
    last = max(Hand.objects.values_list("table__night__date", flat=True))
    assert shown.as_of == last and f"as of {last:%-d %b %Y}" in page


def test_the_run_writes_nothing_to_the_clubs_grades(client, pat, crown, lion):
    def rows():
        return [
            sorted(m.objects.values_list("player_id", "mu", "sigma", "hands"))
            for m in (Grade, GradeLine, GradeNight)
        ]

    before = rows()
    client.force_login(pat)
    assert client.get(reverse("player_home")).status_code == 200
    assert rows() == before


def test_someone_else_claimed_in_both_clubs_is_one_opponent(pat, crown, lion, django_user_model):
    other = django_user_model.objects.create_user("rob", "rob@example.org", "pw")
    bob, rex = claim(other, crown, "Bob"), claim(other, lion, "Rex")
    ann, annie = (Player.objects.get(user=pat, club=c) for c in (crown, lion))
    expected = afresh([crown, lion], {ann.pk: "me", annie.pk: "me", bob.pk: "rob", rex.pk: "rob"})[
        "me"
    ]
    apart = afresh([crown, lion], {ann.pk: "me", annie.pk: "me"})["me"]
    assert expected != apart  # the merge changes the figures: the test can tell
    assert home_grade.home_grade(pat.pk, [crown.pk, lion.pk]).grade == core.shown(expected)
    # Rob's own home counts his hands in both clubs as one player's.
    his = home_grade.home_grade(other.pk, [crown.pk, lion.pk])
    assert his.hands == own_grade(crown, "Bob").hands + own_grade(lion, "Rex").hands


def test_a_club_with_grades_off_still_counts_in_the_persons_own_grade(client, pat, crown, lion):
    GradeSettings.objects.create(club=lion, enabled=False)
    client.force_login(pat)
    shown = client.get(reverse("player_home")).context["grade"]
    assert shown.hands == own_grade(crown, "Ann").hands + own_grade(lion, "Annie").hands


def test_each_clubs_own_pages_show_nothing_of_the_other(client, pat, crown, lion):
    client.force_login(pat)
    ann = Player.objects.get(user=pat, club=crown)
    for url in (
        reverse("player_detail", args=["crown", ann.pk]),
        reverse("standings", args=["crown"]),
        reverse("me", args=["crown"]),
        reverse("club", args=["crown"]),
    ):
        page = client.get(url).content.decode()
        assert "Ann" in page, url
        for other in ["Red Lion", *LION]:
            assert other not in page, (url, other)
    # The Red Lion's own results page for Annie says nothing of the Crown.
    page = client.get(reverse("me", args=["redlion"])).content.decode()
    assert "Annie" in page
    for other in ["Crown", "Bob", "Cat", "Dan"]:
        assert other not in page, other
    # Each club's own grade is untouched: the player page shows the club's figure.
    in_crown = own_grade(crown, "Ann")
    page = client.get(reverse("player_detail", args=["crown", ann.pk])).content.decode()
    assert f"{in_crown.value:,}" in page


def test_anonymous_visitors_are_sent_to_log_in(client, pat):
    for url in (reverse("player_home"), reverse("player_home_unlink", args=["crown"])):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        response = client.post(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Player.objects.filter(user=pat).count() == 2


def test_an_account_with_no_claims_gets_a_page_that_says_how_to_claim(
    client, pat, crown, django_user_model
):
    # A secretary of the Crown who has claimed no record: nothing of the club's players shows.
    sec = django_user_model.objects.create_user("sec", "sec@example.org", "pw")
    Membership.objects.create(user=sec, club=crown, role=Role.SECRETARY)
    client.force_login(sec)
    response = client.get(reverse("player_home"))
    page = response.content.decode()
    assert response.status_code == 200 and 'id="home-empty"' in page
    assert "Claim your record" in page
    assert 'id="home-grade"' not in page and 'class="card home-club"' not in page
    assert ">Ann<" not in page and "Annie" not in page
    assert response.context["grade"] is None


def test_no_one_unlinks_a_record_that_is_not_theirs(client, pat, crown, django_user_model):
    other = django_user_model.objects.create_user("rob", "rob@example.org", "pw")
    Membership.objects.create(user=other, club=crown, role=Role.SECRETARY)
    client.force_login(other)
    url = reverse("player_home_unlink", args=["crown"])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert client.post(reverse("player_home_unlink", args=["nowhere"])).status_code == 404
    assert Player.objects.get(club=crown, name="Ann").user == pat
    assert not AuditEvent.objects.filter(subject__contains="account link").exists()


def test_unlinking_a_club_removes_its_claim_and_keeps_the_other(client, pat, crown, lion):
    client.force_login(pat)
    url = reverse("player_home_unlink", args=["redlion"])
    page = client.get(url).content.decode()
    assert "Take Red Lion Solo off your home?" in page and "Annie" in page
    assert "membership" in page and "audit trail" in page  # what unlinking means, said
    assert Player.objects.get(club=lion, name="Annie").user == pat  # a GET changes nothing

    response = client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("player_home")
    page = response.content.decode()
    assert "Red Lion Solo is off your home" in page
    annie = Player.objects.get(club=lion, name="Annie")
    assert annie.user is None
    event = AuditEvent.objects.get(club=lion, subject__contains="account link")
    assert event.user == pat and event.before == {"account": "pat"}
    assert not AuditEvent.objects.filter(club=crown, subject__contains="account link").exists()
    # The Crown stays, alone in the grade; the Red Lion is gone from the page.
    assert 'id="club-crown"' in page and 'id="club-redlion"' not in page
    assert response.context["grade"].hands == own_grade(crown, "Ann").hands
    assert Player.objects.get(club=crown, name="Ann").user == pat
    # The Red Lion's "my results" no longer shows him (not a member: the club is not his).
    assert client.get(reverse("me", args=["redlion"])).status_code == 404
    assert client.get(reverse("me", args=["crown"])).status_code == 200
    # A second post (another tab) is refused plainly.
    assert client.post(url).status_code == 404


def test_the_grade_is_cached_until_a_clubs_grades_change(client, pat, crown, lion, monkeypatch):
    client.force_login(pat)
    first = client.get(reverse("player_home")).context["grade"]

    def no_rating(club_ids):
        raise AssertionError("rated again with nothing changed")

    with monkeypatch.context() as patch:
        patch.setattr(home_queries, "rated_hands", no_rating)
        again = client.get(reverse("player_home")).context["grade"]
    assert again == first

    # A hand at the Red Lion, once its grades caught up, is counted (the test's tasks run at
    # once: the page that finds it out of date has it rated before it answers).
    table = Hand.objects.filter(table__night__season__club=lion).last().table
    annie = Player.objects.get(club=lion, name="Annie")
    dealer = next_hand(table)["dealer"]
    record_hand(table, HandEntry(dealer=dealer, contract="solo", declarer=annie, tricks=6), None)
    grades.drain(lion.pk)
    after = client.get(reverse("player_home")).context["grade"]
    assert after.hands == first.hands + 1
    assert after.hands_by_club[lion.pk] == first.hands_by_club[lion.pk] + 1

    # Someone else claiming records in both clubs changes the run too.
    rob = type(pat).objects.create_user("rob", "rob@example.org", "pw")
    claim(rob, crown, "Bob")
    claim(rob, lion, "Rex")
    merged = client.get(reverse("player_home")).context["grade"]
    assert merged.grade != after.grade and merged.hands == after.hands


def test_after_a_change_the_kept_grade_shows_while_one_run_is_queued(client, pat, crown, lion):
    client.force_login(pat)
    url = reverse("player_home")
    first = client.get(url).context["grade"]  # the first view rates in the request
    assert not first.updating
    table = Hand.objects.filter(table__night__season__club=crown).last().table
    ann = Player.objects.get(club=crown, name="Ann")
    dealer = next_hand(table)["dealer"]
    record_hand(table, HandEntry(dealer=dealer, contract="solo", declarer=ann, tricks=6), None)
    grades.drain(crown.pk)
    with override_settings(TASKS=DUMMY):
        backend = default_task_backend
        for _ in range(2):
            response = client.get(url)
            shown = response.context["grade"]
            assert shown.updating and shown.hands == first.hands
            assert 'id="home-grade-updating"' in response.content.decode()
        queued = [r for r in backend.results if r.task.name == "work_out"]
        assert len(queued) == 1  # once, however many views
        assert home_grade.work_out.call(*queued[0].args) == first.hands + 1
        shown = client.get(url).context["grade"]
        assert not shown.updating and shown.hands == first.hands + 1
        assert len([r for r in backend.results if r.task.name == "work_out"]) == 1


def test_the_home_pages_queries_are_fixed_however_many_clubs(
    client, pat, crown, lion, django_assert_max_num_queries
):
    client.force_login(pat)
    url = reverse("player_home")
    client.get(url)  # the cache warm
    with django_assert_max_num_queries(7) as two:
        assert client.get(url).status_code == 200
    for n in range(3):
        more = club_with_hands(f"Club {n}", f"club-{n}", [f"P{n}{i}" for i in range(4)], seed=n)
        claim(pat, more, f"P{n}0")
        Membership.objects.create(user=pat, club=more, role=Role.VIEWER)
    client.get(url)
    with django_assert_max_num_queries(7) as five:
        page = client.get(url).content.decode()
    assert page.count('class="card home-club"') == 5
    assert len(five.captured_queries) == len(two.captured_queries)
    # The unlink confirmation too.
    with django_assert_max_num_queries(4):
        assert client.get(reverse("player_home_unlink", args=["crown"])).status_code == 200


def test_the_list_of_ones_clubs_links_to_the_home_across_clubs(client, pat, lion):
    Membership.objects.create(user=pat, club=lion, role=Role.VIEWER)
    client.force_login(pat)
    page = client.get(reverse("home")).content.decode()
    assert f'<a href="{reverse("player_home")}">Your home across clubs</a>' in page
    client.logout()
    assert reverse("player_home") not in client.get(reverse("home")).content.decode()
