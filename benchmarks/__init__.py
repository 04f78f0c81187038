"""Benchmarks: scripts run as ``python benchmarks/<name>.py`` (see docs/performance.md and docs/engine.md), and
:mod:`benchmarks.harness`, the parts the ones that drive the real bot through the fake Discord share."""
