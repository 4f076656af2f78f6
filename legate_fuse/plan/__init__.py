"""Planning: a flushed window, lifted and encoded, analysed by the C++ core into groups;
the kernel specification of each fused group.

Each module is imported where it is used: importing this package loads nothing else.
"""
