"""Several server processes serving one set of tables (``docs/cluster.md``): notices and the
``Cluster`` protocol, leases and notices in Redis with their Lua scripts, and the checks a process
makes of the deployment it is part of (its clock, the Redis prefix)."""

from .base import Cluster, Handler, Notice, NoticeKind, Solo
from .checks import Watch, storage_label
from .redis_leases import open_cluster

__all__ = [
    "Cluster",
    "Handler",
    "Notice",
    "NoticeKind",
    "Solo",
    "Watch",
    "open_cluster",
    "storage_label",
]
