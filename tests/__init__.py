"""The test suite (a regular package, so it wins over any top-level ``tests`` a dependency installs)."""
