"""``/dev/mailbox``: every mail the ``dev`` backend "delivered", for playing on one machine.

Registered only when ``MAIL_BACKEND=dev``, and it answers only requests from this machine
(loopback), because the mails hold every seat's turn link: a request that came through a
proxy (``X-Forwarded-For`` / ``Forwarded``, as a tunnel or nginx on this machine adds) is
refused too, since behind one every visitor's address is loopback. Opening the mailbox first
delivers what is due, so a newcomer does not wait for the next scheduler tick. Messages are
listed by recipient; a message page shows the text part (links clickable) and the HTML part as
its own page, whose links are the real absolute links of the mail.

A mail with a reply address (``Reply-To``, when ``INBOUND_ADDRESS`` is set; ``pbem serve``
sets it for the dev backend) has a reply box: what is typed there becomes a mail as a client
writes it (From the recipient, To the reply address, threaded under the mail, the mail quoted
below) and goes in through ``pbem.services.inbox.receive_mail``, the IMAP path's own entry.
"""

from __future__ import annotations

import ipaddress
import re
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import sqlalchemy as sa
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from pbem import clock
from pbem.extensions import db
from pbem.mail.outbound.delivery import deliver_pending
from pbem.models.outbox import SENT, Outbox
from pbem.services import inbox

bp = Blueprint("dev_mailbox", __name__, url_prefix="/dev/mailbox")

PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")
_URL = re.compile(r"https?://[^\s<>\"]+")
# The HTML part as sent: inline styles allowed, nothing else runs or loads.
MAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'"


def is_loopback(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False  # no address, or a unix socket: unknown, so not this machine
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


@bp.before_request
def only_from_this_machine() -> None:
    if not is_loopback(request.remote_addr) or any(
            name in request.headers for name in PROXY_HEADERS):
        abort(404)


def linkify(text: str) -> Markup:
    escaped = str(escape(text))
    return Markup(_URL.sub(lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', escaped))


@bp.get("/")
def index() -> str:
    deliver_pending()
    to = request.args.get("to")
    outcome = request.args.get("outcome")
    query = sa.select(Outbox).where(Outbox.status == SENT).order_by(Outbox.id.desc())
    if to:
        query = query.where(Outbox.to_addr == to)
    messages = db.session.scalars(query.limit(500)).all()
    recipients = db.session.execute(
        sa.select(Outbox.to_addr, sa.func.count()).where(Outbox.status == SENT)
        .group_by(Outbox.to_addr).order_by(Outbox.to_addr)
    ).all()
    return render_template("dev_mailbox/index.html", messages=messages, recipients=recipients,
                           to=to, outcome=outcome)


@bp.get("/<int:message_id>")
def show(message_id: int) -> str:
    row = db.get_or_404(Outbox, message_id)
    return render_template("dev_mailbox/show.html", row=row, text=linkify(row.text_body))


@bp.get("/<int:message_id>/html")
def html(message_id: int) -> Response:
    row = db.get_or_404(Outbox, message_id)
    response = Response(row.html_body or "<p>(no HTML part)</p>", mimetype="text/html")
    response.headers["Content-Security-Policy"] = MAIL_CSP
    return response


def reply_mail(row: Outbox, text: str) -> bytes:
    """The reply a mail client writes to ``row``: the typed text above the quoted mail."""
    msg = EmailMessage()
    msg["From"] = row.to_addr
    msg["To"] = str(row.headers["Reply-To"])
    msg["Subject"] = f"Re: {row.subject}"
    msg["Message-ID"] = make_msgid(domain="dev-mailbox.localhost")
    msg["Date"] = format_datetime(clock.now())
    msg["In-Reply-To"] = row.message_id
    msg["References"] = " ".join(
        part for part in (str(row.headers.get("References", "")), row.message_id) if part)
    sent = row.sent_at.strftime("%a, %d %b %Y at %H:%M") if row.sent_at else "earlier"
    quoted = "\n".join(f"> {line}" for line in row.text_body.splitlines())
    msg.set_content(f"{text.strip()}\n\nOn {sent}, {row.headers.get('From', 'pbem')} wrote:\n"
                    f"{quoted}\n")
    return msg.as_bytes()


@bp.post("/<int:message_id>/reply")
def reply(message_id: int) -> ResponseReturnValue:
    row = db.get_or_404(Outbox, message_id)
    if not row.headers.get("Reply-To"):
        abort(404)
    outcome = inbox.receive_mail(reply_mail(row, request.form.get("text", "")[:20_000]))
    return redirect(url_for("dev_mailbox.index", to=row.to_addr, outcome=outcome), code=303)
