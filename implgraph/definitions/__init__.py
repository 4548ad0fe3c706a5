"""The registered privacy definitions (built-ins register themselves on import)."""

from implgraph.definitions.base import (REGISTRY, Definition, all_definitions, get, load_entry_points, load_errors, names,
                   register, with_capability)
from implgraph.definitions import mult_t_closeness, kt_closeness, dp, ldp, kdp, k_anonymity, emd_t_closeness  # noqa: F401


def _import_all():
    """Import every other module of this package: a new in-package definition is one new file."""
    import importlib
    import pkgutil
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


_import_all()

BUILTIN = ["mult-t-closeness", "kt-closeness", "dp", "ldp", "kdp", "k-anonymity", "emd-t-closeness"]

__all__ = ["Definition", "register", "get", "names", "all_definitions", "with_capability", "load_entry_points",
           "load_errors",
           "REGISTRY", "BUILTIN"]
