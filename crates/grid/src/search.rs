//! The reservation step: walking the variant tree with reservations and roll-backs.
//!
//! Reference: `coreservation-thesis-spec.md` §4.2.3 (Fig. 7, `reserve_dfs`):
//! descending reserves a node's sub-reservation, a refused reservation
//! discards the node's whole subtree, an exhausted node is rolled back, the
//! first complete path is the co-reservation.
//!
//! Contract: a [`Search`] is a state machine the broker drives one message at
//! a time: [`Search::next`] gets the answer to the last action it asked for
//! and returns the next [`Action`]. It never talks to a cluster itself, so the
//! broker can send every action through the kernel and the search can be
//! tested with scripted answers. Counters: attempts (reservations asked for),
//! failures (refused), roll-backs (cancelled).

use crate::tree::{TreeNode, VariantTree, path_mask};

/// What the broker should do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Ask `node.cluster` to reserve the node's sub-reservation.
    Reserve(TreeNode),
    /// Cancel a sub-reservation made earlier on this path.
    Cancel(TreeNode),
    /// Every part is reserved: the path, part 0 first.
    Granted(Vec<TreeNode>),
    /// No variant could be reserved.
    Rejected,
}

/// A cluster's answer to the last action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The reservation was made.
    Reserved,
    /// The reservation was refused.
    Refused,
    /// The cancellation was done.
    Cancelled,
}

/// What a search did (spec §6.1: attempts, failures, roll-backs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchCounters {
    /// Sub-reservations asked for.
    pub attempts: u32,
    /// Of those, refused.
    pub failures: u32,
    /// Sub-reservations cancelled (roll-backs).
    pub rollbacks: u32,
}

impl SearchCounters {
    /// n of the efficiency: reservation and roll-back messages.
    pub fn messages(&self) -> u32 {
        self.attempts + self.rollbacks
    }
}

/// A reservation step over a variant tree.
pub trait Search: Send {
    /// The next action after `answer` to the previous one (`None` at the start).
    fn next(&mut self, tree: &VariantTree, answer: Option<Answer>) -> Action;
    /// Counters so far.
    fn counters(&self) -> SearchCounters;
}

/// The depth-first reservation step of Alg. 1–4 (spec §4.2.3).
#[derive(Debug, Default)]
pub struct DepthFirst {
    /// Reserved nodes, each with the position of its next child to try.
    path: Vec<(TreeNode, usize)>,
    root_cursor: usize,
    pending: Option<TreeNode>,
    counters: SearchCounters,
}

impl DepthFirst {
    /// A search at the root.
    pub fn new() -> DepthFirst {
        DepthFirst::default()
    }

    fn nodes(&self) -> Vec<TreeNode> {
        self.path.iter().map(|(n, _)| *n).collect()
    }
}

impl Search for DepthFirst {
    fn next(&mut self, tree: &VariantTree, answer: Option<Answer>) -> Action {
        match answer {
            Some(Answer::Reserved) => {
                if let Some(node) = self.pending.take() {
                    self.path.push((node, 0));
                    if self.path.len() == tree.parts() {
                        return Action::Granted(self.nodes());
                    }
                }
            }
            Some(Answer::Refused) => {
                if self.pending.take().is_some() {
                    self.counters.failures += 1;
                }
            }
            Some(Answer::Cancelled) | None => {}
        }
        let mask = path_mask(&self.nodes());
        let (parent, cursor) = match self.path.last() {
            Some((node, cursor)) => (Some(*node), *cursor),
            None => (None, self.root_cursor),
        };
        if let Some((child, next)) = tree.child(parent.as_ref(), mask, cursor) {
            match self.path.last_mut() {
                Some((_, c)) => *c = next,
                None => self.root_cursor = next,
            }
            self.counters.attempts += 1;
            self.pending = Some(child);
            return Action::Reserve(child);
        }
        match self.path.pop() {
            Some((node, _)) => {
                self.counters.rollbacks += 1;
                Action::Cancel(node)
            }
            None => Action::Rejected,
        }
    }

    fn counters(&self) -> SearchCounters {
        self.counters
    }
}

/// Runs a search against a callback that answers each reservation (tests, and
/// the broker's offline use): returns the final action and the counters.
pub fn drive(search: &mut dyn Search, tree: &VariantTree, mut reserve: impl FnMut(&TreeNode) -> bool) -> Action {
    let mut answer = None;
    loop {
        match search.next(tree, answer) {
            Action::Reserve(node) => {
                answer = Some(if reserve(&node) { Answer::Reserved } else { Answer::Refused });
            }
            Action::Cancel(_) => answer = Some(Answer::Cancelled),
            done => return done,
        }
    }
}
