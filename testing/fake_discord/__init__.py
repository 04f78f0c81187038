"""A test double of Discord's REST API v10 and gateway, for e2e tests and load benchmarks.

Start it in-process (``async with FakeDiscord() as fake``) or standalone (``python -m testing.fake_discord``),
point a discord.py bot at it with :meth:`FakeDiscord.env`, then inject slash commands and button presses and
inspect the callbacks, the per-channel message store, the synced command trees and any rule violations.

Like Discord, it answers over a network: every REST answer is delayed by a round trip drawn from
:attr:`FakeDiscord.latency` (a request is applied when it arrives; only its answer waits), and
:meth:`FakeDiscord.inject` makes chosen requests fail (429 with ``retry_after``, 5xx, an answer lost after the
request was applied, a dropped connection, or just a slow answer). Guilds live on shards, and DMs and group DMs
serve interactions of user-installed apps (the bot's channel REST answers 403 there). An interaction token works
for followups and edits of its messages for :attr:`FakeDiscord.token_lifetime` seconds (Discord: 15 minutes), then
401/50027.

Every JSON body (and every ``payload_json`` of a multipart body) is checked against the request-body schema of its
operation in Discord's OpenAPI description (``../shared/discord-api-spec/openapi.json`` from the repository root,
see :class:`SpecValidator`), then against the message rules the schema does not carry (:func:`message_errors`:
Components V2, layouts, custom_ids, ``attachment://`` references). A refused body is answered as Discord does
(400/50035 "Invalid Form Body" with its nested ``errors``) and recorded in :attr:`FakeDiscord.violations`; the e2e
conftest fails the test. Uploaded files are stored and served back at the attachment's ``url`` on 127.0.0.1.

The package's modules, one concern each: :mod:`.protocol` (Discord's numbers), :mod:`.spec` and :mod:`.schemas`
(the OpenAPI description), :mod:`.message_rules` and :mod:`.command_rules` (the rules the schema does not carry),
:mod:`.records` (what is recorded and raised), :mod:`.faults` (latency and injected failures), :mod:`.waiting`,
:mod:`.connection`, and the parts of :class:`FakeDiscord` (:mod:`.fake`): :mod:`.server`, :mod:`.gateway`,
:mod:`.rest`, :mod:`.bodies`, :mod:`.callbacks`, :mod:`.resources`, :mod:`.app_commands`, :mod:`.injection`,
:mod:`.messages`, :mod:`.world`.
"""

from testing.fake_discord.command_rules import command_errors
from testing.fake_discord.fake import FakeDiscord
from testing.fake_discord.faults import Fault
from testing.fake_discord.message_rules import ATTACHMENT_SCHEME, message_errors
from testing.fake_discord.protocol import (
    CALLBACK_ROUTE,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL,
)
from testing.fake_discord.records import (
    BODY_RULES,
    ApiError,
    CallbackEvent,
    FakeDiscordError,
    GatewayClose,
    InteractionRecord,
    InvalidSession,
    RestCall,
    Violation,
)
from testing.fake_discord.spec import (
    SPEC_ENV,
    SPEC_MISSING,
    SPEC_OPERATIONS,
    SPEC_RELATIVE,
    SpecValidator,
    describe,
    find_spec,
    form_errors,
    spec_or_none,
)

__all__ = [
    "ATTACHMENT_SCHEME",
    "BODY_RULES",
    "CALLBACK_ROUTE",
    "FLAG_COMPONENTS_V2",
    "FLAG_EPHEMERAL",
    "INTERACTION_COMMAND",
    "INTERACTION_COMPONENT",
    "INTERACTION_MODAL",
    "SPEC_ENV",
    "SPEC_MISSING",
    "SPEC_OPERATIONS",
    "SPEC_RELATIVE",
    "ApiError",
    "CallbackEvent",
    "FakeDiscord",
    "FakeDiscordError",
    "Fault",
    "GatewayClose",
    "InteractionRecord",
    "InvalidSession",
    "RestCall",
    "SpecValidator",
    "Violation",
    "command_errors",
    "describe",
    "find_spec",
    "form_errors",
    "message_errors",
    "spec_or_none",
]
