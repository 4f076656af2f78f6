import pytest

from legate_fuse import settings
from legate_fuse.settings import SettingError


def test_defaults_when_nothing_is_set() -> None:
    config = settings.load({})
    assert (config.enabled, config.window_size, config.stats, config.log_level) == (
        False, 256, False, "warning")
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
    text = settings.describe()
    for setting in settings.ALL_SETTINGS:
        assert setting.name in text
        assert setting.help in text


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
