"""Gymnasium environments stepped in Rust: job picking (RLScheduler's MDP).

``gymnasium.make("slasim/RLScheduler-v0", trace=PATH, backfill=False, skip=False, score=0)``
is RLScheduler's ``HPCEnv(backfil, skip, job_score_type)`` (SC20); ``slasim/JobPicking-v0``
takes every option. Without ``trace``, both run on slasim's embedded synthetic workload
(40,000 jobs on 256 processors), as every slasim command does. The book's page "Environments" (docs/src/reference/environments.md)
documents the observation per feature, the mask, the rewards and the dynamics.
"""

from __future__ import annotations

import numbers

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from slasim._slasim import InvalidActionError, PickJobs, VectorPickJobs

__all__ = ["MaskedDiscrete", "JobPickingEnv", "VectorJobPickingEnv", "rlscheduler_env", "rlscheduler_vector_env", "InvalidActionError"]

FEATURES = 8


def _options(window, backfill, skip, score, sequence_len, whole_log, estimates, baselines):
    if whole_log:
        sequence_len = None
    return dict(
        window=int(window),
        backfill=bool(backfill),
        skip=bool(skip),
        score=int(score),
        sequence_len=sequence_len,
        estimates=estimates,
        baselines=bool(baselines),
    )


def _action(action, now):
    """The action as an int, or InvalidActionError for anything that is not an integer."""
    if type(action) is int:
        return action
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (numbers.Integral, np.integer)):
        raise InvalidActionError(
            f"invalid action {action!r} at time {now}: an action is an integer row of the window, "
            f"got {type(action).__name__}"
        )
    return int(action)


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(window)`` whose ``sample()`` without a mask draws among the rows valid now
    (the environment's current action mask), so that random agents and Gymnasium's checker
    send valid actions. It equals ``Discrete(window)``."""

    def __init__(self, n, seed=None):
        super().__init__(n, seed=seed)
        self.current_mask = np.zeros(n, np.int8)

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self.current_mask.any():
            mask = self.current_mask
        return super().sample(mask=mask, probability=probability)


class JobPickingEnv(gymnasium.Env):
    """Pick the next job to start among the first ``window`` waiting ones.

    Observation: ``window × 8`` float32 features in [0, 1]; action: a row (``Discrete(window)``);
    ``info["action_mask"]`` / :meth:`action_masks` say which rows hold a job (or the skip row).
    The reward is 0 until the last step, then minus the sequence's total score.
    At the end ``info`` holds ``total``, ``sjf``, ``f1`` (the baselines' totals) and
    ``best_minus_total`` (RLScheduler's ``rwd2``).
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        trace=None,
        *,
        window=128,
        backfill=False,
        skip=False,
        score=0,
        sequence_len=256,
        whole_log=False,
        estimates="logged",
        baselines=True,
        render_mode=None,
    ):
        self.options = _options(window, backfill, skip, score, sequence_len, whole_log, estimates, baselines)
        self.trace = None if trace is None else str(trace)
        self._env = PickJobs(self.trace, **self.options)
        self.window = int(window)
        self.observation_space = spaces.Box(0.0, 1.0, (self.window * FEATURES,), np.float32)
        self.action_space = MaskedDiscrete(self.window)
        self.render_mode = render_mode
        self._mask = np.zeros(self.window, np.int8)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._env.seed(int(seed))
        start = None if not options else options.get("start")
        obs, mask = self._env.reset(start)
        self._mask = self.action_space.current_mask = mask
        return obs, {"action_mask": self._mask, "start_index": self._env.start_index}

    def step(self, action):
        a = action if type(action) is int else _action(action, self._env.now)
        obs, mask, reward, terminated = self._env.step(a)
        self._mask = self.action_space.current_mask = mask
        info = {"action_mask": self._mask}
        if terminated:
            total = self._env.total()
            info["total"] = total
            baselines = self._env.baselines()
            if baselines is not None:
                sjf, f1 = baselines
                info.update(sjf=sjf, f1=f1, best_minus_total=min(sjf, f1) - total)
        return obs, reward, terminated, False, info

    def action_masks(self):
        """Valid rows, as booleans (for MaskablePPO and the like)."""
        return self._mask.astype(bool)

    @property
    def now(self):
        """Simulated time, in the log's clock (s)."""
        return self._env.now

    @property
    def start_index(self):
        """The current sequence's first job (0-based position among the log's kept jobs)."""
        return self._env.start_index

    def baselines(self):
        """(SJF total, F1 total) of the current sequence."""
        return self._env.baselines()

    def visible_job_ids(self):
        """SWF job numbers of the visible jobs, in row order."""
        return self._env.visible_job_ids()


def rlscheduler_env(trace=None, backfill=False, skip=False, score=0, **kwargs):
    """RLScheduler's ``HPCEnv(backfil=backfill, skip=skip, job_score_type=score)``."""
    return JobPickingEnv(trace, backfill=backfill, skip=skip, score=score, **kwargs)


class VectorJobPickingEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` job-picking environments stepped in one Rust call (GIL released),
    with Gymnasium's default next-step autoreset."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        trace=None,
        num_envs=1,
        *,
        threads=1,
        copy=True,
        window=128,
        backfill=False,
        skip=False,
        score=0,
        sequence_len=256,
        whole_log=False,
        estimates="logged",
        baselines=True,
        render_mode=None,
    ):
        self.options = _options(window, backfill, skip, score, sequence_len, whole_log, estimates, baselines)
        self._vec = VectorPickJobs(None if trace is None else str(trace), int(num_envs), threads=int(threads), **self.options)
        self.num_envs = int(num_envs)
        self.window = int(window)
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.window * FEATURES,), np.float32)
        self.single_action_space = spaces.Discrete(self.window)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n, w = self.num_envs, self.window
        self._obs = np.zeros((n, w * FEATURES), np.float32)
        self._masks = np.zeros((n, w), np.uint8)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)

    def _out(self):
        c = (lambda a: a.copy()) if self.copy else (lambda a: a)
        return c(self._obs), c(self._masks.view(np.int8))

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._vec.seed(int(seed))
        self._vec.reset(self._obs, self._masks, self._rewards, self._terminated, self._truncated)
        obs, masks = self._out()
        return obs, {"action_mask": masks}

    def step(self, actions):
        a = np.asarray(actions)
        if a.dtype.kind not in "iu" or a.shape != (self.num_envs,):
            raise InvalidActionError(
                f"invalid actions: expected {self.num_envs} integers, got an array of dtype {a.dtype} and shape {a.shape}"
            )
        a = np.ascontiguousarray(a, dtype=np.int64)
        self._vec.step(a, self._obs, self._masks, self._rewards, self._terminated, self._truncated)
        obs, masks = self._out()
        info = {"action_mask": masks}
        if self._terminated.any():
            totals = self._vec.totals()
            info["total"] = np.array([t if t is not None else np.nan for t in totals])
            info["_total"] = self._terminated.copy()
        if self.copy:
            return obs, self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info
        return obs, self._rewards, self._terminated, self._truncated, info

    def action_masks(self):
        return self._masks.astype(bool)


def rlscheduler_vector_env(trace=None, num_envs=1, backfill=False, skip=False, score=0, **kwargs):
    """``num_envs`` copies of RLScheduler's preset, stepped together."""
    return VectorJobPickingEnv(trace, num_envs, backfill=backfill, skip=skip, score=score, **kwargs)


def register():
    """Registers ``slasim/JobPicking-v0`` and ``slasim/RLScheduler-v0`` (done on ``import slasim``)."""
    for env_id, entry, vector_entry in (
        ("slasim/JobPicking-v0", "slasim.gym:JobPickingEnv", "slasim.gym:VectorJobPickingEnv"),
        ("slasim/RLScheduler-v0", "slasim.gym:rlscheduler_env", "slasim.gym:rlscheduler_vector_env"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry, vector_entry_point=vector_entry)
