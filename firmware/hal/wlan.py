# The Wi-Fi station: a driver handed the board's network.WLAN(network.STA_IF) (or the
# simulator's stand-in, sim/wlan.py), as the other drivers are handed their bus. It joins a
# network, says where it stands in the table's words (`state()`), the signal, and asks again
# when the port stopped trying. Nothing here waits: every call returns at once.
#
# What it rests on: MicroPython's esp32 port, ports/esp32/network_wlan.c (v1.2x):
# - connect(ssid, key) returns at once; ESP-IDF joins in the background (esp_wifi_connect).
# - On each disconnection the port keeps ESP-IDF's reason and calls esp_wifi_connect() again
#   by itself while connect() stands, up to `reconnects` + 1 attempts (config(reconnects=N);
#   -1, the default, is for ever). disconnect() ends that.
# - status(): STAT_GOT_IP (1010) once an address is got; else the last reason if it is
#   NO_AP_FOUND (201; 210-212 on ESP-IDF 5.2 and later) or AUTH_FAIL (202, also returned for
#   CONNECTION_FAIL, 205); STAT_IDLE (1000) after disconnect(); STAT_CONNECTING (1001) while
#   it tries again; once the attempts ran out, the reason itself (200 BEACON_TIMEOUT,
#   203 ASSOC_FAIL, 204 HANDSHAKE_TIMEOUT, 15 4WAY_HANDSHAKE_TIMEOUT, ...).
# - status("rssi") is the access point's signal in dBm; it raises OSError when not joined.
# A wrong WPA2 password ends as 202, or as 204 or 15 (the 4-way handshake timing out), by the
# access point: all three are a wrong password here. The attempts are limited
# (_RECONNECTS) so that such a reason shows through STAT_CONNECTING; the driver asks again
# itself after _RETRY_MS. Not run on a board here: the stand-in follows the port's code above.
from micropython import const

from clock import elapsed

# the table's words for where the station stands
OFF = const(0)  # not asked to join, or left
JOINING = const(1)
JOINED = const(2)  # an address got: the broker can be tried
NO_NETWORK = const(3)  # no access point of that name answers
WRONG_PASSWORD = const(4)
FAILED = const(5)  # another reason: told by `reason`
NAMES = ("off", "joining", "joined", "no network", "wrong password", "failed")

_STAT_IDLE = const(1000)
_STAT_CONNECTING = const(1001)
_STAT_GOT_IP = const(1010)
_BEACON_TIMEOUT = const(200)
_NO_AP_FOUND = const(201)
_AUTH_FAIL = const(202)
_HANDSHAKE_TIMEOUT = const(204)
_CONNECTION_FAIL = const(205)
_4WAY_HANDSHAKE_TIMEOUT = const(15)
_RECONNECTS = const(4)  # the port's own attempts after a loss before it says why
_RETRY_MS = const(10000)  # then asked again this long after it gave up


class Wlan:
    names = NAMES  # each state in words

    def __init__(self, iface):
        self._if = iface
        self._wanted = False
        self._gave_up = None  # when the port was found not trying any more
        self._was = OFF
        self.joins = 0  # times an address was got
        self.losses = 0  # times the network was lost once joined
        self.reason = 0  # the port's last status when not joined (its code, for selftest)

    def join(self, ssid, password):
        """Start joining; the password goes to ESP-IDF and is not kept here."""
        iface = self._if
        iface.active(True)
        iface.config(reconnects=_RECONNECTS)
        iface.connect(ssid, password)
        self._wanted = True
        self._gave_up = None

    def leave(self):
        self._wanted = False
        try:
            self._if.disconnect()
        except OSError:
            pass

    def state(self):
        """OFF, JOINING, JOINED, NO_NETWORK, WRONG_PASSWORD or FAILED: one status() call,
        no allocation."""
        st = self._if.status()
        if st == _STAT_GOT_IP:
            return JOINED
        if not self._wanted:
            return OFF
        if st == _STAT_CONNECTING or st == _STAT_IDLE:
            return JOINING
        if st == _AUTH_FAIL or st == _CONNECTION_FAIL:
            return WRONG_PASSWORD
        if st == _HANDSHAKE_TIMEOUT or st == _4WAY_HANDSHAKE_TIMEOUT:
            return WRONG_PASSWORD
        if st == _NO_AP_FOUND or 210 <= st <= 212:
            return NO_NETWORK
        if st == _BEACON_TIMEOUT:
            return JOINING  # the access point went quiet: the port tries again
        return FAILED

    def step(self, now):
        """Call now and then (each pass is fine: status() is a C call that allocates
        nothing). Counts joins and losses, and asks the port again once it stopped trying."""
        s = self.state()
        if s == JOINED:
            if self._was != JOINED:
                self.joins += 1
            self._gave_up = None
        elif self._was == JOINED:
            self.losses += 1
        if s in (NO_NETWORK, WRONG_PASSWORD, FAILED) and self._wanted:
            self.reason = self._if.status()
            if self._gave_up is None:
                self._gave_up = now
            elif elapsed(now, self._gave_up) >= _RETRY_MS:
                self._gave_up = None
                try:
                    self._if.connect()  # the network and password ESP-IDF kept
                except OSError:
                    pass
        self._was = s
        return s

    def joined(self):
        return self._if.isconnected()

    def rssi(self):
        """The signal in dBm, or None when not joined."""
        try:
            return self._if.status("rssi")
        except (OSError, ValueError):
            return None

    def address(self):
        """The board's IP address, or None (allocates: for selftest, not every pass)."""
        if not self._if.isconnected():
            return None
        return self._if.ifconfig()[0]


def build():
    """The board's station interface: network imported only here, on a board."""
    import network

    return Wlan(network.WLAN(network.STA_IF))
