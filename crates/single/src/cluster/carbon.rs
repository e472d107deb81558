//! Energy that emits and costs by the hour: a run's energy priced against
//! grid signals (carbon intensity, electricity price, renewable supply),
//! per job and per run.
//!
//! Context: carbon-aware accounting of jobs over time-varying grid carbon
//! intensity follows GAIA (Hanafy et al., "Going Green for Less Green:
//! Optimizing the Cost of Reducing Cloud Carbon Emissions", ASPLOS 2024),
//! which charges each job the intensity over the hours it runs, not an
//! average.
//!
//! Contract:
//! - `[signals]` ([`SignalsConfig`]) names a carbon intensity (gCO2eq/kWh),
//!   a price (currency/MWh) and a renewable supply (W, or MWh/h read as
//!   10⁶ W) file, each optional, or a `region` whose shipped files are
//!   taken; the run's virtual time is aligned onto each signal by
//!   [`slasim_data::signal::Alignment`] (`start`, `offset`, `scale`).
//! - A [`PowerRecorder`] listens to the cluster's node states beside the
//!   energy meter and keeps the cluster's watts as a step function over the
//!   meter's window (first submission to last job end); a run without
//!   `[signals]` has none, so its events and outcomes do not change.
//! - [`account`] integrates exactly, with no sampling: over each interval of
//!   constant cluster watts `W`, emissions are `W · ∫ intensity dt`, cost
//!   `W · ∫ price dt` and renewable energy used `∫ min(supply, W) dt` (the
//!   supply is capped at the draw at each instant).
//! - Per job: its *own* energy is its nodes' busy watts over its run
//!   (`nodes · busy_watts` over `[start, end)`), priced over that interval.
//!   The rest of the run's energy (idle, failed and sleeping nodes,
//!   switching, and runs lost to failures) is *shared*: each job that ran
//!   gets the part of the rest's joules, kgCO2 and cost proportional to its
//!   node-seconds. So the jobs' figures sum to the run's.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, anyhow};
use serde::{Deserialize, Serialize};

use crate::cluster::energy::{EnergyConfig, NodeStates};
use crate::cluster::record::RunRecords;
use slasim_core::setting::InvalidSetting;
use slasim_core::sim::kernel::{Model, Outbox};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::Receive;
use slasim_core::units::Time;
use slasim_data::signal::{self, AlignedSignal, Alignment, Interpolation, Quantity, ReadOptions, Signal};

/// Joules per kWh.
const JOULES_PER_KWH: f64 = 3.6e6;
/// Joules per MWh.
const JOULES_PER_MWH: f64 = 3.6e9;

/// The year of the shipped files a region picks when none is given.
pub const DEFAULT_YEAR: i32 = 2023;

/// How a signal runs between samples, as written in `[signals]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignalInterpolation {
    /// A sample's value holds until the next.
    #[default]
    Hold,
    /// A straight line to the next sample.
    Linear,
}

impl SignalInterpolation {
    fn is_default(&self) -> bool {
        *self == SignalInterpolation::Hold
    }
}

/// The grid signals a run is accounted against (`[signals]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignalsConfig {
    /// A region of the shipped files (`DE-LU`, `US-CAL-CISO`, …): its
    /// Electricity Maps carbon intensity and its sustain-cluster prices,
    /// of `year`; a file given below replaces the region's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The year of the region's files (default 2023).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// A carbon intensity file (gCO2eq/kWh).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carbon: Option<PathBuf>,
    /// An electricity price file (currency/MWh).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<PathBuf>,
    /// A renewable supply file (W, or MWh/h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewable: Option<PathBuf>,
    /// The column of the renewable file (`renewable` for an EIA-930 file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewable_column: Option<String>,
    /// How every signal runs between samples.
    #[serde(default, skip_serializing_if = "SignalInterpolation::is_default")]
    pub interpolation: SignalInterpolation,
    /// The UTC instant (Unix seconds) of the run's virtual time 0; default:
    /// where the run's battery began in its log: the log's `UnixStartTime`
    /// (else the first sample of the first signal: carbon, price, renewable)
    /// plus the battery's first submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<i64>,
    /// Seconds added after the alignment's shift (not a whole number of
    /// weeks: off the log's weekday and hour, on purpose).
    #[serde(default)]
    pub offset: Time,
    /// Real seconds per virtual second (> 0).
    #[serde(default = "one")]
    pub scale: f64,
}

