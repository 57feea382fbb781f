"""D-Day at Peleliu data (RECONSTRUCTED where the rule book is silent: wargym/peleliu/README.md)."""
