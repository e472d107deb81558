//! `slasim slurm`: a workload on the machine and schedulers of a `slurm.conf`.
//!
//! Contract:
//! - `slurm conf --slurm-conf FILE` prints what slasim reads of the file,
//!   lists the settings it reads and checks but does not model yet, and
//!   every setting it does not read, each with its line; with `--assoc`,
//!   `--qos` and `--reservations` it reads those files too, checks them
//!   against each other and the conf, and says what they hold.
//! - `slurm run --slurm-conf FILE [--trace DUMP]` runs one Slurm point (the
//!   dump, or the synthetic Slurm workload) through the sweep executor and
//!   stores it, exactly as a config with the same `[slurm]` settings; it
//!   prints the point's aggregates from its run (from its stored row when
//!   the store already held it).
//! - `slurm compare --slurm-conf FILE DUMP` simulates the jobs of a sacct
//!   dump with their submit times and compares each job's simulated start
//!   with the logged one: the share of jobs whose start order is the same
//!   (no other job started before it in one run and after it in the other,
//!   beyond the tolerance; O(n log n)), and the distribution of start
//!   differences; and the share of pairs of jobs in the logged order
//!   ([`pairs_in_order`]), which one job started far from its place moves
//!   little; and the jobs Slurm preempted (`PREEMPTED` or `REQUEUED` on a
//!   line: a `sacct --duplicates` dump shows every run of a requeued job)
//!   with those the twin preempts. It
//!   exits 1 when the share is below `--min-in-order`, more than
//!   `--max-outside` jobs start beyond the tolerance, the pairs' share is
//!   below `--min-pairs-in-order`, or more than `--max-preempted-difference`
//!   jobs are preempted in one run only, and says which on stderr.
//! - `slurm compare --slurm-conf FILE DUMP --reference OTHER` compares the
//!   dump with another dump of the same workload instead of with the twin
//!   (Slurm against itself): jobs matched by name ([`crate::against`]),
//!   each dump's starts from its own first eligible time, the same measures
//!   and exit status, and the jobs preempted in one dump and not the other.
//! - Both print the per-job fidelity ([`crate::fidelity`]): the shares of
//!   jobs within 5 s and 60 s of their other start, Kendall's τ-b of the
//!   start orders, and the Kolmogorov–Smirnov distance of the waits.
//! - `slurm fidelity DIR` reads kept runs (tests/slurm/cluster.sh
//!   `--load-runs`: NAME and NAME-again per timing) and prints one row per
//!   comparison: Slurm against itself per timing, then the twin replaying
//!   each run as the cluster test replays it, with the per-job fidelity, the
//!   jobs and pairs in order and the preempted jobs; no threshold applies.
//!   `--plot FILE` draws, per timing, the share of jobs whose two starts are
//!   at most x seconds apart (up to 300 s), each comparison a line.
//! - `slurm forecast --slurm-conf FILE --queue SQUEUE --at EPOCH` forecasts
//!   each pending job's start from a snapshot of a live queue
//!   ([`crate::forecast`]), with Slurm's estimate beside it, in seconds from
//!   the snapshot; `--kept DIR` scores the forecasts at each snapshot of a
//!   kept loaded run against the starts that happened.
//! - `slurm conf`, `run` and `compare` read node events with `--node-events`.
//!
//! Rooms: this file holds the commands' arguments, `conf` and `run`;
//! `compare` holds `compare` and `fidelity`, `forecast` `forecast`.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, FromArgMatches, Subcommand};

mod compare;
mod forecast;

pub use compare::{Compared, first_node_logged, in_order, pairs_in_order};

use crate::fidelity::{Fidelity, NEAR, Starts, WITHIN_MINUTE, fidelity};
use crate::kind::{SlurmSettings, read, simulate_point_ending};
use crate::metrics::aggregates;
use crate::tables::Aggregates;
use slasim_core::cli::emit;
use slasim_core::cli::options::threads;
use slasim_core::experiment::config::Experiment;
use slasim_core::experiment::coordinator::{SweepOptions, run_sweep_returning};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::registry::Registry;
use slasim_core::store::Store;
use slasim_core::store::query::Table;
use slasim_sim::units::{Time, count, duration, percent, seconds, thousands};

