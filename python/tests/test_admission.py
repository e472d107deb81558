"""The SLA admission environment from Python: gymnasium's checker, seeding,
the dissertation's baseline, and bad actions."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import slasim


def test_check_env_passes():
    env = gymnasium.make("slasim/SlaAdmission-v0").unwrapped
    check_env(env, skip_render_check=True)


def test_reset_with_a_seed_repeats_the_episode_to_the_bit():
    def trace(seed):
        env = gymnasium.make("slasim/SlaAdmission-v0", slots=4).unwrapped
        obs, info = env.reset(seed=seed)
        rows = [obs.tobytes()]
        for k in range(200):
            mask = info["action_mask"]
            action = int(np.flatnonzero(mask)[k % mask.sum()])
            obs, reward, terminated, truncated, info = env.step(action)
            rows.append(obs.tobytes() + np.float64(reward).tobytes())
            if terminated:
                break
        return rows

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_the_baseline_earns_what_the_built_in_strategy_stores():
    env = gymnasium.make("slasim/SlaAdmission-v0", slots=64, battery=0).unwrapped
    env.reset(seed=5)
    total, terminated, info = 0.0, False, {}
    while not terminated:
        _, reward, terminated, _, info = env.step(env.baseline_action())
        total += reward
    assert info["accepted"] > 0
    assert abs(total - info["gain"]) <= 1e-6 * max(1.0, abs(info["gain"]))


def test_bad_actions_name_the_action_job_and_time_and_change_nothing():
    env = gymnasium.make("slasim/SlaAdmission-v0", slots=4).unwrapped
    _, info = env.reset(seed=3)
    job, time = info["job"], info["time"]
    masked = [a for a in range(4) if not info["action_mask"][a]]
    assert masked, "the first arrival should leave a slot empty"
    with pytest.raises(slasim.InvalidActionError, match=rf"action {masked[0]} for job {job} at t = {time}"):
        env.step(masked[0])
    with pytest.raises(slasim.InvalidActionError, match=rf"action 9 at t = {time}: out of range"):
        env.step(9)
    with pytest.raises(slasim.InvalidActionError, match="got float"):
        env.step(1.5)
    with pytest.raises(slasim.InvalidActionError, match="got bool"):
        env.step(True)
    # Still waiting on the same job.
    assert env._core.info()["job"] == job
    env.step(4)


def test_on_a_machine_the_observation_shows_each_resource(repo, tmp_path, monkeypatch):
    monkeypatch.chdir(repo)
    config = tmp_path / "machine.toml"
    config.write_text(
        'name = "on-a-machine"\nseed = 1\n[sla_machine]\nconf = "configs/slurm/gpu-machine.conf"\n'
        "synthetic = { days = 2.0, load = 0.9, users = 10, accounts = 2 }\n"
        'batteries = 2\nsla_terms = "uniform"\nstrategy = "comprehensive-overbooking"\n'
        '[[sweep]]\n[sweep.axes]\nbattery = "all"\n'
    )
    env = gymnasium.make("slasim/SlaAdmission-v0", config=str(config), slots=4).unwrapped
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    # The job's 5 features, what it asks of and what is free of CPUs, memory
    # and GPUs, then 4 candidate slots of 5.
    assert obs.shape == (5 + 6 + 4 * 5,)
    asks, free = obs[5:8], obs[8:11]
    assert ((0 <= asks) & (asks <= 1)).all() and asks[0] > 0
    assert ((0 <= free) & (free <= 1)).all()
    total, terminated = 0.0, False
    while not terminated:
        _, reward, terminated, _, info = env.step(env.baseline_action())
        total += reward
    assert info["accepted"] > 0
    assert abs(total - info["gain"]) <= 1e-6 * max(1.0, abs(info["gain"]))
