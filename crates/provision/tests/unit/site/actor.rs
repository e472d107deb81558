use slasim_core::sim::kernel::{Model, Outbox};
use slasim_core::sim::kernel::{ModelId, To};
use slasim_core::sim::port::Address;
use slasim_core::sim::port::{Receive, Request};
use slasim_core::units::HOUR;
use slasim_core::units::Time;
use slasim_provision::site::actor::*;
use slasim_provision::site::{SiteReply, SiteRequest, SlotScheduler, WorkKey};

struct Asker;

impl Model for Asker {
    type Msg = SiteReply;
    fn handle(&mut self, _: Time, _: SiteReply, outbox: Outbox<SiteReply>) -> Outbox<SiteReply> {
        outbox
    }
}

impl Receive<SiteReply> for Asker {
    fn receive(reply: SiteReply) -> SiteReply {
        reply
    }
}

/// A price query through the site leaves its scheduler exactly as it was and
/// prices the Fig. 1 plan, worked by hand below.
#[test]
fn a_price_query_changes_nothing_and_prices_figure_1() {
    let mut scheduler = SlotScheduler::new(5, 0);
    let mut due = Vec::new();
    // A and C start at 0, B and D wait: the Fig. 1 plan, with A and C running.
    for (i, (procs, hours)) in [(2, 3), (4, 1), (1, 2), (3, 2)].into_iter().enumerate() {
        scheduler.submit(0, WorkKey::Background(i as u32), procs, hours * HOUR, hours * HOUR);
    }
    scheduler.start_due(0, &mut due);
    let mut site = SiteActor::new(0, scheduler.clone(), false);
    let reply = Address::<Asker>::new(ModelId(0)).input();
    let quote = SiteRequest::Quote { task: 7, earliest: 0, procs: 3, duration: 2 * HOUR, easy: false, deadline: None };
    let out = Model::handle(&mut site, 0, SiteMsg::Request(Request { body: quote, reply }), Vec::new());
    assert_eq!(site.scheduler(), &scheduler);
    let first = out.first().and_then(|s| match &s.to {
        To::Model(_, msg) => msg.get::<SiteReply>(),
        To::Me(_) => None,
    });
    let Some(SiteReply::Offers { offers, task: 7, .. }) = first else {
        panic!("an offer list first, got {out:?}");
    };
    let got: Vec<(Time, f64)> = offers.iter().map(|o| (o.start / HOUR, o.f / HOUR as f64)).collect();
    // A and C run (3 processors until 2 h): 0 is infeasible. B (at 3) and D (at 4)
    // are the queue: at 2 B → 4, D → 5 (4 + 3 = 7); at 3 B → 5, D → 6 (8 + 6 = 14);
    // at 4 D → 6 (6); at 6 nothing moves.
    assert_eq!(got, vec![(2, 7.0), (3, 14.0), (4, 6.0), (6, 0.0)]);
}
