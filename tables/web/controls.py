"""The caller's legal actions (the API's `legal_actions`) as form controls for the live table page.

One entry per *action* of the API, never per variant: an action names its endpoint under
`/api/v1/tables/{id}/`, the field the person chooses and how (a button per choice, a card, an
amount between the server's min and max, cards to discard), and the fields sent back as the
server gave them (`deal_no`, `stage`). The page's script posts the form as JSON with an
Idempotency-Key (static/web/live.js). A variant that needed code here would mean the API's view
lacks a field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.web.present import CardFace, card_face

FIXED = ("deal_no", "stage")  # sent back exactly as the legal action gave them


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    card: CardFace | None = None
    sized: bool = False  # a choice that sends the amount field too (pot limit, D-IT-02)


@dataclass(frozen=True, slots=True)
class Control:
    """One form: POST `path` with `fixed` and the person's `field` (chosen as `kind` says)."""

    action: str
    title: str
    path: str
    kind: str  # button | choice | card | cards | amount
    field: str = ""
    submit: str = ""
    options: tuple[Option, ...] = ()
    fixed: dict[str, int] = dataclasses.field(default_factory=dict)
    min: int | None = None
    max: int | None = None
    none_label: str = ""  # amount: a second button that sends null (a bid's pass)
    note: str = ""
    deadline: str | None = None
    flag: str = ""  # cards: a tick box sent as this boolean field (IT-16's split_openers)
    flag_label: str = ""


def control_for(action: Mapping[str, Any]) -> Control:
    """The form of one legal action (an action this page does not know is shown, not offered)."""
    name = action["action"]
    fixed = {key: action[key] for key in FIXED if action.get(key) is not None}
    common: dict[str, Any] = {"action": name, "fixed": fixed, "deadline": action.get("deadline")}
    builder = BUILDERS.get(name)
    if builder is None:
        return Control(title=name.replace("_", " "), path="", kind="unknown", **common)
    return builder(action, common)


def controls_for(actions: list[Mapping[str, Any]]) -> list[Control]:
    return [control_for(action) for action in actions]


def _choices(action: Mapping[str, Any], words: Mapping[str, str] | None = None) -> tuple[Option, ...]:
    return tuple(
        Option(c, f"{c} {words[c]}".strip() if words and c in words else c)
        for c in action.get("choices") or []
    )


def _sit_down(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    return Control(
        title="Sit down",
        path="seats",
        kind="amount",
        field="buy_in",
        submit="Sit down",
        min=action.get("min"),
        max=action.get("max"),
        note="Buy in from your bankroll.",
        **common,
    )


def _top_up(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    return Control(
        title="Top up",
        path="top-ups",
        kind="amount",
        field="amount",
        submit="Top up",
        min=action.get("min"),
        max=action.get("max"),
        **common,
    )


def _button(title: str, path: str, note: str = "") -> Any:
    def build(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
        words = note.format(**action) if note else ""
        return Control(title=title, path=path, kind="button", submit=title, note=words, **common)

    return build


def _declare(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    cost = action.get("in_cost")
    note = f"Declaring in can cost you up to {cost}." if cost is not None else ""
    stage = f" (stage {action['stage']})" if action.get("stage") else ""
    return Control(
        title=f"Declare{stage}",
        path="declares",
        kind="choice",
        field="choice",
        options=_choices(action),
        note=note,
        **common,
    )


def _pass(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    direction = "left" if action.get("direction") == "left" else "right"
    return Control(
        title=f"Pass a card to your {direction}",
        path="passes",
        kind="card",
        field="card",
        options=tuple(Option(c, card_face(c).label, card_face(c)) for c in action["choices"]),
        **common,
    )


def _exchange(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    openers = action.get("openers")  # IT-16: the opener splits them only by saying so
    note = f"Pick up to {action.get('max')} cards to replace; none stands pat."
    if openers:
        faces = " ".join(f"{card_face(c).rank}{card_face(c).suit}" for c in openers)
        note += f" You opened on {faces}: to discard any of them, tick “I split my openers”."
    return Control(
        title="Draw",
        path="exchanges",
        kind="cards",
        field="discards",
        submit="Exchange",
        options=tuple(Option(c, card_face(c).label, card_face(c)) for c in action["choices"]),
        min=action.get("min"),
        max=action.get("max"),
        note=note,
        flag="split_openers" if openers else "",
        flag_label="I split my openers" if openers else "",
        **common,
    )


def _bid(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    standing = action.get("high_bid") or 0
    return Control(
        title="Bid for the open hand",
        path="bids",
        kind="amount",
        field="amount",
        submit="Bid",
        min=action.get("min"),
        max=action.get("max"),
        none_label="Pass",
        note=f"Standing bid: {standing}." if standing else "No bid yet.",
        **common,
    )


def _escalate(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    risks = {c: f"(risks {r})" for c, r in (action.get("risks") or {}).items()}
    return Control(
        title=f"Escalation: the pot stands at {action.get('level')}",
        path="escalations",
        kind="choice",
        field="action",
        options=_choices(action, risks),
        note=f"You accepted {action.get('accepted')}." if action.get("accepted") else "",
        **common,
    )


def _bet(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    """The betting round's choices, each with the chips it moves; a choice whose amount the
    player picks (pot limit: from `amounts` to `most`) sends the amount field beside it."""
    least, most = action.get("amounts") or {}, action.get("most") or {}
    sized = {c for c in least if most.get(c, least[c]) > least[c]}
    words = {c: (f"{a}+" if c in sized else str(a)) for c, a in least.items() if a}
    note = f"To call: {action.get('to_call', 0)}; raises left: {action.get('raises_left', 0)}."
    low = min((least[c] for c in sized), default=None)
    high = max((most[c] for c in sized), default=None)
    if sized:
        note += f" Bet or raise from {low} to {high} chips."
    options = tuple(Option(o.value, o.label, sized=o.value in sized) for o in _choices(action, words))
    return Control(
        title="Bet",
        path="bets",
        kind="choice",
        field="action",
        options=options,
        note=note,
        min=low,
        max=high,
        **common,
    )


def _trump(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    return Control(
        title="Choose the trump",
        path="trump",
        kind="choice",
        field="trump",
        options=_choices(action),
        **common,
    )


def _play(action: Mapping[str, Any], common: dict[str, Any]) -> Control:
    return Control(
        title=f"Play a card to trick {action.get('trick')}",
        path="plays",
        kind="card",
        field="card",
        options=tuple(Option(c, card_face(c).label, card_face(c)) for c in action["choices"]),
        **common,
    )


BUILDERS = {
    "sit_down": _sit_down,
    "top_up": _top_up,
    "leave": _button("Leave the table", "leave", "You cash out {cash_out}."),
    "start_deal": _button("Start the next deal", "deals"),
    "sit_out": _button("Sit out", "sit-out"),
    "sit_in": _button("Sit in", "sit-in"),
    "declare": _declare,
    "pass": _pass,
    "exchange": _exchange,
    "bid": _bid,
    "escalate": _escalate,
    "bet": _bet,
    "trump": _trump,  # WL-06
    "play": _play,  # WL-07, D-WL-04: exactly the cards the server accepts
}
