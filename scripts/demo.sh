#!/usr/bin/env bash
# Sets everything up (see setup.sh) and runs the demo: Black-Scholes with fusion off and on.
# Extra arguments go to the demo, e.g. scripts/demo.sh --size 10000000
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
exec "${LEGATE_FUSE_VENV:-$ROOT/.venv}/bin/python" "$ROOT/bench/demo.py" "$@"
