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

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, FromArgMatches, Subcommand};

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
    /// their difference, and its logged nodes and first simulated node.
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
        SlurmCommand::Compare(args) => compare(args),
        SlurmCommand::Fidelity(args) => fidelity_of_runs(args),
        SlurmCommand::Forecast(args) => forecast(args),
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
    let _ = writeln!(
        out,
        "# a requeued job waits {} before it may start again (AuthInfo cred_expire + 1)",
        seconds(conf.site.preempt.requeue_delay)
    );
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

/// One job of a comparison.
#[derive(Debug, Clone)]
pub struct Compared<'a> {
    pub id: u64,
    pub submit: Time,
    /// Its submission in the other schedule (the twin's is the dump's).
    pub simulated_submit: Time,
    pub logged: Time,
    pub simulated: Time,
    pub backfilled: bool,
    pub logged_nodes: &'a str,
    pub simulated_node: &'a str,
}

fn compare(args: CompareArgs) -> anyhow::Result<std::process::ExitCode> {
    let (out, ok, _) = compared(&args)?;
    emit(&out)?;
    Ok(if ok { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::FAILURE })
}

/// What a comparison found, beside its text: the per-job measures, the
/// pairs in order, and the jobs preempted in one run only and in both.
#[derive(Debug, Clone)]
pub(crate) struct Summary {
    fidelity: Fidelity,
    /// Each job's other start less its reference start, in increasing order.
    differences: Vec<Time>,
    /// Jobs in the logged order.
    in_order: usize,
    pairs: (u64, u64),
    preempted_differ: usize,
    preempted_both: usize,
}

/// `slurm compare`'s text, whether it passed its thresholds, and its
/// [`Summary`]: the twin's replay of the dump, or with `--reference` the
/// dump against the other.
fn compared(args: &CompareArgs) -> anyhow::Result<(String, bool, Summary)> {
    if let Some(other) = &args.reference {
        anyhow::ensure!(
            !args.dumps.given(),
            "--reference compares two dumps as logged: --qos, --assoc, --reservations and --node-events are for a replay"
        );
        return compare_dumps(args, other);
    }
    let settings = args.dumps.onto(SlurmSettings {
        conf: args.slurm_conf.clone(),
        trace: Some(args.dump.clone()),
        controller_start: args.controller_start,
        backfill_start: args.backfill_start,
        ..SlurmSettings::default()
    });
    let mut read = read(&settings)?;
    let run_end = crate::queued::aligned(args.grid, &mut read.workload, &args.dump)?;
    let inputs = read.admit()?;
    let run = simulate_point_ending(&settings, &inputs, run_end)?;
    let tolerance = args.tolerance.unwrap_or(inputs.conf.scheduler.bf_interval).max(0);
    let machine = &inputs.admission.machine;
    let jobs: Vec<Compared> = inputs
        .workload
        .jobs
        .iter()
        .zip(&run.outcomes)
        .filter_map(|(job, o)| {
            let logged = job.logged.as_ref()?;
            Some(Compared {
                id: job.id,
                submit: job.submit,
                simulated_submit: job.submit,
                logged: logged.start,
                simulated: o.start,
                backfilled: o.backfilled,
                logged_nodes: logged.node_list.as_deref().unwrap_or(""),
                simulated_node: if o.start >= 0 {
                    machine.spec.names.get(o.first_node as usize).map_or("", String::as_str)
                } else {
                    ""
                },
            })
        })
        .collect();
    anyhow::ensure!(!jobs.is_empty(), "{}: no job with a logged start to compare", args.dump.display());
    let mut out = String::new();
    let _ = writeln!(out, "{} jobs of {} replayed on {}", jobs.len(), args.dump.display(), args.slurm_conf.display());
    let (mut ok, mut summary) = measures(args, &jobs, tolerance, &mut out)?;
    // The preempted jobs, named as `--reference` names them.
    let slurm = crate::against::read_starts(&args.dump)?;
    let key: std::collections::HashMap<u64, &str> = slurm.jobs.iter().map(|j| (j.id, j.key.as_str())).collect();
    let name = |id: u64| key.get(&id).map_or_else(|| id.to_string(), |k| k.to_string());
    let logged: std::collections::BTreeSet<String> =
        slurm.jobs.iter().filter(|j| j.preempted).map(|j| j.key.clone()).collect();
    let simulated: std::collections::BTreeSet<String> = inputs
        .workload
        .jobs
        .iter()
        .zip(&run.outcomes)
        .filter(|(_, o)| o.preempted > 0 || o.preempt_cancelled)
        .map(|(job, _)| name(job.id))
        .collect();
    if !logged.is_empty() || !simulated.is_empty() {
        let (passed, differ, both) =
            preempted_sets(args, &logged, &args.dump.display().to_string(), &simulated, "the twin", &mut out);
        ok &= passed;
        (summary.preempted_differ, summary.preempted_both) = (differ, both);
    }
    let a = aggregates(&inputs, &run);
    let _ = writeln!(
        out,
        "simulated: mean wait {}, {} jobs backfilled",
        a.mean_wait.map_or_else(|| "none (no job ran)".to_string(), duration),
        thousands(a.backfilled)
    );
    Ok((out, ok, summary))
}

