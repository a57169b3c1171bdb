"""The table on Wi-Fi, whole (issue 30): the short form of tests/host/wificampaign.py (the
long one: make wifi-soak). Whole games of the four games, each simulated board set up over
its USB link and publishing straight to a real Mosquitto through a relay that cuts, resets,
stalls, half-opens and refuses; the broker restarted, the access point off and on, each board
killed with SIGKILL mid-publish and powered up again on its flash. Counted at a scoreboard
that reads as `plateau serve` does: nothing lost, nothing twice, nothing out of order, every
event the ring no longer held named in a gap, every command answered and done once, no
password anywhere."""

import shutil

import pytest
from conftest import REPORT
from wificampaign import bad, campaign, line

from plateau.club.broker import mosquitto

pytestmark = pytest.mark.skipif(
    mosquitto() is None or shutil.which("mosquitto_passwd") is None,
    reason="mosquitto is not installed (Debian: apt-get install mosquitto): the Wi-Fi"
    " campaign needs a real broker",
)


def test_tables_on_wifi_lose_nothing_through_faults_restarts_and_kills(tmp_path):
    r = campaign(21, 20, folder=tmp_path)
    REPORT.append(line(r))
    assert bad(r) == [], (line(r), r["games"])
    assert r["kills"] >= 4 and r["broker_restarts"] >= 2 and r["air"] >= 4, line(r)
    assert sum(r["faults"].values()) >= 20 and r["commands"] >= 5, line(r)
