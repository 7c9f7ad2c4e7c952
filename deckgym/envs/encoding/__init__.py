"""Encoding toolkit: observation layouts and action codecs (numpy, no PettingZoo)."""
