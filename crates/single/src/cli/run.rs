//! `slasim run`: the battery set of one trace (or the synthetic default) under
//! one or more strategies, stored in SQLite and summarised per strategy.
//!
//! Contract: every point is a single-cluster point resolved by
//! [`SinglePoint::resolve`], exactly as a config point with the same settings
//! (same id, same stored rows), and runs on the sweep executor
//! ([`slasim_core::cli::points`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use clap::Args;

use crate::cli::options::{FailureModelArg, PrepareOptions, strategy_parser};
use crate::cluster::checkpoint::CheckpointConfig;
use crate::point::{SinglePoint, default_failures};
use crate::policy::classic::ClassicConfig;
use crate::policy::overbooking::{AcceptanceKind, OverbookingConfig};
use crate::policy::{Placement, StrategyRef};
use crate::report::text::{RunResult, RunSettings, SummaryRow, run_text};
use crate::stats::aged::PdfUpdate;
use crate::stats::calibration::Calibration;
use crate::stats::pdf::{LearnFrom, PdfConfig};
use crate::summary::RunSummary;
use crate::workload::WorkloadSource;
use crate::workload::failures::FailureSource;
use crate::workload::reservations::{ReservationConfig, ReservationOption};
use crate::workload::synthetic::SyntheticConfig;
use crate::writer::stored_summary;
use slasim_core::cli::emit;
use slasim_core::cli::options::StoreOptions;
use slasim_core::cli::points::execute_with;
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::registry::Registry;
use slasim_core::store::Store;
use slasim_data::trace::swf::SwfTrace;

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct RunArgs {
    /// An SWF trace (plain or .gz, or a name under the traces directory), or
    /// a Slurm accounting dump (`sacct --parsable2`, detected by its header
    /// line); without it the embedded synthetic workload is used.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed trace lines instead of failing.
    #[arg(long)]
    lenient: bool,
    /// Strategy to run; repeat for several (default: every strategy with deadlines).
    #[arg(long = "strategy", value_name = "NAME", value_parser = strategy_parser())]
    strategies: Vec<String>,
    /// Placement policy.
    #[arg(long, value_enum, default_value_t = Placement::BestFit)]
    placement: Placement,
    /// PoF_max of the PoF acceptance test (and shortened backfilling's maxPoF);
    /// repeat for a curve. Default: the curve 0.1, 0.3, 0.5 (at 0.1 heuristic
    /// overbooking rarely finds a gap worth overbooking on the synthetic default).
    #[arg(long = "pof-max", value_name = "P")]
    pof_max: Vec<f64>,
    /// Acceptance test of overbooked placements.
    #[arg(long, value_enum, default_value_t = AcceptanceKind::Pof)]
    acceptance: AcceptanceKind,
    /// Security factor of the risk test (default 2 heuristic, 4 comprehensive).
    #[arg(long)]
    security_factor: Option<f64>,
    /// The PoF the acceptance test reads.
    #[arg(long, value_enum, default_value_t = Calibration::None)]
    pof_calibration: Calibration,
    /// Runtime statistics: runtime, resources, user, application, all, or a
    /// combination joined by + (e.g. runtime+resources).
    #[arg(long, default_value = "runtime")]
    pdf_source: String,
    /// Time step Δ of the runtime PDFs, seconds.
    #[arg(long, default_value_t = 60)]
    pdf_step: i64,
    /// Learn the runtime PDFs from the simulation input itself ("oracle"
    /// statistics) instead of the history before it.
    #[arg(long)]
    oracle_pdfs: bool,
    /// How the runtime PDFs learn.
    #[arg(long, value_enum, default_value_t = PdfUpdate::Static)]
    pdf_update: PdfUpdate,
    /// Online PDFs: half-life of an observation in days (default: never forget).
    #[arg(long, allow_negative_numbers = true)]
    pdf_half_life: Option<f64>,
    /// Node failures (default: lanl with a trace, poisson with the LANL rates
    /// for the synthetic workload, none for the classic modes).
    #[arg(long, value_enum)]
    failures: Option<FailureModelArg>,
    /// Seed of the synthetic workload and of synthetic failures.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
    /// Paper B: advance reservations as a percentage of the jobs (0–100),
    /// copies of random jobs with a delayed fixed start.
    #[arg(long, value_name = "PCT", default_value_t = 0.0)]
    reservation_percent: f64,
    /// Start delay of a reservation = U[0,1] × estimate × this factor.
    #[arg(long, default_value_t = 1.0)]
    start_factor: f64,
    /// A reservation colliding with planned jobs.
    #[arg(long, value_enum, default_value_t = ReservationOption::Reject)]
    reservation_option: ReservationOption,
    /// Starvation guard: pin a job after this many moves.
    #[arg(long, default_value_t = 5)]
    max_moves: u32,
    /// Starvation guard: also pin a job once moved by more than this factor × its estimate.
    #[arg(long)]
    max_move_delay: Option<f64>,
    /// No starvation guard: planned jobs may be moved without limit.
    #[arg(long, conflicts_with_all = ["max_move_delay"])]
    no_move_guard: bool,
    /// Paper A: checkpoint overbooked jobs killed at the end of their booking
    /// and resume their remaining work in a later window before the deadline.
    #[arg(long)]
    checkpoint: bool,
    /// Seconds a checkpoint takes.
    #[arg(long, default_value_t = 60, requires = "checkpoint")]
    checkpoint_seconds: i64,
    /// Seconds a resumed job restores before it continues.
    #[arg(long, default_value_t = 60, requires = "checkpoint")]
    restart_seconds: i64,
    /// Queueing modes (fcfs, easy, conservative, the priority rules): let a job run past its
    /// estimate instead of killing it at start + estimate.
    #[arg(long)]
    no_kill_at_estimate: bool,
    #[command(flatten)]
    prepare: PrepareOptions,
    /// Strategy batsim: a scheduler already listening (e.g. tcp://127.0.0.1:28000).
    #[arg(long, value_name = "ENDPOINT", conflicts_with = "scheduler_command")]
    scheduler_endpoint: Option<String>,
    /// Strategy batsim: a command started per point, {port} standing for the
    /// port it listens on (e.g. "pybatsim easyBackfill -s tcp://127.0.0.1:{port}").
    #[arg(long, value_name = "COMMAND")]
    scheduler_command: Option<String>,
    /// Strategy batsim: a name for the scheduler, part of the run's identity
    /// (needed to store a second scheduler served at the same endpoint).
    #[arg(long, value_name = "NAME")]
    scheduler_name: Option<String>,
    /// Strategy batsim: seconds to wait for each reply of the scheduler.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    scheduler_timeout: f64,
    /// Write the run's job table in Batsim's `_jobs.csv` columns here (one
    /// run only; the point is simulated once more, keeping its node lists).
    #[arg(long, value_name = "JOBS.csv")]
    out: Option<PathBuf>,
}

