//! The SLA admission environment: at each arrival an agent sees the job's
//! SLA and the planning scheduler's candidate bookings with their PoS, and
//! picks one or rejects the job; its reward is the fees earned less the
//! penalties paid, as they are realised.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1, §5.4, §6.1 (the
//! candidates and their PoS: comprehensive overbooking's,
//! [`slasim_single::policy::comprehensive::AgentAdmitted`]); the baseline
//! ([`AdmissionEnv::baseline`]) is the dissertation's acceptance test.
//!
//! Contract:
//! - An episode is one battery of a single-cluster point whose strategy is
//!   `comprehensive-overbooking`, simulated by the kernel as `slasim run`
//!   simulates it, or of an sla-machine point under that strategy on its
//!   machine of unlike nodes ([`slasim_single::policy::on_machine::comprehensive::Episode`],
//!   reservations decided by the point's own rules), stepped on the caller's thread: at each arrival the
//!   strategy suspends (the kernel's contract) and the bench's step returns
//!   to the environment with the arrival the strategy put off, and the
//!   environment returns to the agent; the agent's decision goes back into
//!   the strategy by a plain call before the next step. No other thread
//!   runs, and nothing is shared between the environment and the strategy.
//!   One step is one arrival's decision. Failures, early starts, kills and
//!   restarts are the point's own. The agent's strategy replaces the point's
//!   acceptance test and placement choice, nothing else.
//! - `reset(seed)` starts an episode: the point's seed becomes `seed` (the
//!   failure streams) and the battery is drawn from `seed` unless given. The
//!   same seed, battery and actions give the same observations and rewards,
//!   to the bit.
//! - A step's reward is the money realised since the previous decision:
//!   +fee for each accepted job that succeeded, −penalty for each that
//!   failed; the last step's reward adds everything realised after the last
//!   arrival. Their sum over an episode is the point's stored gain.
//! - An action that names no candidate is an error naming the action, the
//!   job and the simulated time, and changes nothing: the environment stays
//!   usable. A simulation error ends the episode with that error; `reset`
//!   starts a new one.
//! - Observation: [`JOB_FEATURES`] features of the job, on a machine of
//!   unlike nodes [`RESOURCE_FEATURES`] more (what the job asks of each
//!   resource and what is free of it), then [`CANDIDATE_FEATURES`] per
//!   candidate slot (zeros where there is no candidate); see
//!   [`AdmissionEnv::observe`].

use std::convert::Infallible;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use rand::RngExt;

use crate::streams::ADMISSION_BATTERY;
use slasim_core::experiment::config::Experiment;
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::registry::Registry;
use slasim_core::rng::stream;
use slasim_machine::{MILLI, Unfit};
use slasim_sim::kernel::{SimError, Stop};
use slasim_sim::units::{JobId, Time};
use slasim_single::cluster::Drive;
use slasim_single::cluster::bench::Stepped;
use slasim_single::cluster::strategy::RejectReason;
use slasim_single::cluster::strategy::{Cluster, Outcome, Placement};
use slasim_single::point::{SinglePoint, scenario_replaced};
use slasim_single::policy::Strategy;
use slasim_single::policy::comprehensive::{Admission, Admitted, AgentAdmitted, Answer, Candidate, Comprehensive};
use slasim_single::policy::on_machine::comprehensive::{Episode as MachineEpisode, Offer};
use slasim_single::policy::on_machine::{Decision, MachineJob, MachineStrategyInfo};
use slasim_single::policy::overbooking::Acceptance;
use slasim_single::summary::RunSummary;
use slasim_single::workload::job::Job;
use slasim_sla_machine::kind::{Loaded, Scheduler, SlaMachinePoint};

/// Features of the arriving job in an observation.
pub const JOB_FEATURES: usize = 5;
/// Features of each candidate slot in an observation.
pub const CANDIDATE_FEATURES: usize = 5;
/// Features of the resources in an observation on a machine of unlike nodes.
pub const RESOURCE_FEATURES: usize = 6;
/// Candidate slots when none are asked for.
pub const DEFAULT_SLOTS: usize = 8;

/// The point an environment runs when no config is given: the embedded
/// synthetic workload, four batteries of 500 jobs, Poisson node failures.
pub const DEFAULT_CONFIG: &str = r#"name = "sla-admission"
description = "The SLA admission environment's default: comprehensive overbooking on the embedded synthetic workload"
placement = "best-fit"

[workload.synthetic]
seed = 1
jobs = 6000

[prepare]
input_jobs = 2000
batteries = 4
battery_size = 500