#[derive(Debug, Subcommand)]
pub(crate) enum SlurmCommand {
    /// Print what slasim reads of a slurm.conf, and every setting it ignores.
    Conf(ConfArgs),
    /// Run a sacct dump (or the synthetic Slurm workload) on a slurm.conf's machine and store it.
    Run(RunArgs),
    /// Replay a sacct dump with its slurm.conf and compare every job's start with the logged one.
    Compare(CompareArgs),
    /// The per-job fidelity of kept runs (tests/slurm/cluster.sh --load-runs): Slurm against itself and the twin against each run.
    Fidelity(FidelityArgs),
    /// Forecast each pending job's start from a snapshot of a live queue, with an interval from replicas.
    Forecast(ForecastArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ForecastArgs {
    /// The slurm.conf of the cluster.
    #[arg(long, value_name = "FILE", required_unless_present = "kept")]
    slurm_conf: Option<PathBuf>,
    /// The snapshot: `SLURM_TIME_FORMAT=%s squeue -h -t PD,R -o '%i|%j|%u|%a|%P|%q|%T|%Q|%r|%V|%S|%l|%D|%C|%m|%b|%N|%E|%v|%f'`.
    #[arg(long, value_name = "FILE", required_unless_present = "kept", requires = "at")]
    queue: Option<PathBuf>,
    /// When the snapshot was taken (Unix seconds).
    #[arg(long, value_name = "EPOCH")]
    at: Option<i64>,
    /// `sprio -l` of the same instant: each pending job's age factor, which grows from there.
    #[arg(long, value_name = "FILE")]
    sprio: Option<PathBuf>,
    /// A sacct dump of the centre's history: run times are drawn from the jobs alike that ended before the snapshot (without it, every job runs to its limit).
    #[arg(long, value_name = "DUMP")]
    history: Option<PathBuf>,
    #[command(flatten)]
    dumps: Dumps,
    /// When slurmctld started (Unix seconds): the phase of its periodic passes.
    #[arg(long, value_name = "EPOCH")]
    controller_start: Option<i64>,
    /// When slurmctld's backfill agent started (Unix seconds): the phase of the backfill passes.
    #[arg(long, value_name = "EPOCH")]
    backfill_start: Option<i64>,
    /// Score forecasts on a kept run instead (tests/slurm/cluster.sh --load): at each of its snapshots, every pending job's forecast and Slurm's estimate against the start that happened, the run's dump as the history.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["slurm_conf", "queue", "history", "qos", "assoc", "reservations", "node_events"])]
    kept: Option<PathBuf>,
    /// Replicas of the run times (with a history).
    #[arg(long, default_value_t = 30)]
    replicas: u32,
    /// Seed of the replicas' draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print a Markdown table instead of an aligned table.
    #[arg(long)]
    markdown: bool,
}

#[derive(Debug, Args)]
pub(crate) struct FidelityArgs {
    /// A directory of kept runs: NAME and NAME-again for each timing
    /// (aligned, natural), each with its slurm.conf, its sacct dump
    /// (dump-duplicates.sacct, dump.sacct.gz or dump.sacct), QOS and
    /// association dumps, reservations, node events (sacctmgr-event.txt or events.txt),
    /// controller and backfill start, and
    /// an aligned run's grid.
    dir: PathBuf,
    /// Print a Markdown table instead of an aligned table.
    #[arg(long)]
    markdown: bool,
    /// Also draw, per timing, the distribution of the jobs' start
    /// differences of each comparison (SVG, or PNG by the name's extension).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ConfArgs {
    /// The slurm.conf.
    #[arg(long, value_name = "FILE", required_unless_present = "trace")]
    slurm_conf: Option<PathBuf>,
    /// A GPU-era trace: print the slurm.conf slasim generates for its machine
    /// (save it, edit it, and give it back with --slurm-conf).
    #[arg(long, conflicts_with_all = ["slurm_conf", "assoc", "qos", "reservations", "node_events"])]
    trace: Option<PathBuf>,
    /// The centre's dumps, read and checked against each other and the conf.
    #[command(flatten)]
    dumps: Dumps,
}

/// The centre's dumps beside its slurm.conf, each as its `[slurm]` key.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct Dumps {
    /// A `sacctmgr show qos -P` dump: the QOS factor and limits (`[slurm] qos`).
    #[arg(long, value_name = "FILE")]
    qos: Option<PathBuf>,
    /// A `sacctmgr show assoc -P` dump: the fair-share tree and limits (`[slurm] assoc`).
    #[arg(long, value_name = "FILE")]
    assoc: Option<PathBuf>,
    /// A `scontrol show reservation` file: the advance reservations (`[slurm] reservations`).
    #[arg(long, value_name = "FILE")]
    reservations: Option<PathBuf>,
    /// A `sacctmgr show event -P` dump: nodes out of scheduling (`[slurm] node_events`).
    #[arg(long, value_name = "FILE")]
    node_events: Option<PathBuf>,
}

impl Dumps {
    /// `settings` with these dumps.
    fn onto(&self, settings: SlurmSettings) -> SlurmSettings {
        SlurmSettings {
            qos: self.qos.clone(),
            assoc: self.assoc.clone(),
            reservations: self.reservations.clone(),
            node_events: self.node_events.clone(),
            ..settings
        }
    }

