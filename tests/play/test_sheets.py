"""Printed sheets: the PDFs are read back with pypdf and their figures compared with the database
and with the scoring core (every hand row, running totals, nets, settle-up, stakes), their
headers ("provisional"/"final", "page N of M") and footers, the file names, who may download
them, and the blank score cards' seats, dealers and sit-outs."""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import re
import subprocess
import tempfile
from collections import defaultdict
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

import scoring
from club.clubs.models import Club, Player
from club.lib import csv_safety
from club.lib.pdf import SheetError, file_name, html_to_pdf
from club.money.services.publish import publish
from club.play.models import Hand, ScoreLine
from club.play.pdf import sheets
from club.play.queries.night import night_summary
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night

SUITS = "♠♥♦♣"


# --- helpers -----------------------------------------------------------------------------------


def pages(response) -> list[str]:
    """The text of each page of a PDF response."""
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return [page.extract_text() for page in reader.pages]


def lines(texts: list[str]) -> list[str]:
    return [line.strip() for text in texts for line in text.splitlines()]


def play(table, user, contract: str, **kw) -> Hand:
    """Record the next hand at the table through the hand service, dealt by the rotation."""
    return record_hand(
        table, HandEntry(dealer=next_hand(table)["dealer"], contract=contract, **kw), user
    )


def fmt(club: Club, amount: int, signed: bool = True) -> str:
    return club.format_amount(amount, signed=signed)


def night_url(night, slug: str = "crown") -> str:
    return reverse("night_sheet", args=[slug, night.pk])


def cards_url(night, slug: str = "crown") -> str:
    return reverse("score_cards", args=[slug, night.pk])


def login(client: Client, user) -> Client:
    client.force_login(user)
    return client


def expected_rows(table, club: Club) -> list[str]:
    """Each hand's line as the sheet must print it: the facts from the hand row, the result in the
    scoring core's words (scored again here, by name), the amounts from the score lines and the
    running totals added up here."""
    seats = [s.player for s in table.seats.select_related("player")]
    rules = table.night.season.rule_set.rules
    running = dict.fromkeys((p.pk for p in seats), 0)
    rows = []
    for hand in table.hands.order_by("number"):
        amounts = {line.player_id: line.amount for line in hand.score_lines.all()}
        playing = [p for p in seats if p.pk in amounts]
        result = scoring.score_hand(
            scoring.Hand(
                players=[p.name for p in playing],
                contract=hand.contract,
                declarer=hand.declarer.name if hand.declarer else None,
                partner=hand.partner.name if hand.partner else None,
                tricks=hand.tricks,
                revokes=tuple(r.player.name for r in hand.revokes.all()),
            ),
            rules,
        )
        # The database's amounts are the scoring core's.
        assert {p.name: amounts[p.pk] for p in playing} == result.amounts
        contract = hand.get_contract_display()
        if hand.trump:
            contract += " " + scoring.Trump(hand.trump).symbol
        declaring = " & ".join(p.name for p in (hand.declarer, hand.partner) if p)
        tricks = "" if hand.tricks is None else str(hand.tricks)
        summary = result.summary.replace(" (revoke)", "")
        misere = result.contract is not None and result.contract.target == 0
        if (
            result.revoke
            and result.tricks_counted is not None
            and hand.tricks is not None
            and not misere
        ):
            moved = result.tricks_counted - hand.tricks  # the core's count of the revoke's tricks
            if moved > 0:
                summary += f" ({moved} trick{'s' if moved != 1 else ''} from the revoke)"
            elif moved < 0:
                summary += f" ({-moved} trick{'s' if moved != -1 else ''} lost for the revoke)"
        revokers = [r.player.name for r in hand.revokes.all()]
        if revokers:  # the sheet names the player who revoked
            summary += f" (Revoke: {' and '.join(revokers)})"
        cells = []
        for p in seats:
            if p.pk in amounts:
                running[p.pk] += amounts[p.pk]
                cells += [fmt(club, amounts[p.pk]), fmt(club, running[p.pk])]
            else:
                cells += ["out", fmt(club, running[p.pk])]
        parts = [str(hand.number), hand.dealer.name, contract, declaring, tricks, summary, *cells]
        rows.append(" ".join(part for part in parts if part))
    return rows


