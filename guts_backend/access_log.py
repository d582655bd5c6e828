"""Access logs without query strings: `?ticket=` and `?token=` on the SSE stream are credentials.

`QueryStringFilter` goes on uvicorn's access logger (guts_backend.asgi installs it), which
gunicorn's uvicorn worker logs through too; uvicorn passes the path with its query string as one
of the record's arguments, and the filter cuts it at the `?`.
"""

from __future__ import annotations

import logging

ACCESS_LOGGER = "uvicorn.access"


def strip_query(text: str) -> str:
    """`/path?a=b` -> `/path`; anything that is not a path is left alone."""
    return text.split("?", 1)[0] if text.startswith("/") else text


class QueryStringFilter(logging.Filter):
    """Drops the query string from every path argument of a log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(strip_query(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def install_access_log_filter() -> None:
    """Idempotent: a second call adds nothing."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(existing, QueryStringFilter) for existing in logger.filters):
        logger.addFilter(QueryStringFilter())
