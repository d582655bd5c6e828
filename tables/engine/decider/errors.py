"""DomainError: a command is not allowed now. Its `code` is stable; the API maps it to a problem.

Codes: not_your_turn, not_seated, already_seated, table_full, deal_over, wrong_deal,
deal_in_progress, no_deal, already_declared, not_enough_players, insufficient_stack,
liability_open, invalid_option, unknown_variant, invalid_amount, table_closed,
stacked_decks_not_allowed, invalid_card, and three more: table_already_open (OpenTable on an open
table), invalid_seed (StartDeal on an unstacked table without a valid hex seed), invalid_choice (a declare
that is neither "in" nor "out"), already_sitting_out and not_sitting_out (SitOut/SitIn),
already_passed (AO-06), wrong_stage (a declare naming another stage than the open one),
bid_too_low (MCA-04: a bid not above the standing bid), already_exchanged and invalid_discards
(EXC-01/02: a second draw; repeated cards or more than the draw allows), level_too_low
(T38-03: naming a level below the pot's current one in Thirty Eight's escalation).
Tournament tables: tournament_table (a cash-table command there), not_a_tournament_table
(a tournament command on a cash table), invalid_seat (a seat named that is not free).
Betting (D-BET): bet_not_allowed (an action the betting round does not offer now, e.g.
a check or a bet facing a bet, a call or raise with no bet open) and raise_limit (a fourth raise).
Buddha's Folly and Wolfie's Lou: card_not_held (a card given for the middle card, or played to a
trick, that is not in the player's hand) and must_play_trump (D-WL-04: a card of another suit
while holding a trump).
Italian poker: cannot_open (IT-07, IT-08: an open without jacks or better) and invalid_split
(IT-16, D-IT-03: the opener discarding openers without split_openers, or a split announced by
anyone else or without discarding an opener).
Fair deals: invalid_client_seed (a player's seed that is not 32 to 128 hex digits).
`detail` holds JSON-friendly specifics (e.g. the option's name).
"""

from __future__ import annotations

from typing import Any, ClassVar

CODES = frozenset(
    {
        "not_your_turn",
        "not_seated",
        "already_seated",
        "table_full",
        "deal_over",
        "wrong_deal",
        "deal_in_progress",
        "no_deal",
        "already_declared",
        "not_enough_players",
        "insufficient_stack",
        "liability_open",
        "invalid_option",
        "unknown_variant",
        "invalid_amount",
        "table_closed",
        "stacked_decks_not_allowed",
        "invalid_card",
        "table_already_open",
        "invalid_seed",
        "invalid_choice",
        "already_sitting_out",
        "not_sitting_out",
        "already_passed",
        "wrong_stage",
        "bid_too_low",
        "already_exchanged",
        "invalid_discards",
        # tournament tables
        "tournament_table",
        "not_a_tournament_table",
        "invalid_seat",
        "level_too_low",  # T38-03
        "bet_not_allowed",
        "raise_limit",  # D-BET
        "card_not_held",
        "must_play_trump",  # BF-03, D-WL-04
        "cannot_open",
        "invalid_split",  # IT-07, IT-16
        "invalid_client_seed",  # ContributeSeed (decider.fair)
    }
)


class DomainError(Exception):
    """Raised by `decide` (and option validation); nothing is appended. Another pure decider (the
    tournaments') subclasses it with its own `CODES`, so the API and the tasks know one refusal."""

    CODES: ClassVar[frozenset[str]] = CODES

    def __init__(self, code: str, message: str = "", **detail: Any) -> None:
        assert code in self.CODES, code
        super().__init__(message or code)
        self.code = code
        self.detail = detail

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {str(self)!r})"
