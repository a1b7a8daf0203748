"""What one client may ask of the server: rate limits, connection caps and body sizes, and the
guards uvicorn lacks between the socket and the app."""

from .limits import BodySizeLimit, ConnectionCaps, RateLimits, StrictJSONBodies
from .transport import uvicorn_protocols

__all__ = ["BodySizeLimit", "ConnectionCaps", "RateLimits", "StrictJSONBodies", "uvicorn_protocols"]
