import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from plateau import FIRMWARE

# The firmware's own tests (tests/firmware, collected here as well as run under MicroPython)
# see the board's top-level names: firmware/ and the stand-in for MicroPython's `micropython`
# on the path, after everything else. Host tests import the firmware as plateau.fw.<name>
# (tests/host/test_fw.py checks that they do): one name per module, one class per class.
for _p in (FIRMWARE, Path(__file__).parents[1] / "host_tools" / "plateau" / "mpshim"):
    if str(_p) not in sys.path:
        sys.path.append(str(_p))
sys.path.insert(0, str(Path(__file__).parent / "firmware"))
sys.path.insert(0, str(Path(__file__).parent / "host"))

# Figures a test measured (soak counts, fault counts): printed at the end of the run, so
# `make test` shows them whatever pytest captures.
REPORT: list[str] = []


# The firmware tests' folders (check.scratch) in one folder for the run, removed at its end;
# pytest-xdist's workers inherit it from the controller, which removes it when they are done.
_SCRATCH = None
if not os.environ.get("PLATEAU_SCRATCH"):
    _SCRATCH = tempfile.mkdtemp(prefix="plateau-tests-")
    os.environ["PLATEAU_SCRATCH"] = _SCRATCH


def pytest_sessionfinish(session):
    if _SCRATCH and getattr(session.config, "workerinput", None) is None:
        shutil.rmtree(_SCRATCH, ignore_errors=True)
    # under pytest-xdist (make test runs two workers side by side) each worker hands its
    # figures to the controller, which prints them all
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["report"] = list(REPORT)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    REPORT.extend(getattr(node, "workeroutput", {}).get("report", ()))


def pytest_terminal_summary(terminalreporter):
    if REPORT:
        terminalreporter.section("measured")
        for line in REPORT:
            terminalreporter.write_line(line)


def pytest_addoption(parser):
    parser.addoption(
        "--port",
        "--board",  # its name before --port (the board is the ESP32; this names its port)
        metavar="PORT",
        dest="port",
        default=None,
        help="run the firmware's tests on an ESP32 at PORT through mpremote",
    )
