"""The tournament harness: schedule, identical results whatever the backend and worker count, resume after an
interruption, outputs, and the SPRT's error rates over many seeded simulated runs."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import pytest

from robotcore.arena import SPRT, Tournament, schedule
from robotcore.arena import tournament as tmod
from robotcore.arena.tournament import format_table
from robotcore.bots import Bot
from robotcore.cli import main
from robotcore.errors import IllegalActionError, InvalidParameterError
from robotcore.tools.match import play_match

BOTS = ["ismcts:iterations=40", "random", "greedy"]


def _strip(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in tmod.TIMES} for r in records]


def test_schedule_puts_every_bot_in_every_seat_on_paired_deals() -> None:
    jobs = schedule(3, 3, 7, seed=1)
    assert len(jobs) == 9                                  # rounded up to whole deals
    for deal in range(3):
        seats = [j["lineup"] for j in jobs if j["deal"] == deal]
        for s in range(3):
            assert sorted(line[s] for line in seats) == [0, 1, 2]
    pairs = schedule(4, 2, 1, seed=1)                      # more bots than seats: every ordered pair meets
    assert sorted(tuple(j["lineup"]) for j in pairs) == [(a, b) for a in range(4) for b in range(4) if a != b]
    assert schedule(3, 3, 7, seed=1) == jobs               # a function of the seed
    assert schedule(3, 3, 7, seed=2) != jobs


def test_rotations_change_neighbours_and_bring_every_pair_together() -> None:
    """Rotations of the bots as listed kept the same neighbours in every game (bot 1 always acted right after
    bot 0), and with more ordered choices than 720 (28 bots, 3 seats) each bot met only its neighbours in the
    list: 28 of 378 pairs (search review). Each deal now rotates an order drawn for it."""
    follows = {(line[s], line[(s + 1) % 3]) for j in schedule(3, 3, 60, seed=4) for line in [j["lineup"]]
               for s in range(3)}
    assert follows == {(a, b) for a in range(3) for b in range(3) if a != b}
    jobs = schedule(28, 3, 28 * 200, seed=4)
    for deal in range(200):
        lines = [j["lineup"] for j in jobs if j["deal"] == deal]
        assert all(sorted(line[s] for line in lines) == list(range(28)) for s in range(3))
    met = {frozenset((a, b)) for j in jobs for a in j["lineup"] for b in j["lineup"] if a != b}
    assert len(met) == 28 * 27 // 2


def test_results_do_not_depend_on_workers(tmp_path: Path) -> None:
    one = Tournament("nicodemus", BOTS, 6, seed=5, workers=1)
    two = Tournament("nicodemus", BOTS, 6, seed=5, workers=2, out=tmp_path / "t")
    s1, s2 = one.run(), two.run()
    assert _strip(one.games) == _strip(two.games)
    assert [b["score_share"] for b in s1["bots"]] == [b["score_share"] for b in s2["bots"]]
    for name in ("games.jsonl", "games.json", "games.csv", "summary.json", "summary.csv", "pairwise.csv", "ratings.png"):
        assert (tmp_path / "t" / name).stat().st_size > 0
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert summary["games"] == 6 and {b["bot"] for b in summary["bots"]} == set(BOTS)
    assert "Bradley-Terry" in summary["rating_model"]


def test_an_interrupted_tournament_resumes_from_its_results_file(tmp_path: Path) -> None:
    full = Tournament("robotrick", BOTS, 6, seed=2)
    full.run()
    out = tmp_path / "r"
    real = tmod._play_many
    calls = {"n": 0}

    def dying(config: dict, jobs: list) -> list:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt                        # the second deal never finishes
        return real(config, jobs)

    tmod._play_many = dying
    try:
        with pytest.raises(KeyboardInterrupt):
            Tournament("robotrick", BOTS, 6, seed=2, out=out).run()
    finally:
        tmod._play_many = real
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 3                             # the configuration and the first deal
    with (out / "games.jsonl").open("a") as f:
        f.write('{"index": 5, "de')                        # a line cut short by the interruption
    played = []

    def counting(config: dict, jobs: list) -> list:
        played.extend(j["index"] for j in jobs)
        return real(config, jobs)

    tmod._play_many = counting
    try:
        resumed = Tournament("robotrick", BOTS, 6, seed=2, out=out)
        resumed.run()
    finally:
        tmod._play_many = real
    assert sorted(played) == [3, 4, 5]
    assert _strip(resumed.games) == _strip(full.games)
    with pytest.raises(InvalidParameterError):             # another tournament in the same folder
        Tournament("robotrick", BOTS, 6, seed=3, out=out).run()


def test_a_tournament_goes_on_with_more_games(tmp_path: Path) -> None:
    """Run again with more games (an SPRT left undecided), the same --out was refused as 'another tournament'
    (search review), though game i is the same in a longer run: it now plays only the new games."""
    out = tmp_path / "x"
    Tournament("nicodemus", ["random", "greedy"], 4, seed=2, out=out, workers=1).run()
    played: list[int] = []
    real = tmod._play_many

    def counting(config: dict, jobs: list) -> list:
        played.extend(j["index"] for j in jobs)
        return real(config, jobs)

    tmod._play_many = counting
    try:
        longer = Tournament("nicodemus", ["random", "greedy"], 8, seed=2, out=out, workers=1)
        longer.run()
    finally:
        tmod._play_many = real
    assert sorted(played) == [4, 5, 6, 7]
    whole = Tournament("nicodemus", ["random", "greedy"], 8, seed=2, workers=1)
    whole.run()
    assert _strip(longer.games) == _strip(whole.games)
    assert json.loads((out / "games.jsonl").read_text().splitlines()[0])["config"]["games"] == 8
    shorter = Tournament("nicodemus", ["random", "greedy"], 4, seed=2, out=out, workers=1)
    assert shorter.run()["games"] == 4 and _strip(shorter.games) == _strip(whole.games[:4])


def test_the_tournament_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--game", "nicodemus", "--bots", "mcts:iterations=40", "random", "--games", "4",
                 "--seed", "1", "--workers", "1", "--quiet", "--out", str(tmp_path / "c")])
    assert code == 0
    out = capsys.readouterr().out
    assert "score share" in out and "mcts:iterations=40" in out
    # the pairwise table in the text and its own CSV, not in summary.json alone (search review)
    pair = json.loads((tmp_path / "c" / "summary.json").read_text())["pairwise"][0]
    assert f"mcts:iterations=40 vs random: {pair['a_wins']}-{pair['draws']}-{pair['b_wins']}" in out
    assert list(csv.DictReader((tmp_path / "c" / "pairwise.csv").open()))[0]["a_wins"] == str(pair["a_wins"])
    assert main(["tournament", "--game", "nicodemus", "--bots", "nope", "random", "--games", "2"]) == 2
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "random", "--games", "2",
                 "--sprt", "0", "5"]) == 2
    # a digit that is not a decimal one names no bot: a usage error, not a ValueError's traceback
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "random", "--games", "2",
                 "--sprt", "\u00b2", "1"]) == 2
    # options that would do nothing are refused, where they were ignored (search review)
    capsys.readouterr()
    for extra, says in ((["--address", "ray://head:10001"], "needs --backend ray"),
                        (["--elo1", "20", "--alpha", "0.1"], "the SPRT's options (--elo1, --alpha) need --sprt")):
        assert main(["tournament", "--game", "nicodemus", "--bots", "random", "greedy", "--games", "2",
                     "--workers", "1", "--quiet", *extra]) == 2
        assert says in capsys.readouterr().err


def test_the_progress_line_names_each_bot_by_its_class_or_name(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A user's bot was shown by its module ("tests.arena.test_arena[0]"); a class without a name of its own
    answered to "bot" in its errors (search review)."""
    t = Tournament("nicodemus", ["tests.arena.test_arena:Illegal", "ismcts:iterations=20"], 2, seed=1, workers=1,
                   progress=True)
    t.run()
    err = capsys.readouterr().err
    assert "Illegal[0]" in err and "ismcts[1]" in err and "bot 'Illegal' answered -1" in err


