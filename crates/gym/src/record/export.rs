//! A store's recorded episodes as a Minari dataset (`slasim gym minari`).
//!
//! Contract:
//! - *What.* Every recording point of the store (or of one experiment's
//!   sweeps), in the order of their trace, behaviour, seed and id, each
//!   point's episodes in order. Each episode's file is copied as stored; its
//!   `metadata.json` adds to the reset options (`{"start": …}`) its
//!   behaviour, backfilling, trace and seed, which replay it. Nothing is
//!   simulated again.
//! - *One dataset, one space.* Minari holds one observation and action
//!   space per dataset: points of different windows are refused, naming
//!   both.
//! - *Provenance.* The dataset's `metadata.json` names the store's points:
//!   their traces with each file's sha256 as stored in `provenance`, the
//!   behaviours, seeds, options and the slasim versions that recorded them.
//! - *Whole or absent,* as every Minari dataset slasim writes
//!   ([`super::minari`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use rusqlite::named_params;
use serde_json::json;
use slasim_core::report::load::has_table;

use super::Summary;
use super::minari::{About, DatasetWriter, episode_metadata};

/// One stored recording point, as the export reads it.
struct Stored {
    point_id: i64,
    trace: Option<String>,
    policy: String,
    backfill: bool,
    seed: i64,
    window: i64,
    sequence_len: Option<i64>,
    score: i64,
    estimates: String,
    code_version: String,
    trace_sha256: Option<String>,
}

/// Writes the recording points of the store at `db` (of the experiment
/// named `experiment`, if given) as the Minari dataset `id` under the
/// datasets root `root`; an existing dataset is replaced only when
/// `replace`. Returns its directory and what it holds.
pub fn export(
    db: &Path,
    experiment: Option<&str>,
    root: &Path,
    id: &str,
    replace: bool,
) -> anyhow::Result<(PathBuf, Summary, usize)> {
    super::minari::place(root, id, replace)?;
    let conn = slasim_core::store::open_read_only(db)?;
    let at = |e: rusqlite::Error| anyhow::anyhow!("{}: {e}", db.display());
    if !has_table(db, "recording_points")? {
        bail!("{}: no recording point in this store (sweep a config with a [recording] table into it)", db.display());
    }
    let sha = if has_table(db, "provenance")? {
        "(SELECT trace_sha256 FROM provenance WHERE point = p.point_id)"
    } else {
        "NULL"
    };
    let only = if experiment.is_some() {
        "WHERE p.point_id IN (SELECT ep.run_id FROM experiment_points ep \
         JOIN experiments e ON e.hash = ep.experiment WHERE e.name = :experiment)"
    } else {
        ""
    };
    let sql = format!(
        "SELECT p.point_id, p.trace, p.policy, p.backfill, p.seed, p.window, p.sequence_len, p.score, \
         p.estimates, p.code_version, {sha} FROM recording_points p {only} \
         ORDER BY p.trace, p.policy, p.seed, p.point_id"
    );
    let mut stmt = conn.prepare(&sql).map_err(at)?;
    let read = |r: &rusqlite::Row<'_>| {
        Ok(Stored {
            point_id: r.get(0)?,
            trace: r.get(1)?,
            policy: r.get(2)?,
            backfill: r.get(3)?,
            seed: r.get(4)?,
            window: r.get(5)?,
            sequence_len: r.get(6)?,
            score: r.get(7)?,
            estimates: r.get(8)?,
            code_version: r.get(9)?,
            trace_sha256: r.get(10)?,
        })
    };
    let points: Vec<Stored> = match experiment {
        Some(name) => stmt.query_map(named_params! { ":experiment": name }, read),
        None => stmt.query_map([], read),
    }
    .and_then(|rows| rows.collect())
    .map_err(at)?;
    let Some(first) = points.first() else {
        match experiment {
            Some(name) => bail!("{}: no recording point of the experiment `{name}`", db.display()),
            None => bail!("{}: no recording point in this store", db.display()),
        }
    };
    if let Some(other) = points.iter().find(|p| p.window != first.window) {
        bail!(
            "{}: points of windows {} and {} (a Minari dataset has one observation space; \
             sweep one window per store or pick one experiment with --experiment)",
            db.display(),
            first.window,
            other.window
        );
    }
    let window = usize::try_from(first.window).context("a negative window")?;
    let mut writer = DatasetWriter::create(root, id, window, replace)?;
    let written = copy_episodes(&conn, db, &points, &mut writer);
    if let Err(e) = written {
        writer.abandon();
        return Err(e);
    }
    let about = about(db, experiment, &points);
    let (place, episodes, rows, bytes) = writer.finish(&about)?;
    Ok((place, Summary { rows, episodes: episodes as u64, bytes }, points.len()))
}

/// Copies each point's episodes, in order, into the dataset.
fn copy_episodes(
    conn: &rusqlite::Connection,
    db: &Path,
    points: &[Stored],
    writer: &mut DatasetWriter,
) -> anyhow::Result<()> {
    let mut stmt = conn
        .prepare("SELECT steps, start_index, file FROM recorded_episodes WHERE point_id = :point ORDER BY episode")
        .map_err(|e| anyhow::anyhow!("{}: {e}", db.display()))?;
    for p in points {
        let mut rows =
            stmt.query(named_params! { ":point": p.point_id }).map_err(|e| anyhow::anyhow!("{}: {e}", db.display()))?;
        while let Some(row) = rows.next().map_err(|e| anyhow::anyhow!("{}: {e}", db.display()))? {
            let (steps, start, file): (i64, i64, Vec<u8>) = (row.get(0)?, row.get(1)?, row.get(2)?);
            let mut about = episode_metadata(start, &p.policy, p.backfill);
            about.insert("trace".into(), p.trace.clone().into());
            about.insert("seed".into(), p.seed.into());
            writer.add_episode(&file, usize::try_from(steps).context("negative steps")?, about)?;
        }
    }
    Ok(())
}

/// What the dataset's metadata says of the points it holds.
fn about(db: &Path, experiment: Option<&str>, points: &[Stored]) -> About {
    let distinct = |f: &dyn Fn(&Stored) -> String| -> Vec<String> {
        points.iter().map(f).collect::<BTreeSet<_>>().into_iter().collect()
    };
    let policies = distinct(&|p| p.policy.clone());
    let traces: Vec<serde_json::Value> = points
        .iter()
        .map(|p| (p.trace.clone(), p.trace_sha256.clone()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|(name, sha256)| json!({ "name": name, "sha256": sha256 }))
        .collect();
    let seeds: BTreeSet<i64> = points.iter().map(|p| p.seed).collect();
    let provenance = json!({
        "store": db.display().to_string(),
        "experiment": experiment,
        "points": points.len(),
        "traces": traces,
        "policies": policies,
        "seeds": seeds,
        "window": points[0].window,
        "sequence_len": distinct(&|p| p.sequence_len.map_or_else(|| "whole-log".into(), |n| n.to_string())),
        "score": distinct(&|p| p.score.to_string()),
        "estimates": distinct(&|p| p.estimates.clone()),
        "code_versions": distinct(&|p| p.code_version.clone()),
    });
    let on: Vec<String> = distinct(&|p| p.trace.clone().unwrap_or_else(|| "the embedded workload".into()));
    About {
        algorithm: policies.join(","),
        description: format!(
            "slasim job-picking environment (RLScheduler's MDP): {} recording points of {} on {}",
            points.len(),
            policies.join(", "),
            on.join(", ")
        ),
        provenance,
    }
}
