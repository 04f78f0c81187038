"""The game flow without Discord: sessions, challenges, timers and the rules of play.

:class:`~bot.games.service.GameService` takes intents (a press, a move, a resignation...) and returns answers
(:mod:`bot.games.answers`: a refusal, or the new game plus what to show). The Discord cog and the console both drive
it; nothing here imports ``discord``. The package re-exports nothing, so that importing one of its modules (a spawned
search worker's, say) imports only what that module needs.
"""
