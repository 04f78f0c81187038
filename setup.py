"""Build the optional C kernel of the m,n,k solver (engine/_mnk_c.c); the rest of the project is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and engine.mnk_solver falls back
to its pure-Python kernel.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("engine._mnk_c", ["engine/_mnk_c.c"], optional=True, extra_compile_args=["-O2"])])
