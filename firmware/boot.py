# MicroPython runs boot.py first, then main.py. This one only decides whether main.py may start
# the table (firmware/safemode.py), so a board can always be brought back to the REPL: hold the
# pause button at power-up, or send the `repl` command (`plateau deploy` does it itself).
try:
    import machine
    import safemode

    if safemode.decide(machine):
        print("plateau: safe mode (%s): no table, no watchdog, the REPL is free" % safemode.why)
except Exception as e:  # never stop here: main.py decides again, and the REPL stays reachable
    print("plateau boot.py:", e)
