//! Online PoF calibration attached around a strategy (issue 17):
//! overbooking's own piece, which the cluster knows nothing of.
//!
//! Contract:
//! - [`Calibrated`] wraps a strategy and drives a cluster with it
//!   ([`Drive`]). The strategy sees the cluster through a view
//!   ([`crate::cluster::view::Watched`]) that answers
//!   [`Cluster::calibrated_pos`] from the calibrator and notes the
//!   calibrated PoF of every booking it accepts; everything else passes
//!   through unchanged.
//! - The calibrator learns an overbooked job's outcome once it is final and
//!   before the strategy hears of it: at a job end, before `job_ended` runs;
//!   when the strategy fails a job, right after its `fail`. A checkpointed
//!   job's outcome is not final yet.
//! - Its report, [`CalibratedRun`], is the calibrator as the run left it
//!   (the next battery's starting point, see [`warm_up`]) and the calibrated
//!   PoF of each accepted job, by id.
//! - A run without calibration has no [`Calibrated`] around its strategy:
//!   the PoS it reads is the predicted one, untouched.

use std::convert::Infallible;

use crate::cluster::Drive;
use crate::cluster::record::RunRecords;
use crate::cluster::strategy::{Booking, Cluster, Outcome, Strategy};
use crate::cluster::view::{Watch, Watched};
use crate::stats::calibration::OnlineCalibrator;
use crate::workload::job::Job;
use slasim_core::sim::kernel::SimError;
use slasim_core::units::{JobId, NodeId};

/// What the calibrator keeps of a job's last accepted booking.
#[derive(Debug, Clone, Copy, Default)]
struct Booked {
    overbooked: bool,
    pof: Option<f64>,
    calibrated: Option<f64>,
}

/// A strategy whose acceptance tests read the PoF calibrated online.
pub struct Calibrated {
    strategy: Box<dyn Strategy>,
    calibrator: OnlineCalibrator,
    /// By job id.
    booked: Vec<Booked>,
}

impl Calibrated {
    /// `strategy` calibrated by `calibrator` (fresh, or carried from earlier batteries).
    pub fn new(strategy: Box<dyn Strategy>, calibrator: OnlineCalibrator) -> Calibrated {
        Calibrated { strategy, calibrator, booked: Vec::new() }
    }

    fn view<'a>(&'a mut self, cluster: &'a mut dyn Cluster) -> (&'a mut dyn Strategy, Watched<'a, Learning<'a>>) {
        let watch = Learning { calibrator: &mut self.calibrator, booked: &mut self.booked };
        (&mut *self.strategy, Watched { cluster, watch })
    }
}

/// What the calibrator hears of its strategy's calls.
struct Learning<'a> {
    calibrator: &'a mut OnlineCalibrator,
    booked: &'a mut Vec<Booked>,
}

impl Learning<'_> {
    /// Job `id`'s outcome became final: the calibrator learns it if the job was overbooked.
    fn observe(&mut self, cluster: &dyn Cluster, id: JobId) {
        let booked = self.booked.get(id as usize).copied().unwrap_or_default();
        if let (true, Some(pof), Some(outcome)) = (booked.overbooked, booked.pof, cluster.outcome(id)) {
            self.calibrator.observe(pof, outcome == Outcome::Failed);
        }
    }
}

impl Watch for Learning<'_> {
    fn accepted(&mut self, _: &dyn Cluster, id: JobId, booking: Booking) {
        let i = id as usize;
        if i >= self.booked.len() {
            self.booked.resize(i + 1, Booked::default());
        }
        let calibrated = booking.pof.map(|p| self.calibrator.calibrate(p));
        self.booked[i] = Booked { overbooked: booking.overbooked, pof: booking.pof, calibrated };
    }

    fn failed(&mut self, cluster: &dyn Cluster, id: JobId) {
        self.observe(cluster, id);
    }

    fn calibrated_pos(&self, _: &dyn Cluster, pos: f64) -> f64 {
        1.0 - self.calibrator.calibrate(1.0 - pos)
    }
}

