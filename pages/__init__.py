"""The site's own pages, above every game: the home page (every game's tile, the daily, Race
now, friends' results) and How to Play (the rules' presets, each game's short guide)."""
