//! A point kind written outside slasim: `[dice]` configs roll dice, and each
//! point stores its rolls in tables of its own (`dice_points`,
//! `dice_rolls`). It shows what a new kind is: settings, one `PointKind`,
//! one `AnyPoint`, its tables (by descriptors), a report section, a
//! subcommand (`slasim dice roll`) and one registration; sweeping, sharding,
//! merging, `slasim query` and `slasim report` then work as for the built-in
//! kinds.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, FromArgMatches};
use rand::RngExt;

use serde::{Deserialize, Serialize};
use slasim::experiment::id::{Unserialisable, canonical_toml};
use slasim::experiment::inputs::Inputs;
use slasim::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim::experiment::registry::Registry;
use slasim::report::load::{Filter, Kind, frame_of, has_table};
use slasim::report::section::{ReportSection, Section};
use slasim::report::tables::Table as ReportTable;
use slasim::rng::Stream;
use slasim::store::columns::{Described, Rows, Table, column, insert, insert_all};
use slasim::store::tables::groups::{PointTables, all};
use slasim::store::{Store, StoreError};
use slasim::threads::Budget;

/// A dice point's settings (`[dice]`), resolved as they are read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DicePoint {
    /// Seed of the rolls.
    pub seed: u64,
    /// Rolls per point.
    pub rolls: u32,
    /// Faces of the die.
    pub faces: u32,
}

impl Default for DicePoint {
    fn default() -> Self {
        DicePoint { seed: 1, rolls: 10, faces: 6 }
    }
}

/// A dice config file (the common keys are slasim's to read).
#[derive(Debug, PartialEq, Deserialize)]
struct DiceFile {
    #[serde(default)]
    dice: Option<DicePoint>,
}

/// The dice kind's random stream (a number no slasim stream has; the
/// registry refuses one taken).
pub const ROLLS: Stream = Stream::new("dice-rolls", 1000);

/// The dice kind.
pub struct DiceKind;

/// The dice kind, to register.
pub static DICE: DiceKind = DiceKind;

static TABLES: PointTables = PointTables {
    key_table: "dice_points",
    key: "point_id",
    metrics: "dice_points",
    tables: &[all("dice_points"), all("dice_rolls")],
    described: || vec![&DICE_POINTS, &DICE_ROLLS],
    // New tables: no history, no migration; the descriptors make them.
    steps: &[],
    views: &[],
    ids_since: None,
    // Rolls are not jobs: no rows in `all_jobs`.
    jobs: None,
    // A dice point reads no trace and stores no settings text: NULL there.
    provenance: Some(
        "SELECT point_id AS point, NULL AS trace, seed, NULL AS config, NULL AS code_version FROM dice_points",
    ),
};

/// A `dice_points` row.
struct PointRow<'a> {
    id: i64,
    point: &'a DicePoint,
    total: u32,
}

/// The row type of `dice_points`.
enum Points {}

impl Rows for Points {
    type Row<'a> = PointRow<'a>;
    type Summary = ();
}

/// One row per point.
static DICE_POINTS: Table<Points> =
    Table::new("dice_points", 0, "One row per dice point: its settings and the total of its rolls.")
        .key(&["point_id"])
        .columns(&[
            column!("point_id", Int, "the point's id", |r| r.id),
            column!("seed", Int, "the seed of its rolls", |r| r.point.seed as i64),
            column!("rolls", Int, "its rolls", |r| r.point.rolls),
            column!("faces", Int, "the faces of its die", |r| r.point.faces),
            column!("total", Int, "the sum of its rolls", |r| r.total),
        ]);

/// A `dice_rolls` row: a point's roll and its value.
struct RollRow {
    id: i64,
    roll: usize,
    value: u32,
}

/// The row type of `dice_rolls`.
enum RollRows {}

impl Rows for RollRows {
    type Row<'a> = RollRow;
    type Summary = ();
}

/// One row per roll.
static DICE_ROLLS: Table<RollRows> = Table::new("dice_rolls", 0, "Each roll of a dice point.").columns(&[
    column!("point_id", Int, "the point", |r| r.id),
    column!("roll", Int, "the roll's index", |r| r.roll as i64),
    column!("value", Int, "the face it shows", |r| r.value),
]);

/// The descriptors of the dice tables.
pub fn described() -> Vec<&'static dyn Described> {
    (TABLES.described)()
}

static AXES: [Axis; 2] = [axis("rolls", "rolls", "rolls per point"), axis("faces", "faces", "faces of the die")];

/// The dice kind, as data.
static INFO: KindInfo = KindInfo {
    name: "dice",
    described: "a dice experiment ([dice])",
    setting_of: "dice",
    section: Some("dice"),
    sections: &["dice"],
    settings_in_section: true,
    axes: &AXES,
    tables: &TABLES,
};

