//! The report sections: what each point kind adds to a report.
//!
//! Contract: a kind adds a [`ReportSection`] to a registry's [`Sections`];
//! [`crate::report::generate`] (and [`crate::report::table`]) call each
//! section, in the registry's order, with the store and the report's filter,
//! and put their tables in that order. A section with nothing to report
//! (the store holds none of its points) returns `None`, or the error
//! [`LoadError::Empty`](crate::report::load::LoadError::Empty) saying why: the report shows the first such reason
//! when no section has anything. Its tables with no rows are left out.

use std::path::Path;

use crate::experiment::registry::{Entries, Registry};
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
    /// Titles of the tables it left out for having no rows, which the
    /// page's introduction names (a section may also just leave them in
    /// `tables`: the report drops them without naming them).
    pub omitted: Vec<String>,
}

/// A kind's section of the report.
pub trait ReportSection: Send + Sync + 'static {
    /// Its name (kebab-case; its kind's, as a rule).
    fn name(&self) -> &'static str;

    /// Its tables and figures from the store `db` (read-only), as `filter`
    /// keeps; `None` (or [`LoadError::Empty`](crate::report::load::LoadError::Empty)) if the store holds none of
    /// its points.
    /// The `registry` is the program's, and the one its name lookups see
    /// while it builds: a kind's own tables (its strategies, in report
    /// order) are there.
    fn build(&self, registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>>;

    /// What the report puts before an error of [`ReportSection::build`]:
    /// by default `building the <name> tables`; `None` for a section whose
    /// errors name the store and the table they come from already.
    fn error_context(&self) -> Option<String> {
        Some(format!("building the {} tables", self.name()))
    }

    /// Puts the stores `a` and `b` side by side in `out` (`slasim report
    /// --compare`), if its kind compares stores; `None` (the default) leaves
    /// it to the next section.
    fn compare(
        &self,
        registry: &Registry,
        a: &Path,
        b: &Path,
        out: &Path,
    ) -> Option<anyhow::Result<crate::report::ReportSummary>> {
        let _ = (registry, a, b, out);
        None
    }
}

crate::named_trait_objects!(ReportSection);

/// The report sections of a registry, in report order.
pub enum Sections {}

impl Entries for Sections {
    type Entry = dyn ReportSection;
    const WHAT: &'static str = "report section";
}
