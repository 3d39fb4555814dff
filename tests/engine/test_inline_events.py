"""The events every turn, docking, landing, payment and Colonist Hub move makes are built as
dict literals (flow.py, `do_dock`, `rules._land`, payments.py, the Hub's `move`), not by
`events.event`: in real games each must be the very dict `event` builds, its keys in the
same order (the log and mail print them so) and a roll's barrier set."""

from __future__ import annotations

from pbem.engine import apply_in_place, new_game
from pbem.engine.bots import greedy_bot
from pbem.engine.events import event

INLINE = ("turn_started", "rolled", "turn_ended", "docked", "landed", "returned_resources",
          "paid", "gained", "hub_started", "hub_advanced", "launched")


def test_inline_events_are_what_event_builds() -> None:
    seen: set[str] = set()
    for factions in (False, True):
        for seed in range(3):
            state = new_game(4, seed, {"factions": factions})
            rng = [seed, 0]
            for _ in range(400):
                if state.phase == "over":
                    break
                seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
                for ev in apply_in_place(state, greedy_bot(state, seat, rng)):
                    if ev["kind"] not in INLINE:
                        continue
                    seen.add(ev["kind"])
                    data = {k: v for k, v in ev.items() if k not in ("kind", "seat", "barrier")}
                    built = event(ev["kind"], ev["seat"], **data)
                    assert list(ev.items()) == list(built.items())
    assert seen == set(INLINE)