[failures]
model = "poisson"
lambda_per_hour = 1.2904e-4
mu_per_hour = 0.4333

[[sweep]]
[sweep.axes]
strategy = ["comprehensive-overbooking"]
"#;

/// An arrival waiting for the agent's decision.
#[derive(Debug, Clone)]
pub struct Arrival {
    /// Simulated time.
    pub now: Time,
    /// The job and its SLA.
    pub job: Job,
    /// Nodes in the cluster.
    pub capacity: u32,
    /// The bookings it may have, in the order of [`AgentAdmitted`] (on a
    /// machine, of [`Episode::offers`](MachineEpisode::offers)).
    pub candidates: Vec<Candidate>,
    /// On a machine of unlike nodes: the shares of its CPUs, memory and GPU
    /// thousandths the job asks for (over all its nodes), then the shares
    /// free now on its nodes that are up.
    pub resources: Option<[f64; 6]>,
    /// Money realised since the previous arrival.
    realised: f64,
}

/// The agent's side inside the strategy: every arrival is put off to the
/// caller ([`Answer::Later`]), handed over with the step that stops at it,
/// and answered here between two steps.
struct Caller {
    /// The arrival put off, until the environment takes it.
    arrival: Option<Arrival>,
    /// The agent's answer, read when the strategy goes on.
    answer: Option<usize>,
    slots: usize,
    /// The job put off, and how many candidates it was offered.
    offered: Option<(JobId, usize)>,
    /// Accepted jobs whose outcome is not final yet.
    pending: Vec<JobId>,
}

impl Admission for Caller {
    fn slots(&self) -> usize {
        self.slots
    }

    fn admit(&mut self, c: &dyn Cluster, job: &Job, candidates: &[Candidate]) -> Answer {
        let mut realised = 0.0;
        self.pending.retain(|&id| match c.outcome(id) {
            Some(Outcome::Success) => {
                realised += c.job(id).fee;
                false
            }
            Some(Outcome::Failed) => {
                realised -= c.job(id).penalty;
                false
            }
            Some(Outcome::Rejected) => false,
            None => true,
        });
        let arrival = Arrival {
            now: c.now(),
            job: *job,
            capacity: c.capacity(),
            candidates: candidates.to_vec(),
            resources: None,
            realised,
        };
        self.offered = Some((job.id, candidates.len()));
        self.arrival = Some(arrival);
        Answer::Later
    }

    fn answer(&mut self) -> Option<usize> {
        let answer = self.answer.take();
        let (job, offered) = self.offered.take()?;
        let i = answer.filter(|&i| i < offered)?;
        self.pending.push(job);
        Some(i)
    }
}

/// What drives an episode's cluster: comprehensive overbooking whose
/// bookings the [`Caller`] picks, nothing attached.
struct Agent(Admitted);

impl Agent {
    /// The agent's side inside the strategy.
    fn caller(&mut self) -> Option<&mut Caller> {
        self.0.admission::<Caller>()
    }
}

impl Drive for Agent {
    type Question = Infallible;
    type Answer = Infallible;
    type Report = ();

    fn strategy(&mut self) -> &mut dyn Strategy {
        &mut self.0
    }

    fn answer(&mut self, question: Infallible, _: &mut dyn Cluster) -> Infallible {
        match question {}
    }

    fn report(&mut self) {}

    fn error(&self) -> Option<SimError> {
        self.0.error()
    }
}

/// One episode of a single cluster: its bench, stepped on the caller's thread.
struct Episode {
    /// The simulation, until it ends or fails.
    bench: Option<Stepped<Agent>>,
    capacity: u32,
    current: Option<Arrival>,
    /// Reward handed out so far.
    given: f64,
    /// The run's summary, once the episode is over.
    summary: Option<RunSummary>,
}

/// Why a step failed.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The action names no candidate, or there is nothing to decide: nothing changed.
    #[error("{0}")]
    Action(String),
    /// The simulation failed: the episode is over.
    #[error("{0:#}")]
    Simulation(anyhow::Error),
}

/// What a step returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Money realised since the previous decision.
    pub reward: f64,
    /// The episode is over (every job of the battery has its outcome).
    pub terminated: bool,
}

/// One episode on a machine of unlike nodes, stepped on the caller's thread.
struct OnMachine {
    episode: MachineEpisode,
    /// The waiting arrival's offers, in its candidates' order.
    offers: Vec<Offer>,
    /// Why the waiting arrival has no offer.
    why: Option<(RejectReason, Option<Unfit>)>,
    current: Option<Arrival>,
    /// Money handed out so far.
    given: f64,
    slots: usize,
    summary: Option<RunSummary>,
}

