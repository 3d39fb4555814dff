"""Commands that mail compose it with the server's settings, or say why they cannot.

A command run from a shell (``pbem new-game``, ``rematch``, ``substitute`` …) queues mail that
the server sends; its links and reply address must be the server's. ``@mails`` (under the
command's app context) first takes from the server's record
(``pbem.services.server_settings``) each mail setting this shell lacks and says so, warns of
any it sets otherwise, refuses to run with another secret key (every link would be refused),
and warns when the mails will carry no reply address although the server's might.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableMapping
from typing import Any, TypeVar, cast

import click
from flask import current_app

from pbem.services import server_settings

# With the dev mail backend, mails carry this reply address so that the dev mailbox can
# answer them (play by reply on one machine, with no mailbox to set up).
DEV_INBOUND_ADDRESS = "play@localhost"

Command = TypeVar("Command", bound=Callable[..., Any])


def dev_reply_box(config: MutableMapping[str, Any]) -> None:
    """The dev backend's reply address, where no other is set (``pbem serve`` and every
    command that mails alike)."""
    if config.get("MAIL_BACKEND") == "dev" and not config.get("INBOUND_ADDRESS"):
        config["INBOUND_ADDRESS"] = DEV_INBOUND_ADDRESS


def mails(command: Command) -> Command:
    """Run ``command`` with the server's mail settings (see the module's docstring)."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        use_the_servers_settings()
        return command(*args, **kwargs)

    return cast(Command, run)


def use_the_servers_settings() -> None:
    config = current_app.config
    found = server_settings.reconcile(config)
    if found.wrong_key:
        raise click.ClickException(
            "this shell's SECRET_KEY is not the one the server runs with: every link mailed "
            "would be refused. Run this command with the server's settings (its environment).")
    for name, value in found.taken.items():
        click.echo(f"pbem: {name} is not set here: using the server's, {value}", err=True)
    for name, (ours, theirs) in found.differing.items():
        click.echo(f"pbem: warning: {name} is {ours} here but {theirs} on the server; the "
                   f"mails of this command use {ours}", err=True)
    dev_reply_box(config)
    if not config.get("INBOUND_ADDRESS") and found.record is None:
        click.echo(
            "pbem: warning: INBOUND_ADDRESS is not set here, and no server has recorded its "
            "settings in this database yet (a server records them when it starts): the mails "
            "of this command carry no reply address, so they cannot be answered to play. If "
            "the server plays by reply, run this command with its settings.", err=True)