    /// The QOS, association, reservations and node event dumps.
    fn paths(&self) -> [Option<&std::path::Path>; 4] {
        [self.qos.as_deref(), self.assoc.as_deref(), self.reservations.as_deref(), self.node_events.as_deref()]
    }

    /// Any dump given.
    fn given(&self) -> bool {
        self.qos.is_some() || self.assoc.is_some() || self.reservations.is_some() || self.node_events.is_some()
    }
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The slurm.conf: nodes, partitions, priority and schedulers (generated from a GPU-era trace without it).
    #[arg(long, value_name = "FILE")]
    slurm_conf: Option<PathBuf>,
    /// A sacct dump (`sacct --allusers --parsable2`) or a GPU-era trace; without it, the synthetic Slurm workload.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed dump lines instead of failing.
    #[arg(long)]
    lenient: bool,
    /// Seed of the synthetic workload.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Days of the synthetic workload.
    #[arg(long, default_value_t = 30.0)]
    days: f64,
    #[command(flatten)]
    dumps: Dumps,
    /// The store.
    #[arg(long, default_value = "slasim.sqlite")]
    db: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// The slurm.conf the dump's jobs ran under.
    #[arg(long, value_name = "FILE")]
    slurm_conf: PathBuf,
    /// The sacct dump (with Submit, Start and, for TRES, ReqTRES).
    dump: PathBuf,
    /// Seconds within which a simulated start counts as the logged one
    /// (default: the conf's bf_interval, Slurm's backfill cycle).
    #[arg(long, value_name = "SECONDS")]
    tolerance: Option<Time>,
    /// Fail when fewer jobs than this share start in the logged order.
    #[arg(long, default_value_t = 0.95)]
    min_in_order: f64,
    /// Fail when more jobs than this start beyond the tolerance (default: no bound).
    #[arg(long, value_name = "JOBS")]
    max_outside: Option<usize>,
    /// Fail when fewer pairs of jobs than this share start in the logged
    /// order (pairs whose logged starts differ by more than the tolerance).
    #[arg(long, default_value_t = 0.0)]
    min_pairs_in_order: f64,
    /// Write one CSV line per job here: its logged and simulated start,
    /// their difference, its logged nodes and first simulated node, and
    /// whether that node is among the logged ones.
    #[arg(long, value_name = "FILE.csv")]
    out: Option<PathBuf>,
    /// When slurmctld started (Unix seconds): the phase of its periodic
    /// priority and scheduling passes (the dump needs SLURM_TIME_FORMAT=%s times).
    #[arg(long, value_name = "EPOCH")]
    controller_start: Option<i64>,
    /// When slurmctld's backfill agent started (Unix seconds; its log's
    /// `Running as primary controller`): the phase of the backfill passes.
    #[arg(long, value_name = "EPOCH", conflicts_with = "reference")]
    backfill_start: Option<i64>,
    /// Compare the dump with this other sacct dump of the same workload
    /// (another run on Slurm) instead of with the simulation: jobs matched by
    /// name, starts from each dump's first eligible time, and the preempted
    /// jobs of each (`--duplicates` dumps show the requeued runs).
    #[arg(long, value_name = "OTHER.sacct", conflicts_with = "controller_start")]
    reference: Option<PathBuf>,
    /// The dumps the replay models (not with --reference).
    #[command(flatten)]
    dumps: Dumps,
    /// Fail when more jobs than this are preempted in one run and not in
    /// the other.
    #[arg(long, value_name = "JOBS")]
    max_preempted_difference: Option<usize>,
    /// The jobs slept to a grid: each ran until a fixed time after the grid
    /// point (EPOCH plus a multiple of SECONDS) nearest its start, as the
    /// test cluster's aligned runs do. The replay ends each run that long
    /// after the grid point nearest its simulated start (the time read from
    /// the dump: End less the grid point nearest Start), not its logged
    /// elapsed time after its simulated start.
    #[arg(long, value_name = "EPOCH:SECONDS", value_parser = crate::queued::parse_grid, conflicts_with = "reference")]
    grid: Option<(i64, i64)>,
}

/// `slasim slurm`, as the command line registers it.
pub struct SlurmSubcommand;

impl slasim_core::cli::subcommand::Subcommand for SlurmSubcommand {
    fn name(&self) -> &'static str {
        "slurm"
    }

