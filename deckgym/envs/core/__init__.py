"""Pure-Python engine toolkit shared by every ruleset (standard library only)."""
