import dataclasses
import os
import re
import subprocess
import sys
import typing
from typing import Any

import pytest

from legate_fuse import settings
from legate_fuse.__main__ import main
from legate_fuse.settings import SettingError


def test_defaults_when_nothing_is_set() -> None:
    config = settings.load({})
    assert (config.enabled, config.window_size, config.stats, config.log_level) == (
        False, 256, "", "warning")
    assert config.c_compiler == "cc" and config.cache_dir.endswith("legate-fuse")


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("0", False), (" 1 ", True), ("", False)]
)
def test_switch_values(raw: str, expected: bool) -> None:
    assert settings.load({"LEGATE_FUSE": raw}).enabled is expected


@pytest.mark.parametrize("raw", ["yes", "true", "2", "on", "-1"])
def test_unknown_switch_value_names_accepted_values(raw: str) -> None:
    with pytest.raises(SettingError, match=r"LEGATE_FUSE=.*accepted values: 0 \(off\), 1 \(on\)"):
        settings.load({"LEGATE_FUSE": raw})


def test_config_fields_are_the_table_of_settings() -> None:
    fields = dataclasses.fields(settings.Config)
    assert [s.field for s in settings.ALL_SETTINGS] == [f.name for f in fields]
    names = [s.name for s in settings.ALL_SETTINGS]
    assert len(set(names)) == len(names) == len(fields)
    hints = typing.get_type_hints(settings.Config)
    for s, f in zip(settings.ALL_SETTINGS, fields, strict=True):
        assert f.default == s.default, s.name
        assert isinstance(s.default, typing.get_origin(hints[f.name]) or hints[f.name]), s.name
    # Other modules read these fields by name.
    assert {"enabled", "window_size", "payoff", "cache_dir", "log_topics"} <= {
        f.name for f in fields}


def other_value(setting: settings.Setting[Any]) -> str:
    """A valid value of `setting` that is not its default."""
    default = setting.default
    if isinstance(default, bool):
        return "0" if default else "1"
    special = {"LEGATE_FUSE_LOG_LEVEL": "debug", "LEGATE_FUSE_LOG": "plan",
               "LEGATE_FUSE_STATS": "1", "LEGATE_FUSE_COMPILE": "wait",
               "LEGATE_FUSE_MATH": "fast",
               # Its default is found at run time (1 to 8): never 9.
               "LEGATE_FUSE_COMPILE_JOBS": "9"}
    if setting.name in special:
        return special[setting.name]
    if isinstance(default, int):
        return str(default + 1)
    return "x"


def test_load_reads_every_setting_into_its_field() -> None:
    defaults = settings.load({})
    for setting in settings.ALL_SETTINGS:
        config = settings.load({setting.name: other_value(setting)})
        changed = {f.name for f in dataclasses.fields(config)
                   if getattr(config, f.name) != getattr(defaults, f.name)}
        assert changed == {setting.field}, setting.name


def test_the_cache_folder_follows_xdg_cache_home_unless_set() -> None:
    assert settings.load({"XDG_CACHE_HOME": "/c"}).cache_dir == "/c/legate-fuse"
    assert settings.load({"XDG_CACHE_HOME": "/c", "LEGATE_FUSE_CACHE_DIR": "/k"}).cache_dir == "/k"


def test_short_help_is_one_or_two_sentences() -> None:
    for setting in settings.ALL_SETTINGS:
        sentences = re.findall(r"[.!?](?:\s|$)", setting.help)
        assert 1 <= len(sentences) <= 2, setting.name
        assert len(setting.help.split()) <= 40, setting.name


def test_window_size_is_read() -> None:
    assert settings.load({"LEGATE_FUSE_WINDOW": "17"}).window_size == 17


@pytest.mark.parametrize("raw", ["0", "-3", "abc", "1.5"])
def test_invalid_window_size_is_a_clear_error(raw: str) -> None:
    with pytest.raises(SettingError, match=r"LEGATE_FUSE_WINDOW=.*expected an integer >= 1"):
        settings.load({"LEGATE_FUSE_WINDOW": raw})


def test_log_level_is_case_insensitive_and_validated() -> None:
    assert settings.load({"LEGATE_FUSE_LOG_LEVEL": "DEBUG"}).log_level == "debug"
    with pytest.raises(SettingError, match="accepted values: error, warning, info, debug"):
        settings.load({"LEGATE_FUSE_LOG_LEVEL": "loud"})


def test_every_setting_is_described() -> None:
    text = " ".join(settings.describe().split())
    for setting in settings.ALL_SETTINGS:
        assert f"{setting.name} (default: {setting.default_text()})" in text
        assert setting.help in text


