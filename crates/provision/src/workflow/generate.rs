//! Workflow generators: the synthetic layered workflow (§3.8 Fig 12, §10.1)
//! and the CyberShake workflow of Table 2 with its reconstructed structure.
//!
//! Contract: generation is deterministic for a given generator and stream;
//! every workflow generated is valid (see [`Workflow`]).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::workflow::{Edge, Task, Workflow};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;

/// Parameters of the synthetic layered workflow generator (§3.8 Fig 12, §10.1).
///
/// Setting names in errors: `workflow_tasks`, `workflow_levels`, `task_runtime`,
/// `task_processors`, `task_processors_max`, `edge_transfer`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticWorkflow {
    /// Number of tasks n (`workflow_tasks`, ≥ 1; default 100).
    pub tasks: usize,
    /// Number of levels L (`workflow_levels`, 1..=n); `None` ⇒ round(√n), which is the
    /// spec's 10 for 100 tasks and 14, 17, 20 for 200, 300, 400.
    pub levels: Option<usize>,
    /// Mean task runtime in seconds (`task_runtime`, ≥ 1; default 1000).
    pub mean_runtime: Time,
    /// Mean processors per task p̄ (`task_processors`, ≥ 1, ≤ `max_procs`; default 22).
    pub mean_procs: u32,
    /// Cap on a task's processors (`task_processors_max`, ≥ 1): set it to the smallest
    /// cluster used. Default `u32::MAX` (no cap).
    pub max_procs: u32,
    /// Mean cross-site transfer time per edge in seconds (`edge_transfer`, ≥ 0); 0 ⇒ none.
    pub mean_transfer: Time,
}

impl Default for SyntheticWorkflow {
    fn default() -> Self {
        SyntheticWorkflow {
            tasks: 100,
            levels: None,
            mean_runtime: 1000,
            mean_procs: 22,
            max_procs: u32::MAX,
            mean_transfer: 0,
        }
    }
}

/// Link latency of the multi-site experiment (§3.8): 150 s.
const LATENCY: Time = 150;

impl SyntheticWorkflow {
    /// The number of levels used: `levels`, or round(√tasks) (at least 1).
    pub fn level_count(&self) -> usize {
        self.levels.unwrap_or_else(|| ((self.tasks as f64).sqrt().round() as usize).max(1))
    }

