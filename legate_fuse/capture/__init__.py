"""Capture: the proxies Legate's runtime is replaced by, the read points that flush held
work, and every internal name of Legate and cuPyNumeric the plugin relies on.

Each module is imported where it is used: importing this package loads nothing else.
"""