def test_equal_bots_under_the_sprt_play_on_without_a_false_verdict() -> None:
    """The same bot twice (told apart by position): a short tournament ends undecided, not with H1."""
    t = Tournament("nicodemus", ["greedy", "greedy"], 24, seed=6, sprt=(0, 1), elo0=0, elo1=50)
    summary = t.run()
    assert summary["sprt"]["decision"] != "H1" and summary["sprt"]["a_index"] == 0


def test_the_sprt_stops_a_tournament_on_a_strong_bot(tmp_path: Path) -> None:
    t = Tournament("nicodemus", ["mcts:iterations=150", "random"], 200, seed=4, workers=1,
                   sprt=("mcts:iterations=150", "random"), elo0=0, elo1=200)
    summary = t.run()
    assert summary["sprt"]["decision"] == "H1"
    assert summary["games"] < 200 and summary["games"] == summary["sprt"]["stopped_at_game"] + 1
    # the table states the bounds the LLR crossed, not that it lies "in" them
    # it decides between whole deals: the results end with a deal, and every bot played as many games
    assert summary["games"] % 2 == 0 and len({b["games"] for b in summary["bots"]}) == 1
    s = summary["sprt"]
    assert s["llr"] >= s["upper"]
    assert f"LLR {s['llr']:.2f}, bounds ({s['lower']:.2f}, {s['upper']:.2f}): mcts:iterations=150 is stronger" \
        in format_table(summary)


