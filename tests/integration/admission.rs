//! The SLA admission environment (`slasim::gym::admission`): driven by the
//! dissertation's acceptance rule it is comprehensive overbooking, decision
//! for decision; seeded episodes repeat to the bit; bad actions are errors
//! that change nothing.

use slasim::experiment::config::Experiment;
use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::gym::admission::{AdmissionEnv, CANDIDATE_FEATURES, DEFAULT_CONFIG, JOB_FEATURES, RESOURCE_FEATURES};
use slasim::single::point::{SinglePoint, run};
use slasim::sla_machine::kind::SlaMachinePoint;

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
        let p: SinglePoint = SinglePoint { battery: 0, seed: 1, ..env.point().expect("a single cluster").clone() };
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

/// Three synthetic days on the centre's machine of unlike nodes under
/// comprehensive overbooking, with `extra` settings.
fn on_machine(extra: &str) -> String {
    format!(
        r#"name = "admission-on-a-machine"
seed = 1

[sla_machine]
conf = "configs/slurm/gpu-machine.conf"
synthetic = {{ days = 3.0, load = 0.9, users = 20, accounts = 4 }}
batteries = 2
sla_terms = "uniform"
strategy = "comprehensive-overbooking"
{extra}

[[sweep]]
[sweep.axes]
battery = "all"
"#
    )
}

/// On a machine of unlike nodes, the rule is the strategy too, with or
/// without reservations moving planned jobs; the observation shows what the
/// job asks of each resource and what is free of it.
#[test]
fn on_a_machine_the_dissertation_rule_is_comprehensive_overbooking() {
    let registry = slasim::registry();
    for extra in ["", "reservations = { percent = 10.0, option = \"move\" }"] {
        let text = on_machine(extra);
        // Slots enough to reach every window the strategy would test (with
        // 64, four jobs whose first passing window comes later are rejected).
        let mut env = AdmissionEnv::from_config(&registry, "machine.toml", &text, 1, 4096).expect("env");
        assert_eq!(env.observation_len(), JOB_FEATURES + RESOURCE_FEATURES + 4096 * CANDIDATE_FEATURES);
        let mut obs = vec![0f32; env.observation_len()];
        let mut shares = Vec::new();
        let mut waiting = env.reset(1, Some(1)).expect("reset");
        let mut total = 0.0;
        while waiting {
            env.observe(&mut obs);
            shares.extend_from_slice(&obs[JOB_FEATURES..JOB_FEATURES + RESOURCE_FEATURES]);
            let step = env.step(env.baseline()).expect("step");
            total += step.reward;
            waiting = !step.terminated;
        }
        let summary = *env.summary().expect("over");
        // The point run by the strategy itself (battery 1; its seed draws the battery).
        let experiment = Experiment::parse(&registry, "machine.toml", &text).expect("config");
        let point = experiment.points.get(&registry, 1).expect("point 1");
        let p = point.point.get::<SlaMachinePoint>().expect("an sla-machine point").clone();
        let loaded = p.open().expect("inputs");
        let results = p.results(&loaded).expect("results");
        let gain: f64 = results.iter().map(|r| r.money).sum();
        let rejected = results.iter().filter(|r| r.outcome == "rejected").count() as u32;
        let overbooked = results.iter().filter(|r| r.allotment.is_some()).count() as u32;
        assert_eq!(summary.jobs as usize, results.len(), "{extra}");
        assert_eq!(summary.rejected, rejected, "{extra}");
        assert_eq!(summary.overbooked, overbooked, "{extra}");
        assert_eq!(summary.gain, gain, "{extra}");
        assert!((total - gain).abs() <= 1e-6 * gain.abs().max(1.0), "{total} vs {gain}");
        assert!(overbooked > 0 && rejected > 0, "the case must overbook and reject to mean anything");
        assert!(shares.iter().all(|v| (0.0..=1.0).contains(v)), "shares out of [0, 1]");
        assert!(shares.chunks(RESOURCE_FEATURES).any(|s| s[5] < 1.0), "GPUs were never in use");
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
