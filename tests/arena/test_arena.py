"""The tournament harness: schedule, identical results whatever the backend and worker count, resume after an
interruption, outputs, and the SPRT's error rates over many seeded simulated runs."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from robotcore.arena import SPRT, Tournament, schedule
from robotcore.arena import tournament as tmod
from robotcore.arena.tournament import format_table
from robotcore.cli import main
from robotcore.errors import InvalidParameterError
from robotcore.tools.match import play_match

BOTS = ["ismcts:iterations=40", "random", "greedy"]


def _strip(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "ms_per_move"} for r in records]


def test_schedule_puts_every_bot_in_every_seat_on_paired_deals() -> None:
    jobs = schedule(3, 3, 7)
    assert len(jobs) == 9                                  # rounded up to whole deals
    for deal in range(3):
        seats = [j["lineup"] for j in jobs if j["deal"] == deal]
        for s in range(3):
            assert sorted(line[s] for line in seats) == [0, 1, 2]
    pairs = schedule(4, 2, 1)                              # more bots than seats: every ordered pair meets
    assert sorted(tuple(j["lineup"]) for j in pairs) == [(a, b) for a in range(4) for b in range(4) if a != b]


def test_results_do_not_depend_on_workers(tmp_path: Path) -> None:
    one = Tournament("nicodemus", BOTS, 6, seed=5, workers=1)
    two = Tournament("nicodemus", BOTS, 6, seed=5, workers=2, out=tmp_path / "t")
    s1, s2 = one.run(), two.run()
    assert _strip(one.games) == _strip(two.games)
    assert [b["score_share"] for b in s1["bots"]] == [b["score_share"] for b in s2["bots"]]
    for name in ("games.jsonl", "games.json", "games.csv", "summary.json", "summary.csv", "ratings.png"):
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


def test_the_tournament_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--game", "nicodemus", "--bots", "mcts:iterations=40", "random", "--games", "4",
                 "--seed", "1", "--workers", "1", "--quiet", "--out", str(tmp_path / "c")])
    assert code == 0
    out = capsys.readouterr().out
    assert "score share" in out and "mcts:iterations=40" in out
    assert main(["tournament", "--game", "nicodemus", "--bots", "nope", "random", "--games", "2"]) == 2
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "random", "--games", "2",
                 "--sprt", "0", "5"]) == 2
    # a digit that is not a decimal one names no bot: a usage error, not a ValueError's traceback
    assert main(["tournament", "--game", "nicodemus", "--bots", "random", "random", "--games", "2",
                 "--sprt", "\u00b2", "1"]) == 2


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
