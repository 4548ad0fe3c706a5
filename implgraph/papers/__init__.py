"""Paper-specific helpers that cannot be expressed as data (one module per paper).

They read the paper's claims from the data (by claim id) and call the generic checkers' code; no
verdict is computed here.
"""
