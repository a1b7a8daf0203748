"""The websockets: a seat, a spectator or a lobby page following open tables, each with its
bounded outbox."""
