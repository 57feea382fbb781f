"""The World at War scenarios (RECONSTRUCTED: each file says what it takes from the book)."""
