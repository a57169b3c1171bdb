"""The Wi-Fi table's client under faults (issue 30): the board's MQTT client (link/mqtt.py,
under MicroPython: tests/firmware/mqttpub.py) publishes numbered events to a real Mosquitto
on 127.0.0.1 through a TCP relay of ours that knows nothing of MQTT and, at seeded random
points, cuts connections, resets them, stalls them, leaves them half-open and refuses new
ones; the broker itself is restarted. A subscriber (paho, a persistent session, directly on
the broker) counts what arrived against what the table was given, dropping repeats by boot
and seq as the scoreboard does (plateau.logger.Repeats): 0 lost, 0 duplicated, 0 out of
order. A scoreboard sends commands with ids until each is answered: every one must be.

Two ways to restart the broker:
- `persistent`: with its persistence (SIGTERM: it saves its sessions and queues), so the
  table's session and the subscriber's queue survive;
- not: without persistence, so the table reconnects to a broker that forgot its session
  and its subscription. The table must not take what it had in flight for delivered, and
  must subscribe again. The relay is held closed around such a restart until the subscriber
  has what the broker had and is subscribed again: what a broker with no memory loses of its
  own (a queue for an absent subscriber) is not the client's to count.

  python tests/host/mqttcampaign.py --seconds 300 --seed 7      (the long form; make mqtt-soak)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools"))

import paho.mqtt.client as mqtt  # noqa: E402

from plateau.club.broker import free_port, mosquitto  # noqa: E402
from plateau.repeats import Repeats  # noqa: E402

USERS = {"t1": "t1-secret", "club": "club-secret"}


# --- the broker --------------------------------------------------------------------------------


class Broker:
    """Mosquitto on 127.0.0.1 with the club's users: the table writes its own topics, the
    scoreboard reads every table and writes their commands. TLS with `tls` (cert, key)."""

    def __init__(self, folder: Path, persistent: bool, tls: tuple[Path, Path] | None = None):
        self.folder = folder
        self.port = free_port()
        self.persistent = persistent
        passwd = folder / "passwd"
        passwd.write_text("".join(f"{u}:{p}\n" for u, p in USERS.items()))
        subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True)
        (folder / "acl").write_text(
            "pattern readwrite plateau/%u/#\n"
            "user club\ntopic read plateau/#\ntopic write plateau/+/commands\n"
        )
        conf = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {folder / 'acl'}",
            "max_queued_messages 100000",
            f"log_dest file {folder / 'mosquitto.log'}",
        ]
        if tls:
            conf += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        if persistent:
            conf += ["persistence true", f"persistence_location {folder}/", "autosave_interval 1"]
        if os.geteuid() == 0:
            conf.append("user root")
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(conf) + "\n")
        self.proc: subprocess.Popen | None = None
        self.restarts = 0

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [mosquitto(), "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start: " + self.proc.stderr.read().decode())

    def stop(self) -> None:
        if self.proc:
            self.proc.terminate()  # SIGTERM: with persistence, it saves before it goes
            self.proc.wait(10)
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()
        self.restarts += 1


# --- the relay ---------------------------------------------------------------------------------


class Relay:
    """TCP from the table to the broker, with faults drawn from a seeded generator. It reads
    and writes bytes: it knows nothing of MQTT (or TLS), so its faults fall anywhere."""

    KINDS = ("cut", "reset", "stall", "half-open", "refuse")

    def __init__(self, target: int, rng: random.Random):
        self.target = target
        self.rng = rng
        self.port = free_port()
        self.server = socket.create_server(("127.0.0.1", self.port))
        self.closed = threading.Event()  # set: refuse every connection (the network is gone)
        self.calm = threading.Event()  # set: no more faults (the end of the run)
        self.faults = {k: 0 for k in self.KINDS}
        self.conns: list[_Conn] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                s, _ = self.server.accept()
            except OSError:
                return
            if self.closed.is_set():
                s.close()
                continue
            try:
                up = socket.create_connection(("127.0.0.1", self.target), 2)
            except OSError:
                s.close()
                continue
            up.settimeout(None)  # (2 s to connect; after that, a quiet broker is no fault: it
            # was one, every idle connection cut after 2 s, that no fault counter counted)
            conn = _Conn(s, up)
            with self.lock:
                self.conns = [c for c in self.conns if not c.dead.is_set()] + [conn]
            conn.start()

    def fault(self) -> str:
        """One fault on the live connection (or the network refused for a while)."""
        kind = self.rng.choice(self.KINDS)
        with self.lock:
            live = [c for c in self.conns if not c.dead.is_set()]
        if kind == "refuse" or not live:
            kind = "refuse"
            self.closed.set()
            for c in live:
                c.kill(reset=self.rng.random() < 0.5)
            threading.Timer(self.rng.uniform(0.2, 2.5), self.closed.clear).start()
        else:
            c = live[-1]
            if kind == "cut":
                c.kill(reset=False)
            elif kind == "reset":
                c.kill(reset=True)
            elif kind == "stall":
                c.stall(self.rng.uniform(0.1, 3.0))
            else:  # half-open: one way (or both) goes dark for good, the sockets stay open
                c.dark(self.rng.choice(("up", "down", "both")))
        self.faults[kind] += 1
        return kind

    def cut_all(self) -> None:
        with self.lock:
            for c in self.conns:
                c.kill(reset=False)

    def close(self) -> None:
        self.server.close()
        with self.lock:
            for c in self.conns:
                c.kill(reset=False)


class _Conn:
    def __init__(self, down: socket.socket, up: socket.socket):
        self.down, self.up = down, up
        self.dead = threading.Event()
        self.go = threading.Event()
        self.go.set()
        self.darkened: set[str] = set()

    def start(self) -> None:
        threading.Thread(target=self._pump, args=(self.down, self.up, "up"), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.up, self.down, "down"), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, way: str) -> None:
        try:
            while not self.dead.is_set():
                data = src.recv(random.randint(1, 4096))  # any split: faults fall mid-packet
                if not data:
                    break
                self.go.wait()
                if self.dead.is_set():
                    break
                if way in self.darkened or "both" in self.darkened:
                    continue  # swallowed: the other end hears nothing
                dst.sendall(data)
        except OSError:
            pass
        self.kill(reset=False)

    def kill(self, reset: bool) -> None:
        if self.dead.is_set():
            return
        self.dead.set()
        self.go.set()
        for s in (self.down, self.up):
            try:
                if reset:  # RST, not FIN
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
                s.close()
            except OSError:
                pass

    def stall(self, seconds: float) -> None:
        self.go.clear()
        threading.Timer(seconds, self.go.set).start()

    def dark(self, way: str) -> None:
        self.darkened.add(way)


# --- the scoreboard's side ---------------------------------------------------------------------


class Subscriber:
    """The events as the scoreboard takes them: a persistent session, QoS 1, repeats dropped
    by boot and seq; and the commands sent until answered."""

    def __init__(self, port: int, tls_ca: Path | None):
        self.repeats = Repeats()
        self.seqs: list[int] = []  # first arrivals, in order
        self.ns: list[int] = []  # their payload's own number (the ring's bytes)
        self.arrived = self.duplicated = self.out_of_order = 0
        self.answered: set[int] = set()
        self.last = time.monotonic()
        self.subscribed = threading.Event()
        self.lock = threading.Lock()
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id="campaign-scoreboard", clean_session=False
        )
        c.username_pw_set("club", USERS["club"])
        if tls_ca:
            c.tls_set(ca_certs=str(tls_ca))
        c.reconnect_delay_set(0.05, 0.2)
        c.on_connect = self._on_connect
        c.on_subscribe = lambda *a: self.subscribed.set()
        c.on_disconnect = lambda *a: self.subscribed.clear()
        c.on_message = self._on_message
        self.client = c
        c.connect("127.0.0.1", port, keepalive=5)
        c.loop_start()

    def _on_connect(self, client, userdata, flags, rc, props) -> None:
        client.subscribe([("plateau/t1/events", 1), ("plateau/t1/answers", 1)])

    def _on_message(self, client, userdata, msg) -> None:
        ev = json.loads(msg.payload)
        with self.lock:
            self.last = time.monotonic()
            if msg.topic.endswith("answers"):
                self.answered.add(ev["id"])
                return
            self.arrived += 1
            if self.repeats.seen(ev):
                self.duplicated += 1
                return
            if self.repeats.odd or (self.seqs and ev["seq"] != self.seqs[-1] + 1):
                self.out_of_order += 1
            self.seqs.append(ev["seq"])
            self.ns.append(ev["n"])

    def command(self, cid: int) -> None:
        self.client.publish("plateau/t1/commands", json.dumps({"cmd": "undo", "id": cid}), qos=1)

    def quiet(self, seconds: float, timeout: float = 10) -> None:
        """Waits until nothing has come for `seconds` and the subscription stands."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.subscribed.is_set() and time.monotonic() - self.last >= seconds:
                return
            time.sleep(0.05)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


