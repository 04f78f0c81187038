"""Request bodies: reading JSON and multipart bodies, checking them against the specification and the message
rules, and storing and serving uploaded files."""

from __future__ import annotations

import io
import json
import mimetypes
import re
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web
from PIL import Image

from testing.fake_discord.message_rules import message_errors
from testing.fake_discord.protocol import ROUTE
from testing.fake_discord.records import InteractionRecord
from testing.fake_discord.spec import describe, form_errors

FILE_PART = re.compile(r"files\[(\d+)\]")


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart/form-data request."""

    index: int
    filename: str
    content_type: str
    data: bytes


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of an image Pillow can read, else ``None``."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return None


class Bodies:
    """The part of :class:`FakeDiscord` that reads and checks what the bot sends (``spec``: the OpenAPI validator,
    ``None``: not checked) and keeps its files (``files``: attachment id -> (attachment, bytes))."""

    def _check_spec(self, request: web.Request, body: Any, record: InteractionRecord | None = None) -> None:
        """Refuse (400/50035, rule ``openapi_schema``) a body that the specification's schema of its operation
        rejects; the answer's ``errors`` is nested by field path as Discord's is."""
        if self.spec is None:
            return
        errors = self.spec.errors(request.method, request[ROUTE], body)
        if errors:
            raise self._refuse(
                "openapi_schema",
                400,
                50035,
                "Invalid Form Body",
                request,
                record,
                [describe(e) for e in errors],
                form_errors(errors),
            )

    async def _read_payload(self, request: web.Request) -> tuple[Any, list[Upload]]:
        """The JSON body, or a multipart/form-data body's ``payload_json`` and its ``files[n]`` parts.

        Raises ApiError (400/50035, rule ``invalid_attachments``) for a part that is neither, or a file sent twice.
        """
        if request.content_type != "multipart/form-data":
            if not request.can_read_body:
                return {}, []
            return await request.json(loads=json.loads), []
        raw: str | bytes | None = None
        uploads: list[Upload] = []
        errors = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, aiohttp.BodyPartReader):
                errors.append("nested multipart bodies are not accepted")
                continue
            name = part.name or ""
            match = FILE_PART.fullmatch(name)
            if name == "payload_json":
                raw = await part.read()
            elif match is not None and part.filename:
                index = int(match.group(1))
                if any(u.index == index for u in uploads):
                    errors.append(f"{name}: sent twice")
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(index, part.filename, content_type, bytes(await part.read())))
            else:
                errors.append(f"unexpected form part {name!r} (expected payload_json or files[n] with a filename)")
        if errors:
            raise self._refuse(
                "invalid_attachments", 400, 50035, "Invalid Form Body", request, self._record_of(request), errors
            )
        return (json.loads(raw) if raw else {}), uploads

    def _attachment(self, upload: Upload, entry: dict[str, Any] | None, ephemeral: bool) -> dict[str, Any]:
        """Store an uploaded file and return Discord's attachment object for it (served at ``url``)."""
        aid = self._snowflake()
        filename = str((entry or {}).get("filename") or upload.filename)
        url = f"{self.base_url}/attachments/{aid}/{filename}"
        guessed = mimetypes.guess_type(filename)[0]
        attachment: dict[str, Any] = {
            "id": aid,
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": guessed or upload.content_type,
        }
        if (entry or {}).get("description"):
            attachment["description"] = entry["description"]  # type: ignore[index]
        if ephemeral:
            attachment["ephemeral"] = True
        size = image_size(upload.data) if (guessed or "").startswith("image/") else None
        if size is not None:
            attachment["width"], attachment["height"] = size
        self.files[aid] = (attachment, upload.data)
        return attachment

    def _attachments(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        current: list[dict[str, Any]] | None,
        errors: list[str],
        ephemeral: bool,
    ) -> list[dict[str, Any]] | None:
        """The message's attachments after this request (``None``: unchanged), as Discord builds them.

        ``data["attachments"]`` lists every attachment the message keeps: an ``id`` is the ``n`` of a ``files[n]``
        part of this request or, in an edit (``current`` not ``None``), the id of one of the message's
        attachments (the others go). Without it, an edit keeps the old files; new ones are added. Problems go to
        ``errors``.
        """
        by_index = {u.index: u for u in uploads}
        listed = data.get("attachments")
        if listed is None:
            if not uploads:
                return None
            return [*(current or []), *(self._attachment(u, None, ephemeral) for u in uploads)]
        kept = {str(a["id"]): a for a in current or []}
        result, used = [], set()
        for i, entry in enumerate(listed):
            ident = str(entry.get("id"))
            if ident.isdigit() and int(ident) in by_index and ident not in kept:
                used.add(int(ident))
                result.append(self._attachment(by_index[int(ident)], entry, ephemeral))
            elif ident in kept:
                result.append(kept[ident])
            else:
                where = "no files[n] part" + (" and not an attachment of the message" if current is not None else "")
                errors.append(f"attachments.{i}.id: {ident!r} matches {where}")
        result += [self._attachment(u, None, ephemeral) for u in uploads if u.index not in used]
        return result

    def _validate(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        request: web.Request,
        record: InteractionRecord | None,
        *,
        current: dict[str, Any] | None = None,
        ephemeral: bool = False,
    ) -> list[dict[str, Any]] | None:
        """Check a message create (``current`` ``None``) or an edit of ``current`` against Discord's message rules
        on the message it leaves (:func:`message_errors`), and store its uploads. Returns its attachments
        (``None``: an edit that keeps them). Raises ApiError (400; 50006 for an empty message, else 50035)."""
        errors: list[str] = []
        attachments = self._attachments(
            data, uploads, None if current is None else current["attachments"], errors, ephemeral
        )
        if current is None:
            merged = {**data, "attachments": attachments or []}
        else:
            merged = {
                key: data[key] if key in data else current.get(key) for key in ("content", "embeds", "components")
            }
            merged["attachments"] = current["attachments"] if attachments is None else attachments
            merged["flags"] = self._edited_flags(current["flags"], data.get("flags"))
        if not errors:
            errors = message_errors(merged, partial=current is not None)
        if errors:
            for attachment in attachments or []:
                self.files.pop(attachment["id"], None)
            rule = "invalid_attachments" if any("attachment" in e for e in errors) else "invalid_message"
            code = 50006 if errors == ["Cannot send an empty message"] else 50035
            message = "Invalid Form Body" if code == 50035 else errors[0]
            raise self._refuse(rule, 400, code, message, request, record, errors)
        return attachments

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        """``GET /attachments/{id}/{filename}``: an uploaded file's bytes (what Discord's CDN serves)."""
        stored = self.files.get(request.match_info["attachment_id"])
        if stored is None or stored[0]["filename"] != request.match_info["filename"]:
            return web.Response(status=404, text="404: Not Found")
        attachment, data = stored
        return web.Response(body=data, content_type=attachment["content_type"])
