import sys
from pathlib import Path

import plateau  # noqa: F401  (puts firmware/ and the micropython stand-in on sys.path)

sys.path.insert(0, str(Path(__file__).parent / "firmware"))
sys.path.insert(0, str(Path(__file__).parent / "host"))

# Figures a test measured (soak counts, fault counts): printed at the end of the run, so
# `make test` shows them whatever pytest captures.
REPORT: list[str] = []


def pytest_terminal_summary(terminalreporter):
    if REPORT:
        terminalreporter.section("measured")
        for line in REPORT:
            terminalreporter.write_line(line)


def pytest_addoption(parser):
    parser.addoption(
        "--board",
        metavar="PORT",
        default=None,
        help="run the firmware's tests on an ESP32 at PORT through mpremote",
    )
