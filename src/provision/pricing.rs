//! Adaptive pricing: what a slot costs in delay to the queued best-effort
//! jobs, the three query models, and the user's start-time choice.
//!
//! Reference: `provisioning-dissertation-spec.md` §4.1 (any slot that does not
//! conflict with running jobs or reservations may be reserved; queued jobs are
//! ignored for admission), §4.2 (Fig. 22: the price's additive part f = Σ over
//! queued jobs of delay × processors, from two schedules of the queue, with and
//! without the slot), §4.3 (eq. 17–19 and the candidate start times), §4.4
//! (eq. 20), §11 A7 (a profile-based scheduler for pricing), A18 (schedules
//! rebuilt from scratch in arrival order), A19 (EASY projected forward), A21
//! and A23 (degenerate normalisations; the no-slot schedule computed once).
//!
//! Contract: everything here is a pure function of a [`Snapshot`] (running
//! jobs to their planned ends, reservations, the queue in arrival order); a
//! query never changes a site. Times are seconds, f is in processor-seconds,
//! c per processor-second. An infeasible slot has no price (`None`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::plan::profile::AvailabilityProfile;
use crate::setting::InvalidSetting;
use crate::units::Time;

/// The state a price is computed on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// The instant.
    pub now: Time,
    /// Processors.
    pub capacity: u32,
    /// Running jobs: (processors, planned end).
    pub running: Vec<(u32, Time)>,
    /// Reservations: (start, end, processors).
    pub reservations: Vec<(Time, Time, u32)>,
    /// Queued best-effort jobs in arrival order: (processors, estimate).
    pub queue: Vec<(u32, Time)>,
}

/// How the queue is scheduled when pricing (the pricing policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Conservative backfilling: every queued job at its earliest start, in arrival order.
    #[default]
    Conservative,
    /// EASY (aggressive) backfilling, projected forward with estimates as runtimes.
    Easy,
}

impl Policy {
    /// Both, with one line each.
    pub const ALL: [(Policy, &'static str); 2] = [
        (Policy::Conservative, "the queue replanned by conservative backfilling, every job at its earliest start"),
        (Policy::Easy, "the queue replanned by EASY backfilling, projected forward with estimates as run times"),
    ];

    /// Its name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Conservative => "conservative",
            Policy::Easy => "easy",
        }
    }
}

/// A slot asked about: `procs` processors for `duration` from `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Start.
    pub start: Time,
    /// Processors.
    pub procs: u32,
    /// Duration.
    pub duration: Time,
}

/// The occupied profile of running jobs and reservations (what admission looks at).
///
/// Everything in the snapshot is reserved even where it holds more than the
/// machine (a snapshot is taken as the site has it, not re-admitted): the
/// profile is then overcommitted there, and admission and both policies read
/// such a window as having nothing free.
fn occupied(snapshot: &Snapshot) -> AvailabilityProfile {
    let mut profile = AvailabilityProfile::new(snapshot.capacity);
    for &(procs, end) in &snapshot.running {
        if end > snapshot.now {
            profile.reserve(snapshot.now, end, procs);
        }
    }
    for &(start, end, procs) in &snapshot.reservations {
        if end > snapshot.now {
            profile.reserve(start.max(snapshot.now), end, procs);
        }
    }
    profile
}

/// True if `slot` fits beside running jobs and reservations (§4.1).
pub fn admissible(snapshot: &Snapshot, slot: Slot) -> bool {
    admissible_on(&occupied(snapshot), snapshot, slot)
}

/// [`admissible`], given the snapshot's occupied profile.
fn admissible_on(occupied: &AvailabilityProfile, snapshot: &Snapshot, slot: Slot) -> bool {
    slot.procs > 0
        && slot.duration > 0
        && slot.start >= snapshot.now
        && slot.procs <= snapshot.capacity
        && occupied.min_free(slot.start, slot.start + slot.duration) >= slot.procs
}

/// The start of every queued job under `policy`, with `extra` reserved too.
/// `None` if `extra` does not fit.
pub fn schedule(snapshot: &Snapshot, policy: Policy, extra: Option<Slot>) -> Option<Vec<Time>> {
    let mut profile = occupied(snapshot);
    if let Some(s) = extra {
        if !admissible_on(&profile, snapshot, s) {
            return None;
        }
        profile.reserve(s.start, s.start + s.duration, s.procs);
    }
    Some(match policy {
        Policy::Conservative => conservative(&mut profile, snapshot),
        Policy::Easy => easy(&mut profile, snapshot),
    })
}

fn conservative(profile: &mut AvailabilityProfile, snapshot: &Snapshot) -> Vec<Time> {
    snapshot.queue.iter().map(|&job| place(profile, snapshot.now, job)).collect()
}

/// Conservative backfilling of one queued job (processors, estimate): its
/// earliest start, reserved. A job wider than the machine never starts
/// (`Time::MAX`): it delays nobody.
fn place(profile: &mut AvailabilityProfile, now: Time, (procs, estimate): (u32, Time)) -> Time {
    profile.reserve_earliest(now, estimate.max(1), procs, Time::MAX).unwrap_or(Time::MAX)
}

/// EASY forward (A19): at each instant the head starts if it fits; otherwise it
/// gets the earliest start that fits and later jobs start now only if they
/// leave that start alone. Instants are now and every end that follows.
fn easy(profile: &mut AvailabilityProfile, snapshot: &Snapshot) -> Vec<Time> {
    let mut starts = vec![Time::MAX; snapshot.queue.len()];
    easy_run(profile, snapshot, &mut Easy::new(snapshot), &mut starts, None);
    starts
}