def _simulated_run(rng: random.Random, p_win: float, p_draw: float, elo0: float, elo1: float,
                   cap: int = 5000) -> tuple[str | None, int]:
    test = SPRT(elo0=elo0, elo1=elo1, alpha=0.05, beta=0.05)
    for n in range(cap):
        u = rng.random()
        if test.update(1.0 if u < p_win else 0.5 if u < p_win + p_draw else 0.0) is not None:
            return test.decision, n + 1
    return None, cap


def test_the_sprt_keeps_its_error_rates_over_many_seeded_runs() -> None:
    """A planted strong-vs-weak pair (A scores 0.75): H1 in nearly every run, quickly. Equal bots (0.5) under
    H0: elo0 = 0, elo1 = 50: H1 (a false positive) in at most alpha of the runs (+ sampling slack), and the test
    does not stop early by accident — it needs many games."""
    rng = random.Random(12)
    strong = [_simulated_run(rng, 0.7, 0.1, 0.0, 50.0) for _ in range(300)]
    assert sum(d == "H1" for d, _ in strong) >= 0.97 * 300
    assert sorted(n for _, n in strong)[150] < 80
    equal = [_simulated_run(rng, 0.45, 0.1, 0.0, 50.0) for _ in range(300)]
    false_h1 = sum(d == "H1" for d, _ in equal) / 300
    assert false_h1 <= 0.05 + 0.03
    assert sum(d == "H0" for d, _ in equal) >= 0.9 * 300
    assert sorted(n for _, n in equal)[150] > 100          # equal bots take many games to settle
    # H1 true (A exactly elo1 = 50 stronger): accepted at least 1 - beta of the time (+ slack)
    s1 = 1 / (1 + 10 ** (-50 / 400))
    at_h1 = [_simulated_run(rng, s1 - 0.05, 0.1, 0.0, 50.0) for _ in range(300)]
    assert sum(d == "H0" for d, _ in at_h1) / 300 <= 0.05 + 0.04


