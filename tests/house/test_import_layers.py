"""Imports go one way, down: down the apps (docs/architecture.md's table "The apps", top first:
the project, operations, ... clubs, core, lib, scoring) and, inside and across them, down the
layers of an app (its table "Inside an app": views -> forms -> services and queries -> models).
No module imports one of a higher app or a higher layer; none imports, even inside a function, a
module that imports it back, directly or round a longer circle; and scoring/ never imports Django
or the app.

Read from the source with `ast`, not by importing, so an import hidden in a function body (which
Python runs late and which hides a circle until that function is called) counts like any other.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("club", "scoring")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The app's modules this one imports (at any depth of the file), with the line."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from club.services import hands` names a module; `from club.models import Club`
            # names something in the package club.models.
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            while name and name not in known:  # `import club.play.views.hands.x` -> the module
                name = name.rpartition(".")[0]
            if name and name != module:
                yield name, node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    known = _modules()
    graph: dict[str, dict[str, int]] = {name: {} for name in known}
    for module, path in known.items():
        for target, line in _imported(module, path, known):
            graph[module].setdefault(target, line)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _describe(component: list[str], graph: dict[str, dict[str, int]]) -> str:
    inside = set(component)
    edges = [
        f"  {source} -> {target} (line {line})"
        for source in component
        for target, line in sorted(graph[source].items())
        if target in inside
    ]
    return "\n".join([" <-> ".join(component), *edges])


def test_no_import_circles_among_the_apps_modules():
    graph = import_graph()
    found = circles(graph)
    assert not found, "Import circles:\n" + "\n\n".join(_describe(c, graph) for c in found)


def test_the_scoring_core_imports_neither_django_nor_the_app():
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in ("django", "club"), f"{path}:{node.lineno}"


def test_the_checker_finds_a_circle_made_by_a_function_level_import(tmp_path, monkeypatch):
    """The test above can fail: two modules, one importing the other inside a function."""
    package = tmp_path / "club"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tasks.py").write_text("from club.services import publish\n")
    (package / "services").mkdir()
    (package / "services" / "__init__.py").write_text("")
    (package / "services" / "publish.py").write_text(
        "def later():\n    from club import tasks\n    return tasks\n"
    )
    (tmp_path / "scoring").mkdir()
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    found = circles(import_graph())
    assert found == [["club.services.publish", "club.tasks"]]


def _table(heading: str, guide: Path | None = None) -> list[tuple[str, list[str]]]:
    """A table of docs/architecture.md whose header row starts `| <heading> |`, top row first:
    each row's name and the backquoted names in its second cell."""
    text = (guide or ROOT / "docs" / "architecture.md").read_text()
    section = text.split(f"| {heading} |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in section.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
    return rows


def app_table(guide: Path | None = None) -> list[tuple[str, list[str]]]:
    """The apps, top first: each row's packages as module prefixes (`club/play/` -> club.play)."""
    return [
        (name, [p.removesuffix("/").removesuffix(".py").replace("/", ".") for p in paths])
        for name, paths in _table("app", guide)
    ]


def layer_table(guide: Path | None = None) -> list[tuple[str, list[str]]]:
    """The layers inside an app, top first: each row's sub-package names (`views/` -> views)."""
    return [
        (name, [p.removesuffix("/").removesuffix(".py") for p in paths])
        for name, paths in _table("layer", guide)
    ]


def _rank(module: str, table: list[tuple[str, list[str]]]) -> int | None:
    """The row (0 = top) of the longest prefix that holds the module."""
    best: tuple[int, int] | None = None
    for rank, (_, prefixes) in enumerate(table):
        for prefix in prefixes:
            holds = module == prefix or module.startswith(prefix + ".")
            if holds and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank)
    return None if best is None else best[1]


def _layer(module: str, apps: list[tuple[str, list[str]]], layers) -> int | None:
    """The layer of a module of a Django app (a package with an apps.py): that of the first part
    of its path below the app's package that a row names (club.play.views.nights -> views,
    club.play.urls -> urls); None outside the apps (the project's modules, core, lib and scoring
    are each a row of the apps' table, with no layers inside)."""
    app = _rank(module, apps)
    if app is None:
        return None
    holding = [p for p in apps[app][1] if module == p or module.startswith(p + ".")]
    package = max(holding, key=len)
    if not (ROOT / package.replace(".", "/") / "apps.py").is_file() or module == package:
        return None
    first = module[len(package) + 1 :].split(".")[0]
    for rank, (_, names) in enumerate(layers):
        if first in names:
            return rank
    return None


