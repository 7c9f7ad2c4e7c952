"""scripts/mutate.py: per-package work folders and settings, scores, and argument errors (mutmut runs in CI)."""

from __future__ import annotations

import ast
import tomllib

import pytest

from tests.scripts import ROOT, load_script


def test_each_package_gets_its_own_settings_and_keeps_the_project_tables(tmp_path):
    mutate = load_script("mutate")
    work = mutate.prepare("mow", tmp_path)
    assert (work / "tests").resolve() == ROOT / "tests"
    # the package is a copy (a link would lead ``deckgym`` back to the unmutated tree), file by file
    state = work / "deckgym" / "envs" / "mow" / "state.py"
    assert not state.is_symlink() and state.read_bytes() == (ROOT / "deckgym/envs/mow/state.py").read_bytes()
    assert not any(p.is_symlink() for p in (work / "deckgym").rglob("*"))
    assert (work / "deckgym" / "agents" / "arena.py").read_bytes() == (
        ROOT / "deckgym/agents/arena.py"
    ).read_bytes()
    assert not list((work / "deckgym").rglob("*.so"))  # mutants run on the pure source
    conf = tomllib.loads((work / "pyproject.toml").read_text())
    mm = conf["tool"]["mutmut"]
    assert mm["only_mutate"] == ["deckgym/envs/mow/rules/*"] and mm["source_paths"] == [
        "deckgym/__init__.py",
        "deckgym/envs",
        "deckgym/agents",
    ]
    assert mm["pytest_add_cli_args_test_selection"] == ["tests/envs/mow"]
    assert conf["project"]["name"] == "deckgym" and "pytest" in conf["tool"]  # the rest is kept
    assert set(mutate.PACKAGES) == {"core", "medarot_ocg", "medarot_parts", "mow", "amalogs", "agents"}


def test_score_counts_timeouts_as_killed_and_ignores_mutants_not_run():
    mutate = load_script("mutate")
    assert mutate.score({"killed": 6, "timeout": 2, "survived": 2, "not checked": 90}) == pytest.approx(0.8)
    assert mutate.score({"not checked": 5}) is None


