# The sensors' 5 V rail and the ESP32 ADC that watches it through its divider
# (sim/chips/__init__.py; the circuit: hardware/wiring.md, +5V_SENS - 22k - pin - 15k - GND).
#   [IDF-ADC]  ESP-IDF v4.4 ADC guide, "ADC Attenuation": ADC_ATTEN_DB_11 measures 150 mV to
#              2450 mV; "ADC Channels": ADC1 is GPIO32-39 (usable with Wi-Fi on, ADC2 is not)
#   [MP-ADC]   MicroPython machine.ADC: read_uv(), the reading in microvolts (calibrated on
#              the ESP32 port)
#   [DRV5033]  TI DRV5033 datasheet, Recommended Operating Conditions: VCC 2.5 V to 38 V
#   [DRV5032]  TI DRV5032 datasheet SLVSDC7, Recommended Operating Conditions: VCC 1.65 V
#              to 5.5 V
# Modelled: the rail at a voltage the simulator sets (5 V, cut to 0, or sagging), the divider's
# ratio exact, and read_uv() giving the pin's voltage within [IDF-ADC]'s range: above 2450 mV
# it reads 2450 mV (the guide's accurate range, not the chip's saturation, which varies), and
# below 150 mV a seeded value from 0 to 150 mV (the guide gives no accuracy there). The Hall
# sensors stop below their part's VCC minimum (drv5032.py: HallSwitches.supply). Not
# expressed: the ADC's noise and non-linearity (Espressif quotes about +-60 mV at 11 dB),
# the 100 nF's and C1's time constants (a cut here is a step), the divider's tolerance.
from micropython import const

from sim.chips import Rng

_ADC_MIN_UV = const(150000)  # [IDF-ADC] 11 dB: measured from 150 mV ...
_ADC_MAX_UV = const(2450000)  # ... to 2450 mV


class SupplyRail:
    """A supply rail: its voltage in mV (`mv`), nominal at first."""

    def __init__(self, nominal_mv=5000):
        self.nominal_mv = nominal_mv
        self.mv = nominal_mv


class RailADC:
    """An ESP32 ADC1 channel at 11 dB on the divider's midpoint: read_uv() [MP-ADC]."""

    def __init__(self, rail, ratio, seed=36):
        self.rail = rail
        self._ratio = int(ratio * 10000 + 0.5)  # in 1/10000, as hal/rail.py reads it
        self._rng = Rng(seed)
        self.reads = 0

    def read_uv(self):
        self.reads += 1
        uv = self.rail.mv * self._ratio // 10  # mV * ratio -> uV at the pin
        if uv < _ADC_MIN_UV:
            return self._rng.below(_ADC_MIN_UV)
        return min(uv, _ADC_MAX_UV)
