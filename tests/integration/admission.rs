//! The SLA admission environment (`slasim::gym::admission`): driven by the
//! dissertation's acceptance rule it is comprehensive overbooking, decision
//! for decision; seeded episodes repeat to the bit; bad actions are errors
//! that change nothing.

use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::gym::admission::{AdmissionEnv, DEFAULT_CONFIG};
use slasim::single::point::{SinglePoint, run};

/// The default config with `placement` and PoF_max set.
fn config(placement: &str, pof_max: f64) -> String {
    DEFAULT_CONFIG
        .replace("placement = \"best-fit\"", &format!("placement = \"{placement}\""))
        .replace("[[sweep]]", &format!("[overbooking]\npof_max = {pof_max}\n\n[[sweep]]"))
}

/// Runs one episode with `policy`; returns the rewards.
fn episode(
    env: &mut AdmissionEnv,
    seed: u64,
    battery: usize,
    mut policy: impl FnMut(&AdmissionEnv) -> Option<usize>,
) -> Vec<f64> {
    let mut rewards = Vec::new();
    let mut waiting = env.reset(seed, Some(battery)).expect("reset");
    while waiting {
        let action = policy(env);
        let step = env.step(action).expect("step");
        rewards.push(step.reward);
        waiting = !step.terminated;
    }
    rewards
}

#[test]
fn the_dissertation_rule_in_the_environment_is_comprehensive_overbooking() {
    for (placement, pof_max) in [("first-fit", 0.3), ("best-fit", 0.1), ("best-fit", 0.5)] {
        let text = config(placement, pof_max);
        let mut env = AdmissionEnv::from_config(&slasim::registry(), "admission.toml", &text, 0, 64).expect("env");
        let rewards = episode(&mut env, 1, 0, |e| e.baseline());
        let summary = *env.summary().expect("over");
        // The same point run by the built-in strategy.
        let p: SinglePoint = SinglePoint { battery: 0, seed: 1, ..env.point().clone() };
        let inputs = Inputs::load(&[Point::new(p.clone())]).expect("inputs");
        let (_, builtin) = run(&inputs, &p).expect("run");
        assert_eq!(summary.accepted, builtin.accepted, "{placement} @{pof_max}");
        assert_eq!(summary.successful, builtin.successful, "{placement} @{pof_max}");
        assert_eq!(summary.failed, builtin.failed, "{placement} @{pof_max}");
        assert_eq!(summary.overbooked, builtin.overbooked, "{placement} @{pof_max}");
        assert_eq!(summary.gain, builtin.gain, "{placement} @{pof_max}");
        let total: f64 = rewards.iter().sum();
        assert!((total - builtin.gain).abs() <= 1e-6 * builtin.gain.abs().max(1.0), "{total} vs {}", builtin.gain);
        assert!(summary.overbooked > 0, "the case must overbook to mean anything ({placement})");
    }
}

#[test]
fn seeded_episodes_repeat_to_the_bit() {
    let mut env = AdmissionEnv::default_point(8).expect("env");
    let observations = |env: &mut AdmissionEnv| {
        let mut all = Vec::new();
        let mut obs = vec![0f32; env.observation_len()];
        let mut k = 0usize;
        let mut waiting = env.reset(7, None).expect("reset");
        while waiting {
            env.observe(&mut obs);
            all.extend(obs.iter().map(|x| x.to_bits()));
            // Alternate: the last candidate, reject, the first.
            let n = env.arrival().map_or(0, |a| a.candidates.len());
            let action = match k % 3 {
                0 if n > 0 => Some(n - 1),
                2 if n > 0 => Some(0),
                _ => None,
            };
            k += 1;
            let step = env.step(action).expect("step");
            all.push(step.reward.to_bits() as u32);
            waiting = !step.terminated;
        }
        all
    };
    let a = observations(&mut env);
    let b = observations(&mut env);
    assert!(a.len() > 100);
    assert_eq!(a, b);
}

#[test]
fn an_action_naming_no_candidate_is_an_error_that_changes_nothing() {
    let mut env = AdmissionEnv::default_point(4).expect("env");
    assert!(env.reset(3, Some(1)).expect("reset"));
    let before = env.arrival().expect("arrival").clone();
    let err = env.step(Some(99)).expect_err("out of range");
    let text = format!("{err:#}");
    assert!(text.contains("action 99") && text.contains(&format!("job {}", before.job.id)), "{text}");
    assert!(text.contains(&format!("t = {}", before.now)), "{text}");
    let after = env.arrival().expect("still waiting");
    assert_eq!(after.job.id, before.job.id);
    env.step(None).expect("a valid action after the error");
    // Dropping mid-episode drops its simulation.
    drop(env);
}

#[test]
fn a_config_of_another_strategy_or_kind_is_refused() {
    let text = DEFAULT_CONFIG.replace("comprehensive-overbooking", "conservative-backfilling");
    let err = AdmissionEnv::from_config(&slasim::registry(), "conservative.toml", &text, 0, 8).err().expect("refused");
    assert!(format!("{err:#}").contains("comprehensive-overbooking"), "{err:#}");
    let err =
        AdmissionEnv::from_config(&slasim::registry(), "x.toml", DEFAULT_CONFIG, 5, 8).err().expect("no such point");
    assert!(format!("{err:#}").contains("point 5"), "{err:#}");
    assert!(AdmissionEnv::from_config(&slasim::registry(), "x.toml", DEFAULT_CONFIG, 0, 0).is_err());
}

/// This process's threads (Linux's `/proc/self/task`).
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

#[test]
fn an_episode_runs_on_the_callers_thread() {
    // Alone in a process of its own, where no other test starts threads.
    const ALONE: &str = "SLASIM_TEST_ALONE";
    const NAME: &str = "admission::an_episode_runs_on_the_callers_thread";
    if std::env::var_os(ALONE).is_none() {
        let exe = std::env::current_exe().expect("the test binary");
        let out = std::process::Command::new(exe)
            .args([NAME, "--exact", "--test-threads=1"])
            .env(ALONE, "1")
            .output()
            .expect("the test binary runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        // It ran, not filtered out.
        assert!(text.contains("1 passed"), "{text}");
        return;
    }
    let before = threads();
    assert!(before > 0, "/proc/self/task cannot be read: the check cannot run");
    let mut env = AdmissionEnv::default_point(8).expect("env");
    let mut waiting = env.reset(3, Some(0)).expect("reset");
    let mut steps = 0;
    while waiting {
        assert_eq!(threads(), before, "a thread started by step {steps}");
        let action = env.baseline();
        waiting = !env.step(action).expect("step").terminated;
        steps += 1;
    }
    assert!(steps > 100, "{steps} steps");
    assert!(env.summary().is_some());
    assert_eq!(threads(), before, "a thread started by the episode's end");
}
