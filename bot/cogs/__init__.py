"""Extensions loaded by the bot; each has ``async def setup(bot)``."""
