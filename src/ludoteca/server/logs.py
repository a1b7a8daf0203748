"""Structured logs: one JSON object per line, with an event name and its fields."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

LOGGER = logging.getLogger("ludoteca")


class JsonFormatter(logging.Formatter):
    """``{"ts": ..., "level": ..., "event": ..., **fields}`` per record."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


PROTOCOL_ERRORS = ("Invalid UTF-8", "Invalid HTTP request", "Unsupported upgrade request")


class ProtocolErrorsAsWarnings(logging.Filter):
    """A client speaking broken HTTP or websocket (invalid UTF-8 in a text frame, say) is the
    client's problem: one warning line naming the error, not an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if record.exc_info and message.startswith(PROTOCOL_ERRORS):
            exc = record.exc_info[1]
            record.msg = f"{message.strip()} ({type(exc).__name__}: {str(exc)[:120]})"
            record.args = None
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_protocol_errors() -> None:
    """Install the filter above on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ProtocolErrorsAsWarnings) for f in logger.filters):
        logger.addFilter(ProtocolErrorsAsWarnings())


def configure(level: str = "info") -> None:
    """Send ludoteca's (and uvicorn's) logs to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("ludoteca", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True


def log(event: str, level: int = logging.INFO, **fields: Any) -> None:
    LOGGER.log(level, event, extra={"fields": fields})


def monotonic_ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
