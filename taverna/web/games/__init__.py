"""The web parts of Taverna's own games, one package each (``taverna.web`` entry points)."""
