"""Where a card could show in a page: its data-card attribute, its face (7♠), its accessible name
(Seven of spades), or a JSON string ("7s") in any response the page received."""

from __future__ import annotations

import json
from typing import Any

from tables.web.present import card_face


def leaks(page: Any, cards: list[str]) -> list[str]:
    """Every trace of `cards` in the page's DOM text, its source and the responses it fetched."""
    text = page.css("body")[0].get_attribute("textContent")
    source = page.source()
    bodies = [without_pack(body) for body in page.responses()]
    found = []
    for card in cards:
        face = card_face(card)
        marks = {"attribute": f'data-card="{card}"', "label": face.label, "json": f'"{card}"'}
        for where, mark in marks.items():
            if mark in source:
                found.append(f"{card}: {where} in the page source")
        if f"{face.rank}{face.suit}" in text:
            found.append(f"{card}: its face {face.rank}{face.suit} in the page's text")
        found += [f"{card}: in a response" for body in bodies if f'"{card}"' in body or face.label in body]
    return found


def without_pack(body: str) -> str:
    """A response without the proof's `pack`: the list of every card of the pack, public by design."""
    try:
        document = json.loads(body)
    except ValueError:
        return body
    if isinstance(document, dict):
        document.pop("pack", None)
    return json.dumps(document, ensure_ascii=False)
