import sys
from pathlib import Path

import plateau  # noqa: F401  (puts firmware/ and the micropython stand-in on sys.path)

sys.path.insert(0, str(Path(__file__).parent / "firmware"))
