"""Mail, by direction: ``outbound`` (compose from templates, the outbox in the caller's
transaction, delivery over SMTP / an HTTPS API / console / dev) and ``inbound`` (replies read
over IMAP or a provider's webhook, normalised). What both use sits here: ``addresses`` (the
one rule for a mailable address) and ``reply_address`` (``play+<token>@domain``).

Services call the hooks in ``pbem.mail.outbound.notify`` inside their transaction; those
compose with ``pbem.mail.outbound.compose`` and add rows with
``pbem.mail.outbound.outbox.enqueue``. The scheduler step ``mail``
(``pbem.mail.outbound.delivery.deliver_pending``) sends what is due. See docs/mail.md.
"""
