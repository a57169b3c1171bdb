# The Wi-Fi driver (hal/wlan.py) against the stand-in for the esp32 port's network.WLAN
# (sim/wlan.py): joining, a wrong password, no network, a network lost and found again,
# leaving; what the table is told each time. Runs under pytest and MicroPython.
from hal import wlan
from hal.wlan import JOINED, JOINING, NO_NETWORK, OFF, WRONG_PASSWORD, Wlan
from sim import VirtualClock
from sim.wlan import STAT_CONNECTING, STAT_GOT_IP, SimWLAN


def station(**kw):
    clock = VirtualClock()
    iface = SimWLAN(clock, **kw)
    iface.network("club", "secret", rssi=-58)
    return clock, iface, Wlan(iface)


def run(clock, w, ms, step=50):
    """Steps the driver for ms of simulated time; the states it went through, in order."""
    seen = []
    for _ in range(ms // step):
        clock.sleep_ms(step)
        s = w.step(clock.ticks_ms())
        if not seen or seen[-1] != s:
            seen.append(s)
    return seen


def test_joining_takes_the_join_time_then_says_joined():
    clock, iface, w = station(join_ms=1500)
    assert w.state() == OFF and w.rssi() is None and w.address() is None
    w.join("club", "secret")
    assert w.state() == JOINING and iface.status() == STAT_CONNECTING
    assert run(clock, w, 1450) == [JOINING]
    assert run(clock, w, 100) == [JOINED]
    assert w.joins == 1 and w.joined() and iface.status() == STAT_GOT_IP
    assert w.rssi() == -58 and w.address() == "192.168.4.2"


def test_a_wrong_password_is_said_and_asked_again_later():
    clock, iface, w = station(auth_ms=800)
    w.join("club", "wrong")
    assert run(clock, w, 750) == [JOINING]  # the first attempt under way
    assert run(clock, w, 2250) == [WRONG_PASSWORD]  # the reason shows while it tries again
    # the port stops after reconnects + 1 attempts (the driver sets reconnects=4) ...
    assert iface.config("reconnects") == 4
    run(clock, w, 3000)
    assert iface.attempts == 5
    # ... and the driver asks again once it has given up for 10 s
    run(clock, w, 10000)
    assert iface.attempts > 5
    assert w.joins == 0 and w.state() == WRONG_PASSWORD and w.rssi() is None


def test_no_such_network():
    clock, iface, w = station()
    w.join("elsewhere", "secret")
    assert run(clock, w, 2500) == [JOINING, NO_NETWORK]
    assert not w.joined()


def test_a_network_lost_then_back_is_joined_again_and_counted():
    clock, iface, w = station(join_ms=1000, lost_ms=6000)
    w.join("club", "secret")
    run(clock, w, 1100)
    assert w.state() == JOINED
    iface.outage("club", False)
    # ESP-IDF notices after its beacon timeout; then the port tries and finds nothing
    assert run(clock, w, 5950) == [JOINED]
    seen = run(clock, w, 4000)
    assert seen[0] == JOINING and NO_NETWORK in seen and w.losses == 1
    iface.outage("club", True)
    seen = run(clock, w, 30000)
    assert seen[-1] == JOINED and w.joins == 2


def test_losses_after_the_ports_attempts_are_spent_still_come_back():
    # the port counts its reconnections since connect(), joins in between included: after
    # five losses it stops trying, and the driver's own connect() starts it again
    clock, iface, w = station(join_ms=500, lost_ms=1000)
    w.join("club", "secret")
    for _ in range(8):
        run(clock, w, 800)
        assert w.state() == JOINED
        iface.outage("club", False)
        run(clock, w, 1500)
        iface.outage("club", True)
        run(clock, w, 12000)
    assert w.state() == JOINED and w.losses == 8 and w.joins == 9


def test_leaving():
    clock, iface, w = station(join_ms=100)
    w.join("club", "secret")
    run(clock, w, 200)
    w.leave()
    assert w.state() == OFF and not w.joined()
    assert run(clock, w, 20000) == [OFF]


def test_the_names_cover_every_state():
    assert len(wlan.NAMES) == 6 and wlan.NAMES[WRONG_PASSWORD] == "wrong password"