def test_a_tournament_checks_its_configuration_before_playing() -> None:
    for kwargs in ({"budget_ms": -1}, {"workers": 0}, {"backend": "dask"}, {"sprt": ("random", "random")}):
        with pytest.raises(InvalidParameterError):
            Tournament("nicodemus", ["random", "greedy"], 2, **kwargs)
    with pytest.raises(InvalidParameterError):
        Tournament("nicodemus", ["random"], 2)
    with pytest.raises(InvalidParameterError):
        Tournament("nicodemus", ["random", "ismcts:iterations=0x"], 2)


def test_sprt_checks_its_bounds() -> None:
    with pytest.raises(InvalidParameterError):
        SPRT(elo0=10, elo1=5)
    with pytest.raises(InvalidParameterError):
        SPRT(alpha=0.7)
    # an infinite bound made the LLR infinite, a verdict at the first deal, and -Infinity (no JSON) in the results
    for bad in ({"elo0": -math.inf}, {"elo1": math.inf}, {"elo0": math.nan}, {"beta": math.nan}, {"elo1": True}):
        with pytest.raises(InvalidParameterError, match="must be a finite number"):
            SPRT(**bad)
    with pytest.raises(InvalidParameterError, match="elo0 must be a finite number"):
        Tournament("nicodemus", ["random", "greedy"], 4, seed=1, sprt=(0, 1), elo0=-math.inf)


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'robotcore[ray]'): Ray backend untested")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_the_ray_backend_gives_the_local_results(ray_cluster) -> None:
    local = Tournament("nicodemus", BOTS, 6, seed=8, workers=1)
    local.run()
    remote = Tournament("nicodemus", BOTS, 6, seed=8, workers=2, backend="ray")
    remote.run()
    assert _strip(remote.games) == _strip(local.games)


def test_play_takes_bot_specs_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "nicodemus", "--seed", "2", "--quiet", "--bots", "mcts:iterations=30", "random"]) == 0
    assert main(["play", "robotrick", "--seed", "2", "--quiet", "--bots", "random,greedy,random"]) == 0
    assert main(["play", "robotrick", "--bots", "random", "random"]) == 2
    assert "final scores" in capsys.readouterr().out


def test_a_bot_given_twice_is_told_apart_in_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    t = Tournament("nicodemus", ["random", "random", "greedy"], 6, seed=2, workers=1, sprt=("random#1", "greedy"))
    summary = t.run()
    assert [b["bot"] for b in summary["bots"]] == ["random#0", "random#1", "greedy"]
    assert (summary["sprt"]["a"], summary["sprt"]["a_index"]) == ("random#1", 1)
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "random", "--games", "2", "--quiet",
                 "--workers", "1", "--sprt", "random#0", "random#1"]) == 0
    out = capsys.readouterr().out
    assert "random#0" in out and "SPRT random#0 vs random#1" in out


