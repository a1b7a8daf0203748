"""Server settings, from the command line or ``LUDOTECA_*`` environment variables.

Every ``LUDOTECA_*`` variable that is a server setting is read here and nowhere else: the
``Settings`` (``Settings.from_env``) and, for the defaults the ``ludoteca`` command shows and uses
(``serve``, ``db``, ``keys``), one function each below. Two variables are not server settings and
are read where they act, by every command alike: ``LUDOTECA_GAMES`` (``ludoteca.games``: games
kept outside ludoteca) and ``LUDOTECA_PURE`` (``ludoteca.native``: the rules as pure Python).
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(spec: str) -> list[Network] | None:
    """The proxies of ``LUDOTECA_FORWARDED_ALLOW_IPS`` as networks (None for ``*``: any); raises
    ValueError for an item that is neither an address nor a network."""
    networks: list[Network] = []
    for item in (part.strip() for part in spec.split(",")):
        if item == "*":
            return None
        if item:
            networks.append(ipaddress.ip_network(item, strict=False))
    return networks


def _float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 1
DEFAULT_DB = "sqlite:///var/ludoteca.sqlite3"
DEFAULT_KEYS = "var/keys"
DEFAULT_NOTIFY_KEYS = "var/notify-keys"


# The defaults of ``ludoteca serve``'s options. Numbers are returned as the variable's text: the
# command line parses them as it parses the option, so a bad value is one clear usage error.
def listen_host() -> str:
    """Where the server listens: ``LUDOTECA_HOST``, else this machine only."""
    return os.environ.get("LUDOTECA_HOST", DEFAULT_HOST)


def listen_port() -> str:
    """The port the server listens on: ``LUDOTECA_PORT``, else 8000."""
    return os.environ.get("LUDOTECA_PORT", str(DEFAULT_PORT))


def worker_processes() -> str:
    """Server processes on one address: ``LUDOTECA_WORKERS``, else 1."""
    return os.environ.get("LUDOTECA_WORKERS", str(DEFAULT_WORKERS))


def database_url() -> str:
    """The database: ``LUDOTECA_DB``, else the SQLite file under ./var."""
    return os.environ.get("LUDOTECA_DB") or DEFAULT_DB


def redis_address() -> str | None:
    """The Redis that server processes share: ``LUDOTECA_REDIS``, else none."""
    return os.environ.get("LUDOTECA_REDIS") or None


def keys_folder() -> str:
    """The record-signing key folder: ``LUDOTECA_KEYS``, else var/keys."""
    return os.environ.get("LUDOTECA_KEYS", DEFAULT_KEYS)


def log_format_choice() -> str:
    """``LUDOTECA_LOG_FORMAT`` as given, lower case ("" when unset: the logs choose)."""
    return os.environ.get("LUDOTECA_LOG_FORMAT", "").strip().lower()


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = DEFAULT_DB
    bot_delay: float = 0.8  # seconds a bot waits before acting, so people can follow
    away_grace: float = 5.0  # seconds the table waits for a seat that is away
    table_level: str = "medium"  # the bot that plays for a seat whose clock ran out
    fill_level: str = "medium"  # the bot that takes an empty seat at the start
    default_turn_seconds: int = 60
    min_turn_seconds: int = 5
    max_turn_seconds: int = 3600
    max_message_bytes: int = 4096  # one websocket message from a client
    rate_per_second: float = 10.0  # websocket messages per connection, sustained
    rate_burst: int = 20
    hello_timeout: float = 10.0  # counted from the moment the connection opened
    bot_processes: int = 1  # worker processes for searching bots
    # what one client (address) and the whole process may hold
    max_body_bytes: int = 64 * 1024  # an HTTP request body (413 beyond)
    max_record_bytes: int = 1024 * 1024  # a match record sent to /api/verify or /api/replay
    max_connections: int = 2000  # websockets open in this process
    max_connections_per_client: int = 64
    max_pending_replies: int = 64  # replies queued for a client that does not read: then 1013
    max_pending_tables: int = 1000  # lobby-feed changes queued for a slow reader: then 1013
    max_dropped_messages: int = 200  # messages over the rate dropped in a row: then 1008
    max_open_tables_per_client: int = 20
    max_live_tables: int = 10_000  # open and playing tables in memory (503 beyond)
    max_finished_tables: int = 200  # finished tables kept in memory (the oldest leave first)
    finished_grace: float = 60.0  # seconds a finished table stays in memory after its last move
    open_table_ttl: float = 30 * 60.0  # seconds an open table waits for someone to join
    sweep_seconds: float = 15.0  # how often expired and finished tables are swept
    page_size: int = 50  # tables per page of the lobby listing and the lobby feed
    # rate limits per client address ("N/second|minute|hour"), memory or Redis
    limit_create: str = "60/minute"
    limit_join: str = "60/minute"
    limit_start: str = "60/minute"
    limit_websocket: str = "240/minute"
    # accounts (docs/accounts.md): sign-in attempts per address; password attempts for a name
    # from one address (or one device that signed in as it before), and from every device it
    # does not know; sign-ups per address; how long a session lasts unused (idle) and at most
    limit_login: str = "30/minute"
    limit_login_pair: str = "10/hour"
    limit_login_account: str = "50/hour"
    limit_signup: str = "20/hour"
    session_idle_seconds: float = 14 * 24 * 3600.0
    session_max_seconds: float = 60 * 24 * 3600.0
    rating_poll_seconds: float = 1.0  # how often rated tables that finished are looked for
    # several processes as one server: limits, table leases and notices in Redis (LUDOTECA_REDIS)
    redis_url: str | None = None
    # the address devices on the network use (``serve --host 0.0.0.0`` sets it): invites made
    # from a browser on this machine (localhost) name it
    share_url: str | None = None
    redis_prefix: str = "ludoteca"  # keys and channel names (LUDOTECA_REDIS_PREFIX)
    lease_seconds: float = 3.0  # a driving lease not renewed this long lapses to another process
    limits_timeout: float = 0.5  # a rate-limit check waits this long for Redis, then lets by
    clock_tolerance: float = 2.0  # seconds a process's clock may differ from the database's
    # uvicorn
    ws_max_frame_bytes: int = 64 * 1024
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    limit_concurrency: int = 4000
    # an HTTP request's headers and body must arrive in time; one address holds so many at once
    header_timeout: float = 10.0  # from the connection (or the request's first byte)
    body_timeout: float = 30.0  # from the end of the headers
    max_http_per_client: int = 256  # open HTTP connections per address (a proxy's: unlimited)
    flood_cooldown: float = 30.0  # an address closed for flooding opens no websocket this long
    # the proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated
    # addresses or networks, "*" for any; none by default): behind nginx, nginx's address
    forwarded_allow_ips: str = ""
    contribution_seconds: float = 10.0  # how long a start waits for commitments, then reveals
    # turn-based tables (docs/turn-based.md): the time per move and the reserve a table may
    # choose, timeouts in a row before a bot takes the seat, how often due tables are looked for
    # and the duty of firing them (a lease in Redis: whoever holds it fires every deadline)
    min_turn_based_seconds: int = 3600
    max_turn_based_seconds: int = 7 * 24 * 3600
    max_reserve_seconds: int = 7 * 24 * 3600
    takeover_after: int = 3
    aborts_per_day: int = 3  # aborts a person may make in 24 hours (docs/protocol.md#aborting)
    deadline_poll: float = 0.5
    deadline_batch: int = 200
    duty_seconds: float = 1.0
    keys_dir: str | None = None  # the record-signing keys (None: one key for this process only)
    # the analysis of finished matches (docs/analysis.md): searching worker processes per server
    # process (0: none), search iterations per decision, how often the queue is looked at for
    # jobs of other processes, and after how long a job whose worker died is taken again
    analysis_workers: int = 1
    analysis_iterations: int = 400
    analysis_poll_seconds: float = 5.0
    analysis_stale_seconds: float = 900.0
    # "your turn" notifications at turn-based tables (docs/turn-based.md): both off by default
    push: bool = False  # web push (LUDOTECA_PUSH=1)
    # the VAPID key and the secret of unsubscribe links (None: for this process only)
    notify_keys_dir: str | None = None
    push_contact: str = "mailto:admin@localhost"  # who push services may write to (VAPID "sub")
    # the push services' hosts a subscription may name (a host or ".suffix"); nothing else is
    # ever asked for, so a subscription cannot make the server call an address of its choosing.
    # Chrome's (FCM), Firefox's, Safari's, and Edge's on Windows (WNS, whose hosts are many)
    push_hosts: str = (
        "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,"
        ".notify.windows.com"
    )
    push_allow_loopback: bool = False  # also http://127.0.0.1:PORT (tests only)
    smtp_host: str | None = None  # e-mail on when set (LUDOTECA_SMTP_HOST)
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_tls: str = "starttls"  # "starttls", "tls" (implicit, port 465) or "none"
    mail_from: str = "ludoteca <noreply@localhost>"
    public_url: str | None = None  # the address links in mail and notifications name
    limit_notify: str = "60/hour"  # subscriptions and unsubscriptions per address
    limit_notify_mail: str = "5/hour"  # confirmation mails per account and per address
    limit_reset: str = "20/hour"  # password resets asked for per client address
    limit_reset_mail: str = "3/hour"  # per name or e-mail address asked for, and per account
    limit_seats: str = "300/minute"  # "my tables" questions per address (each reads up to 50)
    limit_chat: str = "20/minute"  # chat messages per person (account, seat, or address)
    notify_queue: int = 10_000  # notifications waiting to be sent (beyond: dropped, logged)

    def problems(self) -> list[str]:
        """What is wrong with these settings, in words (empty when nothing is): checked before
        serving, so a bad value is one clear line, not a traceback or a server that misbehaves."""
        found = []
        at_least = {
            "LUDOTECA_LEASE_SECONDS": (self.lease_seconds, 0.5),
            "LUDOTECA_LIMITS_TIMEOUT": (self.limits_timeout, 0.05),
            "LUDOTECA_CLOCK_TOLERANCE": (self.clock_tolerance, 0.1),
            "LUDOTECA_MAX_CONNECTIONS": (self.max_connections, 1),
            "LUDOTECA_MAX_CONNECTIONS_PER_CLIENT": (self.max_connections_per_client, 1),
            "LUDOTECA_MAX_OPEN_TABLES_PER_CLIENT": (self.max_open_tables_per_client, 1),
            "LUDOTECA_LIMIT_CONCURRENCY": (self.limit_concurrency, 1),
            "LUDOTECA_HEADER_TIMEOUT": (self.header_timeout, 0.1),
            "LUDOTECA_BODY_TIMEOUT": (self.body_timeout, 0.1),
            "LUDOTECA_MAX_HTTP_PER_CLIENT": (self.max_http_per_client, 1),
            "LUDOTECA_FLOOD_COOLDOWN": (self.flood_cooldown, 0),
            "LUDOTECA_RATE": (self.rate_per_second, 0.1),
            "LUDOTECA_RATE_BURST": (self.rate_burst, 1),
            "LUDOTECA_BOT_DELAY": (self.bot_delay, 0),
            "LUDOTECA_AWAY_GRACE": (self.away_grace, 0),
            "LUDOTECA_CONTRIBUTION_SECONDS": (self.contribution_seconds, 0),
            "LUDOTECA_OPEN_TABLE_TTL": (self.open_table_ttl, 1),
            "LUDOTECA_BOT_PROCESSES": (self.bot_processes, 1),
            "LUDOTECA_ANALYSIS_WORKERS": (self.analysis_workers, 0),
            "LUDOTECA_ANALYSIS_ITERATIONS": (self.analysis_iterations, 1),
            "LUDOTECA_ANALYSIS_POLL": (self.analysis_poll_seconds, 0.1),
            "LUDOTECA_ANALYSIS_STALE": (self.analysis_stale_seconds, 1),
            "LUDOTECA_MIN_TURN_SECONDS": (self.min_turn_seconds, 1),
            "LUDOTECA_MIN_TURN_BASED_SECONDS": (self.min_turn_based_seconds, 1),
            "LUDOTECA_TAKEOVER_AFTER": (self.takeover_after, 1),
            "LUDOTECA_ABORTS_PER_DAY": (self.aborts_per_day, 0),
            "LUDOTECA_DEADLINE_POLL": (self.deadline_poll, 0.05),
            "LUDOTECA_DUTY_SECONDS": (self.duty_seconds, 0.5),
            "LUDOTECA_SESSION_IDLE": (self.session_idle_seconds, 60),
            "LUDOTECA_SESSION_MAX": (self.session_max_seconds, 60),
            "LUDOTECA_NOTIFY_QUEUE": (self.notify_queue, 1),
        }
        for name, (value, least) in at_least.items():
            if value < least:
                found.append(f"{name} must be at least {least}, not {value}")
        if not self.min_turn_seconds <= self.default_turn_seconds <= self.max_turn_seconds:
            found.append(
                f"LUDOTECA_TURN_SECONDS must be between {self.min_turn_seconds} and "
                f"{self.max_turn_seconds}, not {self.default_turn_seconds}"
            )
        for name, limit in (
            ("LUDOTECA_LIMIT_CREATE", self.limit_create),
            ("LUDOTECA_LIMIT_JOIN", self.limit_join),
            ("LUDOTECA_LIMIT_START", self.limit_start),
            ("LUDOTECA_LIMIT_WEBSOCKET", self.limit_websocket),
            ("LUDOTECA_LIMIT_LOGIN", self.limit_login),
            ("LUDOTECA_LIMIT_LOGIN_PAIR", self.limit_login_pair),
            ("LUDOTECA_LIMIT_LOGIN_ACCOUNT", self.limit_login_account),
            ("LUDOTECA_LIMIT_SIGNUP", self.limit_signup),
            ("LUDOTECA_LIMIT_NOTIFY", self.limit_notify),
            ("LUDOTECA_LIMIT_NOTIFY_MAIL", self.limit_notify_mail),
            ("LUDOTECA_LIMIT_RESET", self.limit_reset),
            ("LUDOTECA_LIMIT_RESET_MAIL", self.limit_reset_mail),
            ("LUDOTECA_LIMIT_SEATS", self.limit_seats),
            ("LUDOTECA_LIMIT_CHAT", self.limit_chat),
        ):
            if not re.fullmatch(r"\s*\d+\s*/\s*(second|minute|hour|day)\s*", limit):
                found.append(
                    f"{name} is 'N/second', 'N/minute', 'N/hour' or 'N/day', not {limit!r}"
                )
        if self.redis_url and not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            found.append(
                f"the Redis address is redis://HOST:PORT/DB (or rediss://, unix://), "
                f"not {self.redis_url!r}"
            )
        try:
            trusted_networks(self.forwarded_allow_ips)
        except ValueError as exc:
            found.append(f"LUDOTECA_FORWARDED_ALLOW_IPS: {exc}")
        if self.smtp_tls not in ("starttls", "tls", "none"):
            found.append(f"LUDOTECA_SMTP_TLS is starttls, tls or none, not {self.smtp_tls!r}")
        if self.push and not self.push_contact.startswith(("mailto:", "https://")):
            found.append(f"LUDOTECA_PUSH_CONTACT is mailto: or https:, not {self.push_contact!r}")
        if self.smtp_host and not self.public_url:
            found.append("LUDOTECA_SMTP_HOST needs LUDOTECA_PUBLIC_URL: mail links name it")
        if self.public_url and not self.public_url.startswith(("http://", "https://")):
            found.append(f"LUDOTECA_PUBLIC_URL is http(s)://HOST[:PORT], not {self.public_url!r}")
        return found

    @classmethod
    def from_env(cls, db_url: str | None = None, redis_url: str | None = None) -> Settings:
        base = cls()
        env = os.environ.get
        return cls(
            db_url=db_url or database_url(),
            bot_delay=_float("LUDOTECA_BOT_DELAY", base.bot_delay),
            away_grace=_float("LUDOTECA_AWAY_GRACE", base.away_grace),
            default_turn_seconds=_int("LUDOTECA_TURN_SECONDS", base.default_turn_seconds),
            min_turn_seconds=_int("LUDOTECA_MIN_TURN_SECONDS", base.min_turn_seconds),
            rate_per_second=_float("LUDOTECA_RATE", base.rate_per_second),
            rate_burst=_int("LUDOTECA_RATE_BURST", base.rate_burst),
            bot_processes=_int("LUDOTECA_BOT_PROCESSES", base.bot_processes),
            redis_url=redis_url or redis_address(),
            redis_prefix=env("LUDOTECA_REDIS_PREFIX") or base.redis_prefix,
            lease_seconds=_float("LUDOTECA_LEASE_SECONDS", base.lease_seconds),
            limits_timeout=_float("LUDOTECA_LIMITS_TIMEOUT", base.limits_timeout),
            clock_tolerance=_float("LUDOTECA_CLOCK_TOLERANCE", base.clock_tolerance),
            open_table_ttl=_float("LUDOTECA_OPEN_TABLE_TTL", base.open_table_ttl),
            max_connections=_int("LUDOTECA_MAX_CONNECTIONS", base.max_connections),
            max_connections_per_client=_int(
                "LUDOTECA_MAX_CONNECTIONS_PER_CLIENT", base.max_connections_per_client
            ),
            max_open_tables_per_client=_int(
                "LUDOTECA_MAX_OPEN_TABLES_PER_CLIENT", base.max_open_tables_per_client
            ),
            limit_create=env("LUDOTECA_LIMIT_CREATE") or base.limit_create,
            limit_join=env("LUDOTECA_LIMIT_JOIN") or base.limit_join,
            limit_start=env("LUDOTECA_LIMIT_START") or base.limit_start,
            limit_websocket=env("LUDOTECA_LIMIT_WEBSOCKET") or base.limit_websocket,
            limit_login=env("LUDOTECA_LIMIT_LOGIN") or base.limit_login,
            limit_login_pair=env("LUDOTECA_LIMIT_LOGIN_PAIR") or base.limit_login_pair,
            limit_login_account=env("LUDOTECA_LIMIT_LOGIN_ACCOUNT") or base.limit_login_account,
            limit_signup=env("LUDOTECA_LIMIT_SIGNUP") or base.limit_signup,
            session_idle_seconds=_float("LUDOTECA_SESSION_IDLE", base.session_idle_seconds),
            session_max_seconds=_float("LUDOTECA_SESSION_MAX", base.session_max_seconds),
            limit_concurrency=_int("LUDOTECA_LIMIT_CONCURRENCY", base.limit_concurrency),
            header_timeout=_float("LUDOTECA_HEADER_TIMEOUT", base.header_timeout),
            body_timeout=_float("LUDOTECA_BODY_TIMEOUT", base.body_timeout),
            max_http_per_client=_int("LUDOTECA_MAX_HTTP_PER_CLIENT", base.max_http_per_client),
            flood_cooldown=_float("LUDOTECA_FLOOD_COOLDOWN", base.flood_cooldown),
            forwarded_allow_ips=env("LUDOTECA_FORWARDED_ALLOW_IPS") or base.forwarded_allow_ips,
            contribution_seconds=_float("LUDOTECA_CONTRIBUTION_SECONDS", base.contribution_seconds),
            keys_dir=keys_folder(),
            share_url=env("LUDOTECA_SHARE_URL") or None,
            analysis_workers=_int("LUDOTECA_ANALYSIS_WORKERS", base.analysis_workers),
            analysis_iterations=_int("LUDOTECA_ANALYSIS_ITERATIONS", base.analysis_iterations),
            analysis_poll_seconds=_float("LUDOTECA_ANALYSIS_POLL", base.analysis_poll_seconds),
            analysis_stale_seconds=_float("LUDOTECA_ANALYSIS_STALE", base.analysis_stale_seconds),
            push=_flag("LUDOTECA_PUSH"),
            notify_keys_dir=os.environ.get("LUDOTECA_NOTIFY_KEYS", DEFAULT_NOTIFY_KEYS),
            push_contact=env("LUDOTECA_PUSH_CONTACT") or base.push_contact,
            push_hosts=env("LUDOTECA_PUSH_HOSTS") or base.push_hosts,
            push_allow_loopback=_flag("LUDOTECA_PUSH_ALLOW_LOOPBACK"),
            smtp_host=env("LUDOTECA_SMTP_HOST") or None,
            smtp_port=_int("LUDOTECA_SMTP_PORT", base.smtp_port),
            smtp_user=env("LUDOTECA_SMTP_USER") or None,
            smtp_password=env("LUDOTECA_SMTP_PASSWORD") or None,
            smtp_tls=env("LUDOTECA_SMTP_TLS") or base.smtp_tls,
            mail_from=env("LUDOTECA_MAIL_FROM") or base.mail_from,
            public_url=env("LUDOTECA_PUBLIC_URL") or None,
            limit_notify=env("LUDOTECA_LIMIT_NOTIFY") or base.limit_notify,
            limit_notify_mail=env("LUDOTECA_LIMIT_NOTIFY_MAIL") or base.limit_notify_mail,
            limit_reset=env("LUDOTECA_LIMIT_RESET") or base.limit_reset,
            limit_reset_mail=env("LUDOTECA_LIMIT_RESET_MAIL") or base.limit_reset_mail,
            notify_queue=_int("LUDOTECA_NOTIFY_QUEUE", base.notify_queue),
            limit_seats=env("LUDOTECA_LIMIT_SEATS") or base.limit_seats,
            limit_chat=env("LUDOTECA_LIMIT_CHAT") or base.limit_chat,
            min_turn_based_seconds=_int(
                "LUDOTECA_MIN_TURN_BASED_SECONDS", base.min_turn_based_seconds
            ),
            takeover_after=_int("LUDOTECA_TAKEOVER_AFTER", base.takeover_after),
            aborts_per_day=_int("LUDOTECA_ABORTS_PER_DAY", base.aborts_per_day),
            deadline_poll=_float("LUDOTECA_DEADLINE_POLL", base.deadline_poll),
            duty_seconds=_float("LUDOTECA_DUTY_SECONDS", base.duty_seconds),
        )
