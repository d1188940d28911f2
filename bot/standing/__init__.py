"""The record of finished games: history, ratings and ladders."""
