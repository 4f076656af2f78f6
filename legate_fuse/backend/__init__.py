"""Backend: kernel sources to loaded kernels (C compiler, NVRTC, the on-disk cache) and
the launch of fused tasks through the Legate library `legate_fuse`.

Each module is imported where it is used: importing this package loads nothing else.
"""
