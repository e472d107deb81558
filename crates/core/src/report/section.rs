//! The report sections of kinds registered from other crates.
//!
//! Contract: a kind crate registers a [`ReportSection`] in [`SECTIONS`]
//! before the report is built; [`crate::report::generate`] (and
//! [`crate::report::table`]) call each registered section, in registration
//! order, after the built-in kinds' tables, with the store and the report's
//! filter. A section with nothing to report (the store holds none of its
//! points) returns `None`; its tables with no rows are left out.

use std::path::Path;

use crate::registry::Registry;
use crate::report::load::Filter;
use crate::report::plots::Figure;
use crate::report::tables::Table;

/// What a kind's section adds to a report.
#[derive(Default)]
pub struct Section {
    /// Its tables, in report order.
    pub tables: Vec<Table>,
    /// Its figures.
    pub figures: Vec<Figure>,
    /// How many of its points the store holds (as filtered).
    pub points: usize,
    /// The points whose Gantt charts the report draws (a few at most, drawn
    /// by the kind's [`crate::report::gantt::source::GanttSource`]); empty
    /// for a kind without charts.
    pub gantt: Vec<i64>,
}

/// A kind's section of the report.
pub trait ReportSection: Send + Sync + 'static {
    /// Its name (kebab-case; its kind's, as a rule).
    fn name(&self) -> &'static str;

    /// Its tables and figures from the store `db` (read-only), as `filter`
    /// keeps; `None` if the store holds none of its points.
    fn build(&self, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>>;
}

crate::named_trait_objects!(ReportSection);

/// The registered report sections.
pub static SECTIONS: Registry<&'static dyn ReportSection> = Registry::new("report section", &[]);
