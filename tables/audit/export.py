"""Hand histories: one deal (or a whole table) as canonical JSON and as readable text.

The JSON is built from the deal's events redacted for the reader (`feeds.event_json`, i.e. the
engine's `redact_event`) and the engine's fold; the text is rendered from that JSON only, so the
two can never disagree and the text can never show what the JSON hides. The JSON's `proof`
section is `fairness.proof_json`, the input of `docs/verify_deal.py`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.contrib.auth import get_user_model

from tables.audit.deals import DealRecord
from tables.audit.fairness import proof_json
from tables.audit.feeds import events_json
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import fold
from tables.engine.decider.state import TableState
from tables.engine.decider.variants import VARIANTS
from tables.engine.decider.view import Viewer
from tables.naming import table_name, with_player_names

FORMAT = "guts-deal-history/2"  # /2: every stage's results in order
RESULT_TYPES = frozenset(
    {
        ev.ANTES_POSTED,
        ev.SHOWDOWN_HELD,
        ev.DECK_COMPARED,
        ev.POT_SETTLED,
        ev.LEG_AWARDED,
        ev.POT_AWARDED,
        ev.BETS_AWARDED,
        ev.NOBODY_OPENED,
        ev.POTS_AWARDED,
        ev.OPENERS_SHOWN,
        ev.BETS_GATHERED,
    }
)  # D-IT-02, D-IT-03


def player_names(players: Iterable[str]) -> dict[str, str]:
    """{player id: username} for the players of a history (ids are user pks as text)."""
    ids = [int(player) for player in set(players) if player.isdigit()]
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {str(pk): username for pk, username in users}


def deal_history(record: DealRecord, viewer: Viewer) -> dict[str, Any]:
    """The deal as this viewer may see it: seats, antes, cards, declares, showdown, payments."""
    events = events_json(record.events, viewer, lambda _: record.over)
    started = events[0]["data"]
    after = fold([ev.parse(event.type, event.data) for event in record.events], record.before)
    history = {
        "format": FORMAT,
        "table_id": record.table_id,
        "deal_no": record.deal_no,
        "game_no": started["game_no"],
        "finished": record.over,
        "started_at": events[0]["recorded_at"].isoformat(),
        "ended_at": events[-1]["recorded_at"].isoformat() if record.over else None,
        "variant": record.before.variant,
        "options": dict(record.before.options),
        "players": player_names(started["participants"] + [s.player for s in record.before.seats]),
        "table_name": table_name(record.table_id),
        "dealer": started["dealer"],
        "participants": started["participants"],
        "sat_out": started.get("sat_out", []),
        "before": {
            "pot": record.before.pot,
            "reserve": record.before.reserve,
            "seats": [{"player": s.player, "seat": s.seat, "stack": s.stack} for s in record.before.seats],
        },
        "hands": _hands(events, started["participants"], _card_counts(after)),
        "board": [
            card for event in events if event["type"] == ev.BOARD_DEALT for card in event["data"]["cards"]
        ],
        "results": _results(events),
        "betting": _betting(events),  # D-BET, public
        "draws": [
            {
                "player": e["data"]["player"],
                "count": e["data"]["count"],
                "deferred": bool(e["data"].get("deferred")),
                "split_openers": bool(e["data"].get("split_openers")),
                "timed_out": bool(e["data"].get("timed_out")),
                "discarded": e["data"].get("discarded"),  # the drawer's own (redacted for others)
                "drawn": e["data"].get("drawn"),
            }
            for e in events
            if e["type"] == ev.CARDS_DRAWN
        ],  # counts: public
        **_play(events),  # BF, WL: all public
        "after": {
            "pot": after.pot,
            "reserve": after.reserve,
            "seats": [{"player": s.player, "seat": s.seat, "stack": s.stack} for s in after.seats],
        },
        "proof": proof_json(record, viewer) if record.over else None,
        "events": [{**event, "recorded_at": event["recorded_at"].isoformat()} for event in events],
    }
    seats = [history["before"]["seats"], history["after"]["seats"], history["hands"]]
    return with_player_names(history, seats)  # `names`: display names; `players` keeps usernames


def _staged(events: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each event with the stage of the program it belongs to."""
    stage = 1
    for event in events:
        at = event["data"].get("at_step")
        if at:  # the first event of a step names its position
            stage = at[0]
        if event["type"] == ev.STAGE_STARTED:
            stage = event["data"]["stage"]
        yield stage, event


