"""Discord's rules for a message that its OpenAPI schema does not carry: content length, Components V2 (top-level
types, 40 components, 4,000 characters of text), classic layouts (5 rows of 5), custom_ids, and ``attachment://``
references to the message's files."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from testing.fake_discord.protocol import FLAG_COMPONENTS_V2


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first, including children and section accessories."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield comp["accessory"]


V2_TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})
"""Component types a Components V2 message may have at its top level: action row, section, text display, media
gallery, file, separator, container (Discord's component reference)."""
MAX_COMPONENTS_V2 = 40
"""Components in a Components V2 message, nested ones (row children, section accessories...) included."""
MAX_TEXT_DISPLAY_CHARS = 4000
"""Characters across all the text displays of a message."""
MAX_ROWS, MAX_ROW_ITEMS = 5, 5
"""A classic message: at most 5 action rows of at most 5 buttons (or one select menu)."""
ATTACHMENT_SCHEME = "attachment://"


def _walk_paths(components: list[dict[str, Any]], prefix: str = "components") -> Iterator[tuple[str, dict[str, Any]]]:
    """``(path, component)`` of every component, depth first, e.g. ``("components.0.components.1", button)``."""
    for i, comp in enumerate(components):
        at = f"{prefix}.{i}"
        yield at, comp
        yield from _walk_paths(comp.get("components") or [], f"{at}.components")
        if isinstance(comp.get("accessory"), dict):
            yield f"{at}.accessory", comp["accessory"]


def _media_urls(message: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(where, url)`` of every media reference of a message: thumbnails, media gallery items, file components,
    and embed images, thumbnails and icons."""
    for at, comp in _walk_paths(message.get("components") or []):
        kind = comp.get("type")
        if kind == 11:
            yield f"{at}.media.url", str((comp.get("media") or {}).get("url"))
        elif kind == 12:
            for j, item in enumerate(comp.get("items") or []):
                yield f"{at}.items.{j}.media.url", str((item.get("media") or {}).get("url"))
        elif kind == 13:
            yield f"{at}.file.url", str((comp.get("file") or {}).get("url"))
    for i, embed in enumerate(message.get("embeds") or []):
        for key in ("image", "thumbnail", "author", "footer"):
            part = embed.get(key) or {}
            for field_name in ("url", "icon_url"):
                if isinstance(part.get(field_name), str) and not (key == "author" and field_name == "url"):
                    yield f"embeds.{i}.{key}.{field_name}", part[field_name]


def _component_errors(components: list[dict[str, Any]], *, v2: bool) -> list[str]:
    """Discord's layout rules for a message's components (``v2``: the message has IS_COMPONENTS_V2)."""
    errors: list[str] = []
    everything = list(walk_components(components))
    if v2:
        for i, comp in enumerate(components):
            if comp.get("type") not in V2_TOP_LEVEL:
                errors.append(f"components.{i}: type {comp.get('type')} can't be at the top level")
        if len(everything) > MAX_COMPONENTS_V2:
            errors.append(
                f"components: at most {MAX_COMPONENTS_V2} components in total, nested ones included "
                f"(got {len(everything)})"
            )
        text = sum(len(c.get("content") or "") for c in everything if c.get("type") == 10)
        if text > MAX_TEXT_DISPLAY_CHARS:
            errors.append(f"components: text displays hold at most {MAX_TEXT_DISPLAY_CHARS} characters (got {text})")
    else:
        if len(components) > MAX_ROWS:
            errors.append(f"components: must be {MAX_ROWS} or fewer in length (got {len(components)} rows)")
        for i, comp in enumerate(components):
            if comp.get("type") != 1:
                errors.append(
                    f"components.{i}: top-level components must be action rows without IS_COMPONENTS_V2 "
                    f"(got type {comp.get('type')})"
                )
    for comp in everything:
        if comp.get("type") != 1:
            continue
        children = comp.get("components") or []
        if not 1 <= len(children) <= MAX_ROW_ITEMS:
            errors.append(f"action row: must have 1 to {MAX_ROW_ITEMS} items (got {len(children)})")
        elif len(children) > 1 and any(c.get("type") != 2 for c in children):
            errors.append("action row: a select menu must be alone in its row")
    custom_ids: set[str] = set()
    ids: set[int] = set()
    for comp in everything:
        label, custom_id, cid = comp.get("label"), comp.get("custom_id"), comp.get("id")
        if label is not None and len(label) > 80:
            errors.append(f"button label must be 80 or fewer in length (got {len(label)})")
        if comp.get("type") == 2 and comp.get("style") not in (5, 6) and not custom_id:
            errors.append("a non-link button needs a custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                errors.append(f"custom_id must be 1 to 100 characters (got {len(custom_id)})")
            if custom_id in custom_ids:
                errors.append(f"duplicate custom_id {custom_id!r}")
            custom_ids.add(custom_id)
        if isinstance(cid, int) and cid:  # 0 or none: Discord numbers it
            if cid in ids:
                errors.append(f"duplicate component id {cid}")
            ids.add(cid)
        if comp.get("type") == 13 and not str((comp.get("file") or {}).get("url")).startswith(ATTACHMENT_SCHEME):
            errors.append("a file component must refer to an uploaded file (attachment://<filename>)")
    return errors


def message_errors(message: dict[str, Any], *, partial: bool = False) -> list[str]:
    """Discord's rules for a message as it will be stored (after an edit: the merged result): content length,
    Components V2 (no content or embeds, 40 components, 4,000 characters of text displays, allowed top-level
    types), classic layouts (5 rows of 5), custom_ids (unique, 1-100 characters), ``attachment://`` references to
    the message's files, and (unless ``partial``) a non-empty message."""
    errors: list[str] = []
    content = message.get("content")
    if content is not None and len(content) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(content)})")
    v2 = bool((message.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if v2:
        for key in ("content", "embeds", "poll", "sticker_ids"):
            if message.get(key):
                errors.append(f"{key}: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)")
    components = message.get("components") or []
    errors += _component_errors(components, v2=v2)
    names = {a.get("filename") for a in message.get("attachments") or []}
    for where, url in _media_urls(message):
        if url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in names:
            errors.append(f"{where}: {url} refers to no file of the message")
    if not partial and not (
        content
        or message.get("embeds")
        or components
        or message.get("attachments")
        or message.get("poll")
        or message.get("sticker_ids")
    ):
        errors.append("Cannot send an empty message")
    return errors
