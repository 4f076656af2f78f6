"""Host set-up of this virtual environment, run by every Python process started from it.

Installed into site-packages (with a .pth file that imports it) by legate-fuse's
scripts/setup.sh. It is not part of the legate_fuse package and does not depend on LEGATE_FUSE:
it makes Legate start on this host, with fusion on or off.

- Without an NVIDIA driver, Legate's wheels cannot load (they link libcuda.so.1). The set-up then
  builds a stand-in library; loading it here, before anything imports Legate, satisfies that
  dependency by its soname. A real driver, when one can be loaded, always wins.
- Without LEGATE_CONFIG, Legate's automatic configuration oversubscribes small hosts; a default
  sized to this host is set instead. An explicit LEGATE_CONFIG is never changed.
"""

import ctypes
import os
import sys

_STUB = os.path.join(sys.prefix, "lib", "legate-fuse-cuda-stub", "libcuda.so.1")
_SYSMEM_MB = 4000


def _load_cuda_driver() -> bool:
    """Returns True when the stand-in had to be loaded (no real driver)."""
    if not os.path.exists(_STUB):
        return False
    try:
        ctypes.CDLL("libcuda.so.1", mode=ctypes.RTLD_GLOBAL)
        return False
    except OSError:
        ctypes.CDLL(_STUB, mode=ctypes.RTLD_GLOBAL)
        return True


def _set_default_legate_config(stub_loaded: bool) -> None:
    if stub_loaded:
        # Legate's automatic configuration fails when the CUDA module finds no device count.
        os.environ.setdefault("LEGATE_AUTO_CONFIG", "0")
    if "LEGATE_CONFIG" in os.environ:
        return
    cores = os.cpu_count() or 2
    # One core for Legate's utility processor, the rest compute.
    config = f"--cpus {max(1, cores - 1)} --utility 1 --sysmem {_SYSMEM_MB}"
    if stub_loaded:
        # Realm otherwise reports on every start that the stand-in has no device.
        config += " --logging gpu=none"
    os.environ["LEGATE_CONFIG"] = config
    os.environ.setdefault("LEGATE_AUTO_CONFIG", "0")


_set_default_legate_config(_load_cuda_driver())
