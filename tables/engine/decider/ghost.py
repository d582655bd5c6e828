"""The ghost hand (Kitty or Ghost, GH-01..08, D-GH-02, D-GH-03): the table's ``ghost`` option.

Used by the two- and three-card Guts programs through their steps' ``ghost`` parameter
(``"$ghost"``), never by branches on the variant:

- the deal step deals the ghost last in each round (`dealt`, D-GH-03), as a GhostDealt event that
  nobody sees (GH-02; auditors once the deal is over);
- the showdown step compares the "in" players with it when it `plays` (GH-07, GH-08) and shows it
  (GH-03); a player must beat it (GH-04; a tie loses, D-GH-02, `tables.engine.showdown`);
- the settle step's `match_pot_each`: when it wins, every "in" player matches and the pot stays
  (GH-05);
- the ante step: after a deal everyone went out of, every player antes anew (GH-06, `antes_anew`).

It takes no part in exchanges or passes (D-GH-03): those deal with the participants only.

``face_up`` is Monte Carlo's open hand to beat (MCA-05, Q-MC-05): the same hand, dealt face up
(public at once, so the players declare knowing it) and playing in every showdown with someone
"in", where a tie with it loses (D-GH-02) and its win makes the "in" players replenish (GH-05).
``auction`` is the open hand of MCA-04 (D-MC-04): dealt face up too, bid for before the declare
(`steps/auction.py`), and never played against.
"""

from __future__ import annotations

from tables.engine.decider.state import TableState

NONE, ALWAYS, ONLY_IF_ONE_IN = "none", "always", "only_if_one_in"
FACE_UP, AUCTION = "face_up", "auction"
GHOSTS = (NONE, ALWAYS, ONLY_IF_ONE_IN)  # GH-07 GHOST_ALWAYS, GH-08 GHOST_ONLY_IF_ONE_IN
RULES = (*GHOSTS, FACE_UP, AUCTION)  # what the steps accept: also MCA-05, MCA-04
HOLDER = "ghost"  # the fairness proof's name for its cards


def dealt(rule: str) -> bool:
    """Whether the deal gives the ghost a hand (it is dealt whether or not it will play)."""
    return rule != NONE


def plays(rule: str, in_count: int) -> bool:
    """GH-07 (and MCA-05's open hand): every showdown with someone "in"; GH-08: only against a
    lone "in" player."""
    if rule in (ALWAYS, FACE_UP):
        return in_count >= 1
    return rule == ONLY_IF_ONE_IN and in_count == 1


def face_up(rule: str) -> bool:
    """MCA-05, MCA-04: the open hand is dealt face up, public at once."""
    return rule in (FACE_UP, AUCTION)


def antes_anew(rule: str, state: TableState) -> bool:
    """GH-06: the last deal ended with every player "out" (the pot carried), so every player antes
    for this one even though the pot is not empty. (Before any antes of this deal a pot of chips
    means there was a last deal.)"""
    return dealt(rule) and not state.last_in and state.pot > 0
