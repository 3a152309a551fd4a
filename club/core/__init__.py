"""Where the app goes beyond plain Django for speed: each piece, the private names of Django's it
uses, why, and what it buys, in README.md beside this file (tests/core/ fail when one changes)."""
