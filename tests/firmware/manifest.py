# The simulated board the tests run on the 32-bit interpreter (make mp32): what a board
# runs (firmware/manifest.py) and the simulator that stands in for its hardware, frozen as
# an ESP32 image holds its modules, so that only their data takes the heap.
include("../../firmware/manifest.py")
package("sim", base_path="../../firmware")
