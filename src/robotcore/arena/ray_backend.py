"""The Ray backend: each deal of the schedule is one Ray task (``pip install "robotcore[ray]"``).

``run`` connects to the cluster at ``address`` (``ray.init(address=...)``; None starts a local one with
``workers`` CPUs) unless Ray is already initialised, and yields the tasks' records as they finish. Records are
the same as the local backend's: a game is a function of the configuration and its index alone.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

from robotcore.core.game import is_decimal
from robotcore.errors import InvalidParameterError

#: How long the cluster's address is tried before ``ray.init`` (which waits minutes for an address nobody answers)
CONNECT_TIMEOUT_S = 5.0


def _reachable(address: str) -> None:
    """Refuse at once a cluster address (``host:port`` or ``ray://host:port``) where nothing listens; Ray's own
    names (``auto``, ``local``) are left to it."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not is_decimal(port):
        if address in ("auto", "local"):
            return
        raise InvalidParameterError(f"a Ray address is host:port or ray://host:port, got {address!r}")
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise InvalidParameterError(f"no Ray cluster answers at {address} ({exc.strerror or exc})") from None


def run(config: dict[str, Any], tasks: list[list[dict[str, Any]]], address: str | None,
        workers: int) -> Iterator[list[dict[str, Any]]]:
    try:
        import ray
    except ImportError:
        raise InvalidParameterError("the Ray backend needs Ray: pip install 'robotcore[ray]'") from None
    from robotcore.arena.tournament import _play_many

    if address:
        _reachable(address)               # (also when Ray is up already: the address asked for must answer)
    if not ray.is_initialized():
        if address:
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:   # e.g. ray:// without ray[client]
                raise InvalidParameterError(f"cannot join the Ray cluster at {address}: {exc}") from None
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
