"""The README's demo as a newcomer runs it: each `bin/demo` line of its shell blocks (another
port, the club's own phones on its network) run as written, from the checkout, on a database and
a mail folder of its own, then used as a browser would. The README's `PORT=8100` becomes a free
port so that the test never meets a server already there."""

from __future__ import annotations

import email
import email.policy
import http.client
import ipaddress
import os
import re
import shlex
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
CLUB_NAME = "Crown &amp; Anchor Solo School"
pytestmark = pytest.mark.skipif(
    not (ROOT / ".venv/bin/python").exists(), reason="bin/setup has not run"
)


def readme_demo_commands() -> list[dict[str, str]]:
    """The environment each `... bin/demo` line of the README's shell blocks sets."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[-1] == "bin/demo" and all(map(ASSIGNMENT.match, words[:-1])):
                found.append(dict(word.split("=", 1) for word in words[:-1]))
    return found


def readme_run_it_buttons() -> list[str]:
    """What the README's "Run it" section tells the secretary to press, in order: **bold**."""
    section = README.read_text().split("## Run it", 1)[1].split("\n## ", 1)[0]
    return [" ".join(label.split()) for label in re.findall(r"\*\*(.+?)\*\*", section, re.S)]


def test_the_readme_shows_the_demo_on_another_port_and_on_the_clubs_network():
    commands = readme_demo_commands()
    assert {} in commands  # bin/demo as it stands
    assert any(set(c) == {"PORT"} and c["PORT"].isdigit() for c in commands)
    assert {"HOST": "0.0.0.0"} in commands


def test_the_readme_names_the_buttons_of_a_night_from_the_nights_page_to_the_draw():
    assert readme_run_it_buttons() == [
        "Nights",
        "Who is here",
        "Draw tables",
        "Confirm",
        "New club night",
    ]  # each one is pressed on the running demo below


# --- a browser of sorts -------------------------------------------------------------------------


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)  # hidden inputs
    boxes: list[str] = field(default_factory=list)  # checkbox values
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # text, name, value


class Page(HTMLParser):
    """The links (text, href) and forms of a page, each text with its spaces collapsed."""

    def __init__(self, url: str, status: int, text: str) -> None:
        super().__init__()
        self.url, self.status, self.text = url, status, text
        self.links: list[tuple[str, str]] = []
        self.forms: list[Form] = []
        self._open: list[tuple[str, dict[str, str], list[str]]] = []  # a or button being read
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(urllib.parse.urljoin(self.url, a.get("action") or self.url)))
        elif tag == "input" and self.forms:
            if a.get("type") == "hidden":
                self.forms[-1].fields.append((a.get("name", ""), a.get("value", "")))
            elif a.get("type") == "checkbox":
                self.forms[-1].boxes.append(a.get("value", ""))
        elif tag in ("a", "button"):
            self._open.append((tag, a, []))

    def handle_data(self, data: str) -> None:
        for _, _, words in self._open:
            words.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("a", "button") or not self._open:
            return
        _, a, words = self._open.pop()
        text = " ".join("".join(words).split())
        if tag == "a":
            self.links.append((text, urllib.parse.urljoin(self.url, a.get("href", ""))))
        elif self.forms:
            self.forms[-1].buttons.append((text, a.get("name", ""), a.get("value", "")))

    def link(self, text: str) -> str:
        hrefs = [href for label, href in self.links if label == text]
        assert hrefs, f"no link {text!r} on {self.url}: {[label for label, _ in self.links]}"
        return hrefs[0]

    def form_with(self, button: str) -> tuple[Form, tuple[str, str, str]]:
        for form in self.forms:
            for pressed in form.buttons:
                if pressed[0] == button:
                    return form, pressed
        raise AssertionError(f"no button {button!r} on {self.url}")


class Browser:
    """Cookies, redirects followed, and the Origin a browser sends with a form."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def get(self, url: str) -> Page:
        return self._open(urllib.request.Request(url))

    def submit(self, page: Page, button: str, **extra: str | list[str]) -> Page:
        form, (_, name, value) = page.form_with(button)
        data: list[tuple[str, str]] = [*form.fields]
        if name:
            data.append((name, value))
        for key, values in extra.items():
            data += [(key, v) for v in ([values] if isinstance(values, str) else values)]
        body = urllib.parse.urlencode(data).encode()
        headers = {"Origin": self.origin, "Referer": page.url}
        return self._open(urllib.request.Request(form.action, body, headers, method="POST"))

    def _open(self, request: urllib.request.Request) -> Page:
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Page(answer.url, answer.status, answer.read().decode())
        except urllib.error.HTTPError as refused:
            return Page(request.full_url, refused.code, refused.read().decode(errors="replace"))


def status_with_host(port: int, host: str) -> int:
    """The status of /c/demo/ asked of 127.0.0.1 under another Host header."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/c/demo/", headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


# --- the demo -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


def newcomer_env(tmp_path: Path) -> dict[str, str]:
    """A newcomer's shell (nothing of the test settings, no deployment settings), with a database
    and a mail folder of its own so that nothing of a developer's demo is touched."""
    dropped = {
        *("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CACHE_URL"),
        *("ALLOWED_HOSTS", "SITE_URL", "HOST", "PORT", "EMAIL_URL", "TASKS_BACKEND"),
    }
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    env["EMAIL_FILE_PATH"] = str(tmp_path / "demo-mail")
    return env


