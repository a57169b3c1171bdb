# The table on the club's network (issue 30; docs/wifi.md): the `wifi` command's settings
# checked and kept on flash (wifi.json, written as store.py writes its files: a temporary
# file, a rename, a CRC), and the table's uplink (link/uplink.py) built with them. Loaded
# only by a table set up on Wi-Fi (power.power_up, when the flash holds wifi.json) or given
# the `wifi` command (table.py): a table without it keeps its heap as before.
import gc
import os

from store import _read, _write

# the `wifi` command's settings (link/commands.py), and those it needs
_WIFI = ("ssid", "password", "broker", "table", "secret")
_NEEDED = ("ssid", "broker", "table")
_FILE = "/wifi.json"
_CA = "/wifi.ca"  # the broker's CA certificate (DER), when the table speaks TLS to it
_CA_PART = ("ca", "ca-at", "ca-size")


def resume(t):
    """At power-up: the settings on flash, the table on the network with them (or an error
    event saying why they cannot be used)."""
    settings, why = load(t.store.folder)
    if why:
        t.link.emit({"type": "error", "what": "wifi", "why": why})
    if settings:
        network(t, settings)


def network(t, settings):
    """The table on the network: its station joins, its uplink (link/uplink.py) publishes
    the link's events to the broker and brings the club's commands. Heap: the client's
    buffers and the uplink's, made here once (measured in docs/wifi.md)."""
    from link.uplink import Uplink

    tls = None
    if "ca" in settings:  # TLS to the broker, its CA on flash: never plain in its stead
        tls, why = _context(t.store.folder, settings["ca"])
        if why:
            t.link.emit({"type": "error", "what": "wifi", "why": why})
            return
    if t.station is None:
        from hal.wlan import build

        wlan = build()
    else:
        wlan = t.station()
    t.link.table = settings["table"]
    t.net = Uplink(t.link, wlan, settings, tls=tls)


def _context(folder, crc):
    """(an ssl.SSLContext that checks the broker's certificate against the CA kept on
    flash, None), or (None, why not). The context's own buffers are mbedtls's (on an ESP32,
    ESP-IDF's heap, not MicroPython's: docs/wifi.md, TLS)."""
    from binascii import crc32

    try:
        import ssl
    except ImportError:
        return None, "this firmware has no TLS (ssl): the table stays off the network"
    try:
        with open(folder + _CA, "rb") as f:
            ca = f.read()
        if crc32(ca) & 0x3FFFFFFF != crc:
            return None, "the broker's CA on flash is damaged: set it up again (plateau wifi --ca)"
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.verify_mode = ssl.CERT_REQUIRED  # type: ignore[attr-defined]
        ctx.load_verify_locations(cadata=ca)
    except (OSError, ValueError) as e:
        return None, "the broker's CA cannot be used (%s)" % e
    return ctx, None


def command(t, cmd):
    """The `wifi` command (over USB only: the link refuses it from the network): the
    settings given, merged with those on flash, checked, kept, and the table on the network
    with them at once; `wifi off` leaves it and forgets them. None when done, else why
    refused; nothing said holds a password."""
    store = t.store
    if store is None:
        return "this table keeps nothing on flash: no Wi-Fi"
    folder = store.folder
    do = cmd.get("do")
    if do == "off":
        _leave(t)
        return forget(folder)
    if do == "plain":  # TLS no more: plain MQTT to the broker
        old, _ = load(folder)
        if not old:
            return "wifi is not set up"
        old.pop("ca", None)
        return _keep(t, folder, old) or _gone(folder + _CA)
    if do not in (None, "set"):
        return "wifi takes off, plain, or settings by name: " + ", ".join(_WIFI)
    if "ca" in cmd:
        return _ca(t, folder, cmd)
    given = {k: cmd[k] for k in _WIFI if k in cmd}
    if not given:
        return "wifi needs settings (%s), or off" % ", ".join(_WIFI)
    old, _ = load(folder)
    settings = old or {}
    settings.update(given)
    missing = [k for k in _NEEDED if k not in settings]
    if missing:
        return "wifi needs %s too" % ", ".join(missing)
    why = _broker(settings["broker"]) or _name(settings["table"])
    if why:
        return why
    return _keep(t, folder, settings)


