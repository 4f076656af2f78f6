"""Call sites whose tasks are not fused (capture/call_sites.py): which frame is the site, and
when a site's tasks are built at once."""

from __future__ import annotations

from typing import Any

from legate_fuse.capture.call_sites import LONGEST_RUN, CallSites, Outcome, Site
from legate_fuse.counters import Stats

# Stands for cuPyNumeric: functions whose frames are a library's, the last one creating the
# task the way RuntimeProxy.create_auto_task does (site_of_caller looks from its caller's
# caller).
LIBRARY_SOURCE = '''
def create_auto_task(sites):
    return sites.site_of_caller("cupynumeric", 7)

def unary_op(sites):
    return create_auto_task(sites)

def clip(sites):
    return unary_op(sites)

def clip_method(sites):
    return clip(sites)
'''
LIBRARY: dict[str, Any] = {"__name__": "cupynumeric._fake"}
exec(compile(LIBRARY_SOURCE, "cupynumeric/_fake.py", "exec"), LIBRARY)


def two_sites(sites: CallSites) -> tuple[Site | None, Site | None]:
    first = LIBRARY["clip"](sites)
    second = LIBRARY["clip_method"](sites)  # another line, deeper in the library
    return first, second


def test_the_site_is_the_programs_instruction_that_called_the_library() -> None:
    sites = CallSites(Stats())
    seen = [two_sites(sites) for _ in range(3)]
    first, second = seen[0]
    assert first is not None and second is not None
    assert first[0] == id(two_sites.__code__) and second[0] == id(two_sites.__code__)
    assert first[2:] == ("cupynumeric", 7)
    assert first != second  # two calls on two lines
    # Found again by the remembered depths (two, one per way in), as by the first walk.
    assert all(pair == (first, second) for pair in seen)


def test_a_site_not_lifted_builds_ever_longer_runs_at_once() -> None:
    stats = Stats()
    sites = CallSites(stats)
    site: Site = (1, 2, "cupynumeric", 7)
    assert not sites.build_at_once(site, nothing_held=True)
    sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)
    assert ("cupynumeric", 7) in sites.watched
    runs = []
    for _ in range(10):
        run = 0
        while sites.build_at_once(site, nothing_held=True):
            run += 1
        runs.append(run)
        sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)  # the task recorded after the run
    assert runs == [1, 2, 4, 8, 16, 32, 64, LONGEST_RUN, LONGEST_RUN, LONGEST_RUN]
    assert stats.tasks_built_at_once == sum(runs)


def test_a_site_once_fused_is_always_recorded() -> None:
    sites = CallSites(Stats())
    site: Site = (1, 2, "cupynumeric", 7)
    sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)
    sites.note("cupynumeric", 7, site, Outcome.FUSED)
    sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)
    assert sites.state(site) is None
    assert not any(sites.build_at_once(site, nothing_held=True) for _ in range(10))


def test_a_kind_whose_tasks_all_fuse_is_not_watched() -> None:
    sites = CallSites(Stats())
    sites.note("cupynumeric", 3, None, Outcome.FUSED)
    assert not sites.watched
    sites.note("cupynumeric", 4, None, Outcome.NOT_LIFTED)
    assert sites.watched == {("cupynumeric", 4)}


def test_turned_off_it_learns_nothing() -> None:
    sites = CallSites(Stats(), enabled=False)
    site: Site = (1, 2, "cupynumeric", 7)
    sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)
    assert not sites.watched and not sites.build_at_once(site, nothing_held=True)


def test_a_site_run_alone_is_built_at_once_only_when_nothing_is_held() -> None:
    stats = Stats()
    sites = CallSites(stats)
    site: Site = (1, 2, "cupynumeric", 7)
    sites.note("cupynumeric", 7, site, Outcome.ALONE)
    assert ("cupynumeric", 7) in sites.watched_alone and not sites.watched
    # Held tasks would run first, cutting the window where the task is created: recorded.
    assert not sites.build_at_once(site, nothing_held=False)
    assert sites.build_at_once(site, nothing_held=True)
    assert not sites.build_at_once(site, nothing_held=True)  # a run of 1, then recorded
    sites.note("cupynumeric", 7, site, Outcome.ALONE)
    assert [sites.build_at_once(site, nothing_held=True) for _ in range(3)] == [True, True,
                                                                               False]
    assert stats.tasks_built_at_once == 3
    # Not lifted either the next time: built at once wherever it is created.
    sites.note("cupynumeric", 7, site, Outcome.NOT_LIFTED)
    assert sites.build_at_once(site, nothing_held=False)
    sites.note("cupynumeric", 7, site, Outcome.FUSED)
    assert sites.state(site) is None
    assert not sites.build_at_once(site, nothing_held=True)


def test_a_kind_run_alone_without_a_site_becomes_watched() -> None:
    sites = CallSites(Stats())
    sites.note("cupynumeric", 5, None, Outcome.ALONE)
    assert sites.watched_alone == {("cupynumeric", 5)} and not sites.watched
