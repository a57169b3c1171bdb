# What a board runs, in MicroPython's manifest format: frozen into the image, these modules'
# bytecode stays in flash and only their data takes the Python heap (a plain ESP32 has
# 111,936 bytes of it). Never the simulator (sim/, and each game's hooks for it,
# games/<game>/sim.py) or the tests. main.py is not frozen: it and boot.py stay files on the
# board's filesystem (run by name at power-up), so they can be changed without a flash.
#
# An ESP32 image: `make firmware` (includes the port's own manifest first; see README).
# The tests' 32-bit interpreter: tests/firmware/manifest.py (this file plus the simulator).
import os


def _walk(folder):
    """The .py files under a folder, relative to it."""
    return [
        os.path.relpath(os.path.join(d, f), folder)
        for d, _, files in os.walk(folder)
        for f in files
        if f.endswith(".py")
    ]


module("clock.py")
module("dispatch.py")
module("enrolment.py")
module("outputs.py")
module("power.py")
module("safemode.py")
module("store.py")
module("table.py")
module("wifi.py")
# every game's folder but its simulator hooks (games/<game>/sim.py; paths are relative to
# this file, the folder the manifest tools run it in)
package("games", files=[f for f in _walk("games") if f.rpartition("/")[2] != "sim.py"])
package("hal")
package("link")
package("sense")
