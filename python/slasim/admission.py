"""The SLA admission environment: ``gymnasium.make("slasim/SlaAdmission-v0")``.

At each arrival the agent sees the job's SLA and the candidate bookings of
slasim's planning scheduler (comprehensive overbooking) with their
probability of success, and picks one or rejects the job (the last action).
The reward is the money realised meanwhile: fees of accepted jobs that
succeeded, less penalties of those that failed. Every step runs in Rust; the
observation and reward are documented on the book's page
"Environments" (reference/environments.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from slasim._slasim import AdmissionCore


class _MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose ``sample()`` draws among the actions valid now."""

    def __init__(self, n: int, masks):
        super().__init__(n)
        self._masks = masks

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            mask = self._masks().astype(np.int8)
            if not mask.any():
                mask = None
        return super().sample(mask=mask, probability=probability)


class SlaAdmissionEnv(gymnasium.Env):
    """SLA admission over a single-cluster config whose strategy is
    ``comprehensive-overbooking`` (the default: the embedded synthetic
    workload, four batteries of 500 jobs, Poisson node failures).

    Args:
        config: path of a slasim config (single-cluster kind), or None.
        point: which point of the config (its expansion order).
        slots: candidate bookings offered at most; actions ``0..slots-1``
            pick one, action ``slots`` rejects the job.
        battery: run this battery at every reset (else drawn from the seed).
    """

    metadata = {"render_modes": []}

    def __init__(self, config: Optional[str] = None, point: int = 0, slots: int = 8, battery: Optional[int] = None):
        if config is None:
            self._core = AdmissionCore("default", None, point, slots)
        else:
            path = Path(config)
            self._core = AdmissionCore(str(path), path.read_text(), point, slots)
        self._slots = slots
        self._battery = battery
        n = self._core.observation_len()
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=(n,), dtype=np.float32)
        self.action_space = _MaskedDiscrete(slots + 1, self.action_masks)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(0, 2**63 - 1))
        battery = (options or {}).get("battery", self._battery)
        self._core.reset(episode_seed, battery)
        return self._core.observation(), self._info()

    def step(self, action: Any):
        index = _action_index(action, self._slots + 1)
        reward, terminated = self._core.step(None if index == self._slots else index)
        return self._core.observation(), float(reward), terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Valid actions now (the last, reject, always is while an arrival waits)."""
        return self._core.mask()

    def baseline_action(self) -> int:
        """The dissertation's decision for the waiting arrival (its PoF or risk test)."""
        index = self._core.baseline()
        return self._slots if index is None else index

    def _info(self) -> dict:
        info = self._core.info()
        info["action_mask"] = self._core.mask()
        return info


def _action_index(action: Any, n: int) -> int:
    """The action as an index, or a TypeError/ValueError naming it."""
    if isinstance(action, np.ndarray):
        if action.shape != ():
            raise TypeError(f"action {action!r}: expected one integer, got an array of shape {action.shape}")
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action {action!r}: expected an integer in 0..{n - 1}, got {type(action).__name__}")
    index = int(action)
    if not 0 <= index < n:
        raise ValueError(f"action {index}: out of range 0..{n - 1}")
    return index


gymnasium.register(id="slasim/SlaAdmission-v0", entry_point="slasim.admission:SlaAdmissionEnv")
