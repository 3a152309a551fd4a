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
as latency (and its lag is reported apart). With `push` (the engine's public base URL), every
phone, board and night page first opens its page, finds its subscriber URL there
(`data-live-url`), holds that server-sent-events subscription and asks for its part when a
message arrives, as static/js/live-push.js has it; each keeps its script's safety poll in case a
message was lost (a phone every 60 s, a board and a night page every 30 s). The time from a
save being sent to its club's board hearing of it, and to the board redrawn, is reported.
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
    "night after push": {200, 304},
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
    push_ms: list[float] = field(default_factory=list)  # a save sent -> its board's message
    board_ms: list[float] = field(default_factory=list)  # a save sent -> its board redrawn
    subscriptions: int = 0  # subscriptions the engine accepted (200, text/event-stream)
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
        # Club index -> when each of its saves not yet heard of on its board was sent.
        self.unheard: dict[int, list[float]] = {}

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
        """A table's phone: its poll every 10 s (with push, its safety poll every 60 s), its
        saves at random."""
        every = self.config["phone_safety_poll" if self.config.get("push") else "phone_poll"]
        self.spawn(self.poll_sheet(phone, state, float(every)))
        moment = self.start + self.rng.expovariate(1 / self.config["save_mean"])
        number, body = 1, ""
        club = phone["club"]
        while moment < self.end:
            await self.until(moment)
            body = body or hand_body(self.plan["form_fields"], phone, number, self.csrf)
            state["saving"] = True
            sent = self.loop.time()
            self.unheard.setdefault(club, []).append(sent)
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
            if outcome != "saved" and sent in self.unheard[club]:
                self.unheard[club].remove(sent)  # nothing was published
            if status == 200 and outcome in ("saved", "resent"):
                state["etag"] = headers.get("X-Sheet-ETag", state["etag"])
                number, body = number + 1, ""
            # Else the outbox keeps the hand and sends it again, same entry id, with the next.
            moment = max(
                moment + self.rng.expovariate(1 / self.config["save_mean"]), self.loop.time()
            )

    async def poll_sheet(self, phone: dict[str, Any], state: dict[str, Any], every: float) -> None:
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            if not state["saving"]:  # table-poll.js skips a tick while the outbox sends
                self.spawn(self.sheet(phone, state, moment, "phone poll"))
            moment += every

    async def sheet(
        self, phone: dict[str, Any], state: dict[str, Any], due: float, kind: str
    ) -> None:
        # table-poll.js names the table's channel, with push or without: "nothing changed" is
        # then answered from the cache.
        headers = {
            "HX-Request": "true",
            "If-None-Match": state["etag"],
            "X-Live-Channel": phone.get("channel", ""),
        }
        status, answer = await self.fetch(kind, due, "GET", f"/t/{phone['token']}/", headers)
        if status == 200:
            state["etag"] = answer.get("ETag", state["etag"])

    async def board(self, club: dict[str, Any], state: dict[str, Any]) -> None:
        """The club's live board: `?since=` every second (with push, every 30 s), a tick during
        a request dropped (htmx's default for an element: one request at a time)."""
        every = float(self.config["board_safety_poll" if self.config.get("push") else "board_poll"])
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            await self.board_fetch(club, state, moment, "board poll")
            moment = max(moment + every, self.loop.time())

    async def board_fetch(
        self,
        club: dict[str, Any],
        state: dict[str, Any],
        due: float,
        kind: str,
        save_sent: float | None = None,
    ) -> None:
        if state.get("busy"):
            return  # htmx drops a trigger while the board's request is out
        state["busy"] = True
        headers = {"HX-Request": "true", "Cookie": f"sessionid={club['session']}"}
        path = f"{club['board']}?since={state['revision']}"
        try:
            status, answer = await self.fetch(kind, due, "GET", path, headers)
        finally:
            state["busy"] = False
        if status == 200:
            state["revision"] = answer.get("ETag", "").strip('"') or state["revision"]
            if save_sent is not None and self.measured(due):
                self.figures.board_ms.append((self.loop.time() - save_sent) * 1000)

    async def night(self, club: dict[str, Any], state: dict[str, str]) -> None:
        every = float(self.config["night_safety_poll" if self.config.get("push") else "night_poll"])
        moment = self.start + self.rng.uniform(0, every)
        while moment < self.end:
            await self.until(moment)
            self.spawn(self.night_check(club, state, moment))
            moment += every

    async def night_check(
        self, club: dict[str, Any], state: dict[str, str], due: float, kind: str = "night poll"
    ) -> None:
        headers = {
            "X-Live-Check": "1",
            "If-None-Match": state["etag"],
            "Cookie": f"sessionid={club['session']}",
        }
        status, answer = await self.fetch(kind, due, "GET", club["night"], headers)
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
                if r.status != 200:
                    raise aiohttp.ClientError(f"status {r.status}")
                self.figures.subscriptions += 1
                pending = False
                async for line in r.content:
                    if line.strip():
                        pending = pending or line.startswith(b"data:")
                    elif pending:
                        pending = False
                        on_message()
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            if self.loop.time() < self.end:
                self.figures.errors["subscription"] += 1
                if len(self.figures.samples) < 20:
                    self.figures.samples.append(f"subscription: {type(error).__name__} {error}")

    async def subscribe_on(self, path: str, headers: dict[str, str], on_message: Any) -> None:
        """Open a page (not timed), find its subscriber URL, subscribe on the engine."""
        async with self.http.get(self.base + path, headers=headers) as r:
            html = await r.text(errors="replace")
        # The page gives a path on the site's own address; the site's nginx is the engine.
        url = subscriber_url(html, self.config["push"] + path)
        if url is None:
            raise RuntimeError(f"No data-live-url on {path} ({r.status})")
        self.subscriptions.append(asyncio.ensure_future(self.subscribe(url, on_message)))

    async def push_phone(self, phone: dict[str, Any], state: dict[str, Any]) -> None:
        async def when_sent() -> None:
            # table.js: a message while the phone sends its own hands is heeded once they are.
            while state["saving"]:
                await asyncio.sleep(0.5)
            await self.sheet(phone, state, self.loop.time(), "phone after push")

        def heard() -> None:
            self.spawn(when_sent())

        await self.subscribe_on(f"/t/{phone['token']}/", {}, heard)

    async def push_board(self, index: int, club: dict[str, Any], state: dict[str, Any]) -> None:
        def heard() -> None:
            now = self.loop.time()
            waiting = self.unheard.get(index)
            sent = waiting.pop(0) if waiting else None
            if sent is not None and self.measured(now):
                self.figures.push_ms.append((now - sent) * 1000)
            self.spawn(self.board_fetch(club, state, now, "board after push", sent))

        headers = {"Cookie": f"sessionid={club['session']}"}
        await self.subscribe_on(club["board"], headers, heard)

    async def push_night(self, club: dict[str, Any], state: dict[str, str]) -> None:
        def heard() -> None:
            self.spawn(self.night_check(club, state, self.loop.time(), "night after push"))

        headers = {"Cookie": f"sessionid={club['session']}"}
        await self.subscribe_on(club["night"], headers, heard)

    # --- the evening ------------------------------------------------------------------------

    async def run(self) -> Figures:
        plan = self.plan
        phones, clubs = plan["phones"], plan["clubs"]
        states = [{"etag": p["etag"], "saving": False} for p in phones]
        boards = [{"revision": c["revision"], "busy": False} for c in clubs]
        nights = [{"etag": c["etag"]} for c in clubs]
        if self.config.get("push"):
            # Every page is opened first (not timed) to find its subscription.
            gate = asyncio.Semaphore(16)

            async def opened(coroutine: Any) -> None:
                async with gate:
                    await coroutine

            await asyncio.gather(
                *(opened(self.push_phone(p, s)) for p, s in zip(phones, states, strict=True)),
                *(opened(self.push_board(i, c, boards[i])) for i, c in enumerate(clubs)),
                *(opened(self.push_night(c, nights[i])) for i, c in enumerate(clubs)),
            )
            self.start = self.loop.time()
            self.window_start = self.start + float(self.config["warmup"])
            self.end = self.window_start + float(self.config["seconds"])
        for club, board, night in zip(clubs, boards, nights, strict=True):
            self.spawn(self.board(club, board))
            self.spawn(self.night(club, night))
        for phone, state in zip(phones, states, strict=True):
            self.spawn(self.phone(phone, state))
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


OPEN_FILES = 65536  # 1,000 clubs: some 12,000 subscriptions and the pages' requests


def raise_open_files() -> list[int]:
    """The open-files limit raised to OPEN_FILES (root may raise the hard limit too), else to
    the hard limit (thousands of sockets at once): the soft limit as found, and as set."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        wanted = max(hard, OPEN_FILES)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
    except (ValueError, OSError):
        wanted = hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return [soft, wanted]


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
