"""Whether the plugin holds tasks to fuse them: the mode machine (machine.py) and what asks it to
change mode: the measurement of whether fusion pays (payoff.py) and stepping aside when nothing
fuses (step_aside.py).

Each module is imported where it is used: importing this package loads nothing else.
"""
