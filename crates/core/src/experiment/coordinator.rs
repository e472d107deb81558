//! The sweep coordinator: shards points over worker threads, one writer persists.
//!
//! Contract:
//! - A [`Coordinator`] actor owns the queue of the positions of the points
//!   still to simulate. Each worker is an OS thread (the calling thread
//!   itself when there is one worker) that asks it for the next positions
//!   (a few milliseconds of work at the rate points are committed: one
//!   at first, up to 32 small points; [`Next`]), makes each point (a config's are made again from the config:
//!   [`crate::experiment::config::Points`], so a sweep holds a few bytes a
//!   point, not its settings), runs it (any
//!   kind: [`crate::experiment::point::AnyPoint::run`]) and hands the result to the [`Writer`] actor (its
//!   own thread), which writes the point whole (a savepoint) — for a
//!   single-cluster run its `runs` row, all its `jobs` and `node_events` rows
//!   and its `points` row; for a point of another kind every row of its
//!   tables — and commits it with the others written in the last quarter
//!   second (a point that took longer at once; [`GROUP_SECONDS`]), then
//!   tells the coordinator. One commit for many small points: each commit
//!   writes every page it touched to the journal. Before simulating a
//!   single-cluster point, a worker has the writer store the point's battery
//!   jobs (inputs shared by its runs, committed on their own), so that
//!   overlaps the simulation. The writer's mailbox is bounded, so workers
//!   wait only when it falls behind.
//! - One executor: `slasim sweep`, `slasim run`, `slasim grid run`, the
//!   registered kinds' commands and [`run_points`] all run their points here, and
//!   every thread a point uses beyond its worker's comes from the same
//!   `--jobs` budget ([`Budget`]): never more busy threads than `--jobs`.
//! - Points already in the store are skipped: re-running a sweep resumes it.
//!   Every point's inputs are loaded and checked before the store is written.
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
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context as _, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::message::{Context, Message};

use crate::experiment::config::Experiment;
use crate::experiment::inputs::{Inputs, PointInputError};
use crate::experiment::point::{Point, PointOutput, Summary};
use crate::experiment::progress;
use crate::experiment::provenance::{code_version, rfc3339};
use crate::experiment::registry::Registry;
use crate::store::{self, ExperimentRow, Store};
use crate::threads::Budget;

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
pub struct SweepOutcome {
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

/// The writer actor: the only connection that writes the store (when there
/// is one), and the keeper of every point's result.
#[derive(Actor)]
pub struct Writer {
    /// `None` once closed, or for a run without a store.
    store: Option<Store>,
    coordinator: ActorRef<Coordinator>,
    /// Every point's result, when the caller asked for them.
    results: Option<Vec<PointResult>>,
    /// Points written since the last commit, and when the first of them was.
    uncommitted: (Vec<PointResult>, Option<Instant>),
    /// The run's `--jobs` budget: a write holds one of its slots.
    budget: Arc<Budget>,
}

/// A group of small points is committed when its first is this old (a
/// timer, so a group never waits for a long point), or at this many points;
/// a point that took longer is committed at once. A crash loses the group,
/// which a resumed sweep runs again.
const GROUP_SECONDS: f64 = 0.25;
const GROUP_POINTS: usize = 512;

impl Writer {
    /// Commits the points written since the last commit and reports them.
    async fn commit(&mut self) {
        let (points, _) = std::mem::take(&mut self.uncommitted);
        if points.is_empty() {
            return;
        }
        let committed = match self.store.as_mut().map(Store::commit) {
            Some(Err(e)) => Err(format!("committing {} points: {e}", points.len())),
            _ => Ok(()),
        };
        let ended = match committed {
            Ok(()) => {
                let n = points.len();
                if let Some(results) = &mut self.results {
                    results.extend(points);
                }
                Ended::Committed(n)
            }
            Err(e) => Ended::Failed(e),
        };
        let _ = self.coordinator.tell(ended).await;
    }
}

/// Close the store now: the last connection's close checkpoints the WAL into
/// the database file and removes it, so the file alone holds every point.
pub struct Close;

impl Message<Close> for Writer {
    type Reply = Vec<PointResult>;

