"""The load generator of `bench --peak`: an evening's pages kept live from one asyncio process.

Run by club.operations.bench.peak as `python -m club.operations.bench.peak_load CONFIG RESULT`
(no Django here: the process holds nothing but sockets, so its CPU is the client's own). CONFIG
is JSON: the server's base URL, the plan (club.operations.bench.peak_setup.Plan), the rates and
the warm-up and window in seconds; RESULT receives the raw figures as JSON.

Every page does what its script does today, scheduled by the clock (open loop):
- a table's phone asks for its sheet every 10 s with its ETag (static/js/table-poll.js), and
  saves a hand at random moments, on average every 150 s (Poisson arrivals): the form's fields
  exactly as the page posts them, the next hand only once the last one was answered (the Save
  button waits, hx-sync "drop"); an unanswered save is sent again, same entry id, as the outbox
  does;
- each club's live board asks `?since=<revision>` every second, one request at a time (htmx's
  "every 1s": a tick during a request waits for it);
- each night page asks with `X-Live-Check` every 15 s (static/js/live-refresh.js);
- secretaries open pages at random (Poisson, a few a second across all clubs).
Requests due in the window are timed from the moment they were due, so a late client shows
as latency (and its lag is reported apart). With `push`, phones and boards instead hold a
server-sent-events subscription found in their page (`data-live-*`) and fetch on a message; the
time from a save's answer to its club's board hearing of it is reported.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import secrets
import sys
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin

import aiohttp

OK = {
    "phone poll": {200, 304},
    "board poll": {200, 204},
    "night poll": {200, 304},
    "secretary page": {200},
    "phone after push": {200, 304},
    "board after push": {200, 204},
}
LIVE_ATTRIBUTE = re.compile(r'data-live-([a-z0-9-]+)="([^"]*)"')
SHEET_ETAG = re.compile(r'data-sheet-etag="([^"]*)"')


def live_attributes(html: str) -> dict[str, str]:
    """A page's `data-live-*` attributes by name ("etag", "url", ...), HTML entities undone."""
    return {
        name: value.replace("&quot;", '"').replace("&amp;", "&")
        for name, value in LIVE_ATTRIBUTE.findall(html)
    }


def subscriber_url(html: str, page_url: str) -> str | None:
    """Where a page subscribes to its changes: the first `data-live-*` attribute that is an
    address (the push engine's subscriber URL), made absolute against the page's own."""
    for value in live_attributes(html).values():
        if value.startswith(("/", "http://", "https://")):
            return urljoin(page_url, value)
    return None


def hand_body(fields: list[str], phone: dict[str, Any], number: int, csrf: str) -> str:
    """What the phone's hand form posts for hand `number`: every field of the form (empty when
    not filled), a played hand of the players in it, a fresh entry id. Solos, misères and Prop &
    Cops in turn, made and failed; every hand's dealer passes to the left."""
    seats = phone["seats"]
    dealer = seats[(number - 1) % len(seats)]
    out = phone["out"].get(str(dealer))
    playing = [p for p in seats if p != out]
    step = phone["number"] + number
    values: dict[str, object] = {
        "csrfmiddlewaretoken": csrf,
        "dealer": dealer,
        "expected_number": number,
        "client_id": str(uuid.uuid4()),
    }
    kind = step % 3
    if kind == 0:
        values |= {"contract": "solo", "declarer": playing[step % 4], "tricks": 3 + step % 6}
    elif kind == 1:
        values |= {"contract": "misere", "declarer": playing[(step + 1) % 4], "tricks": step % 2}
    else:
        values |= {
            "contract": "prop_cop",
            "declarer": playing[step % 4],
            "partner": playing[(step + 2) % 4],
            "tricks": 6 + step % 5,
        }
    return urlencode([(name, values.get(name, "")) for name in fields])


