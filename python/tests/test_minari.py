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


def replays(root, dataset_id, make_env):
    """Each episode of the dataset, replayed through the environment its
    metadata describes, gives its observations, masks and rewards."""
    dataset = minari.load_dataset(dataset_id)
    for e in dataset.iterate_episodes():
        meta = json.loads((root / dataset_id / "data" / str(e.id) / "metadata.json").read_text())
        env = make_env(meta)
        obs, info = env.reset(options=meta["options"])
        assert int(e.infos["start_index"][0]) == meta["options"]["start"]
        for t, action in enumerate(e.actions):
            assert np.array_equal(obs, e.observations[t]), (e.id, t)
            assert np.array_equal(info["action_mask"], e.infos["action_mask"][t])
            obs, reward, terminated, truncated, info = env.step(int(action))
            assert reward == e.rewards[t] and terminated == e.terminations[t] and not truncated
        assert np.array_equal(obs, e.observations[-1])
    return dataset


def test_each_episode_replays_through_the_environment(recorded):
    root, _ = recorded
    replays(root, DATASET, lambda meta: JobPickingEnv(backfill=meta["backfill"]))


def test_a_swept_recording_exports_a_dataset_that_replays(slasim_bin, tmp_path, monkeypatch):
    """A `[recording]` config swept into a store and exported with `slasim gym
    minari`: Minari opens it, and each episode replays on its own trace."""
    config = tmp_path / "recording.toml"
    config.write_text(
        'name = "recording-test"\nseed = 1\n\n[recording]\nepisodes = 2\nsequence_len = 64\nwindow = 32\n\n'
        '[[sweep]]\n[sweep.axes]\ntrace = ["SDSC-SP2-1998-4.2-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"]\n'
        'policy = ["f1", "easy"]\nseed = [2]\n'
    )
    db, root = tmp_path / "recording.sqlite", tmp_path / "datasets"
    cli(slasim_bin, "sweep", config, "--db", db, "--no-progress")
    dataset_id = "slasim/swept-v0"
    out = cli(slasim_bin, "gym", "minari", "--db", db, "--dataset-id", dataset_id, "--out", root).stdout
    assert "from 4 recording points" in out
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(root))
    dataset = replays(
        root,
        dataset_id,
        lambda meta: JobPickingEnv(meta["trace"], window=32, sequence_len=64, backfill=meta["backfill"]),
    )
    assert dataset.total_episodes == 8
    assert dataset.observation_space.shape == (32 * 8,) and dataset.action_space.n == 32
    traces = {t["name"] for t in dataset.storage.metadata["slasim"]["traces"]}
    assert traces == {"SDSC-SP2-1998-4.2-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"}


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
