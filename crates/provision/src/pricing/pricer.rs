//! The pricer: the additive price f of slots on one snapshot (Fig. 22), the
//! schedule without a slot computed once (A23) and re-planned only from the
//! first decision a slot may change; and a slot's full [`Externality`] under
//! both policies ([`PolicyAudit`]).
//!
//! Contract: [`Pricer::schedule_with`] gives the starts of
//! [`schedule`](crate::pricing::schedule), start for start; a
//! slot that conflicts with running jobs or reservations has no price
//! (`None`).

use crate::pricing::replan::{CHECKPOINT, Easy, EasyLog, admissible_on, easy_run, occupied, place};
use crate::pricing::{Policy, SlotRequest, Snapshot};
use slasim_core::units::Time;
use slasim_single::plan::profile::AvailabilityProfile;

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
/// decision that may change; the profile is kept every `CHECKPOINT` jobs.
/// Once a job has moved, a later job's search starts at its start without
/// the slot, or where its window could first reach capacity a moved job
/// left: before that, no start fits that did not fit without the slot.
///
/// Under EASY it is the first instant that starts, or makes the head, a job
/// whose window meets `short`, where the slot does not fit in the final
/// schedule without it (the profile holds at least that schedule plus the
/// job on its window); the state is kept every `CHECKPOINT` instants.
///
/// The result is [`schedule`](crate::pricing::schedule)'s, start for start.
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

    /// The start of every queued job with `slot` reserved ([`schedule`](crate::pricing::schedule));
    /// `None` if it does not fit.
    pub fn schedule_with(&mut self, slot: SlotRequest) -> Option<&[Time]> {
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
    pub fn externality(&mut self, slot: SlotRequest) -> Option<Externality> {
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
    pub fn price(&mut self, slot: SlotRequest) -> Option<f64> {
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
pub fn audit(snapshot: &Snapshot, slot: SlotRequest) -> Option<PolicyAudit> {
    let under = |policy| Pricer::new(snapshot, policy).externality(slot);
    Some(PolicyAudit {
        conservative: under(Policy::Conservative)?,
        easy: under(Policy::Easy)?,
        queued: snapshot.queue.len() as u32,
        queued_procs: snapshot.queue.iter().map(|&(p, _)| u64::from(p)).sum(),
    })
}
