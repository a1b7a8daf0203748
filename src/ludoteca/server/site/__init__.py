"""The web table as served: the static files, the page of every client-side route, and the app a
phone installs (manifest and service worker)."""
