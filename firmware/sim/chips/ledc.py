# The buzzer's PWM: the ESP32's LEDC peripheral as MicroPython's machine.PWM drives it, and
# the piezo transducer behind its transistor (sim/chips/__init__.py).
#   [MP-PWM]  MicroPython machine.PWM (ESP32 port): freq(hz) and duty_u16(0..65535); the
#             port takes 1 Hz to 40 MHz and raises ValueError outside it
#   [TRM]     ESP32 Technical Reference Manual, LED PWM Controller (LEDC): the duty's
#             resolution falls as the frequency rises (80 MHz APB / frequency steps a period)
#   [PIEZO]   a passive piezo transducer (hardware/parts.py): sound at the drive frequency,
#             loudest near its resonance (about 2-4 kHz), nothing with the duty at 0
# Modelled: the frequency and duty set, each change with the world's time, and what was heard:
# (start ms, Hz, ms) for each tone, the last _KEPT of them. Not expressed: loudness (by
# frequency against the resonance), the transistor's switching, the duty's resolution.
from micropython import const

_KEPT = const(8)  # (a tuple each: the heap of a whole table at the chip's size)
_MAX_HZ = const(40000000)  # [MP-PWM]


class BuzzerPWM:
    def __init__(self, clock_ms, freq=2000, duty_u16=0):
        self._clock_ms = clock_ms  # the world's time, ms
        self._freq = freq
        self._duty = duty_u16
        self._since = None  # when the tone sounding now began
        self.tones = []  # (start ms, Hz, ms) heard, the last _KEPT
        self.violations = []

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        if not 1 <= hz <= _MAX_HZ:
            raise ValueError("frequency must be from 1Hz to 40MHz")
        if self._since is not None and hz != self._freq:
            self._ended()
            self._since = self._clock_ms()
        self._freq = hz
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        if not 0 <= d <= 65535:
            raise ValueError("duty must be 0-65535")
        sounding = self._since is not None
        if d and not sounding:
            self._since = self._clock_ms()
        elif not d and sounding:
            self._ended()
            self._since = None
        self._duty = d
        return None

    def _ended(self):
        now = self._clock_ms()
        if len(self.tones) >= _KEPT:
            self.tones.pop(0)
        self.tones.append((self._since, self._freq, now - self._since))

    def sounding(self):
        """The frequency heard now, or 0."""
        return self._freq if self._since is not None else 0
