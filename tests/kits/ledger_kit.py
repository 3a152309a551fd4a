"""Helpers for the after-the-night tests: hands that give a known settle-up."""

from __future__ import annotations

import smtplib

from django.db.models import Sum

import scoring
from club.clubs.models import Player
from club.play.models import Night, ScoreLine
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand


def play(table, user, declarer, contract="solo", tricks=5, partner=None):
    entry = HandEntry(
        dealer=next_hand(table)["dealer"],
        contract=contract,
        declarer=declarer,
        partner=partner,
        tricks=tricks,
    )
    return record_hand(table, entry, user)


def nets(night: Night) -> dict[str, int]:
    """Each player's net for the night, by name, straight from the score lines."""
    rows = ScoreLine.objects.filter(night=night).values("player__name").annotate(net=Sum("amount"))
    return {row["player__name"]: row["net"] for row in rows}


def core_payments(night: Night) -> list[tuple[str, str, int]]:
    """The scoring core's settle-up over the night's nets."""
    return scoring.settle_up(nets(night))


def give_emails(players: list[Player], opted_out: tuple[str, ...] = ()) -> None:
    for p in players:
        p.email = f"{p.name.lower()}@example.org"
        p.email_results = p.name not in opted_out
        p.save()


class FlakyBackend:
    """A mail backend whose server is down for the first `failures` messages."""

    failures = 0
    sent: list = []

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        for message in messages:
            if FlakyBackend.failures > 0:
                FlakyBackend.failures -= 1
                raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
            if "bounce" in message.to[0]:
                raise smtplib.SMTPRecipientsRefused({message.to[0]: (550, b"No such user")})
            FlakyBackend.sent.append(message)
        return len(messages)
