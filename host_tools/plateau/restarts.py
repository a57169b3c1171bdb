"""One run of the reset harness (`plateau resets`): a table script played through the real
firmware (the simulator under `micropython`, as `plateau sim` runs it), with a host logging
it through the pty as a person runs `plateau log`. At the given points the firmware process
is killed with SIGKILL (kill -9: no clean-up, a save may be cut in the middle) and started
again on the same simulated flash (--state) and the same physical table (--world, written by
the simulator before the firmware sees each hand action: pawns, cards on the reader and
balls in goals stand as they stood). The pty is held open across the kills, as a USB-serial
bridge stays when the board under it resets. A file `state.tmp` or `events.log.tmp` left on
the flash after a kill shows the kill cut a save short: counted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from plateau.build import BUILD
from plateau.kills import SAVING, kind_of, places
from plateau.logger import read_log
from plateau.sim import Firmware, dies_with_parent

RUN_TIMEOUT_S = 600.0  # a run longer than this is stuck (a whole Tock game takes ~40 s)
# A killed run's table time goes at most SPEED times real time: the host's own timing (it
# asks again 0.25 s, 0.5 s, then every second after a hole) is real time, and a board that
# restarts keeps what its ring held (256 events, 16 KB). Unpaced, the simulator can emit
# hundreds of events in the 0.25 s before the host asks, and resets come 0.1 s apart: no
# table does that.
SPEED = 25
# And a board that was reset takes this long to start again (an ESP32 boots in a second or
# two): the host meanwhile reads what the killed board wrote and asks for what it misses.
BOOT_S = 0.5
FLASH_MS = 3  # a save takes this long to land (the simulator's slow flash): kills cut some
RESYNC_S = 10.0  # the longest the harness waits for the host to catch up after a restart


@dataclass
class Run:
    events: list[dict] = field(default_factory=list)
    kills: int = 0
    cut_saves: int = 0  # kills that left a save cut short on the flash
    landed: dict[str, int] = field(default_factory=dict)  # where the kills landed
    finished: bool = False  # the simulator played the script to its end
    resync_max: float = 0.0  # longest real time from a restart to the host having caught up
    resync_late: int = 0  # restarts after which the host had not caught up within RESYNC_S
    late: list[str] = field(default_factory=list)
    stderr: str = ""


class PowerCycled:
    """The simulated board behind one pty for the whole run: the firmware (sim.Firmware)
    powered up and killed (-9) in turn, on the same flash and the same table; the pty stays,
    as a USB-serial bridge stays when the ESP32 under it resets."""

    def __init__(self, script_path: Path, work: Path, mpy: Path = BUILD, speed: int = 0):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.script = script_path
        self.flash = work / "flash"
        self.world = work / "world.json"
        self.errors = work / "stderr.txt"
        self.mpy = mpy  # the compiled firmware
        self.speed = speed  # table time at most this many times real time (0: as fast as it can)
        self.fw: Firmware | None = None

    @property
    def proc(self) -> subprocess.Popen | None:
        return self.fw.proc if self.fw else None

    def start(self, wait_host: bool = False) -> None:
        """Power the board up; `wait_host`: hands act once a host has said hello (table time
        stands still until then), so what a host that comes late gets is not a matter of
        how fast this machine starts one."""
        paced = ["--speed", str(self.speed), "--flash-ms", str(FLASH_MS)] if self.speed else []
        paced += ["--wait-host"] if wait_host else []
        with open(self.errors, "ab") as err:
            self.fw = Firmware(
                self.script,
                "--world",
                str(self.world),
                "--linger",
                *paced,
                state_dir=str(self.flash),
                pty=(self.master, self.slave),
                mpy=self.mpy,
                stderr=err,
            )

    def line(self) -> int:
        """The last script line the simulator finished (from its world file)."""
        try:
            return json.loads(self.world.read_text())["line"]
        except (OSError, ValueError, KeyError):
            return 0

    def kill(self) -> None:
        assert self.fw is not None
        self.fw.stop()  # SIGKILL

    def saving(self) -> bool:
        """A save under way (or cut short by a kill): its file aside on the flash."""
        return any((self.flash / n).exists() for n in ("state.tmp", "events.log.tmp"))

    def close(self) -> None:
        if self.fw and not self.fw.finished():
            self.kill()
        os.close(self.master)
        os.close(self.slave)


def logger(board: PowerCycled, work: Path) -> subprocess.Popen:
    """The host: `plateau log` on the pty, as a person runs it (it reconnects by itself,
    asks for what it missed, writes each event once)."""
    with open(work / "logger.txt", "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "plateau", "log", "--port", board.port, "--json"]
            + ["--log", str(work / "log.jsonl"), "--db", str(work / "games.sqlite")],
            stdout=subprocess.DEVNULL,
            stderr=out,
            preexec_fn=dies_with_parent(),
        )


def last_number(flash: Path) -> tuple[str | None, int]:
    """(boot, seq) of the last event the board numbered and kept, from its flash."""
    try:
        state = json.loads((flash / "state.json").read_text())["state"]["link"]
        return state["boot"], state["seq"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, 0


def logged(log: Path, boot: str | None, seq: int) -> bool:
    """Whether the log holds event `seq` of `boot` (or the gap that says it is gone)."""
    if seq <= 0:
        return True  # nothing numbered yet
    for _, ev, *_ in read_log(log) if log.exists() else ():
        if ev and ev.get("boot") == boot:
            if ev.get("seq") == seq or ev.get("type") == "gap" and ev.get("to", 0) >= seq:
                return True
    return False


def run(
    text: str,
    kills: list[tuple[int, float]],
    game: str,
    work: Path,
    mpy: Path = BUILD,
    host_after: int = 0,
) -> Run:
    """One run of the script, killed at `kills`; `host_after` kills happen before the host
    is started (a logger started late: it asks for everything since the first event)."""
    work.mkdir(parents=True, exist_ok=True)
    path = work / "game.table"
    path.write_text(text)
    board = PowerCycled(path, work, mpy, SPEED if kills else 0)
    log = work / "log.jsonl"
    result = Run()
    host = None if host_after else logger(board, work)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    try:
        board.start(wait_host=host is not None)
        assert board.proc is not None
        for line, delay in kills:
            while board.line() < line and board.proc.poll() is None:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.0005)
            if board.proc.poll() is not None or time.monotonic() > deadline:
                break  # the script is over (or stuck): no more kills
            if delay == SAVING:
                until = time.monotonic() + 5
                while not board.saving() and time.monotonic() < until:
                    time.sleep(0.0002)
            else:
                time.sleep(delay)
            board.kill()
            result.kills += 1
            cut = board.saving()  # the kill cut a save short
            result.cut_saves += cut
            for k in kind_of(game, text, board.line()) + ["mid-save"] * cut or ["elsewhere"]:
                result.landed[k] = result.landed.get(k, 0) + 1
            kept = last_number(board.flash)  # what the board will take up
            time.sleep(BOOT_S)
            if host is None and result.kills >= host_after:
                board.start(wait_host=True)  # the host comes now: the board waits for it
                host = logger(board, work)
                result.landed["before the host came"] = host_after
            else:
                board.start()
            if host is None:
                continue  # nobody to catch up yet
            # the next reset comes once the host has what the board had when it went down
            # (resets are seconds apart at a table; the host asks again in real time)
            t0 = time.monotonic()
            while time.monotonic() < min(deadline, t0 + RESYNC_S) and not logged(log, *kept):
                time.sleep(0.02)
            took = time.monotonic() - t0
            result.resync_max = max(result.resync_max, took)
            if took >= RESYNC_S:
                result.resync_late += 1
                result.late.append(f"the host lacked {kept} {took:.0f} s after a restart")
        if host is None:  # the script ended before the kills the host was to come after
            host = logger(board, work)
        # the script played to its end (the board stays on, as a board does: --linger)
        last = places(game, text)["any"][-1]
        while board.line() < last and board.proc.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        result.finished = board.line() >= last
        # the host has the board's last event, or says it is gone (or it never comes)
        end = min(deadline, time.monotonic() + 30)
        while time.monotonic() < end:
            boot, seq = last_number(board.flash)
            if logged(log, boot, seq):
                break
            time.sleep(0.1)
    finally:
        if host is not None:
            host.send_signal(signal.SIGTERM)  # plateau log ends as on Ctrl-C
            try:
                host.wait(timeout=10)
            except subprocess.TimeoutExpired:
                host.kill()
        board.close()
    result.stderr = board.errors.read_text(errors="replace") if board.errors.exists() else ""
    result.events = [ev for _, ev, *_ in read_log(log) if ev is not None] if log.exists() else []
    return result
