"""One test per rule of the Sparks seed (seed 002), of the research note's values and of our documented
defaults (RULES.md), each on a real or hand-made position (scenario.py) where the rule decides the outcome."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import robotcore
from robotcore import State
from robotcore.core import batch
from robotcore.games.sparks import SparksContent
from robotcore.games.sparks.data import DEFAULT_BONUS_TILES, TILES, Assistant, RobotCard, Symbol

from ...conftest import random_play
from .scenario import (
    act,
    at_action,
    build,
    clear_dice,
    complete,
    drive,
    fields,
    game,
    give,
    hold_recycled,
    legal,
    on_space,
    pend,
    player,
    set_hand,
    set_line,
    set_tiles,
)

# -- components and set-up --------------------------------------------------------------------------------------


def test_default_content_counts() -> None:
    c = SparksContent.default()
    assert len(c.robots) == 60 and Counter(r.colour for r in c.robots) == {x: 15 for x in
                                                                            ("red", "blue", "green", "yellow")}
    assert len(c.assistants) == 30 and len(c.bonus_tiles) == 12
    assert c.thresholds == (5, 7, 9, 11, 13) and c.level_rewards == ("spark", "tile", "spark", "tile", "spark")
    assert c.dice_per_colour == 11 and c.junkyard == 7 and c.upgrade_cap == 3 and c.storage == 1
    assert all(2 <= len(r.spaces) <= 3 for r in c.robots)
    assert SparksContent.from_json(c.to_json()) == c


def test_content_is_validated_and_replaceable() -> None:
    with pytest.raises(robotcore.InvalidParameterError):
        SparksContent(thresholds=(5, 7), level_rewards=("spark",))
    with pytest.raises(robotcore.InvalidParameterError):
        RobotCard("X1", "red", ((None, 7),), 1)
    with pytest.raises(robotcore.InvalidParameterError):
        Assistant("Zed", "no_such_kind", 0, 0)
    cheap = SparksContent(thresholds=(2, 3, 4, 5, 6))
    s = robotcore.make("sparks", players=2, seed=1, content=cheap)
    assert s.game.content.thresholds == (2, 3, 4, 5, 6)


def test_setup_six_of_the_eight_stacks_at_random() -> None:
    seen = set()
    for seed in range(20):
        v = game(players=4).new_initial_state(seed).view(None)
        assert len(v["stacks"]) == 6 and set(v["stacks"]) <= set(TILES)
        seen.add(tuple(v["stacks"]))
    assert len(seen) >= 6


def test_setup_bonus_tiles_face_up_one_per_bonus_space() -> None:
    boards = set()
    for seed in range(10):
        v = game(players=3).new_initial_state(seed).view(None)
        tiles = [t for c in v["bonus"].values() for t in c]
        assert len(tiles) == 12 and Counter(tiles) == Counter(b.text() for b in DEFAULT_BONUS_TILES)
        boards.add(tuple(tiles))
    assert len(boards) > 1


def test_setup_per_player() -> None:
    """4 production tiles, 1 spark, level 0, 3 robots kept of 4 drawn (the 4th under the deck), 6 assistants."""
    g = game(players=4)
    s = drive(g.new_initial_state(5), "take")
    v = s.view(None)
    assert v["robot_deck"]["shuffled"] == 60 - 16 and len(v["robot_deck"]["bottom"]) == 4
    assert v["robot_deck"]["bottom"] == [None] * 4           # returned face down
    for p in v["players"]:
        assert p["production_used"] == [] and p["sparks"] == 1 and p["level"] == 0 and p["cogs"] == 0
        assert all(slot["robot"] is not None for slot in p["line"]) and p["hand_size"] == 6
    for seat in range(4):
        mine = [n for n in s.view(seat)["robot_deck"]["bottom"] if n is not None]
        assert len(mine) == 1 and all(mine[0] != slot["robot"] for slot in v["players"][seat]["line"])


def test_setup_keeping_three_of_four_is_a_decision() -> None:
    g = game(players=2)
    s = g.new_initial_state(1)
    seat = s.actors[0]
    moves = legal(g, s, seat)
    assert len(moves) == 12 and all(m.startswith("assign ") for m in moves)        # 4 cards x 3 slots
    drawn = s.view(seat)["drawn"]
    assert len(drawn) == 4 and s.view(1 - seat)["drawn"] == [] and s.view(None)["players"][seat]["drawn"] == 4


def test_first_player_is_random_and_active_first() -> None:
    firsts = set()
    for seed in range(12):
        s = drive(game(players=4).new_initial_state(seed), "take")
        v = s.view(None)
        firsts.add(v["first_player"])
        assert v["active"] == v["first_player"] == s.actors[0]
    assert len(firsts) > 1


# -- a turn: the junkyard and taking dice -----------------------------------------------------------------------


def test_junkyard_refilled_with_seven_dice_from_the_bag() -> None:
    s = drive(game(players=4).new_initial_state(2), "take")
    v = s.view(None)
    assert len(v["junkyard"]) == 7 and sum(v["bag"].values()) == 44 - 7


def test_leftover_junkyard_dice_are_discarded_and_the_bag_refilled_from_the_discard() -> None:
    g, s = at_action(players=2, seed=3)
    f = fields(g, s)
    for p in range(2):
        clear_dice(f, p)
    # three dice left in the junkyard, all other dice in the discard pile but two
    f["junk"] = [1, 7, 13] + [0] * 5
    f["njunk"] = 3
    for c in range(4):
        f["bag"][c] = 11 - (1 if c < 3 else 0)
    f["disc"] = [f["bag"][0] - 1, f["bag"][1], f["bag"][2], f["bag"][3] - 1]
    f["bag"] = [1, 0, 0, 1]
    s = build(g, f)
    for seat in range(2):
        act(g, s, seat, "done")
    s = drive(s, "take")
    v = s.view(None)
    assert len(v["junkyard"]) == 7
    # the bag ran out: the discard pile (with the 3 leftover dice) went back into it
    assert sum(v["discard"].values()) == 0 and sum(v["bag"].values()) == 44 - 7


def test_active_takes_a_run_from_an_end_and_t3_from_anywhere() -> None:
    g = game(players=4)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    assert set(legal(g, s, seat)) == {"take t2 0", "take t2 5", "take t3 0", "take t3 1", "take t3 2", "take t3 3",
                                      "take t3 4", "take t4 0", "take t4 3", "take t5 0", "take t5 3"}
    junk = s.view(None)["junkyard"]
    act(g, s, seat, "take t3 2")
    assert Counter(player(s, seat)["dice"]) == Counter(junk[2:5])
    assert s.view(None)["junkyard"][:2] == junk[:2]


def test_t2_draws_two_more_dice_from_the_bag() -> None:
    g = game(players=3)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    act(g, s, seat, "take t2 0")
    assert len(player(s, seat)["dice"]) == 4 and sum(s.view(None)["bag"].values()) == 44 - 7 - 2


def test_t4_gives_one_reroll_this_turn() -> None:
    g = game(players=3)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    act(g, s, seat, "take t4 0")
    s = drive(s, "action") if s.view(None)["phase"] != "action" else s
    assert "reroll" in legal(g, s, seat)
    other = (seat + 1) % 3
    assert "reroll" not in legal(g, s, other)
    act(g, s, seat, "reroll")
    dice = player(s, seat)["dice"]
    act(g, s, seat, f"mark {dice[0]}", "roll")
    assert len(player(s, seat)["dice"]) == len(dice) and "reroll" not in legal(g, s, seat)


def test_t5_is_five_dice_and_four_plus_a_cog_with_four_players() -> None:
    for players, dice, cogs in ((3, 5, 0), (4, 4, 1), (2, 5, 0)):
        g = game(players=players)
        s = drive(g.new_initial_state(4), "take")
        seat = s.actors[0]
        act(g, s, seat, "take t5 0")
        assert len(player(s, seat)["dice"]) == dice and player(s, seat)["cogs"] == cogs


def test_others_take_one_die_from_an_end_clockwise() -> None:
    g = game(players=4)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    act(g, s, seat, "take t2 0")
    nxt = s.actors[0]
    assert nxt == (seat + 1) % 4
    assert legal(g, s, nxt) == ["pick 0", "pick 4"]
    junk = s.view(None)["junkyard"]
    act(g, s, nxt, "pick 4")
    assert player(s, nxt)["dice"] == [junk[4]] and s.actors == [(seat + 2) % 4]


def test_two_players_the_other_takes_two_dice_from_the_same_end() -> None:
    g = game(players=2)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    act(g, s, seat, "take t2 0")
    other = 1 - seat
    junk = s.view(None)["junkyard"]
    assert legal(g, s, other) == ["pick 0", "pick 4"]
    act(g, s, other, "pick 4")                     # the second die must come from the same end: taken at once
    assert Counter(player(s, other)["dice"]) == Counter(junk[3:5])
    assert s.view(None)["phase"] == "action"


# -- the action phase ----------------------------------------------------------------------------------------------


def test_action_phase_is_simultaneous_until_each_seat_is_done() -> None:
    g, s = at_action(players=3, seed=1)
    assert s.actors == [0, 1, 2]
    act(g, s, 1, "done")
    assert s.actors == [0, 2] and legal(g, s, 1) == []


def _seat0(players: int = 4, seed: int = 0) -> tuple[robotcore.Game, dict]:
    g, s = at_action(players=players, seed=seed)
    f = fields(g, s)
    clear_dice(f, 0)
    return g, f


def test_upgrade_needs_a_matching_colour_space() -> None:
    g, f = _seat0()
    give(f, 0, "B3")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "place B3 up-blue" in moves and "place B3 up-red" not in moves


def test_upgrade_section_holds_at_most_three_dice() -> None:
    g, f = _seat0()
    on_space(f, 0, "up-red", "R1")
    on_space(f, 0, "up-blue", "B1")
    give(f, 0, "Y1", "G1")
    s = build(g, f)
    assert "place Y1 up-yellow" in legal(g, s, 0)
    act(g, s, 0, "place G1 up-green")
    assert "place Y1 up-yellow" not in legal(g, s, 0)


def test_reaching_the_threshold_upgrades_with_a_spark_and_discards_the_dice() -> None:
    g, f = _seat0()
    on_space(f, 0, "up-red", "R2")
    give(f, 0, "G3")
    s = build(g, f)
    disc = sum(s.view(None)["discard"].values())
    act(g, s, 0, "place G3 up-green")                  # 2 + 3 = 5: level 1, whose reward is a spark
    p = player(s, 0)
    assert p["level"] == 1 and p["sparks"] == 2 and all(v is None for v in p["upgrade"].values())
    assert sum(s.view(None)["discard"].values()) == disc + 2


def test_below_the_threshold_nothing_happens() -> None:
    g, f = _seat0()
    on_space(f, 0, "up-red", "R1")
    give(f, 0, "G3")
    s = build(g, f)
    act(g, s, 0, "place G3 up-green")
    assert player(s, 0)["level"] == 0 and player(s, 0)["upgrade"]["green"] == "G3"


def test_level_two_rewards_an_upgrade_tile_the_player_chooses() -> None:
    g, f = _seat0()
    f["players"][0]["level"] = 1
    on_space(f, 0, "up-red", "R4")
    give(f, 0, "B3")
    s = build(g, f)
    act(g, s, 0, "place B3 up-blue")
    moves = legal(g, s, 0)
    assert player(s, 0)["level"] == 2 and moves and all(m.startswith("tile ") for m in moves)
    act(g, s, 0, moves[0])
    assert len(player(s, 0)["tiles"]) == 1


def test_build_a_robot_colour_and_value_and_completion() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R1", "R3", None])
    give(f, 0, "R2", "R5", "B2", "B6")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "place R2 s1.1" in moves and "place B2 s1.1" not in moves        # colour
    assert "place B6 s2.2" in moves and "place R2 s2.2" not in moves        # value 6, any colour
    act(g, s, 0, "place R2 s1.1")
    assert player(s, 0)["line"][0]["dice"][:2] == ["R2", None] and "R2" not in player(s, 0)["dice"]
    disc = sum(s.view(None)["discard"].values())
    act(g, s, 0, "place R5 s1.2")
    p = player(s, 0)
    assert "R1" in p["tableau"] and p["line"][0]["robot"] is None
    assert p["tracks"]["red"] == 1 and p["cogs"] == 1                     # R1: 1 space, reward 1 cog
    assert sum(s.view(None)["discard"].values()) == disc + 2


def test_power_box_once_per_round_and_the_board_box() -> None:
    g, f = _seat0()
    complete(g, f, 0, "R2")                          # power box: 2 cogs
    f["players"][0]["sparks"] = 2
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    assert {"spark_box R2", "spark_box board"} <= set(legal(g, s, 0))
    act(g, s, 0, "spark_box R2")
    assert player(s, 0)["cogs"] == 2 and "spark_box R2" not in legal(g, s, 0)
    act(g, s, 0, "spark_box board")
    assert player(s, 0)["cogs"] == 3 and player(s, 0)["sparks"] == 0


def test_sparks_come_back_at_the_end_of_the_round() -> None:
    g, f = _seat0(players=2)
    f["players"][0]["sparks"] = 1
    s = build(g, f)
    act(g, s, 0, "spark_box board")
    assert player(s, 0)["sparks"] == 0
    turn = s.view(None)["turn"]
    s = drive(s, "take")
    if s.view(None)["turn"] % 2 == 1:              # still in the round: the spark stays on the box
        assert player(s, 0)["sparks"] == 0 and player(s, 0)["boxes_used"] == ["board"]
        s = drive(drive(s, "action"), "take")
    assert player(s, 0)["sparks"] == 1 and player(s, 0)["boxes_used"] == []
    assert s.view(None)["turn"] > turn


def test_sell_a_die_even_a_locked_one() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R8", None, None])
    on_space(f, 0, "s1.1", "R4")
    give(f, 0, "G2")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "sell G2", "sell_space s1.1")
    assert player(s, 0)["cogs"] == 2 and player(s, 0)["line"][0]["dice"][0] is None


def test_change_a_value_one_cog_per_step_within_one_to_six() -> None:
    g, f = _seat0()
    give(f, 0, "R6", "B1")
    f["players"][0]["cogs"] = 1
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "down R6" in moves and "up R6" not in moves and "up B1" in moves and "down B1" not in moves
    act(g, s, 0, "down R6")
    assert player(s, 0)["cogs"] == 0 and "R5" in player(s, 0)["dice"]
    assert not any(m.startswith(("up ", "down ")) for m in legal(g, s, 0))


def test_change_the_value_of_a_die_in_the_upgrade_section() -> None:
    """"Change a die value: At any time, you may pay cogs to alter the value of one of your dice" (seed l. 166-169:
    "your dice", where the actions' "available dice" are the ones next to the board, l. 103; a placed die is
    "locked in place", l. 109, which a value change does not move). In the upgrade section the value counts
    towards the level (l. 131-133): a red 4 left there from an earlier turn becomes a 5 for 1 cog, and level 1
    (5) is reached at once. The free adjustments (D6, the P3 box: "any of your dice", l. 499; Silas) reach it too."""
    g, f = _seat0()
    on_space(f, 0, "up-red", "R4")
    f["players"][0]["cogs"] = 1
    f["players"][0]["sparks"] = 0
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "up_space up-red" in moves and "down_space up-red" in moves and "up_space up-blue" not in moves
    act(g, s, 0, "up_space up-red")
    p = player(s, 0)
    assert p["level"] == 1 and p["sparks"] == 1 and p["cogs"] == 0 and p["upgrade"]["red"] is None
    g, f = _seat0()
    on_space(f, 0, "up-red", "R6")
    on_space(f, 0, "up-blue", "B1")
    f["players"][0]["cogs"] = 1
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "up_space up-red" not in moves and "down_space up-blue" not in moves         # within 1-6
    f = fields(g, s)
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    assert not any(m.startswith(("up_space", "down_space")) for m in legal(g, s, 0))    # it costs a cog
    g, f = _with([], played=["D6"], cogs=0)          # D6: a free +-1 on any die, the section's included
    on_space(f, 0, "up-red", "R4")
    s = build(g, f)
    assert "adjust" in legal(g, s, 0)
    act(g, s, 0, "adjust")
    assert "up_space up-red" in legal(g, s, 0)
    act(g, s, 0, "up_space up-red")
    assert player(s, 0)["level"] == 1 and player(s, 0)["pending"] == []
    g, f = _with([], played=["Silas"], cogs=0)       # Silas: a discarded 3 spread over the other dice
    on_space(f, 0, "up-red", "R3")
    give(f, 0, "B2")
    s = build(g, f)
    act(g, s, 0, "silas B2", "up_space up-red", "up_space up-red")
    assert player(s, 0)["level"] == 1


def test_ignore_a_colour_for_two_cogs() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R1", None, None])
    give(f, 0, "B3")
    f["players"][0]["cogs"] = 1
    s = build(g, f)
    assert "place B3 s1.1" not in legal(g, s, 0)
    f = fields(g, s)
    f["players"][0]["cogs"] = 2
    s = build(g, f)
    act(g, s, 0, "place B3 s1.1")
    assert player(s, 0)["cogs"] == 0


def test_recruit_costs_1_2_3_and_discount_lowers_it() -> None:
    g, f = _seat0()
    set_hand(g, f, 0, ["D1", "D2", "Gordon"])
    f["players"][0]["cogs"] = 6
    s = build(g, f)
    act(g, s, 0, "recruit Gordon")
    assert player(s, 0)["cogs"] == 5
    act(g, s, 0, "recruit D2")                      # 2 cogs, then D2 gives 2 sparks
    assert player(s, 0)["cogs"] == 3
    act(g, s, 0, "recruit D1")                      # 3 cogs, then D1 gives 3
    assert player(s, 0)["cogs"] == 3
    g, f = _seat0()
    set_hand(g, f, 0, ["Gordon", "Frank"])
    set_tiles(f, 0, "discount")
    f["players"][0]["cogs"] = 1
    s = build(g, f)
    act(g, s, 0, "recruit Gordon")                  # 1 - 1 = 0
    assert player(s, 0)["cogs"] == 1
    act(g, s, 0, "recruit Frank")                   # 2 - 1 = 1
    assert player(s, 0)["cogs"] == 0


def test_store_one_die_the_rest_sold_at_the_end_of_the_turn() -> None:
    g, f = _seat0(players=2)
    clear_dice(f, 1)
    give(f, 0, "R3", "B4", "G5")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "place R3 store")
    assert not any(m.endswith(" store") and m.startswith("place") for m in legal(g, s, 0))
    act(g, s, 0, "done")
    act(g, s, 1, "done")
    s = drive(s, "take")
    p = player(s, 0)
    assert p["cogs"] == 2 and p["dice"] == ["R3"] and p["storage"] is None


# -- upgrade tiles --------------------------------------------------------------------------------------------------


def test_tile_rearrange_moves_placed_dice() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R8", "R1", None])
    on_space(f, 0, "s1.1", "R4")
    s = build(g, f)
    assert not any(m.startswith("rearrange") for m in legal(g, s, 0))
    f = fields(g, s)
    set_tiles(f, 0, "rearrange")
    s = build(g, f)
    assert "rearrange s1.1 s2.1" in legal(g, s, 0) and "rearrange s1.1 store" in legal(g, s, 0)
    act(g, s, 0, "rearrange s1.1 s2.1")
    assert player(s, 0)["line"][1]["dice"][0] == "R4" and player(s, 0)["rearranged"] == 1


def test_rearrange_is_bounded_per_turn() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R8", "R1", None])
    on_space(f, 0, "s1.1", "R4")
    set_tiles(f, 0, "rearrange")
    s = build(g, f)
    for i in range(g.content.rearrange_limit):
        act(g, s, 0, "rearrange s1.1 s1.2" if i % 2 == 0 else "rearrange s1.2 s1.1")
    assert not any(m.startswith("rearrange") for m in legal(g, s, 0))


def test_tile_discount_and_sales_boost() -> None:
    g, f = _seat0()
    give(f, 0, "R3")
    set_tiles(f, 0, "sales_boost")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "sell R3")
    assert player(s, 0)["cogs"] == 2


def test_tile_ignore_colour_and_value_for_own_colour_dice() -> None:
    g, f = _seat0()                                    # seat 0 plays red
    set_line(g, f, 0, ["B1", "B3", None])
    give(f, 0, "R2", "G2")
    f["players"][0]["cogs"] = 0
    set_tiles(f, 0, "ignore_colour", "ignore_value")
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "place R2 s1.1" in moves and "place G2 s1.1" not in moves        # colour ignored for red only
    assert "place R2 s2.2" in moves and "place G2 s2.2" not in moves        # value 6 ignored for red only
    act(g, s, 0, "place R2 s2.2")
    assert player(s, 0)["line"][1]["dice"][1] == "R2" and player(s, 0)["cogs"] == 0


def test_slot_tiles_bonus_point_and_bonus_cog() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R1", "B1", None])
    give(f, 0, "R1", "R2", "B1", "B2")
    set_tiles(f, 0, "bonus_point", "bonus_cog", slots={"bonus_point": 0, "bonus_cog": 1})
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2")
    assert player(s, 0)["tracks"]["red"] == 2 and player(s, 0)["cogs"] == 1      # +1 space; R1's own cog
    act(g, s, 0, "place B1 s2.1", "place B2 s2.2")
    assert player(s, 0)["tracks"]["blue"] == 1 and player(s, 0)["cogs"] == 3      # B1's cog + the bonus cog


def test_slot_tile_recycle_moves_one_die_to_another_robot() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R1", "R8", None])
    give(f, 0, "R1", "R5")
    set_tiles(f, 0, "recycle", slots={"recycle": 0})
    f["players"][0]["cogs"] = 1
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R5 s1.2")
    assert set(legal(g, s, 0)) == {"recycle R1", "recycle R5", "skip"}
    act(g, s, 0, "recycle R5")
    moves = legal(g, s, 0)
    assert "place R5 s2.1" in moves and "up R5" in moves and "done" not in moves
    # "you may not instead place the die in your upgrade section or sell it for a cog" (seed l. 277-280)
    assert not any(m.startswith(("sell", "place R5 up-", "place R5 store")) for m in moves)
    act(g, s, 0, "up R5", "place R6 s2.2")
    assert player(s, 0)["line"][1]["dice"] == [None, "R6", None] and player(s, 0)["cogs"] == 1 + 1 - 1


def test_recycle_comes_after_the_robot_is_scored() -> None:
    """"After scoring the robot, she takes a blue die from the card" (seed, Eva's example): the completed robot's
    track advance comes first, so the 2 cogs of the bonus space it passes can pay to change the recycled die."""
    g, f = _seat0()
    set_line(g, f, 0, ["R5", "R10", None])          # R5: advance 2, no reward; R10 wants R6 dice
    give(f, 0, "R5", "R4")
    set_tiles(f, 0, "recycle", slots={"recycle": 0})
    f["players"][0]["cogs"] = 0
    f["players"][0]["track"][0] = 2                  # the advance passes red's first bonus space
    cogs2 = g.content.bonus_texts.index("cogs x2")
    flat = [t for row in f["bonus"] for t in row]
    r, k = divmod(flat.index(cogs2), len(f["bonus"][0]))
    f["bonus"][0][0], f["bonus"][r][k] = f["bonus"][r][k], f["bonus"][0][0]
    s = build(g, f)
    assert s.view(0)["bonus"]["red"][0] == "cogs x2"
    act(g, s, 0, "place R5 s1.1", "place R4 s1.2")  # completes R5 in the Recycle slot
    assert player(s, 0)["cogs"] == 2 and player(s, 0)["tracks"]["red"] == 4     # scored: the bonus space paid
    act(g, s, 0, "recycle R4", "up R4", "up R5", "place R6 s2.1")
    assert player(s, 0)["line"][1]["dice"][0] == "R6" and player(s, 0)["cogs"] == 0


def test_recycle_has_no_effect_when_nowhere_fits() -> None:
    g, f = _seat0()
    set_line(g, f, 0, ["R1", None, None])
    give(f, 0, "R1", "R5")
    set_tiles(f, 0, "recycle", slots={"recycle": 0})
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R5 s1.2")
    assert player(s, 0)["pending"] == [] and "done" in legal(g, s, 0)


# Recycle's "other effects" (seed l. 276: "You may pay cogs or use other effects to alter the die before placing
# it"; RULES.md, "Recycle: altering the held die"): seat 0 completes R5 (R5, any red) in its Recycle slot and holds
# the R5; R10 (R6, R6) and R8 (three red dice, any value) have vacant spaces (scenario.hold_recycled).

def _pending(s: State) -> list[str]:
    return [p["type"] for p in player(s, 0)["pending"]]


def test_recycle_d6_gives_the_held_die_a_free_step_once_per_turn() -> None:
    """D6 (once per turn, a free ±1 to one die): its step goes to the held die, before it is placed."""
    g, s = hold_recycled(played=("D6",))
    act(g, s, 0, "adjust")
    assert _pending(s) == ["adjust", "recycle_place"]
    assert {"up_held", "down_held", "skip"} <= set(legal(g, s, 0))
    act(g, s, 0, "up_held")
    p = player(s, 0)
    assert p["held"] == "R6" and p["used"]["adjust"] == 1 and _pending(s) == ["recycle_place"]
    assert "adjust" not in legal(g, s, 0)                    # once per turn
    act(g, s, 0, "place R6 s2.1")
    p = player(s, 0)
    assert p["line"][1]["dice"][0] == "R6" and p["cogs"] == 0 and p["held"] is None


def test_recycle_d7_rerolls_the_held_die_once_per_turn() -> None:
    """D7 (once per turn, reroll one die): the held die is rerolled in hand (its colour kept), then placed."""
    rolled = set()
    for seed in range(12):
        g, s = hold_recycled(played=("D7",), extra=("B2",))
        f = fields(g, s)
        f["rng"] = 1000 + seed                        # another draw each time
        s = build(g, f)
        act(g, s, 0, "reroll_one R5")
        p = player(s, 0)
        held = p["held"]
        assert held[0] == "R" and p["used"]["reroll_one"] == 1 and "B2" in p["dice"]
        assert not any(m.startswith("reroll_one") for m in legal(g, s, 0))       # once per turn
        rolled.add(held)
        act(g, s, 0, f"place {held} s3.1")
        assert player(s, 0)["line"][2]["dice"][0] == held
        assert not any(m.startswith("reroll_one") for m in legal(g, s, 0))       # B2 neither
    assert len(rolled) > 1                                   # a reroll, not a fixed change


def test_recycle_silas_spreads_pips_onto_the_held_die() -> None:
    """Silas (discard a die, use its pips on other dice): an available die is discarded, its pips go to the held
    die; Silas is permanent, so another available die may be discarded again; never the held die itself."""
    g, s = hold_recycled(played=("Silas",), extra=("B1", "G2"))
    moves = legal(g, s, 0)
    assert "silas B1" in moves and "silas G2" in moves and "silas R5" not in moves
    disc = s.view(None)["discard"]["blue"]
    act(g, s, 0, "silas B1")
    assert _pending(s) == ["silas", "recycle_place"] and player(s, 0)["silas"] == 1
    act(g, s, 0, "up_held")                                  # the one pip: R5 -> R6; Silas' choice is over
    p = player(s, 0)
    assert p["held"] == "R6" and p["silas"] == 0 and _pending(s) == ["recycle_place"]
    assert s.view(None)["discard"]["blue"] == disc + 1 and p["dice"] == ["G2"]
    assert "silas G2" in legal(g, s, 0)                      # permanent: not once per turn
    act(g, s, 0, "place R6 s2.2")
    assert player(s, 0)["line"][1]["dice"][1] == "R6" and player(s, 0)["cogs"] == 0


def test_recycle_the_t4_reroll_may_include_the_held_die_once_per_turn() -> None:
    """The t4 tile's reroll ("any number of your available dice", once this turn): the held die may be marked; it
    is rolled in hand and stays held, then placed with its new value."""
    g, s = hold_recycled(reroll_tile=1, extra=("B3",))
    act(g, s, 0, "reroll")
    assert _pending(s) == ["reroll", "recycle_place"]
    assert set(legal(g, s, 0)) == {"mark B3", "mark_held", "roll"}
    act(g, s, 0, "mark_held")
    assert player(s, 0)["held_marked"] and "mark_held" not in legal(g, s, 0)
    act(g, s, 0, "roll")
    p = player(s, 0)
    assert p["held"][0] == "R" and not p["held_marked"] and not p["reroll_tile"] and p["dice"] == ["B3"]
    assert "reroll" not in legal(g, s, 0)                    # the tile's one reroll is used
    held = p["held"]
    act(g, s, 0, f"place {held} s3.1")
    assert player(s, 0)["line"][2]["dice"][0] == held


def test_recycle_a_power_box_that_alters_dice_fires_on_the_held_die() -> None:
    """A box "±1 to any of your dice" (B9) fired with a spark while the die is held: its free step goes to the
    held die; the spark is spent and the box used for the round. The reroll box (G6) likewise marks it."""
    g, s = hold_recycled(sparks=2, tableau=("B9", "G6"))
    moves = legal(g, s, 0)
    assert "spark_box B9" in moves and "spark_box G6" in moves
    act(g, s, 0, "spark_box B9")
    assert _pending(s) == ["adjust", "recycle_place"]
    act(g, s, 0, "up_held")
    p = player(s, 0)
    assert p["held"] == "R6" and p["sparks"] == 1 and "B9" in p["boxes_used"]
    assert "spark_box B9" not in legal(g, s, 0)              # once per round
    act(g, s, 0, "spark_box G6", "mark_held", "roll")
    p = player(s, 0)
    assert p["sparks"] == 0 and "G6" in p["boxes_used"] and p["held"][0] == "R"
    held = p["held"]
    act(g, s, 0, f"place {held} s3.2")
    assert player(s, 0)["line"][2]["dice"][1] == held


def test_recycle_emmas_cog_fires_a_box_on_the_held_die_once_per_round() -> None:
    g, s = hold_recycled(played=("Emma",), cogs=1, tableau=("B9",))
    assert "cog_box B9" in legal(g, s, 0) and "spark_box B9" not in legal(g, s, 0)      # no spark
    act(g, s, 0, "cog_box B9", "down_held")
    p = player(s, 0)
    assert p["held"] == "R4" and p["cogs"] == 0 and p["used"]["emma"] == 1 and p["boxes_cog"] == ["B9"]
    act(g, s, 0, "place R4 s3.1")
    assert player(s, 0)["line"][2]["dice"][0] == "R4"


def test_recycle_octavia_turns_the_held_die_once_per_turn() -> None:
    g, s = hold_recycled(played=("Octavia",), extra=("Y3",))
    act(g, s, 0, "flip R5")
    p = player(s, 0)
    assert p["held"] == "R2" and p["used"]["octavia"] == 1 and p["dice"] == ["Y3"]
    assert not any(m.startswith("flip") for m in legal(g, s, 0))
    act(g, s, 0, "place R2 s3.1")
    assert player(s, 0)["line"][2]["dice"][0] == "R2"
    assert not any(m.startswith("flip") for m in legal(g, s, 0))              # Y3 neither: once per turn


def test_recycle_a_box_max_fires_on_completion_may_alter_the_held_die() -> None:
    """Max fires the completed robot's box before the die is picked (Max is asked when the robot is scored); the
    free step of that box (R9: ±1) is answered after the pick, in front of the placement."""
    g, f = _seat0()
    set_line(g, f, 0, ["R9", "R10", None])              # R9: red, red, blue; reward 1 cog; box ±1
    give(f, 0, "R3", "R5", "B2")
    set_tiles(f, 0, "recycle", slots={"recycle": 0})
    set_hand(g, f, 0, [], played=["Max"])
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "place R3 s1.1", "place R5 s1.2", "place B2 s1.3")
    assert _pending(s) == ["max", "recycle_pick"]
    act(g, s, 0, "free_box R9")                          # the reward's cog pays Max
    assert _pending(s) == ["recycle_pick", "adjust"]
    act(g, s, 0, "recycle R5")
    assert _pending(s) == ["adjust", "recycle_place"]
    act(g, s, 0, "up_held", "place R6 s2.1")
    assert player(s, 0)["line"][1]["dice"][0] == "R6" and player(s, 0)["pending"] == []


# what each case offers once the die is placed, and not while it is held
_NOT_WHILE_HELD = {
    "frank": ({"played": ("Frank",), "extra": ("B1",)}, ("frank B1",)),
    "other power boxes": ({"sparks": 1, "cogs": 1, "played": ("Emma",), "tableau": ("R2", "R12")},
                          ("spark_box R2", "spark_box R12", "spark_box board", "cog_box R2", "cog_box board")),
    "assistants that add dice": ({"hand": ("D4", "D12", "Warren"), "cogs": 9},
                                 ("recruit D4", "recruit D12", "recruit Warren")),
    "selling": ({"extra": ("B1",), "section": True}, ("sell B1", "sell_space up-blue")),
    "rearrange": ({"tiles": ("rearrange",), "section": True}, ("rearrange up-blue store",)),
    "section changes": ({"cogs": 3, "section": True}, ("up_space up-blue", "down_space up-blue")),
}


@pytest.mark.parametrize("case", list(_NOT_WHILE_HELD))
def test_recycle_effects_that_do_not_alter_the_held_die_wait_for_its_placement(case: str) -> None:
    """RULES.md, "Recycle: altering the held die": Frank discards a die and alters none; boxes that pay cogs,
    sparks or dice and assistants that add dice do not alter the held die; selling, Rearrange and the upgrade
    section's changes concern other dice. None is offered while the die is held; each is once it is placed. The
    held die itself can never be sold, stored or put in the upgrade section (seed l. 279-280)."""
    kw, later = _NOT_WHILE_HELD[case]
    g, s = hold_recycled(**kw)
    moves = set(legal(g, s, 0))
    assert moves.isdisjoint(later), moves & set(later)
    assert not any(m.startswith(("sell R5", "place R5 store", "place R5 up-", "frank R5")) for m in moves)
    act(g, s, 0, "place R5 s3.1")
    assert set(later) <= set(legal(g, s, 0)), set(later) - set(legal(g, s, 0))


def test_never_two_identical_tiles_and_one_tile_per_slot() -> None:
    g, f = _seat0()
    f["stacks"] = sum(1 << TILES.index(t) for t in ("rearrange", "discount", "sales_boost", "bonus_point",
                                                     "bonus_cog", "recycle"))
    set_tiles(f, 0, "discount", "bonus_cog", slots={"bonus_cog": 1})
    pend(f, 0, "tile")
    s = build(g, f)
    moves = set(legal(g, s, 0))
    assert "tile discount -" not in moves and not any(m.startswith("tile bonus_cog") for m in moves)
    assert "tile rearrange -" in moves and "tile recycle s1" in moves and "tile recycle s2" not in moves


# -- assistants ----------------------------------------------------------------------------------------------------


def _with(names: list[str], played: list[str] = (), players: int = 4, cogs: int = 10) -> tuple:  # type: ignore[assignment]
    g, f = _seat0(players=players)
    set_hand(g, f, 0, names, played)
    f["players"][0]["cogs"] = cogs
    return g, f


def test_conrad_copies_effect_and_points_and_applies_a_one_time_effect_at_once() -> None:
    g, f = _with(["Conrad"], played=["D1", "Margot"])
    s = build(g, f)
    before = s.scores()[0]
    act(g, s, 0, "recruit Conrad")                  # cost 3
    assert set(legal(g, s, 0)) == {"copy D1", "copy Margot"}
    act(g, s, 0, "copy D1")                          # D1: 3 cogs at once, 2 points
    p = player(s, 0)
    assert p["conrad"] == "D1" and p["cogs"] == 10 - 3 + 3
    assert s.scores()[0] == before + 2 + (10 // 3 - 10 // 3)


def test_conrad_needs_another_played_assistant() -> None:
    g, f = _with(["Conrad"])
    s = build(g, f)
    assert "recruit Conrad" not in legal(g, s, 0)


def test_emma_puts_a_cog_on_a_box_once_per_round_never_with_a_spark() -> None:
    g, f = _with([], played=["Emma"], cogs=3)
    complete(g, f, 0, "R2")
    f["players"][0]["sparks"] = 1
    s = build(g, f)
    act(g, s, 0, "cog_box R2")
    p = player(s, 0)
    assert p["cogs"] == 3 - 1 + 2 and "spark_box R2" not in legal(g, s, 0)
    assert not any(m.startswith("cog_box") for m in legal(g, s, 0))          # once per round
    assert "spark_box board" in legal(g, s, 0)


def test_frank_discards_a_one_or_two_to_advance_its_colour_once_per_turn() -> None:
    g, f = _with([], played=["Frank"])
    give(f, 0, "G2", "G1", "G5")
    s = build(g, f)
    moves = legal(g, s, 0)
    assert "frank G2" in moves and "frank G5" not in moves
    act(g, s, 0, "frank G2")
    assert player(s, 0)["tracks"]["green"] == 1 and not any(m.startswith("frank") for m in legal(g, s, 0))


def test_gordon_ignores_a_colour_for_one_cog() -> None:
    g, f = _with([], played=["Gordon"], cogs=1)
    set_line(g, f, 0, ["R1", None, None])
    give(f, 0, "B3")
    s = build(g, f)
    act(g, s, 0, "place B3 s1.1")
    assert player(s, 0)["cogs"] == 0


def test_max_fires_a_completed_robots_box_for_one_cog() -> None:
    g, f = _with([], played=["Max"], cogs=1)
    set_line(g, f, 0, ["R2", None, None])
    give(f, 0, "R1", "R2")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2")
    assert set(legal(g, s, 0)) == {"free_box R2", "skip"}
    act(g, s, 0, "free_box R2")
    assert player(s, 0)["cogs"] == 1 - 1 + 2 and "spark_box R2" in legal(g, s, 0)


def test_margot_and_theodora_add_two_to_every_upgrade() -> None:
    g, f = _with([], played=["Margot", "Theodora"])
    on_space(f, 0, "up-red", "R1")
    s = build(g, f)
    assert player(s, 0)["level"] == 0
    f = fields(g, s)
    give(f, 0, "B1")
    s = build(g, f)
    act(g, s, 0, "place B1 up-blue")                # 1 + 1 + 2 + 2 >= 5
    assert player(s, 0)["level"] == 1


def test_bonuses_alone_wait_for_a_die_in_the_upgrade_section() -> None:
    """RULES.md [A]: the upgrade is the "Upgrade factory" action (seed l. 128-133), so the check needs a die in
    the section: Margot (+2) and D11 (+3) reach level 1's 5 with an empty section, and the level rises with the
    next die put there."""
    g, f = _with(["D11"], played=["Margot"])
    s = build(g, f)
    act(g, s, 0, "recruit D11")
    p = player(s, 0)
    assert p["level"] == 0 and p["upgrade_bonus"] == 3
    f = fields(g, s)
    give(f, 0, "R1")
    s = build(g, f)
    act(g, s, 0, "place R1 up-red")
    p = player(s, 0)
    assert p["level"] == 1 and p["upgrade_bonus"] == 0 and all(v is None for v in p["upgrade"].values())


def test_the_t4_reroll_marks_at_most_twelve_dice() -> None:
    """RULES.md [A]: "any number of your available dice", bounded by the state's 12 marked dice."""
    g, f = _seat0(players=3)
    give(f, 0, "R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3", "Y1", "Y2", "Y3", "Y4")
    f["players"][0]["reroll_tile"] = 1
    s = build(g, f)
    act(g, s, 0, "reroll")
    marked = 0
    while any(m.startswith("mark") for m in legal(g, s, 0)):
        act(g, s, 0, next(m for m in legal(g, s, 0) if m.startswith("mark")))
        marked += 1
    assert marked == 12 and len(player(s, 0)["dice"]) == 1 and "roll" in legal(g, s, 0)


def test_margot_recruited_when_the_section_already_meets_the_requirement_upgrades_at_once() -> None:
    """"If the sum of all dice in your upgrade section matches or exceeds the value directly above your current
    factory level, you upgrade" (seed l. 131-133), Margot "counts as +2 towards the requirement" (l. 368): a full
    section (3 dice, the cap) worth 4 reaches 5 the moment Margot is played, and no die can be added to it any
    more; likewise Conrad copying Margot (l. 349-350: "copies the effect")."""
    g, f = _with(["Margot"])
    on_space(f, 0, "up-red", "R1")
    on_space(f, 0, "up-blue", "B1")
    on_space(f, 0, "up-green", "G2")
    f["players"][0]["sparks"] = 0
    s = build(g, f)
    assert not any(m.startswith("place") and "up-" in m for m in legal(g, s, 0))     # the section is full
    act(g, s, 0, "recruit Margot")
    p = player(s, 0)
    assert p["level"] == 1 and p["sparks"] == 1 and all(v is None for v in p["upgrade"].values())
    g, f = _with(["Conrad"], played=["Margot"])
    on_space(f, 0, "up-red", "R1")
    on_space(f, 0, "up-blue", "B1")                  # 1 + 1 + 2 = 4 < 5
    s = build(g, f)
    assert player(s, 0)["level"] == 0
    act(g, s, 0, "recruit Conrad")                   # one option: copies Margot, 1 + 1 + 2 + 2 >= 5
    assert player(s, 0)["conrad"] == "Margot" and player(s, 0)["level"] == 1


def test_octavia_turns_a_die_to_its_opposite_side_once_per_turn() -> None:
    g, f = _with([], played=["Octavia"])
    give(f, 0, "Y2", "Y3")
    s = build(g, f)
    act(g, s, 0, "flip Y2")
    assert "Y5" in player(s, 0)["dice"] and not any(m.startswith("flip") for m in legal(g, s, 0))


def test_olympia_fires_two_boxes_without_sparks() -> None:
    g, f = _with(["Olympia"], cogs=1)
    complete(g, f, 0, "R2")
    f["players"][0]["sparks"] = 0
    s = build(g, f)
    act(g, s, 0, "recruit Olympia")
    assert {"free_box R2", "free_box board"} <= set(legal(g, s, 0))
    act(g, s, 0, "free_box R2")
    assert "free_box R2" not in legal(g, s, 0)       # two different boxes
    act(g, s, 0, "free_box board")
    assert player(s, 0)["cogs"] == 0 + 2 + 1 and player(s, 0)["pending"] == []


def test_penelope_and_walter_may_send_red_or_blue_advances_elsewhere() -> None:
    g, f = _with([], played=["Penelope"])
    set_line(g, f, 0, ["R1", "B1", None])
    give(f, 0, "R1", "R2", "B1", "B2")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2")
    assert set(legal(g, s, 0)) == {"track red", "track blue", "track green", "track yellow"}
    act(g, s, 0, "track green")
    assert player(s, 0)["tracks"]["green"] == 1 and player(s, 0)["tracks"]["red"] == 0
    act(g, s, 0, "place B1 s2.1", "place B2 s2.2")   # blue: no choice without Walter
    assert player(s, 0)["tracks"]["blue"] == 1 and player(s, 0)["pending"] == []


def test_quincy_takes_from_anywhere_on_other_players_turns() -> None:
    g = game(players=4)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    nxt = (seat + 1) % 4
    f = fields(g, s)
    set_hand(g, f, nxt, [], played=["Quincy"])
    s = build(g, f)
    act(g, s, seat, "take t2 0")
    assert legal(g, s, nxt) == [f"pick {i}" for i in range(5)]


def test_quincy_in_two_players_two_dice_need_not_be_adjacent() -> None:
    g = game(players=2)
    s = drive(g.new_initial_state(4), "take")
    seat = s.actors[0]
    f = fields(g, s)
    set_hand(g, f, 1 - seat, [], played=["Quincy"])
    s = build(g, f)
    act(g, s, seat, "take t2 0")
    junk = s.view(None)["junkyard"]
    act(g, s, 1 - seat, "pick 1")
    assert len(legal(g, s, 1 - seat)) == 4
    act(g, s, 1 - seat, "pick 2")                    # junk[3] of the original row
    assert Counter(player(s, 1 - seat)["dice"]) == Counter([junk[1], junk[3]])


def test_silas_discards_a_die_and_spreads_its_pips() -> None:
    g, f = _with([], played=["Silas"], cogs=0)
    give(f, 0, "R3", "B2", "G5")
    s = build(g, f)
    act(g, s, 0, "silas R3", "up B2", "up B3", "down G5")
    p = player(s, 0)
    assert Counter(p["dice"]) == Counter(["B4", "G4"]) and p["pending"] == [] and p["cogs"] == 0


def test_warren_takes_every_leftover_junkyard_die() -> None:
    g, f = _with(["Warren"], players=3)
    for b in f["junk"][:f["njunk"]]:
        f["bag"][(b - 1) // 6] += 1
    f["junk"] = [2, 8, 0, 0, 0, 0, 0, 0]
    f["njunk"] = 2
    f["bag"][0] -= 1
    f["bag"][1] -= 1
    s = build(g, f)
    act(g, s, 0, "recruit Warren")
    assert Counter(player(s, 0)["dice"]) == Counter(["R2", "B2"]) and s.view(None)["junkyard"] == []


def test_warren_in_the_solo_game_only_on_secondary_turns() -> None:
    g, f = _seat0(players=1)
    set_hand(g, f, 0, ["Warren"])
    f["players"][0]["cogs"] = 5
    s = build(g, f)
    assert s.view(None)["secondary_turn"] is False and "recruit Warren" not in legal(g, s, 0)
    act(g, s, 0, "done")
    s = drive(s, "action")
    assert s.view(None)["secondary_turn"] is True and "recruit Warren" in legal(g, s, 0)


def test_terry_john_graham_michael_complete_a_robot_of_their_colour_for_a_cog() -> None:
    g, f = _with(["John"], cogs=2)
    set_line(g, f, 0, ["R8", "B1", None])
    on_space(f, 0, "s1.1", "R4")
    set_tiles(f, 0, "bonus_cog", slots={"bonus_cog": 0})
    f["players"][0]["track"][0] = 9                  # no bonus space between 9 and 12
    s = build(g, f)
    act(g, s, 0, "recruit John")
    assert set(legal(g, s, 0)) == {"complete s1", "skip"}
    act(g, s, 0, "complete s1")
    p = player(s, 0)
    assert "R8" in p["tableau"] and p["tracks"]["red"] == 12 and p["cogs"] == 2 - 1 - 1 + 1    # slot upgrade


def test_icon_assistants_d1_to_d12() -> None:
    g, f = _with(["D1", "D2", "D4", "D11"], cogs=20)
    s = build(g, f)
    act(g, s, 0, "recruit D1")
    assert player(s, 0)["cogs"] == 20 - 1 + 3
    act(g, s, 0, "recruit D2")
    assert player(s, 0)["sparks"] >= 2
    dice = len(player(s, 0)["dice"])
    act(g, s, 0, "recruit D4")
    assert len(player(s, 0)["dice"]) == dice + 2
    act(g, s, 0, "recruit D11")
    assert player(s, 0)["upgrade_bonus"] == 3
    g, f = _with(["D5", "D10", "D12", "D3"], played=["D6", "D7", "D8", "D9"], cogs=20)
    set_line(g, f, 0, ["R3", None, None])
    give(f, 0, "R2", "B4")
    s = build(g, f)
    act(g, s, 0, "adjust", "up B4")                  # D6: a free +-1 once per turn
    assert "B5" in player(s, 0)["dice"] and "adjust" not in legal(g, s, 0)
    act(g, s, 0, "reroll_one R2")                    # D7
    assert not any(m.startswith("reroll_one") for m in legal(g, s, 0))
    c = player(s, 0)["cogs"]
    act(g, s, 0, "sell B5")                          # D8: +1
    assert player(s, 0)["cogs"] == c + 2
    f = fields(g, s)
    clear_dice(f, 0)
    give(f, 0, "G3")
    s = build(g, f)
    act(g, s, 0, "place G3 s1.2")                    # D9: ignore the value 6 once this turn
    act(g, s, 0, "recruit D5")
    assert player(s, 0)["pending"][0]["type"] == "advance"
    act(g, s, 0, "track blue", "track blue")
    assert player(s, 0)["tracks"]["blue"] == 2
    act(g, s, 0, "recruit D10")
    assert "skip" in legal(g, s, 0)
    act(g, s, 0, "recruit D12")                      # free
    act(g, s, 0, "die_choice Y6")
    assert "Y6" in player(s, 0)["dice"]


# -- end of turn, tracks, end of game ------------------------------------------------------------------------------


def test_refill_draws_free_slots_plus_one_and_may_discard_unfinished_first() -> None:
    g, f = _seat0(players=2)
    set_line(g, f, 0, ["R1", "R8", "B8"])
    on_space(f, 0, "s3.1", "B4")
    give(f, 0, "R1", "R2")
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2", "done")
    s = drive(s, "refill") if s.view(None)["phase"] != "refill" else s
    while s.actors != [0]:
        act(g, s, s.actors[0], "done" if "done" in legal(g, s, s.actors[0]) else legal(g, s, s.actors[0])[0])
    assert set(legal(g, s, 0)) == {"discard_robot s2", "discard_robot s3", "draw"}
    act(g, s, 0, "discard_robot s3")                 # its die is sold
    assert player(s, 0)["cogs"] == 1 + 1
    act(g, s, 0, "draw")
    assert len(s.view(0)["drawn"]) == 3               # 2 free slots + 1
    assert s.view(None)["robot_deck"]["bottom"][-1] == "B8"           # a discarded robot is seen by all


def test_tracks_skip_bonus_spaces_and_pay_them() -> None:
    g, f = _seat0()
    f["players"][0]["track"][0] = 2                  # the first bonus space lies after scoring space 2
    f["bonus"][0][0] = [b.text() for b in DEFAULT_BONUS_TILES].index("sparks")
    others = [i for i in range(12) if i != f["bonus"][0][0]]
    for c in range(4):
        for k in range(3):
            if (c, k) != (0, 0):
                f["bonus"][c][k] = others.pop()
    set_line(g, f, 0, ["R1", None, None])
    give(f, 0, "R1", "R2")
    f["players"][0]["sparks"] = 0
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2")
    assert player(s, 0)["tracks"]["red"] == 3 and player(s, 0)["sparks"] == 1


def test_past_the_end_of_a_track_advances_go_to_another_track() -> None:
    g, f = _seat0()
    f["players"][0]["track"][0] = 12
    set_line(g, f, 0, ["R1", None, None])
    give(f, 0, "R1", "R2")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2")
    assert set(legal(g, s, 0)) == {"track blue", "track green", "track yellow"}


def test_next_active_player_is_the_left_neighbour_and_the_game_lasts_four_rounds() -> None:
    g = game(players=3)
    s = g.new_initial_state(8)
    actives = []
    rng = random.Random(0)
    while not s.is_terminal:
        v = s.view(None)
        if v["phase"] == "take" and (not actives or actives[-1][0] != v["turn"]):
            actives.append((v["turn"], v["active"]))
        seat = rng.choice(s.actors)
        s.apply(rng.choice(s.legal_actions(seat)), seat)
    first = actives[0][1]
    assert [a for _, a in actives] == [(first + t) % 3 for t in range(12)]
    v = s.view(None)
    assert all(len(p["production_used"]) == 4 for p in v["players"])


def test_no_refill_after_the_last_turn() -> None:
    g = game(players=2)
    s = g.new_initial_state(3)
    while not (s.view(None)["phase"] == "action" and s.view(None)["turn"] == 7):
        s = drive(s, "action") if s.view(None)["phase"] != "action" else s
        if s.view(None)["turn"] != 7:
            s = drive(s, "take")
    f = fields(g, s)
    clear_dice(f, 0)
    set_line(g, f, 0, ["R1", "R8", "B8"])
    give(f, 0, "R1", "R2")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2", "done")
    act(g, s, 1, "done")
    assert s.is_terminal and player(s, 0)["line"][0]["robot"] is None


def test_scoring_every_source() -> None:
    g, f = _seat0()
    P = f["players"][0]
    P["track"] = [3, 0, 1, 0]                        # 3 + 1
    P["level"] = 2
    P["cogs"] = 7                                    # 2 points
    set_hand(g, f, 0, [], played=["Walter", "D6", "Margot"])     # 2 + 0 + 1 points, 3 x level 2
    set_tiles(f, 0, "rearrange", "ignore_colour")    # 1 + 0
    complete(g, f, 0, "R1", "B1", "G1", "Y1", "R2")  # one set: 5
    s = build(g, f)
    assert s.scores()[0] == 4 + 6 + 3 + 1 + 5 + 2


def test_tie_breaks_cogs_then_level_then_robots() -> None:
    g, f = _seat0(players=2)
    clear_dice(f, 1)
    for P in f["players"][:2]:
        P["track"] = [0, 0, 0, 0]
        P["cogs"] = 0
        P["level"] = 0
    set_hand(g, f, 0, [])
    set_hand(g, f, 1, [])
    f["players"][0]["tableau"] = f["players"][1]["tableau"] = 0
    f["players"][0]["played"] = f["players"][1]["played"] = 0
    s = build(g, f)
    assert s.rank_keys()[0] == s.rank_keys()[1]
    f = fields(g, s)
    f["players"][1]["cogs"] = 1                       # 1 cog: 0 points, but wins the tie
    s = build(g, f)
    assert s.scores()[0] == s.scores()[1] and s.rank_keys()[1] > s.rank_keys()[0]
    f = fields(g, s)
    f["players"][0]["cogs"] = 1
    f["players"][0]["level"] = 1
    s = build(g, f)
    assert s.rank_keys()[0] > s.rank_keys()[1]
    f = fields(g, s)
    f["players"][1]["level"] = 1
    complete(g, f, 1, "R2")                          # no points by itself: the most completed robots wins
    s = build(g, f)
    assert s.scores()[0] == s.scores()[1] and s.rank_keys()[1] > s.rank_keys()[0]
    f = fields(g, s)
    complete(g, f, 0, "B2")
    s = build(g, f)
    assert s.rank_keys()[0] == s.rank_keys()[1]       # still tied: the victory is shared


# -- variants --------------------------------------------------------------------------------------------------------


def test_goal_tiles_variant_two_random_goals_worth_six() -> None:
    g = game(players=3, goals=2)
    goals = {tuple(g.new_initial_state(seed).view(None)["goals"]) for seed in range(10)}
    assert all(len(x) == 2 for x in goals) and len(goals) > 1
    assert game(players=3).new_initial_state(0).view(None)["goals"] == []
    g, s = at_action(players=3, seed=0, goals=2)
    f = fields(g, s)
    goal = s.view(None)["goals"][0]
    before = s.scores()[0]
    if goal == "level":
        f["players"][0]["level"] = 4
    elif goal == "assistants":
        set_hand(g, f, 0, [], played=["D6", "D8", "D9", "Conrad", "Emma"])
    elif goal == "sparks":
        f["players"][0]["sparks"] = 4
    else:
        pytest.skip("goal needs a longer set-up")
    s = build(g, f)
    assert goal in player(s, 0)["goals_met"] and s.scores()[0] >= before + 6


def test_every_goal_tile_just_met_and_just_missed() -> None:
    """The six goal tiles (seed l. 315-320; thresholds [D] but the last, which the seed states: "Reach the third
    bonus space on two different scoring tracks"), each at its threshold and one below, and 6 points [I] for each
    goal met when in play (a solo game of difficulty 6 has all six)."""
    g, s = at_action(players=1, seed=0, goals=6)
    g0 = game(players=1, goals=0)
    assert set(s.view(None)["goals"]) == {"assistants", "level", "same_colour", "power_boxes", "sparks", "third_bonus"}

    def base() -> dict:
        f = fields(g, s)
        P = f["players"][0]
        P["track"] = [0, 0, 0, 0]
        P["level"] = 0
        P["sparks"] = 0
        P["cogs"] = 0
        set_hand(g, f, 0, [])
        return f

    cases = {
        "assistants": (lambda f: set_hand(g, f, 0, [], played=["D6", "D8", "D9", "Emma"]),
                       lambda f: set_hand(g, f, 0, [], played=["D6", "D8", "D9", "Emma", "Frank"])),
        "level": (lambda f: f["players"][0].__setitem__("level", 3), lambda f: f["players"][0].__setitem__("level", 4)),
        "same_colour": (lambda f: complete(g, f, 0, "G1", "G3", "G4", "B1"),
                        lambda f: complete(g, f, 0, "G1", "G3", "G4", "G5")),
        "power_boxes": (lambda f: complete(g, f, 0, "R2", "B6", "G9"),
                        lambda f: complete(g, f, 0, "R2", "B6", "G9", "Y12")),
        "sparks": (lambda f: f["players"][0].__setitem__("sparks", 3),
                   lambda f: f["players"][0].__setitem__("sparks", 4)),
        "third_bonus": (lambda f: f["players"][0].__setitem__("track", [9, 8, 0, 0]),
                        lambda f: f["players"][0].__setitem__("track", [9, 9, 0, 0])),
    }
    for goal, (below, at) in cases.items():
        f = base()
        below(f)
        s_below = build(g, f)
        f = base()
        at(f)
        s_at = build(g, f)
        assert goal not in player(s_below, 0)["goals_met"], goal
        assert goal in player(s_at, 0)["goals_met"], goal
        assert player(s_at, 0)["goals_met"] == [goal], goal
        # the same position with no goal tile in play scores 6 less
        f["goals"] = 0
        assert s_at.scores()[0] == build(g0, f).scores()[0] + 6, goal
    # a spark on a power box still counts ("Have 4 sparks"), Emma's cog on one does not
    f = base()
    set_hand(g, f, 0, [], played=["Emma"])
    f["players"][0]["sparks"] = 3
    f["players"][0]["box_used"] = 1 << 63
    assert "sparks" in player(build(g, f), 0)["goals_met"]
    f["players"][0]["box_cog"] = 1 << 63
    f["players"][0]["used_emma"] = 1
    assert "sparks" not in player(build(g, f), 0)["goals_met"]


def test_assistant_draft_deal_seven_keep_one_pass_left() -> None:
    g = game(players=3, draft=True)
    s = g.new_initial_state(2)
    assert s.view(None)["phase"] == "draft" and s.actors == [0, 1, 2]
    hands = [s.view(p)["draft_hand"] for p in range(3)]
    assert all(len(h) == 7 for h in hands)
    for p in range(3):
        act(g, s, p, f"draft {hands[p][0]}")
    assert [s.view(p)["hand"] for p in range(3)] == [[hands[p][0]] for p in range(3)]
    assert set(s.view(1)["draft_hand"]) == set(hands[0]) - {hands[0][0]}     # passed to the left
    while s.view(None)["phase"] == "draft":
        for p in list(s.actors):
            act(g, s, p, f"draft {s.view(p)['draft_hand'][0]}")
    assert all(s.view(None)["players"][p]["hand_size"] == 6 for p in range(3))
    assert s.view(None)["assistant_deck"] == 30 - 18


def test_draft_picks_are_hidden_commitments() -> None:
    g = game(players=2, draft=True)
    assert not g.is_public_action(g.parse_action("draft Emma")) and g.is_public_action(g.parse_action("done"))


def test_solo_alternates_regular_and_secondary_turns() -> None:
    g = game(players=1)
    s = drive(g.new_initial_state(3), "take")
    v = s.view(None)
    assert v["secondary_turn"] is False and any(m.startswith("take ") for m in legal(g, s, 0))
    act(g, s, 0, "take t5 0")                        # 5 of the 7 dice
    s = drive(s, "take")
    v = s.view(None)
    assert v["secondary_turn"] is True and len(v["junkyard"]) == 2          # not refilled
    s = drive(s, "action")
    assert len(s.view(None)["junkyard"]) == 0
    s = drive(s, "take")
    assert s.view(None)["secondary_turn"] is False and len(s.view(None)["junkyard"]) == 7


def _solo_result(s: State, won: bool) -> None:
    """A solo game's result everywhere it shows: the view, the return search and learning read, the outcome."""
    assert s.view(None)["solo"]["won"] is won
    assert s.returns() == [1.0 if won else 0.0]
    assert s.outcome().winners == ((0,) if won else ()) and s.outcome().places == (0,)
    row = np.frombuffer(s.state_bytes(), dtype=np.uint8)[None, :]
    assert batch.returns(s.game, row).tolist() == [[1.0 if won else 0.0]]


def test_solo_loses_below_the_threshold_or_with_a_goal_unmet() -> None:
    g = game(players=1, goals=0)
    s = random_play(g.new_initial_state(1), random.Random(1))
    assert s.scores()[0] < 50
    assert g.solo_won(s) is False
    _solo_result(s, False)                           # lost: no winner, a return of 0 (it read 1.0 before)
    f = fields(g, s)
    f["players"][0]["track"] = [12, 12, 12, 12]
    s = build(g, f)
    assert g.solo_won(s) is True
    _solo_result(s, True)
    g = game(players=1, goals=6)
    s = random_play(g.new_initial_state(1), random.Random(1))
    f = fields(g, s)
    f["players"][0]["track"] = [12, 12, 12, 12]
    s = build(g, f)
    assert g.solo_won(s) is False                    # 80 points, but not every goal met
    _solo_result(s, False)
    assert g.num_goals == 6 and game(players=1).num_goals == 1


# -- modelling ---------------------------------------------------------------------------------------------------------


def test_hidden_hands_and_deck_never_in_another_seats_view() -> None:
    g, s = at_action(players=3, seed=2)
    v = s.view(1)
    assert "hand" in v and v["hand"] and "hands" not in v
    assert all(isinstance(p["hand_size"], int) for p in v["players"])
    assert "pool" not in v["robot_deck"]


def test_a_stalling_policy_still_ends_within_the_bound() -> None:
    """The longest sequences a stalling policy finds (never ``done`` while anything else is legal; rearrange,
    change values and move dice first): every game ends, within ``max_game_length``."""
    for players in (1, 2, 4):
        g = game(players=players)
        longest = 0
        for seed in range(3):
            s = g.new_initial_state(seed)
            rng = random.Random(seed)
            n = 0
            while not s.is_terminal:
                seat = s.actors[-1]
                moves = legal(g, s, seat)
                stall = [m for m in moves if m.split()[0] in ("rearrange", "up", "down", "flip", "mark")]
                other = [m for m in moves if m != "done" and not m.startswith("sell")]
                pick = rng.choice(stall or other or moves)
                act(g, s, seat, pick)
                n += 1
                assert n <= g.max_game_length
            longest = max(longest, n)
        assert longest < g.max_game_length


def test_actions_round_trip_and_are_context_free() -> None:
    g = game(players=4)
    for a in range(g.num_actions):
        text = g.action_to_str(a)
        assert g.parse_action(text) == a and g.action_from_dict(g.action_to_dict(a)) == a
    with pytest.raises(robotcore.InvalidActionError):
        g.parse_action("place Z9 s1.1")


_ = Symbol


# -- the seed's worked examples ----------------------------------------------------------------------------------------


def test_seed_example_robot_advances_two_red_and_gains_a_cog() -> None:
    """"Completing this robot lets you advance 2 spaces on the red scoring track. You also gain 1 cog." (R9)."""
    g, f = _seat0()
    set_line(g, f, 0, ["R9", None, None])
    f["players"][0]["cogs"] = 0
    give(f, 0, "R1", "R2", "B3")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2", "place B3 s1.3")
    assert player(s, 0)["tracks"]["red"] == 2 and player(s, 0)["cogs"] == 1


def test_seed_example_adam() -> None:
    """Adam (active, 4 dice) completes a robot with two dice, fires a power box for 2 cogs, sells a die for a cog,
    pays 3 cogs for his third assistant and stores his last die (seed l. 178-196)."""
    g, f = _seat0()
    set_line(g, f, 0, ["R1", None, None])
    complete(g, f, 0, "B2")                          # a completed robot whose box gives 2 cogs
    set_hand(g, f, 0, ["Gordon"], played=["D6", "D9"])   # two played assistants that do not touch the sale
    f["players"][0]["cogs"] = 0
    f["players"][0]["sparks"] = 1
    give(f, 0, "R3", "R4", "G2", "Y5")
    s = build(g, f)
    act(g, s, 0, "place R3 s1.1", "place R4 s1.2")
    assert "R1" in player(s, 0)["tableau"] and player(s, 0)["tracks"]["red"] == 1
    act(g, s, 0, "spark_box B2")
    assert player(s, 0)["cogs"] == 1 + 2 and player(s, 0)["sparks"] == 0
    act(g, s, 0, "sell G2")                          # a cog
    assert player(s, 0)["cogs"] == 1 + 2 + 1
    act(g, s, 0, "recruit Gordon")                   # the third assistant: 3 cogs
    assert player(s, 0)["cogs"] == 1
    act(g, s, 0, "place Y5 store")
    assert player(s, 0)["storage"] == "Y5" and player(s, 0)["dice"] == []


def test_seed_example_audrey_refill() -> None:
    """Audrey has 2 vacant slots: she draws 3 cards, places 2 and returns the last; she could have discarded her
    last robot first and drawn 4."""
    g, f = _seat0(players=2)
    set_line(g, f, 0, ["R1", "R5", "B8"])
    give(f, 0, "R1", "R2", "R5", "R6")
    s = build(g, f)
    act(g, s, 0, "place R1 s1.1", "place R2 s1.2", "place R5 s2.1", "place R6 s2.2", "done")
    while s.actors != [0] or s.view(None)["phase"] != "refill":
        seat = s.actors[0]
        act(g, s, seat, "done" if "done" in legal(g, s, seat) else legal(g, s, seat)[0])
    assert set(legal(g, s, 0)) == {"discard_robot s3", "draw"}
    twin = s.clone()
    act(g, s, 0, "draw")
    assert len(s.view(0)["drawn"]) == 3
    drawn = s.view(0)["drawn"]
    act(g, s, 0, f"assign {drawn[0]} s1", f"assign {drawn[1]} s2")
    assert s.view(0)["robot_deck"]["bottom"][-1] == drawn[2]
    act(g, twin, 0, "discard_robot s3")              # all three slots free: 4 cards drawn at once
    assert len(twin.view(0)["drawn"]) == 4


def test_seed_example_eva_bonus_point_and_recycle() -> None:
    """Eva completes the red robot in her second slot (Bonus point: one more red space), then the robot in her
    third slot (Recycle) and moves its blue die to the leftmost card."""
    g, f = _seat0()
    set_line(g, f, 0, ["R8", "R1", "Y14"])           # Y14: yellow, red, blue
    set_tiles(f, 0, "bonus_point", "recycle", slots={"bonus_point": 1, "recycle": 2})
    give(f, 0, "R1", "R2", "Y3", "B4", "R5")
    f["players"][0]["cogs"] = 0
    f["players"][0]["track"] = [9, 0, 9, 0]          # no bonus space in the way
    s = build(g, f)
    act(g, s, 0, "place R1 s2.1", "place R2 s2.2")
    assert player(s, 0)["tracks"]["red"] == 9 + 1 + 1
    act(g, s, 0, "place Y3 s3.1", "place R5 s3.2", "place B4 s3.3")
    act(g, s, 0, "recycle B4")
    assert "place B4 s1.1" not in legal(g, s, 0)     # R8 wants red dice: the blue die needs a colour ignore
    f = fields(g, s)
    f["players"][0]["cogs"] = 2
    s = build(g, f)
    act(g, s, 0, "place B4 s1.1")
    assert player(s, 0)["line"][0]["dice"][0] == "B4"


def test_seed_example_sets_and_level_times_assistants() -> None:
    """2 red, 3 yellow, 2 blue, 4 green robots: two full sets, 10 points; level 3 x 4 assistants = 12 points."""
    g, f = _seat0()
    complete(g, f, 0, "R1", "R3", "Y1", "Y3", "Y5", "B1", "B3", "G1", "G3", "G5", "G8")
    s = build(g, f)
    base = s.scores()[0]
    f = fields(g, s)
    f["players"][0]["tableau"] = 0
    for name in ("R1", "R3", "Y1", "Y3", "Y5", "B1", "B3", "G1", "G3", "G5", "G8"):
        f["pool"] |= 1 << g.content.robot_names.index(name)
    s2 = build(g, f)
    assert base - s2.scores()[0] == 10
    g, f = _seat0()
    set_hand(g, f, 0, [], played=["D6", "D8", "D9", "Conrad"])     # 0 points each
    f["players"][0]["level"] = 3
    f["players"][0]["cogs"] = 0
    s = build(g, f)
    f = fields(g, s)
    f["players"][0]["level"] = 0
    assert s.scores()[0] - build(g, f).scores()[0] == 12


def test_seed_example_silas() -> None:
    """Silas: discard a 3, move another die two pips up (2 -> 4) and a third one pip down (5 -> 4)."""
    g, f = _with([], played=["Silas"], cogs=0)
    give(f, 0, "R3", "B2", "G5")
    s = build(g, f)
    act(g, s, 0, "silas R3", "up B2", "up B3", "down G5")
    assert Counter(player(s, 0)["dice"]) == Counter(["B4", "G4"])


def test_seed_example_frank_green_one() -> None:
    g, f = _with([], played=["Frank"])
    give(f, 0, "G1")
    s = build(g, f)
    act(g, s, 0, "frank G1")
    assert player(s, 0)["tracks"]["green"] == 1 and player(s, 0)["dice"] == []


# -- more timing rules ----------------------------------------------------------------------------------------------


def test_conrad_copying_a_once_per_turn_effect_gives_a_second_use() -> None:
    g, f = _with(["Conrad"], played=["Octavia"])
    give(f, 0, "Y2", "Y3")
    s = build(g, f)
    act(g, s, 0, "recruit Conrad")                   # one option: copies Octavia at once
    assert player(s, 0)["conrad"] == "Octavia"
    act(g, s, 0, "flip Y2", "flip Y3")
    assert Counter(player(s, 0)["dice"]) == Counter(["Y5", "Y4"])
    assert not any(m.startswith("flip") for m in legal(g, s, 0))


def test_emmas_cog_is_discarded_at_the_round_end_and_never_returns_as_a_spark() -> None:
    g, f = _seat0(players=2)
    set_hand(g, f, 0, [], played=["Emma"])
    f["players"][0]["cogs"] = 1
    f["players"][0]["sparks"] = 0
    s = build(g, f)
    act(g, s, 0, "cog_box board")
    assert player(s, 0)["boxes_cog"] == ["board"]
    while s.view(None)["turn"] < 2:
        s = drive(s, "take")
        if s.view(None)["turn"] < 2:
            s = drive(s, "action")
    p = player(s, 0)
    assert p["boxes_used"] == [] and p["boxes_cog"] == [] and p["sparks"] == 0


def test_quincy_in_the_solo_game_on_secondary_turns() -> None:
    g = game(players=1)
    s = drive(g.new_initial_state(3), "take")
    f = fields(g, s)
    set_hand(g, f, 0, [], played=["Quincy"])
    s = build(g, f)
    act(g, s, 0, "take t5 0")
    s = drive(s, "take")
    assert s.view(None)["secondary_turn"] is True and legal(g, s, 0) == ["pick 0", "pick 1"]


def test_once_per_turn_uses_reset_each_turn() -> None:
    g, f = _with([], played=["Octavia"], players=2)
    give(f, 0, "Y2")
    s = build(g, f)
    act(g, s, 0, "flip Y2")
    s = drive(drive(s, "take"), "action")
    f = fields(g, s)
    clear_dice(f, 0)
    give(f, 0, "Y5")
    s = build(g, f)
    assert "flip Y5" in legal(g, s, 0)


def test_clockwise_parameter_plays_the_action_phase_seat_by_seat_from_the_active_player() -> None:
    g, s = at_action(players=3, seed=1, clockwise=True)
    active = s.view(None)["active"]
    assert s.actors == [active]
    act(g, s, active, "done")
    assert s.actors == [(active + 1) % 3]
    act(g, s, (active + 1) % 3, "done")
    assert s.actors == [(active + 2) % 3]


def test_rules_md_tables_are_the_default_content() -> None:
    """The assistant table of RULES.md (names, kind, timing, points) and the robot templates' track advances are
    the default content's."""
    import re
    from pathlib import Path

    from robotcore.games.sparks.data import DEFAULT_ASSISTANTS, DEFAULT_ROBOTS

    text = Path(robotcore.games.sparks.__file__).with_name("RULES.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([A-Z][\w /,]*?) \| (\w+) \| ([\w -]+) \| .* \| (\d) \|$", text, re.M)
    table = {}
    for names, kind, timing, points in rows:
        for name in re.split(r", | / ", names):
            table[name] = (kind, timing, int(points))
    assert table == {a.name: (a.kind, a.timing, a.points) for a in DEFAULT_ASSISTANTS}
    robots = re.findall(r"^\| (\d+) \| [^|]+ \| (\d) \|", text, re.M)
    assert [(int(i), int(adv)) for i, adv in robots] == [(i + 1, r.advance) for i, r in enumerate(DEFAULT_ROBOTS[:15])]


def test_with_fields_of_another_shape_is_a_clear_error() -> None:
    """Game.with_fields packs the caller's lists: a short one read past its end (a segfault, found by fuzzing)."""
    g, s = at_action(3, 0)
    for edit in (lambda f: f.update(bottom=f["bottom"][:5]), lambda f: f["players"].pop(),
                 lambda f: f.pop("bag"), lambda f: f.update(done="x")):
        f = fields(g, s)
        edit(f)
        with pytest.raises(robotcore.InvalidParameterError):
            g.with_fields(f)