def test_help_lists_every_setting(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["--help"])
    assert exit_status.value.code == 0
    assert " ".join(settings.describe().split()) in " ".join(capsys.readouterr().out.split())


def test_python_m_legate_fuse_help_does_not_import_legate() -> None:
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "legate_fuse", "--help"],
                         capture_output=True, text=True, timeout=60, check=True)
    for setting in settings.ALL_SETTINGS:
        assert setting.name in run.stdout
    # -X importtime lists every module imported, one a line: "import time: ... | <module>".
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()}
    assert "legate_fuse.settings" in imported
    assert not {m for m in imported if m.split(".")[0] in ("legate", "cupynumeric")}


def test_log_topics() -> None:
    assert settings.load({}).log_topics == frozenset()
    assert settings.load({"LEGATE_FUSE_LOG": "plan"}).log_topics == {"plan"}
    assert settings.load({"LEGATE_FUSE_LOG": " Plan, "}).log_topics == {"plan"}
    with pytest.raises(SettingError, match="unknown topics"):
        settings.load({"LEGATE_FUSE_LOG": "plan,kernel"})


def test_step_aside_is_a_count() -> None:
    assert settings.load({}).step_aside == 256
    assert settings.load({"LEGATE_FUSE_STEP_ASIDE": "0"}).step_aside == 0
    assert settings.load({"LEGATE_FUSE_STEP_ASIDE": "64"}).step_aside == 64
    for raw in ("-1", "many", "2.5"):
        with pytest.raises(SettingError, match=r"LEGATE_FUSE_STEP_ASIDE=.*integer >= 0"):
            settings.load({"LEGATE_FUSE_STEP_ASIDE": raw})


@pytest.mark.parametrize(("raw", "expected"),
                         [("0", ""), ("1", "text"), ("json", "json"), ("JSON", "json")])
def test_statistics_at_exit_off_readable_or_json(raw: str, expected: str) -> None:
    assert settings.load({"LEGATE_FUSE_STATS": raw}).stats == expected


def test_unknown_statistics_value_names_accepted_values() -> None:
    with pytest.raises(SettingError, match="json"):
        settings.load({"LEGATE_FUSE_STATS": "yaml"})


def test_kernels_compile_in_the_background_by_default_on_half_the_cores() -> None:
    config = settings.load({})
    assert config.compile_mode == "background"
    assert 1 <= config.compile_jobs <= 8
    cores = len(os.sched_getaffinity(0))
    assert config.compile_jobs == max(1, min(8, cores // 2))
    assert settings.load({"LEGATE_FUSE_COMPILE": "WAIT"}).compile_mode == "wait"
    assert settings.load({"LEGATE_FUSE_COMPILE_JOBS": "3"}).compile_jobs == 3


@pytest.mark.parametrize(("name", "raw"), [("LEGATE_FUSE_COMPILE", "later"),
                                           ("LEGATE_FUSE_COMPILE_JOBS", "0"),
                                           ("LEGATE_FUSE_COMPILE_JOBS", "all")])
def test_a_compile_setting_it_does_not_accept_is_an_error(name: str, raw: str) -> None:
    with pytest.raises(settings.SettingError, match=name):
        settings.load({name: raw})


def test_math_is_exact_by_default_and_fast_on_request() -> None:
    assert settings.load({}).math == "exact"
    assert settings.load({"LEGATE_FUSE_MATH": "fast"}).math == "fast"
    with pytest.raises(settings.SettingError, match="LEGATE_FUSE_MATH"):
        settings.load({"LEGATE_FUSE_MATH": "quick"})


@pytest.mark.parametrize(("raw", "size"), [("1G", 1 << 30), ("500M", 500 << 20), ("0", 0),
                                           ("4096", 4096), ("2GiB", 2 << 30), ("64 kb", 65536),
                                           ("1.5g", 3 << 29)])
def test_the_cache_size_takes_binary_units(raw: str, size: int) -> None:
    assert settings.load({}).cache_size == 1 << 30
    assert settings.load({"LEGATE_FUSE_CACHE_SIZE": raw}).cache_size == size


@pytest.mark.parametrize("raw", ["big", "-1", "G", "1x", "nan"])
def test_a_cache_size_it_does_not_accept_is_an_error(raw: str) -> None:
    with pytest.raises(settings.SettingError, match=r"LEGATE_FUSE_CACHE_SIZE.*e\.g\. 1G"):
        settings.load({"LEGATE_FUSE_CACHE_SIZE": raw})