/// `slurm fidelity DIR`: for each timing with two kept runs, Slurm against
/// itself, then the twin replaying each run, one row each (the module's
/// contract).
fn fidelity_of_runs(args: FidelityArgs) -> anyhow::Result<std::process::ExitCode> {
    let mut names: Vec<String> = std::fs::read_dir(&args.dir)
        .with_context(|| format!("{}: cannot read the kept runs", args.dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| args.dir.join(format!("{n}-again")).is_dir())
        .collect();
    names.sort();
    anyhow::ensure!(
        !names.is_empty(),
        "{}: no pair of kept runs (NAME and NAME-again), as tests/slurm/cluster.sh --load-runs keeps them",
        args.dir.display()
    );
    let columns = [
        "comparison",
        "jobs",
        "within 5 s",
        "within 60 s",
        "Kendall's tau-b",
        "KS distance of waits",
        "jobs in order",
        "pairs in order",
        "preempted in one only",
        "preempted in both",
    ];
    let mut rows = Vec::new();
    let mut panels = Vec::new();
    for name in &names {
        let (first, again) = (args.dir.join(name), args.dir.join(format!("{name}-again")));
        let mut itself = kept_run(&first)?;
        itself.reference = Some(kept_dump(&again)?);
        (itself.controller_start, itself.backfill_start, itself.grid) = (None, None, None);
        itself.dumps = Dumps::default();
        let mut compared_here = vec![(format!("Slurm against itself, {name}"), itself)];
        for (label, dir) in [("first", &first), ("second", &again)] {
            compared_here.push((format!("the twin, {label} {name} run"), kept_run(dir)?));
        }
        let mut series = Vec::new();
        for (k, (label, compare)) in compared_here.into_iter().enumerate() {
            let (_, _, summary) = compared(&compare)?;
            rows.push(fidelity_row(label.clone(), &summary));
            series.push(start_difference_cdf(label, &summary.differences, k));
        }
        panels.push(slasim_core::report::plots::Panel {
            title: format!("{name}: how far each job's start is from its other run's"),
            x_label: format!("|start difference| (s, up to {PLOTTED_DIFFERENCE})"),
            y_label: "share of jobs".into(),
            series,
            ..Default::default()
        });
    }
    if let Some(path) = &args.plot {
        let figure = slasim_core::report::plots::Figure {
            id: "slurm-start-differences".into(),
            caption: "The twin against Slurm beside Slurm against itself: the share of jobs whose starts in the \
                      two runs compared are at most x seconds apart"
                .into(),
            panels,
        };
        write_figure(&figure, path)?;
    }
    let table = Table { columns: columns.iter().map(|c| c.to_string()).collect(), rows };
    emit(&if args.markdown { table.to_markdown() } else { table.to_text() })?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// The widest start difference the figure of `slurm fidelity` draws.
const PLOTTED_DIFFERENCE: Time = 300;

/// The share of jobs whose |start difference| is at most x, for x from 0
/// to [`PLOTTED_DIFFERENCE`]: a step up at each distinct difference.
fn start_difference_cdf(name: String, differences: &[Time], colour: usize) -> slasim_core::report::plots::Series {
    let mut far: Vec<Time> = differences.iter().map(|d| d.abs()).collect();
    far.sort_unstable();
    let n = far.len().max(1) as f64;
    let mut points = Vec::new();
    let mut k = 0;
    for x in 0..=PLOTTED_DIFFERENCE {
        let before = k as f64 / n;
        while k < far.len() && far[k] <= x {
            k += 1;
        }
        let share = k as f64 / n;
        // A step: the share just below x, then at x.
        if x > 0 && share > before {
            points.push((x as f64, before, before, before));
        }
        if x == 0 || x == PLOTTED_DIFFERENCE || share > before {
            points.push((x as f64, share, share, share));
        }
    }
    slasim_core::report::plots::Series { name, points, line: true, line_only: true, colour, ..Default::default() }
}

/// Writes `figure` to `path`: PNG by a `.png` name, else SVG.
fn write_figure(figure: &slasim_core::report::plots::Figure, path: &std::path::Path) -> anyhow::Result<()> {
    let png = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        figure.png(path).map_err(|e| anyhow::anyhow!("{}: cannot draw: {e}", path.display()))
    } else {
        let svg = figure.svg().map_err(|e| anyhow::anyhow!("{}: cannot draw: {e}", path.display()))?;
        std::fs::write(path, svg).map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))
    }
}

