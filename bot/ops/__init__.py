"""Running the bot in production: Prometheus metrics, health checks, JSON logs, the event loop's lag.

A utility any layer may use: its modules import no layer of the bot (no client, no game service, no records).
"""
