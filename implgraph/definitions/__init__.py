"""The registered privacy definitions (built-ins register themselves on import)."""

from .base import (REGISTRY, Definition, all_definitions, get, load_entry_points, load_errors, names,
                   register)
from . import mult_t_closeness, kt_closeness, dp, ldp, kdp, k_anonymity, emd_t_closeness  # noqa: F401

BUILTIN = ["mult-t-closeness", "kt-closeness", "dp", "ldp", "kdp", "k-anonymity", "emd-t-closeness"]

__all__ = ["Definition", "register", "get", "names", "all_definitions", "load_entry_points", "load_errors",
           "REGISTRY", "BUILTIN"]
