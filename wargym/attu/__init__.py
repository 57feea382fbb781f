"""War in the Wind: The Battle for Attu Island (rules in this package; data in configs/attu/)."""
