"""The home page and the headers every response carries."""

from __future__ import annotations

from flask.testing import FlaskClient

from pbem.app import CONTENT_SECURITY_POLICY


def test_home_page_says_what_pbem_is(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Alien Frontiers" in page
    assert "by email" in page


def test_every_response_carries_the_security_headers(client: FlaskClient) -> None:
    for path in ("/", "/healthz", "/no-such-page"):
        headers = client.get(path).headers
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_no_hsts_and_no_https_redirect_in_development(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response.headers
