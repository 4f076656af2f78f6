"""The documents stay true to the code: the settings' tables and sections come from the table of
settings, docs/ARCHITECTURE.md names every module, and every document cited exists."""

from __future__ import annotations

import re
from pathlib import Path

from legate_fuse import settings

ROOT = Path(__file__).resolve().parents[2]


def sections(text: str, level: str = "##") -> dict[str, str]:
    """The sections of a markdown text by heading (of exactly `level`), in order."""
    parts = re.split(rf"^{level} (.+)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_readme_settings_table_is_the_table_of_settings() -> None:
    readme = (ROOT / "README.md").read_text()
    table = settings.markdown_table()
    assert table in readme, "the README's settings table: paste `python -m legate_fuse --markdown`"
    # The settings table is the README's only table of variables (no second, stale one).
    assert readme.count("| variable | default |") == 1


def test_settings_doc_has_one_section_per_setting_with_its_default() -> None:
    doc = sections((ROOT / settings.SETTINGS_DOC).read_text())
    assert list(doc) == [s.name for s in settings.ALL_SETTINGS]
    for setting in settings.ALL_SETTINGS:
        default = setting.default_text()
        first_line = doc[setting.name].strip().splitlines()[0]
        assert first_line in (f"Default: {default}.", f"Default: `{default}`."), setting.name


def test_readme_opens_with_the_quick_start_and_a_short_status() -> None:
    readme = (ROOT / "README.md").read_text()
    top = readme.split("\n## Using it")[0]
    assert "scripts/demo.sh" in top and "scripts/test.sh" in top
    status = sections(readme)["Status"].strip().splitlines()
    assert len(status) < 15, "the README's status: details go to docs/STATUS.md"


def package_files() -> list[Path]:
    """Every module of the packages (with their stubs and start-up file) and of the C++ core."""
    files = [p for package in ("legate_fuse", "legate_csr") for p in (ROOT / package).rglob("*")
             if p.suffix in (".py", ".pyi", ".pth")]
    files += [p for p in (ROOT / "src" / "cpp").rglob("*") if p.suffix in (".h", ".cc")]
    return sorted(p for p in files if "__pycache__" not in p.parts)


def is_named(path: Path, text: str) -> bool:
    """Whether `text` names `path` by its path from the root (a C++ file also as `stem.*`)."""
    relative = path.relative_to(ROOT)
    return str(relative) in text or (
        path.suffix in (".h", ".cc") and f"{relative.with_suffix('')}.*" in text)


def test_architecture_names_every_module() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    unnamed = [str(p.relative_to(ROOT)) for p in package_files() if not is_named(p, text)]
    assert unnamed == [], "name them in docs/ARCHITECTURE.md's *Every module*"


# A path into the repository's own code or tests, as the documents write them (`stem.*` for a
# C++ header and its source).
CODE_PATH = re.compile(r"(?<![\w/.:-])(?:legate_fuse|src/cpp|tests|scripts|docs)/[\w/.-]*[\w/*]")


def test_documents_name_only_files_that_exist() -> None:
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        named = set(CODE_PATH.findall(document.read_text()))
        missing = sorted(p for p in named if not any(ROOT.glob(p.rstrip("/"))))
        assert missing == [], document.name


def test_readme_layout_names_every_folder_and_file() -> None:
    layout = sections((ROOT / "README.md").read_text())["Layout"].split("```")[1]
    words = set(re.findall(r"[\w.]+/?", layout))
    unnamed = [str(p.relative_to(ROOT)) for p in package_files()
               if p.name not in words and p.stem not in words]
    unnamed += [f"{d.name}/" for p in package_files() for d in [p.parent]
                if d not in (ROOT / "legate_fuse", ROOT / "legate_csr", ROOT / "src" / "cpp")
                and f"{d.name}/" not in words]
    assert sorted(set(unnamed)) == []


# The repository's own texts, where a document may be cited; not the copies of others' files.
CITING = ("README.md", "CMakeLists.txt", "pyproject.toml", "docs", "legate_fuse", "src",
          "tests", "bench", "scripts", "cmake")
NOT_OURS = ("tests/conformance/cupynumeric-26.06", "bench/examples/")
TEXT_SUFFIXES = {".md", ".py", ".pyi", ".h", ".cc", ".c", ".sh", ".txt", ".toml", ".in",
                 ".cmake", ".ini", ".pth"}
# A markdown file's name (with any folders before it) or a path under docs, not inside a URL.
CITATION = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)*[\w-]+\.md|docs/[\w./-]*\w)")


def citing_files() -> list[Path]:
    files = []
    for top in CITING:
        path = ROOT / top
        for p in [path] if path.is_file() else path.rglob("*"):
            relative = str(p.relative_to(ROOT))
            if (p.suffix in TEXT_SUFFIXES or p.name == "CMakeLists.txt") and p.is_file() \
                    and "__pycache__" not in p.parts and not relative.startswith(NOT_OURS):
                files.append(p)
    return files


def test_every_document_cited_exists() -> None:
    files = citing_files()
    documents = {p.name for p in files if p.suffix == ".md"}
    assert {"README.md", "ARCHITECTURE.md"} <= documents
    missing = []
    for path in files:
        for cited in CITATION.findall(path.read_text(errors="replace")):
            # From the root or from the citing file's folder; a bare name anywhere.
            found = (ROOT / cited).exists() or (path.parent / cited).exists() or (
                "/" not in cited and cited in documents)
            if not found:
                missing.append(f"{path.relative_to(ROOT)}: {cited}")
    assert missing == []