/// EASY forward between two instants: the instant, the queued jobs not yet
/// started (arrival order) and the instants to come (ends and head starts;
/// some repeat or lie in the past, and are skipped).
#[derive(Debug, Clone, Default)]
struct Easy {
    t: Time,
    waiting: Vec<usize>,
    events: BinaryHeap<Reverse<Time>>,
}

impl Easy {
    fn new(snapshot: &Snapshot) -> Easy {
        let mut events = BinaryHeap::new();
        for &(_, end) in &snapshot.running {
            events.push(Reverse(end));
        }
        for &(start, end, _) in &snapshot.reservations {
            events.push(Reverse(start));
            events.push(Reverse(end));
        }
        let waiting = (0..snapshot.queue.len()).filter(|&i| snapshot.queue[i].0 <= snapshot.capacity).collect();
        Easy { t: snapshot.now, waiting, events }
    }
}

/// What the schedule without a slot keeps to re-plan from: the state before
/// every [`CHECKPOINT`]th instant with its profile, and for each queued job
/// the first instant whose decisions read its window (it starts then, or is
/// the head given the earliest start).
#[derive(Debug, Clone, Default)]
struct EasyLog {
    checkpoints: Vec<(Easy, AvailabilityProfile)>,
    first_read: Vec<usize>,
}

/// Runs EASY forward from `state` until no job waits, writing starts; with a
/// `log`, records it.
fn easy_run(
    profile: &mut AvailabilityProfile,
    snapshot: &Snapshot,
    state: &mut Easy,
    starts: &mut [Time],
    mut log: Option<&mut EasyLog>,
) {
    let Easy { t, waiting, events } = state;
    // Where the snapshot is overcommitted nothing is free: no job starts there.
    let fits =
        |profile: &AvailabilityProfile, t: Time, estimate: Time, procs: u32| profile.fits(t, t + estimate, procs);
    let mut instant = 0;
    while !waiting.is_empty() {
        // Every window tested from here on starts at t or later.
        profile.forget_before(*t);
        if let Some(log) = log.as_deref_mut() {
            if instant % CHECKPOINT == 0 {
                log.checkpoints
                    .push((Easy { t: *t, waiting: waiting.clone(), events: events.clone() }, profile.clone()));
            }
        }
        let mut read = |job: usize| {
            if let Some(log) = log.as_deref_mut() {
                log.first_read[job] = log.first_read[job].min(instant);
            }
        };
        // Start the head while it fits now.
        let mut started = 0;
        for &head in waiting.iter() {
            let (procs, estimate) = snapshot.queue[head];
            let estimate = estimate.max(1);
            if fits(profile, *t, estimate, procs) {
                profile.reserve(*t, *t + estimate, procs);
                starts[head] = *t;
                events.push(Reverse(*t + estimate));
                read(head);
                started += 1;
            } else {
                break;
            }
        }
        waiting.drain(..started);
        let Some(&head) = waiting.first() else { break };
        let (procs, estimate) = snapshot.queue[head];
        let estimate = estimate.max(1);
        let Some(shadow) = profile.earliest_fit(*t, estimate, procs, Time::MAX) else { break };
        read(head);
        // Backfill beside the head's reservation.
        profile.reserve(shadow, shadow + estimate, procs);
        let mut kept = 1;
        for i in 1..waiting.len() {
            let job = waiting[i];
            let (p, e) = snapshot.queue[job];
            let e = e.max(1);
            if fits(profile, *t, e, p) {
                profile.reserve(*t, *t + e, p);
                starts[job] = *t;
                events.push(Reverse(*t + e));
                read(job);
            } else {
                waiting[kept] = job;
                kept += 1;
            }
        }
        waiting.truncate(kept);
        profile.release(shadow, shadow + estimate, procs);
        // Next instant where capacity may free up (the shadow is one: the head fits there).
        events.push(Reverse(shadow));
        let mut next = None;
        while let Some(Reverse(e)) = events.pop() {
            if e > *t {
                next = Some(e);
                break;
            }
        }
        match next {
            Some(e) => *t = e,
            None => break,
        }
        instant += 1;
    }
}

/// What a slot does to the queue under one policy, in processor-seconds:
/// `delayed` is Σ (start with − start without)⁺ × processors, the price f of
/// Fig. 22; `advanced` is Σ (start without − start with)⁺ × processors, the
/// jobs the slot lets start earlier (backfilling reshuffles), which f does not
/// credit. Jobs that never start in either schedule count in neither.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Externality {
    /// Delay caused (= f).
    pub delayed: f64,
    /// Advance caused, not credited by f.
    pub advanced: f64,
}

/// Each queued job's start shift (with − without the slot) and processors;
/// jobs that never start in either schedule shift by 0.
fn shifts<'a>(snapshot: &'a Snapshot, base: &'a [Time], with: &'a [Time]) -> impl Iterator<Item = (Time, f64)> + 'a {
    snapshot.queue.iter().zip(base.iter().zip(with)).map(|(&(procs, _), (&before, &after))| {
        let shift = if after == Time::MAX || before == Time::MAX { 0 } else { after - before };
        (shift, f64::from(procs))
    })
}

/// What each queued job leaves free on its window in the schedule without a
/// slot (conservative), right after its placement: job `k`'s window with the
/// least it leaves free there, and its pieces `pieces[at[k]..at[k + 1]]`,
/// each an instant and the free capacity from it to the next (the last to
/// the window's end).
#[derive(Debug, Clone)]
struct Slack {
    windows: Vec<Window>,
    pieces: Vec<(Time, i64)>,
    at: Vec<usize>,
}