impl Strategy for Calibrated {
    fn submit(&mut self, cluster: &mut dyn Cluster, job: JobId) {
        let (strategy, mut view) = self.view(cluster);
        strategy.submit(&mut view, job);
    }

    fn wake(&mut self, cluster: &mut dyn Cluster) {
        let (strategy, mut view) = self.view(cluster);
        strategy.wake(&mut view);
    }

    fn job_ended(&mut self, cluster: &mut dyn Cluster, job: JobId) {
        let (strategy, mut view) = self.view(cluster);
        // The outcome is learnt before the strategy reacts to the end.
        view.watch.observe(&*view.cluster, job);
        strategy.job_ended(&mut view, job);
    }

    fn node_failed(&mut self, cluster: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        let (strategy, mut view) = self.view(cluster);
        strategy.node_failed(&mut view, node, victim);
    }

    fn resume(&mut self, cluster: &mut dyn Cluster) {
        let (strategy, mut view) = self.view(cluster);
        strategy.resume(&mut view);
    }

    fn node_repaired(&mut self, cluster: &mut dyn Cluster, node: NodeId) {
        let (strategy, mut view) = self.view(cluster);
        strategy.node_repaired(&mut view, node);
    }

    fn begin(&mut self, jobs: &[Job]) -> Result<(), SimError> {
        // One entry per job up front, not grown during the run.
        self.booked = vec![Booked::default(); jobs.len()];
        self.strategy.begin(jobs)
    }

    fn error(&self) -> Option<SimError> {
        self.strategy.error()
    }
}

/// What a calibrated run hands back.
#[derive(Debug, Clone)]
pub struct CalibratedRun {
    /// The calibrator as the run left it.
    pub calibrator: OnlineCalibrator,
    /// The calibrated PoF the acceptance test read for each accepted job
    /// with a predicted PoF, by job id.
    pub pof_calibrated: Vec<Option<f64>>,
}

impl CalibratedRun {
    /// Job `id`'s calibrated PoF, if it has one.
    pub fn pof(&self, id: JobId) -> Option<f64> {
        self.pof_calibrated.get(id as usize).copied().flatten()
    }

    /// Σ calibrated PoF of the run's accepted overbooked jobs, in id order
    /// (`None` if none has one).
    pub fn overbooked_pof_sum(&self, records: &RunRecords) -> Option<f64> {
        let mut sum = None;
        for r in records.records.iter().filter(|r| r.accepted && r.overbooked) {
            if let Some(c) = self.pof(r.job) {
                *sum.get_or_insert(0.0) += c;
            }
        }
        sum
    }
}

impl Drive for Calibrated {
    type Question = Infallible;
    type Answer = Infallible;
    type Report = CalibratedRun;

    fn strategy(&mut self) -> &mut dyn Strategy {
        self
    }

    fn answer(&mut self, question: Infallible, _: &mut dyn Cluster) -> Infallible {
        match question {}
    }

    fn report(&mut self) -> CalibratedRun {
        CalibratedRun {
            calibrator: self.calibrator.clone(),
            pof_calibrated: self.booked.iter().map(|b| b.calibrated).collect(),
        }
    }

    fn error(&self) -> Option<SimError> {
        self.strategy.error()
    }
}

/// The calibrator a calibrated run starts with: `calibrator` carried through
/// `batteries` (those before the run's own, in order) as if the cluster had
/// been running them, so it has seen outcomes, and only past ones, when its
/// own battery begins. `run` simulates one battery calibrated by what it is
/// given and hands back the calibrator as that run left it.
pub fn warm_up<E>(
    calibrator: OnlineCalibrator,
    batteries: std::ops::Range<usize>,
    run: impl FnMut(OnlineCalibrator, usize) -> Result<OnlineCalibrator, E>,
) -> Result<OnlineCalibrator, E> {
    batteries.into_iter().try_fold(calibrator, run)
}
