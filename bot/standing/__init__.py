"""The record of finished games: history, ratings, ladders and championships."""
