"""The package's layout stays readable: no import cycles between its modules, not even through
imports inside functions, no module longer than a few hundred lines, no function longer than
a screen."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
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


def test_the_capture_does_not_import_later_stages() -> None:
    """Data flows from the capture to the window, the plan and the backend: the capture
    imports none of them (what it records is capture/task_record.py's)."""
    later = ("legate_fuse.window", "legate_fuse.plan", "legate_fuse.backend")
    found = {(module, target) for module, targets in import_graph().items()
             if module.startswith("legate_fuse.capture") for target in targets
             if target.startswith(later)}
    assert found == set()


def test_the_startup_module_imports_nothing_of_the_package() -> None:
    """Every process of the environment imports the package and _autoload.py at start-up
    (legate_fuse.pth): with fusion off, nothing else of the package may load."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    program = ("import sys, legate_fuse._autoload\n"
               "print(sorted(m for m in sys.modules if m.startswith('legate_fuse')))")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=environ, timeout=60, check=True)
    assert result.stdout.strip() == "['legate_fuse', 'legate_fuse._autoload']"