fn one() -> f64 {
    1.0
}

impl SignalsConfig {
    /// Every value in its domain: a region of letters, digits and `-`, a
    /// year of four digits, a positive finite scale, at least one signal.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if let Some(region) = &self.region {
            let ok = !region.is_empty() && region.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            if !ok {
                return Err(InvalidSetting::new(
                    "signals.region",
                    region,
                    "a region of the shipped files: letters, digits and `-` (e.g. DE-LU, US-CAL-CISO)",
                ));
            }
        }
        if let Some(year) = self.year {
            if !(1970..=9999).contains(&year) {
                return Err(InvalidSetting::new("signals.year", year, "a year of the region's files, 1970 to 9999"));
            }
            if self.region.is_none() {
                return Err(InvalidSetting::new("signals.year", year, "picks a region's files: give signals.region"));
            }
        }
        if !self.scale.is_finite() || self.scale <= 0.0 {
            return Err(InvalidSetting::new("signals.scale", self.scale, "must be a finite number above 0"));
        }
        if let Some(start) = self.start {
            if chrono::DateTime::from_timestamp(start, 0).is_none() {
                return Err(InvalidSetting::new("signals.start", start, "must be a Unix time in seconds"));
            }
        }
        if self.region.is_none() && self.carbon.is_none() && self.price.is_none() && self.renewable.is_none() {
            return Err(InvalidSetting::new(
                "signals.region",
                "(none)",
                "[signals] names no signal: give a region, or carbon, price or renewable files",
            ));
        }
        Ok(())
    }

    /// The carbon intensity and price files, each the one given or the
    /// region's shipped file, and the renewable file.
    fn files(&self) -> anyhow::Result<[Option<PathBuf>; 3]> {
        let (mut carbon, mut price) = (self.carbon.clone(), self.price.clone());
        if let Some(region) = &self.region {
            let year = self.year.unwrap_or(DEFAULT_YEAR);
            if carbon.is_none() {
                let name = format!("carbon_intensity/electricitymaps/{region}_{year}_hourly.csv.gz");
                carbon = Some(shipped(&name).with_context(|| format!("[signals] region {region}, year {year}"))?);
            }
            if price.is_none() {
                // Most regions' prices are standardised to UTC; three US ISOs'
                // are processed separately upstream.
                let names = [
                    format!("prices/sustain-cluster-utc-usd/{region}_electricity_prices_{year}.csv.gz"),
                    format!("prices/sustain-cluster-us-iso-utc/{region}_electricity_prices_{year}.csv.gz"),
                ];
                let found = names.iter().find_map(|n| shipped(n).ok());
                price = Some(found.ok_or_else(|| {
                    anyhow!(
                        "[signals] region {region}, year {year}: no shipped price file ({} or {} under {}); give `price = \"FILE\"`",
                        names[0],
                        names[1],
                        signal::signal_dirs().iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
                    )
                })?);
            }
        }
        let resolve =
            |p: &Option<PathBuf>| p.as_deref().map(|p| signal::resolve_signal(p).map_err(|e| anyhow!(e))).transpose();
        Ok([resolve(&carbon)?, resolve(&price)?, resolve(&self.renewable)?])
    }

    /// The key its signals are loaded under in a run's inputs.
    pub fn inputs_key(&self) -> String {
        format!("signals\n{}", toml::to_string(self).unwrap_or_default())
    }

    /// Reads its signals (each file once per key, by the caller's cache).
    pub fn load(&self) -> anyhow::Result<Signals> {
        let [carbon, price, renewable] = self.files()?;
        let interpolation = match self.interpolation {
            SignalInterpolation::Hold => Interpolation::Hold,
            SignalInterpolation::Linear => Interpolation::Linear,
        };
        let read = |path: &Option<PathBuf>, column: Option<String>, wanted: fn(&Quantity) -> bool, what: &str| {
            path.as_ref()
                .map(|path| -> anyhow::Result<Arc<Signal>> {
                    let options = ReadOptions { column, interpolation, ..ReadOptions::default() };
                    let s = signal::read(path, &options)?;
                    if !wanted(s.quantity()) {
                        anyhow::bail!(
                            "{}: [signals] {what}: the file holds {}, not {what}",
                            path.display(),
                            s.quantity()
                        );
                    }
                    Ok(Arc::new(s))
                })
                .transpose()
        };
        Ok(Signals {
            carbon: read(&carbon, None, |q| *q == Quantity::CarbonIntensity, "carbon intensity (gCO2eq/kWh)")?,
            price: read(&price, None, |q| matches!(q, Quantity::Price { .. }), "a price (currency/MWh)")?,
            renewable: read(
                &renewable,
                self.renewable_column.clone(),
                |q| matches!(q, Quantity::Power | Quantity::EnergyPerHour),
                "a renewable supply (W or MWh/h)",
            )?,
        })
    }

    /// Its signals aligned onto a run's virtual time, whose time 0 is
    /// `start`, else where the run's battery began in its log ([`Origin`]).
    pub fn align(&self, signals: &Signals, origin: Origin) -> anyhow::Result<Aligned> {
        let first = [&signals.carbon, &signals.price, &signals.renewable].into_iter().flatten().next();
        let log_start = origin.unix_start.or(first.map(|s| s.start())).unwrap_or(0);
        let start = self.start.unwrap_or(log_start + origin.began);
        let alignment = Alignment { start, offset: self.offset, scale: self.scale };
        let align = |s: &Option<Arc<Signal>>| s.clone().map(|s| alignment.align(s)).transpose();
        let renewable_watts = match signals.renewable.as_ref().map(|s| s.quantity()) {
            Some(Quantity::EnergyPerHour) => 1e6,
            _ => 1.0,
        };
        Ok(Aligned {
            carbon: align(&signals.carbon)?,
            price: align(&signals.price)?,
            renewable: align(&signals.renewable)?,
            renewable_watts,
            currency: signals.price.as_ref().and_then(|s| match s.quantity() {
                Quantity::Price { currency } => Some(currency.clone()),
                _ => None,
            }),
        })
    }
}