/// What an environment runs.
enum Source {
    /// A single cluster's point.
    Single { point: Box<SinglePoint>, inputs: Arc<Inputs> },
    /// An sla-machine point on its machine.
    Machine { point: Box<SlaMachinePoint>, loaded: Arc<Loaded>, strategy: &'static MachineStrategyInfo },
}

/// A running episode.
enum Running {
    Single(Box<Episode>),
    Machine(Box<OnMachine>),
}

/// The SLA admission environment.
pub struct AdmissionEnv {
    source: Source,
    batteries: usize,
    slots: usize,
    acceptance: Acceptance,
    episode: Option<Running>,
}

impl AdmissionEnv {
    /// The environment over point `index` of the config `text` (read from
    /// `file`, for errors) of a kind of `registry` (a single cluster's),
    /// offering at most `slots` candidates.
    pub fn from_config(
        registry: &Registry,
        file: &str,
        text: &str,
        index: usize,
        slots: usize,
    ) -> anyhow::Result<AdmissionEnv> {
        if slots == 0 {
            bail!("slots = 0: the environment needs at least one candidate slot");
        }
        let experiment = Experiment::parse(registry, file, text)?;
        let count = experiment.points.len();
        if index >= count {
            bail!("{file}: point {index} does not exist (the config has {count} points)");
        }
        let point = experiment.points.get(registry, index)?;
        if let Some(p) = point.point.get::<SlaMachinePoint>() {
            return AdmissionEnv::on_machine(file, index, p.clone(), slots);
        }
        let p = point
            .point
            .get::<SinglePoint>()
            .ok_or_else(|| {
                anyhow!("{file}: the SLA admission environment takes a single-cluster or an sla-machine config")
            })?
            .clone();
        if p.strategy.name != "comprehensive-overbooking" {
            bail!(
                "{file}: point {index} runs strategy {}; the SLA admission environment offers the candidates of \
                 comprehensive-overbooking, so its config must name that strategy",
                p.strategy
            );
        }
        let inputs = Inputs::load(&[Point::new(p.clone())]).with_context(|| format!("loading the inputs of {file}"))?;
        let prepared = p.prepared(&inputs)?;
        let batteries = if p.prepare.whole_log { 1 } else { prepared.batteries.len() };
        let acceptance = p
            .strategy_settings(&inputs)?
            .overbooking
            .map(|o| o.acceptance)
            .ok_or_else(|| anyhow!("{file}: the point has no overbooking settings"))?;
        let source = Source::Single { point: Box::new(p), inputs: Arc::new(inputs) };
        Ok(AdmissionEnv { source, batteries, slots, acceptance, episode: None })
    }

    /// The environment over the sla-machine point `p`, point `index` of `file`.
    fn on_machine(file: &str, index: usize, p: SlaMachinePoint, slots: usize) -> anyhow::Result<AdmissionEnv> {
        let strategy = match Scheduler::named(&p.strategy)? {
            Scheduler::Planner(s) if s.name == "comprehensive-overbooking" => s,
            _ => bail!(
                "{file}: point {index} runs strategy {}; the SLA admission environment offers the candidates of \
                 comprehensive-overbooking, so its config must name that strategy",
                p.strategy
            ),
        };
        let loaded = p.open().with_context(|| format!("loading the inputs of {file}"))?;
        let batteries = p.batteries as usize;
        // The acceptance test the baseline applies: the point's own.
        let acceptance = p
            .planner_run(strategy, &loaded)?
            .overbooking
            .map(|o| o.acceptance)
            .ok_or_else(|| anyhow!("{file}: the point has no overbooking settings"))?;
        let source = Source::Machine { point: Box::new(p), loaded: Arc::new(loaded), strategy };
        Ok(AdmissionEnv { source, batteries, slots, acceptance, episode: None })
    }

    /// The environment over [`DEFAULT_CONFIG`].
    pub fn default_point(slots: usize) -> anyhow::Result<AdmissionEnv> {
        // Its config is the single cluster's alone, of built-in names.
        let registry = Registry::new(&[&slasim_single::KIND])?;
        AdmissionEnv::from_config(&registry, "the default SLA admission config", DEFAULT_CONFIG, 0, slots)
    }

    /// Candidate slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Batteries an episode may run.
    pub fn batteries(&self) -> usize {
        self.batteries
    }

