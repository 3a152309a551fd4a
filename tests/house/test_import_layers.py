"""Imports go one way, down the layers (views -> services/queries -> models -> scoring, in the
order docs/architecture.md's table gives): no module imports one of a higher layer, none imports,
even inside a function, a module that imports it back, directly or round a longer circle; and
scoring/ never imports Django or the app.

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
    assert found == [["club.money.services.publish", "club.tasks"]]


def layer_table(guide: Path | None = None) -> list[tuple[str, list[str]]]:
    """The layers, top first, as docs/architecture.md's table lists them: each row's name and the
    module prefixes of the paths it names (`club/views/` -> club.views, `club/grades/display/tables.py` ->
    club.grades.display.tables)."""
    text = (guide or ROOT / "docs" / "architecture.md").read_text()
    section = text.split("| layer | modules |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in section.splitlines()[2:]:
        name, paths = (cell.strip() for cell in line.strip().strip("|").split("|"))
        prefixes = [
            path.removesuffix("/").removesuffix(".py").replace("/", ".")
            for path in re.findall(r"`([^`]+)`", paths)
        ]
        rows.append((name, prefixes))
    return rows


def _layer_of(module: str, table: list[tuple[str, list[str]]]) -> int | None:
    """The row (0 = top) of the longest prefix that holds the module."""
    best: tuple[int, int] | None = None
    for rank, (_, prefixes) in enumerate(table):
        for prefix in prefixes:
            holds = module == prefix or module.startswith(prefix + ".")
            if holds and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank)
    return None if best is None else best[1]


def upward_imports(
    graph: dict[str, dict[str, int]], table: list[tuple[str, list[str]]]
) -> list[str]:
    """Every import of a module of a higher layer, and every module no row places (except an
    empty package __init__, which imports nothing and so cannot break the order)."""
    found = []
    for module in sorted(graph):
        low = _layer_of(module, table)
        if low is None:
            if graph[module] or _has_code(module):
                found.append(f"{module}: no layer of docs/architecture.md holds it")
            continue
        for target, line in sorted(graph[module].items()):
            high = _layer_of(target, table)
            if high is None:
                continue  # reported as a module of its own
            if high < low:
                found.append(
                    f"{module} ({table[low][0]}) imports {target} ({table[high][0]}) at line {line}"
                )
    return found


def _has_code(module: str) -> bool:
    path = _modules()[module]
    return bool(ast.parse(path.read_text()).body)


def test_no_module_imports_one_of_a_higher_layer():
    found = upward_imports(import_graph(), layer_table())
    assert not found, "Imports up the layers:\n  " + "\n  ".join(found)


def test_every_layer_names_code_that_exists():
    for name, prefixes in layer_table():
        for prefix in prefixes:
            path = ROOT / prefix.replace(".", "/")
            assert path.is_dir() or path.with_suffix(".py").is_file(), f"{name}: {prefix}"


def test_the_layer_check_finds_a_sheet_importing_a_page(tmp_path, monkeypatch):
    """The test above can fail: a printed sheet importing a view, even inside a function, and a
    module the table does not place."""
    for folder in ("club", "club/views", "club/pdf", "club/queries", "scoring"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "club" / "views" / "standings.py").write_text("from club.queries import q\n")
    (tmp_path / "club" / "queries" / "q.py").write_text("import scoring\n")
    (tmp_path / "club" / "pdf" / "sheets.py").write_text(
        "def chart():\n    from club.grades.views.standings import q\n    return q\n"
    )
    (tmp_path / "club" / "stray.py").write_text("from club.queries import q\n")
    guide = tmp_path / "architecture.md"
    guide.write_text(
        "| layer | modules |\n|---|---|\n"
        "| views | `club/views/` |\n| sheets | `club/pdf/` |\n"
        "| queries | `club/queries/` |\n| scoring | `scoring/` |\n\nAfter.\n"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    found = upward_imports(import_graph(), layer_table(guide))
    assert found == [
        "club.grades.pdf.sheets (sheets) imports club.grades.views.standings (views) at line 2",
        "club.stray: no layer of docs/architecture.md holds it",
    ]
