"""marshmallow schemas for every request body the server reads (forms and the JSON API)."""
