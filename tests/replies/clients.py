"""Reply bodies as real mail clients write them: the new lines on top, then the client's own
quote header and quoted text (or signature). ``{moves}`` is where the player's lines go."""

from __future__ import annotations

GMAIL = """{moves}

On Tue, Dec 1, 2026 at 10:02 AM Alien Frontiers <play+1-0-0-abc@pbem.test> wrote:

> Hi Ana, it's your turn in 2-seat test (round 1).
> dock 6 6 shipyard
> end
"""

OUTLOOK = """{moves}

________________________________
From: Alien Frontiers <pbem@pbem.test>
Sent: Tuesday, December 1, 2026 10:02 AM
To: Ana <ana@example.org>
Subject: 2-seat test

Hi Ana, it's your turn in 2-seat test (round 1).
dock 6 6 shipyard
"""

APPLE_MAIL = """{moves}

Sent from my iPhone

> On 1 Dec 2026, at 10:02, Alien Frontiers <play+1-0-0-abc@pbem.test> wrote:
>
> Hi Ana, it's your turn in 2-seat test (round 1).
> dock 6 6 shipyard
"""

PORTUGUESE_GMAIL = """{moves}

Em ter., 1 de dez. de 2026 às 10:02, Alien Frontiers <
play+1-0-0-abc@pbem.test> escreveu:

> Olá Ana, é a sua vez.
> dock 6 6 shipyard
"""

PORTUGUESE_OUTLOOK = """{moves}

________________________________
De: Alien Frontiers <pbem@pbem.test>
Enviado: terça-feira, 1 de dezembro de 2026 10:02
Para: Ana <ana@example.org>
Assunto: 2-seat test

dock 6 6 shipyard
"""

SIGNATURE = """{moves}

--
Ana Example
dock 6 6 shipyard is what I'd never play
"""

HTML_ONLY = """<div dir="ltr">{html_moves}</div><br><div class="gmail_quote"><div dir="ltr"
class="gmail_attr">On Tue, Dec 1, 2026 at 10:02 AM Alien Frontiers &lt;play@pbem.test&gt;
wrote:<br></div><blockquote class="gmail_quote" style="margin:0px">Hi Ana<br>dock 6 6
shipyard<br>end</blockquote></div>"""

FORWARDED = """{moves}

---------- Forwarded message ---------
From: Alien Frontiers <pbem@pbem.test>
Date: Tue, Dec 1, 2026 at 10:02 AM
Subject: 2-seat test
To: <ana@example.org>
"""

OUT_OF_OFFICE = """I am out of the office until Monday with no access to mail.
dock 6 6 shipyard
end
"""

QUOTED = {"gmail": GMAIL, "outlook": OUTLOOK, "apple_mail": APPLE_MAIL,
          "portuguese_gmail": PORTUGUESE_GMAIL, "portuguese_outlook": PORTUGUESE_OUTLOOK,
          "signature": SIGNATURE}