    async fn handle(&mut self, _msg: Close, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        self.commit().await;
        self.store = None;
        self.results.take().unwrap_or_default()
    }
}

/// Commit one finished point: its position, id and output.
pub struct Persist {
    /// Position in the executed point list.
    pub index: usize,
    /// Its id.
    pub id: i64,
    /// What to store.
    pub output: Box<dyn PointOutput>,
    /// Wall seconds it took.
    pub wall_seconds: f64,
}

impl Message<Persist> for Writer {
    type Reply = ();

    async fn handle(&mut self, msg: Persist, ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let id = msg.id;
        let clock = Instant::now();
        let budget = Arc::clone(&self.budget);
        let slot = budget.acquire();
        let stored = match self.store.as_mut().map(|store| {
            store.expect_point(id);
            msg.output.write(store)
        }) {
            Some(Err(e)) => Err(format!("storing point {id}: {e}")),
            _ => Ok(()),
        };
        match stored {
            Ok(()) => {
                self.uncommitted.0.push(PointResult {
                    index: msg.index,
                    run_id: id,
                    summary: msg.output.summary(),
                    wall_seconds: msg.wall_seconds,
                    skipped: false,
                });
                let first = match self.uncommitted.1 {
                    Some(first) => first,
                    None => {
                        // The group's first point: its commit is due in a quarter second.
                        let me = ctx.actor_ref().clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(Duration::from_secs_f64(GROUP_SECONDS)).await;
                            let _ = me.tell(Flush).await;
                        });
                        *self.uncommitted.1.insert(Instant::now())
                    }
                };
                if msg.wall_seconds >= GROUP_SECONDS
                    || first.elapsed().as_secs_f64() >= GROUP_SECONDS
                    || self.uncommitted.0.len() >= GROUP_POINTS
                {
                    self.commit().await;
                }
            }
            Err(e) => {
                let _ = self.coordinator.tell(Ended::Failed(e)).await;
            }
        }
        drop(slot);
        tracing::debug!(id, seconds = clock.elapsed().as_secs_f64(), "point stored");
    }
}

/// Commit the open group if its first point is a quarter second old (sent
/// by the timer its first point started).
pub struct Flush;

impl Message<Flush> for Writer {
    type Reply = ();

    async fn handle(&mut self, _: Flush, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        if self.uncommitted.1.is_some_and(|first| first.elapsed().as_secs_f64() >= GROUP_SECONDS) {
            let budget = Arc::clone(&self.budget);
            let _slot = budget.acquire();
            self.commit().await;
        }
    }
}

/// Store rows a point shares with others (a battery's jobs) now, while a
/// worker simulates it (a no-op when there is no store; the rows' writing
/// leaves rows already there as they are).
pub struct StoreShared(pub Box<dyn PointOutput>);

impl Message<StoreShared> for Writer {
    type Reply = ();

    async fn handle(&mut self, StoreShared(rows): StoreShared, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let Some(store) = self.store.as_mut() else {
            return;
        };
        let clock = Instant::now();
        let _slot = self.budget.acquire();
        match rows.write(store) {
            Ok(()) => tracing::debug!(seconds = clock.elapsed().as_secs_f64(), "shared rows stored"),
            Err(e) => {
                let _ = self.coordinator.tell(Ended::Failed(format!("storing shared rows: {e}"))).await;
            }
        }
    }
}

/// What running one point produced.
#[derive(Debug, Clone)]
pub struct PointResult {
    /// Index in the point list.
    pub index: usize,
    /// The stored id (`run_id` or `point_id`).
    pub run_id: i64,
    /// Its run's aggregates, if its kind has them ([`PointResult::summary`]).
    pub summary: Option<Summary>,
    /// Wall seconds of the simulation.
    pub wall_seconds: f64,
    /// Already in the store; not simulated again.
    pub skipped: bool,
}