/// A shipped file under the signals directories ([`signal::resolve_signal`]).
fn shipped(name: &str) -> anyhow::Result<PathBuf> {
    signal::resolve_signal(std::path::Path::new(name)).map_err(|e| anyhow!(e))
}

/// The signals of a `[signals]` section, read.
#[derive(Debug, Clone)]
pub struct Signals {
    /// Carbon intensity, gCO2eq/kWh.
    pub carbon: Option<Arc<Signal>>,
    /// Price, currency/MWh.
    pub price: Option<Arc<Signal>>,
    /// Renewable supply, W or MWh/h.
    pub renewable: Option<Arc<Signal>>,
}

/// The signals on a run's virtual time.
#[derive(Debug, Clone)]
pub struct Aligned {
    /// Carbon intensity, gCO2eq/kWh.
    pub carbon: Option<AlignedSignal>,
    /// Price, currency/MWh.
    pub price: Option<AlignedSignal>,
    /// Renewable supply, in its file's unit.
    pub renewable: Option<AlignedSignal>,
    /// Watts per unit of the renewable signal (1 for W, 10⁶ for MWh/h).
    pub renewable_watts: f64,
    /// The price's currency.
    pub currency: Option<String>,
}

/// The cluster's watts from `from` until the next step (or the window's end).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerStep {
    /// When it begins.
    pub from: Time,
    /// The cluster's watts.
    pub watts: f64,
}

/// The cluster's watts over the meter's window, as a step function.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PowerProfile {
    /// The steps, by time; the first at the window's start.
    pub steps: Vec<PowerStep>,
    /// The window's end: the last job end (the start when none ended).
    pub end: Time,
}

