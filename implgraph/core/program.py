"""Whether this process is the ``implgraph`` program itself (:func:`implgraph.cli.run`, the console script) rather than
a program that imports implgraph as a library: such a process runs no thread but implgraph's own, which lets
:mod:`implgraph.core.simplified` skip an import sympy makes. Nothing here imports sympy (``implgraph --version`` stays
quick)."""

#: set by :func:`implgraph.cli.run`
RUNNING = False
