"""The operator's way to make a club (with sign-up on or off): the club, its first rule set, and
its secretary, who is emailed a link to set a password and then finds the first-run page."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email, validate_slug
from django.db import transaction

import scoring
from club.clubs.forms.signup import default_zone
from club.clubs.models import Club
from club.clubs.models.clubs import validate_time_zone
from club.clubs.services import clubs_lifecycle, signup
from club.lib import zones


class Command(BaseCommand):
    help = "Make a club and email its secretary an invitation to set a password."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help='The club\'s name, e.g. "Crown & Anchor Solo School".')
        parser.add_argument("--secretary", required=True, metavar="EMAIL")
        parser.add_argument("--slug", help="The address of its page (default: from the name).")
        parser.add_argument("--time-zone", default=None, help="An IANA name, e.g. Europe/London.")
        parser.add_argument("--points", action="store_true", help="Play for points, not money.")
        parser.add_argument("--currency", default="£", help="The currency symbol (default £).")
        parser.add_argument(
            "--preset",
            default=None,
            choices=list(scoring.PRESETS),
            help="The first rule set (default: hoyle for £, cents for another currency, "
            "anna-cubed for points).",
        )

    def handle(self, *args, **options) -> None:
        name = " ".join(options["name"].split())
        email = options["secretary"].strip().lower()
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{email} is not an email address.") from None
        slug = (options["slug"] or "").strip().lower() or clubs_lifecycle.free_slug(name)
        zone = options["time_zone"] or default_zone()
        try:
            validate_slug(slug)
            validate_time_zone(zone)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if not name:
            raise CommandError("Give the club's name.")
        new = clubs_lifecycle.NewClub(
            name=name,
            slug=slug,
            unit_kind=Club.UnitKind.POINTS if options["points"] else Club.UnitKind.MONEY,
            currency_symbol=options["currency"],
            time_zone=zones.canonical_name(zone),  # Asia/Calcutta is kept as Asia/Kolkata
            preset=options["preset"] or _default_preset(options["points"], options["currency"]),
        )
        try:
            with transaction.atomic():
                secretary = signup.secretary_account(email)
                club = clubs_lifecycle.make_club(new, secretary, hidden_until_confirmed=False)
        except clubs_lifecycle.LifecycleError as error:
            raise CommandError(str(error)) from None
        signup.invite_secretary(club, email)
        self.stdout.write(
            f"Made {club.name} at /c/{club.slug}/ ({club.time_zone}); {email} is its secretary "
            "and has been emailed a link to set a password (if it expires unused: "
            f"manage.py send_login_link {email})."
        )


def _default_preset(points: bool, currency: str) -> str:
    """A first rule set that counts in the club's unit."""
    if points:
        return "anna-cubed"
    return "hoyle" if currency == "£" else "cents"
