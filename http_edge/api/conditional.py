"""Stream versions over HTTP: a resource's version is its strong ETag (DESIGN §2.9)."""

from __future__ import annotations


def etag(version: int) -> str:
    """The stream version as a strong ETag: `"12"`."""
    return f'"{version}"'
