# The Hall switches under the squares (sim/chips/__init__.py): DRV5032 (sampled) and DRV5033
# (continuous), one model.
#   [DRV5032]  TI DRV5032 datasheet, SLVSDC7E (1 Features, 3 Description, Device Comparison)
#   [DRV5033]  TI DRV5033 datasheet (Description: omnipolar, open-drain, pull-up required)
# Not expressed: the magnetic field itself (a magnet is over a sensor or not: flux above B_OP
# or below B_RP, nothing between), temperature drift of B_OP, the sensors' supply current.
from array import array

from sim.chips import Rng

# part -> (samples a second, 0: continuous; open-drain output).
# [DRV5032 Device Comparison]: each variant's sampling rate and output type; the output
# updates only at a sample. [DRV5033 Description]: chopper-stabilised, not duty-cycled: the
# output follows the field within its propagation delay (microseconds, below a scan);
# open-drain, an external pull-up required.
HALL_PARTS = {
    "DRV5032FA": (20, False),
    "DRV5032FB": (5, False),
    "DRV5032FC": (20, True),
    "DRV5032FD": (20, False),
    "DRV5032AJ": (20, True),
    "DRV5032ZE": (20, True),
    "DRV5032DU": (20, False),
    "DRV5032DG": (80, False),
    "DRV5033FA": (0, True),
    "DRV5033AJ": (0, True),
}


# [DRV5032] [DRV5033] Recommended Operating Conditions: the lowest supply each family works at
# (mV); below it the output is released (sim/chips/rail.py cuts the supply)
_VCC_MIN = {"DRV5032": 1650, "DRV5033": 2500}


class HallSwitches:
    """n Hall switches of one part. `set(i, present, now)` is the physical truth (a magnet's
    flux over sensor i above B_OP or not); `levels(now)` the electrical outputs, bit i = 1
    for HIGH.

    [DRV5032 3 Description] [DRV5033 Description]: above B_OP the output goes LOW (every
    variant: active-low); below B_RP it drives HIGH (push-pull) or releases (open-drain: HIGH
    only through a pull-up, floating without one). [DRV5032 1 Features, 3 Description]: a
    DRV5032's internal oscillator samples the field at 5, 20 or 80 Hz and the output changes
    only at a sample; between samples it holds. Each sensor runs its own oscillator, so their
    sampling instants are spread (seeded phases here). A DRV5033 follows at once."""

    def __init__(self, n, part="DRV5033FA", now=0, seed=1, pullups=True):
        if part not in HALL_PARTS:
            raise ValueError(
                "%s is not a modelled Hall switch (one of %s)" % (part, sorted(HALL_PARTS))
            )
        hz, self.open_drain = HALL_PARTS[part]
        self.n = n
        self.part = part
        self.period = 1000 // hz if hz else 0  # ms between samples (0: continuous)
        self.pullups = pullups  # the board's pull-ups on every output (open-drain parts)
        nbytes = (n + 7) // 8
        self.field = bytearray(nbytes)  # bit i: flux above B_OP at sensor i (the truth)
        self.out = bytearray(b"\xff" * nbytes)  # bit i: output HIGH (no magnet seen)
        rng = Rng(seed)
        self._rng = rng
        period = max(self.period, 1)
        self.phase = array("H", [rng.below(period) for _ in range(n)] if self.period else [])
        self._at = array("i", [now] * n if self.period else [])  # sensor i last brought up to date
        self._pending = []  # sensors whose output may lag their field
        self.vcc_min = _VCC_MIN[part[:7]]
        self.powered = True  # the supply at or above vcc_min (supply)
        self._floating = None  # the outputs while unpowered: released, HIGH on pull-ups

    def _update(self, i, now):
        if self.period:
            last_sample = now - (now - self.phase[i]) % self.period
            if last_sample <= self._at[i]:
                return  # no sample since the last look: the output holds
            self._at[i] = now
        b = i >> 3
        bit = 1 << (i & 7)
        if self.field[b] & bit:
            self.out[b] &= ~bit  # LOW: magnet
        else:
            self.out[b] |= bit

    def set(self, i, present, now):
        if self.period:
            self._update(i, now)  # samples before now saw the old field
        b = i >> 3
        bit = 1 << (i & 7)
        if present:
            self.field[b] |= bit
        else:
            self.field[b] &= ~bit
        if not self.period:
            self._update(i, now)
        elif i not in self._pending:
            self._pending.append(i)

    def present(self, i):
        return self.field[i >> 3] >> (i & 7) & 1

    def supply(self, mv, now):
        """The sensors' supply is `mv`: below vcc_min every output is released (an open-drain
        one reads HIGH through the board's pull-up: no magnet seen, on every square; a
        push-pull one unpowered is taken for the same, its body diodes not modelled); back
        above it, each sensor starts over (power_up)."""
        on = mv >= self.vcc_min
        if on and not self.powered:
            self.power_up(now)
        self.powered = on

    def levels(self, now):
        """The outputs at `now` (bit i = 1: HIGH). Not a copy: read it before the next call."""
        if not self.powered:
            if self._floating is None:
                self._floating = bytearray(b"\xff" * len(self.out))
            return self._floating
        pending = self._pending
        k = 0
        while k < len(pending):
            i = pending[k]
            self._update(i, now)
            if (self.out[i >> 3] >> (i & 7) & 1) != (self.field[i >> 3] >> (i & 7) & 1):
                pending.pop(k)  # output agrees with the field (HIGH = none): settled
            else:
                k += 1
        if self.open_drain and not self.pullups:
            # released outputs float: undefined, read as noise
            out = bytearray(self.out)
            for b in range(len(out)):
                out[b] &= ~self.out[b] | self._rng.below(256)
            return out
        return self.out

    def power_up(self, now):
        """Power returns: each sensor's output is valid after its power-on time (microseconds,
        far below a scan) and shows the field from then on."""
        for b in range(len(self.field)):
            self.out[b] = ~self.field[b] & 0xFF
        for i in range(len(self._at)):
            self._at[i] = now
        self._pending = []
