"""Every `outcome` a settled deal can have (null while it is played): one closed set, asserted
where the engine settles (`money.Book.close`) so none reaches a client undocumented."""

from __future__ import annotations

OUTCOMES = (
    "won",  # one winner
    "split",  # tied winners share, the others match
    "all_tied",  # every "in" player tied: nobody pays
    "uncontested",  # one "in" player takes the pot (G2-11)
    "nobody_won",  # High-Low: no side has a winner; Monte Carlo: nobody beat the open hand
    "no_contest",  # nobody was "in" and nothing was paid
    "no_split",  # tied best hands neither win nor pay (NSP-01, NSP-02)
    "ghost_won",  # the ghost hand beat every "in" player (GH-05)
    "beat_the_deck",  # the lone "in" player beat the deck (42X, lone_in vs_deck)
    "deck_won",  # the deck beat the lone "in" player
    "pot_awarded",  # legs: the game's pot to its winner (357-25)
    "no_open",  # Italian poker: nobody opened (IT-11)
    "contested",  # Italian poker: the pots settled at a showdown (D-IT-02)
    "all_out_carry",  # everyone out: the pot carries (AO-01)
    "extra_ante",  # everyone out: an extra ante each (AO-02)
    "wimp_all",  # AO-03
    "wimp_others",  # AO-04
    "best_matches",  # the best hand matches the pot (AO-05)
    "twos_match",  # 42X-02: everyone out, the holders of a two match
)
