"""Runs every test program with cuPyNumeric and saves the results: `run_programs.py OUT.npz`.

Started in fresh processes with and without LEGATE_FUSE, so the comparison covers the plugin
not being there at all."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cupynumeric
import legate.core

import legate_fuse
from tests.integration.programs import PROGRAMS, to_numpy


def main(out: Path) -> None:
    arrays: dict[str, numpy.ndarray] = {}
    scalars: dict[str, object] = {}
    for name, program in PROGRAMS.items():
        for key, value in to_numpy(program(cupynumeric)).items():
            if isinstance(value, numpy.ndarray):
                arrays[f"{name}.{key}"] = value
            else:
                scalars[f"{name}.{key}"] = value
    numpy.savez(out, **arrays)
    runtime_type = type(legate.core.get_legate_runtime()).__name__
    report = {"scalars": scalars, "runtime": runtime_type, "stats": legate_fuse.stats()}
    out.with_suffix(".json").write_text(json.dumps(report))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
