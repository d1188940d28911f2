"""The move path: the service, lobby, moves, computers, plans, take-backs and what a player reads."""
