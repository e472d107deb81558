//! The battery's GPU fragmentation, worked out by hand on one node of 2
//! cards.

use slasim_machine::{Gpus, Machine, NodeSpec, Request, Resources};
use slasim_single::plan::Cards;
use slasim_single::plan::node_choice::TaskClass;
use slasim_sla_machine::battery::JobResult;
use slasim_sla_machine::fragmentation::{Held, JobRuns, Run, mean_share};

fn machine() -> Machine {
    let mut m = Machine::default();
    let size = Resources { cpus: 4, mem_mib: 16384, gpus: 2 };
    m.push(NodeSpec { name: "n0".into(), size, gpu_model: None, weight: 1, features: Vec::new() }, "test").unwrap();
    m
}

fn job(k: i64, submit: i64, gpus: Gpus, runs: Vec<Run>) -> JobResult {
    let request =
        Request { nodes: 1, cpu_milli: 1000, mem_mib: 0, gpus, models: 0, features: Vec::new(), partition: None };
    JobResult {
        job: k,
        line: None,
        submit,
        start: runs.last().map(|r| r.start),
        end: runs.last().map(|r| r.end),
        node: None,
        outcome: "success",
        allotment: None,
        reason: None,
        deadline: None,
        money: 0.0,
        held: (1000, 0, gpus.milli(), 1),
        class: TaskClass::of(&request),
        runs,
        stopped: 0,
        reservation: false,
        moves: 0,
        pinned: false,
    }
}

/// Two jobs, the battery's window from 0 to 10 (the second's submission):
/// A asks for half a card and runs 0–20; B asks for a whole card and runs
/// from 10. The target workload is half A-like, half B-like tasks.
///
/// A planner puts A on half of card 0: cards free (500, 1000). An A-like
/// task fits either card and leaves nothing unusable; a B-like task fits
/// card 1 only, so card 0's 500 are fragmented for it. Expected: 0.5 · 0 +
/// 0.5 · 500 = 250 of 2,000 thousandths, over the whole window: 0.125.
///
/// The twin gives A card 0 whole: cards free (0, 1000); both tasks fit card
/// 1 and nothing free is unusable: 0.
#[test]
fn a_shared_card_fragments_the_gpus_a_whole_card_asks_for() {
    let m = machine();
    let planned = |held| {
        vec![
            job(0, 0, Gpus::Share(500), vec![Run { start: 0, end: 20, on: vec![(0, held)] }]),
            job(1, 10, Gpus::Whole(1), vec![Run { start: 10, end: 30, on: vec![(0, Held::Whole(1))] }]),
        ]
    };
    let share = Held::Cards(Cards::Share { card: 0, milli: 500 });
    let mean_share = |m: &Machine, jobs: &[JobResult], window| {
        let runs: Vec<JobRuns<'_>> =
            jobs.iter().map(|r| JobRuns { class: r.class, cpu_milli: r.held.0, runs: &r.runs }).collect();
        mean_share(m, &runs, window)
    };
    assert_eq!(mean_share(&m, &planned(share), 10), Some(0.125));
    assert_eq!(mean_share(&m, &planned(Held::Whole(1)), 10), Some(0.0));
    // Over a window of 20, B holds card 1 from 10: a B-like task fits no
    // card, so card 0's free 500 stay fragmented for it; an A-like task
    // still fits card 0: 0.125 throughout.
    let planned = planned(share);
    assert_eq!(mean_share(&m, &planned, 20), Some(0.125));
    // Had A ended at 10 too, card 0 would be free from 10: nothing
    // fragmented for half the window.
    let mut ended = planned.clone();
    ended[0].runs[0].end = 10;
    assert_eq!(mean_share(&m, &ended, 20), Some(0.0625));
    // Idle, the machine's free cards are fragmented only for tasks that
    // ask no GPU: none here.
    assert_eq!(mean_share(&m, &planned[..0], 10), Some(0.0));
    // A machine without GPUs has no GPU fragmentation.
    assert_eq!(mean_share(&Machine::identical(2, 4), &planned, 10), None);
}
