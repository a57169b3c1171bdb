"""The firmware's own tests on a real ESP32 (`pytest --port /dev/ttyUSB0`), through
mpremote. Skipped, and saying so, without --port: nothing here has run on a board yet."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    p.stem
    for p in (ROOT / "tests" / "firmware").glob("test_*.py")
    if not p.stem.startswith("test_sim_")
)  # the simulator is never on a board


@pytest.fixture(scope="module")
def board(request):
    port = request.config.getoption("port")
    if not port:
        pytest.skip(
            "no board given: `pytest --port /dev/ttyUSB0` runs the firmware tests "
            "on an ESP32 (the simulator tests stay on the PC)"
        )
    mpremote = shutil.which("mpremote") or str(Path(sys.executable).parent / "mpremote")
    subprocess.run(["make", "-C", str(ROOT), "mpy"], check=True, capture_output=True)
    base = [mpremote, "connect", port]
    # the compiled firmware and tests, as the deploy puts them, plus the test runner
    subprocess.run(
        [
            *base,
            "cp",
            "-r",
            *[str(p) for p in (ROOT / "build" / "mpy").iterdir() if p.name != "sim"],
            ":",
        ],
        check=True,
    )
    subprocess.run(
        [*base, "cp", "-r", *[str(p) for p in (ROOT / "build" / "mpytests").iterdir()], ":"],
        check=True,
    )
    return base


@pytest.mark.parametrize("module", MODULES)
def test_firmware_module_on_the_board(board, module):
    done = subprocess.run(
        [*board, "exec", f"import sys; sys.argv[:] = ['', '{module}']; import mpy_runner"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert " 0 failed" in done.stdout, done.stdout + done.stderr
