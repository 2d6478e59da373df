"""The web client: its static files (``static/``) and each game's part (``games/``)."""
