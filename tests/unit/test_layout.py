"""The package's layout stays readable: no import cycles between its modules, not even through
imports inside functions, no module longer than a few hundred lines, no function longer than
a screen."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "legate_fuse"
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 60


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, anywhere in its code (compiled modules
    count by their stubs)."""
    sources = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(sources) | {module_name(p) for p in PACKAGE.rglob("*.pyi")}
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, path in sources.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                # `from package import module` imports that module, not the package's others.
                named = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = named or ([base] if base in modules else [])
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name in modules]
            else:
                continue
            graph[name].update(t for t in targets if t != name and t in graph)
    return graph


def cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A path of imports from `start` back to itself, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        module, path = stack.pop()
        for target in graph[module]:
            if target == start:
                return [*path, start]
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def test_no_import_cycles() -> None:
    graph = import_graph()
    assert len(graph) > 20
    cycles = [c for c in (cycle_through(graph, m) for m in sorted(graph)) if c is not None]
    assert cycles == []


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_through(graph, "a") == ["a", "b", "c", "a"]
    assert cycle_through(graph, "d") is None


def test_modules_are_short() -> None:
    lengths = {module_name(p): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    assert {m: n for m, n in lengths.items() if n > MAX_MODULE_LINES} == {}


def test_functions_are_short() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{module_name(path)}.{node.name}: {lines} lines")
    assert long == []
