//! `slurm compare` and `slurm fidelity`: a replay, or another run, against
//! a logged run, job by job.

use super::*;

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

pub(super) fn compare(args: CompareArgs) -> anyhow::Result<std::process::ExitCode> {
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
pub(super) fn fidelity_of_runs(args: FidelityArgs) -> anyhow::Result<std::process::ExitCode> {
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
pub(super) fn first_in(dir: &std::path::Path, names: &[&str]) -> Option<PathBuf> {
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
pub(super) fn kept_run(dir: &std::path::Path) -> anyhow::Result<CompareArgs> {
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
            "job,submit,logged_start,simulated_start,difference,backfilled,in_order,logged_nodes,simulated_first_node,\
             first_node_logged\n",
        );
        for (j, n) in jobs.iter().zip(&in_order_flags) {
            let among = match first_node_logged(j) {
                Some(true) => "true",
                Some(false) => "false",
                None => "",
            };
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{n},\"{}\",{},{among}",
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

/// Whether the job's first simulated node is among its logged nodes (a
/// hostlist); `None` when either is unknown.
pub fn first_node_logged(job: &Compared) -> Option<bool> {
    let logged = crate::conf::expand_hostlist(job.logged_nodes).ok().filter(|l| !l.is_empty())?;
    (!job.simulated_node.is_empty()).then(|| logged.iter().any(|n| n == job.simulated_node))
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