def db_nets(night) -> dict[str, int]:
    nets: dict[str, int] = defaultdict(int)
    for name, amount in ScoreLine.objects.filter(night=night).values_list("player__name", "amount"):
        nets[name] += amount
    return dict(nets)


# --- data --------------------------------------------------------------------------------------


@pytest.fixture
def zoe(players) -> Player:
    """Dan is Zoë on these sheets: an accented name must print."""
    dan = players[3]
    dan.name = "Zoë"
    dan.save()
    return dan


@pytest.fixture
def played(night, table4, table5, players, zoe, secretary):
    """A night with hands of every kind, each through record_hand: trumps of all four suits, a
    misère, Prop & Cop made and failed, a revoke, all passed, and a table of five with sit-outs."""
    ann, bob, cat, _, eve, fay, gus, hal, ivy = players
    play(table4, secretary, "solo", declarer=ann, tricks=7)
    play(table4, secretary, "prop_cop", declarer=bob, partner=cat, tricks=7)
    play(table4, secretary, "misere", declarer=zoe, tricks=0)
    play(table4, secretary, "abundance", declarer=cat, tricks=10, trump="hearts")
    play(table4, secretary, "abundance", declarer=ann, tricks=8, trump="spades")
    play(table4, secretary, "abundance", declarer=bob, tricks=9, trump="diamonds")
    play(table4, secretary, "abundance", declarer=zoe, tricks=9, trump="clubs")
    play(table4, secretary, "solo", declarer=bob, tricks=3, revoke_by=ann)
    play(table4, secretary, scoring.ALL_PASSED)
    play(table4, secretary, "open_misere", declarer=ann, tricks=1)
    # Table of five: Eve deals hand 1 and Ivy, on her right, sits out (Hoyle).
    play(table5, secretary, "solo", declarer=fay, tricks=5)
    play(table5, secretary, "misere", declarer=gus, tricks=1)
    play(table5, secretary, "prop_cop", declarer=hal, partner=ivy, tricks=13)
    play(table5, secretary, "royal_abundance", declarer=ivy, tricks=11)
    return night


# --- the night settlement sheet ----------------------------------------------------------------


def test_night_sheet_is_a_pdf_download_with_the_nights_date_in_its_name(client, secretary, played):
    response = login(client, secretary).get(night_url(played))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="club-night-2026-11-20.pdf"'
    assert response.content.startswith(b"%PDF-")
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_every_hand_row_prints_the_databases_amounts_and_running_totals(
    client, secretary, club, played, table4, table5
):
    printed = lines(pages(login(client, secretary).get(night_url(played))))
    for table in (table4, table5):
        rows = expected_rows(table, club)
        assert len(rows) == table.hands.count() > 0
        for row in rows:
            assert row in printed, f"missing row: {row!r}"


def test_table_totals_nets_and_settle_up_match_the_database_and_scoring(
    client, secretary, club, played, table4, table5
):
    printed = lines(pages(login(client, secretary).get(night_url(played))))
    nets = db_nets(played)
    assert sum(nets.values()) == 0 and any(nets.values())
    for table in (table4, table5):
        seats = [s.player.name for s in table.seats.select_related("player")]
        count = table.hands.count()
        totals = " ".join(fmt(club, nets.get(name, 0)) for name in seats)
        assert f"Totals after {count} hands {totals}" in printed
        for name in seats:
            assert f"{name} {table.number} {fmt(club, nets[name])}" in printed
    # The settle-up: the night page's payments, as few as the scoring core's settle-up needs,
    # and paying them squares every player's net in the database.
    printed_payments = [line for line in printed if " pays " in line]
    page_payments = night_summary(played).payments
    assert printed_payments == [
        f"{p.payer} pays {p.payee} {fmt(club, p.amount, signed=False)}" for p in page_payments
    ]
    assert len(printed_payments) == len(scoring.settle_up(nets)) > 0
    balance = dict(nets)
    for p in page_payments:
        balance[p.payer] += p.amount
        balance[p.payee] -= p.amount
    assert set(balance.values()) == {0}


