"""Logs, one line per record with an event name and its fields: JSON (for a log collector), or
readable text when a person watches the terminal.

``LUDOTECA_LOG_FORMAT`` chooses (``json`` or ``text``); by default text when standard error is a
terminal and JSON otherwise."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from .config import log_format_choice

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


class TextFormatter(logging.Formatter):
    """``12:04:31 info  table_created game=<id> table=Q9W1`` per record: the time, the level,
    the event and its fields, a traceback below when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created))
        parts = [stamp, f"{record.levelname.lower():<7}", record.getMessage()]
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            parts.extend(f"{key}={_text(value)}" for key, value in fields.items())
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def _text(value: Any) -> str:
    """A field's value as one word: a string quoted when it holds spaces (or is empty), other
    values as compact JSON."""
    if isinstance(value, str):
        plain = value and not any(c.isspace() or c in '"=' for c in value)
        return value if plain else json.dumps(value)
    return json.dumps(value, default=str, separators=(",", ":"))


LOG_FORMATS = ("json", "text")


def log_format(stream: Any = None) -> str:
    """``LUDOTECA_LOG_FORMAT`` if set, else text on a terminal and JSON elsewhere."""
    chosen = log_format_choice()
    if chosen:
        if chosen not in LOG_FORMATS:
            raise ValueError(f"LUDOTECA_LOG_FORMAT is json or text, not {chosen!r}")
        return chosen
    stream = stream if stream is not None else sys.stderr
    return "text" if getattr(stream, "isatty", lambda: False)() else "json"


class OneAddress(logging.Filter):
    """``ludoteca serve`` prints the one address to open; uvicorn's own "running on" line (the
    bound address, 0.0.0.0 or 127.0.0.1) would be a second one."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Uvicorn running on")


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
    """Send ludoteca's (and uvicorn's) logs to stderr, one line each, in ``log_format()``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TextFormatter() if log_format() == "text" else JsonFormatter())
    handler.addFilter(OneAddress())
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
