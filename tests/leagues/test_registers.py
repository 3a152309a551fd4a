"""Who plays for whom: a club names its players, a person named by a second club is refused with
the first club named, the organiser matches two names that are one person and grants transfers,
and nobody outside sees or changes a club's register."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Membership, Player, Role
from club.leagues.models import Fixture, LeaguePerson, Registration, Transfer
from club.leagues.services import registers
from club.leagues.services.registers import RegisterError
from club.play.services.night_setup import create_night
from tests.leagues.conftest import make_club

REFUSED = (
    "Ann Baxter already plays for Bucksburn Crown in this league; "
    "the organiser can grant a transfer."
)


def _client(username: str, password: str = "pw-sec-1") -> Client:
    client = Client()
    assert client.login(username=username, password=password)
    return client


def _club_url(entry) -> str:
    return reverse("league_club_players", args=[entry.club.slug, entry.league.slug])


def _ann(entries) -> tuple[User, Player, Player]:
    """Ann Baxter: one account, with a claimed record in Aberdeen Athenaeum and one in Bucksburn
    Crown."""
    ann = User.objects.create_user("ann", "ann@example.com", "pw-ann-1")
    aberdeen = Player.objects.create(club=entries[0].club, name="Ann Baxter", user=ann)
    bucksburn = Player.objects.create(club=entries[1].club, name="Ann Baxter", user=ann)
    return ann, aberdeen, bucksburn


def _play_a_night(league, home, away, people: list[LeaguePerson]) -> None:
    """A match night of home v away at which these people's seats sat (one table of four)."""
    season = league.host_club.seasons.get()
    night = create_night(season, dt.date(2027, 1, 15), [([p.seat for p in people], 0)])
    Fixture.objects.create(
        league=league, cycle=1, round=1, date=night.date, home=home, away=away, night=night
    )


def test_a_person_named_by_two_clubs_is_refused_at_the_second_and_plays_for_it_after_a_transfer(
    league, five_clubs, organiser
):
    aberdeen, bucksburn = five_clubs[0], five_clubs[1]
    ann, ann_at_aberdeen, ann_at_bucksburn = _ann(five_clubs)

    response = _client("sec-bucksburn-crown").post(
        _club_url(bucksburn), {"players": [ann_at_bucksburn.pk]}
    )
    assert response.status_code == 302

    # The same account's record in another club is the same person: refused, naming the first.
    aberdeen_secretary = _client("sec-aberdeen-athenaeum")
    response = aberdeen_secretary.post(_club_url(aberdeen), {"players": [ann_at_aberdeen.pk]})
    assert response.status_code == 422
    assert REFUSED in response.content.decode()
    assert not Registration.objects.filter(entry=aberdeen).exists()
    person = LeaguePerson.objects.get(league=league)
    assert person.user == ann and person.seat.club == league.host_club

    # The organiser grants the transfer, choosing Aberdeen's own record of her.
    organiser_client = Client()
    organiser_client.force_login(organiser)
    page = organiser_client.get(reverse("league_players", args=[league.slug])).content.decode()
    assert "Grant a transfer" in page and "Ann Baxter (Bucksburn Crown)" in page
    response = organiser_client.post(
        reverse("league_transfer", args=[league.slug]),
        {"person": person.pk, "player": ann_at_aberdeen.pk, "note": "Moved to Aberdeen"},
    )
    assert response.status_code == 302

    live = Registration.objects.get(person=person, ended_at__isnull=True)
    assert (live.entry, live.player) == (aberdeen, ann_at_aberdeen)
    assert Registration.objects.get(entry=bucksburn, person=person).ended_at is not None
    transfer = Transfer.objects.get(person=person)
    assert (transfer.from_entry, transfer.to_entry, transfer.granted_by) == (
        bucksburn,
        aberdeen,
        organiser,
    )
    assert "Ann Baxter" in aberdeen_secretary.get(_club_url(aberdeen)).content.decode()
    bucksburn_page = _client("sec-bucksburn-crown").get(_club_url(bucksburn)).content.decode()
    assert 'Take off<span class="visually-hidden"> Ann Baxter' not in bucksburn_page
    history = organiser_client.get(reverse("league_players", args=[league.slug])).content.decode()
    assert "Ann Baxter, Bucksburn Crown to Aberdeen Athenaeum: Moved to Aberdeen" in history
    assert AuditEvent.objects.filter(
        club=league.host_club, user=organiser, subject="Transfer: Ann Baxter to Aberdeen Athenaeum"
    ).exists()

    # Bucksburn cannot name her back: she plays for Aberdeen now.
    with pytest.raises(RegisterError, match="already plays for Aberdeen Athenaeum"):
        registers.register(bucksburn, [ann_at_bucksburn], organiser)


