"""MkDocs hook: links from a page to a file of the repository outside docs/ (a test, a manifest, a script).

On GitHub such a relative link works; on the site there is no page behind it, and MkDocs' strict mode would fail on
it as on a broken page link. This hook checks that the file exists (a renamed test fails the build, as a broken page
link does) and writes it as the repository path in code, without a link. Links between pages are left to MkDocs.
"""
import os
import re

from mkdocs.exceptions import PluginError

LINK = re.compile(r"\[([^\]]*)\]\((?!https?://|mailto:|#)([^)\s]+)\)")


def on_page_markdown(markdown, page, config, files):
    docs_dir = os.path.abspath(config["docs_dir"])
    repo = os.path.dirname(docs_dir)
    page_dir = os.path.dirname(os.path.join(docs_dir, page.file.src_path))

    def rewrite(match):
        text, target = match.group(1), match.group(2)
        path = target.split("#", 1)[0]
        if not path:
            return match.group(0)
        resolved = os.path.normpath(os.path.join(page_dir, path))
        if resolved == docs_dir or resolved.startswith(docs_dir + os.sep):
            return match.group(0)
        if not os.path.exists(resolved):
            raise PluginError(f"{page.file.src_path}: link to {target}, which is not in the repository")
        rel = os.path.relpath(resolved, repo)
        shown = text if text.startswith("`") else f"`{text}`"
        return shown if text.strip("`") == rel or text.strip("`").endswith(os.path.basename(rel)) else f"{text} (`{rel}`)"

    return LINK.sub(rewrite, markdown)
