"""docs/operators.md's way back in for a secretary made by `create_club` whose link expired unused:
the guide's own commands, as written, and "Forgotten your password?", which Django's reset skips
for an account with no password yet. Each ends in an email whose link sets a password that logs
in. An account nobody made a member of a club, and one locked with no password on purpose, still
get nothing."""

from __future__ import annotations

import datetime as dt
import re
import shlex
from pathlib import Path
from smtplib import SMTPConnectError

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from club.clubs.models import Club

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "operators.md").read_text()
MANAGE = ".venv/bin/python manage.py "

pytestmark = pytest.mark.django_db


def commands_after(heading: str) -> list[list[str]]:
    """The `manage.py` commands of the first ```sh block after `heading`, each as its words
    (a line ending in a backslash goes on)."""
    rest = GUIDE[GUIDE.index(heading) :]
    body = re.search(r"```sh\n(.*?)```", rest, flags=re.S).group(1).replace("\\\n", " ")
    lines = [line.split("  #")[0].strip() for line in body.splitlines() if line.strip()]
    assert all(line.startswith(MANAGE) for line in lines), lines
    return [shlex.split(line.removeprefix(MANAGE)) for line in lines]


def run(words: list[str]) -> None:
    call_command(*words)


def reset_link(message) -> str:
    found = re.search(r"https?://testserver(/accounts/reset/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def set_password_with(link: str, password: str) -> Client:
    browser = Client()
    form = browser.get(link, follow=True)
    assert "new_password1" in form.content.decode(), "the link was refused"
    done = browser.post(
        form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    return browser


def expired(link: str) -> bool:
    page = Client().get(link, follow=True).content.decode()
    return "new_password1" not in page


@pytest.fixture
def made_and_expired():
    """The guide's create_club, then the link's three days and a minute gone by, unused."""
    (create,) = commands_after("**The first club and its secretary, in one command**")
    assert create[0] == "create_club" and "sec@example.org" in create
    start = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)
    traveller = time_machine.travel(start, tick=False)
    traveller.start()
    run(create)
    (invite,) = mail.outbox
    first_link = reset_link(invite)
    assert '"Forgotten your password?" on the\nlogin page sends a fresh one' in invite.body
    secretary = get_user_model().objects.get(email="sec@example.org")
    assert not secretary.has_usable_password()
    traveller.stop()
    later = time_machine.travel(
        start + dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60), tick=False
    )
    later.start()
    assert expired(first_link)
    mail.outbox.clear()
    yield Club.objects.get(), secretary
    later.stop()


def test_the_guides_command_lets_a_secretary_whose_link_expired_back_in(made_and_expired):
    club, secretary = made_and_expired
    (resend,) = commands_after("**When the secretary's link has expired**")
    assert resend[0] == "send_login_link"
    run(resend)

    (message,) = mail.outbox
    assert message.to == ["sec@example.org"]
    set_password_with(reset_link(message), "a new long secret 42")
    login = Client()
    answer = login.post(
        reverse("login"), {"username": "sec@example.org", "password": "a new long secret 42"}
    )
    assert answer.status_code == 302
    assert login.get(reverse("club_first_run", args=[club.slug])).status_code == 200


def test_forgotten_your_password_reaches_a_secretary_with_no_password_yet(made_and_expired):
    club, secretary = made_and_expired
    login_page = Client().get(reverse("login")).content.decode()
    assert reverse("password_reset") in login_page and "Forgotten your password?" in login_page
    answer = Client().post(reverse("password_reset"), {"email": "Sec@Example.org"})
    assert answer.status_code == 302

    (message,) = mail.outbox
    assert message.to == ["sec@example.org"]
    set_password_with(reset_link(message), "another long secret 7")
    login = Client()
    assert login.login(username="sec@example.org", password="another long secret 7")
    assert login.get(reverse("club_first_run", args=[club.slug])).status_code == 200


def test_the_reset_still_skips_an_account_of_no_club_with_no_password(django_user_model):
    django_user_model.objects.create_user("loner", "loner@example.org", password=None)
    Client().post(reverse("password_reset"), {"email": "loner@example.org"})
    with pytest.raises(CommandError, match="No active account"):
        call_command("send_login_link", "loner@example.org")
    assert mail.outbox == []


def test_the_reset_skips_an_inactive_member(made_and_expired):
    club, secretary = made_and_expired
    secretary.is_active = False
    secretary.save(update_fields=["is_active"])
    Client().post(reverse("password_reset"), {"email": "sec@example.org"})
    with pytest.raises(CommandError, match="No active account"):
        call_command("send_login_link", "sec@example.org")
    assert mail.outbox == []


def test_the_guides_last_resort_names_the_secretarys_user_name(made_and_expired):
    """`changepassword` takes a user name: create_club's secretary is named by the address."""
    club, secretary = made_and_expired
    last_resort = re.search(r"`\.venv/bin/python manage\.py changepassword (\S+)`", GUIDE)
    assert last_resort and secretary.username == last_resort.group(1) == "sec@example.org"


def test_the_command_says_so_when_the_mail_server_refuses(made_and_expired, settings):
    settings.EMAIL_BACKEND = "tests.clubs.test_password_reset.RefusingBackend"
    with pytest.raises(SMTPConnectError):
        call_command("send_login_link", "sec@example.org")