def test_unclaimed_names_of_two_clubs_are_found_alike_and_made_one_by_a_transfer(
    league, five_clubs, organiser
):
    aberdeen, bucksburn, cults = five_clubs[0], five_clubs[1], five_clubs[2]
    by = User.objects.get(username="sec-aberdeen-athenaeum")
    john_a = Player.objects.create(club=aberdeen.club, name="John Smith")
    john_b = Player.objects.create(club=bucksburn.club, name="JOHN SMITH")
    j_smith_c = Player.objects.create(club=cults.club, name="J. Smith")
    jane_a = Player.objects.create(club=aberdeen.club, name="Jane Smith")  # same club: not shown
    registers.register(aberdeen, [john_a, jane_a], by)
    registers.register(bucksburn, [john_b], by)
    registers.register(cults, [j_smith_c], by)

    # Unclaimed records are persons of their own, each with a seat named apart in the league's club.
    seats = set(LeaguePerson.objects.values_list("seat__name", flat=True))
    assert seats == {"J. Smith", "Jane Smith", "JOHN SMITH (Bucksburn Crown)", "John Smith"}

    found = {
        frozenset((d.first.person.name, d.second.person.name)): d.reason
        for d in registers.likely_duplicates(league)
    }
    assert found == {
        frozenset(("John Smith", "JOHN SMITH")): "the same name",
        frozenset(("J. Smith", "John Smith")): "the same surname and initial",
        frozenset(("J. Smith", "JOHN SMITH")): "the same surname and initial",
        frozenset(("J. Smith", "Jane Smith")): "the same surname and initial",
        frozenset(("JOHN SMITH", "Jane Smith")): "the same surname and initial",
    }  # not John and Jane Smith: one club's two players

    keep = LeaguePerson.objects.get(name="John Smith")
    duplicate = LeaguePerson.objects.get(name="JOHN SMITH")
    with pytest.raises(RegisterError, match="Aberdeen Athenaeum and JOHN SMITH for Bucksburn"):
        registers.match_people(keep, duplicate, organiser)

    # The transfer to Bucksburn's record of him makes the two one person, playing for Bucksburn.
    registers.grant_transfer(keep, john_b, "", organiser)
    assert not LeaguePerson.objects.filter(pk=duplicate.pk).exists()
    assert not Player.objects.filter(pk=duplicate.seat_id).exists()
    live = Registration.objects.get(person=keep, ended_at__isnull=True)
    assert (live.entry, live.player) == (bucksburn, john_b)
    with pytest.raises(RegisterError) as refused:
        registers.register(aberdeen, [john_a], by)
    assert registers.plays_elsewhere(john_a.name, bucksburn.club) in str(refused.value)


