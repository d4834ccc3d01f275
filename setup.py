"""Build the Cython extensions of robotcore.

Every ``.pyx`` file under ``src/robotcore`` becomes one extension module named after its path, so adding a
game never means editing a list here. Generated C files are build outputs and are not committed.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).parent
SRC = ROOT / "src"


def compile_args() -> list[str]:
    """-O3 helps the bit-twiddling loops (MSVC already optimises with setuptools' /Ox).

    On x86-64 we also ask for POPCNT: every engine counts card and action sets, and without it GCC calls a
    libgcc routine. POPCNT is part of x86-64-v2, which NumPy >= 2.4 already requires of the CPU. Builds for
    other targets (arm64, a cross-compiled macOS arm64 wheel) use the portable fallback in core/bits.h.
    """
    if sys.platform == "win32":
        return []
    args = ["-O3", "-Wno-unreachable-code"]
    targets_x86 = platform.machine().lower() in ("x86_64", "amd64")
    if "arm64" in os.environ.get("ARCHFLAGS", "") or os.environ.get("ROBOTCORE_PORTABLE"):
        targets_x86 = False
    if targets_x86:
        args.append("-mpopcnt")
    return args


COMPILE_ARGS = compile_args()

# Bounds checks stay on by default; hot functions whose inputs are validated at their boundary turn them off
# locally with decorators, as the design notes ask.
DIRECTIVES = {
    "language_level": 3,
    "embedsignature": True,
    "cdivision": True,
    "freethreading_compatible": True,
}


def extensions() -> list[Extension]:
    exts = []
    for pyx in sorted(SRC.rglob("*.pyx")):
        rel = pyx.relative_to(SRC).with_suffix("")
        exts.append(
            Extension(
                ".".join(rel.parts),
                [os.fspath(pyx.relative_to(ROOT))],
                include_dirs=[numpy.get_include(), os.fspath(SRC / "robotcore" / "core")],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                extra_compile_args=COMPILE_ARGS,
            )
        )
    return exts


setup(
    # Every package under src/ (games need no list) plus the service, installed from api/ as robotcore_api.
    packages=[*find_packages("src"), "robotcore_api"],
    ext_modules=cythonize(
        extensions(),
        compiler_directives=DIRECTIVES,
        annotate=bool(os.environ.get("ROBOTCORE_ANNOTATE")),
        nthreads=os.cpu_count() or 1,
    ),
)