/// A queued job's window `[start, end)` without the slot and the least free
/// capacity it leaves there (an empty window at `Time::MAX` for a job that
/// never starts).
#[derive(Debug, Clone, Copy)]
struct Window {
    start: Time,
    end: Time,
    least: i64,
}

impl Slack {
    /// Adds the next job's window and its pieces.
    fn push(&mut self, start: Time, end: Time, pieces: impl Iterator<Item = (Time, i64)>) {
        let before = self.pieces.len();
        self.pieces.extend(pieces);
        self.at.push(self.pieces.len());
        let least = self.pieces[before..].iter().map(|&(_, free)| free).min().unwrap_or(i64::MAX);
        self.windows.push(Window { start, end, least });
    }

    /// Whether a slot of `procs` over `[a, b)` takes more than job `k` left
    /// free somewhere on its window.
    fn short(&self, k: usize, a: Time, b: Time, procs: u32) -> bool {
        let procs = i64::from(procs);
        let Window { start, end, least } = self.windows[k];
        if end <= a || start >= b || least >= procs {
            return false;
        }
        let pieces = &self.pieces[self.at[k]..self.at[k + 1]];
        pieces.iter().enumerate().any(|(i, &(from, free))| {
            let until = pieces.get(i + 1).map_or(end, |&(t, _)| t);
            free < procs && from < b && until > a
        })
    }
}

/// Jobs (conservative) or instants (EASY) between two kept states of the
/// schedule without the slot.
const CHECKPOINT: usize = 8;

/// The prices of slots on one snapshot under one policy (Fig. 22): the
/// schedule without a slot is computed once (A23), and so is the occupied
/// profile. A slot that moves no job costs nothing; otherwise the schedule is
/// re-planned from the kept state nearest before the first decision that
/// may change.
///
/// Under conservative backfilling, as long as nothing has moved, the profile
/// before a queued job is the one without the slot minus the slot: no
/// earlier start fits, and the job keeps its start unless the slot takes
/// more than its window, right after its placement without the slot, has
/// free where the two meet. The first such job's placement is the first
/// decision that may change; the profile is kept every [`CHECKPOINT`] jobs.
/// Once a job has moved, a later job's search starts at its start without
/// the slot, or where its window could first reach capacity a moved job
/// left: before that, no start fits that did not fit without the slot.
///
/// Under EASY it is the first instant that starts, or makes the head, a job
/// whose window meets `short`, where the slot does not fit in the final
/// schedule without it (the profile holds at least that schedule plus the
/// job on its window); the state is kept every [`CHECKPOINT`] instants.
///
/// The result is [`schedule`]'s, start for start.
pub struct Pricer<'s> {
    snapshot: &'s Snapshot,
    policy: Policy,
    occupied: AvailabilityProfile,
    base: Vec<Time>,
    /// Conservative: the profile before jobs `k × CHECKPOINT`, k = 0, 1, …
    checkpoints: Vec<AvailabilityProfile>,
    /// EASY: the states the schedule without the slot passed through.
    log: EasyLog,
    /// Conservative: what each queued job leaves free on its window.
    slack: Slack,
    /// EASY: the profile after every job without the slot.
    planned: AvailabilityProfile,
    /// EASY: where the slot priced last does not fit in `planned`: disjoint windows.
    short: Vec<(Time, Time)>,
    profile: AvailabilityProfile,
    state: Easy,
    with: Vec<Time>,
}

