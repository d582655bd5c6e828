"""Options shared by several game families: stakes and seats, the declare, the loser's
rules, the ghost, exchanges and the betting round's unit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.decider import ghost
from tables.engine.decider.errors import DomainError
from tables.engine.decider.variants.model import Option, Variant

RANKINGS_3C = ("guts3_sf_high", "guts3_trips_high", "guts3_classic")  # Table 3C, D-3C-01


def _table_options(max_seats: int, *, default_seats: int = 10) -> tuple[Option, ...]:
    """Options every variant has: stakes, buy-ins, seats, timeouts, table stakes."""
    return (
        Option("ante", "int", 1, "chips each player antes", "G2-03", minimum=1),
        Option("min_buy_in", "int", 100, "smallest buy-in (at least the ante)", "D-GEN-06", minimum=1),
        Option(
            "max_buy_in",
            "int",
            0,
            "largest stack after a buy-in or top-up; 0 = no maximum",
            "D-GEN-06",
            minimum=0,
        ),
        Option(
            "seats",
            "int",
            min(default_seats, max_seats),
            "seats at the table (at most what one pack serves)",
            "GEN-07, D-GEN-02",
            minimum=2,
            maximum=max_seats,
        ),
        Option(
            "declare_timeout",
            "int",
            30,
            "seconds per declare turn or window",
            "DESIGN 2.8",
            minimum=1,
            maximum=3600,
        ),
        Option(
            "timeout_effect", "choice", "out", "what a declare timeout does", "DESIGN 2.8", choices=("out",)
        ),
        Option(
            "sit_out_after",
            "int",
            0,
            "sit a player out after this many consecutive declare timeouts; 0 = never",
            "DESIGN 2.8",
            minimum=0,
            maximum=100,
        ),
        Option(
            "stack_policy",
            "choice",
            "default",
            "table stakes; allow_debt extends credit; pay_what_you_have lets a short player in",
            "D-GEN-06",
            choices=("default", "allow_debt", "pay_what_you_have"),
        ),
    )


DECLARE_MODE = Option(
    "declare_mode",
    "choice",
    "sequential",
    "declare in turn or all at once, sealed",
    "G2-08, SIM-01, D-DECLARE, 357-06",
    choices=("sequential", "simultaneous"),
)
MAX_LOSS = Option(
    "max_loss",
    "int",
    0,
    "most one player pays in one payment; 0 = no limit (CAP_PAY_LIMIT_ONLY)",
    "CAP-02, 422-07, EX-03",
    minimum=0,
)
ACE_LOW = Option(
    "ace_low",
    "bool",
    True,
    "an ace may play low in A-2-3 and A-2-3-4-5 (false: ace high only)",
    "D-GEN-04, Q-3C-02",
)
GHOST = Option(
    "ghost",
    "choice",
    ghost.NONE,
    "a ghost hand (Kitty) dealt to nobody, last in each "
    'round, secret until shown at the showdown: the "in" players must beat it in every '
    'showdown (always) or a lone "in" must (only_if_one_in); a tie with it loses; when '
    'it wins every "in" player matches; everyone out: everyone antes anew',
    "GH-01..08, D-GH-02, D-GH-03",
    choices=ghost.GHOSTS,
)
RANKING_3C = Option(
    "ranking",
    "choice",
    "guts3_sf_high",
    "three-card hand-ranking preset",
    "3C-04, Table 3C, D-3C-01",
    choices=RANKINGS_3C,
)
EXCHANGE_RULES_2C = ("none", "draw")  # EXC-01
EXCHANGE_RULES_3C = (*EXCHANGE_RULES_2C, "pass_left")  # EXC-02, EXC-03


def exchange_option(choices: tuple[str, ...]) -> Option:
    """EXC-01..03 with the Q-EXC-01/02 defaults (steps/exchange.py)."""
    return Option(
        "exchange",
        "choice",
        "none",
        "before the declare: no exchange; draw (in turn from the dealer's left, discard "
        "up to all your cards and take as many from the stock); pass_left (three-card: "
        "everyone passes one card to the left, chosen sealed)",
        "EXC-01..03, Q-EXC-01, Q-EXC-02, D-GEN-02",
        choices=choices,
    )


ALL_OUT_CHOICES = (
    "carry",
    "extra_ante",
    "wimp_all",
    "wimp_others",
    "best_matches",
    "extra_card",
    "pass_right",
)


def _guts_options(max_seats: int, all_out: tuple[str, ...] = ALL_OUT_CHOICES) -> tuple[Option, ...]:
    """Options of two- and three-card Guts and their family (3C-05: all two-card rules carry over)."""
    return (
        *_table_options(max_seats),
        Option(
            "pot_limit",
            "int",
            0,
            "most the pot may hold; 0 = no limit (e.g. 100 x ante)",
            "G2-04, CAP-01, RES-01..03, D-RES-02",
            minimum=0,
        ),
        Option("max_loss", "int", 0, "most one player pays in one deal; 0 = no limit", "CAP-02", minimum=0),
        Option(
            "cap_rule",
            "choice",
            "reserve",
            "pot above pot_limit: excess to a reserve, or losers pay at most pot_limit",
            "CAP-01, D-CAP",
            choices=("reserve", "pay_limit_only"),
        ),
        DECLARE_MODE,
        Option(
            "ante_rule",
            "choice",
            "pot_empty",
            "antes when the pot is empty, or every deal",
            "G2-05, SL-03",
            choices=("pot_empty", "every_deal"),
        ),
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02, NSP-01..02",
            choices=("split", "no_split"),
        ),
        Option(
            "all_out",
            "choice",
            "carry",
            "every player out: carry the pot, extra ante, wimp rules, best hand matches, or one "
            "more card each and a new declare (best hand of the size dealt, of all cards held)",
            "AO-01..07, D-AO",
            choices=all_out,
        ),
        Option(
            "dealer_forced_in",
            "bool",
            True,
            "dealer automatically in when all others are out (sequential declare only)",
            "G2-10, D-G2-05",
        ),
        Option(
            "end_on_empty_pot",
            "bool",
            False,
            "Dealer's Choice: the table closes when the pot empties (game over)",
            "D-GEN-08, G2-15, Q-G2-04",
        ),
    )


LOSER_RULES = ("match_pot_each", "single_loser")


def _optional_rules() -> tuple[Option, ...]:
    """The optional rules of two- and three-card Guts of RULES §7 (CFR, SL; NSP is `ties`)."""
    return (
        Option(
            "loser_rule",
            "choice",
            "match_pot_each",
            'who matches the pot: every losing "in" player, or only the worst "in" hand(s), '
            "each in full, who then skip the next deal's ante (single_loser antes every deal: "
            "ante_rule then defaults to every_deal and pot_empty is refused)",
            "G2-13, SL-01..04, D-MC-01",
            choices=LOSER_RULES,
        ),
        Option(
            "compulsory_first_round",
            "bool",
            False,
            "on the first deal of a game (of the session, or after the pot emptied) every player "
            'is "in" without declaring',
            "CFR-01, CFR-02, Q-CFR-01",
        ),
    )


# D-AO-03: two-card Guts ranks the three cards held after AO-07's extra card by the table's
# three-card preset (Table 3C), with D-GEN-04's ace-low option.
EXTRA_CARD_RANKING = Option(
    "ranking",
    "choice",
    "guts3_sf_high",
    "the three-card preset (Table 3C) that ranks the three cards held after all_out extra_card",
    "D-AO-03, AO-07, Table 3C, D-3C-01",
    choices=RANKINGS_3C,
)
EXTRA_CARD_ACE_LOW = Option(
    "ace_low",
    "bool",
    True,
    "after all_out extra_card: an ace may play low in A-2-3 (false: ace high only)",
    "D-AO-03, D-GEN-04, Q-3C-02",
)


def _check_optional_rules(variant: Variant, result: dict[str, Any], given: Mapping[str, Any]) -> None:
    """Conflicts among the optional rules; an unset option they imply takes its
    implied value."""
    if variant.name == "guts2" and result["all_out"] != "extra_card":  # D-AO-03
        for name in ("ranking", "ace_low"):
            if result[name] != variant.option_index[name].default:
                raise DomainError(
                    "invalid_option",
                    f"{name} ranks the three cards of all_out "
                    "extra_card in two-card Guts (D-AO-03): set all_out=extra_card",
                    option=name,
                    conflict="all_out",
                )
    if result.get("loser_rule") == "single_loser":  # SL-03
        if "ante_rule" not in given:
            result["ante_rule"] = "every_deal"
        elif result["ante_rule"] != "every_deal":
            raise DomainError(
                "invalid_option",
                "loser_rule single_loser antes every deal (SL-03): ante_rule must be every_deal",
                option="ante_rule",
                conflict="loser_rule",
            )


BET_UNIT = Option(
    "bet_unit",
    "int",
    0,
    "the size of a bet and of a raise in the betting round (fixed "
    "limit, at most three raises a round); 0 = the ante",
    "D-BET, Q-JP-01, Q-T25-01",
    minimum=0,
)
