"""``TrainConfig``, the settings of one training run, and the default opponent pools.

Imports nothing heavy (no torch, no stable-baselines3): ``deckgym``'s command line reads its
defaults from here at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The envs of the composite agent (``agents.composite``), whose map decisions a "map" learner takes.
COMPOSITE_ENVS: tuple[str, ...] = ("amalogs_v2",)


@dataclass
class TrainConfig:
    """Settings of one training run.

    Attributes:
        env: registered environment name.
        env_kwargs: environment options (``mode``...).
        timesteps: learner decisions to train for.
        seed: seed of everything (envs, opponents, network init).
        n_envs: parallel environments (0: one per core); the policy runs on all of them at once.
        vec_env: "dummy" (in process, an env object per game), "subproc" (a worker process per
            env) or "batch" (the batched env of ``envs.vector``: every game stepped in one call,
            over ``batch_workers`` processes; the learner's own observation only, critic "seat").
        batch_workers: processes of the batched env (vec_env "batch"), each stepping a share of
            the games; 1: in the learner's process.
        opponents: opponent kinds with drawing weights; "self" means past snapshots.
        snapshot_every: steps between self-play snapshots added to the pool.
        max_snapshots: most recent snapshots kept in the pool.
        eval_every: steps between evaluations against the baselines.
        eval_games: games per baseline at each evaluation during training.
        final_games: games per baseline in the evaluation after training (``deckgym train``'s
            ``eval.json``).
        checkpoint_every: steps between checkpoints (0: none).
        n_steps: rollout length, summed over the environments.
        batch_size: minibatch size; it divides ``n_steps``.
        n_epochs: optimisation epochs per rollout.
        learning_rate: Adam step size.
        clip_range: PPO's clipping of the policy ratio.
        gamma: discount.
        ent_coef: entropy bonus.
        shaping: weight of the ruleset's potential-based reward shaping (0: only the final +-1).
        pretrain_games: heuristic-vs-heuristic games whose decisions (with two or more legal
            options) the policy imitates before PPO starts, and whose discounted outcomes
            pretrain the value head (0: start from scratch).
        pretrain_epochs: passes over the imitation data.
        pretrain_lr: Adam step size of the imitation (PPO's own is restored after it).
        pretrain_samples: stop adding imitation games once this many decisions are collected
            (bounds the memory and time of rulesets with long games).
        teacher: the agent whose self-play the imitation copies: ``heuristic`` (the default)
            or ``search:WORLDS`` (stronger, and about a hundred times slower per decision).
        teacher_workers: processes that play the teacher's games (1: in the learner's
            process); the data is the same for any number.
        dagger_rounds: rounds of DAgger after the imitation: the imitated policy plays
            ``dagger_games`` games against the teacher, the teacher labels the policy's
            decisions, they join the data and the policy trains ``dagger_epochs`` passes over
            it all (0: none).
        dagger_games: games per DAgger round, at most ``pretrain_games`` (played in the
            learner's process).
        dagger_epochs: passes over the data after each DAgger round.
        dagger_teacher: the agent that labels the DAgger rounds' decisions ("": the teacher);
            when it is another agent, the rounds train on its labels alone.
        imitation_cache: a file for the imitated policy ("": none). When it exists and was
            written by a run with the same imitation settings (env, options, seed, pretrain and
            network settings), training starts from it instead of imitating again; otherwise the
            imitation runs and is written there (with the optimizer's state, so a run from the
            cache is the run that imitates). Experiments that vary only PPO's settings then
            share one imitated start.
        init_model: start PPO from this model's weights instead of an imitation: a model file
            (``model.zip`` of an earlier run) or ``pretrained`` (the shipped model of the env
            and mode, ``agents/models``); "": none. Its network must have the run's shape
            (``net_arch``, ``features_dim``, ``critic``). The imitation is skipped, and the
            start is written as ``start.zip`` and evaluated at step 0 as an imitation would be.
        critic: "seat" (default): the value function reads the learner's observation, as the
            policy does. "global": the value function also reads the whole game
            (``env.state()``: the opponent's cards and the deck orders), a centralized critic;
            the policy still reads only the learner's observation, so the trained agent plays
            from its own view. Imitation then fits the value head on global states too.
        net_arch: hidden layer sizes of the policy and value heads (after the shared extractor).
        features_dim: width of the shared ``CardSetExtractor`` output.
        out: output folder.
        progress_bar: show a progress bar.
        verbose: SB3 verbosity.
        kl_coef: weight of a KL term toward the policy as PPO starts (after imitation), in a
            phase after each PPO update (``agents.training.anchor``); 0: none.
        kl_decay_steps: steps over which that weight falls linearly to 0.
        learner: "seat" (default): the learner takes every decision of one seat. "map"
            (AMALOGS only): the learner takes the map decisions of every seat of its team and
            reads the map view (``agents.training.team_env.TeamMapEnv``); ``card_agent`` plays
            the team's card-game decisions, and the trained model plays inside the composite
            agent (``agents.make("ppo:PATH", "amalogs_v2")``).
        card_agent: the agent spec of the card-game decisions of a "map" learner's team:
            ``composite`` (the shipped card models where the composite uses them) or
            ``heuristic``.
        value_warmup_steps: PPO steps at the start of a run during which only the value
            function learns (the policy and the shared extractor are frozen), so that the
            critic fits the imitated policy before its advantages steer the policy; 0: none.
        torch_threads: torch's intra-op threads in the learner process while it plays (the
            rollouts, DAgger's games; 0: torch's default). The policy's batches are small
            there, so on 2 cores one thread is faster than two that contend with the
            environments for the same cores.
        update_threads: torch's threads while the policy learns (PPO's updates, the
            imitation's passes), when no environment runs in the learner process; 0: the
            ``OMP_NUM_THREADS`` environment variable's count when it is set, else 1. More
            threads gain little on these small networks on an idle machine and collapse beside
            other CPU work (docs/speed.md); give the number of cores to use them all.
    """

    env: str = "medarot_ocg_v1"
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"mode": "beginner"})
    timesteps: int = 400_000
    seed: int = 0
    n_envs: int = 16
    vec_env: str = "dummy"
    batch_workers: int = 1
    opponents: dict[str, float] = field(
        default_factory=lambda: {"heuristic": 0.8, "random": 0.05, "self": 0.15}
    )
    snapshot_every: int = 50_000
    max_snapshots: int = 5
    eval_every: int = 100_000
    eval_games: int = 40
    final_games: int = 400
    checkpoint_every: int = 100_000
    n_steps: int = 2048
    batch_size: int = 512
    n_epochs: int = 8
    learning_rate: float = 1e-4
    clip_range: float = 0.1
    gamma: float = 0.995
    ent_coef: float = 0.003
    shaping: float = 1.0
    pretrain_games: int = 1500
    pretrain_epochs: int = 15
    pretrain_lr: float = 3e-4
    pretrain_samples: int = 250_000
    imitation_cache: str = ""
    init_model: str = ""
    teacher: str = "heuristic"
    teacher_workers: int = 1
    dagger_rounds: int = 2
    dagger_games: int = 300
    dagger_epochs: int = 2
    dagger_teacher: str = ""
    critic: str = "seat"
    net_arch: tuple[int, ...] = (256,)
    features_dim: int = 256
    out: str = "runs/ppo"
    progress_bar: bool = True
    verbose: int = 0
    torch_threads: int = 1
    update_threads: int = 0
    kl_coef: float = 0.0
    kl_decay_steps: int = 200_000
    value_warmup_steps: int = 0
    learner: str = "seat"
    card_agent: str = "composite"

    def env_count(self) -> int:
        """The environments of the run: ``n_envs``, or one per core when it is 0."""
        import os

        return self.n_envs or max(1, os.cpu_count() or 1)

    def validate(self) -> None:
        """Check every setting's type, range and names before any work.

        ``ValueError`` names the first bad field, what it got and what is allowed (``deckgym
        train`` prints it as one line and exits with status 2).
        """
        for name, (kinds, ok, allowed) in _RULES.items():
            value = getattr(self, name)
            if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
                # True is an int to Python, not to a setting
                raise ValueError(f"{name} must be {allowed}, got {value!r}")
            if not isinstance(value, kinds) or not ok(value):
                raise ValueError(f"{name} must be {allowed}, got {value!r}")
        _check_pool(self.opponents)
        if self.n_steps % self.batch_size:
            raise ValueError(
                f"batch_size must divide n_steps ({self.n_steps}), or each rollout ends in a "
                f"minibatch cut short; got {self.batch_size}"
            )
        if self.vec_env == "batch" and (self.critic != "seat" or self.learner != "seat"):
            raise ValueError(
                f"vec_env 'batch' trains critic 'seat' and learner 'seat' only, got critic {self.critic!r} "
                f"and learner {self.learner!r} (use vec_env 'dummy' or 'subproc')"
            )
        if self.learner == "map":
            if self.env not in COMPOSITE_ENVS:
                raise ValueError(f"learner 'map' plays {', '.join(COMPOSITE_ENVS)} only, not {self.env!r}")
            if self.critic != "seat":
                raise ValueError("learner 'map' takes critic 'seat' only")
            if "self" in self.opponents:
                raise ValueError(
                    "learner 'map' takes no 'self' opponents (a snapshot plays the map view only)"
                )
        if self.init_model == "pretrained":
            from deckgym.agents.pretrained import model_path

            model_path(self.env, self.env_kwargs)  # ValueError: none shipped (it names those that are)
        elif self.init_model:
            from pathlib import Path

            if not Path(self.init_model).is_file():
                raise ValueError(
                    f"init_model must be a model file, 'pretrained' or '', got {self.init_model!r} (no such file)"
                )
            if not _is_model_file(self.init_model):
                raise ValueError(
                    f"init_model {self.init_model!r} is not a model file (a model.zip that training or ppo save)"
                )
        for name in ("teacher", "dagger_teacher"):
            spec = getattr(self, name)
            if (name == "dagger_teacher" and spec == "") or spec in ("heuristic", "search"):
                continue
            if not (spec.startswith("search:") and spec[7:].isdigit() and int(spec[7:]) >= 1):
                raise ValueError(f"{name} must be 'heuristic', 'search' or 'search:WORLDS', got {spec!r}")


def _is_model_file(path: str) -> bool:
    """Whether ``path`` is a zip with a stable-baselines3 policy in it (``policy.pth``)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            return "policy.pth" in z.namelist()
    except (zipfile.BadZipFile, OSError):
        return False


def field_help() -> dict[str, str]:
    """Each ``TrainConfig`` field's description, read from the class docstring's ``Attributes``.

    The command line's help for ``deckgym train --FIELD`` comes from here, so it is written once.
    """
    import inspect
    import re

    doc = inspect.getdoc(TrainConfig) or ""
    out: dict[str, str] = {}
    name = None
    for line in doc.split("Attributes:", 1)[-1].splitlines():
        head = re.match(r"^    (\w+): (.*)$", line)
        if head:
            name = head.group(1)
            out[name] = head.group(2).strip()
        elif name and line.startswith("        "):
            out[name] += " " + line.strip()
    return out


def _check_pool(pool: Any) -> None:
    """An opponent pool: agent kinds with positive weights, at least one besides ``self``."""
    kinds = ("random", "heuristic", "self")
    if not isinstance(pool, dict) or not pool:
        raise ValueError(
            f"opponents must be a non-empty object of weights, e.g. {{'heuristic': 1.0}}, got {pool!r}"
        )
    for kind, weight in pool.items():
        if kind not in kinds and not str(kind).startswith(("search", "ppo:")):
            raise ValueError(
                f"opponents: unknown kind {kind!r}; known: random, heuristic, self, search[:W], ppo:PATH"
            )
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not weight > 0:
            raise ValueError(f"opponents: the weight of {kind!r} must be a number > 0, got {weight!r}")
    if set(pool) == {"self"}:
        raise ValueError("opponents need at least one of 'random' or 'heuristic' besides 'self'")


#: The largest step count a run takes (timesteps and the periods counted in steps): far above
#: any run that ends, so a mistyped number is refused before any work.
MAX_STEPS = 10**10

#: The largest game or decision count (imitation games and samples, evaluation games): the
#: arena's ``MAX_GAMES`` (not imported: the arena's package imports this module; a test checks
#: that the two agree).
MAX_GAMES = 10**7

#: The largest seed: numpy's generators take seeds below 2**32, and a run adds offsets to its seed.
MAX_SEED = 2**31


def _natural(x: Any) -> bool:
    return 0 <= x <= MAX_STEPS


def _games(low: int) -> Any:
    return lambda x: low <= x <= MAX_GAMES


NUM = (int, float)
#: How the training envs run (``TrainConfig.vec_env``).
VEC_ENVS = ("dummy", "subproc", "batch")

#: field -> (accepted types, check, what is allowed), read by ``TrainConfig.validate``.
_RULES: dict[str, tuple[Any, Any, str]] = {
    "env": (str, lambda x: bool(x), "an environment name"),
    "env_kwargs": (dict, lambda x: all(isinstance(k, str) for k in x), "an object of environment options"),
    "timesteps": (
        int,
        _natural,
        f"an integer in 0..{MAX_STEPS:,} (0: only the imitation and its evaluation)",
    ),
    "seed": (int, lambda x: 0 <= x <= MAX_SEED, f"an integer in 0..{MAX_SEED:,}"),
    "n_envs": (int, lambda x: 0 <= x <= 256, "an integer in 0..256 (0: one per core)"),
    "vec_env": (str, lambda x: x in VEC_ENVS, "'dummy', 'subproc' or 'batch'"),
    "batch_workers": (int, lambda x: 1 <= x <= 64, "an integer in 1..64"),
    "snapshot_every": (int, _natural, f"an integer in 0..{MAX_STEPS:,}"),
    "max_snapshots": (int, lambda x: 1 <= x <= 1000, "an integer in 1..1000"),
    "eval_every": (int, _natural, f"an integer in 0..{MAX_STEPS:,} (0: no evaluations during training)"),
    "eval_games": (int, _games(2), f"an integer in 2..{MAX_GAMES:,} (seat-swapped pairs)"),
    "final_games": (int, _games(2), f"an integer in 2..{MAX_GAMES:,} (seat-swapped pairs)"),
    "checkpoint_every": (int, _natural, f"an integer in 0..{MAX_STEPS:,} (0: none)"),
    "n_steps": (int, lambda x: 16 <= x <= MAX_GAMES, f"an integer in 16..{MAX_GAMES:,}"),
    "batch_size": (int, lambda x: 2 <= x <= MAX_GAMES, "an integer >= 2 that divides n_steps"),
    "n_epochs": (int, lambda x: 1 <= x <= 1000, "an integer in 1..1000"),
    "learning_rate": (NUM, lambda x: 0 < x <= 1, "a number in (0, 1]"),
    "clip_range": (NUM, lambda x: 0 < x <= 1, "a number in (0, 1]"),
    "gamma": (NUM, lambda x: 0 < x <= 1, "a number in (0, 1]"),
    "ent_coef": (NUM, lambda x: 0 <= x <= 1, "a number in [0, 1]"),
    "shaping": (NUM, lambda x: 0 <= x <= 10, "a number in [0, 10] (0: only the final +-1)"),
    "pretrain_games": (int, _games(0), f"an integer in 0..{MAX_GAMES:,} (0: no imitation)"),
    "pretrain_epochs": (int, lambda x: 0 <= x <= 1000, "an integer in 0..1000"),
    "pretrain_lr": (NUM, lambda x: 0 < x <= 1, "a number in (0, 1]"),
    "pretrain_samples": (int, _games(1), f"an integer in 1..{MAX_GAMES:,}"),
    "imitation_cache": (str, lambda x: True, "a file path or '' (none)"),
    "init_model": (str, lambda x: True, "a model file, 'pretrained' or '' (none)"),
    "teacher": (str, lambda x: True, "'heuristic', 'search' or 'search:WORLDS'"),
    "teacher_workers": (int, lambda x: 1 <= x <= 1024, "an integer in 1..1024"),
    "dagger_rounds": (int, lambda x: 0 <= x <= 100, "an integer in 0..100"),
    "dagger_games": (int, _games(0), f"an integer in 0..{MAX_GAMES:,}"),
    "dagger_epochs": (int, lambda x: 0 <= x <= 1000, "an integer in 0..1000"),
    "dagger_teacher": (str, lambda x: True, "'' (the teacher), 'heuristic', 'search' or 'search:WORLDS'"),
    "critic": (str, lambda x: x in ("seat", "global"), "'seat' or 'global'"),
    "net_arch": (
        (tuple, list),
        lambda x: (
            0 < len(x) <= 16
            and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 65536 for n in x)
        ),
        "a list of 1 to 16 layer sizes in 1..65536",
    ),
    "features_dim": (int, lambda x: 1 <= x <= 65536, "an integer in 1..65536"),
    "out": (str, lambda x: bool(x), "an output folder"),
    "progress_bar": (bool, lambda x: True, "true or false"),
    "verbose": (int, lambda x: x in (0, 1, 2), "0, 1 or 2"),
    "torch_threads": (int, lambda x: 0 <= x <= 1024, "an integer in 0..1024 (0: torch's default)"),
    "update_threads": (int, lambda x: 0 <= x <= 1024, "an integer in 0..1024 (0: OMP_NUM_THREADS, else 1)"),
    "kl_coef": (NUM, lambda x: 0 <= x <= 1000, "a number in 0..1000 (0: no anchor)"),
    "kl_decay_steps": (int, _natural, f"an integer in 0..{MAX_STEPS:,}"),
    "value_warmup_steps": (int, _natural, f"an integer in 0..{MAX_STEPS:,}"),
    "learner": (str, lambda x: x in ("seat", "map"), "'seat' or 'map'"),
    "card_agent": (
        str,
        lambda x: x in ("heuristic", "composite") or x.startswith("composite:"),
        "'heuristic', 'composite' or 'composite:SLOTS'",
    ),
}


#: Opponent pools that differ from ``TrainConfig``'s default, by environment. In Master of the
#: World a policy trained with the default pool beat the heuristic (63.5% of 400 games) but
#: lost 16.5% of 400 games to the random agent; a larger share of random opponents keeps the
#: random agent's play in view.
#: In the OCG (beginner, rebalanced starters, 400k steps from the same imitation start, the
#: same 400 evaluation seeds) the default pool held the start's score against the heuristic
#: (42.1% -> 42.2%), while the heuristic alone as opponent raised it to 47.6% [44.1%, 51.2%];
#: the random agent and early snapshots taught little.
OPPONENTS_BY_ENV: dict[str, dict[str, float]] = {
    "mow_v1": {"heuristic": 0.6, "random": 0.25, "self": 0.15},
    "medarot_ocg_v1": {"heuristic": 1.0},
}


def default_opponents(env: str) -> dict[str, float]:
    """The default opponent pool of training on ``env``."""
    return dict(OPPONENTS_BY_ENV.get(env, TrainConfig().opponents))


#: PPO settings that differ from ``TrainConfig``'s default, by environment (``deckgym train``
#: applies them; the command line's ``--config`` wins). In OCG beginner (400,000 steps from the
#: same imitation start, 1,000 games on the same seeds) rollouts of 8,192 steps with 4 epochs
#: scored 0.493 against the heuristic where 2,048 steps with 8 epochs scored 0.475, and the PPO
#: loop ran about twice as many steps per second. In MoW the same change gave 0.556 where the
#: default gave 0.620: its policy learns from the more frequent updates.
#: The OCG's imitation is also smaller than the default (100,000 decisions, 10 passes): in OCG
#: normal (seed 1, 2026-12-06) it took 190 s where the default's took about three times as
#: long, and its run scored 0.686 [0.641, 0.732] against the heuristic over 400 games, as the
#: default's (seed 0) 0.624 [0.580, 0.667]: PPO, not the length of the cloning, makes the score.
PPO_BY_ENV: dict[str, dict[str, Any]] = {
    "medarot_ocg_v1": {"n_steps": 8192, "n_epochs": 4, "pretrain_samples": 100_000, "pretrain_epochs": 10},
}


def default_settings(env: str) -> dict[str, Any]:
    """The ``TrainConfig`` fields ``deckgym train`` sets for ``env``: its opponent pool and PPO settings."""
    return {"opponents": default_opponents(env), **PPO_BY_ENV.get(env, {})}


#: Named settings for ``deckgym train --preset NAME`` (applied before ``--config``). ``strong``
#: is the long run behind the shipped models (``ppo:pretrained``): at most about 2 hours on 2
#: cores at the PPO loop's rate of about 500 steps/s (bench.py's training row).
PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "strong": {
        "timesteps": 3_000_000,
        "pretrain_games": 3000,
        "eval_every": 250_000,
        "eval_games": 100,
        "snapshot_every": 200_000,
        "checkpoint_every": 250_000,
    },
}


def preset(name: str) -> dict[str, Any]:
    """The settings of preset ``name``; ``ValueError`` names the known presets."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    return dict(PRESETS[name])
