from legate_fuse.counters import Stats, format_stats

EXPECTED_KEYS = {
    "tasks_seen", "tasks_held", "tasks_fused", "fused_launches", "temporaries_eliminated",
    "bytes_not_allocated", "stores_reused", "arrays_in_shared_memory", "windows_planned",
    "plan_cache_hits",
    "kernel_cache_hits", "compile_seconds", "kernels_compiling", "kernel_threads",
    "split_kernel_runs", "pipelined_row_calls", "split_draw_runs", "tasks_built_at_once",
    "payoff_rounds", "payoff_rounds_unfused",
    "tasks_unfused_by_payoff", "steps_aside", "copies_attached_read_only", "tasks_reused",
    "flushes",
}


def test_stats_dict_has_every_documented_counter() -> None:
    assert set(Stats().as_dict()) == EXPECTED_KEYS
    # LEGATE_FUSE_TIME_TASKS=1 adds the fused launches' seconds.
    assert set(Stats(timed=True).as_dict()) == EXPECTED_KEYS | {"fused_seconds"}


def test_formatted_block_lists_counters_and_flush_reasons() -> None:
    stats = Stats(tasks_seen=1234)
    stats.flushes["read"] += 3
    stats.flushes["exit"] += 1
    text = format_stats(stats.as_dict())
    assert text.splitlines()[0] == "legate-fuse statistics"
    assert "tasks seen" in text and "1,234" in text
    assert "window flushes           4" in text
    assert "read                   3" in text