# --- the run -----------------------------------------------------------------------------------


def micropython() -> str:
    return str(ROOT / ".venv" / "bin" / "micropython")


def tls_files(folder: Path) -> tuple[Path, Path, Path]:
    """A CA made for the run and a server certificate for 127.0.0.1 signed by it
    (openssl, EC P-256): (ca.der for the board, cert, key); ca.pem beside them."""
    run = lambda *a: subprocess.run(a, check=True, cwd=folder, capture_output=True)  # noqa: E731
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key")
    run("openssl", "req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=plateau test CA",
        "-days", "1", "-out", "ca.pem")  # fmt: skip
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "srv.key")
    run("openssl", "req", "-new", "-key", "srv.key", "-subj", "/CN=127.0.0.1", "-out", "srv.csr")
    (folder / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", "ext", "-out", "srv.pem")  # fmt: skip
    run("openssl", "x509", "-in", "ca.pem", "-outform", "der", "-out", "ca.der")
    return folder / "ca.der", folder / "srv.pem", folder / "srv.key"


def campaign(
    seed: int,
    seconds: float,
    events: int,
    persistent: bool,
    tls: bool = False,
    commands: int = 10,
    folder: Path | None = None,
) -> dict:
    """One run; the counts (see the module's comment). `seconds`: how long faults come."""
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="plateau-mqtt-", dir=folder))
    try:
        certs = tls_files(tmp) if tls else None
        broker = Broker(tmp, persistent, (certs[1], certs[2]) if certs else None)
        broker.start()
        relay = Relay(broker.port, rng)
        sub = Subscriber(broker.port, tmp / "ca.pem" if certs else None)
        sub.quiet(0, 10)
        rate = max(1, int(events / seconds))
        env = dict(
            os.environ, MICROPYPATH=f".frozen:{ROOT / 'firmware'}:{ROOT / 'tests' / 'firmware'}"
        )
        args = [micropython(), "-X", "heapsize=512k", str(ROOT / "tests/firmware/mqttpub.py")]
        args += [str(relay.port), str(events), str(rate), str(int(seconds * 3 + 60)), str(commands)]
        if certs:
            args.append(str(certs[0]))
        pub = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        t0 = time.monotonic()
        sent_cmds = 0
        restarts_due = sorted(
            rng.uniform(0.15, 0.85) * seconds for _ in range(max(1, int(seconds / 6)))
        )
        next_fault = rng.uniform(0.2, 1.2)
        while time.monotonic() - t0 < seconds:
            t = time.monotonic() - t0
            if restarts_due and t >= restarts_due[0]:
                restarts_due.pop(0)
                if persistent:
                    broker.restart()
                else:  # the board's network closed until the subscriber is whole again
                    relay.closed.set()
                    relay.cut_all()
                    sub.quiet(0.5)
                    broker.restart()
                    sub.quiet(0.2)
                    relay.closed.clear()
            if t >= next_fault:
                relay.fault()
                next_fault = t + rng.uniform(0.2, 1.5)
            if sent_cmds < commands and rng.random() < 0.05:
                sent_cmds += 1
                sub.command(sent_cmds)
            time.sleep(0.05)
        relay.calm.set()
        relay.closed.clear()
        while sent_cmds < commands:
            sent_cmds += 1
            sub.command(sent_cmds)
        # the scoreboard sends again, same id, whatever was not answered (at least once)
        deadline = time.monotonic() + seconds + 60
        while pub.poll() is None and time.monotonic() < deadline:
            for cid in range(1, commands + 1):
                if cid not in sub.answered:
                    sub.command(cid)
            time.sleep(0.5)
        if pub.poll() is None:
            pub.kill()
        out, err = pub.communicate()
        sub.quiet(0.5)
        lines = out.decode().strip().splitlines()
        if pub.returncode or not lines:
            raise RuntimeError(
                f"the table failed (exit {pub.returncode}): {(out + err).decode()[-2000:]}"
            )
        table = json.loads(lines[-1])
        got = set(sub.seqs)
        result = {
            "seed": seed,
            "persistent": persistent,
            "tls": tls,
            "given": table["given"],
            "arrived": sub.arrived,
            "lost": len(set(range(1, table["given"] + 1)) - got),
            # what the dedup by boot and seq let through twice (the same ring bytes again
            # under another number), and bytes published under another event's number
            "duplicated": len(sub.ns) - len(set(sub.ns)),
            "mislabelled": sum(s != n for s, n in zip(sub.seqs, sub.ns)),
            "repeats_dropped": sub.duplicated,
            "out_of_order": sub.out_of_order,
            "commands": commands,
            "commands_taken": table["commands"],
            "commands_answered": len(sub.answered),
            "connections": table["ups"],
            "attempts": table["attempts"],
            "broker_restarts": broker.restarts,
            "faults": dict(relay.faults),
            "worst_step_us": table["worst_step_us"],
            "ring_first": table["ring_first"],
        }
        sub.close()
        relay.close()
        broker.stop()
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def line(r: dict) -> str:
    faults = " ".join(f"{k} {v}" for k, v in r["faults"].items())
    return (
        f"mqtt relay campaign seed {r['seed']} ("
        f"{'persistent' if r['persistent'] else 'no persistence'}{', TLS' if r['tls'] else ''}):"
        f" {r['given']} events given, {r['lost']} lost,"
        f" {r['duplicated']} duplicated, {r['out_of_order']} out of order"
        f" ({r['repeats_dropped']} QoS-1 repeats dropped by boot+seq);"
        f" commands {r['commands_answered']}/{r['commands']} answered, {r['commands_taken']} taken;"
        f" {r['connections']} connections, {r['broker_restarts']} broker restarts; faults: {faults}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="seeds from --seed on, each both ways")
    a = ap.parse_args()
    if mosquitto() is None or not shutil.which("mosquitto_passwd"):
        print("mosquitto is not installed (apt-get install mosquitto)")
        return 2
    bad = 0
    for seed in range(a.seed, a.seed + a.runs):
        for persistent, tls in ((True, False), (False, False), (True, True)):
            events = min(2000, int(a.seconds * 6))
            r = campaign(seed, a.seconds, events, persistent, tls)
            print(line(r), flush=True)
            bad += bool(r["lost"] or r["duplicated"] or r["out_of_order"] or r["mislabelled"])
            bad += r["commands_answered"] != r["commands"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
