"""The new hidden facts attacked through the hash chain, as an opponent
would: the ghost hand before its showdown (GH-02), a Three-Five-Seven private comparison
(D-357-03), a player's draw (EXC-01) and Four-Three's sealed High/Low/Both choice (D-43-01). For
each hidden value an attacker who reads the served feed puts guesses (the true value among them)
in its place, in the clear and as an unsalted commitment, and tries to reproduce a served hash or
the next event's prev_hash: none may match (the salt, ledger.hashing).
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from ledger.models import Event
from tables import service
from tables.engine.decider import commands as cmd
from tests.audit.conftest import Club
from tests.audit.test_chain_attack import (
    PACK,
    TWO_CARD_HANDS,
    assert_chain_checks,
    assert_no_salt_served,
    assert_unrecoverable,
    feed,
    guess_hashes,
    own_salts,
    served_hashes_of,
)
from tests.tables.conftest import stack_deck

pytestmark = pytest.mark.django_db(transaction=True)
DECK = random.Random(11).sample(PACK, len(PACK))


def stored(table_id: str, kind: str) -> list[dict[str, Any]]:
    return list(
        Event.objects.filter(stream=f"table-{table_id}", type=kind)
        .order_by("version")
        .values_list("data", flat=True)
    )


def assert_hidden_and_unrecoverable(
    events: list[dict[str, Any]], kind: str, key: str, candidates: list[Any], truths: list[Any]
) -> None:
    """Every `kind` event is served with `key` hidden, and no guess reproduces its hashes."""
    hidden = [e for e in events if e["type"] == kind]
    assert len(hidden) == len(truths) > 0
    for event, truth in zip(hidden, truths, strict=True):
        assert event["data"][key] is None
        assert not served_hashes_of(events, event) & guess_hashes(event, key, [*candidates, truth]), kind


def open_table(club: Club, settings: Any, variant: str, **options: Any) -> str:
    settings.GUTS_ALLOW_STACKED_DECKS = True
    opened = service.table_open(variant=variant, stacked_decks=[DECK], options={"ante": 5, **options})
    for player in club.ids():
        service.table_command(table_id=opened.table_id, command=cmd.SitDown(str(player), 500))
    service.table_command(table_id=opened.table_id, command=cmd.StartDeal())
    return opened.table_id


def test_gh_02_the_ghost_hand_cannot_be_brute_forced_before_its_showdown(club: Club, settings: Any) -> None:
    table_id = open_table(club, settings, "guts2", ghost="always")
    ghost = [data["cards"] for data in stored(table_id, "GhostDealt")]
    for reader in (club.players[0], club.outsider):
        events = feed(reader, table_id)
        assert_hidden_and_unrecoverable(events, "GhostDealt", "cards", TWO_CARD_HANDS, ghost)
        assert_chain_checks(events)
        assert_no_salt_served(json.dumps(events), table_id, may_see=own_salts(table_id, str(reader.pk)))


def test_d_357_03_a_private_comparison_cannot_be_brute_forced_by_the_others(
    club: Club, settings: Any
) -> None:
    table_id = open_table(club, settings, "three_five_seven")
    order = stored(table_id, "DealStarted")[0]["participants"]
    for player, choice in zip(order, ["in", "in", "out"], strict=True):
        service.table_command(table_id=table_id, command=cmd.Declare(player, 1, choice))
    [showdown] = [d for d in stored(table_id, "ShowdownHeld") if d.get("private")]
    swapped = [
        [{**hand, "cards": list(reversed(hand["cards"]))} for hand in showdown["hands"]],
        list(reversed(showdown["hands"])),
    ]
    events = feed(next(p for p in club.players if str(p.pk) == order[2]), table_id)  # the one out
    assert_hidden_and_unrecoverable(events, "ShowdownHeld", "hands", swapped, [showdown["hands"]])
    assert_chain_checks(events)


def test_exc_01_a_draw_cannot_be_brute_forced_by_an_opponent(club: Club, settings: Any) -> None:
    table_id = open_table(club, settings, "guts2", exchange="draw")
    drawer = stored(table_id, "DealStarted")[0]["participants"][0]
    held = next(d["cards"] for d in stored(table_id, "CardsDealt") if d["player"] == drawer)
    service.table_command(table_id=table_id, command=cmd.Exchange(drawer, 1, [held[0]]))
    [draw] = stored(table_id, "CardsDrawn")
    opponent = next(p for p in club.players if str(p.pk) != drawer)
    events = feed(opponent, table_id)
    singles = [[card] for card in PACK]
    for key in ("discarded", "drawn"):
        assert_hidden_and_unrecoverable(events, "CardsDrawn", key, singles, [draw[key]])
    assert_hidden_and_unrecoverable(events, "CardsDrawn", "cards", TWO_CARD_HANDS, [draw["cards"]])
    assert_chain_checks(events)
    assert_no_salt_served(json.dumps(events), table_id, may_see=own_salts(table_id, str(opponent.pk)))


def test_d_43_01_a_sealed_high_low_both_choice_cannot_be_brute_forced(club: Club, settings: Any) -> None:
    """43-03, D-43-01: the High/Low/Both declare is simultaneous and sealed until the reveal; with
    only three values to try, the salt alone keeps the served hash and prev_hash from naming it."""
    table_id = open_table(club, settings, "four_three")
    order = stored(table_id, "DealStarted")[0]["participants"]
    for player in order:
        service.table_command(table_id=table_id, command=cmd.Declare(player, 1, "in", stage=1))
    service.table_command(table_id=table_id, command=cmd.Declare(order[0], 1, "both", stage=2))
    declarer = next(p for p in club.players if str(p.pk) == order[0])
    for reader in (*(p for p in club.players if p is not declarer), club.outsider, club.admin, club.auditor):
        events = feed(reader, table_id)
        assert (
            assert_unrecoverable(
                events, "Declared", "choice", ["high", "low", "both", "in", "out"], {order[0]: "both"}
            )
            == 1
        )
        assert_chain_checks(events)
        assert_no_salt_served(json.dumps(events), table_id, may_see=own_salts(table_id, str(reader.pk)))


def test_d_wl_02_the_questioning_ranking_and_the_unplayed_cards_cannot_be_brute_forced(
    club: Club, settings: Any
) -> None:
    """D-WL-02, WL-07: Wolfie's Lou's sealed ranking of the "in" hands (every order of the true
    entries tried), and, after four tricks, each hand as dealt (the four cards played are public:
    every order of them with every other card of the pack as the fifth): no served hash or
    prev_hash names them, for another player, an outsider, an admin or an auditor while the deal
    is live."""
    table_id = open_table(club, settings, "wolfies_lou")
    order = stored(table_id, "DealStarted")[0]["participants"]
    for player in order:
        service.table_command(table_id=table_id, command=cmd.Exchange(player, 1, []))
    for player in order:
        service.table_command(table_id=table_id, command=cmd.Declare(player, 1, "in"))
    [named] = stored(table_id, "TrumpChooserNamed")
    service.table_command(table_id=table_id, command=cmd.ChooseTrump(named["chooser"], 1, "no_trump"))
    dealt = {d["player"]: d["cards"] for d in stored(table_id, "CardsDealt")}
    for _ in range(4 * len(order)):
        player = stored(table_id, "PlayOpened")[-1]["player"]
        played = {d["card"] for d in stored(table_id, "CardPlayed")}
        card = next(c for c in dealt[player] if c not in played)
        service.table_command(table_id=table_id, command=cmd.PlayCard(player, 1, card))
    played = [d["card"] for d in stored(table_id, "CardPlayed")]
    rankings = [list(p) for p in itertools.permutations(named["ranking"])]
    victim = order[0]
    seen = [c for c in dealt[victim] if c in played]
    hands = [
        [*p[:i], card, *p[i:]]
        for card in PACK
        if card not in played
        for p in itertools.permutations(seen)
        for i in range(len(seen) + 1)
    ]
    assert dealt[victim] in hands
    others = [p for p in club.players if str(p.pk) != victim]
    for reader in (others[0], club.outsider, club.admin, club.auditor):
        events = feed(reader, table_id)
        assert_hidden_and_unrecoverable(events, "TrumpChooserNamed", "ranking", rankings, [named["ranking"]])
        assert assert_unrecoverable(events, "CardsDealt", "cards", hands, dealt) >= 1
        assert_chain_checks(events)
        rows = Event.objects.filter(stream=f"table-{table_id}").values_list("data", flat=True)
        mine = {d["salt"] for d in rows if "salt" in d and d.get("player") == str(reader.pk)}  # his own
        assert_no_salt_served(json.dumps(events), table_id, may_see=mine)


# Italian poker, three players: the 28-card pack (8s up, D-IT-01); dealt in seat order from the
# dealer's left: the first holds jacks and opens.
IT_DECK = stack_deck("Jh Js 8c 9d Ts", "Qh Kd 8d 9c Ac", "Ah Kc 9h 8h Qs")


def test_d_it_03_sealed_openers_and_the_openers_discards_cannot_be_brute_forced(
    club: Club, settings: Any
) -> None:
    """IT-16, D-IT-03, D-IT-05: the opener's qualifying cards (sealed in his open until
    OpenersShown) and his draw's discards, kept apart, are not recovered from a served hash or
    prev_hash by another player, an outsider or an admin while the deal is live."""
    settings.GUTS_ALLOW_STACKED_DECKS = True
    opened = service.table_open(variant="italian", stacked_decks=[IT_DECK], options={"ante": 5})
    for player in club.ids():
        service.table_command(table_id=opened.table_id, command=cmd.SitDown(str(player), 500))
    table_id = opened.table_id
    service.table_command(table_id=table_id, command=cmd.StartDeal())
    order = stored(table_id, "DealStarted")[0]["participants"]
    for player, action in zip(order, ("open", "call", "call"), strict=True):
        service.table_command(table_id=table_id, command=cmd.Bet(player, 1, action))
    service.table_command(table_id=table_id, command=cmd.Exchange(order[0], 1, ["8c", "9d"]))
    [draw] = stored(table_id, "CardsDrawn")
    opener = next(p for p in club.players if str(p.pk) == order[0])
    for reader in (*(p for p in club.players if p is not opener), club.outsider, club.admin):
        events = feed(reader, table_id)
        truth = {player: ["Jh", "Js"] for player in order}
        assert assert_unrecoverable(events, "BetMade", "openers", TWO_CARD_HANDS, truth) >= 1
        assert_hidden_and_unrecoverable(
            events, "CardsDrawn", "discarded", TWO_CARD_HANDS, [draw["discarded"]]
        )
        assert_chain_checks(events)
        assert_no_salt_served(json.dumps(events), table_id, may_see=own_salts(table_id, str(reader.pk)))
