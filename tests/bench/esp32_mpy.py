# ESP32 estimates for the firmware benchmarks, calibrated in the same process with a
# reference workload whose ESP32 time is published: pystone_lowmem (micropython-lib), which an
# ESP32 at 240 MHz runs at 1661 pystones/s with the official MicroPython v1.12 image and
# 1075 pystones/s with v1.13 plus ulab (micropython/micropython#5673,
# v923z/micropython-ulab#296). The ratio of this port's pystones to those is the range every
# ESP32 figure is multiplied by: an estimate, not a measurement.
ESP32_PYSTONES = (1661, 1075)


def calibrate():
    """This port's pystones/s, or None without the reference workload: the best of 30 short
    runs timed in microseconds (pystone's own timing is in ms). On a machine busy with other
    work a long run is rarely left alone; a short one often is, as are the best-of timings
    the ratio scales, so that both sides of the ratio are timed the same way."""
    try:
        import pystone_lowmem
    except ImportError:
        return None
    import time

    null = 1 << 30  # pystone takes its empty loop off: the fastest of ten, timed apart
    for _ in range(10):
        t0 = time.ticks_us()
        for i in range(1000):
            pass
        null = min(null, time.ticks_diff(time.ticks_us(), t0))
    best = 0
    for _ in range(30):
        t0 = time.ticks_us()
        pystone_lowmem.pystones(1000)  # its own empty loop, then the work
        work = time.ticks_diff(time.ticks_us(), t0) - 2 * null
        if work > 2 * null:  # a sane run (the work is many times the empty loop)
            best = max(best, 1000 * 1000000 // work)
    return best or None


HERE = calibrate()
SLOW = (HERE / ESP32_PYSTONES[0], HERE / ESP32_PYSTONES[1]) if HERE else (0.0, 0.0)


def esp32(us):
    if not HERE:
        return "no ESP32 estimate: reference workload missing"
    return "ESP32 est. %.1f-%.1f ms" % (us * SLOW[0] / 1000, us * SLOW[1] / 1000)


def reference():
    if not HERE:
        return "reference workload missing: no ESP32 estimates (see tests/bench/fetch_reference.py)"
    return (
        "reference: pystone_lowmem %d pystones/s here; an ESP32 at 240 MHz 1661 (v1.12) to "
        "1075 (v1.13+ulab): this port runs %.0f-%.0f times faster" % (HERE, SLOW[0], SLOW[1])
    )
