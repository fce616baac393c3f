"""The public side: read-only pages a director publishes (schedule, standings, bracket, results), find my
seat, the beamer, and the round clock — for phones in the hall and the projector on the wall.

Game-specific content comes from the game's `public` hook (`content.PublicContent`); this package never
branches on a game's key.
"""