impl<'s> Pricer<'s> {
    /// The schedule of `snapshot`'s queue without a slot, ready to price slots.
    pub fn new(snapshot: &'s Snapshot, policy: Policy) -> Pricer<'s> {
        let occupied = occupied(snapshot);
        let mut profile = occupied.clone();
        let mut checkpoints = Vec::new();
        let mut log = EasyLog::default();
        let mut slack = Slack { windows: Vec::new(), pieces: Vec::new(), at: vec![0] };
        let base = match policy {
            Policy::Conservative => {
                let mut base = Vec::with_capacity(snapshot.queue.len());
                for (k, &(procs, estimate)) in snapshot.queue.iter().enumerate() {
                    if k % CHECKPOINT == 0 {
                        checkpoints.push(profile.clone());
                    }
                    let s = place(&mut profile, snapshot.now, (procs, estimate));
                    let end = s.saturating_add(estimate.max(1));
                    slack.push(s, end, profile.pieces(s, end));
                    base.push(s);
                }
                base
            }
            Policy::Easy => {
                let mut base = vec![Time::MAX; snapshot.queue.len()];
                log.first_read = vec![usize::MAX; snapshot.queue.len()];
                easy_run(&mut profile, snapshot, &mut Easy::new(snapshot), &mut base, Some(&mut log));
                // The run forgets the past as it goes: the whole schedule again.
                profile.clone_from(&occupied);
                for (&(procs, estimate), &start) in snapshot.queue.iter().zip(&base) {
                    if start != Time::MAX {
                        profile.reserve(start, start + estimate.max(1), procs);
                    }
                }
                base
            }
        };
        Pricer {
            snapshot,
            policy,
            occupied,
            base,
            checkpoints,
            log,
            slack,
            planned: profile.clone(),
            short: Vec::new(),
            profile,
            state: Easy::default(),
            with: Vec::new(),
        }
    }

    /// The start of every queued job without a slot.
    pub fn base(&self) -> &[Time] {
        &self.base
    }

    /// The start of every queued job with `slot` reserved ([`schedule`]);
    /// `None` if it does not fit.
    pub fn schedule_with(&mut self, slot: Slot) -> Option<&[Time]> {
        if !admissible_on(&self.occupied, self.snapshot, slot) {
            return None;
        }
        let (a, b) = (slot.start, slot.start + slot.duration);
        let queue = &self.snapshot.queue;
        let now = self.snapshot.now;
        self.with.clear();
        match self.policy {
            Policy::Easy => {
                // Until a job's window is read, the profile is the one without
                // the slot at that point minus the slot, which holds at least
                // `planned` plus the job itself on its window: EASY decides as
                // without the slot where it reads only windows that stay out
                // of where the slot does not fit in `planned`.
                self.short.clear();
                let mut t = a;
                for gap in self.planned.gaps(a, b, slot.procs) {
                    if gap.start > t {
                        self.short.push((t, gap.start));
                    }
                    t = t.max(gap.end);
                }
                if t < b {
                    self.short.push((t, b));
                }
                let (base, short, log) = (&self.base, &self.short, &self.log);
                let meets = |k: usize| {
                    let (s, e) = (base[k], base[k].saturating_add(queue[k].1.max(1)));
                    base[k] != Time::MAX && short.iter().any(|&(x, y)| s < y && e > x)
                };
                let Some(first) = (0..queue.len()).filter(|&k| meets(k)).map(|k| log.first_read[k]).min() else {
                    self.with.extend_from_slice(base);
                    return Some(&self.with);
                };
                let (state, profile) = &log.checkpoints[first / CHECKPOINT];
                self.profile.clone_from(profile);
                self.profile.reserve(a, b, slot.procs);
                self.state.clone_from(state);
                self.with.extend_from_slice(base);
                for &job in &state.waiting {
                    self.with[job] = Time::MAX;
                }
                easy_run(&mut self.profile, self.snapshot, &mut self.state, &mut self.with, None);
            }
            Policy::Conservative => {
                // Until a job has moved, the profile before a job is the one
                // without the slot minus the slot: the job keeps its start
                // unless the slot takes more than it left free on its window.
                let (base, slack) = (&self.base, &self.slack);
                let Some(first) = (0..queue.len()).find(|&k| slack.short(k, a, b, slot.procs)) else {
                    self.with.extend_from_slice(base);
                    return Some(&self.with);
                };
                let from = first / CHECKPOINT * CHECKPOINT;
                self.profile.clone_from(&self.checkpoints[first / CHECKPOINT]);
                self.profile.reserve(a, b, slot.procs);
                for k in from..first {
                    if base[k] != Time::MAX {
                        self.profile.reserve(base[k], base[k] + queue[k].1.max(1), queue[k].0);
                    }
                }
                self.with.extend_from_slice(&base[..first]);
                // The earliest start without the slot of a job that moved: from
                // there on the profile may hold capacity the base did not. The
                // first job does not fit at its start and nothing earlier fits,
                // so it moves, and every job from it on is searched.
                let mut freed = Time::MAX;
                for (k, &(procs, estimate)) in queue.iter().enumerate().skip(first) {
                    let s = base[k];
                    let estimate = estimate.max(1);
                    let start = if s == Time::MAX {
                        s
                    } else {
                        // No start before s fits unless its window reaches
                        // capacity a moved job freed: elsewhere this profile
                        // holds no more than the base's, where s was the earliest.
                        let from = s.min(freed.saturating_sub(estimate - 1)).max(now);
                        place(&mut self.profile, from, (procs, estimate))
                    };
                    if start != s {
                        freed = freed.min(s);
                    }
                    self.with.push(start);
                }
            }
        }
        Some(&self.with)
    }

    /// The [`Externality`] of `slot`; `None`: the slot conflicts with running
    /// jobs or reservations.
    pub fn externality(&mut self, slot: Slot) -> Option<Externality> {
        self.schedule_with(slot)?;
        let mut e = Externality::default();
        for (shift, procs) in shifts(self.snapshot, &self.base, &self.with) {
            e.delayed += shift.max(0) as f64 * procs;
            e.advanced += (-shift).max(0) as f64 * procs;
        }
        Some(e)
    }

    /// Fig. 22: the additive price f of `slot` (processor-seconds): the delay
    /// part of its [`Externality`], summed alone (this runs for every
    /// candidate start of every query).
    pub fn price(&mut self, slot: Slot) -> Option<f64> {
        self.schedule_with(slot)?;
        Some(shifts(self.snapshot, &self.base, &self.with).map(|(shift, procs)| shift.max(0) as f64 * procs).sum())
    }
}

/// One slot priced under both policies on the same snapshot: a measurement
/// (why do EASY and conservative prices differ?), not part of any price.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PolicyAudit {
    /// Under conservative backfilling.
    pub conservative: Externality,
    /// Under EASY projected forward (A19).
    pub easy: Externality,
    /// Queued jobs in the snapshot.
    pub queued: u32,
    /// Their processors, summed.
    pub queued_procs: u64,
}

/// Prices `slot` under both policies on `snapshot`; `None` if it does not fit.
pub fn audit(snapshot: &Snapshot, slot: Slot) -> Option<PolicyAudit> {
    let under = |policy| Pricer::new(snapshot, policy).externality(slot);
    Some(PolicyAudit {
        conservative: under(Policy::Conservative)?,
        easy: under(Policy::Easy)?,
        queued: snapshot.queue.len() as u32,
        queued_procs: snapshot.queue.iter().map(|&(p, _)| u64::from(p)).sum(),
    })
}

