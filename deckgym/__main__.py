"""``python -m deckgym``: the ``deckgym`` command."""

from deckgym.cli import main

if __name__ == "__main__":
    main()
