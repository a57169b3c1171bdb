# The MQTT client's figures under MicroPython (printed by tests/bench/mqtt.py, which starts
# the broker): the heap the client and its buffers take, what an idle step allocates, the
# worst step and publish while publishing flat out, events a second to a real Mosquitto, and
# with a CA file what a TLS connection takes. Measures and prints; asserts nothing.
#   micropython mqttbench.py PORT [TLS_PORT CA_DER]
import gc
import sys
import time

gc.collect()
free0 = gc.mem_free()
from link.mqtt import UP, Client  # noqa: E402

gc.collect()
free1 = gc.mem_free()
acks = [0]


def on_ack(pid, tag):
    acks[0] += 1


c = Client("bench", keepalive_s=30, on_ack=on_ack, on_message=lambda t, p: None)
gc.collect()
free2 = gc.mem_free()
print(
    "heap: module %d B, a client with its buffers (tx 1024, rx 512, window 16) %d B"
    % (free0 - free1, free1 - free2)
)


def rss():
    """VmRSS and VmHWM in KB from /proc (the unix port's mbedtls allocates outside the heap)."""
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out["VmRSS"], out["VmHWM"]


def connect(c, port):
    c.server("127.0.0.1", port)
    c.start(time.ticks_ms())
    t0 = time.ticks_ms()
    worst = 0
    while c.state != UP and time.ticks_diff(time.ticks_ms(), t0) < 5000:
        a = time.ticks_us()
        c.step(time.ticks_ms())
        worst = max(worst, time.ticks_diff(time.ticks_us(), a))
        time.sleep_ms(1)
    return worst


port = int(sys.argv[1])
connect(c, port)
assert c.state == UP, c.why
# idle: nothing to send, nothing come
for _ in range(50):
    c.step(time.ticks_ms())
gc.collect()
a0 = gc.mem_alloc()
t0 = time.ticks_us()
for _ in range(1000):
    c.step(time.ticks_ms())
dt = time.ticks_diff(time.ticks_us(), t0)
print("idle step: %d B allocated over 1000 steps, %.1f us each" % (gc.mem_alloc() - a0, dt / 1000))

# flat out: 5000 events of the link's shape, as many a pass as the window takes
N = 5000
body = b'"type":"move","card":"7H","from":"R12","to":"R19","pawn":2}'
worst_step = worst_pub = 0
steps = sent = 0
t0 = time.ticks_ms()
while acks[0] < N and time.ticks_diff(time.ticks_ms(), t0) < 60000:
    a = time.ticks_us()
    c.step(time.ticks_ms())
    worst_step = max(worst_step, time.ticks_diff(time.ticks_us(), a))
    steps += 1
    while sent < N:
        head = b'{"boot":"0badcafe","seq":%d,' % (sent + 1)
        a = time.ticks_us()
        ok = c.publish(b"plateau/t1/events", body, head, tag=sent + 1)
        worst_pub = max(worst_pub, time.ticks_diff(time.ticks_us(), a))
        if not ok:
            break
        sent += 1
dt = time.ticks_diff(time.ticks_ms(), t0)
print(
    "publishing: %d events acknowledged in %d ms: %d events/s, %d steps;"
    " worst step %d us, worst publish %d us"
    % (acks[0], dt, acks[0] * 1000 // max(1, dt), steps, worst_step, worst_pub)
)
c.stop()

try:
    import ssl
except ImportError:  # the 32-bit build: its source snapshot has no mbedtls
    ssl = None
    if len(sys.argv) > 3:
        print("TLS: this build has no ssl module: not measured on it")
if ssl is not None and len(sys.argv) > 3:
    gc.collect()
    f0 = gc.mem_free()
    rss0 = rss()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl.CERT_REQUIRED
    with open(sys.argv[3], "rb") as f:
        ctx.load_verify_locations(cadata=f.read())
    gc.collect()
    print("TLS: the context with the CA loaded, Python heap %d B" % (f0 - gc.mem_free()))
    t = Client("bench-tls", tls=ctx, on_ack=on_ack)
    a = time.ticks_ms()
    worst = connect(t, int(sys.argv[2]))
    took = time.ticks_diff(time.ticks_ms(), a)
    assert t.state == UP, t.why
    gc.collect()
    rss1 = rss()
    print(
        "TLS (EC P-256, verified against the run's CA): connected in %d ms, worst step %d us;"
        " Python heap %d B (context, socket, client); process memory +%d KB (mbedtls outside"
        " the heap on the unix port), peak +%d KB"
        % (took, worst, f0 - gc.mem_free(), rss1[0] - rss0[0], rss1[1] - rss0[1])
    )
    t.stop()
