//! `slasim grid`: co-reservations across several clusters.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};

use crate::cli::emit;
use crate::cli::options::StoreOptions;
use crate::cli::run::execute;
use crate::experiment::grid::synthetic_grid_workload;
use crate::experiment::point::Point;
use crate::grid::algorithm::{ALGORITHMS, algorithm};
use crate::grid::config::GridConfig;
use crate::policy::Placement;
use crate::store;
use crate::workload::WorkloadSource;
use crate::workload::coreservations::RequestWorkload;
use crate::workload::failures::FailureSource;

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
    #[arg(long, default_value_t = 4)]
    clusters: u32,
    /// Algorithm; repeat for several (default: a1, a2, a3, a3-star, a3b).
    #[arg(long = "algorithm", value_name = "NAME")]
    algorithms: Vec<String>,
    /// Request workload: r1, r2, r3, r1-6h-2part or r1-6h-3part.
    #[arg(long, default_value = "r1")]
    requests: String,
    /// Lower bound of the start-time increment, seconds.
    #[arg(long, default_value_t = 300, allow_negative_numbers = true)]
    minsize: i64,
    /// Start times per request at most (max_zeitfenster).
    #[arg(long, default_value_t = 20)]
    starts: u32,
    /// CPUs per cluster.
    #[arg(long, default_value_t = 1160)]
    cpus: u32,
    /// The clusters' local scheduler: easy, conservative or fcfs.
    #[arg(long, default_value = "easy")]
    local_scheduler: String,
    /// Seed of the request workload and of the variant shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

pub(crate) fn run(command: GridCommand) -> anyhow::Result<std::process::ExitCode> {
    match command {
        GridCommand::Run(args) => grid_run(args),
    }
}

fn grid_run(args: GridRunArgs) -> anyhow::Result<std::process::ExitCode> {
    let algorithms: Vec<String> = if args.algorithms.is_empty() {
        ALGORITHMS.iter().take(5).map(|a| a.name.to_string()).collect()
    } else {
        args.algorithms.clone()
    };
    for name in &algorithms {
        algorithm(name)?;
    }
    let workload =
        RequestWorkload::ALL.iter().find(|(n, _)| *n == args.requests).map(|(_, w)| *w).ok_or_else(|| {
            let valid: Vec<&str> = RequestWorkload::ALL.iter().map(|(n, _)| *n).collect();
            anyhow::anyhow!("unknown request workload `{}`; valid: {}", args.requests, valid.join(", "))
        })?;
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
            cpus: args.cpus,
            ..GridConfig::default()
        };
        grid.requests.workload = workload;
        grid.validate()?;
        crate::policy::build_reserving(&args.local_scheduler, args.cpus, grid.t_stop())?;
        points.push(Point {
            strategy: args.local_scheduler.clone(),
            placement: Placement::default(),
            seed: args.seed,
            battery: 0,
            workload: source.clone(),
            prepare: Default::default(),
            failures: FailureSource::None,
            overbooking: Default::default(),
            reservations: Default::default(),
            classic: Default::default(),
            grid: Some(grid),
        });
    }
    let label = |p: &Point| p.grid.as_ref().map_or_else(String::new, |g| g.algorithm.clone());
    let (report, _) = execute(&points, label, args.store.jobs, &args.store.db, "slasim grid run")?;
    if report.interrupted {
        emit("interrupted: run the same command again to finish (stored runs are kept)\n")?;
        return Ok(std::process::ExitCode::from(130));
    }
    let ids: Vec<String> = points.iter().map(|p| p.id().run_id.to_string()).collect();
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
        "grid: {} clusters of {} CPUs ({} local scheduling), workload {}, requests {}, minsize {} s, {} start times, \
         seed {}, stored in {}",
        args.clusters,
        args.cpus,
        args.local_scheduler,
        source.name(),
        workload.name(),
        args.minsize,
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