    fn command(&self) -> clap::Command {
        let slurm = clap::Command::new("slurm")
            .about(
                "Slurm's scheduling on a slurm.conf's machine: read the conf, run a sacct dump or a synthetic \
                 workload, compare with what Slurm did",
            )
            .subcommand_required(true)
            .arg_required_else_help(true);
        SlurmCommand::augment_subcommands(slurm)
    }

    fn run(&self, registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<std::process::ExitCode> {
        run(registry, SlurmCommand::from_arg_matches(matches)?)
    }
}

/// Runs `slasim slurm …`.
pub(crate) fn run(registry: &Registry, command: SlurmCommand) -> anyhow::Result<std::process::ExitCode> {
    match command {
        SlurmCommand::Conf(args) => conf(args),
        SlurmCommand::Run(args) => run_point(registry, args),
        SlurmCommand::Compare(args) => compare::compare(args),
        SlurmCommand::Fidelity(args) => compare::fidelity_of_runs(args),
        SlurmCommand::Forecast(args) => forecast::forecast(args),
    }
}

fn conf(args: ConfArgs) -> anyhow::Result<std::process::ExitCode> {
    let conf_path = match (&args.slurm_conf, &args.trace) {
        (Some(path), _) => path.clone(),
        (None, Some(trace)) => {
            // The machine a GPU-era trace describes, as the point would run it.
            let settings = SlurmSettings { trace: Some(trace.clone()), ..SlurmSettings::default() };
            let text = settings.generated_conf()?.map(|(text, _)| text).unwrap_or_default();
            emit(&text)?;
            return Ok(std::process::ExitCode::SUCCESS);
        }
        (None, None) => {
            anyhow::bail!("slurm conf: give --slurm-conf FILE, or --trace FILE for a GPU-era trace's machine")
        }
    };
    let conf = crate::conf::read(&conf_path)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}: {} nodes, {} partitions; what slasim reads of it, as slurm.conf lines:",
        conf_path.display(),
        conf.nodes.len(),
        conf.partitions.len()
    );
    for line in crate::written::conf_lines(&conf) {
        let _ = writeln!(out, "{line}");
    }
    for p in &conf.partitions {
        let (cpus, gpus): (u32, u32) =
            p.nodes.iter().fold((0, 0), |(c, g), &i| (c + conf.nodes[i].cpus, g + conf.nodes[i].gpus));
        let _ = writeln!(
            out,
            "# partition {} (line {}): {} nodes, {cpus} CPUs, {gpus} GPUs",
            p.name,
            p.line,
            p.nodes.len()
        );
    }
    let billed: Vec<String> = conf
        .partitions
        .iter()
        .map(|p| {
            let w = p.billing_weights.as_deref().unwrap_or(&conf.site.billing_weights);
            let w: Vec<String> = w.iter().map(|(n, x)| format!("{n}={x}")).collect();
            format!("{} {}", p.name, if w.is_empty() { "CPUs".to_string() } else { w.join(",") })
        })
        .collect();
    let _ = writeln!(out, "# usage charged (TRESBillingWeights, mem per MiB): {}", billed.join("; "));
    if conf.site.requeue.allowed {
        let _ = writeln!(
            out,
            "# a requeued job waits {} before it may start again (AuthInfo cred_expire + 1)",
            seconds(conf.site.requeue.delay)
        );
    } else {
        let _ = writeln!(out, "# no job is requeued (JobRequeue=0): a job preempted or on a failed node is ended");
    }
    // With a QOS dump, PriorityWeightQOS weighs the QOS factor.
    let unmodelled: Vec<_> = conf
        .unmodelled
        .iter()
        .filter(|i| args.dumps.qos.is_none() || !i.key.eq_ignore_ascii_case("PriorityWeightQOS"))
        .collect();
    if !unmodelled.is_empty() {
        let _ = writeln!(
            out,
            "# read, not modelled yet ({} settings slasim checks but does not simulate):",
            unmodelled.len()
        );
        for i in unmodelled {
            let _ = writeln!(out, "#   line {}: {}", i.line, i.key);
        }
    }
    dumps(&args, &conf, &mut out)?;
    if conf.ignored.is_empty() {
        let _ = writeln!(out, "# ignored: nothing");
    } else {
        let _ = writeln!(out, "# ignored ({} settings slasim does not model):", conf.ignored.len());
        for i in &conf.ignored {
            let _ = writeln!(out, "#   line {}: {}", i.line, i.key);
        }
    }
    emit(&out)?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Reads the accounting dumps, reservations and node events `args` name, checks them