def test_a_samples_report_counts_only_its_mutants(tmp_path):
    """``--report --sample N --seed S`` scores the mutants that sample draws, not the whole folder."""
    import json

    mutate = load_script("mutate")
    meta = tmp_path / "mow" / "mutants" / "deckgym" / "envs" / "mow" / "rules"
    meta.mkdir(parents=True)
    codes = {
        f"deckgym.envs.mow.rules.x.x_f__mutmut_{i}": (1 if i % 3 else 0) for i in range(1, 31)
    }  # 1 killed, 0 survived
    (meta / "x.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    names = mutate.sample(tmp_path / "mow", 10, 4, [])
    assert len(names) == 10 and names == mutate.sample(tmp_path / "mow", 10, 4, [])
    assert names != mutate.sample(tmp_path / "mow", 10, 5, [])
    every = mutate.results(tmp_path / "mow")
    assert every == {"killed": 20, "survived": 10}
    part = mutate.results(tmp_path / "mow", set(names))
    killed = sum(codes[n] == 1 for n in names)
    assert part == {k: v for k, v in {"killed": killed, "survived": 10 - killed}.items() if v}
    out = mutate.main(["mow", "--report", "--sample", "10", "--seed", "4", "--work", str(tmp_path)])
    assert out == 0


def test_unknown_packages_are_refused_with_the_known_ones(capsys):
    mutate = load_script("mutate")
    with pytest.raises(SystemExit) as exc:
        mutate.main(["rulez"])
    assert exc.value.code == 2
    assert "unknown package(s) rulez; known: core, medarot_ocg" in capsys.readouterr().err


def test_undecorate_moves_registering_decorators_after_the_function_and_keeps_others():
    mutate = load_script("mutate")
    src = (
        "@task\n"
        "def a(st):\n"
        "    return 1\n"
        "\n"
        "@OPS.op(\n"
        '    "DAMAGE", amount=(1, 9)\n'
        ")\n"
        "@decision(DP.MAIN, legal=opts)\n"
        "def b(st, p, a):\n"
        "    return 2\n"
        "\n"
        "@functools.cache\n"
        "def c():\n"
        "    return 3\n"
    )
    out = mutate.undecorate(src)
    assert "a = (task)(a)\n" in out
    assert 'b = (OPS.op(\n    "DAMAGE", amount=(1, 9)\n))((decision(DP.MAIN, legal=opts))(b))\n' in out
    assert "@functools.cache\ndef c():" in out and "@task" not in out and "@decision" not in out
    calls = []
    names = {
        "task": lambda f: calls.append(("task", f.__name__)) or f,
        "decision": lambda *k, legal: lambda f: calls.append(("decision", k, f.__name__)) or f,
        "OPS": type("Ops", (), {"op": staticmethod(lambda *k, **kw: lambda f: calls.append(("op", k)) or f)}),
        "DP": type("DP", (), {"MAIN": 5}),
        "opts": None,
        "functools": __import__("functools"),
    }
    exec(compile(out, "<undecorated>", "exec"), names)  # noqa: S102 - the same registrations, in the same order
    assert calls == [("task", "a"), ("decision", (5,), "b"), ("op", ("DAMAGE",))]
    assert names["b"](0, 0, 0) == 2 and names["c"]() == 3


def test_every_op_decorator_of_the_rules_is_one_undecorate_moves():
    """A rules handler under a decorator ``undecorate`` does not know would drop out of the scores."""
    mutate = load_script("mutate")
    seen = set()
    for path in sorted(ROOT.glob("envs/*/rules/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for d in node.decorator_list:
                    callee = ast.unparse(d.func if isinstance(d, ast.Call) else d)
                    if callee.startswith("OPS"):
                        seen.add(callee)
    assert seen == {"OPS.handler", "OPS_REGISTRY.handler"}
    assert seen <= mutate.REGISTERING


PLAY = """
import hashlib, json, random
from deckgym import envs
out = {"where": envs.__file__}
for name, kw in [("medarot_ocg_v1", {"mode": "advance"}), ("medarot_parts_v1", {}), ("mow_v1", {}),
                 ("amalogs_v2", {"team_sizes": (2, 2)})]:
    ruleset = envs.make(name, **kw).unwrapped.ruleset
    rng, h = random.Random(1), hashlib.sha256()
    for seed in range(3):
        st = ruleset.new_state(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        state = {k: v for k, v in st.to_dict().items() if k != "pool"}  # the pool's path differs
        h.update(json.dumps(state, sort_keys=True, default=str).encode())
    out[name] = h.hexdigest()
print(json.dumps(out))
"""


def test_the_undecorated_work_tree_plays_the_same_games_as_the_tree(tmp_path):
    import json
    import subprocess
    import sys

    mutate = load_script("mutate")
    work = mutate.prepare("amalogs", tmp_path)
    copied = sorted(
        p.relative_to(work / "deckgym").as_posix()
        for p in (work / "deckgym" / "envs").rglob("*.py")
        if p.read_bytes() != (ROOT / "deckgym" / p.relative_to(work / "deckgym")).read_bytes()
    )
    assert "envs/mow/rules/card_use.py" in copied and "envs/medarot_ocg/rules/combat.py" in copied
    assert all("/rules/" in p for p in copied)

    def play(where):
        env = {"PYTHONPATH": str(where), "PYTHONHASHSEED": "0", "PATH": ""}
        done = subprocess.run(
            [sys.executable, "-c", PLAY], check=False, cwd=where, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    ours, tree = play(work), play(ROOT)
    assert ours.pop("where") == str(work / "deckgym" / "envs" / "__init__.py")  # the mirror, not the tree
    assert tree.pop("where") == str(ROOT / "deckgym" / "envs" / "__init__.py")
    assert ours == tree
    # a file the tree no longer has (moved or deleted) leaves the mirror when it is prepared again
    stale = work / "deckgym" / "envs" / "gone_module.py"
    stale.write_text("x = 1\n")
    mutate.prepare("amalogs", tmp_path)
    assert not stale.exists()
