"""The password reset answers at once, whatever the mail server does, and still sends."""

from __future__ import annotations

import smtplib

from django.core import mail
from django.test import Client
from django.urls import reverse


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- password reset ------------------------------------------------------------------------------


class RefusingBackend:
    """An email backend whose mail server is down."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        raise smtplib.SMTPConnectError(421, "mail server down")


def test_password_reset_answers_at_once_whatever_the_mail_server_does(
    client, secretary, settings, caplog
):
    """The email goes through the task queue (here run at once): a mail server that is down
    neither shows on the page (which would tell whether the address is known) nor fails it;
    the log says so."""
    secretary.email = "sec@example.org"
    secretary.save()
    settings.EMAIL_BACKEND = "tests.clubs.test_password_reset.RefusingBackend"
    response = client.post(reverse("password_reset"), {"email": "sec@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert "Failed to send password reset email" in caplog.text


def test_password_reset_still_sends_when_the_mail_server_answers(client, secretary, settings):
    secretary.email = "sec@example.org"
    secretary.save()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "sec@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["sec@example.org"]
