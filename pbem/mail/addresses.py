"""The one rule for the addresses pbem mails: every entry point (the create form,
the CLI, substitution, the "my games" form) and the outbox use ``mailable_address``, so an
address accepted when it is typed can always be mailed later.

An address is one plain mailbox whose part before the @ is ASCII: mail to
``jösé@example.org`` needs SMTPUTF8, which pbem's mail path does not use (and many servers
refuse). A domain in another script is kept in its ASCII (IDNA) form. Syntax only: no DNS
look-up is made while a request waits.
"""

from __future__ import annotations

import functools

from email_validator import EmailNotValidError, validate_email

NOT_PLAIN = ",;<>\"() \t\r\n\0"


class UnmailableAddress(ValueError):
    """``message`` says in plain words what is wrong, for the person who typed it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def mailable_address(raw: str, *, what: str = "The email address") -> str:
    """The address as pbem stores and mails it, or ``UnmailableAddress`` saying why not."""
    address = (raw or "").strip()
    if not address:
        raise UnmailableAddress(f"{what} is empty.")
    if any(ch in address for ch in NOT_PLAIN):
        raise UnmailableAddress(
            f"{what} '{address}' must be one plain address such as ana@example.org, "
            "with no name, spaces or commas.")
    local = address.rpartition("@")[0]
    if not local.isascii():
        raise UnmailableAddress(
            f"{what} '{address}' has letters such as accents before the @, which mail "
            "servers may refuse: use an address with plain letters (a-z), digits, dots or "
            "dashes before the @.")
    try:
        return _normalised(address)
    except EmailNotValidError as exc:
        raise UnmailableAddress(f"{what} '{address}' is not a valid email address: {exc}")\
            from None


@functools.lru_cache(maxsize=1024)
def _normalised(address: str) -> str:
    """Cached: the same addresses come back at every hand-over, and the check
    always gives the same answer."""
    result = validate_email(address, check_deliverability=False, allow_smtputf8=False)
    return str(result.ascii_email or result.normalized)


def address_key(raw: str, *, what: str = "The email address") -> str:
    """The form two addresses are compared in (the "my games" look-up): the mailable form,
    case-folded, so ``Ana@Example.org``, ``ana@EXAMPLE.org`` and a domain typed with a
    look-alike such as the Kelvin sign (U+212A, which IDNA maps to ``k``) name one mailbox.
    ``UnmailableAddress`` for what could never be mailed."""
    return mailable_address(raw, what=what).lower()
