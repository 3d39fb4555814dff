"""Mail: compose (templates) + outbox (same transaction) + delivery (SMTP / console / dev).

Services call the hooks in ``pbem.mail.notify`` inside their transaction; those compose with
``pbem.mail.compose`` and add rows with ``pbem.mail.outbox.enqueue``. The scheduler step
``mail`` (``pbem.mail.delivery.deliver_pending``) sends what is due. See docs/mail.md.
"""
