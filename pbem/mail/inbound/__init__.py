"""Inbound mail: replies received at the reply address, read over IMAP (``imap``) or handed
over by a provider's webhook, normalised into one ``received.Inbound``. Nothing here sends
(the answer to a reply is outbound: ``pbem.mail.outbound.answers``).
"""
