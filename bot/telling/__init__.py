"""What the bot tells a channel or a person: messages composed from records, their delivery, answers and pictures."""