impl PowerProfile {
    /// The intervals of constant watts, `(from, to, watts)`, clipped to the window.
    pub fn intervals(&self) -> impl Iterator<Item = (Time, Time, f64)> + '_ {
        self.steps.iter().enumerate().filter_map(|(i, s)| {
            let to = self.steps.get(i + 1).map_or(self.end, |n| n.from).min(self.end);
            (to > s.from).then_some((s.from, to, s.watts))
        })
    }
}

/// Records the cluster's watts at each change of its node states (the
/// energy meter's input, listened to beside it).
pub struct PowerRecorder {
    watts: EnergyConfig,
    capacity: u32,
    profile: PowerProfile,
    buffers: Buffers<NodeStates>,
}

impl PowerRecorder {
    /// A recorder of a cluster of `capacity` nodes, all idle from `start`.
    pub fn new(watts: EnergyConfig, capacity: u32, start: Time) -> PowerRecorder {
        let idle = NodeStates::default().watts(&watts, capacity);
        let profile = PowerProfile { steps: vec![PowerStep { from: start, watts: idle }], end: start };
        PowerRecorder { watts, capacity, profile, buffers: Buffers::default() }
    }
}

impl Model for PowerRecorder {
    type Msg = NodeStates;

    fn handle(&mut self, now: Time, states: NodeStates, outbox: Outbox<NodeStates>) -> Outbox<NodeStates> {
        let watts = states.watts(&self.watts, self.capacity);
        let steps = &mut self.profile.steps;
        match steps.last().copied() {
            // The last message of an instant sets the state after it.
            Some(last) if last.from >= now => {
                if let Some(last) = steps.last_mut() {
                    last.watts = watts;
                }
            }
            Some(last) if last.watts == watts => {}
            _ => steps.push(PowerStep { from: now, watts }),
        }
        if states.job_ended {
            self.profile.end = self.profile.end.max(now);
        }
        outbox
    }
}

impl Receive<NodeStates> for PowerRecorder {
    fn receive(states: NodeStates) -> NodeStates {
        states
    }
}

impl Batched for PowerRecorder {
    fn buffers(&mut self) -> &mut Buffers<NodeStates> {
        &mut self.buffers
    }
}

impl Finish for PowerRecorder {
    type Final = PowerProfile;

    fn finish(&mut self) -> PowerProfile {
        let mut profile = std::mem::take(&mut self.profile);
        let end = profile.end;
        // Steps after the last job end lie outside the window.
        let keep = profile.steps.iter().take_while(|s| s.from < end).count().max(1);
        profile.steps.truncate(keep);
        profile
    }
}

/// A job's energy, emissions and cost (`job_carbon`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobCarbon {
    /// The job's id.
    pub job: u32,
    /// Joules: its own and its share of the rest.
    pub joules: f64,
    /// kgCO2eq, with a carbon intensity signal.
    pub kg_co2: Option<f64>,
    /// Cost in the price's currency, with a price signal.
    pub cost: Option<f64>,
}

/// Where a run began in its log, for the default alignment: its time 0 is
/// the log's `unix_start` (else the first signal's first sample) plus
/// `began` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Origin {
    /// The Unix time of the log's time 0, if its header gives one.
    pub unix_start: Option<i64>,
    /// The run's first submission, in the log's seconds.
    pub began: Time,
}

/// A run's energy, emissions, cost and renewable share (`run_carbon`).
#[derive(Debug, Clone, PartialEq)]
pub struct RunCarbon {
    /// The region named, if any.
    pub region: Option<String>,
    /// kWh over the window.
    pub kwh: f64,
    /// kgCO2eq, with a carbon intensity signal.
    pub kg_co2: Option<f64>,
    /// Cost, with a price signal.
    pub cost: Option<f64>,
    /// The price's currency.
    pub currency: Option<String>,
    /// kWh of renewable supply used (capped at the draw), with a renewable signal.
    pub renewable_kwh: Option<f64>,
    /// `renewable_kwh / kwh`.
    pub renewable_share: Option<f64>,
    /// kWh shared among the jobs (idle, down, sleeping nodes, switching, lost runs).
    pub shared_kwh: f64,
    /// The jobs' own kgCO2eq (their nodes' busy watts over their runs), with a carbon signal.
    pub own_kg_co2: Option<f64>,
    /// The jobs' own cost, with a price signal.
    pub own_cost: Option<f64>,
}

