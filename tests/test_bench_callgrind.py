"""bench/table.py's callgrind toggles: each pattern matches one compiled function, so that no toggle is switched
off again inside a nested match (``--toggle-collect`` flips collection at each entry of a matching function)."""

from __future__ import annotations

import fnmatch
import pathlib
import shutil
import subprocess
import sys

import pytest

from robotcore.core import _noop, batch

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"


def functions_of(module_path: str) -> list[str]:
    """The function symbols (text section) of a compiled module, by ``nm``."""
    out = subprocess.run(["nm", module_path], capture_output=True, text=True, check=True).stdout
    return [parts[2] for parts in (line.split() for line in out.splitlines())
            if len(parts) == 3 and parts[1] in "tT"]


@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) is not installed")
def test_each_callgrind_toggle_matches_one_function() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import table
    finally:
        sys.path.remove(str(BENCH))
    symbols = functions_of(batch.__file__) + functions_of(_noop.__file__)
    for pattern in table.CG_RC_TOGGLES + table.CG_STEP_TOGGLES:
        assert len(fnmatch.filter(symbols, pattern)) == 1, (pattern, fnmatch.filter(symbols, pattern))
    # the batch's two entry points are the ones counted: new games (the first deal) and the playouts
    assert any("new_states" in s for p in table.CG_RC_TOGGLES for s in fnmatch.filter(symbols, p))
    assert any("_playouts" in s for p in table.CG_RC_TOGGLES for s in fnmatch.filter(symbols, p))
