"""`slasim gym record --format minari` writes a dataset Minari opens: its own
reader accepts it, its counts and spaces are right, and each episode replays
through the environment with the same observations and rewards."""

import json

import minari
import numpy as np
import pytest

from slasim.gym import JobPickingEnv

from conftest import cli

DATASET = "slasim/test-embedded-v0"


@pytest.fixture()
def recorded(slasim_bin, tmp_path, monkeypatch):
    root = tmp_path / "datasets"
    out = cli(
        slasim_bin, "gym", "record", "--policy", "fcfs,sjf,easy", "--episodes", "2", "--seed", "5",
        "--format", "minari", "--dataset-id", DATASET, "--out", root,
    ).stdout
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(root))
    return root, out


def test_minari_opens_the_dataset_and_its_counts_hold(recorded):
    root, out = recorded
    assert DATASET in out
    dataset = minari.load_dataset(DATASET)
    assert dataset.total_episodes == 6
    episodes = list(dataset.iterate_episodes())
    assert sum(len(e.actions) for e in episodes) == dataset.total_steps
    assert DATASET in minari.list_local_datasets()
    assert dataset.observation_space.shape == (128 * 8,)
    assert dataset.action_space.n == 128
    for e in episodes:
        steps = len(e.actions)
        # Minari's own integrity checks: one more observation than steps,
        # the spaces hold every row, the episode ends by its termination.
        assert e.observations.shape == (steps + 1, 128 * 8)
        assert all(dataset.observation_space.contains(o) for o in e.observations)
        assert all(dataset.action_space.contains(int(a)) for a in e.actions)
        assert len(e.rewards) == len(e.terminations) == len(e.truncations) == steps
        assert e.terminations[-1] and not e.terminations[:-1].any() and not e.truncations.any()
        assert e.infos["action_mask"].shape == (steps + 1, 128)
        # Every action is a row the mask offered.
        assert all(e.infos["action_mask"][t][a] for t, a in enumerate(e.actions))
    meta = json.loads((root / DATASET / "data" / "metadata.json").read_text())
    assert meta["total_steps"] == dataset.total_steps and meta["minari_version"] == "0.5.4"
    assert meta["algorithm_name"] == "fcfs,sjf,easy"


def test_each_episode_replays_through_the_environment(recorded):
    root, _ = recorded
    dataset = minari.load_dataset(DATASET)
    for e in dataset.iterate_episodes():
        meta = json.loads((root / DATASET / "data" / str(e.id) / "metadata.json").read_text())
        env = JobPickingEnv(backfill=meta["backfill"])
        obs, info = env.reset(options=meta["options"])
        assert int(e.infos["start_index"][0]) == meta["options"]["start"]
        for t, action in enumerate(e.actions):
            assert np.array_equal(obs, e.observations[t]), (e.id, t)
            assert np.array_equal(info["action_mask"], e.infos["action_mask"][t])
            obs, reward, terminated, truncated, info = env.step(int(action))
            assert reward == e.rewards[t] and terminated == e.terminations[t] and not truncated
        assert np.array_equal(obs, e.observations[-1])


def test_an_existing_dataset_is_kept_without_force(recorded, slasim_bin):
    root, _ = recorded
    before = sorted(p.name for p in (root / DATASET / "data").iterdir())
    args = ["gym", "record", "--policy", "fcfs", "--episodes", "1", "--format", "minari",
            "--dataset-id", DATASET, "--out", root]
    failed = cli(slasim_bin, *args, check=False)
    assert failed.returncode != 0 and "the dataset exists; --force replaces it" in failed.stderr
    assert sorted(p.name for p in (root / DATASET / "data").iterdir()) == before
    cli(slasim_bin, *args, "--force")
    assert minari.load_dataset(DATASET).total_episodes == 1
    assert not (root / "slasim" / "test-embedded-v0.part").exists()
