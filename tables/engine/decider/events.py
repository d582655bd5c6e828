"""Events: facts in the past tense (DESIGN §5.2). `data` is plain JSON (no tuples, no datetimes).

Every chip movement is in ``data["transfers"]`` as `Transfer.to_json()` dicts; each event's
transfers are the whole money effect of that event. Cards are strings ("As"), times ISO-8601 UTC.

Types and their data (besides ``transfers`` where money moves):

- TableOpened: table_id, variant, options (complete), stacked (bool), stacked_decks (list|None)
- PlayerSeated: player, seat (0-based, clockwise order), buy_in
- StackToppedUp: player, amount
- PlayerLeft: player, cash_out (negative = debt settled from the bankroll, allow_debt)
- TableClosed: shares {player: chips} of pot and reserve (D-GEN-07), cash_outs {player: chips}
- DealStarted: deal_no, game_no, dealer, participants (deal/declare order: dealer's left first,
  dealer last), sat_out, by (who asked, or null), commitment (sha256 of the seed) or null,
  stacked (bool), seed (SECRET: `view.redact_event` always removes it; DealEnded reveals it)
- AntesPosted: deal_no, due (false: the pot carries, G2-05), ante, paid [players], sat_out
  [seated but not dealt in, D-GEN-06], transfers (seat -> pot, then pot -> reserve excess, RES-01)
- CardsDealt: deal_no, player, cards (all the player holds), face ("down"), extra (true for
  AO-07's extra card, after which a new declare opens): one event per player (hidden information)
- DeclareOpened: deal_no, mode, players (whose turn: one, or all in the window), deadline
- Declared: deal_no, player, choice, sealed (simultaneous: hidden until DeclaresRevealed),
  forced (G2-10 dealer forced in)
- DeclareTimedOut: deal_no, players, effect ("out")
- PassOpened: deal_no, players, deadline (AO-06 pass_right: everyone out, each passes one card right)
- CardPassed: deal_no, player, card (SECRET: the passer's own; auditors once the deal is over),
  timed_out (the timer passed his first card)
- CardsExchanged: deal_no, player, gave, received, cards (his new hand; hidden like CardsDealt);
  after the last one a new declare opens
- PlayerSatOut: player, reason ("timeouts": sit_out_after consecutive timeouts | "requested"),
  timeouts (the consecutive count)
- PlayerSatIn: player
- DeclaresRevealed: deal_no, choices {player: "in"|"out"}
- ShowdownHeld: deal_no, reason ("contested" | all-out option), hands [{player, cards, value,
  category}], winners, losers (ids; winners = best hand(s))
- PotSettled: deal_no, outcome, winners, matchers, transfers, pot, reserve (balances after)
- DealEnded: deal_no, seed (revealed) or null when stacked, stacked
- GameEnded: game_no, reason, final (true when end_on_empty_pot closes the table)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TABLE_OPENED = "TableOpened"
PLAYER_SEATED = "PlayerSeated"
STACK_TOPPED_UP = "StackToppedUp"
PLAYER_LEFT = "PlayerLeft"
TABLE_CLOSED = "TableClosed"
DEAL_STARTED = "DealStarted"
ANTES_POSTED = "AntesPosted"
CARDS_DEALT = "CardsDealt"
DECLARE_OPENED = "DeclareOpened"
DECLARED = "Declared"
DECLARE_TIMED_OUT = "DeclareTimedOut"
DECLARES_REVEALED = "DeclaresRevealed"
PLAYER_SAT_OUT = "PlayerSatOut"
PASS_OPENED = "PassOpened"
CARD_PASSED = "CardPassed"
CARDS_EXCHANGED = "CardsExchanged"
PLAYER_SAT_IN = "PlayerSatIn"
SHOWDOWN_HELD = "ShowdownHeld"
POT_SETTLED = "PotSettled"
DEAL_ENDED = "DealEnded"
GAME_ENDED = "GameEnded"


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data}
