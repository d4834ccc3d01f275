"""The service benches' own bookkeeping: where ``bench/service_load.py --profile`` counts a function's time, and
``bench/service_split.py --sql``'s probes (each must commit what it claims, or its figure means nothing)."""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("flask")

from .conftest import load_bench  # noqa: E402


def test_the_profile_counts_the_service_files_where_the_package_lives() -> None:
    import robotcore_api

    load = load_bench("service_load")
    api = os.path.dirname(robotcore_api.__file__)
    assert load.part_of((os.path.join(api, "service.py"), 1, "move")) == "service, routes, auth (robotcore_api)"
    assert load.part_of((os.path.join(api, "routes.py"), 1, "post_move")) == "service, routes, auth (robotcore_api)"
    assert load.part_of((os.path.join(api, "store.py"), 1, "commit")).startswith("store")
    assert load.part_of((os.path.join(api, "payloads.py"), 1, "match_view")).startswith("answer")
    assert load.part_of(("/x/site-packages/gunicorn/http/message.py", 1, "parse_headers")).startswith("gunicorn")
    # the service's gunicorn configuration and hooks count with gunicorn (the floor runs them too)
    assert load.part_of((os.path.join(api, "gunicorn_response.py"), 1, "write")).startswith("gunicorn")
    assert load.part_of(("~", 0, "<method 'execute' of 'sqlite3.Cursor' objects>")).startswith("store")
    assert load.part_of(("~", 0, "<built-in method builtins.len>")) is None      # counted for its callers


def test_the_sql_split_times_every_probe_on_commits_that_land(capsys: pytest.CaptureFixture[str]) -> None:
    split = load_bench("service_split")
    assert split.sql_split(matches=4, moves=32, rounds=2) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("a move's SQL on SQLite")
    assert len(lines) == 9 and all(float(line.split()[-2]) > 0 for line in lines[1:])


def test_the_move_shaped_floor_posts_a_move_and_gets_a_move_sized_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    hello = load_bench("flask_hello")
    web = hello.app.test_client()
    load = load_bench("service_load")
    sent: list[tuple[Any, ...]] = []

    class Recorder:
        def request(self, method: str, path: str, body: Any = None, *, token: str | None = None) -> None:
            sent.append((method, path, body, token))
            answer = web.open(path, method=method, json=body,
                              headers={"Authorization": f"Bearer {token}"} if token else {})
            assert answer.status_code == 200
            sent.append(len(answer.data))

        def close(self) -> None:
            pass

    monkeypatch.setattr(load, "load_client", lambda url: Recorder())
    got = load.floor_client("http://unused", time.time() + 0.05, time.time(), load.MOVE_SHAPED)
    assert got["errors"] == 0 and got["latencies"]
    method, path, body, token = sent[0]
    assert (method, path, "action" in body, bool(token)) == ("POST", "/echo", True, True)
    assert 2300 <= sent[1] <= 2800                      # about a Robotrick move's answer (2.5-2.6 KB)
    sent.clear()
    load.floor_client("http://unused", time.time() + 0.01, time.time(), "/")
    assert sent[0] == ("GET", "/", None, None)


def test_a_load_client_batch_collects_before_and_never_during() -> None:
    """The clients measure: their garbage is collected before a phase, and no collection stops their threads
    during it (``_uncollected``); the collector is as it was afterwards."""
    import gc
    import weakref

    load = load_bench("service_load")

    class Node:
        pass

    def garbage_cycle() -> weakref.ref[Node]:
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        return weakref.ref(node)

    was_on = gc.isenabled()
    try:
        for on in (True, False):
            gc.disable()                                    # (no automatic collection frees it before the call)
            cycle = garbage_cycle()
            assert cycle() is not None                      # a cycle: only a collection frees it
            (gc.enable if on else gc.disable)()
            inside = load._uncollected(lambda c=cycle: (c() is None, gc.isenabled()))
            assert inside == (True, False)                  # collected first; no collection during the batch
            assert gc.isenabled() is on
    finally:
        (gc.enable if was_on else gc.disable)()


def test_a_load_targets_verdict_stands_on_the_median_of_its_rounds() -> None:
    """``service_load``'s verdicts: the median of the rounds' ratios against the goal (met on the goal itself),
    never one round's, with their spread and the count of rounds that met it alone; a round without a figure
    (nan: a phase with no request) is left out, and a run with none meets nothing."""
    load = load_bench("service_load")
    v = load.round_verdict([0.4, 0.6, 0.55], 0.5, at_least=True)
    assert (v["median"], v["min"], v["max"], v["met"], v["rounds_met"], v["rounds"]) == (0.55, 0.4, 0.6, True, 2, 3)
    assert load.verdict_line("move / hello-world throughput", v) == \
        "| move / hello-world throughput | 0.55 (0.40-0.60) | >= 0.5 | yes, 2 of 3 rounds |"
    # a latency ratio must stay at or under its goal: two rounds under it do not make the median
    v = load.round_verdict([2.0, 1.6, 1.0, 1.5, 1.7], 1.5, at_least=False)
    assert (v["median"], v["met"], v["rounds_met"]) == (1.6, False, 2)
    assert load.verdict_line("p99", v).endswith("| <= 1.5 | NO, 2 of 5 rounds |")
    assert load.round_verdict([1.4, 1.6], 1.5, at_least=False)["met"]          # the median of two: 1.5
    v = load.round_verdict([float("nan"), 0.7], 0.67, at_least=True)
    assert (v["median"], v["met"], v["rounds_met"], v["rounds"]) == (0.7, True, 1, 2)
    assert not load.round_verdict([], 0.5, at_least=True)["met"]
    assert not load.round_verdict([float("nan")], 0.5, at_least=True)["met"]
