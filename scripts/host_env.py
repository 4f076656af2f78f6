"""Installs (or removes) the host set-up of a virtual environment for Legate.

Usage: python scripts/host_env.py install|uninstall   (run with the environment's Python)

On a host where no NVIDIA driver can be loaded, builds a stand-in libcuda.so.1 from
scripts/cuda_stub/libcuda_stub.c with the system C compiler; on a host with a driver, removes any
stand-in. Either way installs scripts/host_site_module.py into site-packages with a .pth file, so
every Python process of the environment gets default Legate settings (see that module).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
STUB_SOURCE = SCRIPTS / "cuda_stub" / "libcuda_stub.c"
SITE_MODULE = SCRIPTS / "host_site_module.py"
MODULE_NAME = "_legate_fuse_host"
ACTIVATE_MARK = "# legate-fuse: libcuda stand-in"


def stub_dir() -> Path:
    return Path(sys.prefix) / "lib" / "legate-fuse-cuda-stub"


def real_driver_loads() -> bool:
    # -S: without site, so a stand-in loaded by this environment's .pth cannot answer for it.
    probe = "import ctypes; ctypes.CDLL('libcuda.so.1')"
    result = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True)
    return result.returncode == 0


def build_stub() -> Path:
    target = stub_dir() / "libcuda.so.1"
    if target.exists() and target.stat().st_mtime >= STUB_SOURCE.stat().st_mtime:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    compiler = os.environ.get("CC", "cc")
    partial = target.with_suffix(".tmp")
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1",
         "-o", str(partial), str(STUB_SOURCE)],
        check=True,
    )
    partial.replace(target)
    return target


def update_activate_script(stub: Path | None) -> None:
    activate = Path(sys.prefix) / "bin" / "activate"
    if not activate.exists():
        return
    lines = [ln for ln in activate.read_text().splitlines() if ACTIVATE_MARK not in ln]
    if stub is not None:
        # For programs of the environment that are not Python (Python gets it from the .pth).
        lines.append(
            f'export LD_LIBRARY_PATH="{stub.parent}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"'
            f"  {ACTIVATE_MARK}"
        )
    activate.write_text("\n".join(lines) + "\n")


def install() -> None:
    site = Path(sysconfig.get_paths()["purelib"])
    stub: Path | None = None
    if real_driver_loads():
        shutil.rmtree(stub_dir(), ignore_errors=True)
        print("[setup] NVIDIA driver found: no libcuda stand-in needed", file=sys.stderr)
    else:
        stub = build_stub()
        print(f"[setup] no NVIDIA driver: using the libcuda stand-in {stub}", file=sys.stderr)
    shutil.copyfile(SITE_MODULE, site / f"{MODULE_NAME}.py")
    (site / f"{MODULE_NAME}.pth").write_text(f"import {MODULE_NAME}\n")
    update_activate_script(stub)


def uninstall() -> None:
    site = Path(sysconfig.get_paths()["purelib"])
    for name in (f"{MODULE_NAME}.py", f"{MODULE_NAME}.pth"):
        (site / name).unlink(missing_ok=True)
    shutil.rmtree(stub_dir(), ignore_errors=True)
    update_activate_script(None)


if __name__ == "__main__":
    commands = {"install": install, "uninstall": uninstall}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: {sys.argv[0]} {'|'.join(commands)}")
    commands[sys.argv[1]]()
