"""The records in words: a player's wins, draws and losses, the bot's record per difficulty, the leaderboard."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import Leaderboard, Record, UserStats
from bot.text.common import DIFFICULTY_NAMES, discord_who
from bot.text.variants import VARIANT_NAMES
from engine import Difficulty

__all__ = ["bot_record_text", "bot_records_text", "leaderboard_text", "short_variant_name", "stats_text"]


def short_variant_name(variant: str, tr: Lang | None = None) -> str:
    """A variant as records name it: ``"4x4"``, ``"5x5"``, or ``"ultimate"`` translated."""
    return (tr or lang(None))(VARIANT_NAMES["ultimate"]) if variant == "ultimate" else variant


def bot_records_text(name: str, records: Mapping[str, Mapping[Difficulty, Record]], tr: Lang | None = None) -> str:
    """The bot's own record per variant and difficulty, e.g. "5x5, unbeatable: 0 losses in 312 games" (levels
    without a game left out)."""
    tr = tr or lang(None)
    lines = [f"**{name}**"]
    for variant, by_level in records.items():
        for difficulty in Difficulty:
            games = by_level.get(difficulty, Record())
            if not games.games:
                continue
            lines.append(
                tr.plural(
                    "{variant}, {difficulty}: {losses} losses in {games} game ({record})",
                    "{variant}, {difficulty}: {losses} losses in {games} games ({record})",
                    games.games,
                    variant=short_variant_name(variant, tr),
                    difficulty=tr(DIFFICULTY_NAMES[difficulty]),
                    losses=tr.number(games.losses),
                    games=tr.number(games.games),
                    record=_record(games, tr),
                )
            )
    if len(lines) == 1:
        lines.append(tr(N_("No finished games yet.")))
    unbeatable = [by_level.get(Difficulty.UNBEATABLE, Record()) for by_level in records.values()]
    if any(r.games for r in unbeatable) and not any(r.losses for r in unbeatable):
        lines.append(tr(N_("Never beaten at unbeatable.")))
    return "\n".join(lines)


def _record(record: Record, tr: Lang) -> str:
    counts = {"wins": tr.number(record.wins), "draws": tr.number(record.draws), "losses": tr.number(record.losses)}
    return tr(N_("{wins} W · {draws} D · {losses} L"), **counts)


def stats_text(name: str, stats: UserStats, tr: Lang | None = None) -> str:
    """A user's wins, draws and losses against the bot and against people."""
    tr = tr or lang(None)
    return "\n".join(
        [
            f"**{name}**",
            tr(N_("vs the bot: {record}"), record=_record(stats.vs_bot, tr)),
            tr(N_("vs people: {record}"), record=_record(stats.vs_people, tr)),
        ]
    )


def bot_record_text(name: str, record: Mapping[Difficulty, Record], tr: Lang | None = None) -> str:
    """The bot's own record per difficulty (its wins are the players' losses)."""
    tr = tr or lang(None)
    lines = [f"**{name}**"]
    for difficulty in Difficulty:
        games = record.get(difficulty, Record())
        lines.append(
            tr.plural(
                "{difficulty}: {games} game · {record}",
                "{difficulty}: {games} games · {record}",
                games.games,
                difficulty=tr(DIFFICULTY_NAMES[difficulty]),
                games=tr.number(games.games),
                record=_record(games, tr),
            )
        )
    unbeatable = record.get(Difficulty.UNBEATABLE, Record())
    if unbeatable.games and not unbeatable.losses:
        lines.append(tr(N_("Never beaten at unbeatable.")))
    return "\n".join(lines)


def leaderboard_text(board: Leaderboard, *, everywhere: bool, tr: Lang | None = None) -> str:
    """The top players against the bot (draws at unbeatable, then fewest losses there) and against people
    (wins, then fewest losses); names are mentions, sent without pings."""
    tr = tr or lang(None)
    title = tr(N_("**Leaderboard** · all servers")) if everywhere else tr(N_("**Leaderboard** · this server"))
    none = [tr(N_("No finished games yet."))]
    vs_bot = [
        tr(
            N_("{rank}. {user} · unbeatable: {unbeatable} · all levels: {record}"),
            unbeatable=_record(row.unbeatable, tr),
            **_columns(rank, row.user_id, row.record, tr),
        )
        for rank, row in enumerate(board.vs_bot, 1)
    ]
    vs_people = [
        tr(N_("{rank}. {user} · {record}"), **_columns(rank, row.user_id, row.record, tr))
        for rank, row in enumerate(board.vs_people, 1)
    ]
    lines = [title, tr(N_("__Against the bot__ (draws at unbeatable, then fewest losses there)")), *(vs_bot or none)]
    lines += [tr(N_("__Against people__ (wins, then fewest losses)")), *(vs_people or none)]
    return "\n".join(lines)


def _columns(rank: int, user_id: int, record: Record, tr: Lang) -> dict[str, object]:
    """The columns every leaderboard row has: its rank, the user (a mention) and their record."""
    return {"rank": rank, "user": discord_who(user_id, tr), "record": _record(record, tr)}
