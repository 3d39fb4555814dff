"""The presenters: what the pages show, computed from a view and service data (the board
picture, the turn page's groups and panels, read-only queries). No Blueprint, no view, no
write: the blueprints call them and render the result.
"""
