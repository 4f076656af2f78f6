#!/usr/bin/env bash
# Sets up everything legate-fuse needs in a project-local virtual environment (.venv), from a
# machine that has only Python, a C compiler, git and pip. Idempotent: a second run only
# rebuilds what changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LEGATE_FUSE_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"
PY="$VENV/bin/python"

log() { echo "[setup] $*" >&2; }

if [[ ! -x "$PY" ]]; then
  log "creating virtual environment $VENV"
  "$PYTHON" -m venv "$VENV"
fi

# Dependencies, reinstalled only when the requirement list changes.
REQS="$ROOT/scripts/requirements-dev.txt"
STAMP="$VENV/.legate-fuse-requirements.sha256"
WANT="$(sha256sum "$REQS" | cut -d' ' -f1)"
if [[ ! -f "$STAMP" || "$(cat "$STAMP")" != "$WANT" ]]; then
  log "installing dependencies (first time: a few minutes, ~3 GB)"
  "$PY" -m pip install --quiet --upgrade pip
  "$PY" -m pip install --quiet -r "$REQS"
  echo "$WANT" > "$STAMP"
fi

# The NVIDIA driver library stand-in on hosts without a driver, and default Legate settings.
"$PY" "$ROOT/scripts/host_env.py" install

# The package itself (incremental C++ build under build/).
log "building and installing legate-fuse"
"$PY" -m pip install --quiet --no-build-isolation --no-deps "$ROOT"
