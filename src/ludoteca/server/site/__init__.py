"""The web table as served: the static files, the page of every client-side route, and the app a
phone installs (manifest and service worker)."""

from .pages import mount_web, web_root
from .pwa import mount_app_shell

__all__ = ["mount_app_shell", "mount_web", "web_root"]
