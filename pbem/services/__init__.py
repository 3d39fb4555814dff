"""Use cases, one transaction each: create a game, submit an action, undo, resign…

Services raise ``pbem.services.errors.ServiceError`` subclasses or the engine's
``RulesError``; ``pbem.web.blueprints.errors`` turns both into responses in one place.
"""
