"""Pure game rules: plain, typed Python that imports nothing from Django.

Each module takes simple values and returns simple values; the Django layer
(`scoring.games`, `scoring.results`) reads and writes the database around them.
"""