/// One row of `slurm fidelity`: a comparison's summary.
fn fidelity_row(label: String, s: &Summary) -> Vec<String> {
    let f = s.fidelity;
    let of_jobs = |n: usize| percent(n as f64 / f.jobs.max(1) as f64);
    vec![
        label,
        thousands(f.jobs),
        of_jobs(f.within_5),
        of_jobs(f.within_60),
        f.tau_b.map_or_else(String::new, |tau| format!("{tau:.4}")),
        format!("{:.3}", f.ks_wait),
        of_jobs(s.in_order),
        percent(if s.pairs.1 == 0 { 1.0 } else { s.pairs.0 as f64 / s.pairs.1 as f64 }),
        s.preempted_differ.to_string(),
        s.preempted_both.to_string(),
    ]
}

/// The first of `names` in `dir`.
fn first_in(dir: &std::path::Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// A kept run's sacct dump.
fn kept_dump(dir: &std::path::Path) -> anyhow::Result<PathBuf> {
    first_in(dir, &["dump-duplicates.sacct", "dump.sacct.gz", "dump.sacct"])
        .ok_or_else(|| anyhow::anyhow!("{}: no dump-duplicates.sacct, dump.sacct.gz or dump.sacct", dir.display()))
}

/// An epoch kept in `dir/name`, if there.
fn kept_epoch(dir: &std::path::Path, name: &str) -> anyhow::Result<Option<i64>> {
    let path = dir.join(name);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read", path.display()))?;
    let epoch = text
        .trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("{}:1: `{}` is not Unix seconds", path.display(), text.trim()))?;
    Ok(Some(epoch))
}

/// The twin's replay of the kept run in `dir`, as tests/slurm/cluster.sh
/// replays it: its dump, conf, QOS, associations, reservations and node events, its
/// controller and backfill start, and an aligned run's grid; no threshold.
fn kept_run(dir: &std::path::Path) -> anyhow::Result<CompareArgs> {
    let grid = match first_in(dir, &["grid.txt"]) {
        Some(path) => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read", path.display()))?;
            Some(crate::queued::parse_grid(text.trim()).map_err(|e| anyhow::anyhow!("{}:1: {e}", path.display()))?)
        }
        None => None,
    };
    Ok(CompareArgs {
        slurm_conf: dir.join("slurm.conf"),
        dump: kept_dump(dir)?,
        tolerance: None,
        min_in_order: 0.0,
        max_outside: None,
        min_pairs_in_order: 0.0,
        out: None,
        controller_start: kept_epoch(dir, "decay-start.txt")?,
        backfill_start: kept_epoch(dir, "backfill-start.txt")?,
        reference: None,
        dumps: Dumps {
            qos: first_in(dir, &["sacctmgr-qos.txt", "qos.txt"]),
            assoc: first_in(dir, &["sacctmgr-assoc.txt", "assoc.txt"]),
            reservations: first_in(dir, &["reservations.txt"]),
            node_events: first_in(dir, &["sacctmgr-event.txt", "events.txt"]),
        },
        max_preempted_difference: None,
        grid,
    })
}

