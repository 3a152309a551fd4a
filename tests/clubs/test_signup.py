"""Sign-up through the pages: a stranger's account and club, the emailed link, the first-run page
to tonight's night; limits per client and per address; sign-up closed; the operator's
create_club; the secretary closing the club's account; forgetting a player. Owner, member and
outsider each get what is theirs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from club.clubs.models import Club, Membership, Player, Role, RuleSet, Season
from club.clubs.services import clubs_lifecycle
from club.play.models import Arrival, Night

FORM = {
    "email": "Jo@Example.org",
    "password": "a good long secret 42",
    "name": "The Plough Solo Club",
    "slug": "",
    "unit_kind": "money",
    "currency_symbol": "$",
    "minor_units": "100",
    "time_zone": "America/Los_Angeles",
    "preset": "cents",
}


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0).removeprefix("http://testserver")


def sign_up(client: Client, **changes) -> object:
    return client.post(reverse("signup"), {**FORM, **changes})


def test_the_home_page_offers_sign_up_to_a_stranger(client, db):
    page = client.get(reverse("home")).content.decode()
    assert 'href="/signup/"' in page
    form = client.get(reverse("signup"))
    assert form.status_code == 200
    offered = set()
    for value, label in form.context["form"].fields["time_zone"].choices:  # grouped by area
        offered |= {zone for zone, _ in label} if isinstance(label, list) else {value}
    assert {"Pacific/Auckland", "Europe/London", "UTC"} <= offered
    assert form.context["form"]["time_zone"].value() == "Europe/London"  # the server's


def test_a_stranger_signs_up_confirms_and_lands_on_the_first_run_page(client, db):
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == reverse("signup_sent")
    user = get_user_model().objects.get(username="jo@example.org")
    assert not user.is_active and user.check_password(FORM["password"])
    club = Club.all_objects.get(slug="the-plough-solo-club")
    assert (club.unit_kind, club.currency_symbol, club.time_zone) == (
        "money",
        "$",
        "America/Los_Angeles",
    )
    assert club.closed_because == "signup"  # hidden until the address is confirmed
    assert not Club.objects.filter(pk=club.pk).exists()
    assert RuleSet.objects.get(club=club).preset == "cents"
    assert Membership.objects.get(club=club).role == Role.SECRETARY
    assert "jo@example.org" in client.get(reverse("signup_sent")).content.decode()
    # Nobody can log in before confirming.
    assert not Client().login(username="jo@example.org", password=FORM["password"])

    (message,) = mail.outbox
    assert message.to == ["jo@example.org"]
    assert "The Plough Solo Club" in message.subject
    confirmed = client.get(link_in(message))
    assert confirmed.status_code == 302
    assert confirmed["Location"] == reverse("club_first_run", args=[club.slug])
    club.refresh_from_db()
    user.refresh_from_db()
    assert user.is_active and club.closed_at is None and club.delete_after is None
    page = client.get(confirmed["Location"])
    assert page.status_code == 200
    assert "Start tonight" in page.content.decode()

    again = Client().get(link_in(message))  # used: it says so, and logs nobody in
    assert again.status_code == 302 and again["Location"].startswith(reverse("login"))


def test_the_first_run_page_makes_players_season_and_tonight_then_the_draw(client, club, secretary):
    from club.clubs.services.setup import rule_set_from_preset

    rule_set_from_preset(club, "hoyle", "Hoyle")
    client.force_login(secretary)
    names = "Ann Baxter\nBob\n  Cat  \n\nDan\nEve\nFay\nGus\nHal\n"
    data = {
        "names": names,
        "rule_set": "preset:standard",
        "season": "Winter 2026",
        "all_here": "on",
    }
    url = reverse("club_first_run", args=[club.slug])
    preview = client.post(url, data)  # first what the lines make, nothing saved
    assert preview.status_code == 200 and "Before saving: 8 new players" in preview.content.decode()
    assert not club.players.exists()
    digest = preview.context["form"]["digest"].value()
    response = client.post(url, {**data, "digest": digest, "confirm": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("draw", args=["crown"])
    assert sorted(club.players.values_list("name", flat=True)) == sorted(
        ["Ann Baxter", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    )
    season = Season.objects.get(club=club)
    assert (season.name, season.rule_set.preset) == ("Winter 2026", "standard")
    night = Night.objects.get(season=season)
    assert not night.is_closed
    assert Arrival.objects.filter(club=club, date=night.date).count() == 8


def test_the_first_run_page_refuses_no_names_and_a_taken_season_and_writes_nothing(
    client, club, secretary, hoyle, season_now
):
    client.force_login(secretary)
    url = reverse("club_first_run", args=[club.slug])
    response = client.post(url, {"names": " \n \n", "rule_set": str(hoyle.pk), "season": ""})
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"names", "season"}
    response = client.post(
        url, {"names": "Ann\nBob", "rule_set": str(hoyle.pk), "season": "this SEASON"}
    )
    assert "has a season called this SEASON already" in response.content.decode()
    assert not Player.objects.filter(club=club).exists()
    assert not Night.objects.exists()


@pytest.mark.parametrize("who,status", [("scorer", 403), ("viewer", 403), ("outsider", 404)])
def test_the_first_run_and_closing_pages_are_the_secretarys_only(
    client, club, who, status, request
):
    client.force_login(request.getfixturevalue(who))
    for name in ("club_first_run", "club_close"):
        assert client.get(reverse(name, args=[club.slug])).status_code == status
    assert (
        client.post(
            reverse("club_close", args=[club.slug]), {"confirm_name": club.name}
        ).status_code
        == status
    )
    assert Club.objects.filter(pk=club.pk).exists()


def test_an_anonymous_visitor_is_sent_to_log_in_for_the_first_run_page(client, club):
    response = client.get(reverse("club_first_run", args=[club.slug]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_sign_up_errors_are_clear_and_make_nothing(client, club):
    response = sign_up(
        client, email="not an address", password="123", slug="crown", currency_symbol=""
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert set(errors) == {"email", "password", "slug", "currency_symbol"}
    assert "The address crown is taken" in errors["slug"][0]
    assert not get_user_model().objects.filter(email__icontains="address").exists()
    response = sign_up(client, password="12345678")
    assert "password" in response.context["form"].errors
    assert Club.all_objects.count() == 1 and mail.outbox == []


def test_an_address_with_an_account_is_told_by_email_and_the_page_says_nothing_more(
    client, secretary
):
    secretary.email = "jo@example.org"
    secretary.save()
    response = sign_up(client)
    assert response["Location"] == reverse("signup_sent")
    assert Club.all_objects.count() == 1  # the fixture's club only: nothing made
    (message,) = mail.outbox
    assert "already have" in message.subject and "/accounts/login/" in message.body


def test_signing_up_again_before_confirming_sends_the_same_clubs_link_again(client, db):
    sign_up(client)
    sign_up(client, name="Another name")
    assert Club.all_objects.count() == 1
    first, second = mail.outbox
    from club.clubs.services.signup import read_token

    # The same account and club, signed again.
    token = lambda message: link_in(message).rstrip("/").rsplit("/", 1)[1]  # noqa: E731
    club = Club.all_objects.get()
    assert (
        read_token(token(first))
        == read_token(token(second))
        == (
            club.memberships.get().user_id,
            club.pk,
        )
    )


def test_a_signed_in_member_makes_another_club_at_once(client, secretary):
    client.force_login(secretary)
    form = {k: v for k, v in FORM.items() if k not in ("email", "password")}
    response = client.post(reverse("signup"), {**form, "slug": "plough"})
    assert response["Location"] == reverse("club_first_run", args=["plough"])
    assert Club.objects.get(slug="plough").memberships.get().user == secretary
    assert mail.outbox == []


def test_sign_up_is_limited_per_address_and_per_client(client, db):
    from club.clubs.views import signup as views

    per_address, _ = views.LIMITS["signup-address"]
    for n in range(per_address):
        assert sign_up(client, name=f"Club {n}").status_code == 302
    refused = sign_up(client, name="One too many")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many tries" in refused.content.decode()
    # Another address from the same client goes on, until the client's own limit.
    per_client, _ = views.LIMITS["signup-client"]
    statuses = [
        sign_up(client, email=f"p{n}@example.org", name=f"Other {n}").status_code
        for n in range(per_client)
    ]
    # Every try counts against the client, the refused one too.
    assert per_address + statuses.count(302) == per_client - 1
    assert statuses[-1] == 429
    # Another client is not held up by this one.
    other = Client(REMOTE_ADDR="203.0.113.9")
    assert sign_up(other, email="new@example.org", name="Fresh").status_code == 302


def test_confirmation_links_are_limited_per_client_and_a_bad_one_says_so(client, db):
    from club.clubs.views import signup as views

    bad = client.get(reverse("signup_confirm", args=["made-up-token"]))
    assert bad.status_code == 404 and "not right" in bad.content.decode()
    per_client, _ = views.LIMITS["confirm-client"]
    for _ in range(per_client - 1):
        client.get(reverse("signup_confirm", args=["made-up-token"]))
    assert client.get(reverse("signup_confirm", args=["made-up-token"])).status_code == 429


@override_settings(SIGNUP="closed")
def test_sign_up_closed_offers_no_form_and_makes_nothing(client, db):
    assert 'href="/signup/"' not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("signup")).status_code == 404
    assert sign_up(client).status_code == 404
    assert not Club.all_objects.exists() and mail.outbox == []


def test_create_club_makes_the_club_and_emails_its_secretary_a_password_link(db):
    call_command(
        "create_club", "Crown & Anchor", "--secretary", "Sec@Example.org",
        "--time-zone", "Pacific/Auckland",
    )  # fmt: skip
    club = Club.objects.get(slug="crown-anchor")
    assert club.time_zone == "Pacific/Auckland"
    user = get_user_model().objects.get(email="sec@example.org")
    assert not user.has_usable_password()
    assert Membership.objects.get(club=club, user=user).role == Role.SECRETARY
    (message,) = mail.outbox
    assert "Crown & Anchor" in message.subject  # not &amp;
    set_password = re.search(r"http://testserver(/accounts/reset/\S+)", message.body).group(1)
    assert "/c/crown-anchor/first-run/" in message.body
    browser = Client()
    form = browser.get(set_password, follow=True)
    assert form.status_code == 200
    done = browser.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a new long secret 42", "new_password2": "a new long secret 42"},
    )
    assert done.status_code == 302
    assert browser.login(username="sec@example.org", password="a new long secret 42")
    assert browser.get(reverse("club_first_run", args=["crown-anchor"])).status_code == 200
    with pytest.raises(CommandError, match="taken"):
        call_command(
            "create_club", "Other", "--secretary", "x@example.org", "--slug", "crown-anchor"
        )
    with pytest.raises(CommandError, match="IANA"):
        call_command(
            "create_club", "Other", "--secretary", "x@example.org", "--time-zone", "Mars/Base"
        )


def test_the_secretary_closes_the_account_after_the_data_file_and_the_name_typed(
    client, secretary, viewer, outsider, club, django_capture_on_commit_callbacks
):
    client.force_login(secretary)
    url = reverse("club_close", args=[club.slug])
    page = client.get(url).content.decode()
    assert reverse("club_export", args=[club.slug]) in page
    assert (
        reverse("club_close", args=[club.slug])
        in client.get(reverse("club_setup", args=[club.slug])).content.decode()
    )
    wrong = client.post(url, {"confirm_name": "Crown"})
    assert wrong.status_code == 422
    assert "type Crown &amp; Anchor Solo School exactly" in wrong.content.decode()
    assert Club.objects.filter(pk=club.pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"confirm_name": "crown &  anchor solo school"})
    assert done.status_code == 200 and "deleted for good after" in done.content.decode()
    # Each member is emailed; its pages tell its members it closed, and nobody else anything.
    assert sorted(m.to[0] for m in mail.outbox) == sorted([secretary.email, viewer.email])
    assert client.get(reverse("club", args=[club.slug])).status_code == 410
    member = Client()
    member.force_login(viewer)
    assert member.get(reverse("club", args=[club.slug])).status_code == 410
    assert (
        "Crown &amp; Anchor Solo School was closed on"
        in member.get(reverse("home")).content.decode()
    )
    stranger = Client()
    stranger.force_login(outsider)
    assert stranger.get(reverse("club", args=[club.slug])).status_code == 404
    closed = Club.all_objects.get(pk=club.pk)
    assert closed.closed_because == "secretary"
    assert (closed.delete_after - closed.closed_at).days == clubs_lifecycle.KEEP_CLOSED_DAYS


def test_the_secretary_forgets_a_player_from_their_page(client, secretary, club, players):
    client.force_login(secretary)
    ann = players[0]
    ann.email = "ann@example.org"
    ann.save()
    edit = client.get(reverse("player_edit", args=[club.slug, ann.pk])).content.decode()
    forget_url = reverse("player_forget", args=[club.slug, ann.pk])
    assert forget_url in edit
    assert "cannot be undone" in client.get(forget_url).content.decode()
    client.post(forget_url)
    ann.refresh_from_db()
    assert (ann.name, ann.email) == ("Former player 1", "")


def test_the_operator_sees_closed_clubs_in_the_admin_and_reopens_one(
    client, django_user_model, club, secretary
):
    operator = django_user_model.objects.create_superuser("op", "op@example.org", "pw")
    client.force_login(operator)
    clubs_lifecycle.close_club(club, secretary)
    changelist = client.get(reverse("admin:clubs_club_changelist")).content.decode()
    assert (
        "Crown &amp; Anchor Solo School" in changelist and "Closed by its secretary" in changelist
    )
    # A closed club keeps its address: the admin says so instead of failing on the database.
    taken = client.post(
        reverse("admin:clubs_club_add"),
        {"name": "Copy", "slug": "crown", "unit_kind": "money", "minor_units": 100,
         "correction_minutes": 30, "odd_tables": "5", "time_zone": "Europe/London",
         "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert "The address crown is taken" in taken.content.decode()
    client.post(
        reverse("admin:clubs_club_changelist"),
        {"action": "reopen", "_selected_action": [club.pk]},
    )
    assert Club.objects.filter(pk=club.pk).exists()


@pytest.mark.parametrize(
    "name,args,most",
    [("signup", [], 0), ("club_first_run", ["crown"], 5), ("club_close", ["crown"], 4)],
)
def test_the_new_pages_ask_a_fixed_number_of_queries(
    client, secretary, club, hoyle, name, args, most, django_assert_max_num_queries
):
    from club.clubs.services.setup import rule_set_from_preset

    rule_set_from_preset(club, "standard", "Standard")  # more rule sets ask no more queries
    if name != "signup":
        client.force_login(secretary)
    with django_assert_max_num_queries(most):
        response = client.get(reverse(name, args=args))
    assert response.status_code == 200


def test_sign_up_first_run_page_lists_the_clubs_rule_sets_and_the_other_presets(
    client, secretary, club, hoyle
):
    client.force_login(secretary)
    form = client.get(reverse("club_first_run", args=[club.slug])).context["form"]
    choices = dict(form.fields["rule_set"].choices)
    assert choices[str(hoyle.pk)] == "Hoyle sixpences"
    assert "preset:hoyle" not in choices  # the club has it already
    assert {"preset:standard", "preset:anna-cubed"} <= set(choices)
    assert "preset:cents" not in choices  # the club counts in pence
    assert form["season"].value() == f"{club.today().year} season"


def test_a_new_clubs_home_sends_its_secretary_to_the_first_run_page(
    client, secretary, viewer, club
):
    first_run = reverse("club_first_run", args=[club.slug])
    client.force_login(secretary)
    assert first_run in client.get(reverse("club", args=[club.slug])).content.decode()
    client.force_login(viewer)
    assert first_run not in client.get(reverse("club", args=[club.slug])).content.decode()


def test_one_accounts_link_is_limited_whichever_client_opens_it(db):
    from club.clubs.views import signup as views

    sign_up(Client())
    link = link_in(mail.outbox[0])
    per_address, _ = views.LIMITS["confirm-address"]
    answers = [
        Client(REMOTE_ADDR=f"198.51.100.{n}").get(link).status_code for n in range(per_address + 1)
    ]
    assert answers[0] == 302 and answers[-1] == 429
    assert answers.count(429) == 1
