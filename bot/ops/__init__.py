"""Running the bot in production: Prometheus metrics, health checks, JSON logs, and search workers that die with
the bot.

Importing this package imports nothing else: a spawned search worker imports :mod:`bot.ops.lifetime` only.
"""