    /// Length of an observation.
    pub fn observation_len(&self) -> usize {
        let resources = match self.source {
            Source::Single { .. } => 0,
            Source::Machine { .. } => RESOURCE_FEATURES,
        };
        JOB_FEATURES + resources + CANDIDATE_FEATURES * self.slots
    }

    /// Starts an episode on `battery` (drawn from `seed` if `None`) with the
    /// point's seed set to `seed`; false if it ended before any arrival.
    pub fn reset(&mut self, seed: u64, battery: Option<usize>) -> anyhow::Result<bool> {
        self.episode = None;
        let battery = match battery {
            Some(b) if b >= self.batteries => {
                bail!("battery {b} does not exist: the workload has {} batteries", self.batteries)
            }
            Some(b) => b,
            None => stream(seed, ADMISSION_BATTERY, 0).random_range(0..self.batteries),
        };
        let (point, inputs) = match &self.source {
            Source::Single { point, inputs } => (point, inputs),
            Source::Machine { point, loaded, strategy } => {
                // The seed draws what the point draws: its failures, sampled
                // pods or synthetic workload, and its reservations.
                let point =
                    SlaMachinePoint { battery: battery as u32, seed: point.seed.map(|_| seed), ..(**point).clone() };
                let run = point.planner_run(strategy, loaded)?;
                let ob = run.overbooking.ok_or_else(|| anyhow!("the point has no overbooking settings"))?;
                let machine = Arc::clone(loaded.machine());
                let episode = MachineEpisode::new(machine, run.jobs, run.choice, &run.failures, ob, run.reservations)?;
                let mut on = OnMachine {
                    episode,
                    offers: Vec::new(),
                    why: None,
                    current: None,
                    given: 0.0,
                    slots: self.slots,
                    summary: None,
                };
                on.advance();
                let waiting = on.current.is_some();
                self.episode = Some(Running::Machine(Box::new(on)));
                return Ok(waiting);
            }
        };
        let point = SinglePoint { battery, seed, ..(**point).clone() };
        let caller = Caller { arrival: None, answer: None, slots: self.slots, offered: None, pending: Vec::new() };
        let scenario = scenario_replaced(inputs, &point, |settings, capacity| {
            let core = Comprehensive::<AgentAdmitted>::new(
                capacity,
                settings.placement,
                settings.reliability.clone(),
                settings.overbooking.clone(),
            );
            Agent(Admitted::new(core, Box::new(caller)))
        })?;
        let capacity = scenario.capacity;
        let mut bench = Stepped::assemble(scenario, false)?;
        // Each arrival comes back with the step that stops at it.
        bench.when_suspended(|agent: &mut Agent| agent.caller().and_then(|caller| caller.arrival.take()))?;
        let mut episode = Episode { bench: Some(bench), capacity, current: None, given: 0.0, summary: None };
        episode.advance()?;
        let waiting = episode.current.is_some();
        self.episode = Some(Running::Single(Box::new(episode)));
        Ok(waiting)
    }

    /// The summary `slasim run` would store for the episode, once it is
    /// over (on a machine: its jobs, acceptances, outcomes and money).
    pub fn summary(&self) -> Option<&RunSummary> {
        match self.episode.as_ref()? {
            Running::Single(e) => e.summary.as_ref(),
            Running::Machine(e) => e.summary.as_ref(),
        }
    }

    /// The single-cluster point an episode runs (its battery and seed are
    /// set at reset); none on a machine.
    pub fn point(&self) -> Option<&SinglePoint> {
        match &self.source {
            Source::Single { point, .. } => Some(point),
            Source::Machine { .. } => None,
        }
    }

    /// The arrival waiting for a decision, if any.
    pub fn arrival(&self) -> Option<&Arrival> {
        match self.episode.as_ref()? {
            Running::Single(e) => e.current.as_ref(),
            Running::Machine(e) => e.current.as_ref(),
        }
    }

