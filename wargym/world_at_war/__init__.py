"""The World at War: hex-based, card-driven WWII land battles (rules: the book's text; data:
configs/world_at_war/; README.md beside this file)."""
