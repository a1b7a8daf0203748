"""``python -m ludoteca.cli``: the ``ludoteca`` command without the console script."""

import sys

from ludoteca.cli import main

sys.exit(main())
