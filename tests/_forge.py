"""Forging a certificate for the tests that check the checkers reject it: one value edited, the rest kept."""

from __future__ import annotations

import copy


def edited(cert, path, value):
    """A deep copy of ``cert`` with the value at ``path`` (a list of keys and indices) replaced by ``value``."""
    out = copy.deepcopy(cert)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out
