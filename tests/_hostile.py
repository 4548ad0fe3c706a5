"""Hostile surroundings shared by the tests: a disk that fails while implgraph writes, a claim the engine refutes."""

from __future__ import annotations

import os

from implgraph.io import output

#: a user's claim the engine refutes. By hand: two records (1/3, 2/3) and (2/3, 1/3), each its own class, satisfy
#: ln 2-LDP (every ratio at most 2); the table's distribution is (1/2, 1/2) and class E1's (1/3, 2/3), a ratio
#: 4/3 > 1 = f, so "eps-LDP => multiplicative t-closeness with t = 1" is false.
USER_CLAIM = """\
    paper: user
    reference: "a user's claim"
    claims:
      - id: user/ldp-mt
        source: "a user"
        printed: "eps-LDP => multiplicative t-closeness with t = 1"
        kind: implies
        from: {definition: ldp, level: eps}
        to: {definition: mult-t-closeness, params: {}, level: t}
        f: "1"
        symbols: {N: integer}
        when: []
    """


def failing_writes(monkeypatch, exc, after=0, partial=5):
    """Every file the output module opens for writing fails on ``write`` with ``exc``: after ``after`` successful
    writes, and only once ``partial`` bytes of the failing write reached the disk."""
    real = os.fdopen
    count = [0]

    class Failing:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def fileno(self):
            return self.fh.fileno()

        def write(self, data):
            count[0] += 1
            if count[0] <= after:
                return self.fh.write(data)
            self.fh.write(data[:partial])           # part of it reached the disk
            raise exc

    monkeypatch.setattr(output.os, "fdopen", lambda fd, mode="r", *a, **k: Failing(real(fd, mode, *a, **k))
                        if "w" in mode else real(fd, mode, *a, **k))
