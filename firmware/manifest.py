# What a board runs, in MicroPython's manifest format: frozen into the image, these modules'
# bytecode stays in flash and only their data takes the Python heap (a plain ESP32 has
# 111,936 bytes of it). Never the simulator (sim/) or the tests. main.py is not frozen: it
# and boot.py stay files on the board's filesystem (run by name at power-up), so they can be
# changed without a flash.
#
# An ESP32 image: `make firmware` (includes the port's own manifest first; see README).
# The tests' 32-bit interpreter: tests/firmware/manifest.py (this file plus the simulator).
module("clock.py")
module("safemode.py")
module("store.py")
module("table.py")
package("games")
package("hal")
package("link")
package("sense")
