"""Push as a host runs it (docs/operators.md): nginx with the nchan module in front of the app,
proxying every request to pytest-django's live server, with the subscriber location of
deploy/nginx-live-sub.conf and the publisher of deploy/nginx-live.conf, and LIVE_PUSH_URL set.
Two phones (Chromium, 390 px) hold one table's link page and the secretary holds the live
board: a hand saved on one phone is on the other phone's sheet and on the board within a second,
which only the push can do (their safety polls are a minute and 30 s apart with push on); the
median delay is printed. A phone that loses its connection while a hand is saved catches up by
itself when it returns, without a reload. nginx's logs hold neither a channel's name nor the
table link's token.

Skipped, saying why, where nginx or its nchan module is not installed (bin/test installs both).
"""

from __future__ import annotations

import re
import shutil
import socket
import statistics
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from entry_kit import fill_hand
from playwright.sync_api import BrowserContext, Page, expect

from club.lib import live_push
from club.play.services import table_links as link_service
from tests.kits.nodes_kit import free_port

ROOT = Path(__file__).resolve().parents[2]
NCHAN = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        shutil.which("nginx") is None or not NCHAN.exists(),
        reason="nginx with the nchan module is not installed (apt-get install nginx-light "
        "libnginx-mod-nchan; bin/test does it)",
    ),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SAVES = 5
# (contract, declarer, tricks): hands for table 1 (Ann, Bob, Cat, Dan).
HANDS = [("solo", "Bob", 5), ("misere", "Cat", 0), ("solo", "Dan", 5), ("solo", "Ann", 4)]

# Each page notes the moment (Date.now(), the clock time.time() reads) a hand's row first shows
# on it, and the moment the board's count first reads each number.
SEEN = """() => {
  window.soloSeen = {};
  const note = () => {
    const now = Date.now();
    document.querySelectorAll("[id^='hand-']").forEach((row) => {
      if (/^hand-\\d+$/.test(row.id) && !(row.id in window.soloSeen)) window.soloSeen[row.id] = now;
    });
    const count = document.getElementById("live-hands");
    const key = count && "board-" + count.textContent.trim();
    if (key && !(key in window.soloSeen)) window.soloSeen[key] = now;
  };
  note();
  const all = {childList: true, subtree: true, characterData: true};
  new MutationObserver(note).observe(document.body, all);
}"""


def site_log_format() -> str:
    """The `log_format solo` line the operators' guide gives the site's nginx."""
    guide = (ROOT / "docs" / "operators.md").read_text()
    found = re.search(r"^log_format solo .*;$", guide, re.MULTILINE)
    assert found, "docs/operators.md gives no `log_format solo` line"
    return found.group(0)