def test_a_known_settle_up_line(client, secretary, club, night, table4, players, zoe):
    """One solo made exactly by Ann (6d from each of three) and nothing else: everyone pays Ann."""
    ann, bob, cat, *_ = players
    play(table4, secretary, "solo", declarer=ann, tricks=5)
    printed = lines(pages(login(client, secretary).get(night_url(night))))
    for payer in ("Bob", "Cat", "Zoë"):
        assert f"{payer} pays Ann £0.06" in printed
    assert (
        "1 Ann Solo Ann 5 Made +£0.18 +£0.18 -£0.06 -£0.06 -£0.06 -£0.06 -£0.06 -£0.06" in printed
    )


def test_open_night_is_provisional_and_closed_night_final_on_every_page(client, secretary, played):
    client = login(client, secretary)
    open_pages = pages(client.get(night_url(played)))
    assert all("Provisional" in text and "Final" not in text for text in open_pages)
    close_night(played, secretary)
    # Closed but inside the correction window: still provisional.
    closed_pages = pages(client.get(night_url(played)))
    assert all("Provisional" in text and "Final" not in text for text in closed_pages)
    publish(played, secretary)
    published_pages = pages(client.get(night_url(played)))
    assert all("Final" in text and "Provisional" not in text for text in published_pages)


def test_running_header_page_numbers_and_stakes_footer_on_every_page(
    client, secretary, club, played, hoyle
):
    texts = pages(login(client, secretary).get(night_url(played)))
    total = len(texts)
    rules = hoyle.rules
    stake_line = "Stake " + " ".join(
        fmt(club, rules.stake(c).base, False) for c in scoring.Contract
    )
    contracts = " ".join(c.display_name for c in scoring.Contract)
    for number, text in enumerate(texts, start=1):
        page_lines = [line.strip() for line in text.splitlines()]
        assert f"page {number} of {total}" in page_lines
        assert "Crown & Anchor Solo School Settlement sheet · Club night 20 Nov 2026" in text
        assert "Friday 20 November 2026 · Winter 2026 · rules: Hoyle sixpences" in text
        assert f"Hoyle sixpences {contracts}" in page_lines
        assert stake_line in page_lines
        none = "\N{EN DASH}"  # printed where a contract has no over-trick value
        assert f"Per over-trick +£0.01 +£0.01 {none} +£0.02 +£0.02 {none} {none}" in page_lines


def test_suits_pound_and_accents_survive_into_the_pdf_text(client, secretary, played):
    text = "\n".join(pages(login(client, secretary).get(night_url(played))))
    for needle in [*SUITS, "£", "Zoë", "Misère", "Open Misère"]:
        assert needle in text, needle


def test_dollar_club_prints_dollars(client, secretary, club, played):
    club.currency_symbol = "$"
    club.save()
    text = "\n".join(pages(login(client, secretary).get(night_url(played))))
    assert "$0.06" in text and "£" not in text


def test_a_long_table_runs_over_pages_repeating_its_header_and_never_splitting_a_row(
    client, secretary, club, night, table4, players, zoe
):
    ann, bob, cat, *_ = players
    for i in range(70):
        if i % 3 == 0:
            play(table4, secretary, "solo", declarer=ann, tricks=4 + i % 5)
        elif i % 3 == 1:
            play(table4, secretary, "prop_cop", declarer=bob, partner=cat, tricks=6 + i % 6)
        else:
            play(table4, secretary, "misere", declarer=zoe, tricks=i % 2)
    texts = pages(login(client, secretary).get(night_url(night)))
    assert len(texts) >= 3
    by_page = [[line.strip() for line in text.splitlines()] for text in texts]
    rows = expected_rows(table4, club)
    pages_with_rows = set()
    for row in rows:
        # Each row is printed whole, on exactly one page.
        found = [i for i, page_lines in enumerate(by_page) if row in page_lines]
        assert len(found) == 1, row
        pages_with_rows.add(found[0])
    assert len(pages_with_rows) >= 3
    for i in pages_with_rows:
        assert "# Dealer Contract Declarer & partner Tricks Result" in by_page[i]
        assert "Ann Bob Cat Zoë" in by_page[i]
        assert "hand total hand total hand total hand total" in by_page[i]


