"""The static explorer (``implgraph site --out DIR``): an offline HTML site of the pair matrix.

Modules: :mod:`~implgraph.site.model` (the data, gathered once), :mod:`~implgraph.site.hasse` (the
Hasse diagram as inline SVG), :mod:`~implgraph.site.html` (page frame and helpers),
:mod:`~implgraph.site.pages` (one function per kind of page) and :mod:`~implgraph.site.build`
(writes the pages, the assets of ``assets/`` and the search index).
"""
