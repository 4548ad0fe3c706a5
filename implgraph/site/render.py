"""How the explorer's pages are rendered: the Jinja2 templates in ``implgraph/site/templates`` (autoescaped; math
as ``data-tex`` for the bundled KaTeX, :mod:`implgraph.site.texmath`; values shown as words, never as Python's
reprs: :func:`words`), each page in the frame of ``base.html`` (:func:`render`). The pages themselves are made by
:mod:`implgraph.site.pages` and :mod:`implgraph.site.matrix_view`."""

from __future__ import annotations

import functools

from implgraph.site.html import NAV

__all__ = ["words", "environment", "render"]


def words(value) -> str:
    """A value as a reader reads it: ``True``/``False`` as yes/no, None as nothing, a mapping as
    ``k = v, ...``, a list comma-separated (never Python's repr).

    Examples
    --------
    >>> words(True), words(None), words({"N": 3}), words(["a", 2])
    ('yes', '', 'N = 3', 'a, 2')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} = {words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(words(v) for v in value)
    return str(value)


def _prose(value):
    from implgraph.site.texmath import prose_html
    return prose_html(None if value is None else words(value))


def _math(value):
    from markupsafe import escape
    from implgraph.site.texmath import math_html
    if value is None or isinstance(value, (bool, dict, list, tuple)):
        return escape(words(value))
    return math_html(value)


@functools.lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment of the templates (autoescape, undefined names are errors)."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.PackageLoader("implgraph.site", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["text"] = words
    env.filters["math"] = _math
    env.filters["prose"] = _prose
    return env


def render(template: str, title: str, root: str = "", script: str = "", **context) -> str:
    """A page: ``template`` with the frame of ``base.html`` (navigation, search, KaTeX, the site's script)."""
    return environment().get_template(template).render(title=title, root=root, script=script, nav=NAV, **context)
