"""``python -m implgraph``: the implgraph program (:func:`implgraph.cli.run`)."""

import sys

from implgraph.cli import run

sys.exit(run())
