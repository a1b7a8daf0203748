"""The HTTP and websocket surface of the server, one router per part of the lobby."""
