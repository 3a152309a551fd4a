"""The club's own clock. The server runs in UTC; every date and time a club sees ("tonight", "closed
at 23:41", the emails, the sheets) is on its own zone (`Club.time_zone`).

A request about a club switches its zone on when the club is loaded (club/clubs/queries/access.py
and the
views of table links, cards and the door); a task, an email or a sheet made outside a request
wraps its work in `club_time(club)`. The middleware switches it off again around every request,
so a worker thread never carries one club's zone into the next club's page.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

# The areas a place's zone belongs to, in the order the list groups them.
AREAS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)

F = TypeVar("F", bound=Callable[..., Any])

ZoneChoices = list[tuple[str, str] | tuple[str, list[tuple[str, str]]]]


class HasZone(Protocol):
    @property
    def zone(self) -> zoneinfo.ZoneInfo: ...


def _tz_file(name: str) -> str:
    """A text file of the time zone database as the system installs it (Debian's tzdata:
    /usr/share/zoneinfo/zone.tab ...), from the first of Python's own search path that has it;
    "" when none has."""
    for folder in zoneinfo.TZPATH:
        try:
            return (Path(folder) / name).read_text(encoding="utf-8")
        except OSError:
            continue
    return ""


def _tab_rows(name: str) -> Iterator[tuple[str, str]]:
    """(country codes, zone) of each line of zone.tab or zone1970.tab."""
    for line in _tz_file(name).splitlines():
        if line and not line.startswith("#"):
            columns = line.split("\t")
            if len(columns) >= 3:
                yield columns[0], columns[2]


@cache
def canonical_zones() -> frozenset[str]:
    """The zones a place is in, by their current names: those of the database's zone.tab and
    zone1970.tab (every country's zones), never its old aliases (the "backward" file: Asia/Calcutta,
    Africa/Asmera, Pacific/Truk, America/Knox_IN, US/Pacific, GB ...). Without those files (a
    system with no tzdata), the known names of the areas above."""
    listed = {zone for _, zone in _tab_rows("zone.tab")}
    listed |= {zone for _, zone in _tab_rows("zone1970.tab")}
    known = _known()
    if listed:
        return frozenset(zone for zone in listed if zone in known)
    return frozenset(name for name in known if name.partition("/")[0] in AREAS)


@cache
def _links() -> dict[str, str]:
    """Each alias of the database and the zone it is another name for (tzdata.zi's "L" lines)."""
    links: dict[str, str] = {}
    for line in _tz_file("tzdata.zi").splitlines():
        if line.startswith("L "):
            parts = line.split()
            if len(parts) == 3:
                links[parts[2]] = parts[1]
    return links


# The old spellings of the tz "backward" file that a system's tzdata.zi (Debian's, built with
# backzone) links to another zone with the same clock: the name the place goes by now instead.
RESPELLED = {
    "Africa/Asmera": "Africa/Asmara",
    "Africa/Timbuktu": "Africa/Bamako",
    "America/Coral_Harbour": "America/Atikokan",
    "America/Virgin": "America/St_Thomas",
    "Antarctica/South_Pole": "Antarctica/McMurdo",
    "Atlantic/Faeroe": "Atlantic/Faroe",
    "Atlantic/Jan_Mayen": "Arctic/Longyearbyen",
    "Pacific/Enderbury": "Pacific/Kanton",
    "Pacific/Ponape": "Pacific/Pohnpei",
    "Pacific/Samoa": "Pacific/Pago_Pago",
    "Pacific/Truk": "Pacific/Chuuk",
    "Pacific/Yap": "Pacific/Chuuk",
}


def canonical_name(name: str) -> str:
    """A zone's current name: Asia/Calcutta -> Asia/Kolkata, Etc/UTC -> UTC; a name offered
    already, or an alias of nothing offered (Etc/GMT+5), as it is."""
    offered = canonical_zones()
    if RESPELLED.get(name) in offered:
        return RESPELLED[name]
    seen = {name}
    target = name
    while target not in offered and target in _links():
        target = _links()[target]
        if target in seen:
            break
        seen.add(target)
    if target in offered:
        return target
    if target == "Etc/UTC":
        return "UTC"
    return name


@cache
def _zones_by_area() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    found: dict[str, list[tuple[str, str]]] = {area: [] for area in AREAS}
    for name in canonical_zones():
        area, _, place = name.partition("/")
        if area in found and place:
            # "America/Argentina/Buenos_Aires" -> "Argentina / Buenos Aires"
            found[area].append((name, place.replace("_", " ").replace("/", " / ")))
    return tuple(
        (area, tuple(sorted(places, key=lambda p: p[1])))
        for area, places in found.items()
        if places
    )


def zone_choices(current: str = "") -> ZoneChoices:
    """The zones to choose from, grouped by area for a <select> (UTC first), by their current
    names only. A club's current zone that is not among them (an alias with no current name,
    e.g. Etc/GMT+5) stays in the list, so that saving the form does not change it."""
    choices: ZoneChoices = [("UTC", "UTC")]
    choices += [(area, list(places)) for area, places in _zones_by_area()]
    offered = {"UTC"} | {name for _, places in _zones_by_area() for name, _ in places}
    if current and current not in offered:
        choices.insert(0, (current, current))
    return choices


@cache
def _known() -> frozenset[str]:
    # The time zone database is read from disk on each call (tens of milliseconds): once here.
    return frozenset(zoneinfo.available_timezones())


def is_known(name: str) -> bool:
    return name in _known()


class TimeZoneField(forms.ChoiceField):
    """A select of the IANA zones; a name not in the time zone database is refused in words a
    secretary understands. An old alias that the database knows (typed in, or from an older
    form) is kept under its current name (Asia/Calcutta is saved as Asia/Kolkata)."""

    default_error_messages = {
        "invalid_choice": "%(value)s is not a time zone this server knows: choose the club's "
        "zone from the list, by its IANA name (e.g. Europe/London, America/Los_Angeles).",
    }

    def __init__(self, *, current: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("label", "Time zone")
        super().__init__(choices=zone_choices(current), **kwargs)

    def valid_value(self, value: Any) -> bool:
        return isinstance(value, str) and is_known(value)

    def clean(self, value: Any) -> str:
        name = super().clean(value)
        return canonical_name(name) if name else name


# -- the currency a zone suggests -------------------------------------------------------------


class Currency(NamedTuple):
    code: str  # ISO 4217
    symbol: str  # as the club's pages write it (Club.currency_symbol, at most 4 characters)
    minor_units: int  # as the club's "Money shown with" choices: 100 (2 decimals), 1 (none) ...


# The currencies sign-up suggests, by the country of the browser's zone: only those whose symbol
# a club writes as its own (the symbol and the decimals are the club's, editable, as before).
CURRENCIES = {
    currency.code: currency
    for currency in (
        Currency("AUD", "$", 100),
        Currency("BRL", "R$", 100),
        Currency("CAD", "$", 100),
        Currency("CHF", "CHF", 100),
        Currency("CZK", "Kč", 100),
        Currency("DKK", "kr", 100),
        Currency("EUR", "€", 100),
        Currency("GBP", "£", 100),
        Currency("HKD", "$", 100),
        Currency("HUF", "Ft", 100),
        Currency("ILS", "₪", 100),
        Currency("INR", "₹", 100),
        Currency("ISK", "kr", 1),
        Currency("JPY", "¥", 1),
        Currency("KRW", "₩", 1),
        Currency("MXN", "$", 100),
        Currency("NOK", "kr", 100),
        Currency("NZD", "$", 100),
        Currency("PLN", "zł", 100),
        Currency("SEK", "kr", 100),
        Currency("SGD", "$", 100),
        Currency("USD", "$", 100),
        Currency("ZAR", "R", 100),
    )
}

# ISO 3166 country (zone.tab's first column) -> ISO 4217 currency, for the currencies above.
COUNTRY_CURRENCY = {
    **dict.fromkeys(("AU", "CC", "CX", "KI", "NF", "NR", "TV"), "AUD"),
    "BR": "BRL",
    "CA": "CAD",
    **dict.fromkeys(("CH", "LI"), "CHF"),
    "CZ": "CZK",
    **dict.fromkeys(("DK", "FO", "GL"), "DKK"),
    **dict.fromkeys(
        (
            "AD",
            "AT",
            "AX",
            "BE",
            "BL",
            "CY",
            "DE",
            "EE",
            "ES",
            "FI",
            "FR",
            "GF",
            "GP",
            "GR",
            "HR",
            "IE",
            "IT",
            "LT",
            "LU",
            "LV",
            "MC",
            "ME",
            "MF",
            "MQ",
            "MT",
            "NL",
            "PM",
            "PT",
            "RE",
            "SI",
            "SK",
            "SM",
            "TF",
            "VA",
            "XK",
            "YT",
        ),
        "EUR",
    ),
    **dict.fromkeys(("FK", "GB", "GG", "GI", "IM", "JE", "SH"), "GBP"),
    "HK": "HKD",
    "HU": "HUF",
    **dict.fromkeys(("IL", "PS"), "ILS"),
    "IN": "INR",
    "IS": "ISK",
    "JP": "JPY",
    "KR": "KRW",
    "MX": "MXN",
    **dict.fromkeys(("BV", "NO", "SJ"), "NOK"),
    **dict.fromkeys(("CK", "NU", "NZ", "PN", "TK"), "NZD"),
    "PL": "PLN",
    "SE": "SEK",
    "SG": "SGD",
    **dict.fromkeys(
        (
            "AS",
            "BQ",
            "EC",
            "FM",
            "GU",
            "IO",
            "MH",
            "MP",
            "PR",
            "PW",
            "SV",
            "TC",
            "TL",
            "UM",
            "US",
            "VG",
            "VI",
        ),
        "USD",
    ),
    **dict.fromkeys(("LS", "NA", "ZA"), "ZAR"),
}


@cache
def _zone_countries() -> dict[str, str]:
    """Each zone's own country: zone.tab's (one a zone); else the first of zone1970.tab's."""
    countries = {zone: codes.split(",")[0] for codes, zone in _tab_rows("zone1970.tab")}
    countries.update({zone: codes for codes, zone in _tab_rows("zone.tab")})
    return countries


def currency_for_zone(name: str) -> Currency | None:
    """The currency of the country a zone is in (Australia/Sydney: AUD), among CURRENCIES; None
    for a zone of no country (UTC) or of a currency not offered."""
    country = _zone_countries().get(canonical_name(name))
    code = COUNTRY_CURRENCY.get(country or "")
    return CURRENCIES.get(code or "")


@cache
def currency_by_zone() -> dict[str, tuple[str, int]]:
    """For the sign-up page's script: each offered zone with a currency, its (symbol, decimals)."""
    found: dict[str, tuple[str, int]] = {}
    for zone in sorted(canonical_zones()):
        currency = currency_for_zone(zone)
        if currency is not None:
            found[zone] = (currency.symbol, currency.minor_units)
    return found


def activate(club: HasZone) -> None:
    """From here to the end of the request, dates and times are the club's."""
    timezone.activate(club.zone)


@contextmanager
def club_time(club: HasZone) -> Iterator[None]:
    """Dates and times on the club's clock for a task, an email or a sheet made outside a page."""
    with timezone.override(club.zone):
        yield


def on_club_clock(club_of: Callable[..., HasZone]) -> Callable[[F], F]:
    """Run the decorated function on the club that `club_of(*args, **kwargs)` names: for work a
    task does for one club (an email, the sheet attached to it)."""

    def decorate(function: F) -> F:
        @wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with club_time(club_of(*args, **kwargs)):
                return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


class ClubTimeZoneMiddleware:
    """Each request starts on the server's zone (UTC) and leaves none behind: a thread that
    served Auckland's page must not show Los Angeles the next one on Auckland's clock."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


@cache
def zone_aliases() -> dict[str, str]:
    """Each old alias the database knows and its current name (Asia/Calcutta: Asia/Kolkata), for
    a browser that names its zone by the alias (Chromium does, for Kolkata and Kyiv)."""
    offered = canonical_zones()
    return {
        name: canonical_name(name)
        for name in sorted(_known())
        if name not in offered and canonical_name(name) != name
    }


def signup_zone_data() -> dict[str, dict[str, Any]]:
    """What the sign-up page's script needs to pick the browser's zone and its currency."""
    return {"currency": currency_by_zone(), "aliases": zone_aliases()}