@dataclass
class Figures:
    """What the run measured, raw: the report's arithmetic is club.operations.bench.peak_report."""

    ms: dict[str, list[float]] = field(default_factory=dict)  # in the window, by kind
    errors: Counter[str] = field(default_factory=Counter)  # in the window, by kind
    samples: list[str] = field(default_factory=list)  # a few errors, as they happened
    statuses: Counter[str] = field(default_factory=Counter)  # "kind status", in the window
    lag_ms: list[float] = field(default_factory=list)  # how late the client sent, in the window
    saves: list[list[Any]] = field(default_factory=list)  # [table id, number, outcome], all
    push_ms: list[float] = field(default_factory=list)  # a save's answer to its board's message
    cpu_window_s: float = 0.0  # this process's CPU in the window
    window_s: float = 0.0
    unfinished: int = 0  # requests still open when the run ended
    nofile: list[int] = field(default_factory=list)  # the open-files limit, before and after


class Evening:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.base = config["base"]
        self.plan = config["plan"]
        self.figures = Figures(ms={kind: [] for kind in [*OK, "save"]})
        self.rng = random.Random(config.get("seed", 1))
        self.loop = asyncio.get_running_loop()
        self.start = self.loop.time()
        self.window_start = self.start + float(config["warmup"])
        self.end = self.window_start + float(config["seconds"])
        self.tasks: set[asyncio.Task[None]] = set()
        self.subscriptions: list[asyncio.Task[None]] = []
        self.csrf = secrets.token_hex(16)  # 32 characters, as Django's cookie
        # The app's gunicorn workers close every connection after one answer (sync workers):
        # no keep-alive, a connection a request, as a browser meets it.
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(
                limit=int(config.get("connections", 2000)), force_close=True
            ),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=float(config.get("timeout", 30))),
            auto_decompress=False,
        )
        self.streams = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),
        )
        self.last_save: dict[int, float] = {}  # club index -> when its last save was answered

    # --- one request -----------------------------------------------------------------------

    def measured(self, due: float) -> bool:
        return self.window_start <= due < self.end

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def until(self, moment: float) -> None:
        delay = moment - self.loop.time()
        if delay > 0:
            await asyncio.sleep(delay)

    async def fetch(
        self,
        kind: str,
        due: float,
        method: str,
        path: str,
        headers: dict[str, str],
        body: str | None = None,
    ) -> tuple[int, Mapping[str, str]]:
        """Send one request due at `due`; its status and headers. Timed if due in the
        window; an error is any status its kind does not expect, or no answer."""
        sent = self.loop.time()
        status, problem = 0, ""
        answer: Mapping[str, str] = {}
        try:
            async with self.http.request(method, self.base + path, headers=headers, data=body) as r:
                # The pages' scripts read only the headers here (ETag, X-Hand-Outcome): the body
                # is read, not decoded.
                await r.read()
                status, answer = r.status, r.headers
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            problem = f"{type(error).__name__}: {error}"
        if self.measured(due):
            done = self.loop.time()
            f = self.figures
            f.ms[kind].append((done - due) * 1000)
            f.lag_ms.append((sent - due) * 1000)
            f.statuses[f"{kind} {status}"] += 1
            if kind == "save":
                outcome = answer.get("X-Hand-Outcome", "") if status else ""
                bad = status != 200 or outcome != "saved"
                problem = problem or f"{status} {outcome}"
            else:
                bad = status not in OK[kind]
                problem = problem or f"{status}"
            if bad:
                f.errors[kind] += 1
                if len(f.samples) < 20:
                    f.samples.append(f"{kind} {method} {path}: {problem[:200]}")
        return status, answer

    # --- the pages -------------------------------------------------------------------------

    async def phone(self, phone: dict[str, Any], state: dict[str, Any]) -> None:
        """A table's phone: its poll every 10 s (unless `push`), its saves at random."""
        if not self.config.get("push"):
            self.spawn(self.poll_sheet(phone, state))
        moment = self.start + self.rng.expovariate(1 / self.config["save_mean"])
        number, body = 1, ""
        club = phone["club"]
        while moment < self.end:
            await self.until(moment)
            body = body or hand_body(self.plan["form_fields"], phone, number, self.csrf)
            state["saving"] = True
            status, headers = await self.fetch(
                "save",
                moment,
                "POST",
                f"/t/{phone['token']}/hands/",
                {
                    "Cookie": f"csrftoken={self.csrf}",
                    "X-CSRFToken": self.csrf,
                    "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded",
                },
                body,
            )
            state["saving"] = False
            outcome = headers.get("X-Hand-Outcome", "") if status else ""
            self.figures.saves.append([phone["table_id"], number, outcome or f"status {status}"])
            if status == 200 and outcome in ("saved", "resent"):
                self.last_save[club] = self.loop.time()
                state["etag"] = headers.get("X-Sheet-ETag", state["etag"])
                number, body = number + 1, ""
            # Else the outbox keeps the hand and sends it again, same entry id, with the next.
            moment = max(
                moment + self.rng.expovariate(1 / self.config["save_mean"]), self.loop.time()
            )

    async def poll_sheet(self, phone: dict[str, Any], state: dict[str, Any]) -> None:
        every = float(self.config["phone_poll"])
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            if not state["saving"]:  # table-poll.js skips a tick while the outbox sends
                self.spawn(self.sheet(phone, state, moment, "phone poll"))
            moment += every

    async def sheet(
        self, phone: dict[str, Any], state: dict[str, Any], due: float, kind: str
    ) -> None:
        headers = {"HX-Request": "true", "If-None-Match": state["etag"]}
        status, answer = await self.fetch(kind, due, "GET", f"/t/{phone['token']}/", headers)
        if status == 200:
            state["etag"] = answer.get("ETag", state["etag"])

    async def board(self, index: int, club: dict[str, Any], revision: str) -> None:
        """The club's live board: `?since=` every second, the next tick waiting for the answer."""
        every = float(self.config["board_poll"])
        state = {"revision": revision}
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            await self.board_fetch(club, state, moment, "board poll")
            moment = max(moment + every, self.loop.time())

    async def board_fetch(
        self, club: dict[str, Any], state: dict[str, str], due: float, kind: str
    ) -> None:
        headers = {"HX-Request": "true", "Cookie": f"sessionid={club['session']}"}
        path = f"{club['board']}?since={state['revision']}"
        status, answer = await self.fetch(kind, due, "GET", path, headers)
        if status == 200:
            state["revision"] = answer.get("ETag", "").strip('"') or state["revision"]

    async def night(self, club: dict[str, Any], etag: str) -> None:
        every = float(self.config["night_poll"])
        state = {"etag": etag}
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            self.spawn(self.night_check(club, state, moment))
            moment += every

    async def night_check(self, club: dict[str, Any], state: dict[str, str], due: float) -> None:
        headers = {
            "X-Live-Check": "1",
            "If-None-Match": state["etag"],
            "Cookie": f"sessionid={club['session']}",
        }
        status, answer = await self.fetch("night poll", due, "GET", club["night"], headers)
        if status == 200:
            state["etag"] = answer.get("ETag", state["etag"])

    async def secretaries(self) -> None:
        """Pages opened by secretaries, at random across the clubs."""
        rate = float(self.config["secretary_rate"])
        if rate <= 0:
            return
        moment = self.start + self.rng.expovariate(rate)
        while moment < self.end:
            await self.until(moment)
            club = self.rng.choice(self.plan["clubs"])
            page = self.rng.choice(club["secretary_pages"])
            headers = {"Cookie": f"sessionid={club['session']}"}
            self.spawn(self.fetch("secretary page", moment, "GET", page, headers))
            moment += self.rng.expovariate(rate)

    # --- push --------------------------------------------------------------------------------

    async def subscribe(self, url: str, on_message: Any) -> None:
        """Hold a server-sent-events subscription until the run ends; `on_message()` for each
        event (a blank line ends one)."""
        try:
            async with self.streams.get(url, headers={"Accept": "text/event-stream"}) as r:
                pending = False
                async for line in r.content:
                    if line.strip():
                        pending = pending or line.startswith(b"data:")
                    elif pending:
                        pending = False
                        on_message()
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            if self.loop.time() < self.end and len(self.figures.samples) < 20:
                self.figures.samples.append(f"subscription {url}: {error}")

    async def open_page(self, path: str, headers: dict[str, str]) -> str:
        async with self.http.get(self.base + path, headers=headers) as r:
            return await r.text(errors="replace")

    async def push_phone(self, phone: dict[str, Any], state: dict[str, Any]) -> None:
        path = f"/t/{phone['token']}/"
        url = subscriber_url(await self.open_page(path, {}), self.base + path)
        if url is None:
            raise RuntimeError(f"No data-live-* subscriber URL on {path}")

        def heard() -> None:
            self.spawn(self.sheet(phone, state, self.loop.time(), "phone after push"))

        self.subscriptions.append(asyncio.ensure_future(self.subscribe(url, heard)))

    async def push_board(self, index: int, club: dict[str, Any], revision: str) -> None:
        headers = {"Cookie": f"sessionid={club['session']}"}
        url = subscriber_url(
            await self.open_page(club["board"], headers), self.base + club["board"]
        )
        if url is None:
            raise RuntimeError(f"No data-live-* subscriber URL on {club['board']}")
        state = {"revision": revision}

        def heard() -> None:
            now = self.loop.time()
            saved = self.last_save.get(index)
            if saved is not None and self.measured(now) and now - saved < 5:
                self.figures.push_ms.append((now - saved) * 1000)
            self.spawn(self.board_fetch(club, state, now, "board after push"))

        self.subscriptions.append(asyncio.ensure_future(self.subscribe(url, heard)))

    # --- the evening ------------------------------------------------------------------------

    async def run(self) -> Figures:
        plan = self.plan
        phones, clubs = plan["phones"], plan["clubs"]
        states = [{"etag": p["etag"], "saving": False} for p in phones]
        if self.config.get("push"):
            # Every phone and board opens its page first (not timed) to find its subscription.
            gate = asyncio.Semaphore(16)

            async def opened(coroutine: Any) -> None:
                async with gate:
                    await coroutine

            await asyncio.gather(
                *(opened(self.push_phone(p, s)) for p, s in zip(phones, states, strict=True)),
                *(opened(self.push_board(i, c, c["revision"])) for i, c in enumerate(clubs)),
            )
            self.start = self.loop.time()
            self.window_start = self.start + float(self.config["warmup"])
            self.end = self.window_start + float(self.config["seconds"])
        else:
            for index, club in enumerate(clubs):
                self.spawn(self.board(index, club, club["revision"]))
        for phone, state in zip(phones, states, strict=True):
            self.spawn(self.phone(phone, state))
        for club in clubs:
            self.spawn(self.night(club, club["etag"]))
        self.spawn(self.secretaries())
        await self.until(self.window_start)
        cpu = time.process_time()
        print("window start", flush=True)
        await self.until(self.end)
        print("window end", flush=True)
        self.figures.cpu_window_s = time.process_time() - cpu
        self.figures.window_s = float(self.config["seconds"])
        # What was sent in the window may still be answered (the pages' loops end by
        # themselves); then the subscriptions are closed.
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=float(self.config.get("timeout", 30)))
        self.figures.unfinished = len(self.tasks)
        for task in [*self.tasks, *self.subscriptions]:
            task.cancel()
        await asyncio.gather(*self.tasks, *self.subscriptions, return_exceptions=True)
        await self.http.close()
        await self.streams.close()
        return self.figures


def raise_open_files() -> list[int]:
    """The soft open-files limit raised to the hard one (thousands of sockets at once); both
    limits as found."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return [soft, hard]


async def evening(config: dict[str, Any]) -> Figures:
    return await Evening(config).run()


def main(config_path: str, result_path: str) -> None:
    with open(config_path) as f:
        config = json.load(f)
    nofile = raise_open_files()
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:  # pragma: no cover - uvloop is in the test extras
        runner = asyncio.run
    figures = runner(evening(config))
    figures.nofile = nofile
    data = figures.__dict__ | {"errors": dict(figures.errors), "statuses": dict(figures.statuses)}
    with open(result_path, "w") as f:
        json.dump(data, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