impl PointKind for DiceKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let config: DiceFile = toml::from_str(file.loc.text).map_err(|e| file.loc.syntax(e))?;
        let dice = config.dice.unwrap_or_default();
        let dice = DicePoint { seed: file.seed_of("dice", dice.seed), ..dice };
        Base::of(file, dice, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let point: DicePoint = value.try_into().map_err(|e| sweep.unreadable(e))?;
        if point.faces == 0 {
            return Err(sweep.at(sweep.setting_offset("faces"), format!("{}: a die has faces", sweep.label)));
        }
        Ok(Point::new(point))
    }
}

/// A dice point's rolls.
#[derive(Debug)]
struct Rolls {
    id: i64,
    point: DicePoint,
    values: Vec<u32>,
}

impl DicePoint {
    /// Its rolls, from the kind's own random stream.
    pub fn roll(&self) -> Vec<u32> {
        let mut rng = slasim::rng::stream(self.seed, ROLLS, 0);
        (0..self.rolls).map(|_| rng.random_range(1..=self.faces)).collect()
    }
}

impl AnyPoint for DicePoint {
    fn kind(&self) -> &'static dyn PointKind {
        &DICE
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    fn label(&self) -> String {
        format!("{} rolls of a d{}", self.rolls, self.faces)
    }

    fn run(
        &self,
        _inputs: &Inputs,
        _budget: &Arc<Budget>,
        _experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        let values = self.roll();
        let id = slasim::experiment::point::Point::new(self.clone()).id()?.run_id;
        Ok(Box::new(Rolls { id, point: self.clone(), values }))
    }

    slasim::point_boilerplate!();
}

impl PointOutput for Rolls {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        store.write_with(|tx| {
            let total = self.values.iter().sum();
            insert(tx, &DICE_POINTS, &PointRow { id: self.id, point: &self.point, total })?;
            let rolls = self.values.iter().enumerate().map(|(roll, &value)| RollRow { id: self.id, roll, value });
            insert_all(tx, &DICE_ROLLS, rolls)
        })
    }
}

/// The dice section of a report: per number of faces, the points and their
/// mean roll, over every dice point of the store (a toy: it leaves the
/// report's experiment and trace filters aside).
pub struct DiceSection;

impl ReportSection for DiceSection {
    fn name(&self) -> &'static str {
        "dice"
    }

    fn build(&self, _registry: &Registry, db: &Path, _filter: &Filter) -> anyhow::Result<Option<Section>> {
        if !has_table(db, "dice_points")? {
            return Ok(None);
        }
        let sql = "SELECT faces, count(*) AS points, sum(total) * 1.0 / sum(rolls) AS mean_roll
                   FROM dice_points GROUP BY faces ORDER BY faces";
        let columns = [("faces", Kind::Int), ("points", Kind::Int), ("mean_roll", Kind::Real)];
        let df = frame_of(db, sql, &[], &columns)?;
        let points = frame_of(db, "SELECT count(*) AS n FROM dice_points", &[], &[("n", Kind::Int)])?;
        let points = points.column("n")?.i64()?.get(0).unwrap_or(0) as usize;
        if points == 0 {
            return Ok(None);
        }
        let table = ReportTable {
            id: "dice-faces".into(),
            title: "Dice: mean roll by faces".into(),
            note: "Per die, the points rolled and the mean of their rolls ((faces + 1) / 2 for a fair die).".into(),
            df,
        };
        Ok(Some(Section { tables: vec![table], figures: Vec::new(), points, gantt: Vec::new(), omitted: Vec::new() }))
    }
}

/// `slasim dice roll`: one point's rolls, printed, nothing stored.
#[derive(Debug, Args)]
struct RollArgs {
    /// Seed of the rolls.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rolls.
    #[arg(long, default_value_t = 10)]
    rolls: u32,
    /// Faces of the die.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..))]
    faces: u32,
}

/// `slasim dice`, as the command line registers it.
pub struct DiceCommand;

impl slasim::cli::subcommand::Subcommand for DiceCommand {
    fn name(&self) -> &'static str {
        "dice"
    }

    fn command(&self) -> clap::Command {
        let roll = RollArgs::augment_args(clap::Command::new("roll").about("Roll one dice point and print its rolls"));
        clap::Command::new("dice")
            .about("The dice kind (registered outside slasim)")
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand(roll)
    }

    fn run(&self, _registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
        let Some(("roll", matched)) = matches.subcommand() else {
            anyhow::bail!("slasim dice: no such command");
        };
        let args = RollArgs::from_arg_matches(matched)?;
        let point = DicePoint { seed: args.seed, rolls: args.rolls, faces: args.faces };
        let rolls: Vec<String> = point.roll().iter().map(u32::to_string).collect();
        slasim::cli::emit(&format!("{}\n", rolls.join(" ")))?;
        Ok(ExitCode::SUCCESS)
    }
}
