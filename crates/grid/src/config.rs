//! The settings of a Grid run (`[grid]` in a config), with their validation.
//!
//! Reference: `coreservation-thesis-spec.md` §6.4–6.9 (Tables 7, 8, 10, 13,
//! 16, 18: the experiments' parameters) and the defaults its ambiguities
//! propose.
//!
//! Contract: every field has the thesis' value as its default (4 clusters of
//! 1160 CPUs, Alg. 3b, workload R1, minsize 300 s, 20 start times, 2-week
//! windows of the log with job merging); [`GridConfig::validate`] refuses a
//! value outside its domain with an [`InvalidSetting`] naming the setting
//! as it is written in a config (`grid.clusters`, …). Checks that need the
//! log (enough windows, parts no wider than a cluster) are done when the
//! workload is built.

use serde::{Deserialize, Serialize};

use crate::algorithm::algorithm;
use crate::cost::CostConfig;
use crate::lrs::LrsSettings;
use crate::request::Enumeration;
use crate::workload::coreservations::RequestSettings;
use crate::workload::windows::WindowConfig;
use slasim_core::setting::{InvalidSetting, probability};
use slasim_core::units::Time;

/// Most clusters a path of the variant tree can hold (a 64-bit mask).
pub const MAX_CLUSTERS: u32 = 64;

/// A Grid run's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GridConfig {
    /// Cluster candidates (C); cluster i runs window i of the log.
    pub clusters: u32,
    /// The co-reservation algorithm (`a1`, `a2`, `a3`, `a3-star`, `a3b`, …).
    pub algorithm: String,
    /// Lower bound of the start-time increment, s.
    pub minsize: Time,
    /// Start times per request at most (max_zeitfenster).
    pub starts: u32,
    /// CPUs of every cluster (the thesis: 1160).
    pub capacity: u32,
    /// How the start grid counts (A1).
    pub enumeration: Enumeration,
    /// The request workload.
    pub requests: RequestSettings,
    /// How cluster windows are cut from the log; their length is also the
    /// submit stop t_stop.
    pub windows: WindowConfig,
    /// The LRS' ambiguity settings.
    pub lrs: LrsSettings,
    /// Cost tables and their calendar (Alg. 5 and the cost metrics).
    pub costs: CostConfig,
    /// Alg. 5's Startzeittoleranz, in start-grid steps (A19).
    pub start_tolerance: f64,
    /// Alg. 5's Kostentoleranz, in cost units (A19).
    pub cost_tolerance: f64,
}

impl Default for GridConfig {
    fn default() -> Self {
        GridConfig {
            clusters: 4,
            algorithm: "a3b".to_string(),
            minsize: 300,
            starts: 20,
            capacity: 1160,
            enumeration: Enumeration::default(),
            requests: RequestSettings::default(),
            windows: WindowConfig::default(),
            lrs: LrsSettings::default(),
            costs: CostConfig::default(),
            start_tolerance: 0.0,
            cost_tolerance: 0.0,
        }
    }
}

impl GridConfig {
    /// The submit stop: the window length.
    pub fn t_stop(&self) -> Time {
        self.windows.length()
    }

    /// Checks every setting that does not need the log.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.clusters == 0 || self.clusters > MAX_CLUSTERS {
            return Err(InvalidSetting::new("grid.clusters", self.clusters, "must be between 1 and 64"));
        }
        if algorithm(&self.algorithm).is_err() {
            return Err(InvalidSetting::new(
                "grid.algorithm",
                &self.algorithm,
                "unknown algorithm; valid: a1, a2, a3, a3-star, a3b, a2-sorted, a3-sorted, a4, a5",
            ));
        }
        if self.minsize <= 0 {
            return Err(InvalidSetting::new("grid.minsize", self.minsize, "must be at least 1 second"));
        }
        if self.starts == 0 {
            return Err(InvalidSetting::new("grid.starts", self.starts, "must be at least 1"));
        }
        if self.capacity == 0 {
            return Err(InvalidSetting::new("grid.capacity", self.capacity, "must be at least 1"));
        }
        for (setting, tolerance) in
            [("grid.start_tolerance", self.start_tolerance), ("grid.cost_tolerance", self.cost_tolerance)]
        {
            if !(tolerance.is_finite() && tolerance >= 0.0) {
                return Err(InvalidSetting::new(setting, tolerance, "must be finite and ≥ 0"));
            }
        }
        probability("grid.requests.template_probability", self.requests.template_probability)?;
        probability("grid.requests.start_weight", self.requests.start_weight)?;
        self.windows.validate()
    }
}
