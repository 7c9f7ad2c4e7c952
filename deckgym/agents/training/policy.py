"""The networks of MaskablePPO: the card-set extractor, the global-critic policy, greedy actions.

The extractor classes are built by functions (``card_set_extractor``, ``global_critic_policy``)
so that torch and stable-baselines3 are imported only when a network is made. A saved model
holds these classes by value (stable-baselines3 pickles ``policy_kwargs`` and the policy class
with cloudpickle), so loading one does not depend on where they are defined.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from deckgym.agents.training.config import TrainConfig


def card_set_extractor() -> type:
    """``CardSetExtractor``: one small layer shared by every card-feature row, then a dense layer.

    Card rows (board, hand, stock, masters...) are described by the same features, so one
    ``Linear(card_features, embed)`` applied to each row learns a card embedding; the rest of
    the observation joins it in a dense layer. This is several times cheaper than a dense
    layer over the raw vector and generalises across slots.
    """
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class CardSetExtractor(BaseFeaturesExtractor):
        def __init__(
            self,
            observation_space: Any,
            card_region: tuple[int, int, int] | None = None,
            embed: int = 24,
            features_dim: int = 256,
        ) -> None:
            super().__init__(observation_space, features_dim)
            n = int(observation_space.shape[0])
            start, rows, dim = card_region if card_region else (0, 0, 0)
            self.start, self.rows, self.dim = start, rows, dim
            self.stop = start + rows * dim
            self.card_net = nn.Sequential(nn.Linear(dim, embed), nn.ReLU()) if rows else None
            width = rows * embed + n - rows * dim
            self.head = nn.Sequential(nn.Linear(width, features_dim), nn.ReLU())

        def forward(self, obs: torch.Tensor) -> torch.Tensor:
            if self.card_net is None:
                return self.head(obs)
            b = obs.shape[0]
            cards = self.card_net(obs[:, self.start : self.stop].reshape(b, self.rows, self.dim)).reshape(
                b, -1
            )
            return self.head(torch.cat([obs[:, : self.start], cards, obs[:, self.stop :]], dim=1))

    return CardSetExtractor


def global_critic_policy() -> type:
    """``GlobalCriticPolicy``: MaskablePPO's policy with a value function that reads the whole game.

    Observations are ``{"observation": own vector, "state": global state}``. The policy's
    extractor is a ``CardSetExtractor`` over ``"observation"`` alone; the value function has
    its own extractor, the same over ``"observation"`` joined with a dense layer over ``"state"``.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    card_set = card_set_extractor()

    class SplitExtractor(BaseFeaturesExtractor):
        def __init__(
            self,
            observation_space: Any,
            card_region: tuple[int, int, int] | None = None,
            features_dim: int = 256,
            role: str = "pi",
        ) -> None:
            super().__init__(observation_space, features_dim)
            self.role = role
            self.own = card_set(observation_space["observation"], card_region, features_dim=features_dim)
            if role == "vf":
                n = int(observation_space["state"].shape[0])
                self.state_net = nn.Sequential(nn.Linear(n, features_dim), nn.ReLU())
                self.join = nn.Sequential(nn.Linear(2 * features_dim, features_dim), nn.ReLU())

        def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
            own = self.own(obs["observation"])
            if self.role == "pi":
                return own  # type: ignore[no-any-return]
            return self.join(torch.cat([own, self.state_net(obs["state"])], dim=1))  # type: ignore[no-any-return]

    class GlobalCriticPolicy(MaskableActorCriticPolicy):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["share_features_extractor"] = False
            super().__init__(*args, **kwargs)

        def make_features_extractor(self) -> BaseFeaturesExtractor:
            # the first extractor built is the policy's, the second the value function's
            role = "vf" if "features_extractor" in self._modules else "pi"
            return SplitExtractor(self.observation_space, role=role, **self.features_extractor_kwargs)

    return GlobalCriticPolicy


