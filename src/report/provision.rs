//! Provisioning report tables: advertised-slot statistics, MOGA vs best
//! effort per point and α, and adaptive pricing, as Markdown.
//!
//! Reference: `provisioning-dissertation-spec.md` §8 (Ch. 3 Figs 4–8, Ch. 4
//! Figs 13–19: the quantities the thesis plots).
//!
//! Contract: read-only SQL on a store with provisioning points; means come
//! with 95 % Student-t intervals over submissions (or over samples for slot
//! counts). Ratios are per-submission ratios, then averaged.

use std::fmt::Write as _;
use std::path::Path;

use crate::report::summary::mean_ci;
use crate::store::{StoreError, query};

fn ci(values: &[f64], digits: usize) -> String {
    mean_ci(values).map_or_else(|| "–".to_string(), |m| format!("{:.*} ± {:.*}", digits, m.mean, digits, m.half))
}

fn num(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// The slot-statistics table (Ch. 3).
pub fn slots_table(db: &Path) -> Result<String, StoreError> {
    let points = query(
        db,
        "SELECT p.point_id, s.trace, s.capacity, p.exact_estimates, s.achieved FROM provision_points p \
         JOIN provision_sites s USING (point_id) WHERE p.kind = 'slots' ORDER BY s.trace, p.exact_estimates DESC",
    )?;
    let mut out = String::from(
        "| trace | processors | estimates | utilisation | slots at arrivals | slots hourly | share with 1–10 procs | \
         mean start (h) | mean duration (h) | tasks in system |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in &points.rows {
        let id = &row[0];
        let samples = query(db, &format!("SELECT slots, tasks FROM slot_samples WHERE point_id = {id}"))?;
        let slots: Vec<f64> = samples.rows.iter().filter_map(|r| num(&r[0])).collect();
        let tasks: Vec<f64> = samples.rows.iter().filter_map(|r| num(&r[1])).collect();
        let hourly = query(
            db,
            &format!(
                "SELECT count(*) * 1.0 / count(DISTINCT time), avg(procs <= 10), avg(start) / 3600.0, \
                 avg(duration) / 3600.0 FROM advertised_slots WHERE point_id = {id}"
            ),
        )?;
        let h = hourly.rows.first().cloned().unwrap_or_default();
        let f = |i: usize, d: usize| h.get(i).and_then(|v| num(v)).map_or("–".to_string(), |v| format!("{v:.d$}"));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row[1],
            row[2],
            if row[3] == "1" { "exact" } else { "logged" },
            num(&row[4]).map_or("–".to_string(), |u| format!("{:.1} %", 100.0 * u)),
            ci(&slots, 1),
            f(0, 1),
            f(1, 2),
            f(2, 1),
            f(3, 1),
            ci(&tasks, 1),
        );
    }
    Ok(out)
}

/// The MOGA-vs-best-effort table (Ch. 4): one row per point and α.
pub fn runs_table(db: &Path) -> Result<String, StoreError> {
    let points = query(
        db,
        "SELECT p.point_id, p.point_id, p.sites, p.workflow, p.workflow_tasks, \
         p.task_processors, (SELECT group_concat(CASE WHEN s.target_load IS NULL THEN 'trace' ELSE printf('%.2f', s.target_load) END || '→' || \
         printf('%.2f', s.achieved), ' ') FROM provision_sites s WHERE s.point_id = p.point_id), p.config \
         FROM provision_points p WHERE p.kind = 'run' ORDER BY p.config",
    )?;
    let mut out = String::from(
        "| group | sites | workflow | tasks | procs/task | load (target→achieved) | α | n | makespan (h) | BE makespan (h) \
         | makespan / BE | cost / BE | archive |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in &points.rows {
        let id = &row[0];
        let group = row[7].split("group: \"").nth(1).and_then(|g| g.split('"').next()).unwrap_or("");
        let rows = query(
            db,
            &format!(
                "SELECT alpha, makespan, be_makespan, makespan_ratio, cost_ratio, archive_size FROM provision_submissions \
                 WHERE point_id = {id} ORDER BY alpha, submission"
            ),
        )?;
        let mut alphas: Vec<String> = rows.rows.iter().map(|r| r[0].clone()).collect();
        alphas.dedup();
        for alpha in alphas {
            let of = |col: usize, scale: f64| -> Vec<f64> {
                rows.rows.iter().filter(|r| r[0] == alpha).filter_map(|r| num(&r[col])).map(|v| v / scale).collect()
            };
            let workflow = row[3].rsplit('/').next().unwrap_or(&row[3]);
            let _ = writeln!(
                out,
                "| {group} | {} | {workflow} | {} | {} | {} | {alpha} | {} | {} | {} | {} | {} | {} |",
                row[2],
                row[4],
                num(&row[5]).map_or("–".to_string(), |p| format!("{p:.1}")),
                row[6],
                of(1, 1.0).len(),
                ci(&of(1, 3600.0), 2),
                ci(&of(2, 3600.0), 2),
                ci(&of(3, 1.0), 3),
                ci(&of(4, 1.0), 3),
                ci(&of(5, 1.0), 1),
            );
        }
    }
    Ok(out)
}

/// The adaptive-pricing table (Ch. 5): one row per point.
pub fn pricing_table(db: &Path) -> Result<String, StoreError> {
    let points = query(
        db,
        "SELECT p.point_id, p.config, s.trace, p.exact_estimates, CASE WHEN s.target_load IS NULL THEN 'trace' ELSE printf('%.2f', s.target_load) END, \
         s.achieved, s.be_wait FROM provision_points p JOIN provision_sites s USING (point_id) \
         WHERE p.kind = 'price' ORDER BY p.config",
    )?;
    let mut out = String::from(
        "| group | trace | estimates | pricing | share (%) | load | utilisation | α | requests | price f (SU) \
         | reserved wait (h) | BE wait (h) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let field = |config: &str, key: &str| -> String {
        config
            .split(&format!("{key}: "))
            .nth(1)
            .map_or(String::new(), |v| v.split([',', ' ', '}']).next().unwrap_or("").trim_matches('"').to_string())
    };
    for row in &points.rows {
        let id = &row[0];
        let rows = query(db, &format!("SELECT alpha, f, wait FROM priced_reservations WHERE point_id = {id}"))?;
        let col = |i: usize| -> Vec<f64> { rows.rows.iter().filter_map(|r| num(&r[i])).map(|v| v / 3600.0).collect() };
        let alpha = rows.rows.first().map_or(String::new(), |r| r[0].clone());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {alpha} | {} | {} | {} | {} |",
            field(&row[1], "group"),
            row[2],
            if row[3] == "1" { "exact" } else { "logged" },
            if field(&row[1], "easy") == "true" { "EASY" } else { "conservative" },
            field(&row[1], "share"),
            row[4],
            num(&row[5]).map_or("–".to_string(), |u| format!("{:.1} %", 100.0 * u)),
            rows.rows.len(),
            ci(&col(1), 2),
            ci(&col(2), 2),
            num(&row[6]).map_or("–".to_string(), |w| format!("{:.2}", w / 3600.0)),
        );
    }
    Ok(out)
}
