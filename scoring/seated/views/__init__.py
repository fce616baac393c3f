"""The seated games' pages: `base` (what every page of a seated game is), `pages` (overview, settings,
seating, substitutes, fixed tables, starting a round)."""
