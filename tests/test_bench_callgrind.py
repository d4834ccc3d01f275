"""bench/table.py's callgrind toggles: each pattern matches one compiled function, so that no toggle is switched
off again inside a nested match (``--toggle-collect`` flips collection at each entry of a matching function)."""

from __future__ import annotations

import fnmatch
import importlib.util
import pathlib
import shutil
import subprocess
import sys
from types import ModuleType

import pytest

from robotcore.core import _noop, batch

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"


def functions_of(module_path: str) -> list[str]:
    """The function symbols (text section) of a compiled module, by ``nm``."""
    out = subprocess.run(["nm", module_path], capture_output=True, text=True, check=True).stdout
    return [parts[2] for parts in (line.split() for line in out.splitlines())
            if len(parts) == 3 and parts[1] in "tT"]


def load_table() -> ModuleType:
    """bench/table.py as a module of its own, with ``sys.path`` and ``sys.modules`` left as they were (it puts
    bench/ on the path and imports bench/probes.py)."""
    path, modules = list(sys.path), dict(sys.modules)
    try:
        spec = importlib.util.spec_from_file_location("bench_table", BENCH / "table.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module             # (its dataclasses look their module up there)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = path
        for name in set(sys.modules) - set(modules):
            del sys.modules[name]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="callgrind and these symbol names: Linux only")
@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) is not installed")
def test_each_callgrind_toggle_matches_one_function() -> None:
    table = load_table()
    symbols = functions_of(batch.__file__) + functions_of(_noop.__file__)
    for pattern in table.CG_RC_TOGGLES + table.CG_STEP_TOGGLES:
        assert len(fnmatch.filter(symbols, pattern)) == 1, (pattern, fnmatch.filter(symbols, pattern))
    # the batch's two entry points are the ones counted: new games (the first deal) and the playouts
    assert any("new_states" in s for p in table.CG_RC_TOGGLES for s in fnmatch.filter(symbols, p))
    assert any("_playouts" in s for p in table.CG_RC_TOGGLES for s in fnmatch.filter(symbols, p))
