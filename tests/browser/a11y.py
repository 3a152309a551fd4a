"""axe-core in the browser tests: `assert_no_axe_violations(page)` runs the vendored axe-core
(tests/browser/vendor/axe.min.js, axe-core 4.14.1 from npm, MPL-2.0, see vendor/README.md) on
the page as it stands and fails with every violation, its rule, help link and the offending
elements, so that a page type that gains a violation fails its test.

Call it from any browser test after the page has loaded (and again after a swap that draws new
controls):

    from a11y import assert_no_axe_violations  # tests/browser is on sys.path
    assert_no_axe_violations(page)

or use the `axe` fixture from conftest.py: `axe(page)`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_JS = Path(__file__).parent / "vendor" / "axe.min.js"

# WCAG 2.1 A and AA, and axe's best practices (landmarks, heading order, scrollable regions).
DEFAULT_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice")


@functools.cache
def _axe_source() -> str:
    return AXE_JS.read_text(encoding="utf-8") + "\n;true"


def axe_violations(
    page: Page, *, context: str | None = None, disable: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """The violations axe-core finds on the page (or within the CSS selector `context`)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol rather than added as a <script>: the app's
        # Content Security Policy (script-src 'self') rightly refuses an inline script tag.
        page.evaluate(_axe_source())
    options = {
        "runOnly": {"type": "tag", "values": list(DEFAULT_TAGS)},
        "rules": {rule: {"enabled": False} for rule in disable},
        "resultTypes": ["violations"],
    }
    return page.evaluate(
        "([context, options]) => axe.run(context || document, options)"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " helpUrl: v.helpUrl, nodes: v.nodes.map(n => ({target: n.target.join(' '),"
        " summary: n.failureSummary}))})))",
        [context, options],
    )


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} <{v['helpUrl']}>")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {' '.join((node['summary'] or '').split())}")
    return "\n".join(lines)


def assert_no_axe_violations(
    page: Page, *, context: str | None = None, disable: tuple[str, ...] = ()
) -> None:
    """Fail with a readable list when axe-core finds any violation on the page.

    `disable` names rules to skip (say why at the call site); `context` limits the check to the
    elements matching a CSS selector."""
    violations = axe_violations(page, context=context, disable=disable)
    assert not violations, f"axe-core found on {page.url}:\n{describe(violations)}"
