"""The Discord process around the client (:mod:`bot.client`): the patches of discord.py's internals
(:mod:`bot.app.patches`, the one module that touches them), the shards' IDENTIFY pacing, and the wiring of the
metrics and health checks into the running bot."""
