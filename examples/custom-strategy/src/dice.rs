//! A point kind written outside slasim: `[dice]` configs roll dice, and each
//! point stores its rolls in tables of its own (`dice_points`,
//! `dice_rolls`). It shows what a new kind is: settings, one `PointKind`,
//! one `AnyPoint`, its tables and one registration; sweeping, sharding,
//! merging and `slasim query` then work as for the built-in kinds.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use slasim::experiment::id::{Unserialisable, canonical_toml};
use slasim::experiment::inputs::Inputs;
use slasim::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim::store::tables::groups::{CopyRows, PointTables, StoredTable};
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

/// The dice kind.
pub struct DiceKind;

/// The dice kind, to register.
pub static DICE: DiceKind = DiceKind;

static TABLES: PointTables = PointTables {
    key_table: "dice_points",
    key: "point_id",
    tables: &[
        StoredTable { name: "dice_points", copy: CopyRows::All },
        StoredTable { name: "dice_rolls", copy: CopyRows::All },
    ],
    schema: "CREATE TABLE IF NOT EXISTS dice_points (
                 point_id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, rolls INTEGER NOT NULL,
                 faces INTEGER NOT NULL, total INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS dice_rolls (
                 point_id INTEGER NOT NULL, roll INTEGER NOT NULL, value INTEGER NOT NULL);",
};

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
        // A 64-bit LCG: deterministic, and enough for a toy.
        let mut state = self.seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let values = (0..self.rolls)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 33) % u64::from(self.faces)) as u32 + 1
            })
            .collect();
        let id = slasim::experiment::point::Point::new(self.clone()).id()?.run_id;
        Ok(Box::new(Rolls { id, point: self.clone(), values }))
    }

    slasim::point_boilerplate!();
}

impl PointOutput for Rolls {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        store.write_with(|tx| {
            let total: u32 = self.values.iter().sum();
            tx.execute(
                "INSERT INTO dice_points (point_id, seed, rolls, faces, total) VALUES (?, ?, ?, ?, ?)",
                (self.id, self.point.seed as i64, self.point.rolls, self.point.faces, total),
            )?;
            let mut insert = tx.prepare_cached("INSERT INTO dice_rolls (point_id, roll, value) VALUES (?, ?, ?)")?;
            for (roll, value) in self.values.iter().enumerate() {
                insert.execute((self.id, roll as i64, value))?;
            }
            Ok(())
        })
    }
}