@dataclass
class Demo:
    url: str
    port: int
    output: list[str]


@contextmanager
def running_demo(assignments: dict[str, str], env: dict[str, str]) -> Iterator[Demo]:
    """bin/demo with the README's assignments (its PORT a free one) until it prints its URL and
    answers there; stopped with its server afterwards."""
    port = free_port()
    proc = subprocess.Popen(
        ["bin/demo"],
        cwd=ROOT,
        env={**env, **assignments, "PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: the server's reloader child stops too
    )
    output: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: output.extend(proc.stdout or []), daemon=True)
    reader.start()
    try:
        url = None
        deadline = time.monotonic() + 300  # a loaded CI machine
        while url is None:
            running = [m for line in output if (m := re.search(r"is running at (\S+)", line))]
            if running:
                url = running[0].group(1)
            assert proc.poll() is None, "bin/demo stopped:\n" + "".join(output)
            assert time.monotonic() < deadline, "bin/demo printed no URL:\n" + "".join(output)
            time.sleep(0.2)
        while True:  # the development server starts after the URL is printed
            try:
                with urllib.request.urlopen(url, timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, "bin/demo stopped:\n" + "".join(output)
                assert time.monotonic() < deadline, "no answer at " + url + "\n" + "".join(output)
                time.sleep(0.2)
        yield Demo(url, port, output)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        reader.join(timeout=5)


def mail_folder(folder: Path) -> list[email.message.EmailMessage]:
    messages = []
    for path in sorted(folder.iterdir()):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        assert b"\n" + b"-" * 79 not in path.read_bytes(), f"{path.name}: more than one message"
        messages.append(message)
    return messages


def run_a_night_as_the_readme_says(origin: str) -> Page:
    """Log in as the demo's secretary and press what the README says, in its order."""
    browser = Browser(origin)
    login = browser.get(origin + reverse("login"))
    home = browser.submit(login, "Log in", username="secretary", password="solo-demo")
    assert home.status == 200 and "Log out" in home.text, home.text[:2000]
    nights, who, draw, confirm, new_night = readme_run_it_buttons()
    page = browser.get(origin + "/c/demo/")
    page = browser.get(page.link(nights))
    assert page.link(new_night)
    page = browser.get(page.link(who))
    form, _ = page.form_with("Save who is here")  # the page's form without JavaScript
    ticked = browser.submit(page, "Save who is here", here=form.boxes[:8])
    assert ticked.status == 200 and "8 players: 2 tables of 4" in ticked.text
    page = browser.get(ticked.link(draw))
    page = browser.submit(page, draw)
    assert page.status == 200 and "2 tables" in page.text
    links = browser.submit(page, confirm)
    assert links.status == 200 and "is drawn: 2 tables" in links.text
    return links


def test_the_readmes_demo_commands_run_as_written(tmp_path):
    commands = readme_demo_commands()
    env = newcomer_env(tmp_path)
    lan = next(c for c in commands if c.get("HOST") == "0.0.0.0")
    with running_demo(lan, env) as demo:
        printed = "".join(demo.output)
        host = urllib.parse.urlsplit(demo.url).hostname or ""
        networked = not ipaddress.ip_address(host).is_loopback
        if networked:
            origin = f"http://{host}:{demo.port}"
            assert demo.url == origin + "/c/demo/"
            assert "passwords are public" in printed and "HTTPS or on localhost" in printed
            # A phone on the network: the printed address itself, by its network address.
            page = Browser(origin).get(demo.url)
            assert page.status == 200 and CLUB_NAME in page.text
            assert status_with_host(demo.port, f"{host}:{demo.port}") == 200
            assert status_with_host(demo.port, f"solo.attacker.example:{demo.port}") == 400
            # The secretary runs a night on the address phones reach; its QR codes carry it.
            links = run_a_night_as_the_readme_says(origin)
            table_urls = [href for _, href in links.links if "/t/" in href]
            assert len(table_urls) == 2 and all(u.startswith(origin + "/t/") for u in table_urls)
            table = Browser(origin).get(table_urls[0])  # the phone at table 1, no login
            assert table.status == 200 and "Table 1" in table.text
        else:
            assert "Found no network address" in printed
            origin = demo.url.removesuffix("/c/demo/")
        # The demo's emails: one file a message, as many as it says it sent, their links to the
        # address it serves on.
        said = re.search(r"(\d+) results emails sent", printed)
        assert said, printed
        sent = int(said.group(1))
        messages = mail_folder(tmp_path / "demo-mail")
        assert sent > 0 and len(messages) == sent
        for message in messages:
            body = message.get_body(("plain",))
            assert body is not None
            links_in_mail = re.findall(r"https?://[^\s/]+", body.get_content())
            assert links_in_mail and set(links_in_mail) == {origin}

    other_port = next(c for c in commands if set(c) == {"PORT"})
    with running_demo(other_port, env) as demo:
        assert demo.url == f"http://127.0.0.1:{demo.port}/c/demo/"
        page = Browser(demo.url).get(demo.url)
        assert page.status == 200 and CLUB_NAME in page.text
        # Without HOST, the demo answers this machine only.
        if networked:
            assert status_with_host(demo.port, f"{host}:{demo.port}") == 400
    if not networked:
        pytest.skip("this machine has no network address: the phones' part was not tried")