impl PointResult {
    /// Its summary, if it has one of type `T` (a single-cluster run's `RunSummary`, say).
    pub fn summary_as<T: std::any::Any>(&self) -> Option<&T> {
        self.summary.as_deref()?.downcast_ref()
    }
}

/// The coordinator actor: the queue of points and the progress.
#[derive(Actor)]
pub struct Coordinator {
    queue: VecDeque<usize>,
    done: usize,
    /// When dispatch began (the commit rate sizes the batches).
    started: Instant,
    error: Option<String>,
    interrupted: bool,
    interrupts: Option<(Arc<AtomicUsize>, usize)>,
    bar: ProgressBar,
}

/// How a worker's last point ended.
pub enum Ended {
    /// This many points committed.
    Committed(usize),
    /// Failed; the sweep stops.
    Failed(String),
}

impl Message<Ended> for Coordinator {
    type Reply = ();

    async fn handle(&mut self, msg: Ended, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        match msg {
            Ended::Committed(n) => {
                if self.done == 0 {
                    // A rate and a time left once there is one to tell.
                    self.bar.set_style(bar_style(true));
                }
                self.done += n;
                self.bar.inc(n as u64);
                self.bar.set_message("");
            }
            Ended::Failed(e) => {
                if self.error.is_none() {
                    self.error = Some(e);
                }
            }
        }
    }
}

/// A worker asks for its next points: about [`BATCH_SECONDS`] of them at
/// the rate points are committed (one until the first are; at most
/// [`BATCH_POINTS`]), so that small points do not each wait for a reply
/// and an interrupt still stops the dispatch within a few milliseconds of
/// work. None once the queue is empty or the sweep stops.
pub struct Next;

/// The work a worker is handed at once, in seconds at the commit rate.
const BATCH_SECONDS: f64 = 0.01;
/// The most points a worker is handed at once.
const BATCH_POINTS: usize = 32;

impl Message<Next> for Coordinator {
    type Reply = Vec<usize>;

