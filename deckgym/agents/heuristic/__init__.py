"""Readable rule-of-thumb agents, one per ruleset, that use only what their seat may know."""
