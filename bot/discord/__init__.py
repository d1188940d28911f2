"""The Discord front end: translates interactions into service calls and replies into messages."""

from bot.discord.client import JunkyardBot

__all__ = ["JunkyardBot"]
