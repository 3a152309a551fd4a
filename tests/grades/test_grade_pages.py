"""Grades on the pages: the standings' grade column, the player page's grade, contracts against the
club (checked against SQL written by hand), head to head, the settings page, privacy and the
number of queries."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

import pytest
from django.db import connection
from django.urls import reverse

import scoring
from club.clubs.models import AuditEvent
from club.grades.models import Grade, GradeOptOut, GradeSettings
from club.grades.queries import grades as gq
from club.grades.services import grades as services
from club.play.models import Night
from scoring import grade as core
from tests.kits.scorebook import night_with, play, table_text


@pytest.fixture
def played(season, players, secretary):
    """Six weekly nights: Ann, Bob, Cat, Dan at table 1 and Eve, Fay, Gus, Hal at table 2, with
    contracts of every kind, made and failed; Ann and Eve swap tables on the even weeks."""
    rng = random.Random(12)
    contracts = ["solo", "misere", "prop_cop", "abundance", "open_misere", "solo"]
    for week in range(6):
        first, second = list(players[:4]), list(players[4:8])
        if week % 2:
            first[0], second[0] = second[0], first[0]
        night = night_with(season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), first, second)
        for table, seated in ((1, first), (2, second)):
            for i in range(8):
                contract = contracts[(week + i) % len(contracts)]
                declarer, partner = rng.sample(seated, 2)
                target = scoring.Contract(contract).target
                tricks = target + rng.choice([-1, 0, 0, 1]) if 0 < target < 13 else target
                if target == 0:
                    tricks = rng.choice([0, 0, 1])
                play(
                    night, secretary, declarer, contract, max(0, min(13, tricks)),
                    partner=partner if contract == "prop_cop" else None, table=table,
                )  # fmt: skip
        if week == 0:  # Ann proposes, Bob accepts
            play(night, secretary, players[0], "prop_cop", 8, partner=players[1])
    services.drain(season.club_id)  # what the background task does after the saves
    return season


def player_url(club, player, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("player_detail", args=[club.slug, player.pk]) + (f"?{query}" if query else "")


def standings_rows(client, club) -> dict[str, list[str]]:
    response = client.get(reverse("standings", args=[club.slug]))
    assert response.status_code == 200
    rows, _ = table_text(response.content, "standings")
    column = rows[0].index("Grade")
    return {row[1]: row[column] for row in rows[1:]}


def test_club_contracts_equal_sql_written_by_hand(played, club):
    """Per contract over every declarer of the season: called, made and the declarers' total,
    read here from the hands themselves (not the score lines' copied columns)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT h.contract, COUNT(*),
                   SUM(CASE WHEN h.made THEN 1 ELSE 0 END), SUM(sl.amount)
              FROM club_hand h
              JOIN club_table t ON t.id = h.table_id
              JOIN club_night n ON n.id = t.night_id
              JOIN club_scoreline sl ON sl.hand_id = h.id AND sl.player_id = h.declarer_id
             WHERE n.season_id = %s AND n.counts_in_standings AND h.contract <> 'all_passed'
             GROUP BY h.contract
            """,
            [played.pk],
        )
        by_hand = {row[0]: (row[1], row[2], row[3]) for row in cursor.fetchall()}
    found = gq.club_contracts(played)
    assert {c.value: (r.called, r.made, r.gain) for c, r in found.items()} == by_hand
    assert len(by_hand) == 5 and all(0 < made < called for called, made, _ in by_hand.values())


def test_the_player_page_shows_the_club_beside_each_contract(
    client, played, club, players, secretary
):
    client.force_login(secretary)
    ann = players[0]
    response = client.get(player_url(club, ann, season=played.pk))
    rows, _ = table_text(response.content, "contracts")
    assert rows[0][-2:] == ["Club % made", "Club average gain"]
    rates = gq.club_contracts(played)
    for row in rows[1:]:
        contract = next(c for c in scoring.Contract if c.display_name == row[0])
        rate = rates[contract]
        assert row[-2] == f"{round(Fraction(100 * rate.made, rate.called))} %"
    misere = rates[scoring.Contract.MISERE]
    text = " ".join(response.content.decode().split())
    mine = next(r for r in rows[1:] if r[0] == "Misère")
    assert (
        f"Misère: {mine[1]} called, {mine[3].replace('%', ' %')} made, club "
        f"{round(Fraction(100 * misere.made, misere.called))} %"
    ) in text


def test_head_to_head_equals_sql_written_by_hand(client, played, club, players, secretary):
    ann, bob = players[0], players[1]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT COUNT(*), SUM(a.amount), SUM(b.amount),
                   SUM(CASE WHEN h.declarer_id = %s AND COALESCE(h.partner_id, 0) <> %s
                            THEN 1 ELSE 0 END),
                   SUM(CASE WHEN h.declarer_id = %s AND COALESCE(h.partner_id, 0) <> %s
                            AND h.made THEN 1 ELSE 0 END),
                   SUM(CASE WHEN h.declarer_id = %s AND COALESCE(h.partner_id, 0) <> %s
                            THEN 1 ELSE 0 END),
                   SUM(CASE WHEN h.contract = 'prop_cop' AND (
                            (h.declarer_id = %s AND h.partner_id = %s)
                         OR (h.declarer_id = %s AND h.partner_id = %s)) THEN 1 ELSE 0 END)
              FROM club_hand h
              JOIN club_scoreline a ON a.hand_id = h.id AND a.player_id = %s
              JOIN club_scoreline b ON b.hand_id = h.id AND b.player_id = %s
            """,
            [ann.pk, bob.pk, ann.pk, bob.pk, bob.pk, ann.pk, ann.pk, bob.pk, bob.pk, ann.pk,
             ann.pk, bob.pk],
        )  # fmt: skip
        hands, net, other_net, called, called_made, other_called, together = cursor.fetchone()
    found = gq.head_to_head(played, ann, bob)
    assert (
        found.hands, found.net, found.other_net, found.called, found.called_made,
        found.other_called, found.together,
    ) == (hands, net, other_net, called, called_made, other_called, together)  # fmt: skip
    assert hands > 0 and called > 0 and together > 0
    client.force_login(secretary)
    response = client.get(player_url(club, ann, season=played.pk, vs=bob.pk))
    text = " ".join(response.content.decode().split())
    assert f"{hands} hands at the same table in {played.name}." in text
    rows, _ = table_text(response.content, "h2h")
    assert rows[0][1:] == ["Ann", "Bob"]
    assert rows[1][1:] == [club.format_amount(net, signed=True),
                           club.format_amount(other_net, signed=True)]  # fmt: skip
    assert rows[2][1:] == [str(called), str(other_called)]
    assert rows[3][1] == str(called_made)
    assert f"Prop &amp; Cop as partners: {together} hand" in text
    # A player of another club, or no such player, is refused with a message.
    response = client.get(player_url(club, ann, season=played.pk, vs=999999))
    assert "Select a valid choice" in response.content.decode() or "Choose a player" in (
        response.content.decode()
    )
    assert "at the same table in" not in response.content.decode()


