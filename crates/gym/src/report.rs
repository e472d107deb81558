//! The recording points' section of a report: per trace and behaviour, the
//! episodes and steps a store holds and the behaviour's score.
//!
//! Contract: one table, one row per trace and behaviour (the report's
//! filter keeps one experiment's points, or the traces whose name contains
//! its text): the points, the episodes, the mean steps of an episode and the
//! mean score of a sequence (minus the episode's return: with score 0, its
//! mean bounded slowdown), each mean with its 95 % Student-t half-width over
//! the episodes. A store without recording points has no section.

use std::path::Path;

use polars::prelude::*;

use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::{Filter, Kind, frame_of, has_table, trace_label};
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::tables::{Table, aggregate_by};

/// The recording section of a report.
pub struct RecordingSection;

impl ReportSection for RecordingSection {
    fn name(&self) -> &'static str {
        "recording"
    }

    fn build(&self, _registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
        if !has_table(db, "recording_points")? {
            return Ok(None);
        }
        let (only, params) = filter.points_where();
        let sql = format!(
            "SELECT coalesce(p.trace, 'embedded workload') AS trace, p.policy, p.point_id, e.steps, -e.reward AS score \
             FROM recorded_episodes e JOIN recording_points p ON p.point_id = e.point_id {only}"
        );
        let columns = [
            ("trace", Kind::Text),
            ("policy", Kind::Text),
            ("point_id", Kind::Int),
            ("steps", Kind::Int),
            ("score", Kind::Real),
        ];
        let episodes = frame_of(db, &sql, &params, &columns)?;
        if episodes.height() == 0 {
            return Ok(None);
        }
        let points = episodes.column("point_id")?.n_unique()?;
        let labels: Vec<Option<String>> = episodes.column("trace")?.str()?.iter().map(|t| t.map(trace_label)).collect();
        let mut episodes = episodes;
        episodes.with_column(Column::new("trace".into(), labels))?;
        let per_point = episodes
            .clone()
            .lazy()
            .group_by([col("trace"), col("policy")])
            .agg([col("point_id").n_unique().alias("points")]);
        let mut df = aggregate_by(episodes.lazy(), &["trace", "policy"], &["steps", "score"])?;
        df.rename("batteries", "episodes".into())?;
        let df = df
            .lazy()
            .join(
                per_point,
                [col("trace"), col("policy")],
                [col("trace"), col("policy")],
                JoinArgs::new(JoinType::Left),
            )
            .select([
                col("trace"),
                col("policy"),
                col("points"),
                col("episodes"),
                col("steps_mean"),
                col("steps_ci"),
                col("score_mean"),
                col("score_ci"),
            ])
            .sort(["trace", "policy"], SortMultipleOptions::default())
            .collect()?;
        let table = Table {
            id: "recording".into(),
            title: "Recorded episodes: steps and score per trace and behaviour".into(),
            note: "One row per trace and behaviour policy of the recording points ([recording]): the points, the \
                   episodes, the mean steps of an episode and the mean score of its sequence (minus the episode's \
                   return; with score 0, the mean bounded slowdown), each mean ± its 95 % half-width over the \
                   episodes."
                .into(),
            df,
        };
        Ok(Some(Section { tables: vec![table], points, ..Section::default() }))
    }
}
