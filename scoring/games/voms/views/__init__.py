"""Voms pages for the director and the referee table, one module per concern. Views parse input, call one
service, render."""