def upward_imports(
    graph: dict[str, dict[str, int]],
    apps: list[tuple[str, list[str]]],
    layers: list[tuple[str, list[str]]],
) -> list[str]:
    """Every import of a module of a higher app or of a higher layer, and every module that no
    app holds, or that sits loose at the top of an app (except an empty package __init__)."""
    found = []
    for module in sorted(graph):
        low = _rank(module, apps)
        if low is None:
            if graph[module] or _has_code(module):
                found.append(f"{module}: no app of docs/architecture.md holds it")
            continue
        mine = _layer(module, apps, layers)
        for target, line in sorted(graph[module].items()):
            high = _rank(target, apps)
            if high is None:
                continue  # reported as a module of its own
            if high < low:
                found.append(
                    f"{module} ({apps[low][0]}) imports {target} ({apps[high][0]}) at line {line}"
                )
                continue
            theirs = _layer(target, apps, layers)
            if mine is not None and theirs is not None and theirs < mine:
                found.append(
                    f"{module} ({layers[mine][0]}) imports {target} ({layers[theirs][0]}) "
                    f"at line {line}"
                )
    return found


def _has_code(module: str) -> bool:
    path = _modules()[module]
    return bool(ast.parse(path.read_text()).body)


def test_no_module_imports_one_of_a_higher_app_or_layer():
    found = upward_imports(import_graph(), app_table(), layer_table())
    assert not found, "Imports up the apps or the layers:\n  " + "\n  ".join(found)


def test_every_app_names_code_that_exists():
    for name, prefixes in app_table():
        for prefix in prefixes:
            path = ROOT / prefix.replace(".", "/")
            assert path.is_dir() or path.with_suffix(".py").is_file(), f"{name}: {prefix}"


APPS_TOP = {"apps.py", "urls.py", "admin.py", "models.py", "__init__.py"}


def test_no_loose_module_at_the_top_of_an_app():
    """An app's top holds apps.py, urls.py, admin.py and models.py; its other modules sit in a
    folder a reader can name (views/, services/, queries/...)."""
    loose = []
    for _name, prefixes in app_table():
        for prefix in prefixes:
            folder = ROOT / prefix.replace(".", "/")
            if not (folder / "apps.py").is_file() or prefix == "club":
                continue
            loose += [
                str(path.relative_to(ROOT))
                for path in sorted(folder.glob("*.py"))
                if path.name not in APPS_TOP
            ]
    assert not loose, "Loose modules at the top of an app: " + ", ".join(loose)


def test_no_module_is_over_600_lines():
    long = [
        f"{path.relative_to(ROOT)} ({n} lines)"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and (n := len(path.read_text().splitlines())) > 600
    ]
    assert not long, "Modules over 600 lines: " + ", ".join(long)


def test_the_order_check_finds_imports_up_the_apps_and_the_layers(tmp_path, monkeypatch):
    """The test above can fail: a model of clubs importing play, a service importing a view of
    its own app, even inside a function, and a module no app holds."""
    for folder in (
        "club",
        "club/clubs",
        "club/clubs/models",
        "club/play",
        "club/play/views",
        "club/play/services",
        "scoring",
    ):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "club" / "clubs" / "models" / "clubs.py").write_text(
        "from club.play.services import hands\n"
    )
    (tmp_path / "club" / "play" / "views" / "nights.py").write_text(
        "from club.play.services import hands\nfrom club.clubs.models import clubs\n"
    )
    (tmp_path / "club" / "play" / "services" / "hands.py").write_text(
        "def later():\n    from club.play.views import nights\n    return nights\n"
    )
    for app in ("club/clubs", "club/play"):
        (tmp_path / app / "apps.py").write_text("")
    guide = tmp_path / "architecture.md"
    guide.write_text(
        "| app | packages |\n|---|---|\n"
        "| play | `club/play/` |\n| clubs | `club/clubs/` |\n| scoring | `scoring/` |\n\n"
        "| layer | folders |\n|---|---|\n"
        "| views | `views/` |\n| services | `services/` |\n| models | `models/` |\n\nAfter.\n"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    module = __import__(__name__, fromlist=["PACKAGES"])
    monkeypatch.setattr(module, "PACKAGES", ("club", "scoring"))
    (tmp_path / "club" / "stray.py").write_text("import scoring\n")
    found = upward_imports(import_graph(), app_table(guide), layer_table(guide))
    assert found == [
        "club.clubs.models.clubs (clubs) imports club.play.services.hands (play) at line 1",
        "club.play.services.hands (services) imports club.play.views.nights (views) at line 2",
        "club.stray: no app of docs/architecture.md holds it",
    ]