def test_the_organiser_makes_two_names_one_and_the_seat_that_played_is_kept(
    league, five_clubs, organiser
):
    aberdeen, bucksburn = five_clubs[0], five_clubs[1]
    by = User.objects.get(username="sec-aberdeen-athenaeum")
    players_a = list(aberdeen.club.players.order_by("name")[:4])
    registers.register(aberdeen, players_a, by)
    people = list(LeaguePerson.objects.order_by("name"))
    _play_a_night(league, aberdeen, bucksburn, people)
    # Aberdeen takes player 1 off after he played: refused.
    first = Registration.objects.get(person=people[0])
    with pytest.raises(RegisterError, match="has played a match night for Aberdeen"):
        registers.withdraw(first, by)

    # Bucksburn named the same man once, then took him off before he played.
    him_at_b = Player.objects.create(club=bucksburn.club, name="Aberdeen Athenaeum player 1")
    [named] = registers.register(bucksburn, [him_at_b], by)
    assert named.person != people[0]  # unclaimed: a person of his own until matched
    with pytest.raises(RegisterError, match="for Bucksburn Crown: one person plays for one club"):
        # ... so the duplicate's registration blocks a match while both are live
        registers.match_people(people[0], named.person, organiser)
    registers.withdraw(named, by)
    assert Registration.objects.get(pk=named.pk).ended_at is not None

    # The organiser keeps the one that never played: the seat that played stays with him.
    never_played = named.person
    played_seat = people[0].seat_id
    registers.match_people(never_played, people[0], organiser)
    never_played.refresh_from_db()
    assert never_played.seat_id == played_seat
    assert set(never_played.registrations.values_list("entry", flat=True)) == {
        aberdeen.pk,
        bucksburn.pk,
    }
    assert LeaguePerson.objects.count() == 4
    assert AuditEvent.objects.filter(
        club=league.host_club, subject=f"Same person: {never_played.name}"
    ).exists()

    # Two people who both played cannot be made one.
    with pytest.raises(RegisterError, match="both played"):
        registers.match_people(never_played, people[1], organiser)


def test_a_club_takes_a_name_off_with_confirmation_and_names_him_again(league, five_clubs):
    aberdeen = five_clubs[0]
    client = _client("sec-aberdeen-athenaeum")
    player = aberdeen.club.players.order_by("name").first()
    client.post(_club_url(aberdeen), {"players": [player.pk]})
    registration = Registration.objects.get(entry=aberdeen)
    url = reverse("league_club_withdraw", args=[aberdeen.club.slug, league.slug, registration.pk])
    assert "Take off the register" in client.get(url).content.decode()
    assert Registration.objects.get(pk=registration.pk).ended_at is None  # the GET asks only
    assert client.post(url).status_code == 302
    assert Registration.objects.get(pk=registration.pk).ended_at is not None
    client.post(_club_url(aberdeen), {"players": [player.pk]})
    # Named again: the same person (and seat) as before, not a second one.
    assert LeaguePerson.objects.count() == 1
    assert Registration.objects.filter(entry=aberdeen, ended_at__isnull=True).count() == 1


def test_only_the_clubs_secretary_names_its_players(
    league, five_clubs, organiser, django_user_model
):
    aberdeen, bucksburn = five_clubs[0], five_clubs[1]
    player = aberdeen.club.players.first()
    scorer = django_user_model.objects.create_user("scorer-a", password="pw-sec-1")
    Membership.objects.create(club=aberdeen.club, user=scorer, role=Role.SCORER)
    make_club("Fraserburgh")  # not in the league
    organiser_client = Client()
    organiser_client.force_login(organiser)
    visitors = {
        "another club's secretary": _client("sec-bucksburn-crown"),
        "outsider": _client("sec-fraserburgh"),
        "scorer": _client("scorer-a"),
        "organiser": organiser_client,
        "anonymous": Client(),
    }
    registers.register(aberdeen, [player], User.objects.get(username="sec-aberdeen-athenaeum"))
    withdraw = reverse(
        "league_club_withdraw",
        args=[aberdeen.club.slug, league.slug, Registration.objects.get().pk],
    )
    for who, client in visitors.items():
        for url in (_club_url(aberdeen), withdraw):
            assert client.get(url).status_code == 404, who
            assert client.post(url, {"players": [player.pk]}).status_code == 404, who
    assert Registration.objects.get().ended_at is None
    # Bucksburn's secretary cannot name Aberdeen's player through Bucksburn's own page either.
    response = visitors["another club's secretary"].post(
        _club_url(bucksburn), {"players": [player.pk]}
    )
    assert response.status_code == 422
    assert not Registration.objects.filter(entry=bucksburn).exists()

    # The league's page: its clubs' members read the registers; outsiders get a 404.
    league_url = reverse("league_players", args=[league.slug])
    page = visitors["scorer"].get(league_url)
    assert player.name in page.content.decode()
    assert "Grant a transfer" not in page.content.decode()
    assert visitors["outsider"].get(league_url).status_code == 404
    assert visitors["anonymous"].get(league_url).status_code == 404
    keep = LeaguePerson.objects.get()
    for client in (visitors["scorer"], visitors["another club's secretary"]):
        transfer = client.post(
            reverse("league_transfer", args=[league.slug]),
            {"person": keep.pk, "player": bucksburn.club.players.first().pk},
        )
        assert transfer.status_code == 404
        same = reverse("league_same_person", args=[league.slug, keep.pk, keep.pk])
        assert client.post(same).status_code == 404
    assert not Transfer.objects.exists()
    assert LeaguePerson.objects.count() == 1


