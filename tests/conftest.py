"""Test-session set-up: the library is imported only as ``deckgym``.

pytest puts the repository root on ``sys.path``, where the links ``envs`` and ``agents`` (to
``deckgym/envs`` and ``deckgym/agents``) would also import as top-level packages: a stray ``import envs`` would then pass here and fail
in an installed wheel, with a second copy of every module besides. Blocking both names makes
such an import fail in the tests as it would for a user.
"""

import sys

for _name in ("envs", "agents"):
    sys.modules.setdefault(_name, None)  # type: ignore[arg-type]  # None: "import envs" raises ImportError
