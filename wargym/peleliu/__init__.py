"""D-Day at Peleliu: the solitaire rules, the Japanese played by the book's cards (data in configs/peleliu/)."""