    /// Checks every setting's domain.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.tasks < 1 || u32::try_from(self.tasks).is_err() {
            return Err(InvalidSetting::new("workflow_tasks", self.tasks, "must lie in 1..=4294967295"));
        }
        let levels = self.level_count();
        if levels < 1 || levels > self.tasks {
            return Err(InvalidSetting::new("workflow_levels", levels, "must lie in 1..=workflow_tasks"));
        }
        if self.mean_runtime < 1 || self.mean_runtime > Time::MAX / 2 {
            return Err(InvalidSetting::new("task_runtime", self.mean_runtime, "must be a positive number of seconds"));
        }
        if self.max_procs < 1 {
            return Err(InvalidSetting::new("task_processors_max", self.max_procs, "must be at least 1"));
        }
        if self.mean_procs < 1 || self.mean_procs > self.max_procs {
            return Err(InvalidSetting::new("task_processors", self.mean_procs, "must lie in 1..=task_processors_max"));
        }
        if self.mean_transfer < 0 || self.mean_transfer > Time::MAX / 4 {
            return Err(InvalidSetting::new(
                "edge_transfer",
                self.mean_transfer,
                "must be a non-negative number of seconds",
            ));
        }
        Ok(())
    }

    /// Draws a layered workflow (§10.1), deterministic for a given `rng` state.
    ///
    /// Draw order (kept stable so seeds reproduce): level widths, their fix-up, then per task
    /// in id order: runtime, processors, parents, one transfer per parent.
    /// - Widths W_l ~ U{1..h}, h = max(⌊2n/L⌋ − 1, ⌈n/L⌉) (mean ≈ n/L, max ≈ twice that; the
    ///   ⌈n/L⌉ floor makes n reachable). While Σ W ≠ n, a uniformly chosen level that can move
    ///   (> 1 when shrinking, < h when growing) moves by one.
    /// - Ids run level by level. Each task below the first level gets 2 distinct parents
    ///   uniform over the previous level (1 if that level has a single task).
    /// - Runtime ~ U{r̄ − ⌊r̄/2⌋ .. r̄ + ⌊r̄/2⌋} (U[500, 1500] for r̄ = 1000).
    /// - Processors ~ U{1..2p̄ − 1}, capped at `max_procs`.
    /// - Transfer (when `mean_transfer` t̄ > 0) = λ + U{0..2(t̄ − λ)}, λ = min(150, t̄): for
    ///   t̄ = 250 this is the spec's U[0, 2000] Gb / 10 Gbps + 150 s latency, mean 250 s.
    pub fn generate(&self, rng: &mut ChaCha8Rng) -> Result<Workflow, InvalidSetting> {
        self.validate()?;
        let (n, levels) = (self.tasks, self.level_count());
        let high = ((2 * n) / levels).saturating_sub(1).max(n.div_ceil(levels));
        let mut widths: Vec<usize> = (0..levels).map(|_| rng.random_range(1..=high)).collect();
        let mut sum: usize = widths.iter().sum();
        while sum != n {
            let shrink = sum > n;
            let movable: Vec<usize> =
                (0..levels).filter(|&l| if shrink { widths[l] > 1 } else { widths[l] < high }).collect();
            // Non-empty: L ≤ n ≤ L·h, so some level can always move towards n.
            if movable.is_empty() {
                break;
            }
            let l = movable[rng.random_range(0..movable.len())];
            if shrink {
                widths[l] -= 1;
                sum -= 1;
            } else {
                widths[l] += 1;
                sum += 1;
            }
        }

        let half = self.mean_runtime / 2;
        let (runtime_lo, runtime_hi) = (self.mean_runtime - half, self.mean_runtime + half);
        let procs_hi = (2 * u64::from(self.mean_procs) - 1).min(u64::from(self.max_procs));
        let latency = self.mean_transfer.min(LATENCY);
        let spread = 2 * (self.mean_transfer - latency);

        let mut tasks = Vec::with_capacity(n);
        let mut edges = Vec::with_capacity(2 * n);
        let mut previous: std::ops::Range<usize> = 0..0;
        for &width in &widths {
            let start = tasks.len();
            for _ in 0..width {
                let id = tasks.len();
                let runtime = rng.random_range(runtime_lo..=runtime_hi);
                let procs = u32::try_from(rng.random_range(1..=procs_hi)).unwrap_or(self.max_procs);
                tasks.push(Task::new(format!("t{id}"), runtime, procs));
                let parents: Vec<usize> = match previous.len() {
                    0 => Vec::new(),
                    1 => vec![previous.start],
                    w => {
                        // Two distinct draws: the second skips over the first.
                        let a = rng.random_range(0..w);
                        let b = rng.random_range(0..w - 1);
                        let b = if b >= a { b + 1 } else { b };
                        vec![previous.start + a.min(b), previous.start + a.max(b)]
                    }
                };
                for p in parents {
                    let transfer = if self.mean_transfer > 0 { latency + rng.random_range(0..=spread) } else { 0 };
                    edges.push(Edge { parent: p as u32, child: id as u32, transfer });
                }
            }
            previous = start..tasks.len();
        }
        Ok(Workflow::assemble(tasks, edges))
    }
}

/// synthSGT and peakValCal task count of the CyberShake workflow (Table 2).
pub const CYBERSHAKE_SGT_TASKS: usize = 4017;

/// The CyberShake seismic-hazard workflow (§3.8, Table 2; structure reconstructed, A26):
/// L1 {fd_grid_xyz 1 s 1p, preSGT 300 s 1p} → L2 {fd_grid_cvm 2100 s 288p, child of
/// fd_grid_xyz} → L3 {pvml_chk1, pmvl_chk2 86400 s 288p, each child of fd_grid_cvm and
/// preSGT} → L4 {4017 × synthSGT_NNNN 519 s 1p, each child of both chk tasks} → L5
/// {4017 × peakValCal_NNNN 1 s 1p, child of the synthSGT with the same number}.
/// 8039 tasks, transfers 0 (it runs on one site), ids in the order listed.
pub fn cybershake() -> Workflow {
    let n = CYBERSHAKE_SGT_TASKS;
    let mut tasks = vec![
        Task::new("fd_grid_xyz", 1, 1),
        Task::new("preSGT", 300, 1),
        Task::new("fd_grid_cvm", 2100, 288),
        Task::new("pvml_chk1", 86_400, 288),
        Task::new("pmvl_chk2", 86_400, 288),
    ];
    let (xyz, pre, cvm, chk1, chk2) = (0, 1, 2, 3, 4);
    let edge = |parent: usize, child: usize| Edge { parent: parent as u32, child: child as u32, transfer: 0 };
    let mut edges = vec![edge(xyz, cvm), edge(cvm, chk1), edge(pre, chk1), edge(cvm, chk2), edge(pre, chk2)];
    let synth0 = tasks.len();
    let peak0 = synth0 + n;
    for i in 0..n {
        tasks.push(Task::new(format!("synthSGT_{i:04}"), 519, 1));
        edges.push(edge(chk1, synth0 + i));
        edges.push(edge(chk2, synth0 + i));
    }
    for i in 0..n {
        tasks.push(Task::new(format!("peakValCal_{i:04}"), 1, 1));
        edges.push(edge(synth0 + i, peak0 + i));
    }
    Workflow::assemble(tasks, edges)
}
