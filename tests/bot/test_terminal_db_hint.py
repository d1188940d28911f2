"""The terminal's hint where a game is stored (and how to replay it) never prints a database password."""

from __future__ import annotations

from bot.terminal import shown_db


def test_a_postgresql_url_is_shown_with_its_password_masked() -> None:
    assert shown_db("postgresql://gm:s3cret@db.example:5432/junkyard") == "postgresql://gm:***@db.example:5432/junkyard"
    assert "s3cret" not in shown_db("postgres://gm:s3cret@localhost/junkyard")


def test_a_file_or_a_url_without_password_is_shown_as_it_is() -> None:
    assert shown_db("/tmp/play.db") == "/tmp/play.db"
    assert shown_db("postgresql://localhost/junkyard") == "postgresql://localhost/junkyard"
