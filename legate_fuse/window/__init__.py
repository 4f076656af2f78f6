"""The window: tasks held in program order, where a full window is cut, and which stores
the program can still reach.

Each module is imported where it is used: importing this package loads nothing else.
"""
