"""A random and an SJF policy on RLScheduler's job-picking MDP, in a plain
Gymnasium loop; then the same SJF on 256 environments stepped in one call.

    python policy_loops.py TRACE.swf[.gz] [EPISODES]

Prints each policy's mean final reward (minus the average bounded slowdown of
the 256-job sequence) beside RLScheduler's SJF and F1 baselines.
"""

import sys

import gymnasium
import numpy as np

import slasim  # noqa: F401  (registers the environments)

FEATURES = 8  # per row: wait, requested time, processors, memory, user, group, executable, can start now


def random_policy(rng):
    def act(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    return act


def sjf_policy(obs, mask):
    """The valid row with the shortest requested time (feature 1)."""
    requested = obs.reshape(-1, FEATURES)[:, 1]
    return int(np.argmin(np.where(mask > 0, requested, np.inf)))


def episodes(env, policy, count, seed):
    rewards, sjf, f1 = [], [], []
    for k in range(count):
        obs, info = env.reset(seed=seed + k)
        terminated = False
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        rewards.append(reward)
        sjf.append(info["sjf"])
        f1.append(info["f1"])
    return np.mean(rewards), np.mean(sjf), np.mean(f1)


def main():
    trace = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    env = gymnasium.make("slasim/RLScheduler-v0", trace=trace)
    for name, policy in (("random", random_policy(np.random.default_rng(0))), ("sjf", sjf_policy)):
        mean, sjf, f1 = episodes(env, policy, count, seed=0)
        print(f"{name:>6}: mean reward {mean:10.3f}   (RLScheduler's baselines: SJF {-sjf:.3f}, F1 {-f1:.3f})")

    # The same SJF over 256 environments at once: one call steps them all.
    envs = gymnasium.make_vec("slasim/RLScheduler-v0", num_envs=256, trace=trace)
    obs, info = envs.reset(seed=0)
    finished, total = 0, 0.0
    while finished < 256:
        rows = obs.reshape(256, -1, FEATURES)[:, :, 1]
        actions = np.argmin(np.where(info["action_mask"] > 0, rows, np.inf), axis=1)
        obs, reward, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum())
        total += float(reward[terminated].sum())
    print(f"   sjf: mean reward {total / finished:10.3f} over {finished} episodes of the vector environment")


if __name__ == "__main__":
    main()