/// `slurm compare --reference OTHER`: the dump (as logged) against another
/// dump of the same workload (as simulated), jobs matched by name.
fn compare_dumps(args: &CompareArgs, other: &std::path::Path) -> anyhow::Result<(String, bool, Summary)> {
    let conf = crate::conf::read(&args.slurm_conf)?;
    let tolerance = args.tolerance.unwrap_or(conf.scheduler.bf_interval).max(0);
    let a = crate::against::read_starts(&args.dump)?;
    let b = crate::against::read_starts(other)?;
    let by_key: std::collections::HashMap<&str, &crate::against::DumpJob> =
        b.jobs.iter().map(|j| (j.key.as_str(), j)).collect();
    // The jobs of both, each start as `start` picks it.
    let matched = |start: fn(&crate::against::DumpJob) -> Time, nodes: bool| -> Vec<Compared> {
        a.jobs
            .iter()
            .filter_map(|x| {
                let y = by_key.get(x.key.as_str())?;
                Some(Compared {
                    id: x.id,
                    submit: x.submit,
                    simulated_submit: y.submit,
                    logged: start(x),
                    simulated: start(y),
                    backfilled: false,
                    logged_nodes: if nodes { &x.nodes } else { "" },
                    simulated_node: if nodes { &y.nodes } else { "" },
                })
            })
            .collect()
    };
    let jobs = matched(|j| j.start, true);
    anyhow::ensure!(
        !jobs.is_empty(),
        "{} and {}: no job of the same name started in both",
        args.dump.display(),
        other.display()
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} jobs of {} matched by name in {} (Slurm against itself; \"simulated\" below is {})",
        jobs.len(),
        args.dump.display(),
        other.display(),
        other.display()
    );
    let only = |x: &crate::against::DumpStarts, y: &crate::against::DumpStarts| -> Vec<String> {
        let keys: std::collections::HashSet<&str> = y.jobs.iter().map(|j| j.key.as_str()).collect();
        x.jobs.iter().filter(|j| !keys.contains(j.key.as_str())).map(|j| j.key.clone()).collect()
    };
    for (x, y, name) in [(&a, &b, &args.dump), (&b, &a, &other.to_path_buf())] {
        let missing = only(x, y);
        if !missing.is_empty() || !x.never_started.is_empty() {
            let _ = writeln!(
                out,
                "  {}: {} started jobs not started in the other ({}); {} never started",
                name.display(),
                missing.len(),
                list(&missing),
                x.never_started.len()
            );
        }
    }
    let (ok, mut summary) = measures(args, &jobs, tolerance, &mut out)?;
    // The same measures on first starts: a requeued job's later runs left out.
    let first = matched(|j| j.first_start, false);
    let first_in_order = in_order(&first, tolerance).iter().filter(|&&ok| ok).count();
    let first_within = first.iter().filter(|j| (j.simulated - j.logged).abs() <= tolerance).count();
    let _ = writeln!(
        out,
        "by first start (a requeued job's first run): {first_in_order} of {} jobs in the same order ({}), \
         {first_within} within {} ({})",
        first.len(),
        percent(first_in_order as f64 / first.len() as f64),
        seconds(tolerance),
        percent(first_within as f64 / first.len() as f64)
    );
    let preempted = |x: &crate::against::DumpStarts| -> std::collections::BTreeSet<String> {
        x.jobs.iter().filter(|j| j.preempted).map(|j| j.key.clone()).collect()
    };
    let (passed, preempted_differ, preempted_both) = preempted_sets(
        args,
        &preempted(&a),
        &args.dump.display().to_string(),
        &preempted(&b),
        &other.display().to_string(),
        &mut out,
    );
    (summary.preempted_differ, summary.preempted_both) = (preempted_differ, preempted_both);
    Ok((out, ok & passed, summary))
}

