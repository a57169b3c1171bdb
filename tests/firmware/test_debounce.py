# Debounce (issue 4): a flicker shorter than the debounce time never becomes an edge; a real
# change does, once, after it has held; the first frame tells what the board holds.
from sense.debounce import Debouncer


def frames(deb, seq, t0=0, step=5):
    """Feeds frames (bytearrays) every `step` ms; returns [(time, sensor, level)]."""
    out = []
    t = t0
    for f in seq:
        for i in range(deb.update(f, t)):
            out.append((t, deb.edges[i], deb.levels[i]))
        t += step
    return out


def frame(*bits):
    f = bytearray(13)
    for b in bits:
        f[b >> 3] |= 1 << (b & 7)
    return f


def test_first_frame_primes_the_board_as_edges():
    deb = Debouncer(104, 20)
    assert frames(deb, [frame(3, 100)]) == [(0, 3, 1), (0, 100, 1)]


def test_flicker_shorter_than_debounce_is_never_an_edge():
    deb = Debouncer(104, 20)
    noisy = [frame()] + [frame(7), frame(), frame(7), frame(7), frame(), frame(7), frame()] * 20
    assert frames(deb, noisy) == []  # never held 20 ms


def test_a_real_change_is_one_edge_after_the_debounce():
    deb = Debouncer(104, 20)
    seq = [frame()] + [frame(42)] * 10 + [frame()] * 10
    got = frames(deb, seq)
    assert got == [(25, 42, 1), (75, 42, 0)]  # held from 5 ms: settled at 25; off from 55
    assert not deb.busy()


def test_glitch_during_a_change_restarts_its_clock():
    deb = Debouncer(104, 20)
    seq = [frame(), frame(9), frame(9), frame(), frame(9), frame(9), frame(9), frame(9), frame(9)]
    got = frames(deb, seq)
    assert got == [(40, 9, 1)]  # the clock started again at 20 ms


def test_when_a_change_began_is_kept():
    deb = Debouncer(104, 20)
    frames(deb, [frame()])
    frames(deb, [frame(1)] * 6, t0=100)
    assert deb.started[0] == 100
