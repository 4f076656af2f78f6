"""The mutation check's list (scripts/mutation_check.py) applies to the checked-out sources:
each mutation's original text occurs exactly once in its file, and each names tests that exist.
A stale entry would otherwise be found only by the test command's last stages."""

from __future__ import annotations

from .repository_scripts import ROOT, load_script


def test_every_mutation_applies_once() -> None:
    check = load_script("mutation_check")
    for mutation in check.MUTATIONS:
        text = (ROOT / mutation.path).read_text()
        assert text.count(mutation.original) == 1, mutation.name


def test_every_mutation_names_tests_that_exist() -> None:
    check = load_script("mutation_check")
    names = [m.name for m in check.MUTATIONS]
    assert len(names) == len(set(names))
    for mutation in check.MUTATIONS:
        assert mutation.tests, mutation.name
        for test in mutation.tests:
            path, _, function = test.partition("::")
            source = (ROOT / path).read_text()
            if function:
                assert f"def {function.split('[')[0]}(" in source, (mutation.name, test)