def nginx_conf(prefix: Path, public: int, private: int, app: str) -> Path:
    publisher = (ROOT / "deploy" / "nginx-live.conf").read_text()
    assert "listen 127.0.0.1:8090;" in publisher
    (prefix / "live.conf").write_text(publisher.replace("127.0.0.1:8090", f"127.0.0.1:{private}"))
    temp = " ".join(
        f"{kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = prefix / "nginx.conf"
    # The site's server as docs/operators.md has it, over plain HTTP on a free port: Host with
    # its port ($http_host), since the browser's Origin has one and Django's CSRF check
    # compares them (on 443 the guide's $host is the same thing). The error log at nginx's
    # default level, as the guide says to keep it.
    conf.write_text(
        f"""
load_module {NCHAN};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"};
events {{ worker_connections 256; }}
http {{
    {temp}
    {site_log_format()}
    include {prefix / "live.conf"};
    server {{
        listen 127.0.0.1:{public};
        access_log {prefix / "access.log"} solo;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Request-ID $request_id;
        location ~ "^/live/sub/(?<live_channel>[0-9a-f]{{64}})$" {{
            include {ROOT / "deploy" / "nginx-live-sub.conf"};
        }}
        location / {{ proxy_pass {app}; }}
    }}
}}
"""
    )
    return conf


@pytest.fixture
def site(tmp_path, live_server, settings):
    """The site's address through nginx; LIVE_PUSH_URL set to its publisher."""
    public, private = free_port(), free_port()
    app = urlsplit(live_server.url)
    conf = nginx_conf(tmp_path, public, private, f"http://127.0.0.1:{app.port}")
    process = subprocess.Popen(
        ["nginx", "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", public), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None, process.communicate()[0].decode()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
    settings.LIVE_PUSH_URL = f"http://127.0.0.1:{private}/live/pub/"
    yield f"http://127.0.0.1:{public}", tmp_path
    process.terminate()
    process.wait(10)


def watched(context: BrowserContext, errors: list[str]) -> Page:
    """A phone whose console errors fail the test as conftest.py's `page` does."""
    page = context.new_page()
    page.set_default_timeout(10_000)

    def on_console(message) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def on_response(response) -> None:
        if response.status >= 500:
            errors.append(f"{response.status} for {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return page


def subscribed(page: Page, url: str, channel: str) -> None:
    """Open the page and wait until its EventSource holds the channel through nginx."""
    with page.expect_response(lambda r: r.url.endswith(f"/live/sub/{channel}")) as answer:
        page.goto(url)
    assert answer.value.status == 200
    page.evaluate(SEEN)


def seen(page: Page, key: str) -> float:
    return page.evaluate("(key) => window.soloSeen[key]", key)


def test_a_hand_saved_on_one_phone_is_pushed_to_the_other_and_the_board(
    browser, page, site, night, secretary, players
):
    address, logs = site
    table = night.tables.get(number=1)
    link = link_service.night_links(night, secretary)[table.pk]
    assert link is not None
    token = link.token
    table_channel = live_push.table_channel(table.pk)
    night_channel = live_push.night_channel(night.pk)

    board = page
    board.set_default_timeout(10_000)
    board.goto(f"{address}/accounts/login/")
    board.fill("#id_username", "sec")
    board.fill("#id_password", "pw-sec")
    board.click("button[type=submit]")
    board.wait_for_load_state()
    subscribed(board, f"{address}/c/crown/nights/{night.pk}/live/", night_channel)
    expect(board.locator("#live-hands")).to_have_text("0")

    errors: dict[str, list[str]] = {"A": [], "B": []}
    contexts = [browser.new_context(**PHONE) for _ in errors]
    try:
        one, two = (watched(c, e) for c, e in zip(contexts, errors.values(), strict=True))
        for phone in (one, two):
            subscribed(phone, f"{address}/t/{token}/", table_channel)
            expect(phone.locator("#outbox")).to_have_attribute(
                "data-live-url", f"/live/sub/{table_channel}"
            )
        two.evaluate("() => { window.soloNotReloaded = true; }")

        to_phone, to_board = [], []
        for number in range(1, SAVES + 1):
            contract, declarer, tricks = HANDS[number % len(HANDS)]
            expect(one.locator("#entry-title")).to_have_text(f"Hand {number}")
            fill_hand(one, contract, declarer, tricks=tricks)
            one.get_by_role("button", name=f"Save hand {number}").click()
            expect(one.locator(f"#hand-{number}")).to_be_visible()
            expect(two.locator(f"#hand-{number}")).to_be_visible(timeout=5_000)
            expect(board.locator("#live-hands")).to_have_text(str(number), timeout=5_000)
            saved = seen(one, f"hand-{number}")  # the save answered on phone A
            to_phone.append(seen(two, f"hand-{number}") - saved)
            to_board.append(seen(board, f"board-{number}") - saved)
            # Phone B's form moved on to the next hand by itself.
            expect(two.locator("#entry-title")).to_have_text(f"Hand {number + 1}")
        print(
            f"\nsave answered on phone A -> on phone B: median {statistics.median(to_phone):.0f} "
            f"ms, max {max(to_phone):.0f} ms; -> on the board: median "
            f"{statistics.median(to_board):.0f} ms, max {max(to_board):.0f} ms over {SAVES} saves"
        )
        # Within a second: the push, since neither page polls that often with push on.
        assert max(to_phone) < 1_000 and max(to_board) < 1_000, (to_phone, to_board)

        # Phone B loses its connection while phone A saves a hand; back, it catches up by itself.
        number = SAVES + 1
        contexts[1].set_offline(True)
        fill_hand(one, "solo", "Bob", tricks=5)
        one.get_by_role("button", name=f"Save hand {number}").click()
        expect(one.locator(f"#hand-{number}")).to_be_visible()
        expect(board.locator("#live-hands")).to_have_text(str(number), timeout=5_000)
        two.wait_for_timeout(1_500)
        expect(two.locator(f"#hand-{number}")).to_have_count(0)
        contexts[1].set_offline(False)
        back = time.time() * 1000
        expect(two.locator(f"#hand-{number}")).to_be_visible(timeout=15_000)
        expect(two.locator("#entry-title")).to_have_text(f"Hand {number + 1}")
        assert two.evaluate("() => window.soloNotReloaded") is True
        caught_up = seen(two, f"hand-{number}") - back
        print(f"phone B back online -> hand {number} on it: {caught_up:.0f} ms")
        # The offline period's failed requests are expected on phone B; nothing else is.
        errors["B"].clear()
        # Push again: the next hand reaches phone B within a second.
        number += 1
        fill_hand(one, "misere", "Cat", tricks=0)
        one.get_by_role("button", name=f"Save hand {number}").click()
        expect(one.locator(f"#hand-{number}")).to_be_visible()
        expect(two.locator(f"#hand-{number}")).to_be_visible(timeout=5_000)
        again = seen(two, f"hand-{number}") - seen(one, f"hand-{number}")
        print(f"after reconnecting: phone A -> phone B {again:.0f} ms")
        assert again < 1_000
        assert errors == {"A": [], "B": []}
    finally:
        for context in contexts:
            context.close()

    # nginx's logs: the site's requests, but no channel's name and no table link's token.
    time.sleep(0.3)
    access, error_log = (logs / "access.log").read_text(), (logs / "error.log").read_text()
    # The site's requests are logged (the hands saved among them), without their paths.
    assert access.count(" POST 200 ") > SAVES and " GET 200 " in access
    for secret in (table_channel, night_channel, token):
        assert secret not in access
        assert secret not in error_log
