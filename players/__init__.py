"""Player identity: the anonymous Profile bound to a browser by the player cookie
(middleware.py, for pages and sockets), its display name (forms.py; the profile page and the
name asked before a first room, views.py) and the page context's player."""
