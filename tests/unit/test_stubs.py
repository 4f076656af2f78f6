"""The hand-written stubs of the compiled modules (legate_fuse/_core.pyi, _tasks.pyi) match them.

mypy's stubtest compares the repository's stubs with the installed modules (names, classes,
properties, enums). It cannot compare signatures: it reads `__text_signature__`, which pybind11
does not set; pybind11 writes each function's signature as the first line of its docstring
instead, and the second test compares those with the stubs' parameters, defaults and types.
Importing `_tasks` loads Legate's library but starts no runtime, so both modules are checked.
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "legate_fuse"
MODULES = ("_core", "_tasks")
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")
# Parameters the stubs type more narrowly than the binding, and why: (function, parameter).
NARROWER = {
    # Bound as py::object and only asked `key in live_roots`; the plugin passes a set.
    ("Analyzer.analyze", "live_roots"),
    ("Analyzer.choose_cut", "live_roots"),
    # Likewise `key in foreign_roots`: a set, or a container of every key.
    ("Analyzer.analyze", "foreign_roots"),
}


def test_stubtest_finds_no_difference(tmp_path: Path) -> None:
    # The stubs alone in a folder of their own: mypy then reads no other module of the package
    # (which would take it through all of legate_fuse), and the compiled modules are imported
    # from the installed package, as every test imports them.
    stubs = tmp_path / "stubs" / "legate_fuse"
    stubs.mkdir(parents=True)
    (stubs / "__init__.pyi").write_text("")
    for name in MODULES:
        shutil.copy(PACKAGE / f"{name}.pyi", stubs)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nmypy_path = {stubs.parent}\n")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", str(config),
         "--allowlist", str(ALLOWLIST), "--concise", *(f"legate_fuse.{m}" for m in MODULES)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def normalized(annotation: ast.expr | None) -> str:
    """A type as the stubs write it: pybind11 names modules and accepts int-like objects."""
    text = "None" if annotation is None else ast.unparse(annotation)
    for module in ("legate_fuse._core.", "collections.abc.", "typing."):
        text = text.replace(module, "")
    return text.replace("SupportsInt | SupportsIndex", "int")


def stub_functions(module: str) -> Iterator[tuple[str, ast.FunctionDef]]:
    """(qualified name, definition) of every function and method the stub declares, but
    properties (pybind11 gives them no signature) and what exists only for type checkers."""
    tree = ast.parse((PACKAGE / f"{module}.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                decorators = {ast.unparse(d) for d in getattr(item, "decorator_list", [])}
                if isinstance(item, ast.FunctionDef) and "property" not in decorators:
                    yield f"{node.name}.{item.name}", item


def runtime_signature(module: ModuleType, qualified: str) -> ast.FunctionDef:
    obj: object = module
    for part in qualified.split("."):
        obj = getattr(obj, part)
    first_line = (getattr(obj, "__doc__", None) or "").partition("\n")[0]
    match = re.fullmatch(r"(\w+)\((.*)\) -> (.+)", first_line)
    assert match, f"{qualified}: no pybind11 signature in its docstring: {first_line!r}"
    parsed = ast.parse(f"def {match[1]}({match[2]}) -> {match[3]}: ...").body[0]
    assert isinstance(parsed, ast.FunctionDef)
    return parsed


def parameters(function: ast.FunctionDef) -> list[tuple[str, str, str]]:
    """(name, type, default) of each parameter but `self`."""
    args = [a for a in function.args.args if a.arg != "self"]
    defaults = [None] * (len(args) - len(function.args.defaults)) + function.args.defaults
    return [(a.arg, normalized(a.annotation), "" if d is None else ast.unparse(d))
            for a, d in zip(args, defaults, strict=True)]


@pytest.mark.parametrize("module_name", MODULES)
def test_stub_signatures_are_the_bindings(module_name: str) -> None:
    module = importlib.import_module(f"legate_fuse.{module_name}")
    checked, narrowed = 0, set()
    for qualified, stub in stub_functions(module_name):
        runtime = runtime_signature(module, qualified)
        expected, declared = parameters(runtime), parameters(stub)
        assert [(n, d) for n, _, d in declared] == [(n, d) for n, _, d in expected], qualified
        for (name, stub_type, _), (_, runtime_type, _) in zip(declared, expected, strict=True):
            if (qualified, name) in NARROWER:
                narrowed.add((qualified, name))
            else:
                assert stub_type == runtime_type, f"{qualified}({name})"
        assert normalized(stub.returns) == normalized(runtime.returns), qualified
        checked += 1
    assert checked >= 4
    assert narrowed == {n for n in NARROWER if hasattr(module, n[0].split(".")[0])}
