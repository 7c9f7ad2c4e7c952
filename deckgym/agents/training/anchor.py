"""A decaying KL anchor toward the imitated policy: PPO that does not drift away from its start.

Fine-tuning an imitated policy with PPO can lose what imitation taught before the value head
and the advantages are any good. ``anchored_ppo()`` is ``MaskablePPO`` with one more phase
after each PPO update: on the rollout's own observations and masks, a few minibatch steps of

    coef(t) * KL(pi_start(.|s) || pi(.|s))

over the legal actions, where ``pi_start`` is a frozen copy of the policy as PPO started
(after imitation) and ``coef(t)`` falls linearly from ``kl_coef`` to 0 over ``kl_decay_steps``
environment steps (``TrainConfig.kl_coef``, ``kl_decay_steps``; 0 turns it off). The PPO
update itself is sb3-contrib's, unchanged.
"""

from __future__ import annotations

import copy
from typing import Any

#: Minibatch steps of the anchor phase per PPO update.
ANCHOR_EPOCHS = 1


def masked_kl(ref_log_probs: Any, log_probs: Any, mask: Any) -> Any:
    """Mean over the batch of KL(ref || new) on the legal actions (``mask`` 1 for legal).

    Both inputs are log-probabilities ``[batch, actions]`` of distributions over the legal
    actions; illegal entries are ignored whatever they hold.
    """
    import torch

    legal = mask.bool()
    p = torch.where(legal, ref_log_probs.exp(), torch.zeros_like(ref_log_probs))
    diff = torch.where(legal, ref_log_probs - log_probs, torch.zeros_like(log_probs))
    return (p * diff).sum(dim=-1).mean()


def anchor_coef(kl_coef: float, decay_steps: int, steps: int) -> float:
    """The anchor's weight after ``steps`` environment steps: linear from ``kl_coef`` to 0."""
    if kl_coef <= 0 or decay_steps <= 0:
        return 0.0
    return kl_coef * max(0.0, 1.0 - steps / decay_steps)


def anchored_ppo() -> type:
    """``MaskablePPO`` with the anchor phase (built on demand: torch and sb3 load only here)."""
    import torch
    from sb3_contrib import MaskablePPO

    class AnchoredPPO(MaskablePPO):  # type: ignore[misc]
        """MaskablePPO; ``set_anchor`` freezes the current policy as ``pi_start`` and sets the weight."""

        anchor_policy: Any = None
        kl_coef: float = 0.0
        kl_decay_steps: int = 0

        def set_anchor(self, kl_coef: float, decay_steps: int) -> None:
            self.kl_coef, self.kl_decay_steps = float(kl_coef), int(decay_steps)
            self.anchor_policy = copy.deepcopy(self.policy)
            self.anchor_policy.set_training_mode(False)
            for p in self.anchor_policy.parameters():
                p.requires_grad_(False)

        def _excluded_save_params(self) -> list[str]:
            return [*super()._excluded_save_params(), "anchor_policy"]  # a saved model is a plain policy

        def train(self) -> None:
            super().train()
            coef = anchor_coef(self.kl_coef, self.kl_decay_steps, self.num_timesteps)
            if self.anchor_policy is None or coef <= 0:
                return
            if not any(p.requires_grad for p in self.policy.action_net.parameters()):
                return  # the value warm-up froze the policy (policy.value_only): nothing to anchor
            self.policy.set_training_mode(True)
            losses = []
            for _ in range(ANCHOR_EPOCHS):
                for batch in self.rollout_buffer.get(self.batch_size):
                    mask = torch.as_tensor(batch.action_masks, device=self.device).reshape(
                        len(batch.actions), -1
                    )
                    with torch.no_grad():
                        ref = self.anchor_policy.get_distribution(batch.observations, action_masks=mask)
                        ref_lp = torch.log_softmax(ref.distribution.logits, dim=-1)
                    new = self.policy.get_distribution(batch.observations, action_masks=mask)
                    new_lp = torch.log_softmax(new.distribution.logits, dim=-1)
                    loss = coef * masked_kl(ref_lp, new_lp, mask)
                    self.policy.optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                    self.policy.optimizer.step()
                    losses.append(float(loss.detach()))
            self.logger.record("train/anchor_kl_loss", sum(losses) / max(1, len(losses)))
            self.logger.record("train/anchor_coef", coef)

    return AnchoredPPO
