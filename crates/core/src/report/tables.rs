//! The report's tables: what a table is, and the column readers and the
//! aggregation every kind's section builds its tables with.
//!
//! Contract:
//! - A [`Table`] is one table of the report: its id (file stem and HTML
//!   anchor), heading, note and data; the frame writes it as Markdown, CSV
//!   and Parquet and shows it in `report.md` and `index.html`.
//! - [`strs`] and [`floats`] read a column whatever its stored type (nulls
//!   as empty text, as `None`); a missing column is an error, not a panic.
//! - [`aggregate_by`]: per combination of the given axes, the number of
//!   points and each metric's mean and 95 % Student-t half-width (see
//!   [`crate::report::summary::ci_from`]), sorted by the axes.

use polars::prelude::*;

use crate::report::summary::ci_from;

/// A named table of a report.
#[derive(Debug, Clone)]
pub struct Table {
    /// File stem and HTML anchor.
    pub id: String,
    /// Heading.
    pub title: String,
    /// One paragraph saying what the table shows.
    pub note: String,
    /// The data.
    pub df: DataFrame,
}

/// A text column as owned strings (nulls as empty).
pub fn strs(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    Ok(df.column(name)?.str()?.iter().map(|v| v.unwrap_or_default().to_string()).collect())
}

/// A numeric column as doubles.
pub fn floats(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<f64>>> {
    Ok(df.column(name)?.cast(&DataType::Float64)?.f64()?.iter().collect())
}

/// Per combination of `axes`: the number of points (`batteries`) and each
/// metric's mean and 95 % Student-t half-width, sorted by the axes; both
/// null where no point of the combination has the metric.
pub fn aggregate_by(points: LazyFrame, axes: &[&str], metrics: &[&str]) -> PolarsResult<DataFrame> {
    let mut aggs = vec![len().cast(DataType::Int64).alias("batteries")];
    for m in metrics {
        aggs.push(col(*m).cast(DataType::Float64).mean().alias(format!("{m}_mean")));
        aggs.push(col(*m).cast(DataType::Float64).std(1).alias(format!("{m}_sd")));
    }
    let keys: Vec<Expr> = axes.iter().map(|a| col(*a)).collect();
    let mut df = points
        .group_by(keys)
        .agg(aggs)
        .sort(axes.to_vec(), SortMultipleOptions::default().with_nulls_last(true))
        .collect()?;
    let n: Vec<usize> = floats(&df, "batteries")?.iter().map(|v| v.unwrap_or(0.0) as usize).collect();
    for m in metrics {
        let means = floats(&df, &format!("{m}_mean"))?;
        let sds = floats(&df, &format!("{m}_sd"))?;
        // A metric no point of the group has has no interval either.
        let halves: Vec<Option<f64>> = means
            .iter()
            .zip(&sds)
            .zip(&n)
            .map(|((mean, sd), &n)| mean.map(|mean| ci_from(mean, sd.unwrap_or(0.0), n).half))
            .collect();
        df.with_column(Column::new(format!("{m}_ci").into(), halves))?;
        df.drop_in_place(&format!("{m}_sd"))?;
    }
    Ok(df)
}