def test_night_without_hands_still_prints(client, secretary, night):
    text = "\n".join(pages(login(client, secretary).get(night_url(night))))
    assert "No hands recorded at this table." in text
    assert "Everyone is square: nothing to pay." in text


# --- blank score cards -------------------------------------------------------------------------


def word_boxes(response, page_number: int) -> list[tuple[str, float, float, float]]:
    """(word, x min, x max, y min) of every word on a page, from poppler's pdftotext -bbox."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as pdf:
        pdf.write(response.content)
        pdf.flush()
        xhtml = subprocess.run(
            ["pdftotext", "-f", str(page_number), "-l", str(page_number), "-bbox", pdf.name, "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>'
    return [
        (html.unescape(w), float(x0), float(x1), float(y0))
        for x0, y0, x1, w in re.findall(pattern, xhtml)
    ]


def test_score_cards_seat_order_dealers_and_sit_outs_for_a_table_of_five(
    client, viewer, club, night, table5, hoyle
):
    response = login(client, viewer).get(cards_url(night))
    texts = pages(response)
    assert response["Content-Disposition"] == 'attachment; filename="score-cards-2026-11-20.pdf"'
    assert len(texts) == 2  # one card per table, each on its own page
    card = [line.strip() for line in texts[1].splitlines()]
    assert "Table 2 · score card" in card
    seats = [s.player.name for s in table5.seats.select_related("player")]
    assert seats == ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    assert " ".join(seats) in card  # the seats, in order
    header = "Hand Dealer Sits out Contract Declarer Partner Tricks Result " + " ".join(seats)
    assert header in card
    for number in range(1, sheets.CARD_HANDS + 1):
        dealer = scoring.table.dealer_for(seats, table5.first_dealer, number)
        out = scoring.table.sitting_out(seats, dealer, hoyle.rules)
        # Only the hand, dealer and sit-out are filled in (and a dash in the sitter's column):
        # every other column is left empty to write in.
        assert f"{number} {dealer} {out} —" in card, number
    assert "1 Eve Ivy —" in card and "2 Fay Eve —" in card  # Hoyle: the dealer's right sits out
    assert "Totals" in card
    # The sitter's own column has a dash, under their name in the column heads.
    words = word_boxes(response, 2)
    head_y = next(y for w, _, _, y in words if w == "Hand")
    columns = {w: (x0, x1) for w, x0, x1, y in words if abs(y - head_y) < 1 and w in seats}
    assert list(columns) == seats
    for number in (1, 2, 3, 4, 5):
        row_y = next(y for w, _, x1, y in words if w == str(number) and x1 < 60 and y > head_y)
        dashes = [(x0 + x1) / 2 for w, x0, x1, y in words if w == "—" and abs(y - row_y) < 1]
        dealer = scoring.table.dealer_for(seats, 0, number)
        out = scoring.table.sitting_out(seats, dealer, hoyle.rules)
        assert len(dashes) == 1
        column = seats[min(range(5), key=lambda i: abs(sum(columns[seats[i]]) / 2 - dashes[0]))]
        assert column == out, number


def test_score_card_for_a_table_of_four_has_no_sit_out_column(client, viewer, night):
    texts = pages(login(client, viewer).get(cards_url(night)))
    card = [line.strip() for line in texts[0].splitlines()]
    assert "Hand Dealer Contract Declarer Partner Tricks Result Ann Bob Cat Dan" in card
    assert "1 Ann" in card and "2 Bob" in card and "5 Ann" in card
    assert "Sits out" not in texts[0]


def test_score_cards_rows_follow_hands_parameter_within_bounds(client, viewer, night):
    client = login(client, viewer)
    card = lines(pages(client.get(cards_url(night) + "?hands=6"))[:1])
    assert "6 Bob" in card and "7 Cat" not in card
    many = pages(client.get(cards_url(night) + "?hands=999"))
    assert f"{sheets.MAX_CARD_HANDS} Dan" in lines(many)


def test_score_cards_print_the_rotating_trump(client, viewer, club, night, season, players):
    from club.clubs.services.setup import rule_set_from_preset

    season.rule_set = rule_set_from_preset(club, "anna-cubed")
    season.save()
    texts = pages(login(client, viewer).get(cards_url(night)))
    card = lines(texts[:1])
    # Anna Cubed: Hearts, Clubs, Diamonds, Spades, No Trumps, one step a hand.
    assert [line for line in card if re.match(r"^[1-6] \w+ (♥|♣|♦|♠|NT)$", line)] == [
        "1 Ann ♥",
        "2 Bob ♣",
        "3 Cat ♦",
        "4 Dan ♠",
        "5 Ann NT",
        "6 Bob ♥",
    ]


# --- who may download --------------------------------------------------------------------------


def sheet_urls(night) -> list[str]:
    return [night_url(night), cards_url(night)]


@pytest.mark.parametrize("which", [0, 1])
def test_members_of_every_role_may_download(client, secretary, scorer, viewer, played, which):
    for user in (secretary, scorer, viewer):
        client.force_login(user)
        response = client.get(sheet_urls(played)[which])
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize("which", [0, 1])
def test_another_clubs_secretary_gets_404(client, outsider, played, which):
    client.force_login(outsider)
    assert client.get(sheet_urls(played)[which]).status_code == 404
    # ... also when asking through their own club's address.
    assert (
        client.get(sheet_urls(played)[which].replace("/c/crown/", "/c/redlion/")).status_code == 404
    )


@pytest.mark.parametrize("which", [0, 1])
def test_anonymous_visitors_log_in_for_a_private_club_and_read_a_public_one(
    client, club, played, which
):
    url = sheet_urls(played)[which]
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    club.is_public = True
    club.save()
    assert client.get(url).status_code == 200


def test_unknown_night_is_404(client, secretary, night):
    client.force_login(secretary)
    assert client.get(reverse("night_sheet", args=["crown", night.pk + 999])).status_code == 404


# --- the rendering pipeline --------------------------------------------------------------------


def test_file_names_are_ascii_slugs():
    assert file_name("club-night", dt.date(2026, 11, 20)) == "club-night-2026-11-20.pdf"
    assert (
        file_name("statement", "Zoë Abbott", "Winter 2026")
        == "statement-zoe-abbott-winter-2026.pdf"
    )
    assert file_name("", "") == "sheet.pdf"


def test_sheets_read_static_files_and_nothing_else():
    ok = html_to_pdf('<link rel="stylesheet" href="css/print.css"><p>fine</p>')
    assert ok.startswith(b"%PDF-")
    for href in ("../club/settings.py", "file:///etc/hostname", "http://127.0.0.1:9/x.css"):
        with pytest.raises(SheetError, match="Error fetching"):
            html_to_pdf(f'<link rel="stylesheet" href="{href}"><p>no</p>')


# --- links from the pages ----------------------------------------------------------------------


def test_night_and_table_pages_link_their_sheets(client, secretary, night, table4):
    client.force_login(secretary)
    night_page = client.get(reverse("night_detail", args=["crown", night.pk])).content.decode()
    assert f'href="{night_url(night)}"' in night_page
    assert f'href="{cards_url(night)}"' in night_page
    table_page = client.get(reverse("table_detail", args=["crown", table4.pk])).content.decode()
    assert f'href="{night_url(night)}"' in table_page


# --- season standings and player statements ----------------------------------------------------


@pytest.fixture
def season_played(club, season, players, zoe, secretary):
    """Three nights of Winter 2026, hands through record_hand; the last night is still open."""
    p = players
    plan = [
        (dt.date(2026, 10, 1), [p[0:4], p[4:8]], [(1, p[0], "solo", 7), (2, p[5], "misere", 0)]),
        (dt.date(2026, 10, 8), [p[0:4], p[4:8]], [(1, zoe, "abundance", 10), (2, p[6], "solo", 4)]),
        (
            dt.date(2026, 10, 15),
            [p[1:5], p[5:9]],
            [(1, zoe, "solo", 4), (2, p[8], "open_misere", 0)],
        ),
    ]
    nights = []
    for date, tables, hands in plan:
        night = create_night(season, date, [(t, 0) for t in tables])
        for number, declarer, contract, tricks in hands:
            trump = "hearts" if contract == "abundance" else ""
            table = night.tables.get(number=number)
            play(table, secretary, contract, declarer=declarer, tricks=tricks, trump=trump)
        nights.append(night)
    for night in nights[:-1]:
        close_night(night, secretary)
    return nights


def standings_url(season=None, slug: str = "crown") -> str:
    url = reverse("standings_sheet", args=[slug])
    return url + (f"?season={season.pk}" if season else "")


def statement_url(player, season=None, slug: str = "crown") -> str:
    url = reverse("player_statement", args=[slug, player.pk])
    return url + (f"?season={season.pk}" if season else "")


def season_nets(season) -> dict[str, int]:
    nets: dict[str, int] = defaultdict(int)
    for name, amount in ScoreLine.objects.filter(season=season).values_list(
        "player__name", "amount"
    ):
        nets[name] += amount
    return dict(nets)


def printed_header(header: list[str]) -> list[str]:
    """The standings CSV's header as the sheet prints it: without the CSV's unit, "Net (£)"."""
    return [cell.removesuffix(" (£)") for cell in header]


def as_printed(header: list[str], row: list[str], club) -> set[str]:
    """A standings CSV row as the sheet may print it: amounts as the page writes them (the CSV's
    2.62 is "+£2.62"), the Move "same" as the page's "=", and the average per hand in pence as
    on the page, not in full. The CSV's figure is itself rounded to a hundredth of a penny, so
    the page's tenth may be either neighbour of it."""
    from decimal import Decimal
    from fractions import Fraction

    from club.grades.display.tables import format_average

    names = printed_header(header)
    cells = list(row)
    i = names.index("Move")
    cells[i] = "=" if cells[i] == "same" else cells[i]  # the CSV's word, the page's mark
    for column in ("Net", "Last night"):
        i = names.index(column)
        if cells[i]:
            cells[i] = club.format_amount(int(Decimal(cells[i]) * 100), signed=True)
    i = names.index("Per hand")
    exact = Fraction(cells[i]) * 100
    shown = set()
    for nudge in (Fraction(-1, 200), 0, Fraction(1, 200)):
        cells[i] = format_average(club, exact + nudge)
        shown.add(" ".join(cell for cell in cells if cell))
    return shown


