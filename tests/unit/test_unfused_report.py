"""The report of what ran unfused (unfused.py, plan/launch_steps.py): reasons read the same in
every window, and the report groups them by task kind, most tasks first."""

from __future__ import annotations

from collections import Counter

from legate_fuse import unfused
from legate_fuse.counters import format_stats
from legate_fuse.plan.launch_steps import why_alone


def test_a_rule_reads_without_the_numbers_of_tasks_and_stores() -> None:
    assert (unfused.alone_by_rule("task 5: accesses store 10 through another view of a root "
                                  "the group writes")
            == "alone: accesses a store through another view of a root the group writes")
    assert (unfused.alone_by_rule("task 3: reduces into store 7, which the group accesses; "
                                  "tasks from 2 join it in the next group")
            == "alone: reduces into a store, which the group accesses")
    assert (unfused.alone_by_rule("runs alone: writes a 0-d value read after it")
            == "alone: writes a 0-d value read after it")


def test_a_single_task_is_alone_by_the_rule_that_kept_it_out_of_the_group_before() -> None:
    before = "task 5: accesses the reduction target store 10 of the group"
    assert why_alone(5, before, "end of window") == unfused.alone_by_rule(before)
    # The group before ended at another task: the rule that ended its own group, if any.
    after = "task 6: iteration shape differs from the group's"
    assert why_alone(5, "task 4: arguments not aligned", after) == unfused.alone_by_rule(after)
    assert why_alone(0, "", "end of window") == unfused.WINDOW_ENDED


def test_the_report_groups_by_kind_most_tasks_first() -> None:
    counts: Counter[unfused.Key] = Counter({
        ("cupynumeric", 1, unfused.NOT_LIFTED): 3,
        ("cupynumeric", 2, unfused.window_ended("read")): 4,
        ("cupynumeric", 2, unfused.DID_NOT_PAY): 1,
    })
    report = unfused.report(counts, lambda library, task: f"{library}.T{task}")
    assert list(report) == ["cupynumeric.T2", "cupynumeric.T1"]
    assert report["cupynumeric.T2"] == {
        "tasks": 5, "why": {unfused.window_ended("read"): 4, unfused.DID_NOT_PAY: 1}}
    text = format_stats({"tasks_seen": 8, "unfused": report})
    assert "ran unfused              8" in text
    assert unfused.summary(report, kinds=1) == (
        f"T2 5 ({unfused.window_ended('read')})")
    assert f"       4  {unfused.window_ended('read')}" in text


class FakeGroup:
    def __init__(self, kind: str, tasks: list[int], end_reason: str,
                 dead_tasks: list[int] | None = None) -> None:
        self.kind, self.tasks, self.end_reason = kind, tasks, end_reason
        self.dead_tasks, self.temporaries = dead_tasks or [], []


class FakePlan:
    def __init__(self, *groups: FakeGroup) -> None:
        self.groups = list(groups)


def test_each_task_run_as_built_has_its_reason_in_the_plan_s_steps() -> None:
    from legate_fuse.plan.launch_steps import steps_of

    plan = FakePlan(
        FakeGroup("single", [0], "task 1: iteration shape differs from the group's"),
        FakeGroup("opaque", [1], "opaque task"),
        FakeGroup("single", [2], "end of window"),
        FakeGroup("single", [], "end of window", dead_tasks=[3]),  # every task of it dead
    )
    labels = ("BINARY_OP.ADD", "opaque cupynumeric.SORT", "BINARY_OP.ADD", "BINARY_OP.ADD")
    steps = steps_of(plan, labels, 4)  # type: ignore[arg-type]
    assert [step.why_unfused for step in steps] == [
        ("alone: iteration shape differs from the group's",),
        (unfused.NOT_LIFTED,),
        (unfused.WINDOW_ENDED,),
        (),
    ]


def test_timed_kinds_come_longest_first_with_their_seconds() -> None:
    counts: Counter[unfused.Key] = Counter({
        ("cupynumeric", 1, unfused.NOT_LIFTED): 3,
        ("cupynumeric", 2, unfused.NOT_LIFTED): 40,
    })
    seconds = Counter({("cupynumeric", 1): 2.5, ("cupynumeric", 2): 0.25})
    report = unfused.report(counts, lambda library, task: f"{library}.T{task}", seconds)
    assert list(report) == ["cupynumeric.T1", "cupynumeric.T2"]
    assert report["cupynumeric.T1"] == {"tasks": 3, "seconds": 2.5,
                                        "why": {unfused.NOT_LIFTED: 3}}
    text = format_stats({"tasks_seen": 50, "fused_seconds": 1.0, "unfused": report})
    assert "ran unfused              43  2.750 s" in text
    assert "fused seconds            1.000" in text
    assert unfused.summary(report, kinds=1) == f"T1 3, 2.500 s ({unfused.NOT_LIFTED})"
