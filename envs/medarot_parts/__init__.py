"""The Medarot parts card game: two medarots of five cards each, fought part by part."""
