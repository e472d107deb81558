"""Every registered environment starts with no arguments, and the offline
dataset (`slasim gym record`) replays through the environment."""

import gymnasium
import numpy as np
import polars as pl
import pytest

import slasim  # noqa: F401  (registers the environments)
from slasim.gym import JobPickingEnv

from conftest import cli

SLASIM_ENVS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("slasim/"))


def test_the_registered_environments_are_the_known_ones():
    # A new environment must be added here knowingly, and so to the no-argument test below.
    assert SLASIM_ENVS == ["slasim/JobPicking-v0", "slasim/RLScheduler-v0", "slasim/SlaAdmission-v0"]


@pytest.mark.parametrize("env_id", SLASIM_ENVS)
def test_every_environment_makes_and_runs_with_no_arguments(env_id):
    env = gymnasium.make(env_id)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = info.get("action_mask")
        action = int(rng.choice(np.flatnonzero(mask))) if mask is not None else env.action_space.sample()
        obs, reward, terminated, truncated, info = env.step(action)
        assert np.isfinite(reward)
        if terminated or truncated:
            obs, info = env.reset()


@pytest.mark.parametrize("env_id", ["slasim/JobPicking-v0", "slasim/RLScheduler-v0"])
def test_vector_forms_make_with_no_trace(env_id):
    envs = gymnasium.make_vec(env_id, num_envs=2)
    obs, info = envs.reset(seed=1)
    assert obs.shape == (2, 128 * 8)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
    obs, rewards, terminated, truncated, info = envs.step(actions)
    assert obs.shape == (2, 128 * 8) and not truncated.any()


def test_no_argument_environment_is_the_embedded_workload(slasim_bin, tmp_path):
    # The recorded dataset's default trace is the same embedded workload.
    out = tmp_path / "d.parquet"
    cli(slasim_bin, "gym", "record", "--policy", "fcfs", "--episodes", "1", "--out", out)
    first = pl.read_parquet(out).filter(pl.col("step") == 0)
    env = JobPickingEnv()
    obs, _ = env.reset(options={"start": int(first["start_index"][0])})
    assert np.array_equal(obs, np.asarray(first["observation"][0].to_list(), np.float32))


def test_a_recorded_sjf_episode_replays_with_the_same_rewards(slasim_bin, tmp_path):
    out = tmp_path / "sjf.parquet"
    cli(slasim_bin, "gym", "record", "--policy", "sjf", "--episodes", "3", "--seed", "7", "--out", out)
    data = pl.read_parquet(out)
    assert data["policy"].unique().to_list() == ["sjf"]
    episode = data.filter(pl.col("episode") == 2).sort("step")
    env = JobPickingEnv()
    obs, info = env.reset(options={"start": int(episode["start_index"][0])})
    rewards = []
    for row in episode.iter_rows(named=True):
        assert np.array_equal(obs, np.asarray(row["observation"], np.float32))
        assert np.array_equal(info["action_mask"].astype(bool), np.asarray(row["action_mask"]))
        obs, reward, terminated, _, info = env.step(row["action"])
        rewards.append(reward)
        assert terminated == row["terminated"]
    assert terminated
    assert rewards == episode["reward"].to_list()
    # SJF's choice is the visible job with the shortest requested time:
    # the recorded total is the sequence's, not a constant.
    assert rewards[-1] < 0


def test_the_same_seed_gives_the_same_bytes(slasim_bin, tmp_path):
    a, b, c = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "c.parquet"
    for path, seed in ((a, 1), (b, 1), (c, 2)):
        cli(slasim_bin, "gym", "record", "--episodes", "2", "--seed", seed, "--out", path)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_a_refused_record_leaves_no_file(slasim_bin, tmp_path):
    out = tmp_path / "d.parquet"
    done = cli(slasim_bin, "gym", "record", "--policy", "sjf,nope", "--out", out, check=False)
    assert done.returncode == 1
    assert "unknown behaviour policy `nope`" in done.stderr
    assert not out.exists() and not (tmp_path / "d.parquet.part").exists()