    /// Decides the waiting arrival: candidate `action`, or reject with `None`.
    pub fn step(&mut self, action: Option<usize>) -> Result<Step, StepError> {
        let slots = self.slots;
        if self.episode.is_none() {
            return Err(StepError::Action("no episode: call reset first".into()));
        }
        let arrival = self.arrival().ok_or_else(|| StepError::Action("the episode has ended: call reset".into()))?;
        if let Some(i) = action
            && i >= arrival.candidates.len()
        {
            return Err(StepError::Action(format!(
                "action {i} for job {} at t = {}: there {} only {} candidate{} (0-{}; reject with {})",
                arrival.job.id,
                arrival.now,
                if arrival.candidates.len() == 1 { "is" } else { "are" },
                arrival.candidates.len(),
                if arrival.candidates.len() == 1 { "" } else { "s" },
                arrival.candidates.len().saturating_sub(1),
                slots
            )));
        }
        match self.episode.as_mut() {
            Some(Running::Single(episode)) => {
                let reward = episode.decide(action).map_err(StepError::Simulation)?;
                Ok(Step { reward: reward.unwrap_or(0.0), terminated: episode.current.is_none() })
            }
            Some(Running::Machine(episode)) => {
                let reward = episode.decide(action);
                Ok(Step { reward, terminated: episode.current.is_none() })
            }
            None => Err(StepError::Action("no episode: call reset first".into())),
        }
    }

    /// The dissertation's decision for the waiting arrival (comprehensive
    /// overbooking with the point's acceptance test): with first-fit
    /// placement the first overbooked candidate that passes the test, else
    /// the full booking; with best-fit (and on a machine, whose strategy
    /// takes best fit) the full booking, else the first overbooked candidate
    /// that passes; else reject. (Other placements are read as first-fit.)
    pub fn baseline(&self) -> Option<usize> {
        let a = self.arrival()?;
        let (fee, penalty) = (a.job.fee, a.job.penalty);
        let passes = |k: &Candidate| k.overbooked && self.acceptance.accepts(k.pos, fee, penalty);
        let full = a.candidates.iter().position(|k| !k.overbooked);
        let placement = self.point().map_or(Placement::BestFit, |p| p.placement);
        match placement {
            Placement::BestFit | Placement::HighestPos => full.or_else(|| a.candidates.iter().position(passes)),
            Placement::FirstFit | Placement::LastFit => a.candidates.iter().position(|k| passes(k) || !k.overbooked),
        }
    }

    /// Writes the observation of the waiting arrival into `out` (length
    /// [`Self::observation_len`]); zeros when the episode is over.
    ///
    /// Job: nodes / capacity; estimate (hours); time to the deadline from now
    /// (hours); fee; penalty. On a machine of unlike nodes, then: the shares
    /// of its CPUs, memory and GPU thousandths the job asks for, and the
    /// shares of them free now ([`Arrival::resources`]). Each candidate slot:
    /// 1 if a candidate is there; its wait from now (hours); its length /
    /// the estimate; its PoS; 1 if overbooked.
    pub fn observe(&self, out: &mut [f32]) {
        out.fill(0.0);
        let Some(a) = self.arrival() else { return };
        let j = &a.job;
        let hours = |t: Time| (t as f64 / 3600.0) as f32;
        out[0] = (f64::from(j.nodes) / f64::from(a.capacity.max(1))) as f32;
        out[1] = hours(j.estimate);
        out[2] = hours(j.deadline.saturating_sub(a.now));
        out[3] = j.fee as f32;
        out[4] = j.penalty as f32;
        let mut at = JOB_FEATURES;
        if let Some(shares) = &a.resources {
            for (o, &v) in out[at..at + RESOURCE_FEATURES].iter_mut().zip(shares) {
                *o = v as f32;
            }
            at += RESOURCE_FEATURES;
        }
        for (k, c) in a.candidates.iter().take(self.slots).enumerate() {
            let o = &mut out[at + k * CANDIDATE_FEATURES..][..CANDIDATE_FEATURES];
            o[0] = 1.0;
            o[1] = hours(c.start - a.now);
            o[2] = ((c.end - c.start) as f64 / j.estimate.max(1) as f64) as f32;
            o[3] = c.pos as f32;
            o[4] = if c.overbooked { 1.0 } else { 0.0 };
        }
    }

    /// Valid actions of the waiting arrival: `slots + 1` flags, the last
    /// (reject) always set; all clear when the episode is over.
    pub fn mask(&self, out: &mut [bool]) {
        out.fill(false);
        let Some(a) = self.arrival() else { return };
        for flag in out.iter_mut().take(a.candidates.len().min(self.slots)) {
            *flag = true;
        }
        if let Some(last) = out.get_mut(self.slots) {
            *last = true;
        }
    }
}

impl Episode {
    /// Hands the agent's answer to the waiting arrival to the strategy, then
    /// runs the simulation on ([`Episode::advance`]).
    fn decide(&mut self, action: Option<usize>) -> anyhow::Result<Option<f64>> {
        let Some(bench) = self.bench.as_mut() else { bail!("the simulation of this episode stopped: call reset") };
        let handed = bench.tell(move |agent| {
            if let Some(caller) = agent.caller() {
                caller.answer = action;
            }
        });
        self.current = None;
        if let Err(e) = handed {
            self.bench = None;
            return Err(e.into());
        }
        self.advance()
    }

