# The game saved on the board's flash, so a reset or a power cut resumes it (issue 8).
#
# Writes cannot leave a corrupt file: the state goes to state.tmp, then os.rename replaces
# state.json (LittleFS, the ESP32 port's filesystem, renames atomically). The file carries a
# CRC of its body, so a file cut short or damaged is recognised and not believed.
# Writes are bounded: a move is saved before it is announced (moves come at a person's pace,
# a second or more apart); any other change (a card laid) at most every MIN_SAVE_MS, later if
# need be. Flash blocks endure about 100 000 erase cycles and LittleFS spreads its writes over
# the whole partition, so even 4 writes a second without pause would take months to wear it;
# a real game writes a few times a minute.
import json
import os
from binascii import crc32

from micropython import const

from clock import elapsed

MIN_SAVE_MS = const(250)
VERSION = const(1)


class Store:
    def __init__(self, folder, min_save_ms=MIN_SAVE_MS):
        self.folder = folder
        self.path = folder + "/state.json"
        self.tmp = folder + "/state.tmp"
        self.min_save_ms = min_save_ms
        self._saved_at = None
        self.saves = 0
        self.error = None  # why the saved state could not be used, if it could not
        try:
            os.mkdir(folder)
        except OSError:
            pass  # already there

    def due(self, now):
        return self._saved_at is None or elapsed(now, self._saved_at) >= self.min_save_ms

    def save(self, state, now):
        body = json.dumps(state)
        text = '{"v":%d,"crc":%d,"state":%s}' % (VERSION, crc32(body.encode()), body)
        with open(self.tmp, "w") as f:
            f.write(text)
        os.rename(self.tmp, self.path)
        self._saved_at = now
        self.saves += 1

    def load(self):
        """The saved state, or None (nothing saved, or unusable: see .error)."""
        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            return None
        try:
            d = json.loads(text)
            # the CRC is of the body exactly as written (re-encoding may order keys anew)
            body = text[text.index('"state":') + 8 : text.rindex("}")]
            if d.get("v") != VERSION or crc32(body.encode()) != d["crc"]:
                raise ValueError("checksum or version mismatch")
            return d["state"]
        except (ValueError, KeyError, TypeError) as e:
            self.error = "saved game unreadable (%s): starting a new game" % e
            return None
