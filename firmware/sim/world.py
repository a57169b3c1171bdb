# The physical table outlives the board: a simulator killed at any point (kill -9, the reset
# harness of host_tools/plateau/resets.py) is restarted on the same flash with pawns, cards
# and balls as they stand, and goes on with the script where it was. This file is the
# table's side of that: after each hand action changes the simulated table, and before the
# firmware can see the change, the table and the last script line done are written here
# (write, then rename: a kill leaves the old file or the new, never half of one). A line
# cut short by a kill is done again on restart: every action either changes the table in
# one step (ball) or can be repeated (lift, place, move, wait, a card laid on the spot and
# moved off once read: laid again, it is the same card lying there); a host command sent
# again carries the same id and is not done twice (table.Table.command).
import json
import os


class World:
    def __init__(self, path):
        self.path = path
        self.tmp = path + ".tmp"

    def load(self):
        """(last line done, the table as it stood) or None when there is no such file."""
        try:
            with open(self.path) as f:
                d = json.load(f)
        except OSError:
            return None
        return d["line"], d["board"]

    def save(self, line, physical):
        with open(self.tmp, "w") as f:
            f.write('{"line":%d,"board":' % line)
            physical.write_physical(f)
            f.write("}")
        os.rename(self.tmp, self.path)
