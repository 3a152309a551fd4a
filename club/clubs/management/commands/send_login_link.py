"""The operator sends a member a fresh link to set their password: for a secretary made by
`create_club` whose first link expired before they used it (or anyone locked out who asks the
operator rather than "Forgotten your password?")."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from club.clubs.services import account_mail


class Command(BaseCommand):
    help = "Email the account with this address a fresh link to set its password (3 days)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("email", help="The account's email address, e.g. sec@example.org.")

    def handle(self, *args, **options) -> None:
        email = options["email"].strip()
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{email} is not an email address.") from None
        sent = account_mail.send_login_link(email)
        if not sent:
            raise CommandError(
                f"No active account has the address {email}: check the address, or make the "
                "club and its secretary with create_club."
            )
        self.stdout.write(
            f"Emailed {email} a link to set a password (valid 3 days); it then logs in with "
            "that address."
        )