def test_standings_sheet_prints_the_standings_pages_rows_and_the_databases_nets(
    client, viewer, club, season, season_played
):
    client = login(client, viewer)
    response = client.get(standings_url(season))
    assert response["Content-Disposition"] == 'attachment; filename="standings-winter-2026.pdf"'
    printed = lines(pages(response))
    # Every row of the standings page's table (its CSV export: the same text), in order.
    csv_rows = list(
        csv.reader(
            io.StringIO(
                client.get(
                    reverse("standings_csv", args=["crown"]) + f"?season={season.pk}"
                ).content.decode()
            )
        )
    )
    csv_rows = [[csv_safety.read_cell(cell) for cell in row] for row in csv_rows]
    assert csv_rows[0][:7] == ["#", "Player", "Nights", "Hands", "Declared", "Made", "Net (£)"]
    assert " ".join(printed_header(csv_rows[0])) in printed
    positions = []
    for row in csv_rows[1:]:
        found = [line for line in as_printed(csv_rows[0], row, club) if line in printed]
        assert found, row
        positions.append(printed.index(found[0]))
    assert positions == sorted(positions) and len(positions) == 9
    # ... and the nets are the database's.
    nets = season_nets(season)
    for row in csv_rows[1:]:
        assert Decimal(row[6]) * 100 == nets[row[1]]
    assert "Zoë" in "\n".join(printed) and "£" in "\n".join(printed)


