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
LOAD_FAILED = "Failed to load resource"
# Pages and the app's own requests may answer 404 on purpose (a revoked link, another club's
# id); a script, a style sheet, an image or the icon never should.
PAGE_REQUESTS = ("document", "xhr", "fetch")


@pytest.fixture
def page(page):
    """Every browser test fails if the console reports an error: anything Chromium refuses under
    the Content Security Policy ("Refused to apply inline style ..."), a resource that failed to
    load (a 404 favicon), an uncaught script error. The lists are `page.csp_violations` and
    `page.console_errors`; a test that provokes an error on purpose (the connection dropped)
    clears `page.console_errors` itself."""
    violations: list[str] = []
    errors: list[str] = []

    def on_console(message) -> None:
        _note_violation(violations, message.text)
        text = message.text
        # A refused request is judged by its response below (a 409 or 422 is the app answering).
        if message.type == "error" and CSP_WORDS not in text and not text.startswith(LOAD_FAILED):
            errors.append(text)

    def on_response(response) -> None:
        kind = response.request.resource_type
        if response.status >= 500 or (response.status == 404 and kind not in PAGE_REQUESTS):
            errors.append(f"{response.status} for {kind} {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.csp_violations = violations
    page.console_errors = errors
    yield page
    assert violations == [], f"Content Security Policy violations: {violations}"
    assert errors == [], f"Console errors: {errors}"


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
