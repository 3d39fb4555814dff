"""The steps of every tick, registered by the app factory.

The scheduler calls into the services and the mail; they never import the scheduler. The
order matters: ``deadlines`` and ``digest`` enqueue mail, so they run before ``mail``
delivers, and a reminder leaves in the tick that made it. The steps that claim their rows
(or move each by a conditional UPDATE) run in every process at once on PostgreSQL; those
registered ``single`` run in one process at a time (``pbem.scheduler.lock``).
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
    # one process at a time reads the mailbox (the others would fetch the same mail)
    register_step("replies", inbox.poll_step, single=True)  # before "mail" sends answers
    register_step("mail", delivery.mail_step)
    # notices in chat apps (issue 27): escalations write notices, then they are posted
    register_step("escalations", escalation.run_step)
    register_step("notices", chat_delivery.notices_step)
    # prune sent bodies after MAIL_RETENTION_DAYS: large deletes, once is enough
    register_step("retention", retention.run_step, single=True)
