"""REST routes of the world's plain resources: users, the application, channels and their messages."""

from __future__ import annotations

from aiohttp import web

from testing.fake_discord.protocol import FLAG_EPHEMERAL, json_response
from testing.fake_discord.records import ApiError


class Resources:
    """The part of :class:`FakeDiscord` that answers ``/users``, ``/applications/@me`` and ``/channels``."""

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.bot_user, "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(request.match_info["user_id"])
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.application_id,
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.make_user("1", "owner"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    def _channel(self, request: web.Request) -> str:
        cid = request.match_info["channel_id"]
        if self._is_private(cid):
            if cid not in self._bot_in_private:  # a DM or group DM the bot is not in (user-installed app)
                raise self._refuse("missing_access", 403, 50001, "Missing Access", request)
            return cid
        if cid not in self._channel_guild:
            raise self._refuse("unknown_channel", 404, 10003, "Unknown Channel", request)
        return cid

    async def _get_channel(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        if self._is_private(cid):
            return json_response(self.private_channels[cid])
        return json_response(self.guilds[self._channel_guild[cid]]["channels"][cid])

    async def _list_channel_messages(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        public = self.messages(cid, include_ephemeral=False)
        return json_response(list(reversed(public))[:limit])

    async def _create_channel_message(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body)
        if (body.get("flags") or 0) & FLAG_EPHEMERAL:
            raise self._refuse(
                "invalid_message",
                400,
                50035,
                "Invalid Form Body",
                request,
                errors=["channel messages can't be ephemeral"],
            )
        attachments = self._validate(body, uploads, request, None)
        return json_response(self._new_message(cid, body, author=self.bot_user, files=attachments))

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        cid, mid = self._channel(request), request.match_info["message_id"]
        msg = self.message(cid, mid)
        if msg is None or msg["flags"] & FLAG_EPHEMERAL:
            if request.method == "GET":
                raise ApiError(404, 10008, "Unknown Message")
            raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request)
        if request.method == "GET":
            return json_response(msg)
        if request.method == "DELETE":
            self._delete_message(cid, mid)
            return web.Response(status=204)
        if msg["author"]["id"] != self.bot_user["id"]:
            raise self._refuse(
                "edit_foreign_message", 403, 50005, "Cannot edit a message authored by another user", request
            )
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body)
        attachments = self._validate(body, uploads, request, None, current=msg)
        return json_response(self._edit_message(cid, mid, body, attachments))