@pytest.mark.parametrize("players", [6, 30])
def test_the_register_pages_ask_a_fixed_number_of_queries(
    league, organiser, players, django_assert_max_num_queries
):
    from club.leagues.models import LeagueClub

    entries = []
    for name in ["Inverurie", "Kintore"]:
        entry = LeagueClub.objects.create(
            league=league,
            club=make_club(name, players=players),
            status=LeagueClub.Status.ACCEPTED,
            answered_at=league.created_at,
        )
        half = list(entry.club.players.order_by("name")[: players // 2])
        registers.register(entry, half, organiser)
        entries.append(entry)
    client = _client("sec-inverurie")
    # 8 at 6 and at 30 players a club: the session, user, league, entry, names, players...
    with django_assert_max_num_queries(8):
        page = client.get(_club_url(entries[0]))
    assert page.content.decode().count('name="players"') == players - players // 2
    organiser_client = Client()
    organiser_client.force_login(organiser)
    # 9 at both sizes: the registers, likely duplicates, transfer form's two lists, transfers...
    with django_assert_max_num_queries(9):
        page = organiser_client.get(reverse("league_players", args=[league.slug]))
    assert page.content.decode().count("<li>Inverurie player") == players // 2


def test_two_clubs_naming_one_person_at_once_leave_one_name_and_a_message(
    league, five_clubs, organiser, monkeypatch
):
    """The check and the write race when two requests name one person at the same moment: the
    second one's check saw no live name (the first had not committed), so the database's
    constraint refuses its write, and the club reads why instead of an error page."""
    aberdeen, bucksburn = five_clubs[0], five_clubs[1]
    _, ann_at_aberdeen, ann_at_bucksburn = _ann(five_clubs)
    registers.register(bucksburn, [ann_at_bucksburn], organiser)
    monkeypatch.setattr(registers, "_live", lambda person: None)  # the check that raced
    with pytest.raises(RegisterError, match="at the same moment"):
        registers.register(aberdeen, [ann_at_aberdeen], organiser)
    assert list(Registration.objects.values_list("entry", flat=True)) == [bucksburn.pk]


def test_a_record_claimed_after_it_was_named_is_the_accounts_person_in_every_club(
    league, five_clubs, organiser
):
    aberdeen, bucksburn = five_clubs[0], five_clubs[1]
    ann = User.objects.create_user("ann", "ann@example.com", "pw-ann-1")
    at_aberdeen = Player.objects.create(club=aberdeen.club, name="Ann Baxter")
    registers.register(aberdeen, [at_aberdeen], organiser)
    registers.withdraw(Registration.objects.get(), organiser)
    at_aberdeen.user = ann  # she claims Aberdeen's record of her
    at_aberdeen.save()
    registers.register(aberdeen, [at_aberdeen], organiser)
    person = LeaguePerson.objects.get()  # the same person, now hers
    assert person.user == ann and person.seat.user is None
    at_bucksburn = Player.objects.create(club=bucksburn.club, name="Ann B.", user=ann)
    with pytest.raises(RegisterError, match=r"Ann B\. already plays for Aberdeen Athenaeum"):
        registers.register(bucksburn, [at_bucksburn], organiser)
