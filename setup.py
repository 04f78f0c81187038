"""Build the optional C kernels, each beside its game: engine/mnk/_mnk_c.c, engine/ultimate/_ultimate_c.c (with its
headers) and engine/connect_four/_connect_four_c.c. The rest of the build is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds and engine.mnk.solver,
engine.ultimate.tree and engine.connect_four.solver fall back to their pure-Python kernels. ``-ffp-contract=off``
keeps the ultimate kernel's floating-point operations the ones the Python kernel does (no fused multiply-add), so both
choose alike.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engine.mnk._mnk_c", ["engine/mnk/_mnk_c.c"], optional=True, extra_compile_args=["-O2"]),
        Extension(
            "engine.ultimate._ultimate_c",
            ["engine/ultimate/_ultimate_c.c"],
            depends=["engine/ultimate/_ultimate_board.h", "engine/ultimate/_ultimate_prove.h"],
            optional=True,
            extra_compile_args=["-O2", "-ffp-contract=off"],
        ),
        Extension(
            "engine.connect_four._connect_four_c",
            ["engine/connect_four/_connect_four_c.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "engine.gomoku._gomoku_c",
            ["engine/gomoku/_gomoku_c.c"],
            depends=["engine/gomoku/_gomoku_board.h"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
