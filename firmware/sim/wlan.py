# A stand-in for MicroPython's network.WLAN(STA_IF) on an ESP32, for the simulator and the
# tests: the calls and status codes of the esp32 port (ports/esp32/network_wlan.c, v1.2x),
# driven by simulated time and a world the test sets (which networks answer, with what
# password and signal). The real driver (hal/wlan.py) runs against it. Never deployed.
#
# What it follows from the port's code:
# - active(True) then connect(ssid, key): returns at once, the join goes on in the
#   background; connect() without arguments tries again with the network it was given.
# - While connect() stands, each failed attempt records ESP-IDF's reason and the port tries
#   again at once, up to reconnects + 1 attempts (config(reconnects=N), -1 for ever).
# - status(): 1010 (STAT_GOT_IP) when joined; the last reason if it is 201 (NO_AP_FOUND) or
#   202 (AUTH_FAIL); 1000 (STAT_IDLE) after disconnect(); 1001 (STAT_CONNECTING) while
#   attempts remain; else the reason (200 BEACON_TIMEOUT after a loss, ...).
# - status("rssi") raises OSError when not joined; isconnected() is True only with an address.
# What the timing rests on: nothing measured here. An attempt takes `join_ms` (default
# 2000: association, the WPA2 handshake and DHCP; ESP-IDF's own examples print a few hundred
# ms to a few seconds), a refused password `auth_ms`; a lost network is noticed after the
# beacon timeout (ESP-IDF's default: 6 s without beacons; `lost_ms`). It cannot express
# signal that fades, roaming between access points, or a wrong password that an access point
# reports as a handshake timeout (204) rather than 202: the driver takes both alike.
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
BEACON_TIMEOUT = 200
NO_AP_FOUND = 201
AUTH_FAIL = 202


class SimWLAN:
    def __init__(self, clock, join_ms=2000, auth_ms=1000, lost_ms=6000):
        self._clock = clock
        self.join_ms = join_ms
        self.auth_ms = auth_ms
        self.lost_ms = lost_ms
        self.networks = {}  # ssid -> [password, rssi, up]
        self._active = False
        self._ssid = None
        self._key = None
        self._requested = False
        self._connected = False
        self._reason = 0
        self._limit = 0  # the port's conf_wifi_sta_reconnects: 0 for ever, else reconnects + 1
        self._tries = 0  # disconnections since connect() (the port's wifi_sta_reconnects)
        self._next_reason = 0
        self._until = None  # when the attempt under way ends
        self._lost_at = None  # when the network went away while joined
        self.attempts = 0  # attempts made (for the tests)

    # --- the world --------------------------------------------------------------------------

    def network(self, ssid, password, rssi=-60):
        self.networks[ssid] = [password, rssi, True]

    def outage(self, ssid, up):
        """The access point goes away (up False) or comes back."""
        self.networks[ssid][2] = up
        if not up and self._connected and self._ssid == ssid and self._lost_at is None:
            self._lost_at = self._clock.ticks_ms()

    # --- network.WLAN -----------------------------------------------------------------------

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self._connected = self._requested = False
            self._until = None
        return None

    def config(self, *args, **kw):
        if "reconnects" in kw:
            n = kw["reconnects"]
            self._limit = 0 if n == -1 else n + 1
            return None
        if args == ("reconnects",):
            return self._limit - 1
        if args in (("ssid",), ("essid",)):
            return self._ssid or ""
        raise ValueError("unknown config param")

    def connect(self, ssid=None, key=None):
        if not self._active:
            raise OSError("Wifi Not Started")
        if ssid is not None:
            self._ssid, self._key = ssid, key
        self._requested = True
        self._tries = 0
        self._connected = False
        self._attempt(self._clock.ticks_ms())

    def disconnect(self):
        self._requested = False
        self._connected = False
        self._until = None
        self._reason = 8  # ASSOC_LEAVE: status() says STAT_IDLE

    def isconnected(self):
        self._advance()
        return self._connected

    def status(self, param=None):
        self._advance()
        if param == "rssi":
            if not self._connected:
                raise OSError("Wifi Not Connected")  # esp_wifi_sta_get_ap_info fails
            return self.networks[self._ssid][1]
        if param is not None:
            raise ValueError("unknown status param")
        if self._connected:
            return STAT_GOT_IP
        if self._reason in (NO_AP_FOUND, AUTH_FAIL):
            return self._reason
        if self._reason == 8:
            return STAT_IDLE
        if self._requested and (self._limit == 0 or self._tries < self._limit):
            return STAT_CONNECTING
        return self._reason or STAT_IDLE

    def ifconfig(self):
        return ("192.168.4.2", "255.255.255.0", "192.168.4.1", "192.168.4.1")

    # --- the background join ------------------------------------------------------------

    def _attempt(self, now):
        self.attempts += 1
        net = self.networks.get(self._ssid)
        if net is None or not net[2]:
            self._until, self._next_reason = now + self.join_ms, NO_AP_FOUND
        elif net[0] != self._key:
            self._until, self._next_reason = now + self.auth_ms, AUTH_FAIL
        else:
            self._until, self._next_reason = now + self.join_ms, 0

    def _advance(self):
        now = self._clock.ticks_ms()
        if self._lost_at is not None and now - self._lost_at >= self.lost_ms:
            self._lost_at = None
            self._connected = False
            self._disconnected(now, BEACON_TIMEOUT)
        while self._until is not None and now >= self._until:
            at, reason = self._until, self._next_reason
            self._until = None
            net = self.networks.get(self._ssid)
            if reason == 0 and net is not None and net[2]:
                self._connected = True
                self._reason = 0
            else:
                self._disconnected(at, reason or NO_AP_FOUND)

    def _disconnected(self, at, reason):
        """The port's STA_DISCONNECTED handler: keep the reason, try again while asked and
        the attempts are not spent (a join in between does not give them back)."""
        self._reason = reason
        if not self._requested:
            return
        self._tries += 1
        if self._limit == 0 or self._tries < self._limit:
            self._attempt(at)
