"""mkdocs hook: the user guide's links to the repository's README point at the site's home page.

On GitHub, docs/sections/*.md link to ``../../README.md#...``; the site has no README page (its home
page, docs/index.md, says what the README's introduction says), so those links go there. Every other
link is validated by ``mkdocs build --strict``.
"""

import re

_README = re.compile(r"\]\((?:\.\./)+README\.md(?:#[^)]*)?\)")


def on_page_markdown(markdown, page, config, files):
    depth = page.file.src_uri.count("/")
    return _README.sub(f"]({'../' * depth}index.md)", markdown)
