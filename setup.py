"""Build the optional C kernels (engine/_mnk_c.c, engine/_ultimate_c.c with its headers); the rest is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds and engine.mnk_solver and
engine.ultimate_tree fall back to their pure-Python kernels. ``-ffp-contract=off`` keeps the ultimate kernel's
floating-point operations the ones the Python kernel does (no fused multiply-add), so both choose alike.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engine._mnk_c", ["engine/_mnk_c.c"], optional=True, extra_compile_args=["-O2"]),
        Extension(
            "engine._ultimate_c",
            ["engine/_ultimate_c.c"],
            depends=["engine/_ultimate_board.h", "engine/_ultimate_prove.h"],
            optional=True,
            extra_compile_args=["-O2", "-ffp-contract=off"],
        ),
    ]
)
