//! A sweep point: the fully resolved settings of one simulation.
//!
//! Contract: a [`Point`] names everything a simulation reads — workload,
//! preparation, strategy and its settings, failures, seed and battery. Its
//! canonical TOML text is hashed (sha256) into a stable id, so the same
//! settings always get the same `run_id`, in any process, on any machine.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::grid::config::GridConfig;
use crate::policy::classic::ClassicConfig;
use crate::policy::overbooking::OverbookingConfig;
use crate::policy::{Placement, UnknownName, strategy};
use crate::workload::WorkloadSource;
use crate::workload::failures::FailureSource;
use crate::workload::prepare::PrepareConfig;
use crate::workload::reservations::ReservationConfig;

/// The resolved settings of one simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Strategy name (kebab-case, stable).
    pub strategy: String,
    /// Placement policy.
    pub placement: Placement,
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Battery index.
    pub battery: usize,
    /// Where the jobs come from.
    pub workload: WorkloadSource,
    /// How they are prepared.
    pub prepare: PrepareConfig,
    /// Node failures.
    pub failures: FailureSource,
    /// Overbooking: acceptance test, PoF_max, runtime statistics, λ and μ.
    #[serde(default)]
    pub overbooking: OverbookingConfig,
    /// Paper B's reservations (none by default; left out of the canonical
    /// text when default, so the ids of points without them do not change).
    #[serde(default, skip_serializing_if = "ReservationConfig::is_default")]
    pub reservations: ReservationConfig,
    /// The classic queueing modes' settings (left out when default).
    #[serde(default, skip_serializing_if = "ClassicConfig::is_default")]
    pub classic: ClassicConfig,
    /// A Grid run (left out for single-cluster points, so their ids do not
    /// change): `strategy` is then the clusters' local scheduler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridConfig>,
}

/// The stable identity of a point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointId {
    /// 63-bit integer id, the `run_id` in the store.
    pub run_id: i64,
    /// Full sha256 of the canonical settings, hex.
    pub hash: String,
}

impl Point {
    /// The same point with every setting its strategy does not read reset to
    /// its default: points that differ only there are one simulation.
    pub fn normalized(&self) -> Result<Point, UnknownName> {
        let info = strategy(&self.strategy)?;
        if let Some(grid) = &self.grid {
            // A Grid run reads its workload, seed, local scheduler and [grid] only.
            return Ok(Point {
                strategy: self.strategy.clone(),
                placement: Placement::default(),
                seed: self.seed,
                battery: 0,
                workload: self.workload.clone(),
                prepare: PrepareConfig::default(),
                failures: FailureSource::None,
                overbooking: OverbookingConfig::default(),
                reservations: ReservationConfig::default(),
                classic: ClassicConfig::default(),
                grid: Some(grid.clone()),
            });
        }
        let reads = info.reads;
        let mut p = self.clone();
        if !info.queueing {
            p.classic = ClassicConfig::default();
        }
        let defaults = OverbookingConfig::default();
        if !reads.placement {
            p.placement = Placement::default();
        }
        if !reads.overbooking {
            p.overbooking.pof_max = defaults.pof_max;
            p.overbooking.pdf = defaults.pdf.clone();
            p.overbooking.calibration = defaults.calibration;
            p.overbooking.calibration_min_count = defaults.calibration_min_count;
            p.overbooking.calibration_warmup = defaults.calibration_warmup;
            // Only overbooked jobs are ever checkpointed.
            p.overbooking.checkpoint = defaults.checkpoint;
        }
        if !p.reservations.active() {
            p.reservations = ReservationConfig::default();
        }
        if !reads.acceptance {
            p.overbooking.acceptance = defaults.acceptance;
            p.overbooking.security_factor = None;
        } else {
            match p.overbooking.acceptance {
                crate::policy::overbooking::AcceptanceKind::Pof => p.overbooking.security_factor = None,
                crate::policy::overbooking::AcceptanceKind::Risk => p.overbooking.pof_max = defaults.pof_max,
            }
        }
        Ok(p)
    }

    /// The canonical TOML text of the settings.
    pub fn canonical(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("unserialisable point: {e}"))
    }

    /// The identity of the point's jobs: workload, preparation (but for the
    /// penalty ratio, which the jobs' attributes do not show) and battery.
    pub fn battery_key(&self) -> i64 {
        let prepare = PrepareConfig { penalty_ratio: 1.0, ..self.prepare.clone() };
        let mut text = format!(
            "{}\n{}\nbattery = {}",
            toml::to_string(&self.workload).unwrap_or_default(),
            toml::to_string(&prepare).unwrap_or_default(),
            self.battery
        );
        if let Some(g) = &self.grid {
            // A Grid run's jobs: the windows of its clusters.
            text.push_str(&format!(
                "\ngrid windows = {}\nclusters = {}",
                toml::to_string(&g.windows).unwrap_or_default(),
                g.clusters
            ));
        }
        let digest = Sha256::digest(text.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        (u64::from_be_bytes(first) >> 1) as i64
    }

    /// The point's stable id.
    pub fn id(&self) -> PointId {
        let digest = Sha256::digest(self.canonical().as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        let run_id = (u64::from_be_bytes(first) >> 1) as i64;
        let hash = digest.iter().map(|b| format!("{b:02x}")).collect();
        PointId { run_id, hash }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point() -> Point {
        Point {
            strategy: "heuristic-planning".into(),
            placement: Placement::BestFit,
            seed: 1,
            battery: 3,
            workload: WorkloadSource::default(),
            prepare: PrepareConfig::default(),
            failures: FailureSource::default_for("lanl").unwrap(),
            overbooking: OverbookingConfig::default(),
            reservations: Default::default(),
            classic: Default::default(),
            grid: None,
        }
    }

    #[test]
    fn id_is_stable_and_sensitive() {
        let p = point();
        let text = p.canonical();
        assert!(text.contains("strategy = \"heuristic-planning\""), "{text}");
        let back: Point = toml::from_str(&text).unwrap();
        assert_eq!(back, p);
        assert_eq!(p.id(), point().id());
        assert!(p.id().run_id >= 0);
        let other = Point { battery: 4, ..point() };
        assert_ne!(p.id(), other.id());
    }

    #[test]
    fn unread_settings_normalise_away() {
        let mut a = point();
        a.overbooking.pof_max = 0.35;
        // Heuristic planning reads neither PoF_max nor its placement.
        let b = Point { placement: Placement::FirstFit, ..a.clone() };
        assert_eq!(a.normalized().unwrap().id(), point().normalized().unwrap().id());
        assert_eq!(b.normalized().unwrap().id(), point().normalized().unwrap().id());
        // Heuristic overbooking reads PoF_max, but not the security factor under the PoF test.
        let mut c = Point { strategy: "heuristic-overbooking".into(), ..a.clone() };
        let d = c.clone();
        c.overbooking.security_factor = Some(3.0);
        assert_eq!(c.normalized().unwrap().id(), d.normalized().unwrap().id());
        let mut e = d.clone();
        e.overbooking.pof_max = 0.4;
        assert_ne!(e.normalized().unwrap().id(), d.normalized().unwrap().id());
        assert!(Point { strategy: "nope".into(), ..point() }.normalized().is_err());
    }
}
