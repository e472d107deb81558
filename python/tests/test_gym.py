"""The job-picking environments from Python: Gymnasium's checker, seeding,
invalid actions, and the vector form against single environments."""

import gymnasium
import numpy as np
import pytest

import slasim  # noqa: F401  (registers the environments)
from slasim import InvalidActionError, SlasimError
from slasim.gym import JobPickingEnv, VectorJobPickingEnv


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    """A 1,500-job SWF log on 64 nodes, drawn with a fixed seed."""
    rng = np.random.default_rng(5)
    path = tmp_path_factory.mktemp("gym") / "small.swf"
    lines = ["; MaxNodes: 64", "; MaxProcs: 64"]
    submit = 0
    for i in range(1, 1501):
        submit += int(rng.exponential(120))
        run = int(rng.lognormal(6, 1.5)) + 1
        procs = int(2 ** rng.integers(0, 7))
        req = -1 if i % 5 == 0 else run + int(rng.integers(0, 3000))
        user = int(rng.integers(1, 40))
        lines.append(f"{i} {submit} -1 {run} {procs} -1 -1 {procs} {req} -1 1 {user} 1 -1 -1 -1 -1 -1")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def random_policy(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


def test_check_env_passes(trace):
    from gymnasium.utils.env_checker import check_env

    for kwargs in ({}, {"backfill": True, "skip": True}):
        env = gymnasium.make("slasim/RLScheduler-v0", trace=trace, **kwargs)
        check_env(env.unwrapped, skip_render_check=True)


def test_action_space_samples_valid_rows(trace):
    env = JobPickingEnv(trace, skip=True)
    obs, info = env.reset(seed=4)
    env.action_space.seed(0)
    for _ in range(300):
        a = env.action_space.sample()
        assert info["action_mask"][a] == 1
        obs, reward, terminated, _, info = env.step(a)
        if terminated:
            obs, info = env.reset()


def test_make_options_and_spaces(trace):
    env = gymnasium.make("slasim/JobPicking-v0", trace=trace, window=32, backfill=True, score=1)
    assert env.observation_space == gymnasium.spaces.Box(0, 1, (256,), np.float32)
    assert env.action_space == gymnasium.spaces.Discrete(32)
    env = gymnasium.make("slasim/RLScheduler-v0", trace=trace)
    assert env.observation_space.shape == (1024,)
    assert env.action_space.n == 128


def episode(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    trail = [obs.tobytes()]
    while True:
        a = random_policy(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = env.step(a)
        trail.append(obs.tobytes())
        assert not truncated
        if terminated:
            return trail, reward, info


def test_reset_seed_is_reproducible_to_the_bit(trace):
    env = JobPickingEnv(trace, skip=True)
    a = episode(env, 123)
    b = episode(env, 123)
    assert a[0] == b[0] and a[1] == b[1]
    # Unseeded resets continue the seeded stream, the same way every time.
    env.reset(seed=7)
    starts = [env.reset()[1]["start_index"] for _ in range(5)]
    env.reset(seed=7)
    assert starts == [env.reset()[1]["start_index"] for _ in range(5)]
    assert all(256 <= s < 1500 - 257 for s in starts)


def test_episode_end_reports_total_and_baselines(trace):
    env = JobPickingEnv(trace)
    _, reward, info = episode(env, 3)
    assert reward == -info["total"]
    assert info["best_minus_total"] == min(info["sjf"], info["f1"]) - info["total"]
    assert info["action_mask"].sum() == 0


def test_explicit_start(trace):
    env = JobPickingEnv(trace)
    _, info = env.reset(options={"start": 10})
    assert info["start_index"] == 10
    with pytest.raises(SlasimError, match="start index 1400 is out of range"):
        env.reset(options={"start": 1400})


def test_invalid_actions_raise_and_leave_the_env_usable(trace):
    env = JobPickingEnv(trace)
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]
    visible = int(mask.sum())
    now = env.now
    # Masked (an empty slot).
    with pytest.raises(InvalidActionError, match=rf"invalid action {visible} at time {now}: slot {visible} is empty"):
        env.step(visible)
    # Out of range.
    with pytest.raises(InvalidActionError, match=rf"invalid action 128 at time {now}: out of range"):
        env.step(128)
    with pytest.raises(InvalidActionError, match=r"invalid action -1 at time"):
        env.step(-1)
    # Wrong dtype.
    for bad in (0.0, np.float32(0), "0", True, None):
        with pytest.raises(InvalidActionError, match=rf"at time {now}: an action is an integer row"):
            env.step(bad)
    assert isinstance(InvalidActionError("x"), SlasimError)
    # Still usable, and numpy integers are actions.
    obs2, reward, terminated, _, info2 = env.step(np.int64(0))
    assert env.now >= now


def test_action_masks_match_info(trace):
    env = JobPickingEnv(trace, skip=True)
    obs, info = env.reset(seed=2)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    rows = obs.reshape(-1, 8)
    n = int(info["action_mask"].sum())
    # The row after the visible jobs is the skip row, the rest padding.
    assert np.array_equal(rows[n - 1], np.ones(8, np.float32) * [1, 1, 1, 1, 1, 1, 1, 0])
    assert np.all(rows[n:] == np.array([0, 1, 1, 1, 1, 1, 1, 0], np.float32))


def test_vector_env_equals_single_envs(trace):
    n = 4
    vec = VectorJobPickingEnv(trace, n, threads=2, backfill=True)
    singles = [JobPickingEnv(trace, backfill=True) for _ in range(n)]
    obs, info = vec.reset(seed=10)
    single_obs = []
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=10 + i)
        single_obs.append(o)
    assert np.array_equal(obs, np.stack(single_obs))
    pending = [False] * n
    ended = 0
    for step in range(1500):
        masks = info["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[step % int(m.sum())]) if m.any() else 0 for m in masks])
        obs, rew, term, trunc, info = vec.step(actions)
        for i, e in enumerate(singles):
            if pending[i]:
                o, _ = e.reset()
                r, t = 0.0, False
                pending[i] = False
            else:
                o, r, t, _, _ = e.step(int(actions[i]))
                pending[i] = t
            assert np.array_equal(obs[i], o), (step, i)
            assert (rew[i], term[i]) == (r, t), (step, i)
        ended += int(term.sum())
    assert ended > 0


def test_vector_env_rejects_bad_actions(trace):
    vec = VectorJobPickingEnv(trace, 3)
    obs, info = vec.reset(seed=0)
    with pytest.raises(InvalidActionError, match="dtype float64"):
        vec.step(np.zeros(3))
    with pytest.raises(InvalidActionError, match=r"environment 1: invalid action 127 at time"):
        vec.step(np.array([0, 127, 0]))
    vec.step(np.zeros(3, np.int64))


def test_make_vec(trace):
    envs = gymnasium.make_vec("slasim/RLScheduler-v0", num_envs=3, trace=trace)
    obs, info = envs.reset(seed=0)
    assert obs.shape == (3, 1024)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


def test_real_log(traces):
    env = JobPickingEnv(str(traces / "swf" / "SDSC-SP2-1998-4.2-cln.swf.gz"), backfill=True)
    _, reward, info = episode(env, 0)
    assert reward < 0 and info["sjf"] > 0
