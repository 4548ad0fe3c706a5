"""implgraph: machine-checked implications between privacy definitions.

Main entry points (:mod:`implgraph.api`)
----------------------------------------
- :func:`load_table`, :func:`levels`, :func:`level_frame` : a bundled or file table and its exact optimal levels
  (a DataFrame from :func:`level_frame`, of microdata too);
- :func:`check_edge`, :func:`verify`, :func:`implication_map`, :func:`claims` : edges, the papers'
  claims, the map; ``implgraph.api.definitions()`` lists the registered definitions;
- :class:`Table`, :class:`ConcreteTable`, :func:`optimal_level`, :func:`satisfies` : the core;
- :mod:`implgraph.definitions` : the registry of privacy definitions (plugins welcome).
"""

__version__ = "0.1.0"

# The core's regions ask a solver through the interface of implgraph.core.backends, which implgraph.solvers
# fills when it is imported: importing it with the package gives every region one (no solver is loaded yet).
from implgraph import solvers as _solvers  # noqa: E402,F401

# The public names are loaded on first use (PEP 562, as scientific Python's SPEC 1 does): ``import
# implgraph.cli`` then pays only for what the command needs, not for every module of the package.
_LAZY = {
    "InputError": "implgraph.core.errors",
    "Definition": "implgraph.definitions", "register": "implgraph.definitions",
    "Level": "implgraph.definitions.levels", "optimal_level": "implgraph.definitions.levels",
    "satisfies": "implgraph.definitions.levels", "all_levels": "implgraph.definitions.levels",
    "Table": "implgraph.core.table", "Block": "implgraph.core.table", "table_from_rows": "implgraph.core.table",
    "load_table_file": "implgraph.io.tablefile", "load_csv": "implgraph.io.tablefile",
    "ConcreteTable": "implgraph.core.concrete",
    "load_table": "implgraph.api", "levels": "implgraph.api", "level_frame": "implgraph.api",
    "check_edge": "implgraph.api", "verify": "implgraph.api", "implication_map": "implgraph.api",
    "claims": "implgraph.api",
}


def __getattr__(name):
    import importlib
    import importlib.util
    module = _LAZY.get(name)
    if module is None:         # a subpackage or module (``implgraph.api``), imported on first use as well
        if name.startswith("_") or importlib.util.find_spec(f"{__name__}.{name}") is None:
            raise AttributeError(f"module 'implgraph' has no attribute {name!r}")
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["InputError", "Definition", "register", "Level", "optimal_level", "satisfies", "all_levels",
           "Table", "Block", "load_table_file", "load_csv", "table_from_rows", "ConcreteTable", "load_table",
           "levels", "level_frame", "check_edge", "verify", "implication_map", "claims", "__version__"]
