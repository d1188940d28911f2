"""The offline Discord stand-in the bot's tests drive; it lives in the product (:mod:`bot.discord.offline`)
so the benchmarks can use it too."""

from bot.discord.offline import (
    ALL_PERMS,
    APP_ID,
    BOT_ID,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    MANAGE_CHANNELS,
    MEMBER_PERMS,
    DiscordHarness,
    Sent,
    answer,
    pressed_edit,
    shown,
    snowflake,
    user_payload,
)

__all__ = ["ALL_PERMS", "APP_ID", "BOT_ID", "CHANNEL_ID", "EPHEMERAL", "GUILD_ID", "MANAGE_CHANNELS", "MEMBER_PERMS",
           "DiscordHarness", "Sent", "answer", "pressed_edit", "shown", "snowflake", "user_payload"]