def test_standings_sheet_has_the_chart_and_says_provisional_while_a_night_is_open(
    client, viewer, club, season, season_played, secretary
):
    client = login(client, viewer)
    texts = pages(client.get(standings_url(season)))
    text = "\n".join(texts)
    assert "The leading 8 players, night by night." in text
    leader = max(season_nets(season).items(), key=lambda kv: kv[1])
    assert f"{leader[0]} {fmt(club, leader[1])}" in text  # the chart's end label
    assert all("Provisional" in t for t in texts)
    assert all(f"page {i} of {len(texts)}" in t for i, t in enumerate(texts, start=1))
    close_night(season_played[-1], secretary)
    text = "\n".join(pages(client.get(standings_url(season))))
    assert "Provisional" not in text and "after 15 Oct 2026" in text


def test_standings_sheet_follows_the_season_filter(
    client, viewer, secretary, club, season, season_played, hoyle, players
):
    from club.clubs.models import Season

    spring = Season.objects.create(
        club=club,
        name="Spring 2027",
        start=dt.date(2027, 4, 1),
        end=dt.date(2027, 6, 30),
        rule_set=hoyle,
    )
    night = create_night(spring, dt.date(2027, 4, 7), [(players[4:8], 0)])
    play(night.tables.get(), secretary, "solo", declarer=players[4], tricks=5)
    client = login(client, viewer)
    winter = "\n".join(pages(client.get(standings_url(season))))
    assert "Winter 2026 standings" in winter and "Zoë" in winter
    response = client.get(standings_url(spring))
    assert response["Content-Disposition"] == 'attachment; filename="standings-spring-2027.pdf"'
    text = "\n".join(pages(response))
    assert "Spring 2027 standings" in text and "Zoë" not in text
    assert f"1 Eve 1 1 1 1 {fmt(club, 18)}" in text