def test_standings_show_each_players_grade_from_the_rating(client, played, club, viewer):
    client.force_login(viewer)
    shown = standings_rows(client, club)
    grades = {g.player.name: g for g in Grade.objects.select_related("player")}
    assert set(shown) == set(grades)
    for name, text in shown.items():
        grade = core.shown(grades[name].rating)
        assert text.startswith(f"{grade.value:,} ±{grade.plus_minus:,}")
        # 48 hands each: provisional before the default 60.
        assert "provisional" in text


def test_the_club_can_rank_its_ladder_by_grade(client, played, club, viewer):
    GradeSettings.objects.create(club=club, ladder_by_grade=True, min_hands=10)
    client.force_login(viewer)
    shown = standings_rows(client, club)
    values = [int(text.split(" ")[0].replace(",", "")) for text in shown.values()]
    assert values == sorted(values, reverse=True)
    assert not any("provisional" in text for text in shown.values())


def test_the_player_page_shows_the_grade_and_its_course(client, played, club, players, viewer):
    client.force_login(viewer)
    ann = players[0]
    response = client.get(player_url(club, ann, season=played.pk))
    grade = core.shown(Grade.objects.get(player=ann).rating)
    text = " ".join(response.content.decode().split())
    assert f'<strong class="grade provisional">{grade.value}</strong>' in text
    rows, _ = table_text(response.content, "grade-table")
    # The grade chart's figures: one column per night Ann played, the last one her grade now.
    assert len(rows[0]) == 1 + 6 and rows[1][0] == "Ann"
    assert rows[1][-1] == f"{grade.value:,}"
    nights = gq.grade_history(ann, core.MIN_HANDS)
    assert rows[1][1:] == [f"{p.grade.value:,}" for p in nights]
    assert "<title" in text and "Grade of Ann, last 6 nights" in text


