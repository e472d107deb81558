use slasim_sim::bench::Bench;
use slasim_sim::kernel::{Class, Model, Outbox, Scheduled, SimError, Stop};
use slasim_sim::model::{Batched, Buffers, Finish};
use slasim_sim::port::{Address, Output, Receive};
use slasim_sim::units::Time;

const DECISION: Class = Class(0);
const ARRIVAL: Class = Class(1);

/// A desk that decides each arrival: by its own rule, or, when it defers,
/// by waiting (suspended) for the caller's answer. It tells the book what it
/// decided, at the same instant.
struct Desk {
    defer: bool,
    /// The arrival waiting for the caller's answer.
    waiting: Option<u32>,
    /// The caller's answer, read when it goes on.
    answer: Option<u32>,
    seen: Vec<(Time, String)>,
    book: Output<u32>,
    buffers: Buffers<DeskMsg>,
}

#[derive(Debug)]
enum DeskMsg {
    Arrival(u32),
    Later(u32),
}

impl Desk {
    fn new(defer: bool) -> Desk {
        Desk { defer, waiting: None, answer: None, seen: Vec::new(), book: Output::new(), buffers: Buffers::default() }
    }

    fn decide(&mut self, now: Time, decision: u32, outbox: &mut Outbox<DeskMsg>) {
        self.seen.push((now, format!("decided {decision}")));
        self.book.send(now, DECISION, decision, outbox);
        outbox.push(Scheduled::me(now + 1, ARRIVAL, DeskMsg::Later(decision)));
    }
}

impl Model for Desk {
    type Msg = DeskMsg;

    fn handle(&mut self, now: Time, msg: DeskMsg, mut outbox: Outbox<DeskMsg>) -> Outbox<DeskMsg> {
        match msg {
            DeskMsg::Arrival(n) => {
                self.seen.push((now, format!("arrival {n}")));
                if self.defer {
                    self.waiting = Some(n);
                } else {
                    self.decide(now, n * 10, &mut outbox);
                }
            }
            DeskMsg::Later(decision) => self.seen.push((now, format!("after {decision}"))),
        }
        outbox
    }

    fn suspended(&self) -> bool {
        self.waiting.is_some()
    }

    fn resume(&mut self, now: Time, mut outbox: Outbox<DeskMsg>) -> Outbox<DeskMsg> {
        self.waiting = None;
        let decision = self.answer.take().unwrap_or(0);
        self.decide(now, decision, &mut outbox);
        outbox
    }
}

impl Batched for Desk {
    fn buffers(&mut self) -> &mut Buffers<DeskMsg> {
        &mut self.buffers
    }
}

impl Finish for Desk {
    type Final = Vec<(Time, String)>;
    fn finish(&mut self) -> Self::Final {
        std::mem::take(&mut self.seen)
    }
}

/// Writes down what it is told, and when.
#[derive(Default)]
struct Book {
    lines: Vec<(Time, u32)>,
    buffers: Buffers<u32>,
}

impl Model for Book {
    type Msg = u32;

    fn handle(&mut self, now: Time, msg: u32, outbox: Outbox<u32>) -> Outbox<u32> {
        self.lines.push((now, msg));
        outbox
    }
}

impl Receive<u32> for Book {
    fn receive(item: u32) -> u32 {
        item
    }
}

impl Batched for Book {
    fn buffers(&mut self) -> &mut Buffers<u32> {
        &mut self.buffers
    }
}

impl Finish for Book {
    type Final = Vec<(Time, u32)>;
    fn finish(&mut self) -> Self::Final {
        std::mem::take(&mut self.lines)
    }
}

/// A desk and its book, with arrivals 1, 2, 3 at t = 5, 5 and 8.
fn bench(defer: bool) -> (Bench, Address<Desk>, Address<Book>) {
    let mut bench = Bench::new(100).unwrap();
    let book = bench.add(Book::default());
    let desk = bench.reserve::<Desk>();
    let mut d = Desk::new(defer);
    d.book.connect(book.input());
    for (t, n) in [(5, 1), (5, 2), (8, 3)] {
        bench.seed(desk, Scheduled::me(t, ARRIVAL, DeskMsg::Arrival(n))).unwrap();
    }
    bench.place(desk, d);
    (bench, desk, book)
}

type Finals = (Vec<(Time, String)>, Vec<(Time, u32)>);

/// The run to the end, the desk deciding by itself.
fn run_to_the_end() -> Finals {
    let (mut bench, desk, book) = bench(false);
    let stats = bench.run().unwrap();
    assert_eq!(stats.delivered, 9);
    (bench.finish(desk).unwrap(), bench.finish(book).unwrap())
}

