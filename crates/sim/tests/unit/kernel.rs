use slasim_sim::kernel::*;
use slasim_sim::units::Time;
use std::future::Future;

const NEGOTIATION: Class = Class(0);
const JOB_END: Class = Class(1);
const NODE_REPAIR: Class = Class(2);
const NODE_FAILURE: Class = Class(3);
const JOB_START: Class = Class(4);
const OCCURRENCE: Class = Class(5);
const REQUEST: Class = Class(6);

/// Two models (0 and 1) that log deliveries and play scripted follow-ups.
#[derive(Default)]
struct Logger {
    seen: Vec<(Time, &'static str)>,
}

fn at(time: Time, class: Class, to: u32, msg: &'static str) -> Scheduled<&'static str> {
    Scheduled { time, class, to: To::Model(ModelId(to), Msg::new(msg)) }
}

impl Model for Logger {
    type Msg = &'static str;

    fn handle(&mut self, now: Time, msg: &'static str, mut outbox: Outbox<&'static str>) -> Outbox<&'static str> {
        self.seen.push((now, msg));
        match msg {
            "occurrence-a" => {
                // Same time, lower class: still after everything already due at
                // this time with a lower class, before later-sequence equals.
                outbox.push(Scheduled::me(now, JOB_START, "start-a"));
                outbox.push(Scheduled::me(now + 5, JOB_END, "end-a"));
                // A negotiation message jumps ahead of everything still due now.
                outbox.push(at(now, NEGOTIATION, 1, "ask-a"));
            }
            "ask-a" => outbox.push(at(now, NEGOTIATION, 0, "reply-a")),
            "bad" => outbox.push(Scheduled::me(now - 1, JOB_END, "past")),
            _ => {}
        }
        outbox
    }
}

struct Two {
    models: [Logger; 2],
    log: Vec<(Time, &'static str)>,
    agendas: [Agenda<&'static str>; 2],
    outbox: Outbox<&'static str>,
    /// The most events one batch handed back to the kernel.
    most_returned: usize,
}

impl Bench for Two {
    async fn deliver(&mut self, batch: Batch) -> Result<Handled, SimError> {
        let i = batch.to.0 as usize;
        let before = self.models[i].seen.len();
        let handled = process_batch(&mut self.models[i], batch, &mut self.agendas[i], &mut self.outbox);
        self.log.extend_from_slice(&self.models[i].seen[before..]);
        if let Ok(h) = &handled {
            self.most_returned = self.most_returned.max(h.events.len());
        }
        handled
    }
}

fn bench() -> Two {
    Two {
        models: Default::default(),
        log: Vec::new(),
        agendas: Default::default(),
        outbox: Vec::new(),
        most_returned: 0,
    }
}

#[test]
fn equal_times_follow_the_class_order_then_insertion() {
    let mut k = Kernel::new(100);
    for e in [
        at(10, OCCURRENCE, 0, "occurrence-a"),
        at(10, JOB_START, 0, "start-x"),
        at(10, NODE_FAILURE, 0, "failure"),
        at(10, NODE_REPAIR, 0, "repair"),
        at(10, JOB_END, 0, "end-x"),
        at(10, OCCURRENCE, 0, "occurrence-b"),
        at(10, REQUEST, 1, "request"),
        at(200, JOB_END, 0, "beyond-horizon"),
    ] {
        k.schedule(ModelId(0), e).unwrap();
    }
    let mut b = bench();
    let stats = block_on(k.run(&mut b)).unwrap();
    let order: Vec<&str> = b.log.iter().map(|s| s.1).collect();
    assert_eq!(
        order,
        vec![
            "end-x",
            "repair",
            "failure",
            "start-x",
            "occurrence-a",
            "ask-a",
            "reply-a",
            "start-a",
            "occurrence-b",
            "request",
            "end-a"
        ]
    );
    assert_eq!((stats.delivered, stats.last_time), (11, 15));
    // Model 0's first five events were one batch; the negotiation with
    // model 1 broke the run; "start-a" and "occurrence-b" were handled
    // in model 0's agenda after the reply.
    assert_eq!(stats.batches, 5);
}

#[test]
fn a_long_run_broken_at_every_event_is_queued_once() {
    // 300 events for model 0 in a row, each of which asks model 1: every
    // batch of model 0 stops after one event. What it did not handle stays
    // in its agenda; the kernel gets back only the ask.
    let mut k = Kernel::new(10_000);
    for t in 1..=300 {
        k.schedule(ModelId(0), at(t * 10, OCCURRENCE, 0, "occurrence-a")).unwrap();
    }
    let mut b = bench();
    let stats = block_on(k.run(&mut b)).unwrap();
    assert_eq!(stats.delivered, 300 * 5);
    let first: Vec<&str> = b.log.iter().take(6).map(|s| s.1).collect();
    assert_eq!(first, ["occurrence-a", "ask-a", "reply-a", "start-a", "end-a", "occurrence-a"]);
    assert!(b.log.windows(2).all(|w| w[0].0 <= w[1].0), "time went back");
    assert_eq!(b.most_returned, 1, "a batch handed its unhandled events back to the kernel");
}

#[test]
fn scheduling_into_the_past_is_an_error() {
    let mut k = Kernel::new(100);
    k.schedule(ModelId(0), at(10, OCCURRENCE, 0, "bad")).unwrap();
    let err = block_on(k.run(&mut bench())).unwrap_err();
    assert!(matches!(err, SimError::Causality { now: 10, at: 9 }));
}

#[test]
fn a_message_of_another_type_is_refused_not_handled() {
    let mut k = Kernel::new(100);
    let other: Scheduled<&'static str> =
        Scheduled { time: 1, class: JOB_END, to: To::Model(ModelId(0), Msg::new(7u64)) };
    k.schedule(ModelId(0), other).unwrap();
    let err = block_on(k.run(&mut bench())).unwrap_err();
    assert!(matches!(err, SimError::Misrouted { to: 0 }));
}

/// The first test's events, on a fresh kernel.
fn seeded() -> Kernel {
    let mut k = Kernel::new(100);
    for e in [
        at(10, OCCURRENCE, 0, "occurrence-a"),
        at(10, JOB_START, 0, "start-x"),
        at(12, NODE_FAILURE, 1, "failure"),
        at(14, OCCURRENCE, 0, "occurrence-a"),
        at(14, REQUEST, 1, "request"),
        at(30, JOB_END, 0, "end-x"),
    ] {
        k.schedule(ModelId(0), e).unwrap();
    }
    k
}

#[test]
fn stepping_at_any_times_delivers_what_one_run_delivers() {
    let mut whole = bench();
    let all = block_on(seeded().run(&mut whole)).unwrap();
    for steps in [vec![0, 10, 11, 14, 15, 29, 30], vec![9, 13], vec![12, 12, 12, 100], vec![]] {
        let mut k = seeded();
        let mut b = bench();
        for t in &steps {
            let stop = block_on(k.run_until(&mut b, *t)).unwrap();
            assert!(matches!(stop, Stop::Reached | Stop::Ended), "{steps:?}: {stop:?}");
            // Nothing past the step was delivered.
            assert!(b.log.iter().all(|(at, _)| at <= t), "{steps:?}: {:?}", b.log);
        }
        assert_eq!(block_on(k.run_until(&mut b, Time::MAX)).unwrap(), Stop::Ended);
        assert_eq!(b.log, whole.log, "stepped at {steps:?}");
        assert_eq!(k.stats().delivered, all.delivered);
        assert_eq!(k.stats().last_time, all.last_time);
    }
}

/// Model 0 decides "ask-a" itself, or suspends there and decides when resumed.
struct Decider {
    seen: Vec<(Time, &'static str)>,
    suspend: bool,
    waiting: bool,
}

impl Decider {
    fn decide(&mut self, now: Time, outbox: &mut Outbox<&'static str>) {
        self.seen.push((now, "decided"));
        outbox.push(at(now, NEGOTIATION, 1, "told"));
        outbox.push(Scheduled::me(now, JOB_START, "after-decision"));
    }
}

impl Model for Decider {
    type Msg = &'static str;

    fn handle(&mut self, now: Time, msg: &'static str, mut outbox: Outbox<&'static str>) -> Outbox<&'static str> {
        self.seen.push((now, msg));
        if msg == "arrival" {
            outbox.push(Scheduled::me(now, JOB_END, "before-decision"));
            if self.suspend {
                self.waiting = true;
            } else {
                self.decide(now, &mut outbox);
            }
        }
        outbox
    }

    fn suspended(&self) -> bool {
        self.waiting
    }

    fn resume(&mut self, now: Time, mut outbox: Outbox<&'static str>) -> Outbox<&'static str> {
        self.waiting = false;
        self.decide(now, &mut outbox);
        outbox
    }
}

struct Pair {
    decider: Decider,
    other: Logger,
    log: Vec<(Time, &'static str)>,
    agendas: [Agenda<&'static str>; 2],
    outbox: Outbox<&'static str>,
}

impl Bench for Pair {
    async fn deliver(&mut self, batch: Batch) -> Result<Handled, SimError> {
        let (i, before) = (batch.to.0 as usize, (self.decider.seen.len(), self.other.seen.len()));
        let handled = if i == 0 {
            process_batch(&mut self.decider, batch, &mut self.agendas[0], &mut self.outbox)
        } else {
            process_batch(&mut self.other, batch, &mut self.agendas[1], &mut self.outbox)
        };
        self.log.extend_from_slice(&self.decider.seen[before.0..]);
        self.log.extend_from_slice(&self.other.seen[before.1..]);
        handled
    }
}

fn pair(suspend: bool) -> (Kernel, Pair) {
    let mut k = Kernel::new(100);
    for e in [
        at(5, OCCURRENCE, 0, "arrival"),
        at(5, OCCURRENCE, 0, "queued-behind"),
        at(5, REQUEST, 1, "request"),
        at(8, OCCURRENCE, 0, "arrival"),
    ] {
        k.schedule(ModelId(0), e).unwrap();
    }
    let decider = Decider { seen: Vec::new(), suspend, waiting: false };
    (k, Pair { decider, other: Logger::default(), log: Vec::new(), agendas: Default::default(), outbox: Vec::new() })
}

#[test]
fn a_decision_taken_while_suspended_gives_the_order_of_one_taken_inside() {
    let (mut k, mut inside) = pair(false);
    assert_eq!(block_on(k.run_until(&mut inside, Time::MAX)).unwrap(), Stop::Ended);
    let (mut k, mut caller) = pair(true);
    let mut suspensions = 0;
    loop {
        match block_on(k.run_until(&mut caller, Time::MAX)).unwrap() {
            Stop::Suspended(ModelId(0)) => {
                suspensions += 1;
                // Nothing happened after the suspended event.
                assert_eq!(caller.log.last().map(|e| e.1), Some("arrival"));
                assert!(k.next_time().is_some());
            }
            Stop::Ended => break,
            other => panic!("unexpected stop {other:?}"),
        }
    }
    assert_eq!(suspensions, 2);
    assert_eq!(caller.log, inside.log);
    let order: Vec<&str> = inside.log.iter().map(|e| e.1).collect();
    assert_eq!(
        order,
        [
            "arrival",
            "decided",
            "told",
            "before-decision",
            "after-decision",
            "queued-behind",
            "request",
            "arrival",
            "decided",
            "told",
            "before-decision",
            "after-decision"
        ]
    );
    // A run to the end cannot resume a suspended model: an error, not a hang.
    let (mut k, mut caller) = pair(true);
    assert!(matches!(block_on(k.run(&mut caller)), Err(SimError::Contract { at: 5, .. })));
}

/// Runs the kernel with a test bench, which answers every batch at once:
/// the run is over at its first poll, with no runtime.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    match f.as_mut().poll(&mut std::task::Context::from_waker(std::task::Waker::noop())) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => panic!("a test bench answered later"),
    }
}
