"""Notices in chat apps (issue 27, docs/notices.md): a seat's "your turn", reminder and
game-over notices, and a game's table channel, posted through apprise.

``targets`` checks what a player gives (a supported service, https, a public host) and cuts
the secret for display; ``guard`` checks every address a post connects to at send time;
``post`` sends one notice; ``notices`` writes the rows (the hooks ``notify`` calls, and the
table channel's ``post_to_table``); ``delivery`` sends them with the outbox's claim and lease;
``escalation`` tells the next channel when a "your turn" is not followed by a visit or a move.
"""
