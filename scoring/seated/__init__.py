"""The seated games' one layer: what Schafkopf and the table games share.

A seated game seats players at numbered tables in rounds drawn in advance, one score sheet per table and
round. Everything such a game shares lives here once — read queries, services (settings, the one seating
draw, starting rounds, substitutes, fixed tables, the after-sheet hook), the standings loader and row
base, the season hook, the settings checks, the director's pages, phone and public pages, one URLconf
mounted per game. A game supplies a `SeatedGame` (`scoring.seated.game`): its settings, rules glue, grid,
standings and its own printouts.
"""
