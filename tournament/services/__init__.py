"""State changes: each service does one operation atomically and writes an audit record."""