/// Joules, grams·… integrals over an interval: `(J, ∫W·CI, ∫W·price)`.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    joules: f64,
    carbon: f64,
    price: f64,
}

impl Sums {
    fn over(signals: &Aligned, from: Time, to: Time, watts: f64) -> Sums {
        Sums {
            joules: watts * (to - from) as f64,
            carbon: signals.carbon.as_ref().map_or(0.0, |s| watts * s.integral(from, to)),
            price: signals.price.as_ref().map_or(0.0, |s| watts * s.integral(from, to)),
        }
    }

    fn add(&mut self, other: Sums) {
        self.joules += other.joules;
        self.carbon += other.carbon;
        self.price += other.price;
    }
}

/// The run's and its jobs' energy, emissions and cost (module docs):
/// `profile` the cluster's watts, `watts` its nodes' power model.
pub fn account(
    config: &SignalsConfig,
    signals: &Aligned,
    profile: &PowerProfile,
    watts: &EnergyConfig,
    records: &RunRecords,
) -> (RunCarbon, Vec<JobCarbon>) {
    let mut total = Sums::default();
    let mut renewable = 0.0;
    for (from, to, w) in profile.intervals() {
        total.add(Sums::over(signals, from, to, w));
        if let Some(r) = &signals.renewable {
            // min(f·R, W) = f·min(R, W/f), f the signal's watts per unit.
            renewable += signals.renewable_watts * r.integral_capped(from, to, w / signals.renewable_watts);
        }
    }
    let jobs = records.recorded_jobs();
    let ran: Vec<(u32, Time, Time, u32)> = records
        .records
        .iter()
        .filter_map(|r| {
            let job = jobs.get(r.job as usize)?;
            Some((r.job, r.actual_start?, r.actual_end?, job.nodes))
        })
        .filter(|&(_, start, end, _)| end >= start)
        .collect();
    let own: Vec<Sums> = ran
        .iter()
        .map(|&(_, start, end, nodes)| Sums::over(signals, start, end, f64::from(nodes) * watts.busy_watts))
        .collect();
    let mut rest = total;
    let mut jobs_own = Sums::default();
    for s in &own {
        jobs_own.add(*s);
        rest.joules -= s.joules;
        rest.carbon -= s.carbon;
        rest.price -= s.price;
    }
    let node_seconds: Vec<f64> =
        ran.iter().map(|&(_, start, end, nodes)| f64::from(nodes) * (end - start) as f64).collect();
    let all: f64 = node_seconds.iter().sum();
    let jobs = ran
        .iter()
        .zip(&own)
        .zip(&node_seconds)
        .map(|((&(job, ..), own), &ns)| {
            let share = if all > 0.0 { ns / all } else { 0.0 };
            JobCarbon {
                job,
                joules: own.joules + share * rest.joules,
                kg_co2: signals.carbon.as_ref().map(|_| (own.carbon + share * rest.carbon) / JOULES_PER_KWH / 1000.0),
                cost: signals.price.as_ref().map(|_| (own.price + share * rest.price) / JOULES_PER_MWH),
            }
        })
        .collect();
    let kwh = total.joules / JOULES_PER_KWH;
    let renewable_kwh = signals.renewable.as_ref().map(|_| renewable / JOULES_PER_KWH);
    let run = RunCarbon {
        region: config.region.clone(),
        kwh,
        kg_co2: signals.carbon.as_ref().map(|_| total.carbon / JOULES_PER_KWH / 1000.0),
        cost: signals.price.as_ref().map(|_| total.price / JOULES_PER_MWH),
        currency: signals.currency.clone(),
        renewable_kwh,
        renewable_share: renewable_kwh.map(|r| if kwh > 0.0 { r / kwh } else { 0.0 }),
        shared_kwh: rest.joules / JOULES_PER_KWH,
        own_kg_co2: signals.carbon.as_ref().map(|_| jobs_own.carbon / JOULES_PER_KWH / 1000.0),
        own_cost: signals.price.as_ref().map(|_| jobs_own.price / JOULES_PER_MWH),
    };
    (run, jobs)
}