def test_one_deal_prints_no_interval_rather_than_nan(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "greedy", "--games", "2", "--quiet",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out and "[n/a]" in out and "play 2 deals or more" in out


def test_the_tournament_command_takes_all_bots_in_one_argument(tmp_path: Path) -> None:
    assert main(["tournament", "--game", "nicodemus", "--bots", "random,mcts:iterations=20,c=0.5", "--games", "2",
                 "--quiet", "--workers", "1", "--out", str(tmp_path), "--sprt", "random", "1"]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [b["bot"] for b in summary["bots"]] == ["random", "mcts:iterations=20,c=0.5"]
    assert (summary["sprt"]["a_index"], summary["sprt"]["b_index"]) == (0, 1)


def test_a_bot_option_that_does_not_fit_the_game_fails_before_play(capsys: pytest.CaptureFixture[str]) -> None:
    # Robotrick has no native leaf evaluation; "supply PolluPlus" is a Scrapyard action, not a Robotrick one
    for spec in ("mcts:rollout=eval", "greedy:prefer=supply PolluPlus"):
        with pytest.raises(InvalidParameterError, match="bot '(mcts|greedy)': "):
            Tournament("robotrick", ["random", spec], 3)
        with pytest.raises(InvalidParameterError):
            play_match("robotrick", ["random", "random", spec], 1)
        assert main(["play", "robotrick", "--bots", "random", "random", spec]) == 2
        assert "error: bot " in capsys.readouterr().err
    Tournament("scrapyard", ["random", "mcts:rollout=eval"], 2)          # Scrapyard has one


def test_result_files_name_seats_by_label_and_hold_no_nan(tmp_path: Path) -> None:
    Tournament("nicodemus", ["random", "random"], 2, seed=1, workers=1, out=tmp_path, plot=False).run()

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} in a JSON file")

    summary = json.loads((tmp_path / "summary.json").read_text(), parse_constant=refuse)
    assert summary["bots"][0]["rating_ci"] == [None, None]              # one deal: no interval
    json.loads((tmp_path / "games.json").read_text(), parse_constant=refuse)
    with (tmp_path / "games.csv").open() as f:
        assert {row["bot"] for row in csv.DictReader(f)} == {"random#0", "random#1"}
    assert "NaN" not in (tmp_path / "summary.csv").read_text()


def test_a_solo_tournament_compares_the_bots_on_each_deal() -> None:
    """Sparks solo: each game holds one bot, so the bots are ranked by their scores on each deal (the same seed
    for all): greedy beats random there, in shares, ratings and the SPRT, where every game used to read 1.000
    for both and the SPRT never got a comparison."""
    t = Tournament("sparks", ["greedy", "random"], 20, seed=1, params={"players": 1}, sprt=(0, 1), plot=False)
    summary = t.run()
    greedy, rand = summary["bots"]
    assert summary["chance"] == 0.5 and greedy["score_share"] > 0.7 > 0.3 > rand["score_share"]
    assert greedy["rating"] > 0 > rand["rating"] and greedy["rating_ci"][0] > 0
    assert greedy["mean_score"] > rand["mean_score"]
    s = summary["sprt"]
    assert s["wins"] + s["draws"] + s["losses"] == summary["deals"] == 10
    assert summary["pairwise"][0]["games"] == 10


def _game(index: int, deal: int, bots: list[int], places: list[int]) -> dict:
    n = len(bots)
    first = places.count(0)
    return {"index": index, "deal": deal, "rotation": index % 2, "seed": deal, "bots": bots, "seats": [],
            "scores": [10 - p for p in places], "places": places, "moves": [1] * n, "ms_per_move": [0.0] * n,
            "returns": [1.0 / first if p == 0 else 0.0 for p in places]}


def test_intervals_keep_the_width_their_deals_allow() -> None:
    """Deals that all came out alike (each split 1-1, or a sweep) gave zero-width intervals ([0.500, 0.500],
    a rating +592 [592, 592] that grew with the games): shares and rates now take two pseudo-deals, ratings a
    Wald interval beside the bootstrap, and a bot that won every comparison has no upper bound."""
    from robotcore.arena.stats import summarise

    config = {"game": "nicodemus", "params": {}, "seed": 0, "bots": ["a", "b"]}
    even = [_game(2 * d + r, d, [r, 1 - r], [0, 1]) for d in range(2) for r in range(2)]
    row = summarise(config, even, 2)["bots"][0]
    assert row["score_share"] == 0.5 and row["score_share_ci"][0] < 0.2 and row["score_share_ci"][1] > 0.8
    assert row["rating_ci"][0] < -100 < 100 < row["rating_ci"][1]
    sweep = [_game(2 * d + r, d, [r, 1 - r], [0, 1] if r == 0 else [1, 0]) for d in range(20) for r in range(2)]
    a, b = summarise(config, sweep, 2)["bots"]
    assert a["score_share"] == 1.0 and 0.8 < a["score_share_ci"][0] < 0.95 and a["score_share_ci"][1] == 1.0
    assert a["rating_ci"][1] == float("inf") and 0 < a["rating_ci"][0] < a["rating"]
    assert b["rating_ci"][0] == float("-inf") and b["rating"] < b["rating_ci"][1] < 0
    assert "inf" in format_table(summarise(config, sweep, 2))


def test_a_shared_first_place_is_a_draw_not_a_win() -> None:
    """An all-draw match read a win rate of 1.000 for both bots (search review): a win is a first place alone,
    a shared one counts in the score share (half each) and as a draw in the pairwise table."""
    from robotcore.arena.stats import summarise

    config = {"game": "nicodemus", "params": {}, "seed": 0, "bots": ["a", "b"]}
    draws = [_game(2 * d + r, d, [r, 1 - r], [0, 0]) for d in range(10) for r in range(2)]
    summary = summarise(config, draws, 2)
    for row in summary["bots"]:
        assert row["score_share"] == 0.5 and row["win_rate"] == 0.0
    three = [_game(d, d, [0, 1, 2], [0, 0, 2]) for d in range(10)]
    rows = summarise(dict(config, bots=["a", "b", "c"]), three, 3)["bots"]
    assert [r["win_rate"] for r in rows] == [0.0, 0.0, 0.0]
    alone = [_game(d, d, [0, 1, 2], [0, 1, 1]) for d in range(10)]
    rows = summarise(dict(config, bots=["a", "b", "c"]), alone, 3)["bots"]
    assert [r["win_rate"] for r in rows] == [1.0, 0.0, 0.0]


def test_a_bot_in_several_seats_is_one_side_of_the_game() -> None:
    """With fewer bots than seats a bot holds several seats of a game: its share is theirs together and it won
    when they alone placed first (it used to read 0.5 for a bot that won every game)."""
    from robotcore.arena.stats import summarise

    config = {"game": "scrapyard", "params": {}, "seed": 0, "bots": ["a", "b"]}
    games = [_game(2 * d + r, d, [r, 1 - r, r, 1 - r], [0, 1, 2, 3] if r == 0 else [1, 0, 3, 2])
             for d in range(3) for r in range(2)]
    summary = summarise(config, games, 4)
    a, b = summary["bots"]
    assert summary["chance"] == 0.5
    assert (a["score_share"], a["win_rate"], b["score_share"], b["win_rate"]) == (1.0, 1.0, 0.0, 0.0)
    # and its rating too: its best seat against the other bot's best (every seat pair made it 0 [-38, inf])
    assert a["rating"] > 100 > -100 > b["rating"] and a["rating_ci"][1] == float("inf") == -b["rating_ci"][0]


class _Counting:
    """A bot that checks the hooks: reset before the game, told of every action of the other seats."""

    def __init__(self) -> None:
        from robotcore.bots import RandomBot

        self.inner = RandomBot(seed=1)
        self.resets = 0
        self.told = 0

    def bot(self):  # noqa: ANN201 - a Bot subclass made here, so that its hooks reach this object
        from robotcore.bots import Bot

        outer = self

        class Counting(Bot):
            name = "counting"

            def reset(self) -> None:
                outer.resets += 1

            def observe(self, observer, seat, action) -> None:  # noqa: ANN001
                outer.told += 1

            def act(self, observer, budget_ms=None) -> int:  # noqa: ANN001
                return outer.inner.act(observer, budget_ms)

        return Counting(0)


def test_every_runner_resets_and_tells_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """play_match (and so `robotcore play` and `simulate`, which share its loop with the tournament) resets each
    bot and tells it of every other seat's action, as the tournament does: they never did."""
    counters = [_Counting() for _ in range(3)]
    state = play_match("robotrick", [c.bot() for c in counters], seed=3)
    moves = len(state.history)
    for seat, c in enumerate(counters):
        mine = sum(1 for s, _ in state.history if s == seat)
        assert c.resets == 1 and c.told == moves - mine


def test_a_bots_error_names_the_game_seat_and_bot() -> None:
    """With ``forfeits=False`` a bot that answers an illegal move stops the tournament with an error that says
    where: the game, the seat and the bot's label (the default class name, 'bot', used to stand for any of
    them)."""
    with pytest.raises(IllegalActionError) as info:
        Tournament("robotrick", ["tests.arena.test_arena:Illegal", "random"], 2, seed=1, workers=1,
                   forfeits=False).run()
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "tests.arena.test_arena:Illegal" in notes and "seat" in notes and "in game 0" in notes


def test_a_bot_that_fails_forfeits_its_games_and_the_tournament_goes_on(tmp_path: Path) -> None:
    """A bot that raised, or answered an illegal move, stopped the whole tournament with no summary, and the
    same command replayed the same failing game (search review). By default it loses that game, as engine
    testers score a crash: its seats last, the others sharing first place, the error kept in the record."""
    bots = ["tests.arena.test_arena:LateFailure", "random", "greedy"]
    t = Tournament("nicodemus", bots, 6, seed=3, workers=1, out=tmp_path / "f")
    summary = t.run()
    assert summary["games"] == 6
    lost = [r for r in t.games if "forfeit" in r]
    assert lost == [r for r in t.games if 0 in r["bots"]] and lost     # it fails in each of its games (3rd move)
    for r in lost:
        seat = r["forfeit"]["seat"]
        assert r["bots"][seat] == 0 and r["forfeit"]["bot"] == bots[0] and "no third move" in r["forfeit"]["error"]
        assert r["places"][seat] == 1 and r["returns"][seat] == 0.0
        assert all(p == 0 for s, p in enumerate(r["places"]) if s != seat)
        assert sum(r["returns"]) == pytest.approx(1.0)
    rows = {b["bot"]: b for b in summary["bots"]}
    assert rows[bots[0]]["forfeits"] == len(lost) and rows[bots[0]]["score_share"] == 0.0
    assert rows["random"]["forfeits"] == 0
    assert f"forfeits: tests.arena.test_arena:LateFailure lost {len(lost)} game(s)" in format_table(summary)
    assert "no third move" in (tmp_path / "f" / "games.csv").read_text()
    again = Tournament("nicodemus", bots, 6, seed=3, workers=1, out=tmp_path / "f")
    again.run()                                            # resumed: the forfeits are results, nothing is replayed
    assert _strip(again.games) == _strip(t.games)
    solo = Tournament("sparks", ["tests.arena.test_arena:LateFailure", "random"], 4, seed=1, params={"players": 1},
                      workers=1).run()
    first, second = solo["bots"]
    assert first["forfeits"] == 2 and first["win_rate"] == 0.0 and second["score_share"] == 1.0


def test_moves_over_the_budget_are_counted_and_reported() -> None:
    """A bot that thought 50 ms a move under --budget-ms 10 played on with nothing said (search review): each
    game's record now has every seat's longest think and its moves over the budget (``BUDGET_MARGIN``), the
    summary each bot's, and the table names a bot that went over."""
    from robotcore.tools.match import BUDGET_MARGIN

    t = Tournament("nicodemus", ["tests.arena.test_arena:Slow", "random"], 2, seed=1, workers=1, budget_ms=20)
    summary = t.run()
    slow, quick = summary["bots"]
    assert slow["over_budget"] == 2 * Slow.SLOW_MOVES and quick["over_budget"] == 0
    assert slow["max_ms"] >= 1000 * Slow.SLEEP_S > 20 * (1 + BUDGET_MARGIN) + 1
    for r in t.games:
        seat = r["bots"].index(0)
        assert r["over_budget"][seat] == Slow.SLOW_MOVES and r["max_ms"][seat] >= 1000 * Slow.SLEEP_S
    assert f"over budget: tests.arena.test_arena:Slow thought past the budget in {2 * Slow.SLOW_MOVES} of" in \
        format_table(summary)


class Slow(Bot):
    """Takes ``SLEEP_S`` for each of its first ``SLOW_MOVES`` moves of a game."""

    SLEEP_S = 0.06
    SLOW_MOVES = 3

    def reset(self) -> None:
        self.played = 0

    def act(self, observer, budget_ms=None) -> int:  # noqa: ANN001
        import time

        self.played += 1
        if self.played <= self.SLOW_MOVES:
            time.sleep(self.SLEEP_S)
        return observer.legal_actions()[0]


class Illegal(Bot):
    def act(self, observer, budget_ms=None) -> int:  # noqa: ANN001
        return -1


class LateFailure(Bot):
    """Plays two random moves, then raises."""

    def reset(self) -> None:
        self.played = 0

    def act(self, observer, budget_ms=None) -> int:  # noqa: ANN001
        self.played += 1
        if self.played > 2:
            raise RuntimeError("no third move")
        return observer.legal_actions()[0]


def test_the_tournament_command_gives_sigterm_back() -> None:
    """The CLI stops a tournament on SIGTERM as on Ctrl-C, and leaves the process's own handler afterwards (a
    program calling main() got a KeyboardInterrupt on its next SIGTERM)."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "greedy", "--games", "2", "--workers",
                 "1", "--quiet"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_long_label_is_printed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    from robotcore.arena.stats import summarise

    config = {"game": "nicodemus", "params": {}, "seed": 0,
              "bots": ["ismcts:iterations=100,threads=1", "ismcts:iterations=100,threads=2"]}
    table = format_table(summarise(config, [_game(0, 0, [0, 1], [0, 1]), _game(1, 0, [1, 0], [0, 1])], 2))
    assert "ismcts:iterations=100,threads=1 " in table and "ismcts:iterations=100,threads=2 " in table


def test_an_address_where_no_ray_cluster_answers_is_refused_at_once() -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'robotcore[ray]'): Ray backend untested")
    import socket
    import time

    with socket.socket() as s:                 # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        start = time.monotonic()
        with pytest.raises(InvalidParameterError, match="no Ray cluster answers"):
            Tournament("nicodemus", ["random", "greedy"], 2, backend="ray", address=address).run()
        assert time.monotonic() - start < 30


def test_an_interrupted_tournament_stops_its_workers_and_resumes(tmp_path: Path) -> None:
    """SIGTERM (as Ctrl-C) stops the tournament without a traceback and with its worker processes (they were
    left running), keeps what it wrote, and the same command then plays only the rest."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "t"
    games = 24
    cmd = [sys.executable, "-m", "robotcore.cli", "tournament", "--game", "nicodemus", "--bots",
           "mcts:iterations=300", "random", "--games", str(games), "--seed", "4", "--workers", "2", "--quiet",
           "--out", str(out)]
    path = out / "games.jsonl"
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and len(path.read_text().splitlines()) >= 3:
            break
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the tournament ended before it could be interrupted (a very fast machine)")
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"interrupted" in err
    deadline = time.monotonic() + 10
    while _running_in_group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _running_in_group(proc.pid) == []          # nothing of its process group is left running
    kept = path.read_text().splitlines()
    assert 3 <= len(kept) < games + 1
    again = subprocess.run(cmd, capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr
    lines = path.read_text().splitlines()
    assert lines[:len(kept)] == kept                  # what was written stays as it was
    assert sorted(json.loads(x)["index"] for x in lines[1:]) == list(range(games))   # the rest, once each


def _running_in_group(pgid: int) -> list[str]:
    """The processes of process group ``pgid`` still running (not zombies, which a container's first process may
    never reap), from /proc."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()      # after the command's name: state, ppid, pgrp...
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            out.append(text)
    return out


def test_the_files_said_written_are_the_files_written(tmp_path: Path) -> None:
    """The command lists the result files it wrote: ratings.png only when the plot was made (matplotlib)."""
    t = Tournament("nicodemus", ["random", "greedy"], 2, seed=1, out=tmp_path / "r", plot=False)
    t.run()
    assert "ratings.png" not in t.written and all((tmp_path / "r" / name).exists() for name in t.written)
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == sorted(t.written)