def test_a_long_standings_sheet_repeats_its_header_on_every_page(client, db):
    from club.demo.services import demo

    demo.seed(slug="big", players=90, hands=600, hands_per_table=8, with_users=False)
    texts = pages(client.get(reverse("standings_sheet", args=["big"])))  # demo clubs are public
    assert len(texts) >= 2
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("standings_csv", args=["big"])).content.decode()))
    )
    rows = [[csv_safety.read_cell(cell) for cell in row] for row in rows]
    played = ScoreLine.objects.filter(player__club__slug="big").values("player").distinct()
    assert len(rows) == 1 + played.count() > 80  # one row a player who played
    by_page = [[line.strip() for line in text.splitlines()] for text in texts]
    for i, page_lines in enumerate(by_page, start=1):
        assert " ".join(printed_header(rows[0])) in page_lines
        assert f"page {i} of {len(texts)}" in page_lines
    club = Club.objects.get(slug="big")
    for row in rows[1:]:
        # Each player's row is printed whole, once, on one page.
        assert (
            sum(
                page_lines.count(line)
                for line in as_printed(rows[0], row, club)
                for page_lines in by_page
            )
            == 1
        ), row


def test_player_statement_prints_each_night_with_running_totals_from_the_database(
    client, viewer, club, season, season_played, zoe
):
    response = login(client, viewer).get(statement_url(zoe, season))
    assert response["Content-Disposition"] == 'attachment; filename="statement-zoe-winter-2026.pdf"'
    printed = lines(pages(response))
    running = 0
    for night in season_played:
        net = sum(
            ScoreLine.objects.filter(night=night, player=zoe).values_list("amount", flat=True)
        )
        running += net
        played = Hand.objects.filter(table__night=night, score_lines__player=zoe).count()
        declared = Hand.objects.filter(table__night=night, declarer=zoe).count()
        made = Hand.objects.filter(table__night=night, declarer=zoe, made=True).count()
        line = (
            f"{night.date:%a} {night.date.day} {night.date:%b %Y} {night} {played} "
            f"{made} / {declared} {fmt(club, net)} {fmt(club, running)}"
        )
        assert line in printed, line
    assert running == season_nets(season)["Zoë"]
    assert f"Season total 3 1 / 2 {fmt(club, running)}" in printed
    text = "\n".join(printed)
    assert "Zoë" in text and "Statement for Winter 2026" in text and "Provisional" in text
    assert "Solo 1 0 0%" in text and "Abundance 1 1 100%" in text


def test_statement_of_a_player_who_did_not_play(client, viewer, club, season, season_played):
    newcomer = Player.objects.create(club=club, name="Renée")
    text = "\n".join(pages(login(client, viewer).get(statement_url(newcomer, season))))
    assert "Renée has not played in Winter 2026." in text


