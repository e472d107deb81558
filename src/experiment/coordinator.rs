//! The sweep coordinator: shards points over worker threads, one writer persists.
//!
//! Contract:
//! - A [`Coordinator`] actor owns the queue of points still to simulate. Each
//!   worker is an OS thread that asks it for the next point, simulates it in
//!   its own single-threaded simulation and hands the result to the
//!   [`Writer`] actor (its own thread), which commits the point in one
//!   transaction — its `runs` row, all its `jobs` and `node_events` rows and
//!   its `points` row — and then tells the coordinator. The writer's mailbox
//!   is bounded, so workers wait only when it falls behind.
//! - Points already in the store are skipped: re-running a sweep resumes it.
//!   A crash (even `kill -9`) loses at most the uncommitted points.
//! - An interrupt (Ctrl-C) stops the dispatch; the points in flight finish and
//!   are committed, then the sweep returns with `interrupted` set.
//! - `--shard i/N` takes the points whose position k in the experiment's
//!   expansion has k mod N = i − 1: a deterministic, disjoint split.
//! - The progress bar (points done/total, points per second, ETA) draws only
//!   when asked for; the CLI asks only when stdout is a terminal.

use std::collections::VecDeque;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::message::{Context, Message};

use crate::experiment::config::Experiment;
use crate::experiment::point::Point;
use crate::experiment::runner::{Inputs, code_version, run_point};
use crate::store::{ExperimentRow, RunOutput, Store};

/// One of N deterministic parts of a sweep: `i/N`, 1 ≤ i ≤ N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard `{s}`: expected i/N with 1 ≤ i ≤ N, e.g. 2/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Does the point at position `k` belong to this shard?
    pub fn holds(&self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

/// How to run a sweep.
#[derive(Debug, Clone)]
pub struct SweepOptions {
    /// Worker threads.
    pub threads: usize,
    /// Run only this part of the points.
    pub shard: Option<Shard>,
    /// Draw a progress bar.
    pub progress: bool,
    /// A counter an interrupt handler bumps; the sweep stops dispatching when
    /// it moves.
    pub interrupts: Option<Arc<AtomicUsize>>,
}

/// What a sweep did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SweepReport {
    /// Points of this shard.
    pub total: usize,
    /// Of those, already in the store before this run.
    pub already: usize,
    /// Simulated and committed now.
    pub done: usize,
    /// Dispatch stopped by an interrupt.
    pub interrupted: bool,
    /// Wall seconds.
    pub wall_seconds: f64,
}

/// The writer actor: the only connection that writes the store.
#[derive(Actor)]
pub struct Writer {
    /// `None` once closed.
    store: Option<Store>,
    coordinator: ActorRef<Coordinator>,
}

/// Close the store now: the last connection's close checkpoints the WAL into
/// the database file and removes it, so the file alone holds every point.
pub struct Close;

impl Message<Close> for Writer {
    type Reply = ();

    async fn handle(&mut self, _msg: Close, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        self.store = None;
    }
}

/// Commit one finished point.
pub struct Persist(pub Box<RunOutput>);

impl Message<Persist> for Writer {
    type Reply = ();

    async fn handle(&mut self, msg: Persist, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let finished = match self.store.as_mut().map(|store| store.write_run(&msg.0)) {
            Some(Ok(())) => Finished::Committed,
            Some(Err(e)) => Finished::Failed(format!("storing point {}: {e}", msg.0.run.run_id)),
            None => Finished::Failed(format!("storing point {}: the store is closed", msg.0.run.run_id)),
        };
        let _ = self.coordinator.tell(finished).await;
    }
}

/// The coordinator actor: the queue of points and the progress.
#[derive(Actor)]
pub struct Coordinator {
    points: Arc<Vec<Point>>,
    queue: VecDeque<usize>,
    done: usize,
    error: Option<String>,
    interrupted: bool,
    interrupts: Option<(Arc<AtomicUsize>, usize)>,
    bar: ProgressBar,
}

/// How a worker's last point ended.
pub enum Finished {
    /// Committed.
    Committed,
    /// Failed; the sweep stops.
    Failed(String),
}

impl Message<Finished> for Coordinator {
    type Reply = ();

    async fn handle(&mut self, msg: Finished, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        match msg {
            Finished::Committed => {
                self.done += 1;
                self.bar.inc(1);
            }
            Finished::Failed(e) => {
                if self.error.is_none() {
                    self.error = Some(e);
                }
            }
        }
    }
}

/// A worker asks for its next point.
pub struct Next;

impl Message<Next> for Coordinator {
    type Reply = Option<(usize, Point)>;

    async fn handle(&mut self, _: Next, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        if let Some((counter, baseline)) = &self.interrupts
            && counter.load(Ordering::SeqCst) != *baseline
        {
            self.interrupted = true;
        }
        if self.interrupted || self.error.is_some() {
            return None;
        }
        let index = self.queue.pop_front()?;
        Some((index, self.points[index].clone()))
    }
}