    /// Runs the simulation to the next arrival or the end: the reward
    /// realised meanwhile.
    fn advance(&mut self) -> anyhow::Result<Option<f64>> {
        let Some(bench) = self.bench.as_mut() else { bail!("the simulation of this episode stopped: call reset") };
        let stop = bench.step(Time::MAX);
        match stop {
            Ok(Stop::Suspended(_)) => {
                let Some(a) = bench.suspended_with::<Option<Arrival>>().flatten() else {
                    let now = self.bench.take().map_or(0, |b| b.now());
                    bail!("the simulation suspended at t = {now} with no arrival to decide")
                };
                let r = a.realised;
                self.given += r;
                self.current = Some(a);
                Ok(Some(r))
            }
            Ok(Stop::Ended | Stop::Finished | Stop::Reached) => {
                let Some(bench) = self.bench.take() else { bail!("the simulation of this episode stopped") };
                let simulated = bench.finished()?;
                let summary = RunSummary::of(&simulated.cluster.records, self.capacity);
                let r = summary.gain - self.given;
                self.given = summary.gain;
                self.summary = Some(summary);
                Ok(Some(r))
            }
            Err(e) => {
                self.bench = None;
                Err(e.into())
            }
        }
    }
}

impl OnMachine {
    /// Runs to the next arrival, or to the end: the money realised meanwhile.
    fn advance(&mut self) -> f64 {
        match self.episode.next_arrival() {
            Some((i, now)) => {
                self.why = self.episode.offers(self.slots, &mut self.offers);
                let MachineJob { job, request } = &self.episode.jobs()[i as usize];
                let machine = self.episode.machine();
                let total = machine.total();
                let nodes = f64::from(request.nodes);
                let share = |asked: f64, total: f64| if total > 0.0 { nodes * asked / total } else { 0.0 };
                let mem_total = if total.mem_mib == u64::MAX { 0.0 } else { total.mem_mib as f64 };
                let free = self.episode.free(now);
                let resources = [
                    share(f64::from(request.cpu_milli), f64::from(total.cpus) * 1000.0),
                    share(request.mem_mib as f64, mem_total),
                    share(request.gpus.milli() as f64, f64::from(total.gpus) * f64::from(MILLI)),
                    free[0],
                    free[1],
                    free[2],
                ];
                let candidates = self
                    .offers
                    .iter()
                    .map(|o| Candidate { start: o.placement.start, end: o.end, pos: o.pos, overbooked: o.overbooked })
                    .collect();
                let money = self.episode.money();
                let realised = money - self.given;
                self.given = money;
                self.current = Some(Arrival {
                    now,
                    job: *job,
                    capacity: machine.len() as u32,
                    candidates,
                    resources: Some(resources),
                    realised,
                });
                realised
            }
            None => {
                let decisions = self.episode.finish();
                let summary = summary_of(&decisions);
                let realised = summary.gain - self.given;
                self.given = summary.gain;
                self.summary = Some(summary);
                self.current = None;
                realised
            }
        }
    }

    /// Decides the waiting arrival (`action` names an offer, or rejects),
    /// then runs on: the money realised until the next arrival or the end.
    fn decide(&mut self, action: Option<usize>) -> f64 {
        let answer = match (action.and_then(|k| self.offers.get(k)), self.why.take()) {
            (Some(offer), _) => Ok(offer),
            (None, Some(why)) => Err(why),
            (None, None) => Err((RejectReason::Scheduler, None)),
        };
        self.episode.decide(answer);
        self.current = None;
        self.advance()
    }
}

/// A machine episode's summary from its decisions.
fn summary_of(decisions: &[Decision]) -> RunSummary {
    let mut s = RunSummary { jobs: decisions.len() as u32, ..RunSummary::default() };
    for d in decisions {
        match d.outcome {
            Outcome::Rejected => s.rejected += 1,
            Outcome::Success => s.successful += 1,
            Outcome::Failed => s.failed += 1,
        }
        if d.money >= 0.0 {
            s.fees += d.money;
        } else {
            s.penalties -= d.money;
        }
        s.overbooked += u32::from(d.allotment.is_some());
    }
    s.accepted = s.jobs - s.rejected;
    s.gain = s.fees - s.penalties;
    s
}
