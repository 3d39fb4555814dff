"""Outbound mail: what pbem sends, from composing a mail to its delivery and the outbox's
upkeep (failures, retention). Nothing here reads received mail (``pbem.mail.inbound``).
"""