/// Asks the coordinator for its final counts.
pub struct Report;

impl Message<Report> for Coordinator {
    type Reply = (usize, Option<String>, bool);

    async fn handle(&mut self, _: Report, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        self.bar.finish_and_clear();
        (self.done, self.error.clone(), self.interrupted)
    }
}

fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    chrono::DateTime::from_timestamp(secs, 0).map_or_else(String::new, |d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// The points of `experiment` in `shard` (all without a shard), in order.
pub fn shard_points(
    experiment: &Experiment,
    shard: Option<Shard>,
) -> Vec<(usize, &crate::experiment::config::SweepPoint)> {
    experiment.points.iter().enumerate().filter(|(k, _)| shard.is_none_or(|s| s.holds(*k))).collect()
}

/// Runs (or resumes) a sweep into the store at `db`.
pub fn run_sweep(experiment: &Experiment, db: &Path, options: &SweepOptions) -> anyhow::Result<SweepReport> {
    let clock = Instant::now();
    let mine = shard_points(experiment, options.shard);
    let mut store = Store::open(db)?;
    let row = ExperimentRow {
        hash: experiment.hash.clone(),
        name: experiment.name.clone(),
        file: experiment.file.clone(),
        config: experiment.text.clone(),
        code_version: code_version(),
        created_at: now_rfc3339(),
    };
    store.register_experiment(&row, mine.iter().map(|(_, p)| (p.point.id().run_id, p.sweep.clone())))?;
    let stored = store.stored_runs()?;
    let points: Vec<Point> = mine.iter().map(|(_, p)| p.point.clone()).collect();
    let todo: VecDeque<usize> = (0..points.len()).filter(|&k| !stored.contains(&points[k].id().run_id)).collect();
    let mut report = SweepReport { total: points.len(), already: points.len() - todo.len(), ..SweepReport::default() };
    if todo.is_empty() {
        report.wall_seconds = clock.elapsed().as_secs_f64();
        return Ok(report);
    }
    let needed: Vec<Point> = todo.iter().map(|&k| points[k].clone()).collect();
    let inputs = Inputs::load(&needed)?;

    let bar = if options.progress {
        let bar = ProgressBar::new(points.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} points  {per_sec}  ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_position(report.already as u64);
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    } else {
        ProgressBar::hidden()
    };
    // The actors live on a small multi-threaded runtime; the writer gets a
    // thread of its own because SQLite blocks.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_time().build()?;
    let _entered = runtime.enter();
    let coordinator = Coordinator::spawn(Coordinator {
        points: Arc::new(points),
        queue: todo,
        done: 0,
        error: None,
        interrupted: false,
        interrupts: options.interrupts.as_ref().map(|c| (Arc::clone(c), c.load(Ordering::SeqCst))),
        bar,
    });
    let writer = Writer::spawn_in_thread(Writer { store: Some(store), coordinator: coordinator.clone() });
    let threads = options.threads.max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (coordinator, writer, inputs) = (&coordinator, &writer, &inputs);
            scope.spawn(move || {
                while let Ok(Some((_, point))) = coordinator.ask(Next).blocking_send() {
                    let sent = match run_point(inputs, &point) {
                        // Blocks only while the writer's mailbox is full.
                        Ok((output, _, _)) => writer.tell(Persist(Box::new(output))).blocking_send().is_ok(),
                        Err(e) => coordinator.tell(Finished::Failed(format!("{e:#}"))).blocking_send().is_ok(),
                    };
                    if !sent {
                        break;
                    }
                }
            });
        }
    });
    drop(_entered);
    // Let the writer drain its mailbox and close the store; its last
    // reports reach the coordinator before the final count is asked for.
    let (done, error, interrupted) = runtime
        .block_on(async {
            // Messages are handled in order: Close runs after every Persist.
            let _ = writer.ask(Close).await;
            let _ = writer.stop_gracefully().await;
            writer.wait_for_shutdown().await;
            let report = coordinator.ask(Report).await;
            let _ = coordinator.stop_gracefully().await;
            coordinator.wait_for_shutdown().await;
            report
        })
        .map_err(|e| anyhow!("the coordinator stopped: {e:?}"))?;
    runtime.shutdown_timeout(Duration::from_secs(5));
    if let Some(e) = error {
        return Err(anyhow!(e)).context(format!("sweep {} stopped after {done} new points", experiment.name));
    }
    report.done = done;
    report.interrupted = interrupted;
    report.wall_seconds = clock.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["3/2", "0/2", "1/0", "x/2", "2", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let s = Shard { index: 2, count: 3 };
        assert_eq!((0..7).filter(|&k| s.holds(k)).collect::<Vec<_>>(), vec![1, 4]);
    }
}