def _keep(t, folder, settings):
    """The settings on flash, and the table on the network with them at once."""
    try:
        _write(folder + _FILE, folder + "/wifi.tmp", settings)
    except OSError as e:
        return "the flash refused the Wi-Fi settings (%s)" % e
    _leave(t)
    network(t, settings)
    return None


def _ca(t, folder, cmd):
    """A part of the broker's CA certificate (base64 of DER, `ca-at` where it starts, the
    whole `ca-size`), in order; the last part kept (wifi.ca, its CRC in the settings) and
    the table on the network over TLS. Parts come one command each (a frame holds 1 KB), the
    same part again with its id answered again by the link, not written twice."""
    from binascii import a2b_base64, crc32

    for k in cmd:
        if k not in _CA_PART and k not in ("cmd", "id", "do"):
            return "a part of the CA comes alone (ca, ca-at, ca-size), not with %s" % k
    size, at = cmd.get("ca-size"), cmd.get("ca-at", 0)
    if size is None:
        return "ca needs ca-size (the certificate's bytes)"
    old, _ = load(folder)
    if not old:
        return "set the network, broker and table up first, then the CA"
    try:
        part = a2b_base64(cmd["ca"])
    except ValueError:
        return "ca: a part is base64"
    tmp = folder + _CA + ".part"
    try:
        have = os.stat(tmp)[6] if at else 0
    except OSError:
        have = -1
    if have != at:
        return "ca: the part at %d is next, not the one at %d" % (max(have, 0), at)
    if at + len(part) > size:
        _gone(tmp)
        return "ca: the parts are longer than ca-size (%d): send them again from 0" % size
    try:
        with open(tmp, "ab" if at else "wb") as f:
            f.write(part)
        if at + len(part) < size:
            return None  # (the next part)
        with open(tmp, "rb") as f:
            crc = crc32(f.read()) & 0x3FFFFFFF
        os.rename(tmp, folder + _CA)
    except OSError as e:
        return "the flash refused the CA (%s)" % e
    old["ca"] = crc
    return _keep(t, folder, old)


def _gone(path):
    try:
        os.remove(path)
    except OSError:
        pass


def load(folder):
    """(settings, None), or (None, why they cannot be used: damaged, set aside as
    wifi.bad), or (None, None) when none were set up."""
    path = folder + _FILE
    try:
        with open(path, "rb") as f:
            d = _read(f)
        settings = d["state"]
        if not isinstance(settings, dict) or not isinstance(settings.get("table"), str):
            raise ValueError("not Wi-Fi settings")
        return settings, None
    except OSError as e:
        if e.args and e.args[0] == 2:  # ENOENT
            return None, None  # no Wi-Fi set up
        return None, "the Wi-Fi settings could not be read (%s)" % e
    except (ValueError, KeyError, TypeError) as e:
        try:
            os.rename(path, folder + "/wifi.bad")
        except OSError:
            pass
        return None, "the Wi-Fi settings on flash are damaged (%s): set them up again" % e


def forget(folder):
    """wifi off: the settings gone from flash. None, or why not."""
    try:
        os.remove(folder + _FILE)
    except OSError as e:
        if not (e.args and e.args[0] == 2):
            return "the flash refused (%s)" % e
    _gone(folder + _CA)
    return None


def _leave(t):
    if t.net:
        t.net.stop()
        t.net = None
        gc.collect()


def _broker(text):
    """HOST or HOST:PORT: an address or a name (looked up at each connection after a
    failure: an address waits for nothing), the port 1 to 65535."""
    host, _, port = text.partition(":")
    if not host or not _chars(host, "-."):
        return "broker must be HOST or HOST:PORT (an address or a name), not %r" % text
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        return "broker's port must be a number from 1 to 65535"
    return None


def _name(text):
    if not _chars(text, "-_"):
        return "table must be 1-32 letters, digits, - or _ (its topics: plateau/<table>/...)"
    return None


def _chars(text, more):
    for ch in text:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in more):
            return False
    return True
