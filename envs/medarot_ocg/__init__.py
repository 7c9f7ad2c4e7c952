"""The Medarot Official Card Game: engine, card data and encoding (beginner, normal, advance)."""
