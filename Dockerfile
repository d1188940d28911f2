FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-dejavu-extra \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 junkyard
WORKDIR /app
# The packages exactly as locked (a layer of their own, kept while only the code changes), then the bot.
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY render ./render
RUN pip install --no-cache-dir --no-deps .

# The database: a SQLite file on the /data volume by default; a postgresql://user:password@host/db URL in
# JUNKYARD_DB (docker run -e JUNKYARD_DB=…) shares one PostgreSQL database between several bot processes.
ENV JUNKYARD_DB=/data/junkyard.db
RUN mkdir -p /data && chown junkyard:junkyard /data
VOLUME ["/data"]
USER junkyard

# The web pages, when asked for: junkyard bot --web 0.0.0.0:8080 (publish it: docker run -p 8080:8080).
EXPOSE 8080

# DISCORD_TOKEN comes from the environment at run time (docker run -e DISCORD_TOKEN=…).
CMD ["junkyard", "bot"]
