"""The relay campaign's short form (tests/host/mqttcampaign.py; `make mqtt-soak` is the long
one): the board's MQTT client under MicroPython, a real Mosquitto restarted with and without
its persistence, and over TLS with a CA made for the run, through a relay that cuts, resets,
stalls, half-opens and refuses at seeded random points. Counted at a subscriber: nothing
lost, nothing through twice, nothing out of order, every command answered."""

import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import REPORT
from mqttcampaign import campaign, line

from plateau.club.broker import mosquitto

pytestmark = pytest.mark.skipif(
    mosquitto() is None or shutil.which("mosquitto_passwd") is None,
    reason="mosquitto is not installed (Debian: apt-get install mosquitto): the MQTT relay"
    " campaign needs a real broker",
)

RUNS = (  # seed, persistent, tls
    (11, True, False),
    (12, False, False),
    (13, True, True),
)


def test_the_client_loses_nothing_through_the_relay_and_broker_restarts(tmp_path):
    with ThreadPoolExecutor(len(RUNS)) as pool:  # they wait more than they compute
        results = list(
            pool.map(lambda r: campaign(r[0], 12, 240, r[1], r[2], folder=tmp_path), RUNS)
        )
    for r in results:
        REPORT.append(line(r))
    for r in results:
        assert r["given"] == 240, r
        assert (r["lost"], r["duplicated"], r["out_of_order"], r["mislabelled"]) == (0, 0, 0, 0), r
        assert r["commands_answered"] == r["commands"] == r["commands_taken"], r
        assert r["broker_restarts"] >= 1 and sum(r["faults"].values()) >= 5, r
        assert r["connections"] > r["broker_restarts"], r
