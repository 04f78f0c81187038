"""The records in words: a player's wins, draws and losses and ratings, the bot's record per level, the
leaderboard."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import Leaderboard, RatedRow, Rating, Record, UserStats
from bot.records.stats import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_GAMES
from bot.text.common import discord_who, level_name
from engine import Mark
from engine import variant as variant_named

__all__ = [
    "Beatable",
    "bot_record_text",
    "bot_records_text",
    "leaderboard_text",
    "rating_text",
    "short_variant_name",
    "stats_text",
]


def short_variant_name(variant: str, tr: Lang | None = None) -> str:
    """A variant as records name it (:meth:`engine.Variant.short_title`): ``"4x4"``, ``"5x5"``, or ``"ultimate"``
    translated."""
    return (tr or lang(None))(variant_named(variant).short_title())


Beatable = Mapping[str, tuple[Mark, Mapping[int, Record]]]
"""Per variant whose perfect play loses on one side (:func:`bot.games.levels.beatable_side`): that side and the bot's
record per level in the games it played on it."""


def bot_records_text(
    name: str, records: Mapping[str, Mapping[int, Record]], tr: Lang | None = None, beatable: Beatable | None = None
) -> str:
    """The bot's own record per variant and level, e.g. "ultimate, level 8 (1710): beaten 3 times in 1,204 games"
    (levels without a game left out); on a game in ``beatable``, its record on the side that loses with perfect play
    too ("playing O: beaten 3 times in 600 games": how often people playing first beat it)."""
    tr = tr or lang(None)
    lines = [f"**{name}**"]
    for variant, by_level in records.items():
        for level, games in by_level.items():
            if games.games:
                line = f"{short_variant_name(variant, tr)}, {_beaten(variant, level, games, tr)}"
                lines.append(line + _on_side(variant, level, beatable, tr))
    if len(lines) == 1:
        lines.append(tr(N_("No finished games yet.")))
    return "\n".join(lines)


def _beaten(variant: str, level: int, games: Record, tr: Lang) -> str:
    """``"level 8 (1710): beaten 3 times in 1,204 games"``."""
    return tr.plural(
        "{level}: beaten {losses} times in {games} game",
        "{level}: beaten {losses} times in {games} games",
        games.games,
        level=level_name(variant, level, tr),
        losses=tr.number(games.losses),
        games=tr.number(games.games),
    )


def _on_side(variant: str, level: int, beatable: Beatable | None, tr: Lang) -> str:
    """`` · playing O: beaten 3 times in 600 games`` where ``beatable`` has the game's games on that side at
    ``level``, else nothing."""
    side, by_level = (beatable or {}).get(variant, (None, {}))
    games = by_level.get(level)
    if side is None or games is None or not games.games:
        return ""
    said = tr.plural(
        "playing {mark}: beaten {losses} times in {games} game",
        "playing {mark}: beaten {losses} times in {games} games",
        games.games,
        mark=side.value,
        losses=tr.number(games.losses),
        games=tr.number(games.games),
    )
    return f" · {said}"


def _record(record: Record, tr: Lang) -> str:
    counts = {"wins": tr.number(record.wins), "draws": tr.number(record.draws), "losses": tr.number(record.losses)}
    return tr(N_("{wins} W · {draws} D · {losses} L"), **counts)


def stats_text(name: str, stats: UserStats, tr: Lang | None = None, ratings: Mapping[str, Rating] | None = None) -> str:
    """A user's wins, draws and losses against the bot and against people, then their rating against the bot in
    each variant of ``ratings`` (variant to rating)."""
    tr = tr or lang(None)
    lines = [
        f"**{name}**",
        tr(N_("vs the bot: {record}"), record=_record(stats.vs_bot, tr)),
        tr(N_("vs people: {record}"), record=_record(stats.vs_people, tr)),
    ]
    for variant, rating in (ratings or {}).items():
        lines.append(
            tr(
                N_("rating vs the bot, {variant}: {rating}"),
                variant=short_variant_name(variant, tr),
                rating=_rating(rating, tr),
            )
        )
    return "\n".join(lines)


def bot_record_text(
    name: str, variant: str, record: Mapping[int, Record], tr: Lang | None = None, beatable: Beatable | None = None
) -> str:
    """The bot's own record in ``variant`` per level (its wins are the players' losses), and where ``beatable`` has
    the game, its record on the side that loses with perfect play."""
    tr = tr or lang(None)
    lines = [f"**{name}**"]
    lines += [
        f"{_beaten(variant, level, games, tr)} · {_record(games, tr)}{_on_side(variant, level, beatable, tr)}"
        for level, games in record.items()
    ]
    return "\n".join(lines)


def rating_text(name: str, variant: str, ratings: Mapping[str, Rating], tr: Lang | None = None) -> str:
    """A player's ratings in ``variant``: against the bot ("1534 ± 112 · 12 games · best level beaten: 5") and
    against people."""
    tr = tr or lang(None)
    bot, people = ratings["bot"], ratings["people"]
    best = tr(N_("none yet")) if bot.best_level is None else level_name(variant, bot.best_level, tr)
    against_bot = tr(N_("vs the bot: {rating}"), rating=_rating(bot, tr))
    best_line = tr(N_("best level beaten: {level}"), level=best)
    return "\n".join(
        [
            f"**{name}**",
            f"{against_bot} · {best_line}",
            tr(N_("vs people: {rating}"), rating=_rating(people, tr)),
        ]
    )


def _rating(rating: Rating, tr: Lang) -> str:
    """``"1534 ± 112 · 12 games"``."""
    return tr.plural(
        "{rating} ± {deviation} · {games} game",
        "{rating} ± {deviation} · {games} games",
        rating.games,
        rating=round(rating.rating),
        deviation=round(rating.deviation),
        games=tr.number(rating.games),
    )


def leaderboard_text(board: Leaderboard, variant: str, *, everywhere: bool, tr: Lang | None = None) -> str:
    """The top ratings in ``variant`` against the bot and between people (at least
    :data:`~bot.records.stats.LEADERBOARD_MIN_GAMES` games, deviation at most
    :data:`~bot.records.stats.LEADERBOARD_MAX_DEVIATION`); names are mentions, sent without pings."""
    tr = tr or lang(None)
    title = tr(N_("**Leaderboard** · all servers")) if everywhere else tr(N_("**Leaderboard** · this server"))
    none = [
        tr(
            N_("Nobody yet: a rating is listed after {games} games, once its deviation is at most {deviation}."),
            games=LEADERBOARD_MIN_GAMES,
            deviation=round(LEADERBOARD_MAX_DEVIATION),
        )
    ]

    def rows(table: tuple[RatedRow, ...]) -> list[str]:
        return [
            f"{rank}. {discord_who(row.user_id, tr)} · {_rating(row.rating, tr)}" for rank, row in enumerate(table, 1)
        ]

    lines = [f"{title} · {short_variant_name(variant, tr)}", tr(N_("__Against the bot__ (rating)"))]
    lines += rows(board.vs_bot) or none
    lines += [tr(N_("__Against people__ (rating)")), *(rows(board.vs_people) or none)]
    return "\n".join(lines)
