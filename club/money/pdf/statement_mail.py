"""Each player's statement for the season (the PDF the app prints for a player, money owed
included) as an attachment to their results email.

Its size is kept small: WeasyPrint embeds only the glyphs the statement uses (font subsetting,
through HarfBuzz when libharfbuzz-subset0 is installed), and the statement has no images; a
season's statement measures about 20 to 30 KB (docs/performance.md)."""

from __future__ import annotations

import logging

from club.clubs.models import Club, Player, Season
from club.lib.pdf import PDF_MIME, SheetError, file_name, render_pdf
from club.money.pdf import statement as sheets
from club.money.services import ledger

log = logging.getLogger(__name__)

TEMPLATE = "money/pdf/player_statement.html"


def statement_pdf(club: Club, season: Season, player: Player, balance: int | None) -> bytes:
    """The statement as the player page prints it, with `balance` (None: a points club)."""
    context = {
        "club": club,
        "season": season,
        "statement": sheets.player_statement(club, season, player, balance),
        "sheet_title": f"Statement · {player.name} · {season}",
        "printed_at": club.local_now(),
    }
    return render_pdf(TEMPLATE, context)


def statement_attachment(
    club: Club, season: Season, player: Player, balance: int | None = None
) -> tuple[str, bytes, str] | None:
    """(file name, PDF, type) for EmailMessage.attach, or None when the sheet could not be laid
    out: the results email still goes, without it (the link to the statement is in its text)."""
    if balance is None and ledger.keeps_ledger(club):
        balance = ledger.balance(player)
    try:
        pdf = statement_pdf(club, season, player, balance)
    except SheetError:
        log.exception("The statement of player %s could not be laid out", player.pk)
        return None
    return file_name("statement", player.name, season.name), pdf, PDF_MIME