def test_statement_and_standings_access(client, outsider, club, season, season_played, zoe):
    from club.clubs.models import Player

    stranger = Player.objects.create(club=outsider.memberships.get().club, name="Stranger")
    urls = [standings_url(season), statement_url(zoe, season)]
    for url in urls:  # anonymous, private club: log in first
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 404
    # Another club's player through this club's address, and this club's through theirs.
    client.force_login(outsider)
    assert client.get(statement_url(zoe, slug="redlion")).status_code == 404
    client.logout()
    club.is_public = True
    club.save()
    for url in urls:
        assert client.get(url).status_code == 200
    assert client.get(statement_url(stranger)).status_code == 404


def test_standings_and_player_pages_link_their_sheets(client, viewer, season, season_played, zoe):
    client.force_login(viewer)
    standings = client.get(reverse("standings", args=["crown"]) + f"?season={season.pk}")
    assert reverse("standings_sheet", args=["crown"]) in standings.content.decode()
    player = client.get(reverse("player_detail", args=["crown", zoe.pk]) + f"?season={season.pk}")
    assert f'href="{statement_url(zoe, season)}"' in player.content.decode()


# --- the benchmark -----------------------------------------------------------------------------


def test_bench_times_both_sheets_against_weasyprint_on_the_same_html(db):
    from club.operations.bench.sheets import BenchData, bench_sheets, report

    small = BenchData(
        slug="bench-tiny", players=12, season_hands=40, night_tables=2, hands_per_table=3
    )
    timings, final = bench_sheets(runs=1, data=small)
    assert [t.sheet for t in timings] == ["night sheet", "standings sheet"]
    assert timings[0].size == "2 tables x 3 hands"
    assert timings[1].size == "12 players"
    for t in timings:
        assert t.ours_ms > 0 and t.weasyprint_ms > 0 and t.pages >= 1
        assert t.ratio == t.ours_ms / t.weasyprint_ms
        assert t.ours_cpu_ms > 0 and t.weasyprint_cpu_ms > 0
        assert 0 < t.view_only_ms < t.ours_ms
    # The final sheet of the same night, closed: its time beside the fresh render.
    assert final.size == "2 tables x 3 hands" and final.fresh_ms == timings[0].ours_ms
    assert final.first_ms > 0 and 0 < final.kept_ms < final.fresh_ms
    assert final.not_modified_ms > 0
    lines = report(timings, final)
    assert lines[1].split()[:4] == ["sheet", "size", "ours", "ms"]
    assert len(lines) == 7 and lines[2].startswith("night sheet")
    assert lines[5].split()[:4] == ["size", "fresh", "ms", "first"]
    assert lines[6].startswith("2 tables x 3 hands")
    # A second run reuses the club and its night, which the first left open again.
    from club.play.models import Night

    assert bench_sheets(runs=1, data=small)
    night = Night.objects.get(title="Benchmark night")
    assert not night.is_closed


def test_eighteen_hands_at_a_table_of_five_print_on_one_page_and_the_settle_up_on_the_next(
    client, secretary, season, players
):
    """Long names, a revoke and Prop & Cop: the hands take one landscape A4, two pages in all."""
    names = ["Bartholomew Fitzwilliam", "Catherine O'Neill-Smythe", "Dan Q", "Eve Q", "Fay Q"]
    seated = []
    for player, name in zip(players[:5], names, strict=True):
        player.name = name
        player.save()
        seated.append(player)
    night = create_night(season, dt.date(2026, 11, 20), [(seated, 0)])
    table = night.tables.get()
    kinds = ["solo", "prop_cop", "misere", "abundance", "solo", "all_passed"]
    for number in range(18):
        coming = next_hand(table)
        playing = [p for p in seated if p != coming["sitting_out"]]
        kind = kinds[number % 6]
        kw: dict = {}
        if kind != "all_passed":
            kw = {"declarer": playing[0], "tricks": {"solo": 6, "prop_cop": 8}.get(kind, 9)}
        if kind == "misere":
            kw["tricks"] = 0
        if kind == "prop_cop":
            kw["partner"] = playing[1]
        if number == 0:
            kw["revoke_by"] = playing[2]
        play(table, secretary, kind, **kw)
    printed = pages(login(client, secretary).get(night_url(night)))
    assert len(printed) <= 2, f"{len(printed)} pages"
    first = lines(printed[:1])
    assert any(line.startswith("18 ") for line in first), "hand 18 is not on the first page"
