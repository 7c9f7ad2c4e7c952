"""Each ruleset's board drawings for the terminal (``render(view, details)``)."""
