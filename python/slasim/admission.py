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

from slasim._slasim import AdmissionCore, InvalidActionError
from slasim.gym import MaskedDiscrete, _action


class SlaAdmissionEnv(gymnasium.Env):
    """SLA admission over a single-cluster or ``[sla_machine]`` config whose
    strategy is ``comprehensive-overbooking`` (the default: the embedded
    synthetic workload, four batteries of 500 jobs, Poisson node failures).
    On a machine of unlike nodes the observation adds, after the job's five
    features, the shares of the machine's CPUs, memory and GPUs the job asks
    for and the shares free now.

    Args:
        config: path of a slasim config (single-cluster or sla-machine
            kind), or None.
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
        self.action_space = MaskedDiscrete(slots + 1)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(0, 2**63 - 1))
        battery = (options or {}).get("battery", self._battery)
        self._core.reset(episode_seed, battery)
        self._time = None
        return self._core.observation(), self._info()

    def step(self, action: Any):
        index = _action(action, self._time)
        if not 0 <= index <= self._slots:
            raise InvalidActionError(f"action {index} at t = {self._time}: out of range 0..{self._slots}")
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
        self._time = info.get("time")
        info["action_mask"] = self.action_space.current_mask = self._core.mask().astype(np.int8)
        return info



def register():
    """Registers ``slasim/SlaAdmission-v0`` with gymnasium."""
    gymnasium.register(id="slasim/SlaAdmission-v0", entry_point="slasim.admission:SlaAdmissionEnv")
