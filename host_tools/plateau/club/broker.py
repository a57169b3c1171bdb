"""A Mosquitto broker set up as docs/club.md says a club's should be: a password file, no
anonymous clients, each table allowed to write only its own topics (its user name is the
table's name) and to read its commands, the scoreboard reading everything and writing only
the tables' commands. Used by the tests and the benchmark (on 127.0.0.1,
a free port, in a folder of their own) and by `plateau broker` to write such a setup."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

READER = "club"  # the scoreboard's user: reads every table, writes only their commands
# what a table writes: a bridge its events, state and presence; a stand-alone table (Wi-Fi:
# firmware/link/uplink.py) those and the answers to the commands it reads
TABLE_WRITES = ("events", "state", "presence", "answers")


def mosquitto() -> str | None:
    """The broker's program (Debian's `mosquitto` package puts it in /usr/sbin)."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()), None
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(
    folder: Path, port: int, users: dict[str, str], host: str = "127.0.0.1", stay_root=False
) -> Path:
    """mosquitto.conf, passwd (hashed by mosquitto_passwd) and acl in `folder`. `stay_root`:
    a broker started as root stays root (the tests on CI, which run as root, in a folder the
    `mosquitto` user may not read); a club's broker drops to the `mosquitto` user."""
    owner = None if stay_root else broker_user()
    if owner is not None:
        closed = _closed_to(folder, *owner)
        if closed is not None:
            raise ValueError(
                f"the broker, started as root, runs as the user mosquitto, which cannot reach"
                f" {folder} ({closed} is closed to it): put the broker's folder elsewhere"
                " (e.g. /etc/mosquitto/plateau) or set it up as another user"
            )
    folder.mkdir(parents=True, exist_ok=True)
    passwd = folder / "passwd"
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # never world-readable
    with os.fdopen(fd, "w") as f:
        f.write("".join(f"{u}:{p}\n" for u, p in users.items()))
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    subprocess.run([tool, "-U", str(passwd)], check=True)  # plain text -> hashes, in place
    (folder / "acl").write_text(
        "# each table writes its own topics only (its user name is the table's name), and\n"
        "# reads its commands, which only the scoreboard writes (a stand-alone table on Wi-Fi)\n"
        + "".join(f"pattern write plateau/%u/{t}\n" for t in TABLE_WRITES)
        + "pattern read plateau/%u/commands\n"
        f"user {READER}\ntopic read plateau/#\ntopic write plateau/+/commands\n"
    )
    conf = folder / "mosquitto.conf"
    text = (
        f"listener {port} {host}\n"
        "allow_anonymous false\n"
        f"password_file {passwd}\n"
        f"acl_file {folder / 'acl'}\n"
        # the scoreboard's queued messages and the retained states survive a restart
        "persistence true\n"
        f"persistence_location {folder}/\n"
        "autosave_interval 1\n"
        "max_queued_messages 100000\n"
        # a scoreboard gone for good stops being queued for after a day
        "persistent_client_expiration 1d\n"
        f"log_dest file {folder / 'mosquitto.log'}\n"
    )
    if stay_root and os.geteuid() == 0:
        text += "user root\n"
    conf.write_text(text)
    if owner is not None:  # it reads passwd and acl, writes its log and persistence here
        for path in (folder, passwd, folder / "acl", conf):
            os.chown(path, *owner)
    return conf


def broker_user() -> tuple[int, int] | None:
    """(uid, gid) of the user a broker started as root runs as (mosquitto 2 drops to the
    `mosquitto` user): None when not root (the broker runs as whoever starts it, who owns
    the files) or when there is no such user."""
    if os.geteuid() != 0:
        return None
    try:
        u = pwd.getpwnam("mosquitto")
    except KeyError:
        return None
    return u.pw_uid, u.pw_gid


def _closed_to(folder: Path, uid: int, gid: int) -> Path | None:
    """The first folder above `folder` that user uid (group gid) may not pass through."""
    for parent in reversed(folder.resolve().parents):
        try:
            st = parent.stat()
        except OSError:
            return None  # not made yet: made by us (root, 755)
        bit = 0o100 if st.st_uid == uid else 0o010 if st.st_gid == gid else 0o001
        if not st.st_mode & bit:
            return parent
    return None


class Mosquitto:
    """A broker of our own on 127.0.0.1 (tests, benchmark): start, stop, start again on the
    same port with the same persistence."""

    def __init__(self, folder: Path, users: dict[str, str], port: int | None = None):
        exe = mosquitto()
        if exe is None:
            raise FileNotFoundError(
                "mosquitto is not installed (Debian: apt-get install mosquitto)"
            )
        self.exe = exe
        self.folder = folder
        self.port = port or free_port()
        self.conf = write_config(folder, self.port, users, stay_root=True)
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> None:
        self.proc = subprocess.Popen(
            [self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err.strip()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s")

    def stop(self, kill: bool = False) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