/// The stepped run, the caller deciding by the desk's rule between steps:
/// it reads the arrival by a call and hands its answer in by a call, or
/// has the arrival handed over with the step that stops at it and hands
/// its answer in by a function that runs before the desk goes on (`tell`).
fn stepped(tell: bool) -> Finals {
    let (mut bench, desk, book) = bench(true);
    if tell {
        bench.when_suspended(desk, |d| d.waiting).unwrap();
    }
    let mut asked = Vec::new();
    loop {
        match bench.step(Time::MAX).unwrap() {
            Stop::Suspended(id) => {
                assert_eq!(id, desk.id());
                let n = if tell {
                    bench.suspended_with::<Option<u32>>().flatten()
                } else {
                    bench.call(desk, |d| d.waiting).unwrap()
                };
                let n = n.expect("an arrival waits");
                asked.push((bench.now(), n));
                if tell {
                    bench.tell(desk, move |d| d.answer = Some(n * 10)).unwrap();
                } else {
                    bench.call(desk, move |d| d.answer = Some(n * 10)).unwrap();
                }
            }
            Stop::Ended => break,
            other => panic!("unexpected stop {other:?}"),
        }
    }
    assert_eq!(asked, [(5, 1), (5, 2), (8, 3)]);
    (bench.finish(desk).unwrap(), bench.finish(book).unwrap())
}

#[test]
fn decisions_handed_in_by_calls_between_steps_give_the_run_to_the_end() {
    let whole = run_to_the_end();
    assert_eq!(stepped(false), whole);
    assert_eq!(stepped(true), whole);
    let (desk, book) = whole;
    assert_eq!(desk.first().map(|s| s.1.as_str()), Some("arrival 1"));
    assert_eq!(book, [(5, 10), (5, 20), (8, 30)]);
}

#[test]
fn a_step_stops_at_the_time_asked_for() {
    let (mut bench, desk, book) = bench(false);
    assert_eq!(bench.step(4).unwrap(), Stop::Reached);
    assert_eq!(bench.stats().delivered, 0);
    assert_eq!(bench.step(6).unwrap(), Stop::Reached);
    assert_eq!(bench.now(), 6);
    assert_eq!(bench.finish(book).unwrap(), [(5, 10), (5, 20)]);
    assert_eq!(bench.step(Time::MAX).unwrap(), Stop::Ended);
    assert_eq!(bench.finish(desk).unwrap().len(), 9);
}

#[test]
fn what_is_handed_to_a_model_runs_in_order_before_anything_else_it_does() {
    let (mut bench, desk, book) = bench(true);
    assert!(matches!(bench.step(Time::MAX).unwrap(), Stop::Suspended(_)));
    // More than its mailbox holds at once.
    for k in 1..=10 {
        bench.tell(desk, move |d| d.answer = Some(d.answer.unwrap_or(0) * 10 + k)).unwrap();
    }
    // A call waits for what was handed before it.
    assert_eq!(bench.call(desk, |d| d.answer).unwrap(), Some(1234567900));
    bench.tell(desk, |d| d.answer = Some(7)).unwrap();
    assert!(matches!(bench.step(Time::MAX).unwrap(), Stop::Suspended(_)));
    assert_eq!(bench.finish(book).unwrap(), [(5, 7)]);
    // And so does its final state.
    bench.tell(desk, |d| d.seen.clear()).unwrap();
    assert_eq!(bench.finish(desk).unwrap(), []);
}

#[test]
fn what_a_model_hands_over_when_it_suspends_comes_back_with_that_step_only() {
    let (mut bench, desk, _) = bench(true);
    bench.when_suspended(desk, |d| (d.waiting, d.seen.len())).unwrap();
    assert!(matches!(bench.step(Time::MAX).unwrap(), Stop::Suspended(_)));
    // Of another type: nothing, and it is gone.
    assert_eq!(bench.suspended_with::<u32>(), None);
    assert_eq!(bench.suspended_with::<(Option<u32>, usize)>(), None);
    bench.tell(desk, |d| d.answer = Some(1)).unwrap();
    assert!(matches!(bench.step(Time::MAX).unwrap(), Stop::Suspended(_)));
    assert_eq!(bench.suspended_with::<(Option<u32>, usize)>(), Some((Some(2), 3)));
    assert_eq!(bench.suspended_with::<(Option<u32>, usize)>(), None);
    // A step that ends elsewhere brings nothing.
    bench.tell(desk, |d| d.answer = Some(2)).unwrap();
    assert_eq!(bench.step(7).unwrap(), Stop::Reached);
    assert_eq!(bench.suspended_with::<(Option<u32>, usize)>(), None);
}

#[test]
fn a_model_of_another_kind_or_never_placed_is_an_error() {
    let (mut bench, desk, _) = bench(false);
    let wrong: Address<Book> = Address::new(desk.id());
    assert!(matches!(bench.call(wrong, |b| b.lines.len()), Err(SimError::ModelStopped { .. })));
    bench.reserve::<Book>();
    assert!(matches!(bench.run(), Err(SimError::ModelStopped { .. })));
}

#[test]
fn a_bench_runs_stepped_and_dropped_inside_an_async_task() {
    // Blocking on a runtime inside another's task would panic: the bench
    // drives its own on a thread of its own there.
    let whole = run_to_the_end();
    let current = tokio::runtime::Builder::new_current_thread().build().unwrap();
    assert_eq!(current.block_on(async { stepped(false) }), whole);
    assert_eq!(current.block_on(async { stepped(true) }), whole);
    assert_eq!(current.block_on(async { run_to_the_end() }), whole);
    let threaded = tokio::runtime::Builder::new_multi_thread().worker_threads(1).build().unwrap();
    assert_eq!(threaded.block_on(async { tokio::spawn(async { stepped(true) }).await.unwrap() }), whole);
    // Inside a runtime's context without a task: the same.
    let _inside = current.enter();
    assert_eq!(stepped(true), whole);
}
