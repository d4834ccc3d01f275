"""The Ray backend: each deal of the schedule is one Ray task (``pip install "robotcore[ray]"``).

``run`` connects to the cluster at ``address`` (``ray.init(address=...)``; None starts a local one with
``workers`` CPUs) unless Ray is already initialised, and yields the tasks' records as they finish. Records are
the same as the local backend's: a game is a function of the configuration and its index alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from robotcore.errors import InvalidParameterError


def run(config: dict[str, Any], tasks: list[list[dict[str, Any]]], address: str | None,
        workers: int) -> Iterator[list[dict[str, Any]]]:
    try:
        import ray
    except ImportError:
        raise InvalidParameterError("the Ray backend needs Ray: pip install 'robotcore[ray]'") from None
    from robotcore.arena.tournament import _play_many

    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_play_many)
    cfg = ray.put(config)
    live = [remote.remote(cfg, t) for t in tasks]
    try:
        while live:
            done, live = ray.wait(live, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in live:
            ray.cancel(ref)
