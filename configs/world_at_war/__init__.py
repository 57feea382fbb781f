"""The World at War data (RECONSTRUCTED where the rule book is silent: wargym/world_at_war/README.md)."""