def test_grades_off_hides_them_everywhere(client, played, club, players, secretary):
    GradeSettings.objects.create(club=club, enabled=False)
    client.force_login(secretary)
    response = client.get(reverse("standings", args=[club.slug]))
    rows, _ = table_text(response.content, "standings")
    assert "Grade" not in rows[0]
    page = client.get(player_url(club, players[0], season=played.pk)).content.decode()
    assert "Solo grade" not in page


def test_a_player_not_graded_in_public_is_hidden_from_others_not_the_secretary(
    client, played, club, players, secretary, viewer
):
    ann = players[0]
    GradeOptOut.objects.create(player=ann)
    client.force_login(viewer)
    assert standings_rows(client, club)["Ann"] == "-"
    page = client.get(player_url(club, ann, season=played.pk)).content.decode()
    assert "Solo grade" not in page
    # Another player's grade is still shown to the viewer.
    assert "Solo grade" in client.get(player_url(club, players[1])).content.decode()
    client.force_login(secretary)
    assert standings_rows(client, club)["Ann"] != "-"
    page = client.get(player_url(club, ann, season=played.pk)).content.decode()
    assert "Solo grade" in page and "asked not to be graded in public" in page


def test_a_player_linked_to_an_account_sees_their_own_hidden_grade(club, players, viewer):
    ann = players[0]
    GradeOptOut.objects.create(player=ann)
    seen = gq.viewer(viewer, club)
    assert not seen.may_see(ann)
    ann.user_id = viewer.pk  # the link from a player to an account
    assert seen.may_see(ann)


