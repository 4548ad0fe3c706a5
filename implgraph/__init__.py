"""implgraph: machine-checked implications between privacy definitions.

Main entry points
-----------------
- :class:`~implgraph.core.table.Table`, :func:`~implgraph.core.table.load_table_file`,
  :func:`~implgraph.core.table.load_csv` : parametric and concrete probability tables;
- :func:`~implgraph.core.levels.optimal_level`, :func:`~implgraph.core.levels.satisfies` : exact levels;
- :mod:`implgraph.definitions` : the registry of privacy definitions (plugins welcome).
"""

__version__ = "0.1.0"

from implgraph.core.errors import InputError  # noqa: E402
from implgraph.definitions import Definition, register  # noqa: E402
from implgraph.core.levels import Level, optimal_level, satisfies, all_levels  # noqa: E402
from implgraph.core.table import Table, Block, load_table_file, load_csv, table_from_rows  # noqa: E402
from implgraph.core.concrete import ConcreteTable  # noqa: E402

__all__ = ["InputError", "Definition", "register", "Level", "optimal_level", "satisfies", "all_levels",
           "Table", "Block", "load_table_file", "load_csv", "table_from_rows", "ConcreteTable", "__version__"]