/// One answer of a query: a start, the per-unit charge c and the additive charge f.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offer {
    /// Start.
    pub start: Time,
    /// Per processor-second.
    pub c: f64,
    /// Additive charge, processor-seconds.
    pub f: f64,
}

/// The candidate starts of §4.3: now and every instant where availability
/// changes in the schedule of running jobs, reservations and the queue (a
/// job or slot starting or ending), at or after `from`.
pub fn candidates(snapshot: &Snapshot, base: &[Time], from: Time) -> Vec<Time> {
    let mut times = vec![snapshot.now];
    times.extend(snapshot.running.iter().map(|&(_, end)| end));
    times.extend(snapshot.reservations.iter().flat_map(|&(s, e, _)| [s, e]));
    for (&(_, estimate), &start) in snapshot.queue.iter().zip(base) {
        if start != Time::MAX {
            times.extend([start, start + estimate.max(1)]);
        }
    }
    times.retain(|&t| t >= from && t >= snapshot.now);
    times.sort_unstable();
    times.dedup();
    times
}

/// Eq. 18 (flexible start): every feasible candidate with its price.
pub fn query_flexible(snapshot: &Snapshot, policy: Policy, c: f64, procs: u32, duration: Time) -> Vec<Offer> {
    query_earliest(snapshot, policy, c, snapshot.now, procs, duration)
}

/// Eq. 19 (earliest start `from`): the feasible candidates at or after `from`,
/// with `from` itself among them when the slot fits there.
pub fn query_earliest(
    snapshot: &Snapshot,
    policy: Policy,
    c: f64,
    from: Time,
    procs: u32,
    duration: Time,
) -> Vec<Offer> {
    let mut pricer = Pricer::new(snapshot, policy);
    let mut times = candidates(snapshot, pricer.base(), from);
    if from >= snapshot.now && !times.contains(&from) {
        times.insert(0, from);
    }
    times
        .into_iter()
        .filter_map(|start| {
            let slot = Slot { start, procs, duration };
            pricer.price(slot).map(|f| Offer { start, c, f })
        })
        .collect()
}

/// Eq. 19 with a start deadline (the latest start a user accepts, as the
/// start deadlines of Ch. 6): the offers of [`query_earliest`] that start by
/// `deadline`. A deadline before the earliest start is refused, naming it.
#[allow(clippy::too_many_arguments)]
pub fn query_window(
    snapshot: &Snapshot,
    policy: Policy,
    c: f64,
    from: Time,
    deadline: Time,
    procs: u32,
    duration: Time,
) -> Result<Vec<Offer>, InvalidSetting> {
    if deadline < from {
        return Err(InvalidSetting::new("deadline", deadline, "must not be before the earliest start"));
    }
    let mut offers = query_earliest(snapshot, policy, c, from, procs, duration);
    offers.retain(|o| o.start <= deadline);
    Ok(offers)
}

/// Eq. 17 (fixed start): the price of one slot, `None` if it is not available.
pub fn query_fixed(snapshot: &Snapshot, policy: Policy, c: f64, slot: Slot) -> Option<Offer> {
    Pricer::new(snapshot, policy).price(slot).map(|f| Offer { start: slot.start, c, f })
}