def _betting(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every betting action (public), with its stage (Italian poker: 1 before the draw, 2 after)."""
    return [
        {
            **{key: event["data"][key] for key in ("player", "action", "amount", "timed_out")},
            "all_in": bool(event["data"].get("all_in")),
            "stage": stage,
        }
        for stage, event in _staged(events)
        if event["type"] == ev.BET_MADE
    ]


def _results(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every stage's antes, showdowns, deck comparisons, settlements, legs and awards, in order,
    as the reader may see them (the same {stage, type, data} as the deal summaries)."""
    return [
        {"stage": stage, "type": event["type"], "data": event["data"]}
        for stage, event in _staged(events)
        if event["type"] in RESULT_TYPES
    ]


def _play(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Buddha's Folly's middle card and offers (BF-02..04), Wolfie's Lou's trump and tricks
    (WL-05..09): public facts, absent from other games' histories."""
    out: dict[str, Any] = {}
    for event in events:
        data, kind = event["data"], event["type"]
        if kind == ev.MIDDLE_CARD_TURNED:
            out.setdefault("offers", {"middle": data["card"], "answers": []})
        elif kind == ev.OFFER_ANSWERED:
            out["offers"]["answers"].append(
                {key: data.get(key) for key in ("player", "action", "card", "gave", "timed_out")}
            )
        elif kind == ev.TRUMP_CHOOSER_NAMED:
            out["trump"] = {"chooser": data["chooser"], "trump": None, "timed_out": False}
        elif kind == ev.TRUMP_CHOSEN:
            out["trump"].update(trump=data["trump"], timed_out=bool(data.get("timed_out")))
        elif kind == ev.TRICK_WON:
            out.setdefault("tricks", []).append(
                {"trick": data["trick"], "winner": data["winner"], "cards": data["cards"]}
            )
    return out


def _card_counts(after: TableState) -> dict[str, int]:
    """How many cards each participant holds (public, unlike the cards themselves)."""
    deal = after.deal
    if deal is None:
        return {}
    return {player: len(hand) for player, hand in zip(deal.order, deal.hands, strict=True)}


_NEW_HAND = (ev.CARDS_EXCHANGED, ev.CARDS_DRAWN)  # events whose `cards` are the new hand


def _hands(
    events: list[dict[str, Any]], participants: list[str], counts: dict[str, int]
) -> list[dict[str, Any]]:
    """Each participant's cards (as the reader may see them) and declare, from the events."""
    hands = {
        player: {
            "player": player,
            "cards": None,
            "face_up": [],
            "card_count": counts.get(player, 0),
            "declared": None,
            "forced": False,
            "timed_out": False,
        }
        for player in participants
    }
    for event in events:
        data, kind = event["data"], event["type"]
        if kind == ev.CARDS_DEALT and data.get("face") == "up":  # public (422-05)
            hands[data["player"]]["face_up"] += data["cards"]
            if hands[data["player"]]["cards"] is not None:
                hands[data["player"]]["cards"] += data["cards"]
        elif kind == ev.CARDS_DEALT or (kind in _NEW_HAND and data.get("cards") is not None):
            hands[data["player"]]["cards"] = data["cards"]  # AO-06, EXC-01..03 exchanges too
        elif kind == ev.OPEN_HAND_BOUGHT:  # MCA-04: the open hand was face up
            hands[data["player"]]["cards"] = data["received"]
        elif kind == ev.DECLARED:
            hands[data["player"]].update(declared=data["choice"], forced=bool(data.get("forced")))
        elif kind == ev.DECLARE_TIMED_OUT:
            for player in data["players"]:
                hands[player].update(declared=data["effect"], timed_out=True)
        elif kind == ev.DECLARES_REVEALED:
            for player, choice in data["choices"].items():
                hands[player]["declared"] = choice
    return list(hands.values())


def canonical(document: Any) -> str:
    """The JSON download: sorted keys, UTF-8, stable across runs."""
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# --- text ----------------------------------------------------------------------------------------


def deal_text(history: dict[str, Any]) -> str:
    """A readable hand history, rendered from `deal_history` (never from the raw events): people by
    username and id ("ann1 (#3)"), each with his display name once ("Players: ann1 (#3) is Ann"),
    the table by its id and name."""
    usernames, names = history["players"], history.get("names", {})

    def who(player: str) -> str:
        return f"{usernames.get(player, 'player')} (#{player})"

    lines = [
        f"Deal {history['deal_no']} (game {history['game_no']}) at table {history['table_id']}"
        + (f" ({history['table_name']})" if history.get("table_name") else ""),
        f"Variant {history['variant']}; started {history['started_at']}"
        + (f", ended {history['ended_at']}" if history["finished"] else ", still being played"),
        f"Dealer: {who(history['dealer'])}",
        "Players: " + ", ".join(f"{who(p)} is {names.get(p, usernames.get(p, 'player'))}" for p in names),
        f"Before the deal: pot {history['before']['pot']}, reserve {history['before']['reserve']}",
    ]
    lines += _seat_lines(history["before"]["seats"], who)
    if _is_poker(history):  # Italian poker: read as draw poker, not as Guts
        lines += _poker_lines(history, who)
        return "\n".join(lines) + "\n"
    lines.append("Cards and declares (dealing order from the dealer's left):")
    for hand in history["hands"]:
        cards = " ".join(hand["cards"]) if hand["cards"] else f"[{hand['card_count']} cards, hidden]"
        declared = hand["declared"] or ("sealed" if hand["card_count"] else "-")
        notes = " (forced in, G2-10)" if hand["forced"] else " (timed out)" if hand["timed_out"] else ""
        up = f" (face up: {' '.join(hand['face_up'])})" if hand["face_up"] else ""
        lines.append(f"  {who(hand['player'])}: {cards}{up}; declared {declared}{notes}")
    if history["board"]:
        lines.append(f"Board: {' '.join(history['board'])}")
    if history.get("betting"):  # D-BET, after the draw of Jacks and Piss (JP-09)
        lines += _draw_lines(history.get("draws") or [], who)
        lines.append("Betting (bets apart from the pot):")
        lines += [_bet_line(b, who) for b in history["betting"]]
    elif history.get("draws"):
        lines += _draw_lines(history["draws"], who)
    lines += _play_lines(history, who)
    for result in history["results"]:
        lines += _result_lines(result, who)
    after = history["after"]
    lines.append(f"After the deal: pot {after['pot']}, reserve {after['reserve']}")
    lines += _seat_lines(after["seats"], who)
    lines += _proof_lines(history["proof"])
    return "\n".join(lines) + "\n"


def _play_lines(history: dict[str, Any], who: Callable[[str], str]) -> list[str]:
    """The offers (BF-02..04), the trump (WL-06) and every trick (WL-07..09), as said aloud."""
    lines: list[str] = []
    if history.get("offers"):
        lines.append(f"Middle card: {history['offers']['middle']}")
        for a in history["offers"]["answers"]:
            took = (
                f"takes {a['card']}, puts {a['gave']} in its place"
                if a["action"] == "take"
                else f"leaves {a['card']}"
            )
            lines.append(f"  {who(a['player'])} {took}" + (" (timed out)" if a["timed_out"] else ""))
    if history.get("trump"):
        trump = history["trump"]
        lines.append(
            f"Trump chooser: {who(trump['chooser'])}; trump {trump['trump'] or '-'}"
            + (" (timed out)" if trump["timed_out"] else "")
        )
    for trick in history.get("tricks", ()):
        cards = ", ".join(f"{who(c['player'])} {c['card']}" for c in trick["cards"])
        lines.append(f"Trick {trick['trick']}: {cards}; won by {who(trick['winner'])}")
    return lines


def _bet_line(b: dict[str, Any], who: Callable[[str], str]) -> str:
    return (
        f"  {who(b['player'])} {b['action']}s"
        + (f" {b['amount']}" if b["amount"] else "")
        + (" (all in)" if b.get("all_in") else "")
        + (" (timed out)" if b["timed_out"] else "")
    )


def _is_poker(history: dict[str, Any]) -> bool:
    """A poker deal (Italian poker): its variant's program ends in the pots step (D-IT-02)."""
    variant = VARIANTS.get(history["variant"])
    return variant is not None and any(step.kind == "pots" for step in variant.program)


def _poker_lines(history: dict[str, Any], who: Callable[[str], str]) -> list[str]:
    """Draw poker as a player reads it, in the order it is played: the antes, the hands, the first
    round (with the open, IT-07) and the pots it formed, the draw with each count (IT-12..16),
    the second round and its pots, then the showdown, each pot's award and the openers shown
    (D-IT-02, D-IT-03); nothing the JSON hides."""
    results = history["results"]
    of_kind = {
        kind: [r for r in results if r["type"] == kind] for kind in (ev.ANTES_POSTED, ev.BETS_GATHERED)
    }
    lines = [line for r in of_kind[ev.ANTES_POSTED] for line in _result_lines(r, who, poker=True)]
    lines.append("Hands (dealing order from the dealer's left; as they ended):")
    for hand in history["hands"]:
        cards = " ".join(hand["cards"]) if hand["cards"] else f"[{hand['card_count']} cards, hidden]"
        lines.append(f"  {who(hand['player'])}: {cards}")
    betting = history.get("betting") or []
    gathered = {r["data"].get("round"): r["data"] for r in of_kind[ev.BETS_GATHERED]}
    first = [b for b in betting if b.get("stage", 1) == 1]
    second = [b for b in betting if b.get("stage", 1) != 1]
    lines += ["First betting round (jacks or better to open):", *(_bet_line(b, who) for b in first)]
    lines += _gathered_lines(gathered.get(1), who)
    lines += _draw_lines(history.get("draws") or [], who, own_cards=True)
    if second:
        lines += ["Second betting round:", *(_bet_line(b, who) for b in second)]
        lines += _gathered_lines(gathered.get(2), who)
    for result in results:
        if result["type"] not in of_kind:
            lines += _result_lines(result, who, poker=True)
    after = history["after"]
    lines.append(f"After the deal: pot {after['pot']}, reserve {after['reserve']}")
    lines += _seat_lines(after["seats"], who)
    lines += _proof_lines(history["proof"])
    return lines


def _gathered_lines(data: dict[str, Any] | None, who: Callable[[str], str]) -> list[str]:
    """D-IT-02: the pots once a round's bets are gathered, each with who may win it."""
    if data is None:
        return []
    return [
        f"  {_pot_name(pot['pot'])} now {pot['amount']} (for {', '.join(who(p) for p in pot['eligible'])})"
        for pot in data["pots"]
    ]


def _pot_name(number: int) -> str:
    return "Main pot" if number == 0 else f"Side pot {number}"


def _draw_lines(
    draws: list[dict[str, Any]], who: Callable[[str], str], *, own_cards: bool = False
) -> list[str]:
    """The draw: how many cards each player takes (public); in poker the reader's own cards too
    (`own_cards`: what the redacted JSON gives him)."""
    if not draws:
        return []
    lines = ["Draw:"]
    for d in draws:
        own = f" ({' '.join(d['drawn'])})" if own_cards and d.get("drawn") else ""
        if d["deferred"]:
            lines.append(f"  {who(d['player'])} gets his last card (IT-15){own}")
            continue
        took = f"draws {d['count']}" if d["count"] else "stands pat"
        if own_cards and d.get("discarded"):
            own = f" (discards {' '.join(d['discarded'])}, gets {' '.join(d['drawn'] or [])})"
        notes = (" and splits his openers" if d["split_openers"] else "") + (
            " (timed out)" if d["timed_out"] else ""
        )
        lines.append(f"  {who(d['player'])} {took}{notes}{own}")
    return lines


def _pots_lines(stage: str, data: dict[str, Any], who: Callable[[str], str]) -> list[str]:
    """D-IT-02: the uncalled bet, then each pot with who could win it and who did."""
    lines = []
    if data.get("returned"):
        lines.append(
            f"{stage}Uncalled bet of {data['returned']['amount']} back to {who(data['returned']['player'])}"
        )
    for pot in data["pots"]:
        name = _pot_name(pot["pot"])
        among = ", ".join(who(p) for p in pot["eligible"])
        won = ", ".join(f"{who(p)} {share}" for p, share in pot["shares"].items())
        lines.append(f"{stage}{name} of {pot['amount']} (among {among}): {won}")
    return lines


def _seat_lines(seats: list[dict[str, Any]], who: Callable[[str], str]) -> list[str]:
    return [f"  seat {s['seat']}: {who(s['player'])} stack {s['stack']}" for s in seats]


def _result_lines(result: dict[str, Any], who: Callable[[str], str], *, poker: bool = False) -> list[str]:
    """One stage result as text, from the redacted data only (poker: no stage prefix, the rounds
    say where it is)."""
    data, kind = result["data"], result["type"]
    stage = "" if poker else f"[stage {result['stage']}] "
    if kind == ev.ANTES_POSTED:
        paid = ", ".join(who(p) for p in data["paid"]) or "nobody (the pot carries)"
        return [f"{stage}Antes of {data['ante']}: {paid}"]
    if kind == ev.SHOWDOWN_HELD:
        private = " privately" if data.get("private") else ""
        lines = [f"{stage}Showdown{private} ({data['reason']}):"]
        if data.get("hands") is None:
            lines.append("  hands compared privately (not shown to you)")
        lines += [
            f"  {who(h['player'])} shows {' '.join(h['cards'])}: {h['value']}"
            for h in data.get("hands") or ()
        ]
        ghost = data.get("ghost")
        if ghost:  # GH-03
            lines.append(f"  the ghost hand shows {' '.join(ghost['cards'])}: {ghost['value']}")
        winners = ", ".join(who(p) for p in data["winners"]) or (
            "the ghost hand" if ghost and ghost["won"] else "nobody"
        )
        return [*lines, f"  {'wins a pot' if poker else 'best hand'}: {winners}"]
    if kind == ev.DECK_COMPARED:
        return [
            f"{stage}{who(data['player'])} {' '.join(data['cards'])} ({data['player_value']}) against "
            f"the deck {' '.join(data['deck_cards'])} ({data['deck_value']}): {data['winner']} wins"
        ]
    if kind == ev.LEG_AWARDED:
        return [f"{stage}{who(data['player'])} earns a leg ({data['legs']} in all)"]
    if kind == ev.NOBODY_OPENED:  # IT-11
        return [f"{stage}Nobody opened: the pot of {data['pot']} stays; the next dealer deals again"]
    if kind == ev.POTS_AWARDED:  # D-IT-02
        return _pots_lines(stage, data, who)
    if kind == ev.OPENERS_SHOWN:  # D-IT-03
        split = " (split in the draw)" if data["split"] else ""
        return [f"{stage}{who(data['player'])} shows his openers: {' '.join(data['openers'])}{split}"]
    if kind == ev.BETS_AWARDED:  # D-BET
        takers = ", ".join(who(p) for p in data["winners"]) or "the pot (nobody won)"
        return [
            f"{stage}Bets of {data['amount']} to {takers}",
            *(f"  {t['from']} -> {t['to']}: {t['amount']} ({t['reason']})" for t in data["transfers"]),
        ]
    title = (
        f"Settlement: {data['outcome']}"
        if kind == ev.POT_SETTLED
        else f"{who(data['player'])} takes the pot with {data['legs']} legs"
    )
    return [
        f"{stage}{title}",
        *(f"  {t['from']} -> {t['to']}: {t['amount']} ({t['reason']})" for t in data["transfers"]),
    ]


def _proof_lines(proof: dict[str, Any] | None) -> list[str]:
    if proof is None:
        return ["Deck: its proof is served once the deal ends."]
    if not proof["provable"]:
        return ["Deck: stacked (tests and demos); nothing to prove."]
    verdict = "every dealt card matches" if proof["ok"] else "MISMATCH: the deal does not verify"
    check = f"      {verdict} (check it yourself: python docs/verify_deal.py deal.json)"
    if proof.get("deck_schema", 1) >= 2:
        seeds = len(proof["entropy"])
        entropy = f"{seeds} player seed(s)" if seeds else "no player entropy"
        return [
            f"Deck: committed card by card, Merkle root {proof['root']}",
            f"      permuted by {entropy}; {len(proof['openings'])} card(s) opened to you",
            check,
        ]
    return [f"Deck: commitment {proof['commitment']}", f"      seed {proof['seed']}", check]


def table_text(histories: Iterable[dict[str, Any]]) -> str:
    return "\n".join(deal_text(history) for history in histories)
