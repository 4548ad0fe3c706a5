"""implgraph: machine-checked implications between privacy definitions.

Main entry points (:mod:`implgraph.api`)
----------------------------------------
- :func:`load_table`, :func:`levels` : a bundled or file table and its exact optimal levels;
- :func:`check_edge`, :func:`verify`, :func:`implication_map`, :func:`claims` : edges, the papers'
  claims, the map; ``implgraph.api.definitions()`` lists the registered definitions;
- :class:`Table`, :class:`ConcreteTable`, :func:`optimal_level`, :func:`satisfies` : the core;
- :mod:`implgraph.definitions` : the registry of privacy definitions (plugins welcome).
"""

__version__ = "0.1.0"

from implgraph.core.errors import InputError  # noqa: E402
from implgraph.definitions import Definition, register  # noqa: E402
from implgraph.core.levels import Level, optimal_level, satisfies, all_levels  # noqa: E402
from implgraph.core.table import Table, Block, table_from_rows  # noqa: E402
from implgraph.io.tablefile import load_table_file, load_csv  # noqa: E402
from implgraph.core.concrete import ConcreteTable  # noqa: E402
from implgraph.api import load_table, levels, check_edge, verify, implication_map, claims  # noqa: E402

__all__ = ["InputError", "Definition", "register", "Level", "optimal_level", "satisfies", "all_levels",
           "Table", "Block", "load_table_file", "load_csv", "table_from_rows", "ConcreteTable", "load_table",
           "levels", "check_edge", "verify", "implication_map", "claims", "__version__"]
