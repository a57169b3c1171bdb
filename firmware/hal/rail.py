# The sensors' 5 V rail, watched (issue 31). An unplugged adapter or a tripped fuse F1 leaves
# every Hall sensor unpowered, and an unpowered open-drain output floats HIGH through its
# pull-up on 3V3: every square reads "no magnet", every goal "no ball", and the chain's check
# byte still reads right. So the rail goes through a divider (hardware/wiring.md: 22k / 15k,
# ratio 0.4054) to an ADC1 pin, handed here as a machine.ADC (11 dB: 150-2450 mV measured,
# ESP-IDF's ADC table; 2.03 V at 5 V), and the sensing reads no sensor while it is down.
#
# One conversion a pass, before the sensors are read: the rail falls from 5 V through
# min_volts (4.0 V) before the sensors stop working (2.5 V for a DRV5033, 1.65 V for a
# DRV5032), so a pass that reads the chain after the rail read it up read powered sensors,
# unless the rail fell in the microseconds between the two; a frame from then is held by
# the debounce, and the next pass sees the rail down. Down at the first reading below
# min_volts; up again only after readings at or above min_volts + _BACK_MV for _BACK_MS
# (a rail coming back on a loose plug flickers; the sensors' outputs are valid within
# microseconds of their supply, DRV5033 power-on time). Integer arithmetic only: a float
# is an object on the heap of an ESP32, and this runs every pass.
# Not tested on a board: the ADC's calibration (read_uv) and its noise (about +-60 mV at
# 11 dB by Espressif's figures, 150 mV at the rail) are the port's; the simulator's model
# (sim/chips/rail.py) is what the tests read.
from micropython import const

from clock import elapsed

_BACK_MV = const(200)  # hysteresis: the rail is back only this far above min_volts
_BACK_MS = const(100)  # ... held this long


class SensorRail:
    def __init__(self, adc, ratio, min_volts, volts=5.0):
        self._adc = adc
        # rail mV = pin uV * 10 / ratio_e4 (ratio in 1/10000: 0.4054 -> 4054)
        self._ratio = int(ratio * 10000 + 0.5)
        self.min_mv = int(min_volts * 1000 + 0.5)
        self.volts_mv = int(volts * 1000 + 0.5)  # nominal
        self.mv = self.volts_mv  # the last reading, rail side
        self.up = True
        self.downs = 0  # times it went down since power-up (selftest)
        self._good_since = None  # when readings were last seen back above the hysteresis

    def read_mv(self):
        """One conversion: the rail's voltage in mV (allocates nothing)."""
        self.mv = self._adc.read_uv() * 10 // self._ratio
        return self.mv

    def watch(self, now):
        """Read the rail once; whether it is up (see above for when it counts as down)."""
        mv = self.read_mv()
        if self.up:
            if mv < self.min_mv:
                self.up = False
                self.downs += 1
                self._good_since = None
        elif mv >= self.min_mv + _BACK_MV:
            if self._good_since is None:
                self._good_since = now
            elif elapsed(now, self._good_since) >= _BACK_MS:
                self.up = True
        else:
            self._good_since = None
        return self.up