pub(crate) fn run(registry: &Registry, args: RunArgs) -> anyhow::Result<std::process::ExitCode> {
    match run_driven(registry, args, None, None)? {
        Finished::Printed(code) => Ok(code),
        // Only an embedding program asks for the ids.
        Finished::Ran(_) => Ok(std::process::ExitCode::SUCCESS),
    }
}

/// What an embedded `slasim run` stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    /// The store it wrote.
    pub db: PathBuf,
    /// Its runs' ids (`runs.run_id`), in the command line's order.
    pub run_ids: Vec<i64>,
    /// Stopped by the interrupt counter before every run was stored.
    pub interrupted: bool,
}

/// What [`run_driven`] did: printed the summary (the command line), or ran
/// and handed back the stored runs (an embedding program).
pub(crate) enum Finished {
    /// The command line's exit status.
    Printed(std::process::ExitCode),
    /// The embedding program's result.
    Ran(Ran),
}

/// `slasim run` driven by the terminal (`interrupts` `None`: a Ctrl-C
/// handler, a progress bar on a terminal, the summary printed) or by an
/// embedding program (its own interrupt counter, nothing drawn or printed,
/// the stored runs' ids returned). `in_process`: the batsim strategy's
/// scheduler is the embedding program's own (named by `--scheduler-name`).
pub(crate) fn run_driven(
    registry: &Registry,
    args: RunArgs,
    interrupts: Option<Arc<AtomicUsize>>,
    in_process: Option<crate::policy::batsim::InProcess>,
) -> anyhow::Result<Finished> {
    let moving = args.reservation_percent > 0.0 && args.reservation_option == ReservationOption::Move;
    let kill_at_estimate = !args.no_kill_at_estimate;
    let strategies: Vec<StrategyRef> = if args.strategies.is_empty() {
        // Under *move* the default is every strategy that can move planned jobs.
        crate::policy::strategy_infos()
            .iter()
            .filter(|s| !s.queueing && (!moving || s.moves_planned_jobs))
            .map(|s| StrategyRef::named(s.name))
            .collect::<Result<_, _>>()?
    } else {
        args.strategies.iter().map(|s| StrategyRef::named(s)).collect::<Result<_, _>>()?
    };
    let queueing = strategies.iter().any(|s| s.queueing);
    let placement = args.placement;
    let batsim = crate::policy::batsim::BatsimConfig {
        command: args.scheduler_command.clone(),
        endpoint: args.scheduler_endpoint.clone(),
        name: args.scheduler_name.clone(),
        timeout: args.scheduler_timeout,
        in_process,
        state_as_number: false,
    };
    let external = strategies.iter().any(|s| s.reads.scheduler);
    if external {
        batsim.validate()?;
    }
    let workload = match &args.trace {
        Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: args.lenient },
        None => WorkloadSource::Synthetic(SyntheticConfig { seed: args.seed, ..SyntheticConfig::default() }),
    };
    // An explicit model; without one, each point gets its strategy's default
    // (`default_failures`, decided where a point is resolved).
    let model = args.failures.map(FailureModelArg::name);
    let failures = model
        .map(|m| FailureSource::default_for(m).ok_or_else(|| anyhow::anyhow!("unknown failure model {m}")))
        .transpose()?;
    let prepare = args.prepare.config();
    // The trace the classic checks parsed, reused when it is the simulated one.
    let mut parsed = Inputs::default();
    if queueing {
        if let Some(trace) = classic_checks(&args, &strategies, model)? {
            parsed.give(SinglePoint::trace_key(&workload), trace);
        }
    }
    prepare.validate_split()?;
    let mut curve = if args.pof_max.is_empty() { DEFAULT_POF_CURVE.to_vec() } else { args.pof_max.clone() };
    let overbooking = OverbookingConfig {
        acceptance: args.acceptance,
        pof_max: curve[0],
        security_factor: args.security_factor,
        pdf: PdfConfig {
            source: args.pdf_source.parse()?,
            step_seconds: args.pdf_step,
            learn_from: if args.oracle_pdfs { LearnFrom::Input } else { LearnFrom::History },
            update: args.pdf_update,
            half_life_days: args.pdf_half_life,
            ..PdfConfig::default()
        },
        checkpoint: CheckpointConfig {
            enabled: args.checkpoint,
            checkpoint_seconds: args.checkpoint_seconds,
            restart_seconds: args.restart_seconds,
        },
        calibration: args.pof_calibration,
        ..OverbookingConfig::default()
    };
    for &p in &curve {
        OverbookingConfig { pof_max: p, ..overbooking.clone() }.validate()?;
    }
    // The risk test does not read PoF_max: one point per strategy.
    if overbooking.acceptance == AcceptanceKind::Risk {
        curve.truncate(1);
    }
    let reservations = ReservationConfig {
        percent: args.reservation_percent,
        start_factor: args.start_factor,
        option: args.reservation_option,
        max_moves: (!args.no_move_guard).then_some(args.max_moves),
        max_delay_factor: args.max_move_delay.filter(|_| !args.no_move_guard),
    };
    reservations.validate()?;
    let mut points = Vec::new();
    // (label, strategy, PoF_max) of each summary row: one per PoF_max for
    // strategies that read it, one for the others.
    let mut rows: Vec<SummaryRow> = Vec::new();
    let mut batteries = 0;
    for &strategy in &strategies {
        let reads = strategy.reads.overbooking;
        let pofs: &[f64] = if reads { &curve } else { &curve[..1] };
        for &pof_max in pofs {
            let label = if reads && curve.len() > 1 { format!("{strategy} @{pof_max}") } else { strategy.to_string() };
            rows.push(SummaryRow { label: label.clone(), strategy, pof_max });
            let base = SinglePoint {
                strategy,
                placement,
                seed: args.seed,
                battery: 0,
                workload: workload.clone(),
                prepare: prepare.clone(),
                failures: failures.clone().unwrap_or_else(|| default_failures(strategy, &workload)),
                overbooking: OverbookingConfig { pof_max, ..overbooking.clone() },
                reservations: reservations.clone(),
                classic: ClassicConfig { kill_at_estimate },
                batsim: Some(batsim.clone()),
                energy: None,
                energy_policy: Default::default(),
                signals: None,
                shifting: None,
                store_jobs: true,
            };
            // Resolved once, as a config point would be: a classic mode
            // runs the whole log (one battery).
            let first = base.clone().resolve(args.failures.is_some())?;
            let count = if first.prepare.whole_log { 1 } else { first.prepare.batteries };
            batteries = batteries.max(count);
            for battery in 0..count {
                let point = SinglePoint { battery, ..base.clone() }.resolve(args.failures.is_some())?;
                points.push((Point::new(point), label.clone()));
            }
        }
    }
    // A running scheduler serves one simulation.
    let external_points =
        points.iter().filter(|(p, _)| p.get::<SinglePoint>().is_some_and(|p| p.batsim.is_some())).count();
    if batsim.endpoint.is_some() && external_points > 1 {
        anyhow::bail!(
            "--scheduler-endpoint serves one run, and this command has {external_points} runs of an external \
             scheduler; use --scheduler-command to start a scheduler per run"
        );
    }
    let single = match points.as_slice() {
        [(p, _)] => p.get::<SinglePoint>(),
        _ => None,
    };
    if args.out.is_some() && single.is_none() {
        anyhow::bail!("--out writes the job table of one run; this command has {} runs", points.len());
    }
    if args.out.is_some() && single.is_some_and(|p| p.batsim.as_ref().is_some_and(|b| b.endpoint.is_some())) {
        anyhow::bail!(
            "--out simulates the run once more, and a running scheduler (--scheduler-endpoint) serves one run; \
             use --scheduler-command to start one per simulation"
        );
    }
    let embedded = interrupts.is_some();
    let (report, ids) =
        execute_with(registry, &points, args.store.jobs, &args.store.db, "slasim run", parsed, interrupts)?;
    if embedded {
        if let (Some(out), Some(point), false) = (&args.out, single, report.interrupted) {
            crate::report::batsim_jobs::write_for_point(point, out)?;
        }
        return Ok(Finished::Ran(Ran { db: args.store.db.clone(), run_ids: ids, interrupted: report.interrupted }));
    }
    if report.interrupted {
        emit("interrupted: run the same command again to finish (stored runs are kept)\n")?;
        return Ok(Finished::Printed(std::process::ExitCode::from(130)));
    }
    if let (Some(out), Some(point)) = (&args.out, single) {
        crate::report::batsim_jobs::write_for_point(point, out)?;
    }
    let store = Store::open(&args.store.db, registry.groups())?;
    let results: Vec<RunSummary> = ids.iter().map(|&id| stored_summary(&store, id)).collect::<Result<_, _>>()?;
    let runs: Vec<RunResult> = results
        .iter()
        .zip(points.iter().filter_map(|(p, _)| p.get::<SinglePoint>()))
        .map(|(&summary, p)| RunResult { strategy: p.strategy, pof_max: p.overbooking.pof_max, summary })
        .collect();

    // The model given, else the defaults the points got.
    let mut defaults: Vec<&str> = Vec::new();
    for name in points.iter().filter_map(|(p, _)| p.get::<SinglePoint>()).map(|p| p.failures.name()) {
        if !defaults.contains(&name) {
            defaults.push(name);
        }
    }
    let model = model.map_or_else(|| defaults.join(", "), str::to_string);
    let workload = workload.name();
    let settings = RunSettings {
        workload: &workload,
        batteries,
        placement,
        failures: &model,
        db: &args.store.db,
        overbooking: &overbooking,
        curve: &curve,
        already: report.already,
        total: report.total,
        external_endpoint: args.scheduler_endpoint.as_deref().filter(|_| external),
        queueing,
        kill_at_estimate,
        reservations: &reservations,
    };
    let text = run_text(&settings, &rows, &runs)?;
    emit(&text)?;
    Ok(Finished::Printed(std::process::ExitCode::SUCCESS))
}

