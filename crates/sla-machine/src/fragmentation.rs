//! A battery's GPU fragmentation over time: the share of the machine's GPU
//! thousandths that the battery's own tasks could not use, averaged over
//! the battery's window.
//!
//! Source: Weng et al., "Beware of Fragmentation", USENIX ATC 2023, §3.2: a
//! node's fragmentation for a task is the free GPU capacity the task cannot
//! use there, and for a workload its expectation over the workload's task
//! classes ([`Fragmentation::measure`], the measure the `fragmentation`
//! node choice descends).
//!
//! Contract: the target workload is the battery's jobs, each its class
//! ([`TaskClass`]). From the first submission (0) to the last, every run
//! (stopped runs included) holds on each of its nodes its CPUs and cards:
//! the cards a planner gave, or for the twin, which gives whole cards
//! without naming them, the lowest free ones. Runs end before runs start at
//! one instant. The result is the time integral of the machine's expected
//! fragmentation over the window, over the window's length times the
//! machine's GPU thousandths; `None` for a machine without GPUs. Node
//! failures are not read: a node counts as its runs leave it.

use std::collections::HashMap;

use slasim_core::units::Time;
use slasim_machine::{MILLI, Machine};
use slasim_single::plan::Cards;
use slasim_single::plan::machine_plan::MAX_CARDS;
use slasim_single::plan::node_choice::{Fragmentation, TaskClass};

/// What a run holds of a node's cards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Held {
    /// These cards (a planner's placement).
    Cards(Cards),
    /// This many whole cards, which the twin does not name.
    Whole(u32),
}

/// One run of a job: when, and what it held on each node.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its start.
    pub start: Time,
    /// Its end, or its stop by a node failure.
    pub end: Time,
    /// Each node with the cards held there.
    pub on: Vec<(u32, Held)>,
}

/// One job as the measure reads it: its class, the thousandths of a CPU it
/// holds on each node, and its runs.
#[derive(Debug, Clone, Copy)]
pub struct JobRuns<'a> {
    /// The class of what it asked.
    pub class: TaskClass,
    /// Thousandths of a CPU held on each of its nodes.
    pub cpu_milli: u64,
    /// Its runs.
    pub runs: &'a [Run],
}

/// The mean fragmented share of `machine`'s GPUs under the runs of `jobs`
/// from 0 to `window` (module contract).
pub fn mean_share(machine: &Machine, jobs: &[JobRuns<'_>], window: Time) -> Option<f64> {
    let capacity: u64 = machine.size.iter().map(|s| u64::from(s.gpus) * u64::from(MILLI)).sum();
    if capacity == 0 {
        return None;
    }
    let span = window.max(1);
    let target = Fragmentation::of_classes(jobs.iter().map(|j| j.class));
    // (instant, 0 end / 1 start, job, run)
    let mut events: Vec<(Time, u8, usize, usize)> = Vec::new();
    for (j, r) in jobs.iter().enumerate() {
        for (k, run) in r.runs.iter().enumerate() {
            let (start, end) = (run.start.min(span), run.end.min(span));
            if start < end {
                events.push((start, 1, j, k));
                events.push((end, 0, j, k));
            }
        }
    }
    events.sort_unstable();
    let n = machine.len();
    let mut cpu: Vec<u64> = machine.size.iter().map(|s| u64::from(s.cpus) * 1000).collect();
    let mut cards: Vec<[u16; MAX_CARDS]> = machine
        .size
        .iter()
        .map(|s| {
            let mut c = [0u16; MAX_CARDS];
            c[..(s.gpus as usize).min(MAX_CARDS)].fill(MILLI);
            c
        })
        .collect();
    let n_cards = |i: usize| (machine.size[i].gpus as usize).min(MAX_CARDS);
    let frag_of =
        |i: usize, cpu: u64, cards: &[u16; MAX_CARDS]| target.measure(machine.gpu_model[i], cpu, &cards[..n_cards(i)]);
    let mut frag: Vec<f64> = (0..n).map(|i| frag_of(i, cpu[i], &cards[i])).collect();
    let mut total: f64 = frag.iter().sum();
    // The cards the twin's runs took, to give back at their end.
    let mut taken: HashMap<(usize, usize, u32), u64> = HashMap::new();
    let (mut area, mut at) = (0.0, 0);
    for (t, kind, j, k) in events {
        area += total * (t - at) as f64;
        at = t;
        let r = &jobs[j];
        for &(node, held) in &r.runs[k].on {
            let i = node as usize;
            let mask = match held {
                Held::Cards(Cards::None) => 0,
                Held::Cards(Cards::Whole(mask)) => mask,
                Held::Cards(Cards::Share { card, milli }) => {
                    let c = usize::from(card).min(MAX_CARDS - 1);
                    cards[i][c] = if kind == 1 { cards[i][c].saturating_sub(milli) } else { cards[i][c] + milli };
                    0
                }
                Held::Whole(count) if kind == 1 => {
                    let mut mask = 0u64;
                    for c in (0..n_cards(i)).filter(|&c| cards[i][c] == MILLI).take(count as usize) {
                        mask |= 1 << c;
                    }
                    taken.insert((j, k, node), mask);
                    mask
                }
                Held::Whole(_) => taken.remove(&(j, k, node)).unwrap_or(0),
            };
            for c in (0..n_cards(i)).filter(|&c| mask & (1 << c) != 0) {
                cards[i][c] = if kind == 1 { 0 } else { MILLI };
            }
            cpu[i] = if kind == 1 { cpu[i].saturating_sub(r.cpu_milli) } else { cpu[i] + r.cpu_milli };
            total -= frag[i];
            frag[i] = frag_of(i, cpu[i], &cards[i]);
            total += frag[i];
        }
    }
    area += total * (span - at.min(span)) as f64;
    Some(area / (capacity as f64 * span as f64))
}
