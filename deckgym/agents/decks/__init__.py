"""Deck-strength evaluation: deck matches with a fixed pilot, round-robin ratings with intervals.

* ``matches``: ``deck_match`` plays deck A against deck B with the same pilot on both sides,
  in seat-swapped pairs on shared seeds.
* ``ratings``: ``rate`` runs a round robin and reports the score matrix with intervals and
  Bradley-Terry ratings on the Elo scale with bootstrap intervals; ``field_scores`` gives each
  deck's expected score against a field of meta shares.

The command line is ``deckgym decks list | check | rate``.
"""
