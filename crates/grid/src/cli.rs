//! `slasim grid`: co-reservations across several clusters.

use slasim_core::units::seconds;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, FromArgMatches, Subcommand};

use crate::config::GridConfig;
use crate::kind::{GridPoint, synthetic_grid_workload};
use crate::workload::coreservations::RequestWorkload;
use slasim_core::cli::emit;
use slasim_core::cli::list::{ListOf, possible_values};
use slasim_core::cli::options::{StoreOptions, value_enum};
use slasim_core::cli::points::execute;
use slasim_core::cli::subcommand::Place;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::registry::Registry;
use slasim_core::store;
use slasim_single::policy::StrategyRef;
use slasim_single::workload::WorkloadSource;

#[derive(Debug, Subcommand)]
pub(crate) enum GridCommand {
    /// Simulate N clusters, each running its own 2-week window of the log,
    /// and a broker placing the co-reservation requests drawn from cluster
    /// 0's jobs; store every job, request and sub-reservation; print a
    /// summary per algorithm.
    Run(GridRunArgs),
}

#[derive(Debug, Args)]
pub(crate) struct GridRunArgs {
    /// An SWF log to cut cluster windows from (the thesis:
    /// SDSC-BLUE-2000-4.2-cln.swf.gz); without it an SDSC-Blue-sized
    /// synthetic log is generated.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed trace lines instead of failing.
    #[arg(long)]
    lenient: bool,
    /// Cluster candidates (each runs its own window of the log).
    #[arg(long, default_value_t = GridConfig::default().clusters)]
    clusters: u32,
    /// Algorithm; repeat for several (default: a1, a2, a3, a3-star, a3b).
    #[arg(long = "algorithm", value_name = "NAME", value_parser = algorithm_parser())]
    algorithms: Vec<String>,
    /// The request workload.
    #[arg(long, value_enum, default_value_t = RequestWorkload::R1)]
    request_workload: RequestWorkload,
    /// Lower bound of the start-time increment, seconds.
    #[arg(long, default_value_t = GridConfig::default().minsize, allow_negative_numbers = true)]
    minsize: i64,
    /// Start times per request at most (max_zeitfenster).
    #[arg(long, default_value_t = GridConfig::default().starts)]
    starts: u32,
    /// CPUs of every cluster.
    #[arg(long, default_value_t = GridConfig::default().capacity)]
    capacity: u32,
    /// The clusters' local scheduler.
    #[arg(long, default_value = "easy", value_parser = local_scheduler_parser())]
    strategy: String,
    /// Alg. 5's trade-off s between start time (1) and cost (0).
    #[arg(long, default_value_t = GridConfig::default().requests.start_weight, allow_negative_numbers = true)]
    start_weight: f64,
    /// Seed of the request workload and of the variant shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

/// The algorithms `grid run` compares when none is named: the thesis'
/// Algs. 1–3b of §6.3–6.7.
pub(crate) const DEFAULT_ALGORITHMS: [&str; 5] = ["a1", "a2", "a3", "a3-star", "a3b"];

/// `slasim grid`, registered by [`crate::register`].
pub struct GridSubcommand;

impl slasim_core::cli::subcommand::Subcommand for GridSubcommand {
    fn name(&self) -> &'static str {
        "grid"
    }

    fn command(&self) -> clap::Command {
        GridCommand::augment_subcommands(clap::Command::new("grid"))
            .about("Co-reservations on a Grid of several clusters (a broker and its algorithms)")
            .subcommand_required(true)
            .arg_required_else_help(true)
    }

    fn run(&self, registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<std::process::ExitCode> {
        run(registry, GridCommand::from_arg_matches(matches)?)
    }
}

/// `slasim list algorithms`: the registered co-reservation algorithms,
/// registered by [`crate::register`].
pub static ALGORITHM_LIST: ListOf = ListOf {
    name: "algorithms",
    about: "Co-reservation algorithms of the Grid broker (`--algorithm`, the `algorithm` axis)",
    place: Place::Last,
    header: ["algorithm", "what it does"],
    rows: |registry| {
        registry
            .all::<crate::algorithm::Algorithms>()
            .into_iter()
            .map(|a| (a.name.to_string(), a.description.to_string()))
            .collect()
    },
};

/// `slasim list request-workloads`: the Grid's request workloads,
/// registered by [`crate::register`].
pub static REQUEST_WORKLOAD_LIST: ListOf = ListOf {
    name: "request-workloads",
    about: "Grid request workloads (`--request-workload`, the `request_workload` axis)",
    place: Place::Last,
    header: ["request workload", "what it is"],
    rows: |_| possible_values::<RequestWorkload>(),
};

value_enum!(RequestWorkload {
    RequestWorkload::R1 => "r1": "long advance booking (up to 3 · wc), span min(1 day, 6 · wc)",
    RequestWorkload::R2 => "r2": "short advance booking (wc / 2), span min(1 day, 6 · wc)",
    RequestWorkload::R3 => "r3": "short advance booking and span min(1 day, 3 · wc)",
    RequestWorkload::Span6h2Part => "r1-6h-2part": "two parts, 6-hour span, submitted 30 s before the earliest start",
    RequestWorkload::Span6h3Part => "r1-6h-3part": "three parts (the third a copy of the second), every third dropped",
    RequestWorkload::None => "none": "no requests: the job-only reference simulation",
});

/// `grid run --strategy`: the strategies that can run a Grid cluster.
fn local_scheduler_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        slasim_single::policy::strategy_infos()
            .into_iter()
            .filter(|s| s.takes_reservations())
            .map(|s| PossibleValue::new(s.name).help(s.description)),
    )
}

