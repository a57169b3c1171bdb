# The simulated board the tests run on the 32-bit interpreter (make mp32): what a board
# runs (firmware/manifest.py) and the simulator that stands in for its hardware, frozen as
# an ESP32 image holds its modules, so that only their data takes the heap.
import os

include("../../firmware/manifest.py")
package("sim", base_path="../../firmware")
for _d, _, _files in os.walk("../../firmware/games"):  # each game's hooks for the simulator
    if "sim.py" in _files:
        module(os.path.relpath(_d, "../../firmware") + "/sim.py", base_path="../../firmware")
