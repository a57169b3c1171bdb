import sys

from plateau.cli import main

sys.exit(main())
