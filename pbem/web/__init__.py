"""The web layer, by role: ``blueprints`` (each module one Blueprint and its views: parse
input, call a service, render or redirect) over ``presenters`` (pure or read-only: turn a
view and service data into what a template shows) and ``ratelimit`` (the app's limits).

``pbem.web.blueprints.blueprints(config)`` is the single list the app factory registers.
"""
