"""The steps of every tick, registered by the app factory.

The scheduler calls into the services and the mail; they never import the scheduler. The
order matters: ``deadlines`` and ``digest`` enqueue mail, so they run before ``mail``
delivers, and a reminder leaves in the tick that made it.
"""

from __future__ import annotations

from pbem.mail.outbound import delivery, digest, retention
from pbem.mail.outbound.chat import delivery as chat_delivery
from pbem.mail.outbound.chat import escalation
from pbem.scheduler import deadlines, register_step
from pbem.services import inbox


def register_steps() -> None:
    """Add the server's steps to every tick; registering them again is a no-op."""
    register_step("deadlines", deadlines.run_step)
    register_step("digest", digest.run_step)
    register_step("replies", inbox.poll_step)  # play by reply: before "mail" sends answers
    register_step("mail", delivery.mail_step)
    # notices in chat apps (issue 27): escalations write notices, then they are posted
    register_step("escalations", escalation.run_step)
    register_step("notices", chat_delivery.notices_step)
    register_step("retention", retention.run_step)  # prune sent bodies after MAIL_RETENTION_DAYS