def policy_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """Policy settings: the shared card-set extractor, then small policy and value heads."""
    from deckgym import envs

    region = envs.make(cfg.env, **cfg.env_kwargs).unwrapped.encoder.card_region
    kwargs: dict[str, Any] = {
        "features_extractor_kwargs": {"card_region": region, "features_dim": cfg.features_dim},
        "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
    }
    if cfg.critic == "global":
        return kwargs  # the global-critic policy builds its own extractors
    return {"features_extractor_class": card_set_extractor(), **kwargs}


def update_thread_count(n: int) -> int:
    """The ``update_threads`` setting as a count: ``n``; for 0, ``OMP_NUM_THREADS`` when it is set, else 1.

    A second intra-op thread barely speeds up these small networks' updates on an idle machine
    and slows them ten times or more beside one busy process, where each update waits on the
    thread that the other process keeps off its core (docs/speed.md); so a process updates on
    one thread unless told otherwise.
    """
    if n:
        return n
    first = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else 1


@contextlib.contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run the block on ``update_thread_count(n)`` torch threads, then restore the count."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(update_thread_count(n))
    try:
        yield
    finally:
        torch.set_num_threads(before)


def policy_logits(policy: Any, observation: np.ndarray) -> np.ndarray:
    """The action logits of a MaskablePPO policy for one observation (float64, unmasked)."""
    import torch
    from stable_baselines3.common.policies import BaseModel

    with torch.no_grad():
        obs: Any = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None])
        if _reads_dict(policy):
            obs = {"observation": obs}  # the policy's extractor reads only the seat's own vector
        # the policy's own extractor only (BaseModel's: MaskablePPO's would also run a split value one)
        features = BaseModel.extract_features(policy, obs, policy.pi_features_extractor)
        latent = policy.mlp_extractor.forward_actor(features)
        out: np.ndarray = policy.action_net(latent)[0].numpy().astype(np.float64)
    return out


def masked_probabilities(logits: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """Softmax of ``logits`` over the legal actions (0 elsewhere); ``ValueError`` for an empty mask."""
    legal = np.asarray(action_mask, dtype=bool)
    if not legal.any():
        raise ValueError("the action mask has no legal action")
    z = np.full(len(logits), -np.inf)
    z[legal] = logits[legal] - logits[legal].max()
    p = np.exp(z)
    out: np.ndarray = p / p.sum()
    return out


def policy_action(
    policy: Any,
    observation: np.ndarray,
    action_mask: np.ndarray,
    deterministic: bool = True,
    rng: np.random.Generator | None = None,
) -> int:
    """One forward pass of a MaskablePPO policy, masked; argmax or a sample."""
    logits = policy_logits(policy, observation)
    legal = np.asarray(action_mask, dtype=bool)
    if not legal.any():
        raise ValueError("policy_action: the action mask has no legal action")
    if deterministic:
        logits[~legal] = -np.inf
        return int(np.argmax(logits))
    p = masked_probabilities(logits, legal)
    return int((rng or np.random.default_rng()).choice(len(p), p=p))


def _reads_dict(policy: Any) -> bool:
    """Whether a policy's observations are ``{"observation", "state"}`` (``critic="global"``)."""
    import gymnasium as gym

    return isinstance(policy.observation_space, gym.spaces.Dict)


def value_parameters(policy: Any) -> list[Any]:
    """The parameters that only the value function reads (its own extractor, if not shared)."""
    params = [*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()]
    if not policy.share_features_extractor:
        params += list(policy.vf_features_extractor.parameters())
    return params


def value_only(policy: Any, on: bool) -> None:
    """Let only the value function learn (``on``), or every parameter again.

    The frozen parameters get no gradient, so the optimizer leaves them (and their moments)
    as they are: the policy's action probabilities do not move while the critic warms up.
    """
    keep = {id(p) for p in value_parameters(policy)}
    for p in policy.parameters():
        p.requires_grad_(not on or id(p) in keep)