/// against each other and `conf`, and says what they hold.
fn dumps(args: &ConfArgs, conf: &crate::conf::SlurmConf, out: &mut String) -> anyhow::Result<()> {
    let assoc = args.dumps.assoc.as_deref().map(crate::sacctmgr::read_assoc).transpose()?;
    let qos = args.dumps.qos.as_deref().map(crate::sacctmgr::read_qos).transpose()?;
    if let (Some(a), Some(q)) = (&assoc, &qos) {
        crate::sacctmgr::check_qos_names(a, q)?;
    }
    if let Some(q) = &qos {
        crate::sacctmgr::check_partition_qos(conf, q)?;
    }
    if let Some(a) = &assoc {
        let users = a.assocs.iter().filter(|x| x.user.is_some()).count();
        let _ = writeln!(out, "# {}: {} associations ({users} of users), as read:", a.path.display(), a.assocs.len(),);
        for line in crate::written::assoc_lines(&a.assocs) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(
            out,
            "# modelled with `[slurm] assoc`: Account, User, Par Name, Share (the fair-share tree), GrpJobs, \
             GrpSubmit, MaxJobs, MaxSubmit, MaxWall, GrpTRES, and MaxTRES, MaxTRESPerNode and MaxTRESMins (cpu, \
             mem, node, gres/gpu); read, not modelled yet: the other columns{}",
            unread(&a.ignored)
        );
    }
    if let Some(q) = &qos {
        let _ = writeln!(out, "# {}: {} QOS, as read:", q.path.display(), q.qos.len());
        for line in crate::written::qos_lines(&q.qos) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(
            out,
            "# modelled with `[slurm] qos`: Priority (the QOS factor), GrpJobs, GrpSubmit, \
             MaxJobsPU, MaxSubmitPU, MaxJobsPA, MaxSubmitPA, MaxWall, and GrpTRES, MaxTRES, MaxTRESPerNode, \
             MaxTRESMins, MinTRES, MaxTRESPU, MaxTRESPA and GrpTRESRunMins (cpu, mem, node, gres/gpu), Flags \
             DenyOnLimit, OverPartQOS and UsageFactorSafe, Preempt, PreemptMode, PreemptExemptTime; read, not modelled yet: the \
             other columns and TRES{}",
            unread(&q.ignored)
        );
    }
    if let Some(path) = &args.dumps.reservations {
        let r = crate::reservation::read(path)?;
        crate::reservation::check_against(&r, conf)?;
        crate::advance::check_modelled(&r)?;
        let names: Vec<&str> = r.reservations.iter().map(|x| x.name.as_str()).collect();
        let _ = writeln!(
            out,
            "# {}: {} reservations: {}; modelled: nodes held in each window, the jobs that name them; \
             not modelled: Groups, Licenses, BurstBuffer, Watts",
            path.display(),
            r.reservations.len(),
            names.join(", ")
        );
        for i in &r.ignored {
            let _ = writeln!(out, "#   line {}: {} (ignored)", i.line, i.key);
        }
    }
    if let Some(path) = &args.dumps.node_events {
        let d = crate::sacctmgr::read_events(path)?;
        let nodes = crate::outage::nodes_of(&d, &crate::machine::Machine::new(conf))?;
        let mut touched: Vec<u32> = nodes.into_iter().flatten().collect();
        touched.sort_unstable();
        touched.dedup();
        let down = d.events.iter().filter(|e| e.kind == crate::sacctmgr::NodeEventKind::Down).count();
        let _ = writeln!(
            out,
            "# {}: {} ({down} down, {} drained or failing) on {}, {} not over; {} skipped; modelled: no job \
             starts on a node during its events; not modelled: a down node's jobs are not killed{}",
            path.display(),
            count(d.events.len(), "node event", "node events"),
            d.events.len() - down,
            count(touched.len(), "node", "nodes"),
            d.events.iter().filter(|e| e.end.is_none()).count(),
            count(d.cluster_events, "cluster event", "cluster events"),
            unread(&d.ignored)
        );
    }
    Ok(())
}

