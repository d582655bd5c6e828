"""Two- and three-card Guts, Two plus One, Four-Two-Two/Three and Three-Five-Seven."""

from __future__ import annotations

from tables.engine.decider.variants.model import PACK_SIZE, Option, Stage, Step, Variant, step
from tables.engine.decider.variants.options import (
    ACE_LOW,
    DECLARE_MODE,
    EXCHANGE_RULES_2C,
    EXCHANGE_RULES_3C,
    EXTRA_CARD_ACE_LOW,
    EXTRA_CARD_RANKING,
    GHOST,
    MAX_LOSS,
    RANKING_3C,
    _guts_options,
    _optional_rules,
    _table_options,
    exchange_option,
)


def _guts_program(
    cards: int, ranking: str, ace_low: bool | str | None = None, grown: str | None = None
) -> tuple[Stage, ...]:
    return (
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule", ghost="$ghost"),  # GH-06
                step("deal", count=cards, face="down", ghost="$ghost"),  # D-GH-03
                step("exchange", when="exchange", rule="$exchange", max=cards),  # EXC-01..03
                step(
                    "declare",
                    mode="$declare_mode",
                    dealer_forced_in="$dealer_forced_in",
                    compulsory="$compulsory_first_round",
                ),  # CFR-01
                step("all_out", rule="$all_out"),
                step(
                    "showdown",
                    ranking=ranking,
                    best=cards,
                    all_out="$all_out",
                    ace_low=ace_low,
                    ghost="$ghost",
                    settle="$loser_rule",
                    grown_ranking=grown,
                ),  # GH-03..08; SL-01/02; D-AO-03
                step("settle", rule="$loser_rule", all_out="$all_out"),  # G2-13, SL-01..04
            ),
        ),
    )


GUTS2 = Variant(
    name="guts2",
    title="Two-card Guts",
    rules="G2, CAP, RES, SIM, AO, NSP, EXC",
    stages=_guts_program(2, "guts2", "$ace_low", grown="$ranking"),
    options=(
        *_guts_options(PACK_SIZE // 2),
        GHOST,
        *_optional_rules(),
        EXTRA_CARD_RANKING,
        EXTRA_CARD_ACE_LOW,
        exchange_option(EXCHANGE_RULES_2C),
    ),
)

GUTS3 = Variant(
    name="guts3",
    title="Three-card Guts",
    rules="3C, G2, CAP, RES, SIM, AO, NSP, EXC",
    stages=_guts_program(3, "$ranking", "$ace_low"),
    options=(
        *_guts_options(PACK_SIZE // 3),
        RANKING_3C,
        ACE_LOW,
        GHOST,
        *_optional_rules(),
        exchange_option(EXCHANGE_RULES_3C),
    ),
)

TWO_PLUS_ONE = Variant(
    name="two_plus_one",
    title="Two plus One",
    rules="TPO, D-TPO-01, G2, 3C, CAP, RES, SIM",
    stages=(
        Stage(
            "two cards",
            (
                step("ante", who="$ante_rule"),
                step("deal", count=2, face="down"),  # TPO-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),
                step("lone_in", rule="takes_pot"),  # D-TPO-01, G2-11
            ),
        ),
        Stage(
            "plus one",
            (
                step("ante", when="extra_ante_redeclare", who="in_players", reason="extra_ante"),  # TPO-04
                step("deal", count=1, face="down", to="in_players"),  # TPO-02, D-TPO-01
                step("declare", when="extra_ante_redeclare", mode="$declare_mode", who="in_players"),
                step(
                    "showdown", ranking="$ranking", best=3, all_out="$all_out", ace_low="$ace_low"
                ),  # TPO-03
                step("settle", rule="match_pot_each", all_out="$all_out"),
            ),
        ),
    ),
    options=(
        *_guts_options(PACK_SIZE // 3, all_out=("carry", "extra_ante")),
        RANKING_3C,
        ACE_LOW,
        Option(
            "extra_ante_redeclare",
            "bool",
            False,
            'the "in" players ante again for the '
            "third card, then declare again; going out then forfeits only the extra ante",
            "TPO-04, D-TPO-01",
        ),
    ),
)


def _four_two_x_options(max_seats: int) -> tuple[Option, ...]:
    return (
        *_table_options(max_seats),
        MAX_LOSS,
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02",
            choices=("split", "no_split"),
        ),
        Option(
            "lone_in",
            "choice",
            "takes_pot",
            'a lone "in" player: takes the pot and the '
            "game ends (LONE_IN_WINS), or must beat the deck's top four cards first "
            "(LONE_IN_VS_DECK4)",
            "422-08, 42X-03, Q-42X-01, D-42X-01",
            choices=("takes_pot", "vs_deck"),
        ),
    )


def _four_two_x(last: Step, board: bool) -> tuple[Stage, ...]:
    return (
        Stage(
            "four cards",
            (
                step("ante", who="went_out_last_deal"),  # 42X-01, D-42X-02
                step("deal", count=4, face="down"),  # 422-02
                step("declare", mode="simultaneous"),  # 422-04, SIM-05
                step("lone_in", rule="$lone_in", count=4, ranking="four_card", wild=(2,)),  # 422-08, 42X-03
                last,  # 422-05 / 423-02
                step(
                    "showdown", ranking="poker", wild=(2,), board=board, all_out="twos_match"
                ),  # 422-03/05, 423-03
                step("settle", rule="match_pot_each", all_out="twos_match"),  # 422-06/07, 42X-02
            ),
        ),
    )


FOUR_TWO_TWO = Variant(
    name="four_two_two",
    title="Four-Two-Two",
    rules="422, 42X, D-42X-01..04, SIM-05",
    stages=_four_two_x(step("deal", count=2, face="up", to="in_players"), board=False),
    options=_four_two_x_options((PACK_SIZE - 4) // 6),
    game_ends="lone_in_wins",
)

FOUR_TWO_THREE = Variant(
    name="four_two_three",
    title="Four-Two-Three",
    rules="423, 422, 42X, D-42X-01..04, SIM-05",
    stages=_four_two_x(step("deal", count=3, face="up", to="board"), board=True),
    options=_four_two_x_options((PACK_SIZE - 3 - 4) // 4),
    game_ends="lone_in_wins",
)


def _stage_357(name: str, cards: int, showdown: Step) -> Stage:
    first = (step("ante", who="every_deal"),) if cards == 3 else ()  # 357-05, 357-24
    return Stage(
        name,
        (
            *first,
            step("deal", count=cards, face="down"),  # 357-05, 357-14, 357-19
            step("declare", mode="$declare_mode"),  # TSG-02, 357-06
            step("lone_in", rule="earns_leg"),  # 357-03, 357-08
            showdown,
            step("settle", rule="losers_pay_winners"),  # 357-11..13, D-357-01/02
            step("award_pot", legs=3),  # 357-04, 357-25
        ),
    )


THREE_FIVE_SEVEN = Variant(
    name="three_five_seven",
    title="Three-Five-Seven",
    rules="TSG, 357, D-357-01..03",
    stages=(
        _stage_357("three cards", 3, step("showdown", ranking="stage1_357", wild=(3,), private=True)),
        _stage_357(
            "five cards", 2, step("showdown", ranking="poker", wild=(5,), private=True, ace_low="$ace_low")
        ),
        _stage_357("seven cards", 2, step("showdown", ranking="poker", wild=(7,), ace_low="$ace_low")),
    ),
    options=(*_table_options(PACK_SIZE // 7), DECLARE_MODE, MAX_LOSS, ACE_LOW),
    game_ends="legs_reached",
)
