//! The order in which a backfill pass's running jobs, taken away, let each
//! node hold a job of one shape: what the will-run test
//! ([`super::Controller::will_run`]) would find by walking them, without
//! the walk.
//!
//! Contract:
//! - Built from the pass's releases (the running jobs in the order of their
//!   expected ends, each with its nodes and what it holds on each) and the
//!   nodes' free resources, and valid until either changes: a start or a
//!   preemption in the pass makes it stale ([`Fitting::stale`]).
//! - For a partition and a job's share of one node, [`Fitting::order`]
//!   gives each node of the partition that can hold that share after some
//!   prefix of the releases, with the length of the shortest such prefix
//!   (0: free now), by that length. A node no prefix lets hold it is left
//!   out.
//! - Shapes are computed when first asked for after the order was made
//!   stale; a pass asks for a few (the synthetic workloads draw a dozen).

use slasim_machine::Resources;

/// A node's place in an [`Fitting::order`]: the releases it waits for,
/// then the node.
pub(super) type Place = (u32, u32);

/// A shape [`Fitting::order`] made, for [`Fitting::places`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Shaped(usize);

/// The releases on each node, and the orders of the shapes asked for.
#[derive(Debug, Default)]
pub(super) struct Fitting {
    /// Whether it holds the current releases and free resources.
    fresh: bool,
    /// Per node `n`, its releases are `held[start[n]..start[n + 1]]`.
    start: Vec<u32>,
    /// Per node, in the order of the releases: the release's index and
    /// what it gives back on the node.
    held: Vec<(u32, Resources)>,
    /// The shapes asked for since it was made fresh (the first `used`),
    /// kept for their buffers.
    shapes: Vec<Shape>,
    used: usize,
}

/// One shape's order.
#[derive(Debug, Default)]
struct Shape {
    part: usize,
    share: Resources,
    order: Vec<Place>,
}

impl Fitting {
    /// Releases or free resources changed: the orders are to be made again.
    pub(super) fn stale(&mut self) {
        self.fresh = false;
    }

    /// Orders partition `part`'s nodes (`nodes`) for a job's `share` of one
    /// node ([`Fitting::places`]), given the free resources `free` and the releases
    /// `releases` (each with its nodes and what it holds on each, in order),
    /// if it is stale or the shape is new.
    pub(super) fn order<'a, I>(
        &mut self,
        part: usize,
        share: Resources,
        nodes: &[u32],
        free: &[Resources],
        releases: impl Fn() -> I,
    ) -> Shaped
    where
        I: Iterator<Item = (&'a [u32], Resources)>,
    {
        if !self.fresh {
            self.index(free.len(), &releases);
            self.used = 0;
            self.fresh = true;
        }
        let k = match self.shapes[..self.used].iter().position(|s| s.part == part && s.share == share) {
            Some(k) => k,
            None => {
                if self.used == self.shapes.len() {
                    self.shapes.push(Shape::default());
                }
                let k = self.used;
                self.used += 1;
                let (start, held) = (&self.start, &self.held);
                let shape = &mut self.shapes[k];
                shape.part = part;
                shape.share = share;
                shape.order.clear();
                for &n in nodes {
                    let mut f = free[n as usize];
                    if f.covers(&share) {
                        shape.order.push((0, n));
                        continue;
                    }
                    let on = &held[start[n as usize] as usize..start[n as usize + 1] as usize];
                    if let Some(&(g, _)) = on.iter().find(|(_, r)| {
                        f.add(r);
                        f.covers(&share)
                    }) {
                        shape.order.push((g + 1, n));
                    }
                }
                shape.order.sort_unstable();
                k
            }
        };
        Shaped(k)
    }

    /// The places of a shape [`Fitting::order`] gave, while fresh.
    pub(super) fn places(&self, shape: Shaped) -> &[Place] {
        &self.shapes[shape.0].order
    }

    /// Node `n`'s free resources `free` after the releases before index
    /// `until`.
    pub(super) fn after(&self, n: u32, mut free: Resources, until: u32) -> Resources {
        let on = &self.held[self.start[n as usize] as usize..self.start[n as usize + 1] as usize];
        for (_, r) in on.iter().take_while(|(g, _)| *g < until) {
            free.add(r);
        }
        free
    }

    /// Files each release under its nodes, in order.
    fn index<'a, I>(&mut self, nodes: usize, releases: &impl Fn() -> I)
    where
        I: Iterator<Item = (&'a [u32], Resources)>,
    {
        self.start.clear();
        self.start.resize(nodes + 2, 0);
        for (on, _) in releases() {
            for &n in on {
                self.start[n as usize + 2] += 1;
            }
        }
        for n in 2..self.start.len() {
            self.start[n] += self.start[n - 1];
        }
        // `start[n + 1]` is now where node `n`'s releases go; filling moves
        // it to their end, which is node `n + 1`'s start.
        self.held.clear();
        self.held.resize(self.start[nodes + 1] as usize, (0, Resources::default()));
        for (g, (on, r)) in releases().enumerate() {
            for &n in on {
                let at = &mut self.start[n as usize + 1];
                self.held[*at as usize] = (g as u32, r);
                *at += 1;
            }
        }
        self.start.pop();
    }
}
