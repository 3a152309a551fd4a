"""A club's life goes on beside its leagues: a club purged for good takes its entry, its
registers and its matches with it, but never its secretary's account while he organises a league,
and the purge does not fail on the league's rows."""

from __future__ import annotations

from django.contrib.auth.models import User

from club.clubs.models import AuditEvent, Club, Membership, Role
from club.clubs.services import clubs_lifecycle
from club.leagues.models import League, LeagueClub, Registration
from club.leagues.services import fixtures, registers
from tests.leagues.conftest import make_club


def test_a_purged_club_keeps_its_secretarys_account_while_he_organises_a_league(league):
    club = make_club("Fyvie Castle")
    organiser = league.organiser
    Membership.objects.create(club=club, user=organiser, role=Role.SECRETARY)
    clubs_lifecycle.purge_club(club)
    assert not Club.all_objects.filter(pk=club.pk).exists()
    assert User.objects.filter(pk=organiser.pk).exists()
    assert League.objects.filter(pk=league.pk, organiser=organiser).exists()
    # His fellow secretary, who organises nothing, went with the club.
    assert not User.objects.filter(username="sec-fyvie-castle").exists()


def test_a_purged_club_takes_its_entry_registers_and_fixtures_with_it(league, five_clubs):
    fixtures.generate(league, league.organiser)
    leaving = five_clubs[0]
    secretary = User.objects.get(username=f"sec-{leaving.club.slug}")
    registers.register(leaving, list(leaving.club.players.all()), secretary)
    assert Registration.objects.filter(entry=leaving).count() == 6
    clubs_lifecycle.purge_club(leaving.club)
    assert not LeagueClub.objects.filter(pk=leaving.pk).exists()
    assert not Registration.objects.filter(entry_id=leaving.pk).exists()
    assert not league.fixtures.filter(home_id=leaving.pk).exists()
    assert league.fixtures.exists()  # the other clubs' fixtures stay


def test_a_forgotten_player_is_forgotten_in_the_leagues_he_was_named_for(league, five_clubs):
    entry = five_clubs[0]
    secretary = User.objects.get(username=f"sec-{entry.club.slug}")
    player = entry.club.players.order_by("name").first()
    assert player is not None
    [registration] = registers.register(entry, [player], secretary)
    seat_pk, old = registration.person.seat_id, player.name
    trail = AuditEvent.objects.filter(club=league.host_club)
    assert any(old in str((e.subject, e.before, e.after)) for e in trail)

    clubs_lifecycle.forget_player(player, secretary)

    registration.refresh_from_db()
    person = registration.person
    person.refresh_from_db()
    assert person.name.startswith("Former player") and person.user is None
    assert person.seat_id == seat_pk  # his results stay with the same seat
    assert person.seat.name == person.name
    assert not any(old in str((e.subject, e.before, e.after)) for e in trail.all())