/// `--algorithm`: every registered co-reservation algorithm, with its one line.
fn algorithm_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        slasim_core::experiment::registry::all::<crate::algorithm::Algorithms>()
            .into_iter()
            .map(|a| PossibleValue::new(a.name).help(a.description)),
    )
}

pub(crate) fn run(registry: &Registry, command: GridCommand) -> anyhow::Result<std::process::ExitCode> {
    match command {
        GridCommand::Run(args) => grid_run(registry, args),
    }
}

fn grid_run(registry: &Registry, args: GridRunArgs) -> anyhow::Result<std::process::ExitCode> {
    let algorithms: Vec<String> = if args.algorithms.is_empty() {
        DEFAULT_ALGORITHMS.iter().map(|a| a.to_string()).collect()
    } else {
        args.algorithms.clone()
    };
    let workload = args.request_workload;
    let source = match &args.trace {
        Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: args.lenient },
        None => WorkloadSource::Synthetic(synthetic_grid_workload(args.seed)),
    };
    let mut points = Vec::new();
    for name in &algorithms {
        let mut grid = GridConfig {
            clusters: args.clusters,
            algorithm: name.clone(),
            minsize: args.minsize,
            starts: args.starts,
            capacity: args.capacity,
            ..GridConfig::default()
        };
        grid.requests.workload = workload;
        grid.requests.start_weight = args.start_weight;
        let point = GridPoint {
            strategy: StrategyRef::named(&args.strategy)?,
            seed: args.seed,
            workload: source.clone(),
            grid,
        }
        .resolve()?;
        points.push((Point::new(point), name.clone()));
    }
    let (report, ids) = execute(registry, &points, args.store.jobs, &args.store.db, "slasim grid run")?;
    if report.interrupted {
        emit("interrupted: run the same command again to finish (stored runs are kept)\n")?;
        return Ok(std::process::ExitCode::from(130));
    }
    let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
    let table = store::query(
        &args.store.db,
        &format!(
            "SELECT g.algorithm, g.requests, g.granted, printf('%.3f', g.failure_rate), printf('%.1f', g.messages_mean), \
             printf('%.3f', g.efficiency_mean), printf('%.3f', g.unfairness_mean), \
             printf('%.1f%%', 100 * g.utilisation_mean), printf('%.1f', g.wait_max / 3600.0), \
             printf('%.2f', g.expansion_factor) \
             FROM grid_points g WHERE g.run_id IN ({})",
            ids.join(",")
        ),
    )
    .context("reading the summary back")?;
    let mut text = String::new();
    writeln!(
        text,
        "grid: {} clusters of {} CPUs ({} local scheduling), workload {}, requests {}, minsize {}, {} start times, \
         seed {}, stored in {}",
        args.clusters,
        args.capacity,
        args.strategy,
        source.name(),
        workload.name(),
        seconds(args.minsize),
        args.starts,
        args.seed,
        args.store.db.display()
    )?;
    if report.already > 0 {
        writeln!(text, "{} of {} runs were already stored and were not simulated again", report.already, report.total)?;
    }
    writeln!(
        text,
        "\n{:<10} {:>9} {:>8} {:>13} {:>14} {:>11} {:>11} {:>17} {:>14} {:>10}",
        "algorithm",
        "requests",
        "granted",
        "failure rate",
        "mean messages",
        "efficiency",
        "unfairness",
        "mean utilisation",
        "max wait (h)",
        "mean EF"
    )?;
    // In the order asked for.
    for name in &algorithms {
        if let Some(row) = table.rows.iter().find(|r| r.first() == Some(name)) {
            writeln!(
                text,
                "{:<10} {:>9} {:>8} {:>13} {:>14} {:>11} {:>11} {:>17} {:>14} {:>10}",
                row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]
            )?;
        }
    }
    emit(&text)?;
    Ok(std::process::ExitCode::SUCCESS)
}
