# The bot image: Python, Debian's Chromium and the clubman package.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BROWSER__EXECUTABLE=/usr/bin/chromium \
    DATA_DIR=/data

RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-dejavu-core ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY app ./app
COPY adapters ./adapters
COPY bot ./bot
COPY core ./core
COPY mcpserver ./mcpserver
COPY scenarios ./scenarios
COPY storage ./storage
COPY portal ./portal
COPY profiles ./profiles
RUN pip install -c constraints.txt .

RUN useradd --create-home --uid 1000 clubman && mkdir -p /data && chown clubman /data
USER clubman
VOLUME ["/data"]

CMD ["clubman", "run"]
