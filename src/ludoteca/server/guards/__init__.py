"""What one client may ask of the server: rate limits, connection caps and body sizes, and the
guards uvicorn lacks between the socket and the app."""
