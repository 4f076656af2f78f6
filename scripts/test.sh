#!/usr/bin/env bash
# Sets everything up (see setup.sh), checks style and types, and runs the test suite.
# Extra arguments go to pytest, which then runs alone, e.g. scripts/test.sh tests/unit -k window
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
PY="${LEGATE_FUSE_VENV:-$ROOT/.venv}/bin/python"
cd "$ROOT"
echo "[test] ruff" >&2
"$PY" -m ruff check legate_fuse legate_csr tests bench scripts
echo "[test] mypy" >&2
"$PY" -m mypy
echo "[test] clang-format" >&2
"$(dirname "$PY")/clang-format" --dry-run --Werror $(git ls-files 'src/cpp/*.h' 'src/cpp/*.cc' 'tests/cpp/*.h' 'tests/cpp/*.cc' 2>/dev/null || find src/cpp tests/cpp -name '*.h' -o -name '*.cc')
# The core (IR, analysis, code generation) on its own, with AddressSanitizer and
# UndefinedBehaviorSanitizer: tests/cpp, run by ctest.
echo "[test] native tests (ASan, UBSan)" >&2
BIN="$(dirname "$PY")"
"$BIN/cmake" -S "$ROOT" -B "$ROOT/build/native" -G Ninja -DCMAKE_MAKE_PROGRAM="$BIN/ninja" \
  -DLEGATE_FUSE_NATIVE_TESTS=ON -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
  > /dev/null
"$BIN/cmake" --build "$ROOT/build/native" > /dev/null
(cd "$ROOT/build/native" && "$BIN/ctest" --output-on-failure)
echo "[test] pytest" >&2
if [[ $# -gt 0 ]]; then
  exec "$PY" -m pytest "$@"
fi
# The whole suite in two worker processes (each its own Legate runtime on one CPU), a file's
# tests kept together in one: on a 2-core machine 461 s, against 878 in one process.
"$PY" -m pytest -n "${LEGATE_FUSE_TEST_WORKERS:-2}" --dist loadfile
# Each correctness rule removed in turn: the tests that guard it must fail (scripts/mutation_check.py);
# its unmutated baseline is the pytest run above.
echo "[test] mutation check" >&2
"$PY" scripts/mutation_check.py --after-pytest
# cuPyNumeric's own suite with fusion on, against the record of its outcomes without the plugin.
echo "[test] conformance" >&2
exec "$PY" tests/conformance/run.py