/// Eq. 20: the offer minimising α·(f − f_min)/(f_max − f_min) + (1 − α)·(s −
/// s_min)/(s_max − s_min); a term is 0 when its range is empty (A21); ties go
/// to the earliest start. `None` for no offers.
pub fn choose(offers: &[Offer], alpha: f64) -> Result<Option<usize>, InvalidSetting> {
    crate::setting::probability("alpha", alpha)?;
    let range = |v: &mut dyn Iterator<Item = f64>| {
        v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let (f_min, f_max) = range(&mut offers.iter().map(|o| o.f));
    let (s_min, s_max) = range(&mut offers.iter().map(|o| o.start as f64));
    let norm = |x: f64, lo: f64, hi: f64| if hi > lo { (x - lo) / (hi - lo) } else { 0.0 };
    let score = |o: &Offer| alpha * norm(o.f, f_min, f_max) + (1.0 - alpha) * norm(o.start as f64, s_min, s_max);
    Ok(offers
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)).then(a.start.cmp(&b.start)))
        .map(|(i, _)| i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::HOUR;
    use proptest::strategy::Strategy as _;

    const H: Time = HOUR;

    /// Fig. 1 with nothing running: A(2 × 3 h), B(4 × 1 h), C(1 × 2 h), D(3 × 2 h) queued at 0 on 5 processors.
    fn figure_1() -> Snapshot {
        Snapshot {
            now: 0,
            capacity: 5,
            running: Vec::new(),
            reservations: Vec::new(),
            queue: vec![(2, 3 * H), (4, H), (1, 2 * H), (3, 2 * H)],
        }
    }

    #[test]
    fn conservative_schedule_of_figure_1() {
        // A at 0, B when 4 are free (A ends at 3), C beside A at 0, D at 4 (B ends).
        assert_eq!(schedule(&figure_1(), Policy::Conservative, None), Some(vec![0, 3 * H, 0, 4 * H]));
    }

    /// §13 item 4, worked by hand (proc-hours):
    /// - 3 × 2 h at 0: A fits beside it (2 of 2 left), B still at 3; C (1 proc)
    ///   finds nothing free in [0, 2) and moves to 2: f = 2 × 1 = 2; D stays at 4.
    /// - at 2: A at 0; B needs 4 over [3, 4) but the slot holds 3 until 4 ⇒ B at 4
    ///   (+1 h × 4); C at 0; D needs 3 over 2 h: [5, 7) ⇒ +1 h × 3 ⇒ f = 7.
    /// - at 3: B moves to 5 (+2 × 4 = 8); D to 6 (+2 × 3 = 6) ⇒ 14.
    /// - at 4: D cannot start at 4 any more: it moves to 6 (+2 × 3) ⇒ 6.
    /// - at 6: nothing is delayed ⇒ 0.
    #[test]
    fn prices_on_figure_1_match_the_hand_worked_values() {
        let snap = figure_1();
        let f = |start, procs, hours| {
            Pricer::new(&snap, Policy::Conservative)
                .price(Slot { start: start * H, procs, duration: hours * H })
                .unwrap()
                / H as f64
        };
        let three_by_two: Vec<f64> = [0, 2, 3, 4, 6].iter().map(|&s| f(s, 3, 2)).collect();
        assert_eq!(three_by_two, vec![2.0, 7.0, 14.0, 6.0, 0.0]);
        let two_by_three: Vec<f64> = [0, 1, 2, 3, 4].iter().map(|&s| f(s, 2, 3)).collect();
        assert_eq!(two_by_three, vec![0.0, 7.0, 8.0, 12.0, 0.0]);
        // The candidates of a flexible query: now and every start and end of the schedule.
        let offers = query_flexible(&snap, Policy::Conservative, 1.0, 3, 2 * H);
        let got: Vec<(Time, f64)> = offers.iter().map(|o| (o.start / H, o.f / H as f64)).collect();
        assert_eq!(got, vec![(0, 2.0), (2, 7.0), (3, 14.0), (4, 6.0), (6, 0.0)]);
    }

    /// Table 3 (§4.3): slot X = 2 procs × 3 h on 5 processors, A and B running,
    /// R reserved, C and D (2 procs each) queued; t0 = now is infeasible and the
    /// feasible candidates t1 … t6 cost 6, 8, 10, 0, 0, 0 (proc-hours).
    /// Fig. 21's geometry is not in the spec's extraction, so this one was found
    /// by an exhaustive search over integer geometries of that shape (A, B end
    /// in ≤ 8 h, R in [0, 16), C and D ≤ 8 h, either queue order): every one
    /// that gives Table 3's prices under conservative backfilling in arrival
    /// order puts the whole delay on one job; none splits it as the spec's
    /// reconstructed columns do (C +1, D +2/+3/+4). We pin the prices.
    /// A = 1 proc until 2, B = 3 until 1, R = 1 proc over [3, 5); C = 2 × 5 h,
    /// D = 2 × 3 h. Free without the queue: 1 on [0, 1), 4 on [1, 2), 5 on
    /// [2, 3), 4 on [3, 5), 5 after. Base: C [1, 6), D [1, 4). Candidates 0–6.
    /// - X at 0: 1 free over [0, 1) ⇒ infeasible.
    /// - X at 1 ([1, 4)): C still at 1; D finds 0 free at 1, 1 at 2–3 ⇒ D at 4: +3 h × 2 = 6.
    /// - X at 2 ([2, 5)): C at 1; D at 1 would meet X with 1 free ⇒ D at 5: +4 × 2 = 8.
    /// - X at 3 ([3, 6)): C at 1; D at 1 overlaps [3, 4) where 4 − 2 − 2 = 0 ⇒ D at 6: +5 × 2 = 10.
    /// - X at 4, 5, 6: beside C and D on the 4–5 free processors ⇒ 0.
    #[test]
    fn table_3_prices() {
        let snap = Snapshot {
            now: 0,
            capacity: 5,
            running: vec![(1, 2 * H), (3, H)],
            reservations: vec![(3 * H, 5 * H, 1)],
            queue: vec![(2, 5 * H), (2, 3 * H)],
        };
        let base = schedule(&snap, Policy::Conservative, None).unwrap();
        assert_eq!(base, vec![H, H]);
        assert!(!admissible(&snap, Slot { start: 0, procs: 2, duration: 3 * H }));
        let offers = query_flexible(&snap, Policy::Conservative, 1.0, 2, 3 * H);
        let got: Vec<(Time, f64)> = offers.iter().map(|o| (o.start / H, o.f / H as f64)).collect();
        assert_eq!(got, vec![(1, 6.0), (2, 8.0), (3, 10.0), (4, 0.0), (5, 0.0), (6, 0.0)]);
        // "An earlier start time does not always mean a larger cost": t3 > t2 > t1.
        // Eq. 20: α = 0 takes t1, α = 1 the earliest free one (t4).
        assert_eq!(choose(&offers, 0.0).unwrap().map(|i| offers[i].start), Some(H));
        assert_eq!(choose(&offers, 1.0).unwrap().map(|i| offers[i].start), Some(4 * H));
    }

    /// §13 item 5: on {(0, 2), (2, 7), (3, 14), (4, 6), (6, 0)} α = 0 picks 0,
    /// α = 1 picks 6, α = 0.5 scores 0.071, 0.417, 0.75, 0.548, 0.5 ⇒ 0.
    #[test]
    fn eq_20_choices() {
        let offers: Vec<Offer> = [(0, 2.0), (2, 7.0), (3, 14.0), (4, 6.0), (6, 0.0)]
            .iter()
            .map(|&(s, f)| Offer { start: s, c: 1.0, f })
            .collect();
        assert_eq!(choose(&offers, 0.0).unwrap(), Some(0));
        assert_eq!(choose(&offers, 1.0).unwrap(), Some(4));
        assert_eq!(choose(&offers, 0.5).unwrap(), Some(0));
        assert!(choose(&offers, 1.5).unwrap_err().to_string().contains("alpha"));
        assert_eq!(choose(&[], 0.5).unwrap(), None);
    }

    /// A start deadline keeps the offers that start by it; one before the
    /// earliest start is an error naming the deadline.
    #[test]
    fn start_deadlines() {
        let snap = figure_1();
        let starts = |deadline| -> Vec<Time> {
            query_window(&snap, Policy::Conservative, 1.0, 2 * H, deadline, 3, 2 * H)
                .unwrap()
                .iter()
                .map(|o| o.start / H)
                .collect()
        };
        assert_eq!(starts(10 * H), vec![2, 3, 4, 6]);
        assert_eq!(starts(3 * H), vec![2, 3]);
        let err = query_window(&snap, Policy::Conservative, 1.0, 2 * H, H, 3, 2 * H).unwrap_err();
        assert!(err.to_string().contains("deadline"), "{err}");
    }

    #[test]
    fn conflicts_with_running_jobs_or_reservations_have_no_price() {
        let snap = Snapshot { running: vec![(4, 2 * H)], reservations: vec![(3 * H, 5 * H, 3)], ..figure_1() };
        assert_eq!(Pricer::new(&snap, Policy::Conservative).price(Slot { start: H, procs: 2, duration: H }), None);
        assert_eq!(Pricer::new(&snap, Policy::Conservative).price(Slot { start: 4 * H, procs: 3, duration: H }), None);
        assert!(Pricer::new(&snap, Policy::Conservative).price(Slot { start: 5 * H, procs: 5, duration: H }).is_some());
    }

    /// Free: 1 processor over [0, 10), 3 over [10, 20), 4 after (running 2 until
    /// 10 and 1 until 20). J1 = 4 × 5, J2 = 3 × 5, J3 = 1 × 15.
    fn head_example() -> Snapshot {
        Snapshot {
            now: 0,
            capacity: 4,
            running: vec![(2, 10), (1, 20)],
            reservations: vec![],
            queue: vec![(4, 5), (3, 5), (1, 15)],
        }
    }

    /// Conservative: J1 at 20, J2 at 10 (3 free), J3 neither before J2 nor
    /// beside J1 ⇒ 25. EASY protects only the head: J3 backfills at 0 (it ends
    /// before J1's start at 20), which leaves J2 only 2 processors at 10 ⇒ J2 at 15.
    #[test]
    fn easy_protects_only_the_head() {
        let snap = head_example();
        assert_eq!(schedule(&snap, Policy::Conservative, None), Some(vec![20, 10, 25]));
        assert_eq!(schedule(&snap, Policy::Easy, None), Some(vec![20, 15, 0]));
    }

    /// Two processors, X (2 × 2 h) and Y (1 × 1 h) queued: X at 0, Y at 2.
    /// A slot of 1 processor for 0–1 h holds X until 1 (2 × 1 h of delay, f)
    /// and lets Y run beside the slot at 0 (1 × 2 h of advance, not credited).
    /// Both policies give this; the audit reports both on the same snapshot.
    #[test]
    fn externality_splits_delay_from_advance() {
        let snap =
            Snapshot { now: 0, capacity: 2, running: vec![], reservations: vec![], queue: vec![(2, 2 * H), (1, H)] };
        let slot = Slot { start: 0, procs: 1, duration: H };
        let expected = Externality { delayed: (2 * H) as f64, advanced: (2 * H) as f64 };
        for policy in [Policy::Conservative, Policy::Easy] {
            let base = schedule(&snap, policy, None).unwrap();
            assert_eq!(base, vec![0, 2 * H]);
            assert_eq!(schedule(&snap, policy, Some(slot)), Some(vec![H, 0]));
            assert_eq!(Pricer::new(&snap, policy).externality(slot), Some(expected));
            assert_eq!(Pricer::new(&snap, policy).price(slot), Some(expected.delayed));
        }
        let a = audit(&snap, slot).unwrap();
        assert_eq!((a.conservative, a.easy, a.queued, a.queued_procs), (expected, expected, 2, 3));
        // The audit differs where the policies do: J2 of the EASY example above.
        let snap = head_example();
        // One processor for 0–10 fills the machine until 10 under EASY: J3 cannot
        // backfill at 0; J2 takes the 3 free at 10–15 (5 earlier); at 15 J3
        // would run into J1's shadow (20–25), so it waits for J1's end: 25.
        // Delay 25 × 1, advance 5 × 3, and f charges only the 25.
        let slot = Slot { start: 0, procs: 1, duration: 10 };
        let a = audit(&snap, slot).unwrap();
        assert_eq!(schedule(&snap, Policy::Easy, Some(slot)), Some(vec![20, 10, 25]));
        assert_eq!(a.easy, Externality { delayed: 25.0, advanced: 15.0 });
        // Conservative: J1 at 20, J2 at 10, J3 at 25 with or without the slot.
        assert_eq!(schedule(&snap, Policy::Conservative, Some(slot)), Some(vec![20, 10, 25]));
        assert_eq!(a.conservative, Externality::default());
    }

    /// A snapshot can hold more running and reserved processors than the
    /// machine has (here 6 of 4 over [0, 50)): that window has nothing free.
    /// Admission refuses a slot meeting it; a 1-processor slot over [50, 60)
    /// pushes the job waiting for the 1 processor free from 50 to 60, in the
    /// pricer as in the full re-plan, under both policies.
    #[test]
    fn an_overcommitted_snapshot_has_nothing_free() {
        let snap = Snapshot {
            now: 0,
            capacity: 4,
            running: vec![(3, 100), (3, 50)],
            reservations: vec![],
            queue: vec![(1, 30)],
        };
        assert!(!admissible(&snap, Slot { start: 40, procs: 2, duration: 20 }));
        assert!(!admissible(&snap, Slot { start: 0, procs: 1, duration: 10 }));
        let slot = Slot { start: 50, procs: 1, duration: 10 };
        for policy in [Policy::Conservative, Policy::Easy] {
            assert_eq!(schedule(&snap, policy, None), Some(vec![50]), "{policy:?}");
            assert_eq!(schedule(&snap, policy, Some(slot)), Some(vec![60]), "{policy:?}");
            let mut pricer = Pricer::new(&snap, policy);
            assert_eq!(pricer.schedule_with(slot), Some(&[60][..]), "{policy:?}");
            assert_eq!(pricer.price(slot), Some(10.0), "{policy:?}");
        }
    }

    fn snapshot_strategy(max_queue: usize) -> impl proptest::strategy::Strategy<Value = Snapshot> {
        snapshots(max_queue, false)
    }

    /// Snapshots as a site makes them or, with `overcommit`, sometimes more
    /// running than the machine holds (a site keeps running work past its
    /// planned end).
    fn snapshots(max_queue: usize, overcommit: bool) -> impl proptest::strategy::Strategy<Value = Snapshot> {
        use proptest::prelude::*;
        (
            4u32..=16,
            prop::collection::vec((1u32..=4, 1i64..=20), 0..4),
            prop::collection::vec((0i64..=20, 1i64..=10, 1u32..=4), 0..3),
            prop::collection::vec((1u32..=16, 1i64..=20), 0..max_queue),
        )
            .prop_map(move |(capacity, running, reservations, queue)| {
                let mut snap = Snapshot { now: 0, capacity, ..Snapshot::default() };
                // Keep only what fits beside what is already there, as a site would.
                let mut profile = AvailabilityProfile::new(capacity);
                for (p, e) in running {
                    if overcommit || profile.min_free(0, e * 600) >= p {
                        profile.reserve(0, e * 600, p);
                        snap.running.push((p, e * 600));
                    }
                }
                for (s, d, p) in reservations {
                    let (s, e) = (s * 600, (s + d) * 600);
                    if overcommit || profile.min_free(s, e) >= p {
                        profile.reserve(s, e, p);
                        snap.reservations.push((s, e, p));
                    }
                }
                snap.queue = queue.into_iter().map(|(p, e)| (p.min(capacity), e * 600)).collect();
                snap
            })
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::cases(256))]

        /// f ≥ 0 wherever the slot is admissible; f = 0 for a slot starting at or
        /// after the latest end of the schedule without it (nobody can be delayed).
        #[test]
        fn prices_are_non_negative_and_zero_after_the_schedule(
            snap in snapshot_strategy(12),
            start in 0i64..=40,
            procs in 1u32..=16,
            hours in 1i64..=6,
            easy in proptest::bool::ANY,
        ) {
            let policy = if easy { Policy::Easy } else { Policy::Conservative };
            let base = schedule(&snap, policy, None).unwrap();
            let slot = Slot { start: start * 600, procs, duration: hours * 600 };
            if let Some(f) = Pricer::new(&snap, policy).price(slot) {
                proptest::prop_assert!(f >= 0.0);
            }
            let latest = snap.running.iter().map(|r| r.1)
                .chain(snap.reservations.iter().map(|r| r.1))
                .chain(snap.queue.iter().zip(&base).filter(|(_, s)| **s != Time::MAX).map(|(q, s)| s + q.1))
                .max().unwrap_or(0);
            let after = Slot { start: latest, procs: procs.min(snap.capacity), duration: hours * 600 };
            proptest::prop_assert_eq!(Pricer::new(&snap, policy).price(after), Some(0.0));
            // Every offer of a flexible query is admissible and priced like a fixed query.
            for o in query_flexible(&snap, policy, 1.0, procs.min(snap.capacity), hours * 600) {
                let fixed = query_fixed(&snap, policy, 1.0, Slot { start: o.start, procs: procs.min(snap.capacity), duration: hours * 600 });
                proptest::prop_assert_eq!(fixed, Some(o));
            }
        }

        /// The pricer's schedule with a slot is the full re-plan's ([`schedule`]),
        /// start for start, for any slot and any number of slots priced in turn
        /// (queues long enough to pass several kept profiles).
        #[test]
        fn the_pricer_replans_like_the_full_schedule(
            snap in proptest::bool::weighted(0.2).prop_flat_map(|overcommit| snapshots(40, overcommit)),
            slots in proptest::collection::vec((0i64..=60, 1u32..=16, 1i64..=8), 1..8),
            easy in proptest::bool::ANY,
        ) {
            let policy = if easy { Policy::Easy } else { Policy::Conservative };
            let mut pricer = Pricer::new(&snap, policy);
            proptest::prop_assert_eq!(Some(pricer.base().to_vec()), schedule(&snap, policy, None));
            for (start, procs, hours) in slots {
                let slot = Slot { start: start * 600, procs, duration: hours * 600 };
                let full = schedule(&snap, policy, Some(slot));
                proptest::prop_assert_eq!(pricer.schedule_with(slot).map(<[Time]>::to_vec), full);
            }
        }
    }
}