/// `; columns not read: A, B` (empty without).
fn unread(columns: &[String]) -> String {
    if columns.is_empty() { String::new() } else { format!("; columns not read: {}", columns.join(", ")) }
}

fn run_point(registry: &Registry, args: RunArgs) -> anyhow::Result<std::process::ExitCode> {
    let settings = args.dumps.onto(SlurmSettings {
        seed: args.seed,
        conf: args.slurm_conf.clone().unwrap_or_default(),
        trace: args.trace.clone(),
        lenient: args.lenient,
        synthetic: crate::synthetic::SlurmSynthetic { days: args.days, ..Default::default() },
        ..SlurmSettings::default()
    });
    let point = Point::new(settings.resolve()?);
    let label = point.label();
    let experiment = Experiment::from_points("slurm", "slasim slurm run", [(point.clone(), label)])?;
    let options = SweepOptions { threads: threads(args.jobs), shard: None, progress: true, interrupts: None };
    let (outcome, results) = run_sweep_returning(registry, &experiment, &args.db, &options, Inputs::default())?;
    let id = point.id()?.run_id;
    let simulated = results.iter().find(|r| r.run_id == id).and_then(|r| r.summary_as::<Aggregates>().cloned());
    let aggregates = match simulated {
        Some(a) => a,
        // Already in the store: its row there.
        None => crate::tables::stored_aggregates(&Store::open(&args.db, registry.groups())?, id)?
            .with_context(|| format!("{}: no slurm_points row for point {id}", args.db.display()))?,
    };
    let mut out = format!(
        "{}: {}, {} already there, {} simulated now in {}; stored in {} (slurm_points, slurm_groups, slurm_jobs; point_id {id})\n",
        experiment.name,
        count(outcome.total, "point", "points"),
        outcome.already,
        outcome.done,
        seconds(format_args!("{:.2}", outcome.wall_seconds)),
        args.db.display()
    );
    out.push_str(&summary_table(&aggregates).to_text());
    emit(&out)?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// A point's aggregates as `slurm run` prints them: the figures of its
/// `slurm_points` row, in the units every command prints
/// ([`slasim_sim::units`]); an absent figure (no job ran, no GPU) is empty.
fn summary_table(a: &Aggregates) -> Table {
    let columns = ["jobs", "mean wait", "max wait", "CPU utilisation", "GPU utilisation", "backfilled"];
    let or_empty = |v: Option<String>| v.unwrap_or_default();
    Table {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows: vec![vec![
            thousands(a.jobs),
            or_empty(a.mean_wait.map(duration)),
            or_empty(a.max_wait.map(|w| duration(w as f64))),
            or_empty(a.cpu_utilisation.map(percent)),
            or_empty(a.gpu_utilisation.map(percent)),
            thousands(a.backfilled),
        ]],
    }
}
