"""Play against an agent: the session, the terminal game, replays and the web server."""
