"""Every view of the app, with every method, for every kind of visitor: the club's secretary,
table scorer and viewer (the viewer is also Bob, the player owed money), the secretary of another
club, an anonymous visitor, and a phone holding a table's link (no login). Each URL name has one
line in WHO_MAY saying who may use it; a refused request must be refused (a log-in redirect, 403
or 404) and write nothing, an allowed one must not be refused. A URL the table does not name
fails the test, so a new page is one line to add.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from club.clubs.models import Invitation, Membership, PlayerClaim, Role
from club.help.queries import guides
from club.leagues.models import LeagueClub
from club.leagues.services import organisers
from club.leagues.services import registers as league_registers
from club.leagues.services.leagues import NewLeague, create_league
from club.money.models import Debt, Settlement
from club.money.services import results_mail
from club.play.services import player_links
from club.play.services import table_cards as card_service
from club.play.services import table_links as link_service
from club.play.services import tokens as token_service
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.tournaments.services import tournaments as tournament_services
from tests.kits.tournament_kit import make_tournament

ROLES = ["secretary", "scorer", "viewer", "outsider", "anonymous", "link holder"]

# Who may use each URL (a private club). READ, SCORE and MANAGE are the club's roles; the others:
#   anyone: every visitor;  signed in: any logged-in account;  payee: the secretary or the player
#   owed the money (the viewer is Bob, owed 6p);  player: the account linked to a player (Bob);
#   invitee: the invited account (the viewer);  token: whoever holds the signed link (a results
#   email's, a claim's, a table's): every visitor here holds it.
READ, SCORE, MANAGE = {"secretary", "scorer", "viewer"}, {"secretary", "scorer"}, {"secretary"}
ANYONE = set(ROLES)
SIGNED_IN = {"secretary", "scorer", "viewer", "outsider"}
WHO_MAY: dict[str, set[str]] = {
    # The site
    "home": ANYONE,
    "password_reset": ANYONE,
    "interchange_schema": ANYONE,
    "interchange_schema_v2": ANYONE,
    "interchange_schema_v3": ANYONE,
    "interchange_schema_league": ANYONE,
    # The league file: the import makes a league of the signed-in account's own; the export is
    # the organiser's, who is none of these (tests/interchange/test_league_file.py)
    "league_import": SIGNED_IN,
    "league_export": set(),
    "service_worker": ANYONE,
    "favicon": ANYONE,
    "healthz": ANYONE,  # a load balancer's probe: says nothing about any club
    "metrics": set(),  # Prometheus's, with METRICS_TOKEN as its bearer token: no visitor's
    # The guides, served by the app: a club night has no internet, and nothing here is a club's
    **dict.fromkeys(["help", "help_page", "help_image", "help_players_pdf"], ANYONE),
    "invitations": SIGNED_IN,
    # Sign-up: an account and a club; the emailed link is the key
    **dict.fromkeys(["signup", "signup_sent", "signup_confirm"], ANYONE),
    "invitation_accept": {"viewer"},
    "invitation_decline": {"viewer"},
    # A table's link: the token is the key
    **dict.fromkeys(
        [
            "link_table",
            "link_create",
            "link_preview",
            "link_form",
            "link_device",
            "link_edit",
            "link_delete",
            "link_confirm",
            "link_pay",
            # A table's permanent card: the token is the key, as a link's
            "card_page",
            "card_open_night",
        ],
        ANYONE,
    ),
    # The club: reading
    **dict.fromkeys(
        [
            "club",
            "night_list",
            "night_detail",
            "player_list",
            "table_detail",
            "standings",
            "standings_csv",
            "player_detail",
            "night_sheet",
            "score_cards",
            "standings_sheet",
            "player_statement",
            "tournament_list",
            "tournament_detail",
            "leaderboard",
            "leaderboard_live",
            "tournament_seats_pdf",
            "tournament_cards_pdf",
            "tournament_results_pdf",
            "live_night",
        ],
        READ,
    ),
    # Scoring and setting up nights
    **dict.fromkeys(
        [
            "night_create",
            "arrivals",
            "arrival_tick",
            "arrival_new",
            "hand_create",
            "hand_preview",
            "hand_form",
            "hand_edit",
            "hand_delete",
            "tournament_create",
            "tournament_settings",
            "tournament_entries",
            "tournament_withdraw",
            "tournament_start",
            "tournament_round_close",
        ],
        SCORE,
    ),
    # The secretary's
    **dict.fromkeys(
        [
            "club_setup",
            "player_create",
            "player_edit",
            "player_lines",
            "season_list",
            "season_create",
            "season_edit",
            "rule_set_list",
            "rule_set_create",
            "rule_set_custom",
            "rule_set_edit",
            "rule_set_copy",
            "member_list",
            "member_add",
            "member_create_user",
            "member_role",
            "member_remove",
            "member_unlock",
            "invitation_withdraw",
            "club_audit",
            "night_close",
            "night_reopen",
            "night_tables_edit",
            "draw",
            "night_late",
            "door_qr",
            "night_delete",
            "club_export",
            "club_import",
            "club_import_confirm",
            "import_csv_template",
            "night_export",
            "night_links",
            "night_links_print",
            "table_link_revoke",
            "table_link_reissue",
            "table_cards",
            "table_cards_print",
            "table_card_revoke",
            "table_card_reissue",
            "night_start_tonight",
            "hand_confirm",
            "grade_settings",
            "night_publish",
            "club_ledger",
            "ledger_net",
            "payment_undo",
            "club_first_run",
            "club_close",
            "player_forget",
        ],
        MANAGE,
    ),
    # Leagues: an organiser's sign-up (the emailed link is the key), the leagues of a signed-in
    # person; a league's pages are its playing clubs' members' (this club plays in the league);
    # its settings and clubs are its organiser's, who is none of these visitors
    **dict.fromkeys(["league_signup", "league_signup_sent", "league_signup_confirm"], ANYONE),
    **dict.fromkeys(["league_list", "league_new"], SIGNED_IN),
    "league_home": READ,
    "league_settings": set(),
    "league_clubs": set(),
    "league_invitation_withdraw": set(),
    # ... whose invitations the club's secretaries answer
    **dict.fromkeys(
        ["club_leagues", "league_invitation_accept", "league_invitation_decline"], MANAGE
    ),
    # A league the club plays in (organised by someone of no role here): its clubs' members read
    # the registers; the club's secretary names its players; the organiser's own actions are his
    "league_players": READ,
    "league_club_players": MANAGE,
    "league_club_withdraw": MANAGE,
    "league_transfer": set(),
    "league_same_person": set(),
    # After the night: the player's own pages and links
    "debt_pay": {"secretary", "viewer"},
    "me": {"viewer"},
    "unsubscribe": ANYONE,
    "claim": READ,  # a private club's claim page is its members' (outsiders: a missing club)
    "claim_confirm": ANYONE,
    "payee_owed": ANYONE,
    "payee_pay": ANYONE,
    "club_door": ANYONE,  # the door QR code's signed token is the key
    # A person's home across clubs: their own claimed records only (Bob's is the viewer's)
    "player_home": SIGNED_IN,
    "player_home_unlink": {"viewer"},
    # A player's own link (Bob's): the token is the key, as a table's link
    **dict.fromkeys(
        ["player_own", "player_own_night", "player_own_statement", "player_own_pay"], ANYONE
    ),
    # ... which only the secretary shows, re-issues or revokes
    **dict.fromkeys(
        ["player_own_link", "player_own_link_reissue", "player_own_link_revoke"], MANAGE
    ),
    # A league's fixtures and table are its playing clubs' members' to read; generating, moving
    # and a club's calendar re-issue are the organiser's or a secretary's POSTs; a made-up
    # fixture, feed token or card token is a 404 to everyone (tests/leagues checks the
    # organiser, the clubs and outsiders on real ones)
    **dict.fromkeys(
        ["league_fixtures", "league_table", "league_table_pdf", "league_table_csv"], READ
    ),
    "league_calendar_reissue": MANAGE,  # the club's own feed, by its secretary
    **{
        name: set()
        for name in [
            "league_fixtures_generate",
            "league_fixture_move",
            "league_fixture",
            "league_fixture_open",
            "league_fixture_close",
            "league_calendar",
            "league_card",
            "league_fixture_card",
        ]
    },
}


def _patterns(resolvers, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for item in resolvers:
        if isinstance(item, URLResolver):
            if str(item.pattern) in ("admin/", "accounts/"):
                continue
            found += _patterns(item.url_patterns, prefix + str(item.pattern))
        elif item.name:
            found.append((prefix + str(item.pattern), item))
    return found


PATTERNS = _patterns(get_resolver().url_patterns)


def test_every_url_is_in_the_table():
    names = {pattern.name for _, pattern in PATTERNS}
    assert names - set(WHO_MAY) == set(), "add these to WHO_MAY"
    assert set(WHO_MAY) - names == set(), "these are no longer URLs"


@pytest.fixture
def world(club, season, players, secretary, scorer, viewer, django_user_model):
    """One of everything a URL takes, in a private money club: Bob (the viewer's player record)
    is owed 6p by Ann, and an open invitation of this club waits for the viewer's answer."""
    bob = players[1]
    bob.user = viewer
    bob.save()
    club.players_may_claim = True
    club.door_check_in = True
    club.save()
    night = create_night(season, dt.date(2026, 11, 20), [(players[:4], 0)])
    table = night.tables.get()
    hand = record_hand(
        table, HandEntry(dealer=players[0], contract="solo", declarer=bob, tricks=6), secretary
    )
    tournament = make_tournament(season, players[:8], rounds=2, hands=1, director=secretary)
    tournament_services.start(tournament, secretary)
    debt = Debt.objects.create(club=club, night=night, payer=players[0], payee=bob, amount=6)
    invitation = Invitation.objects.create(club=club, user=viewer, role=Role.SCORER)
    claim_token = "claim-token-for-cat"
    PlayerClaim.objects.create(
        player=players[2], token_hash=hashlib.sha256(claim_token.encode()).hexdigest()
    )
    link = link_service.night_links(night, secretary)[table.pk]
    card = card_service.issue_cards(club, secretary)[0]
    league = create_league(
        NewLeague(name="Matrix League", season_start=season.start, season_end=season.end),
        django_user_model.objects.create_user("organiser", "org@example.org", "pw-organiser"),
    )
    entry = LeagueClub.objects.create(
        league=league, club=club, status=LeagueClub.Status.ACCEPTED, answered_at=league.created_at
    )
    signing_up = django_user_model.objects.create_user(
        "new-organiser", "new@example.org", "pw-new-organiser", is_active=False
    )
    [registration] = league_registers.register(entry, [players[0]], secretary)
    tokens = {
        "league_signup_confirm": organisers.confirmation_token(signing_up),
        "card_page": card.token,
        "card_open_night": card.token,
        "unsubscribe": results_mail.unsubscribe_token(bob.pk),
        "payee_owed": results_mail.payee_token(bob.pk),
        "payee_pay": results_mail.payee_token(bob.pk),
        "claim_confirm": claim_token,
        "club_door": token_service.door_token(club),
        **dict.fromkeys(
            ["player_own", "player_own_night", "player_own_statement", "player_own_pay"],
            player_links.token_for(bob),
        ),
    }
    return {
        "slug": club.slug,
        "night_id": night.pk,
        "table_id": table.pk,
        "hand_id": hand.pk,
        "player_id": players[0].pk,
        "season_id": season.pk,
        "rule_set_id": season.rule_set_id,
        "member_id": Membership.objects.get(user=scorer).pk,
        "tournament_id": tournament.pk,
        "debt_id": debt.pk,
        "card_id": card.pk,
        "fixture_id": 1,  # no match is made in this world: a made-up fixture
        "name": "players",  # a guide (help_page)
        "invitation_id": invitation.pk,
        "league": league.slug,
        "entry_id": entry.pk,
        "settlement_id": Settlement.objects.create(
            debt=debt, amount=1, kind="paid", via="Table 1's link"
        ).pk,
        "registration_id": registration.pk,
        "keep_id": registration.person_id,
        "duplicate_id": registration.person_id,
        "_tokens": tokens,
        "_link": link.token,
        "_names": {"help_page": "secretary", "help_image": _a_guide_picture()},
    }


def _a_guide_picture() -> str:
    return next(p.name for p in sorted((guides.docs_dir() / "images").glob("*.png")))


def _url(route: str, pattern: URLPattern, world: dict[str, Any]) -> str:
    kwargs = {}
    for name in re.findall(r"<(?:\w+:)?(\w+)>", route):
        if name == "name":
            kwargs[name] = "secretary"  # a guide (help_page); the pictures are checked below
        elif name == "token":
            kwargs[name] = world["_tokens"].get(pattern.name, world["_link"])
        elif name == "name":  # a guide's or a guide's picture's
            kwargs[name] = world["_names"][pattern.name]
        else:
            kwargs[name] = world[name]
    return reverse(pattern.name, kwargs=kwargs)


def _refused(response) -> bool:
    """A refusal: the log-in page, 403 or 404. (A 405 refuses the method, not the visitor: it
    comes before any check, from any visitor, and writes nothing.)"""
    if response.status_code in (403, 404):
        return True
    where = response.get("Location", "")
    return response.status_code == 302 and where.startswith(reverse("login"))


def _everything() -> list[tuple[str, list[tuple]]]:
    rows = []
    for model in [*apps.get_app_config("club").get_models(), apps.get_model("auth", "User")]:
        values = model.objects.order_by("pk").values()
        rows.append((model.__name__, [tuple(sorted(v.items())) for v in values]))
    return rows


def _client(role: str, request, world) -> Client:
    client = Client()
    if role == "link holder":
        client.get(reverse("link_table", args=[world["_link"]]))
    elif role != "anonymous":
        client.force_login(request.getfixturevalue(role))
    return client


@pytest.mark.parametrize("role", ROLES)
def test_each_view_and_method_for_each_visitor(role, request, world, outsider):
    client = _client(role, request, world)
    requests = [
        (method, route, pattern)
        for route, pattern in PATTERNS
        for method in ("get", "post")
        if pattern.name != "link_device" or method == "get"  # the name changes only a session
    ]
    refused = [r for r in requests if role not in WHO_MAY[r[2].name]]
    allowed = [r for r in requests if role in WHO_MAY[r[2].name]]
    wrong = []
    before = _everything()
    for method, route, pattern in refused:
        response = getattr(client, method)(_url(route, pattern, world))
        if not _refused(response) and response.status_code != 405:
            wrong.append(f"{method.upper()} {pattern.name}: {response.status_code}, not refused")
    assert _everything() == before, "a refused request wrote something"
    for method, route, pattern in allowed:
        # Each allowed request is undone after it, so that (say) deleting the night does not
        # turn the next page's answer into a 404.
        with transaction.atomic():
            response = getattr(client, method)(_url(route, pattern, world))
            transaction.set_rollback(True)
        if _refused(response) and (pattern.name, method) not in NOT_NOW:
            wrong.append(f"{method.upper()} {pattern.name}: {response.status_code}, refused")
    assert not wrong, "\n".join(wrong)


# Allowed, but refused in this world for a reason that is not the visitor's: a table's link
# marks payments only while the night's results are provisional, and this night is open.
NOT_NOW = {("link_pay", "post")}
# The guides' pictures come from bin/screenshots: a checkout without them answers 404 (the guides'
# own tests check every picture a guide shows).
NOT_NOW |= {("help_image", "get")}
# A player's own link shows a night once it is closed (this one is open).
NOT_NOW |= {("player_own_night", "get")}
# A sign-up's emailed link works once (then it sends to the log-in page), and a made-up one is a
# 404 as any wrong token is: tests/clubs/test_signup.py follows a real one.
NOT_NOW |= {("signup_confirm", "get"), ("signup_confirm", "post")}
