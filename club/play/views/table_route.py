"""How a person reached the table page: a member of the club signed in, or a phone that opened the
table's link. A TableRoute says who may change hands, who the audit trail names, and the URLs the
page and its partials use; the table page's views and the table link's views both take one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse

from club.clubs.models import Club
from club.clubs.queries import access
from club.play.models import Table
from club.play.services.hand_entry import LinkSource

PAGE = "play/table.html"

# The club's URL names for the table page's actions (the table's link has its own, "link_...").
_CLUB_URLS = {
    "table": "table_detail",
    "create": "hand_create",
    "preview": "hand_preview",
    "form": "hand_form",
    "edit": "hand_edit",
    "delete": "hand_delete",
    "confirm": "hand_confirm",
}
_HAND_ACTIONS = {"edit", "delete", "confirm"}


@dataclass(frozen=True)
class TableRoute:
    """A member of the club at the table page, or a phone that opened the table's link."""

    club: Club
    table: Table
    can_score: bool
    user: User | None
    via: LinkSource | None = None
    token: str = ""  # the table link's token, for its URLs
    page: str = PAGE

    def url(self, action: str, hand_id: int | None = None) -> str:
        """The URL of one of the table page's actions ("edit" and "delete" name a hand)."""
        if self.via is not None:
            args: list[Any] = [self.token]
            name = f"link_{action}"
        else:
            args = [self.club.slug]
            name = _CLUB_URLS[action]
            if action not in _HAND_ACTIONS:
                args.append(self.table.pk)
        if action in _HAND_ACTIONS:
            args.append(hand_id)
        return reverse(name, args=args)


def member_route(request: HttpRequest, club: Club, table: Table) -> TableRoute:
    can_score = access.can(request.user, club, access.SCORE)
    return TableRoute(club, table, can_score, access.acting_user(request))
