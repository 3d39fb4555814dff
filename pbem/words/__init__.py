"""Player-facing words: names, event sentences, action labels, the glossary.

The one home of the English that pages and mail show. It reads the engine only (ids, events,
previews); pages and mail import it, never the other way round.
"""
