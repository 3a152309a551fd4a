"""Playwright in Debian's Chromium (headless) against pytest-django's live server."""

from __future__ import annotations

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM calls beside it are safe
# here because the test and the live server use separate connections.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


CSP_WORDS = "Content Security Policy"


@pytest.fixture
def page(page):
    """Every browser test fails if Chromium refuses anything under the Content Security Policy
    (it says so on the console: "Refused to apply inline style because it violates the
    following Content Security Policy directive ..."). The list is `page.csp_violations`."""
    violations: list[str] = []
    page.on("console", lambda message: _note_violation(violations, message.text))
    page.csp_violations = violations
    yield page
    assert violations == [], f"Content Security Policy violations: {violations}"


def _note_violation(violations: list[str], text: str) -> None:
    if CSP_WORDS in text:
        violations.append(text)


@pytest.fixture
def logged_in(page, live_server, secretary):
    """A page logged in as the club's secretary."""
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sec")
    page.fill("#id_password", "pw-sec")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


@pytest.fixture
def axe():
    """`axe(page)` fails the test when axe-core finds a violation on the page as it stands
    (the same as `a11y.assert_no_axe_violations`)."""
    from a11y import assert_no_axe_violations

    return assert_no_axe_violations
