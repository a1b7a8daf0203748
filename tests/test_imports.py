"""No module under ``src/ludoteca`` imports another in a cycle, imports under ``if TYPE_CHECKING:``
included: the layers stay one-directional, core <- games <- bots <- server <- cli, inside a game
rules <- notation <- view, bot <- game, and inside the server its sub-packages in the order of
``SERVER_LAYERS`` (``docs/server.md``).

The graph is read from the source with ``ast``, every import counted wherever it is written (inside
a function too). Importing ``a.b.c`` runs the packages ``a`` and ``a.b`` first, so it counts as
importing them, except those the importing module is itself inside (they are already running).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name (a package by its own name)."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typing: bool) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if not typing and isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def import_graph(root: Path, package: str, typing: bool = True) -> dict[str, set[str]]:
    """For each module of ``package``, the modules of ``package`` that importing it runs, and
    (``typing``) those it imports for its types only."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), typing):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in modules else base)
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                step = ".".join(parts[:i])
                inside = name == step or name.startswith(step + ".")
                if step in modules and step != name and (i == len(parts) or not inside):
                    graph[name].add(step)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_under_ludoteca_imports_another_in_a_cycle() -> None:
    graph = import_graph(SRC, "ludoteca")
    assert "ludoteca.games.heroes.rules" in graph
    assert "ludoteca.core" in graph["ludoteca.games.heroes.rules"]
    assert cycles(graph) == []


SERVER_LAYERS = (
    ("config",),
    ("logs",),
    ("messages",),
    ("storage", "signing"),
    ("migrations", "cluster", "guards", "analysis", "background", "publog"),
    ("table",),
    ("lobby", "notify", "accounts", "chat"),
    ("realtime", "site", "social"),
    ("api",),
    ("app",),
    ("main",),
)
"""The server's sub-packages and top modules, lowest first: each imports only from the layers
below its own (``docs/server.md`` has the map)."""


def server_layer_problems(
    graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...]
) -> list[str]:
    """Each import between two server parts that does not point down the layers."""
    level = {part: i for i, names in enumerate(layers) for part in names}

    def part(module: str) -> str | None:
        names = module.split(".")
        return names[2] if names[:2] == ["ludoteca", "server"] and len(names) > 2 else None

    problems = []
    for module, targets in sorted(graph.items()):
        here = part(module)
        for target in sorted(targets):
            there = part(target)
            if here is None or there is None or here == there:
                continue
            if here not in level or there not in level:
                problems.append(f"{module} -> {target}: a part missing from SERVER_LAYERS")
            elif level[there] >= level[here]:
                problems.append(f"{module} -> {target}: {here} may not import {there}")
    return problems


def test_the_server_s_parts_import_only_downwards() -> None:
    graph = import_graph(SRC, "ludoteca")
    assert "ludoteca.server.table.table" in graph["ludoteca.server.lobby.lobby"]
    assert server_layer_problems(graph, SERVER_LAYERS) == []
    found = {p for names in SERVER_LAYERS for p in names}
    server = SRC / "ludoteca" / "server"
    on_disk = {p.stem for p in server.glob("*.py")} | {
        p.name for p in server.iterdir() if p.is_dir()
    }
    assert on_disk - {"__init__", "__pycache__"} == found


def test_the_layer_check_finds_an_import_upwards() -> None:
    graph = {
        "ludoteca.server.table.ledger": {"ludoteca.server.lobby.lobby"},
        "ludoteca.server.lobby.lobby": set(),
    }
    assert server_layer_problems(graph, (("table",), ("lobby",))) == [
        "ludoteca.server.table.ledger -> ludoteca.server.lobby.lobby: table may not import lobby"
    ]
    assert server_layer_problems(graph, (("lobby",), ("table",))) == []


def test_inside_a_game_the_rules_import_no_notation_view_or_bot() -> None:
    graph = import_graph(SRC, "ludoteca")
    packages = sorted(
        m[: -len(".game")] for m in graph if m.startswith("ludoteca.games.") and m.endswith(".game")
    )
    assert {"ludoteca.games.heroes", "ludoteca.games.dwarves"} <= set(packages)
    for package in packages:
        glue = {f"{package}.{m}" for m in ("game", "notation", "view", "bot")} | {package}
        rules = {m for m in graph if m.startswith(package + ".") and m not in glue}
        assert f"{package}.rules" in rules
        for module in rules:
            assert not graph[module] & glue, (module, graph[module] & glue)
        assert not graph[f"{package}.notation"] & (glue - {package})
        assert f"{package}.view" not in graph[f"{package}.bot"]


def test_the_check_finds_a_cycle_through_a_function_import_and_through_type_checking(
    tmp_path: Path,
) -> None:
    pkg = tmp_path / "demo"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .b import B\n")
    (pkg / "a.py").write_text("from demo.sub import b\n")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from demo import a\nB = 1\n"
    )
    (pkg / "c.py").write_text("from . import a\n")
    assert cycles(import_graph(tmp_path, "demo", typing=False)) == []
    assert cycles(import_graph(tmp_path, "demo")) == [["demo.a", "demo.sub", "demo.sub.b"]]
    (pkg / "sub" / "b.py").write_text("B = 1\n\ndef late():\n    from ..c import x\n")
    graph = import_graph(tmp_path, "demo", typing=False)
    assert graph["demo.a"] == {"demo.sub", "demo.sub.b"}
    assert cycles(graph) == [["demo.a", "demo.c", "demo.sub", "demo.sub.b"]]


def test_the_accounts_package_imports_neither_the_http_layer_nor_itself_in_a_cycle() -> None:
    """Issue 33: ``accounts/service.py`` took ``TooMany`` from ``api/deps.py`` and
    ``accounts/passkeys.py`` took ``SignedIn`` from ``service.py`` (for types only). Every import
    counts here, those under ``if TYPE_CHECKING:`` too."""
    package = SRC / "ludoteca" / "server" / "accounts"
    named: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                found.add("." * node.level + module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        named[path.stem] = found
    assert "ludoteca.server.messages" in named["service"]
    for module, imports in named.items():
        assert not {i for i in imports if i.startswith(("ludoteca.server.api", ".."))}, module
    assert ".service" not in named["passkeys"]
