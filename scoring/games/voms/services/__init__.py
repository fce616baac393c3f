"""Voms at the referee table, one module per concern: settings, teams, pools (the draw and schedule), slips
(pool games), knockout (series), progress (what is entered and what is missing), withdrawal (a team leaving early).

Each function is one operation: it checks who asks, runs in a transaction, writes the audit log and raises
`DomainError` with a translated message. They read through `scoring.games.voms.queries`; the rules themselves
live in `scoring.rules.voms` and the draws in `tournament.draw`.
"""