/// The preempted jobs of two runs (`PREEMPTED` or `REQUEUED` in a dump; at
/// least one preemption in the twin), written to `out`. True unless more
/// jobs than `--max-preempted-difference` are in one set only; with the
/// jobs in one set only and in both.
fn preempted_sets(
    args: &CompareArgs,
    a: &std::collections::BTreeSet<String>,
    a_name: &str,
    b: &std::collections::BTreeSet<String>,
    b_name: &str,
    out: &mut String,
) -> (bool, usize, usize) {
    let only_a: Vec<String> = a.difference(b).cloned().collect();
    let only_b: Vec<String> = b.difference(a).cloned().collect();
    let differ = only_a.len() + only_b.len();
    let _ = writeln!(
        out,
        "preempted: {} in {a_name}, {} in {b_name}, {} in both, {differ} in one only; only in {a_name}: {}; only in {b_name}: {}",
        a.len(),
        b.len(),
        a.intersection(b).count(),
        list(&only_a),
        list(&only_b)
    );
    let ok = args.max_preempted_difference.is_none_or(|max| differ <= max);
    if !ok {
        below(&format!(
            "{differ} jobs are preempted in one run only, more than --max-preempted-difference {}",
            args.max_preempted_difference.unwrap_or_default()
        ));
    }
    (ok, differ, a.intersection(b).count())
}

/// Says on stderr which threshold a comparison missed (its exit status is 1).
fn below(what: &str) {
    eprintln!("slurm compare: {what}");
}

/// `a, b, c` (at most 20, then how many more), or `none`.
fn list(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    let mut s = names.iter().take(20).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 20 {
        s.push_str(&format!(", and {} more", names.len() - 20));
    }
    s
}