    async fn handle(&mut self, _: Next, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        if let Some((counter, baseline)) = &self.interrupts
            && counter.load(Ordering::SeqCst) != *baseline
        {
            self.interrupted = true;
        }
        if self.interrupted || self.error.is_some() {
            return Vec::new();
        }
        let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let batch = ((rate * BATCH_SECONDS) as usize).clamp(1, BATCH_POINTS).min(self.queue.len());
        self.queue.drain(..batch).collect()
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

/// The positions of the points of `experiment` in `shard` (all without a
/// shard), in order.
pub fn shard_positions(experiment: &Experiment, shard: Option<Shard>) -> Vec<usize> {
    (0..experiment.points.len()).filter(|&k| shard.is_none_or(|s| s.holds(k))).collect()
}

/// What [`execute`] is given to do.
struct Work<'a> {
    /// Makes the point at a position (on the worker that runs it).
    make: &'a (dyn Fn(usize) -> anyhow::Result<Point> + Sync),
    /// The points' ids, by position.
    ids: Vec<i64>,
    /// The positions to run.
    todo: VecDeque<usize>,
    /// Points found stored before (for the progress bar).
    already: usize,
    /// The config's name, if the points came from one.
    experiment: Option<&'a str>,
    /// Hand back every point's result (a sweep of a million points does not).
    keep_results: bool,
}

/// What [`execute`] did.
struct Executed {
    done: usize,
    interrupted: bool,
    results: Vec<PointResult>,
}

/// The bar's look: points done, and once one is, the rate and the time
/// left; a running point's own progress after them.
fn bar_style(rate: bool) -> ProgressStyle {
    let template = if rate {
        "{bar:40} {pos}/{len} points  {per_sec}  ETA {eta}  {msg}"
    } else {
        "{bar:40} {pos}/{len} points  {msg}"
    };
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// The one executor: runs `points[k]` for every k in `todo` on
/// `options.threads` workers, each point committed to `store` (if any) by the
/// writer actor as soon as it is done. `ids` are the points' ids;
/// `experiment` names the config they came from. Each worker runs its points
/// with `registry` as the one their name lookups see ([`Registry::reading`]).
fn execute(
    registry: &Registry,
    work: Work<'_>,
    inputs: &Inputs,
    store: Option<Store>,
    options: &SweepOptions,
) -> anyhow::Result<Executed> {
    let Work { make, ids, todo, already, experiment, keep_results } = work;
    let bar = if options.progress {
        let bar = ProgressBar::new(ids.len() as u64);
        bar.set_style(bar_style(false));
        bar.set_position(already as u64);
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    } else {
        ProgressBar::hidden()
    };
    // The actors live on a small multi-threaded runtime; the writer gets a
    // thread of its own because SQLite blocks.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_time().build()?;
    let _entered = runtime.enter();
    let budget = Arc::new(Budget::new(options.threads));
    let threads = options.threads.max(1).min(todo.len().max(1));
    let watch = bar.clone();
    let coordinator = Coordinator::spawn(Coordinator {
        queue: todo,
        done: 0,
        started: Instant::now(),
        error: None,
        interrupted: false,
        interrupts: options.interrupts.as_ref().map(|c| (Arc::clone(c), c.load(Ordering::SeqCst))),
        bar,
    });
    let store = store.map(|mut store| {
        store.group_writes();
        store
    });
    let writer = Writer::spawn_in_thread(Writer {
        store,
        coordinator: coordinator.clone(),
        results: keep_results.then(Vec::new),
        uncommitted: (Vec::new(), None),
        budget: Arc::clone(&budget),
    });
    let ids = ids.as_slice();
    drop(_entered);
    // One worker's loop: asks for points until none is left; a point's
    // progress in simulated time goes beside the bar.
    let work = || {
        progress::reporting(&watch, || {
            registry.reading(|| work_points(&coordinator, &writer, &budget, inputs, make, ids, experiment))
        });
    };
    // (the loop, apart so that a worker runs it inside its registry's reading)
    fn work_points(
        coordinator: &ActorRef<Coordinator>,
        writer: &ActorRef<Writer>,
        budget: &Arc<Budget>,
        inputs: &Inputs,
        make: &(dyn Fn(usize) -> anyhow::Result<Point> + Sync),
        ids: &[i64],
        experiment: Option<&str>,
    ) {
        // Each batch's points in turn, until none is left or the sweep stops.
        'sweep: while let Ok(positions) = coordinator.ask(Next).blocking_send()
            && !positions.is_empty()
        {
            for index in positions {
                let point = match make(index) {
                    Ok(point) => point,
                    Err(e) => {
                        let _ = coordinator.tell(Ended::Failed(format!("point {index}: {e:#}"))).blocking_send();
                        break 'sweep;
                    }
                };
                // The writer stores the rows it shares (a battery's jobs) while it is simulated.
                if let Some(rows) = point.settings().shared_rows(inputs)
                    && writer.tell(StoreShared(rows)).blocking_send().is_err()
                {
                    break 'sweep;
                }
                let clock = Instant::now();
                // This worker's slot, held while it runs the point.
                let slot = budget.acquire();
                let result = point.settings().run(inputs, budget, experiment);
                drop(slot);
                let sent = match result {
                    // Blocks only while the writer's mailbox is full.
                    Ok(output) => writer
                        .tell(Persist { index, id: ids[index], output, wall_seconds: clock.elapsed().as_secs_f64() })
                        .blocking_send()
                        .is_ok(),
                    // The sweep stops: the rest of the batch is not run.
                    Err(e) => {
                        let failed = format!("point {index} ({}): {e:#}", point.label());
                        let _ = coordinator.tell(Ended::Failed(failed)).blocking_send();
                        false
                    }
                };
                if !sent {
                    break 'sweep;
                }
            }
        }
    }
    if threads == 1 {
        // One worker is the caller: an in-process scheduler's callbacks run
        // on the thread that started the run.
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    // Let the writer drain its mailbox and close the store; its last
    // reports reach the coordinator before the final count is asked for.
    let (results, report) = runtime.block_on(async {
        // Messages are handled in order: Close runs after every Persist.
        let results = writer.ask(Close).await;
        let _ = writer.stop_gracefully().await;
        writer.wait_for_shutdown().await;
        let report = coordinator.ask(Report).await;
        let _ = coordinator.stop_gracefully().await;
        coordinator.wait_for_shutdown().await;
        (results, report)
    });
    let results = results.map_err(|e| anyhow!("the writer stopped: {e:?}"))?;
    let (done, error, interrupted) = report.map_err(|e| anyhow!("the coordinator stopped: {e:?}"))?;
    runtime.shutdown_timeout(Duration::from_secs(5));
    if let Some(e) = error {
        return Err(anyhow!(e)).context(format!("stopped after {done} new points"));
    }
    Ok(Executed { done, interrupted, results })
}

/// Locates an input error of a point in the experiment's config.
fn locate(experiment: &Experiment, error: anyhow::Error) -> anyhow::Error {
    match error.downcast::<PointInputError>() {
        Ok(e) if experiment.command_line => e.error,
        Ok(e) => experiment.locate(e.setting, &e.error).into(),
        Err(e) => e,
    }
}

/// Runs (or resumes) a sweep into the store at `db`. Every point's inputs
/// are loaded and checked before the store is created or changed, so a bad
/// setting leaves nothing behind.
pub fn run_sweep(
    registry: &Registry,
    experiment: &Experiment,
    db: &Path,
    options: &SweepOptions,
) -> anyhow::Result<SweepOutcome> {
    run_sweep_with(registry, experiment, db, options, Inputs::default())
}

/// How many of a shard's points a store already holds (none if it does not exist).
pub fn already_stored(
    registry: &Registry,
    experiment: &Experiment,
    db: &Path,
    shard: Option<Shard>,
) -> anyhow::Result<usize> {
    if !db.is_file() {
        return Ok(0);
    }
    let stored = store::stored_points(db, registry.groups())?;
    Ok(shard_positions(experiment, shard).into_iter().filter(|&k| stored.contains(&experiment.points.id(k))).count())
}

/// [`run_sweep`] with inputs the caller `given` (a trace it has already
/// parsed; see [`Inputs::load_with`]), so they are not loaded twice.
pub fn run_sweep_with(
    registry: &Registry,
    experiment: &Experiment,
    db: &Path,
    options: &SweepOptions,
    given: Inputs,
) -> anyhow::Result<SweepOutcome> {
    Ok(sweep(registry, experiment, db, options, given, false)?.0)
}

/// [`run_sweep_with`], and the result of each point simulated now (its
/// summary, [`PointResult::summary`]), for a caller that prints from it.
pub fn run_sweep_returning(
    registry: &Registry,
    experiment: &Experiment,
    db: &Path,
    options: &SweepOptions,
    given: Inputs,
) -> anyhow::Result<(SweepOutcome, Vec<PointResult>)> {
    sweep(registry, experiment, db, options, given, true)
}

/// [`run_sweep_returning`], handing back the results of the points run now
/// only when `keep_results`. What it holds grows by a few bytes a point
/// (ids and positions); each point is made when a worker takes it.
fn sweep(
    registry: &Registry,
    experiment: &Experiment,
    db: &Path,
    options: &SweepOptions,
    given: Inputs,
    keep_results: bool,
) -> anyhow::Result<(SweepOutcome, Vec<PointResult>)> {
    let clock = Instant::now();
    let mine = shard_positions(experiment, options.shard);
    let ids: Vec<i64> = mine.iter().map(|&k| experiment.points.id(k)).collect();
    let todo: VecDeque<usize> = {
        let stored = if db.is_file() { store::stored_points(db, registry.groups())? } else { Default::default() };
        (0..mine.len()).filter(|&i| !stored.contains(&ids[i])).collect()
    };
    let make = |i: usize| experiment.points.make(registry, mine[i]);
    let inputs = Inputs::load_each(todo.iter().map(|&i| make(i)), given).map_err(|e| locate(experiment, e))?;
    tracing::debug!(seconds = clock.elapsed().as_secs_f64(), "inputs loaded");
    let mut store = Store::open(db, registry.groups())?;
    let row = ExperimentRow {
        hash: experiment.hash.clone(),
        name: experiment.name.clone(),
        file: experiment.file.clone(),
        config: experiment.text.clone(),
        code_version: code_version(),
        created_at: rfc3339(SystemTime::now()),
        points: Some(experiment.points.len() as i64),
    };
    let memberships = mine.iter().flat_map(|&k| experiment.points.sweeps(k).map(move |s| (experiment.points.id(k), s)));
    store.register_experiment(&row, memberships)?;
    // Points stored since the first look (another process) are skipped too.
    let todo: VecDeque<usize> = {
        let stored = store.stored_points()?;
        todo.into_iter().filter(|&i| !stored.contains(&ids[i])).collect()
    };
    let mut report = SweepOutcome { total: mine.len(), already: mine.len() - todo.len(), ..SweepOutcome::default() };
    if todo.is_empty() {
        report.wall_seconds = clock.elapsed().as_secs_f64();
        return Ok((report, Vec::new()));
    }
    let name = (!experiment.command_line).then_some(experiment.name.as_str());
    let work = Work { make: &make, ids, todo, already: report.already, experiment: name, keep_results };
    let executed =
        execute(registry, work, &inputs, Some(store), options).with_context(|| format!("sweep {}", experiment.name))?;
    report.done = executed.done;
    report.interrupted = executed.interrupted;
    report.wall_seconds = clock.elapsed().as_secs_f64();
    Ok((report, executed.results))
}

/// Runs resolved `points` on `threads` workers with the sweep executor;
/// stores each finished point in the store at `db` (if given) and skips
/// points already stored there. Equal points are run once and share the
/// result. Results come back in point order.
pub fn run_points(
    registry: &Registry,
    points: &[Point],
    threads: usize,
    db: Option<&Path>,
) -> anyhow::Result<Vec<PointResult>> {
    let ids: Vec<i64> = points.iter().map(|p| p.id().map(|id| id.run_id)).collect::<Result<_, _>>()?;
    let store = db.map(|db| Store::open(db, registry.groups())).transpose()?;
    let stored = match &store {
        Some(store) => store.stored_points()?,
        None => Default::default(),
    };
    let mut results: Vec<Option<PointResult>> = vec![None; points.len()];
    let mut first_of: std::collections::HashMap<i64, usize> = Default::default();
    let mut todo = VecDeque::new();
    for (index, &run_id) in ids.iter().enumerate() {
        if first_of.contains_key(&run_id) {
            continue;
        }
        first_of.insert(run_id, index);
        match &store {
            Some(store) if stored.contains(&run_id) => {
                let summary = points[index].settings().stored_summary(store, run_id)?;
                results[index] = Some(PointResult { index, run_id, summary, wall_seconds: 0.0, skipped: true });
            }
            _ => todo.push_back(index),
        }
    }
    if !todo.is_empty() {
        let needed: Vec<Point> = todo.iter().map(|&k| points[k].clone()).collect();
        let inputs = Inputs::load(&needed)?;
        let options = SweepOptions { threads, shard: None, progress: false, interrupts: None };
        let make = |k: usize| Ok(points[k].clone());
        let executed = execute(
            registry,
            Work { make: &make, ids: ids.clone(), todo, already: 0, experiment: None, keep_results: true },
            &inputs,
            store,
            &options,
        )?;
        for r in executed.results {
            let index = r.index;
            results[index] = Some(r);
        }
    }
    // Points equal to an earlier one share its result.
    for index in 0..results.len() {
        if results[index].is_none()
            && let Some(&first) = first_of.get(&ids[index])
        {
            results[index] = results[first].clone().map(|r| PointResult { index, ..r });
        }
    }
    results.into_iter().map(|r| r.ok_or_else(|| anyhow!("a point produced no result"))).collect()
}
