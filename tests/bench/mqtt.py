"""The board's MQTT client's figures (issue 30; docs/wifi.md quotes them): its `.mpy` size,
the heap it takes on the 32-bit build with the firmware frozen (build/mp32, `make mp32`) and
on the 64-bit unix port, what an idle step allocates, the worst step and publish while
publishing flat out to a real Mosquitto, events a second, and a TLS connection's cost. Prints;
asserts nothing.   .venv/bin/python tests/bench/mqtt.py   (after make mpy and make mp32)"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "host"), str(ROOT / "host_tools")]

from mqttcampaign import tls_files  # noqa: E402

from plateau.club.broker import free_port, mosquitto  # noqa: E402


def main() -> None:
    mpy = ROOT / "build" / "mpy"
    for name in ("link/mqtt", "link/mqttconn", "hal/wlan"):
        f = mpy / f"{name}.mpy"
        print(f"{name}.mpy: {f.stat().st_size} B" if f.exists() else f"no {f}: make mpy first")
    exe = mosquitto()
    if exe is None:
        print("mosquitto is not installed: no broker figures")
        return
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        ca, cert, key = tls_files(folder)
        port, tport = free_port(), free_port()
        conf = folder / "m.conf"
        conf.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\n"
            f"listener {tport} 127.0.0.1\ncertfile {cert}\nkeyfile {key}\n"
            + ("user root\n" if os.geteuid() == 0 else "")
        )
        broker = subprocess.Popen([exe, "-c", str(conf)], stderr=subprocess.DEVNULL)
        try:
            import time

            time.sleep(0.5)
            runs = [
                ("64-bit unix port, modules as .mpy", ROOT / ".venv/bin/micropython", mpy, True),
                ("32-bit, firmware frozen", ROOT / "build/mp32/micropython", None, True),
            ]
            for title, interp, path, tls in runs:
                if not interp.exists():
                    print(f"{title}: no {interp} (make mp32)")
                    continue
                mp = (
                    f".frozen:{path}:{ROOT / 'build' / 'mpytests'}"
                    if path
                    else ".frozen:build/mpytests"
                )
                args = [str(interp), "-X", "heapsize=111936", "-m", "mqttbench", str(port)]
                if tls:
                    args += [str(tport), str(ca)]
                out = subprocess.run(
                    args, env=dict(os.environ, MICROPYPATH=mp), cwd=ROOT, capture_output=True,
                    text=True, timeout=300,
                )  # fmt: skip
                print(f"--- {title} (-X heapsize=111936)")
                print((out.stdout + out.stderr).strip())
        finally:
            broker.terminate()
            broker.wait(10)


if __name__ == "__main__":
    main()
