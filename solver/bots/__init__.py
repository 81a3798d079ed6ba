"""Bots that play a solved strategy: the lookup bots (heads-up no-limit and N-player limit) and the
export of a bot as a folder for the official MIT Pokerbots engines."""
