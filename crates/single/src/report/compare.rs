//! Two stores' single-cluster points side by side ([`compare`]).
//!
//! Contract: both stores are read (read-only) before anything is written;
//! the comparison is one table (per combination of the axes both hold: the
//! mean gain of each with its 95 % half-width, B − A and whether the
//! intervals overlap) written as the report writes its tables, with
//! `report.md` and an `index.html`. Stores with no settings in common are
//! an error naming both.

use std::path::Path;

use anyhow::bail;
use polars::prelude::*;

use crate::report::load::load_points;
use crate::report::tables::{Agg, agg_rows, aggregates};
use slasim_core::report::load::Filter;
use slasim_core::report::render::{Gantts, markdown, page, write_table};
use slasim_core::report::tables::Table;
use slasim_core::report::{ReportSummary, prepare_out, summary};

/// Puts two stores side by side: per combination of the axes, the mean gain
/// (and successful jobs) of each with its interval, the difference, and
/// whether the intervals overlap.
pub fn compare(a: &Path, b: &Path, out: &Path) -> anyhow::Result<ReportSummary> {
    let load = |p: &Path| -> anyhow::Result<Vec<Agg>> {
        let points = load_points(p, &Filter::default())?;
        Ok(agg_rows(&aggregates(&points)?)?)
    };
    let (ra, rb) = (load(a)?, load(b)?);
    let key = |r: &Agg| {
        (
            r.strategy.clone(),
            r.trace.clone(),
            r.pdf_source.clone(),
            r.acceptance.clone(),
            r.pof_max.to_bits(),
            r.penalty_ratio.to_bits(),
        )
    };
    let mut cols: [Vec<String>; 4] = Default::default();
    let mut nums: [Vec<f64>; 8] = Default::default();
    let mut overlap = Vec::new();
    for x in &ra {
        let Some(y) = rb.iter().find(|y| key(y) == key(x)) else { continue };
        cols[0].push(x.strategy.clone());
        cols[1].push(x.trace.clone());
        cols[2].push(x.pdf_source.clone());
        cols[3].push(x.acceptance.clone());
        for (i, v) in [
            x.pof_max,
            x.penalty_ratio,
            x.gain,
            x.gain_ci,
            y.gain,
            y.gain_ci,
            y.gain - x.gain,
            y.successful - x.successful,
        ]
        .into_iter()
        .enumerate()
        {
            nums[i].push(v);
        }
        let (ca, cb) = (
            summary::MeanCi { mean: x.gain, half: x.gain_ci, n: x.n },
            summary::MeanCi { mean: y.gain, half: y.gain_ci, n: y.n },
        );
        overlap.push(ca.overlaps(&cb));
    }
    if overlap.is_empty() {
        bail!("{} and {} have no point settings in common to compare", a.display(), b.display());
    }
    let names = [
        "pof_max",
        "penalty_ratio",
        "gain_a",
        "gain_a_ci",
        "gain_b",
        "gain_b_ci",
        "gain_difference",
        "successful_difference",
    ];
    let mut columns = vec![
        Column::new("strategy".into(), cols[0].clone()),
        Column::new("trace".into(), cols[1].clone()),
        Column::new("pdf_source".into(), cols[2].clone()),
        Column::new("acceptance".into(), cols[3].clone()),
    ];
    for (n, v) in names.iter().zip(nums) {
        columns.push(Column::new((*n).into(), v));
    }
    columns.push(Column::new("intervals_overlap".into(), overlap));
    let mut table = Table {
        id: "compare".into(),
        title: format!("{} (A) vs {} (B)", a.display(), b.display()),
        note: "Mean gain per battery in each store with its 95 % half-width, B − A, and whether the two intervals \
               overlap (no overlap: a difference beyond batch noise)."
            .into(),
        df: DataFrame::new_infer_height(columns)?,
    };
    prepare_out(out)?;
    write_table(out, &mut table)?;
    let headline = markdown(&table);
    std::fs::write(out.join("report.md"), &headline)?;
    let index = out.join("index.html");
    std::fs::write(&index, page("slasim comparison", "", std::slice::from_ref(&table), &[], &Gantts::default()))?;
    Ok(ReportSummary {
        points: ra.len() + rb.len(),
        tables: vec![table.id],
        figures: Vec::new(),
        gantts: Vec::new(),
        index,
        headline,
    })
}