/// The measures of a comparison, written to `out` (and `--csv`): the
/// in-order share, the start differences, the jobs beyond the tolerance,
/// the per-job fidelity ([`crate::fidelity`]). True when they pass
/// `--min-in-order` and `--max-outside`; with their [`Summary`] (its
/// preempted jobs left for the caller).
fn measures(
    args: &CompareArgs,
    jobs: &[Compared],
    tolerance: Time,
    out: &mut String,
) -> anyhow::Result<(bool, Summary)> {
    let in_order_flags = in_order(jobs, tolerance);
    let in_order = in_order_flags.iter().filter(|&&ok| ok).count();
    let mut diffs: Vec<Time> = jobs.iter().map(|j| j.simulated - j.logged).collect();
    diffs.sort_unstable();
    let outside: Vec<&Compared> = jobs.iter().filter(|j| (j.simulated - j.logged).abs() > tolerance).collect();
    let q = |p: f64| diffs[((diffs.len() - 1) as f64 * p).round() as usize];
    let share = in_order as f64 / jobs.len() as f64;
    let _ = writeln!(
        out,
        "start order: {in_order} of {} jobs in the logged order ({}), tolerance {}",
        jobs.len(),
        percent(share),
        seconds(tolerance)
    );
    let _ = writeln!(
        out,
        "simulated − logged start (s): min {}, 5% {}, 25% {}, median {}, 75% {}, 95% {}, max {}",
        diffs[0],
        q(0.05),
        q(0.25),
        q(0.5),
        q(0.75),
        q(0.95),
        diffs[diffs.len() - 1]
    );
    let within = jobs.len() - outside.len();
    let _ = writeln!(
        out,
        "within {} of the logged start: {within} of {} jobs ({})",
        seconds(tolerance),
        jobs.len(),
        percent(within as f64 / jobs.len() as f64)
    );
    let (pairs_in_order, pairs) = pairs_in_order(jobs, tolerance);
    let pair_share = if pairs == 0 { 1.0 } else { pairs_in_order as f64 / pairs as f64 };
    let _ = writeln!(
        out,
        "pairs in the logged order: {pairs_in_order} of {pairs} ({}; pairs whose logged starts differ by more than {})",
        percent(pair_share),
        seconds(tolerance)
    );
    let exact = diffs.iter().filter(|&&d| d == 0).count();
    let _ = writeln!(out, "identical starts: {exact}");
    let starts: Vec<Starts> = jobs
        .iter()
        .map(|j| Starts { submit: j.submit, reference: j.logged, other_submit: j.simulated_submit, other: j.simulated })
        .collect();
    let f = fidelity(&starts);
    let of_jobs = |n: usize| percent(n as f64 / f.jobs as f64);
    let _ = writeln!(
        out,
        "per job: {} within {} ({}), {} within {} ({}); Kendall's tau-b of the start orders {}; \
         Kolmogorov-Smirnov distance of the waits {:.3}",
        f.within_5,
        seconds(NEAR),
        of_jobs(f.within_5),
        f.within_60,
        seconds(WITHIN_MINUTE),
        of_jobs(f.within_60),
        f.tau_b.map_or_else(|| "undefined".to_string(), |tau| format!("{tau:.4}")),
        f.ks_wait
    );
    const SHOWN: usize = 20;
    if outside.len() > SHOWN {
        let whole = if args.out.is_some() { "every job is in --out's CSV" } else { "--out FILE.csv lists every job" };
        let _ = writeln!(out, "the first {SHOWN} of {} jobs beyond {} ({whole}):", outside.len(), seconds(tolerance));
    }
    for j in outside.iter().take(SHOWN) {
        let _ = writeln!(
            out,
            "  job {}: submitted {}, logged start {}, simulated {} ({}){}",
            j.id,
            j.submit,
            j.logged,
            j.simulated,
            seconds(format_args!("{:+}", j.simulated - j.logged)),
            if j.backfilled { ", backfilled" } else { "" }
        );
    }
    if let Some(path) = &args.out {
        let mut csv = String::from(
            "job,submit,logged_start,simulated_start,difference,backfilled,in_order,logged_nodes,simulated_first_node\n",
        );
        for (j, n) in jobs.iter().zip(&in_order_flags) {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{n},\"{}\",{}",
                j.id,
                j.submit,
                j.logged,
                j.simulated,
                j.simulated - j.logged,
                j.backfilled,
                j.logged_nodes.replace('"', "\"\""),
                j.simulated_node
            );
        }
        std::fs::write(path, csv).map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
    }
    let mut ok = true;
    if share < args.min_in_order {
        below(&format!(
            "{} of jobs start in the logged order, below --min-in-order {}",
            percent(share),
            args.min_in_order
        ));
        ok = false;
    }
    if let Some(bound) = args.max_outside
        && outside.len() > bound
    {
        below(&format!(
            "{} jobs start more than {} from their logged start, more than --max-outside {bound}",
            outside.len(),
            seconds(tolerance),
        ));
        ok = false;
    }
    if pair_share < args.min_pairs_in_order {
        below(&format!(
            "{} of pairs start in the logged order, below --min-pairs-in-order {}",
            percent(pair_share),
            args.min_pairs_in_order
        ));
        ok = false;
    }
    let summary = Summary {
        fidelity: f,
        differences: diffs,
        in_order,
        pairs: (pairs_in_order, pairs),
        preempted_differ: 0,
        preempted_both: 0,
    };
    Ok((ok, summary))
}

/// Pairs of jobs in the logged order, and the pairs compared: those whose
/// logged starts differ by more than `tolerance`; such a pair is out of
/// order when its simulated starts are in the opposite order (the pairwise
/// form of [`in_order`], Kendall's concordance with ties in the simulation
/// counted in order). O(n log n): jobs by logged start, the simulated
/// starts of the jobs logged more than `tolerance` earlier in a Fenwick tree.
pub fn pairs_in_order(jobs: &[Compared], tolerance: Time) -> (u64, u64) {
    let mut by_log: Vec<(Time, Time)> = jobs.iter().map(|j| (j.logged, j.simulated)).collect();
    by_log.sort_unstable();
    let mut ranks: Vec<Time> = by_log.iter().map(|&(_, s)| s).collect();
    ranks.sort_unstable();
    ranks.dedup();
    // counts[k]: jobs inserted with simulated rank k (1-based Fenwick tree).
    let mut counts = vec![0u64; ranks.len() + 1];
    let (mut inserted, mut compared, mut out_of_order) = (0usize, 0u64, 0u64);
    for &(logged, simulated) in &by_log {
        while inserted < by_log.len() && by_log[inserted].0 < logged - tolerance {
            let mut k = ranks.partition_point(|&r| r <= by_log[inserted].1);
            while k < counts.len() {
                counts[k] += 1;
                k += k & k.wrapping_neg();
            }
            inserted += 1;
        }
        // Earlier-logged jobs simulated no later than this one.
        let (mut k, mut not_later) = (ranks.partition_point(|&r| r <= simulated), 0u64);
        while k > 0 {
            not_later += counts[k];
            k &= k - 1;
        }
        compared += inserted as u64;
        out_of_order += inserted as u64 - not_later;
    }
    (compared - out_of_order, compared)
}

