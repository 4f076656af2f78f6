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