def test_an_anonymous_visitor_to_a_private_club_is_asked_to_log_in(client, played, club, players):
    response = client.get(player_url(club, players[0]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_an_outsider_gets_a_404_for_the_grade_settings(client, club, outsider):
    client.force_login(outsider)
    assert client.get(reverse("grade_settings", args=[club.slug])).status_code == 404
    assert client.post(reverse("grade_settings", args=[club.slug]), {}).status_code == 404
    assert not GradeSettings.objects.exists()


@pytest.mark.parametrize("role", ["viewer", "scorer"])
def test_only_a_secretary_changes_grade_settings(client, club, role, request):
    client.force_login(request.getfixturevalue(role))
    url = reverse("grade_settings", args=[club.slug])
    assert client.post(url, {"enabled": "", "min_hands": 5}).status_code == 403
    assert not GradeSettings.objects.exists()


def test_the_secretary_turns_grades_off_and_hides_a_player(client, club, players, secretary):
    client.force_login(secretary)
    url = reverse("grade_settings", args=[club.slug])
    assert "Not graded in public" in client.get(url).content.decode()
    response = client.post(url, {"min_hands": 40, "not_public": [players[2].pk]})
    assert response.status_code == 302
    settings = GradeSettings.objects.get(club=club)
    assert (settings.enabled, settings.min_hands, settings.ladder_by_grade) == (False, 40, False)
    assert list(GradeOptOut.objects.values_list("player__name", flat=True)) == ["Cat"]
    event = AuditEvent.objects.get(subject="Grade settings")
    assert event.after == {"enabled": False, "min_hands": 40, "not graded in public": ["Cat"]}
    # Saving the same again records nothing more.
    client.post(url, {"min_hands": 40, "not_public": [players[2].pk]})
    assert AuditEvent.objects.filter(subject="Grade settings").count() == 1


def test_bad_settings_are_refused_with_a_message_and_nothing_saved(
    client, club, players, secretary, other_club
):
    client.force_login(secretary)
    url = reverse("grade_settings", args=[club.slug])
    response = client.post(url, {"enabled": "on", "min_hands": 0})
    assert response.status_code == 200 and "A grade needs at least 1 hand." in (
        response.content.decode()
    )
    from club.clubs.models import Player

    stranger = Player.objects.create(club=other_club, name="Stranger")
    response = client.post(url, {"enabled": "on", "min_hands": 5, "not_public": [stranger.pk]})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not GradeSettings.objects.exists() and not GradeOptOut.objects.exists()
    with pytest.raises(ValueError, match="this club"):
        services.update_settings(
            club, secretary, enabled=True, min_hands=5, ladder_by_grade=False,
            not_public=[stranger],
        )  # fmt: skip


@pytest.mark.parametrize("weeks", [1, 10])
def test_page_queries_do_not_grow_with_grades(
    client, season, players, secretary, django_assert_max_num_queries, weeks
):
    ann, bob, cat, dan = players[:4]
    for week in range(weeks):
        night = night_with(season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), players[:4])
        play(night, secretary, ann, "solo", 5 + week % 3)
        play(night, secretary, bob, "prop_cop", 8, partner=ann)
    services.drain(season.club_id)
    GradeOptOut.objects.create(player=dan)
    client.force_login(secretary)
    with django_assert_max_num_queries(24):  # the page's 16, the grade's 6, head to head 2
        response = client.get(player_url(season.club, ann, season=season.pk, vs=bob.pk))
        assert "at the same table in" in response.content.decode()
    with django_assert_max_num_queries(14):
        assert client.get(reverse("standings", args=[season.club.slug])).status_code == 200


def test_a_night_that_does_not_count_is_still_graded(season, players, secretary):
    night = night_with(season, dt.date(2026, 9, 1), players[:4])
    Night.objects.filter(pk=night.pk).update(counts_in_standings=False)
    play(night, secretary, players[0], "solo", 6)
    services.drain(season.club_id)
    assert Grade.objects.get(player=players[0]).mu > core.MU


def test_grade_settings_changed_in_the_admin_are_audited(client, club, django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(user)
    response = client.post(
        reverse("admin:grades_gradesettings_add"),
        {"club": club.pk, "enabled": "", "min_hands": 30, "ladder_by_grade": ""},
    )
    assert response.status_code == 302
    assert GradeSettings.objects.get(club=club).min_hands == 30
    assert AuditEvent.objects.filter(club=club, subject__startswith="Grade settings").exists()


def test_pages_say_the_grades_are_updating_until_the_catch_up_ran(
    client, season, players, secretary, viewer
):
    """A save leaves its grades to the background task: until it has run, the standings and the
    player page say the grades are updating; after it, they say nothing of it."""
    night = night_with(season, dt.date(2026, 9, 1), players[:4])
    play(night, secretary, players[0], "solo", 6)
    client.force_login(viewer)
    standings = reverse("standings", args=[season.club.slug])
    player = player_url(season.club, players[0], season=season.pk)
    assert "Grades updating" in client.get(standings).content.decode()
    assert "Updating: the latest hands are being rated" in client.get(player).content.decode()
    services.drain(season.club_id)
    assert "updating" not in client.get(standings).content.decode().lower()
    assert "Updating:" not in client.get(player).content.decode()


def test_the_standings_say_what_a_grades_arrow_measures(client, played, club, viewer):
    """An arrow beside a grade is its change over the nights shown, also for a player who did
    not play the last night: the table's legend and each arrow's title say so."""
    client.force_login(viewer)
    page = client.get(reverse("standings", args=[club.slug])).content.decode()
    assert "its change over the nights shown, for every player, whether or not they" in page
    if 'class="move gain"' in page or 'class="move loss"' in page:
        assert "whether or not they played the last night" in page.split('class="move', 1)[1]