/// Per job: is it in the logged order, that is, did no other job start more
/// than `tolerance` after it in the log yet before it in the simulation, or
/// more than `tolerance` before it in the log yet after it in the
/// simulation? O(n log n): jobs sorted by logged start, with the smallest
/// simulated start of every suffix and the largest of every prefix.
pub fn in_order(jobs: &[Compared], tolerance: Time) -> Vec<bool> {
    let mut by_log: Vec<(Time, Time)> = jobs.iter().map(|j| (j.logged, j.simulated)).collect();
    by_log.sort_unstable();
    let n = by_log.len();
    let mut suffix_min = vec![Time::MAX; n + 1];
    for i in (0..n).rev() {
        suffix_min[i] = suffix_min[i + 1].min(by_log[i].1);
    }
    let mut prefix_max = vec![Time::MIN; n + 1];
    for i in 0..n {
        prefix_max[i + 1] = prefix_max[i].max(by_log[i].1);
    }
    jobs.iter()
        .map(|j| {
            // Jobs logged more than `tolerance` later must not be simulated earlier.
            let later = by_log.partition_point(|&(l, _)| l <= j.logged + tolerance);
            // Jobs logged more than `tolerance` earlier must not be simulated later.
            let earlier = by_log.partition_point(|&(l, _)| l < j.logged - tolerance);
            suffix_min[later] >= j.simulated && prefix_max[earlier] <= j.simulated
        })
        .collect()
}

/// `slurm forecast`: each pending job's forecast, or with `--kept` the
/// scores over a kept run's snapshots.
fn forecast(args: ForecastArgs) -> anyhow::Result<std::process::ExitCode> {
    use crate::forecast::{Centre, History, Snapshot};
    let table = if let Some(dir) = &args.kept {
        let run = kept_run(dir)?;
        let centre = Centre::read(&run.slurm_conf, run.dumps.paths(), run.controller_start, run.backfill_start)?;
        let snapshots = first_in(dir, &["snapshots.txt", "snapshots.txt.gz"])
            .ok_or_else(|| anyhow::anyhow!("{}: no snapshots.txt or snapshots.txt.gz", dir.display()))?;
        crate::forecast::score(
            &centre,
            &run.dump,
            &crate::forecast::read_snapshots(&snapshots)?,
            args.replicas,
            args.seed,
        )?
    } else {
        let (Some(conf), Some(queue), Some(at)) = (&args.slurm_conf, &args.queue, args.at) else {
            anyhow::bail!("--slurm-conf, --queue and --at are needed without --kept");
        };
        let centre = Centre::read(conf, args.dumps.paths(), args.controller_start, args.backfill_start)?;
        let text = std::fs::read_to_string(queue).with_context(|| format!("{}: cannot read", queue.display()))?;
        let mut snapshot = Snapshot {
            path: queue.clone(),
            at,
            jobs: crate::forecast::parse_queue(&text, queue, 1)?,
            ..Snapshot::default()
        };
        if let Some(path) = &args.sprio {
            let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
            snapshot.ages = crate::forecast::parse_sprio(&text, path, 1)?;
        }
        let history = match &args.history {
            Some(path) => {
                let options = slasim_data::trace::sacct::NativeOptions { lenient: false };
                Some(History::before(&slasim_data::trace::sacct::read_native(path, options)?.0, at))
            }
            None => None,
        };
        crate::forecast::table(
            &snapshot,
            &crate::forecast::forecast(&centre, &snapshot, history.as_ref(), args.replicas, args.seed)?,
        )
    };
    emit(&if args.markdown { table.to_markdown() } else { table.to_text() })?;
    Ok(std::process::ExitCode::SUCCESS)
}