/// PoF_max values `slasim run` sweeps when none is given.
const DEFAULT_POF_CURVE: [f64; 3] = [0.1, 0.3, 0.5];

/// Checks what the classic modes cannot take, and the trace's lines: a job
/// with no processor count or a negative run time is an error naming its
/// line, or (with `--lenient`) is skipped and reported. Returns the trace
/// when no line was skipped: it is then exactly what the simulation reads
/// (the runnable check only adds errors), so it is not parsed again.
fn classic_checks(args: &RunArgs, strategies: &[StrategyRef], model: Option<&str>) -> anyhow::Result<Option<SwfTrace>> {
    // A queueing mode that models failures (an external scheduler is told
    // of them) takes them; the classic modes do not.
    let with_failures = !strategies.is_empty() && strategies.iter().all(|s| s.node_failures);
    if model.is_some_and(|m| m != "none") && !with_failures {
        anyhow::bail!(
            "the queueing modes (fcfs, easy, conservative, the priority rules) model no node failures; use --failures none"
        );
    }
    if args.reservation_percent > 0.0 {
        anyhow::bail!(
            "the queueing modes (fcfs, easy, conservative, the priority rules) take no reservations; drop --reservations"
        );
    }
    if let Some(given) = &args.trace {
        let path = slasim_data::trace::resolve_trace(given).map_err(anyhow::Error::msg)?;
        // A Batsim JSON workload has no SWF lines to check.
        if crate::workload::batsim::is_batsim_workload(&path) {
            return Ok(None);
        }
        let options = slasim_data::trace::swf::ReadOptions { lenient: args.lenient, runnable: true };
        let mut trace = crate::workload::load_trace(&path, options).map_err(|e| {
            anyhow::anyhow!(
                "{e}\n(the classic modes need a processor count and a run time; --lenient skips such lines)"
            )
        })?;
        if trace.skipped.total() > 0 {
            eprintln!("{}: {}", path.display(), trace.skipped);
            return Ok(None);
        }
        // As the workload names it ([`WorkloadSource::load`]).
        trace.name = given.display().to_string();
        return Ok(Some(trace));
    }
    Ok(None)
}
