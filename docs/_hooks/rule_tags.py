"""MkDocs hook: the rules pages' bracketed tags are text, not cross-references.

The pages in ``docs/rules/`` tag rules with their sources in brackets, as in ``R5 [B][A]`` (the
beginner and the advance rule text) or ``TARGET[opp][Wall]``. Markdown reads ``[B][A]`` as a
reference link, which mkdocs-autorefs (loaded by mkdocstrings) reports as an unresolved
cross-reference. An unresolved one is written back as the same text, so the page is right; this
hook drops exactly those reports for the rules pages, and every other warning still fails
``mkdocs build --strict``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

#: An autorefs report of an unresolved reference on a page of docs/rules/ (MkDocs prefixes the
#: plugin's name to its messages).
REPORT = re.compile(
    r"^(mkdocs_autorefs: )?rules/[\w-]+\.md: .*Could not find cross-reference target '[^']*'$"
)


class RuleTags(logging.Filter):
    """Drop autorefs' unresolved-reference reports that come from the rules pages."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but an unresolved-reference report about a rules page."""
        return REPORT.match(record.getMessage()) is None


def on_config(config: Any) -> Any:
    """Attach the filter to the loggers of mkdocs-autorefs (once)."""
    names = [n for n in logging.Logger.manager.loggerDict if n.startswith("mkdocs.plugins.mkdocs_autorefs")]
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RuleTags) for f in logger.filters):
            logger.addFilter(RuleTags())
    return config
