//! Workflows: DAGs of parallel tasks, their HEFT order, generators and a file format.
//!
//! Reference: `provisioning-dissertation-spec.md` §3.1 (application model), §3.5 steps 1–2
//! (HEFT upward rank, eq 7, and the non-increasing-rank order), §3.7 (best-effort
//! allocation cost, eq 16), §3.8 (the synthetic workflow of Fig 12, the CyberShake workflow
//! of Table 2 with its reconstructed structure, multi-site transfer times), §10.1 (the
//! synthetic generator), §11 rows A14, A15, A26 and §13 item 12.
//!
//! Contract:
//! - A [`Workflow`] is a non-empty, acyclic set of tasks indexed `0..n` with uniquely named
//!   tasks; every constructor ([`Workflow::new`], [`Workflow::parse`], [`Workflow::load`],
//!   [`SyntheticWorkflow::generate`], [`cybershake`]) guarantees this, and the fields are
//!   read-only afterwards, so the algorithms below never meet a cycle.
//! - There are no dummy entry/exit tasks (§3.1's single entry/exit is implicit): tasks
//!   without parents are ready at the application's submission, and the makespan is the
//!   last finish minus the submission.
//! - An edge's `transfer` is the data-transfer time in seconds when parent and child run on
//!   different sites; it is 0 when they share a site (the scheduler applies that rule).
//! - [`Workflow::heft_order`] is a topological order, even with zero runtimes and transfers
//!   (ties broken by topological level, then id — A14).
//! - Generation is deterministic for a given generator; callers draw it from
//!   `rng::stream(seed, streams::WORKFLOWS, index)`.
//!
//! Rooms: this file (the DAG and its HEFT order), `format` (the text format:
//! [`Workflow::parse`], [`Workflow::load`], [`Workflow::to_text`]) and `generate` (the
//! synthetic generator and CyberShake).
//!
//! File format (one task per line, see [`Workflow::parse`]):
//! `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`; `#` starts a comment; blank lines are
//! ignored; parents may be defined on earlier or later lines.

mod format;
pub mod generate;

pub use generate::{CYBERSHAKE_SGT_TASKS, SyntheticWorkflow, cybershake};

use std::cmp::Reverse;
use std::collections::HashMap;

use slasim_core::units::Time;

/// One task of a workflow: a rigid parallel job with a known runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// Unique name (no whitespace, `:` or `#`, so it survives the text format).
    pub name: String,
    /// Runtime in seconds (≥ 0; resources are homogeneous, so one value).
    pub runtime: Time,
    /// Processors the task needs for its whole runtime (≥ 1).
    pub procs: u32,
    /// Parents as `(task id, transfer seconds)`, sorted by id; filled by the constructor.
    pub parents: Vec<(u32, Time)>,
    /// Children as `(task id, transfer seconds)`, sorted by id; filled by the constructor.
    pub children: Vec<(u32, Time)>,
    /// 1-based source line when the task was read from a file; `None` when built in code.
    pub line: Option<usize>,
}

impl Task {
    /// A task with no links and no source line; links come from [`Workflow::new`]'s edges.
    pub fn new(name: impl Into<String>, runtime: Time, procs: u32) -> Task {
        Task { name: name.into(), runtime, procs, parents: Vec::new(), children: Vec::new(), line: None }
    }
}

/// A precedence constraint: `child` may start only after `parent` finished (plus the
/// transfer when they run on different sites).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The task that must finish first.
    pub parent: u32,
    /// The dependent task.
    pub child: u32,
    /// Seconds to move the data when parent and child run on different sites; 0 on the same site.
    pub transfer: Time,
}

/// A workflow file or in-code workflow that is not a valid DAG of valid tasks.
///
/// Every variant's message starts with `file:line` (or just `file` for tasks built in code,
/// which have no line) and names the offending task or field.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    /// The file could not be read.
    #[error("cannot read workflow file `{path}`: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A non-comment line with fewer than the three mandatory fields.
    #[error("{file}:{line}: expected `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`, found {found} field(s)")]
    FieldCount {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// Whitespace-separated fields found.
        found: usize,
    },
    /// A task name the format cannot represent.
    #[error("{}: task name `{name}` is invalid: {why}", at(.file, .line))]
    Name {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The name.
        name: String,
        /// The rule it breaks.
        why: &'static str,
    },
    /// RUNTIME_S is not a non-negative integer.
    #[error("{}: task `{task}`: field RUNTIME_S = `{value}` is not a non-negative integer (seconds)", at(.file, .line))]
    Runtime {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The task.
        task: String,
        /// The text (or value) found.
        value: String,
    },
    /// PROCS is not an integer ≥ 1.
    #[error("{}: task `{task}`: field PROCS = `{value}` is not an integer >= 1", at(.file, .line))]
    Procs {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The task.
        task: String,
        /// The text (or value) found.
        value: String,
    },
    /// A `PARENT[:TRANSFER_S]` field that is malformed or has a negative/non-integer transfer.
    #[error(
        "{}: task `{task}`: parent field `{value}` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0",
        at(.file, .line)
    )]
    ParentSpec {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The child task.
        task: String,
        /// The text found.
        value: String,
    },
    /// Two tasks share a name.
    #[error("{}: duplicate task name `{task}` (first defined at {})", at(.file, .line), at(.file, .first))]
    DuplicateTask {
        /// File name.
        file: String,
        /// 1-based line of the second definition, if from a file.
        line: Option<usize>,
        /// The name.
        task: String,
        /// 1-based line of the first definition, if from a file.
        first: Option<usize>,
    },
    /// A parent name that no line defines.
    #[error("{}: task `{task}`: unknown parent `{parent}`", at(.file, .line))]
    UnknownParent {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The child task.
        task: String,
        /// The undefined parent name.
        parent: String,
    },
    /// A task listed as its own parent.
    #[error("{}: task `{task}` lists itself as a parent", at(.file, .line))]
    SelfParent {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The task.
        task: String,
    },
    /// The same parent listed twice for one task (its transfer would be ambiguous).
    #[error("{}: task `{task}` lists parent `{parent}` more than once", at(.file, .line))]
    DuplicateParent {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The child task.
        task: String,
        /// The repeated parent.
        parent: String,
    },
    /// An in-code edge whose endpoint is not a task id.
    #[error("{file}: edge {parent} -> {child} refers to a task outside 0..{tasks}")]
    EdgeOutOfRange {
        /// Origin label.
        file: String,
        /// Parent id.
        parent: u32,
        /// Child id.
        child: u32,
        /// Number of tasks.
        tasks: usize,
    },
    /// The dependencies contain a cycle; `task` lies on it (the lowest id on the cycle).
    #[error("{}: task `{task}` is on a dependency cycle", at(.file, .line))]
    Cycle {
        /// File name.
        file: String,
        /// 1-based line of `task`, if from a file.
        line: Option<usize>,
        /// A task on the cycle.
        task: String,
    },
    /// No task at all.
    #[error("{file}: the workflow has no tasks")]
    Empty {
        /// File name.
        file: String,
    },
    /// A task wider than every site, so no schedule exists.
    #[error(
        "{}: task `{task}` needs {procs} processors, more than any site offers (largest site: {largest})",
        at(.file, .line)
    )]
    TooWide {
        /// File name.
        file: String,
        /// 1-based line, if from a file.
        line: Option<usize>,
        /// The task.
        task: String,
        /// Its processors.
        procs: u32,
        /// The largest site's processors (0 when there is no site).
        largest: u32,
    },
}

/// `file:line`, or `file` when the task was not read from a file.
pub(super) fn at(file: &str, line: &Option<usize>) -> String {
    match line {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    }
}

/// Why `name` cannot be a task name, if it cannot.
pub(super) fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("must not be empty")
    } else if name.chars().any(char::is_whitespace) {
        Some("must not contain whitespace")
    } else if name.contains(':') {
        Some("must not contain `:` (it separates PARENT:TRANSFER_S)")
    } else if name.contains('#') {
        Some("must not contain `#` (it starts a comment)")
    } else {
        None
    }
}

/// A workflow: a non-empty DAG of tasks indexed `0..n` (see the module contract).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workflow {
    tasks: Vec<Task>,
    /// Sorted by (child, parent), so per-task link lists come out sorted.
    edges: Vec<Edge>,
}

impl Workflow {
    /// Builds and validates a workflow from tasks and edges; `file` labels error messages.
    ///
    /// The tasks' `parents`/`children` are ignored and rebuilt from `edges`. Rejects: no
    /// tasks, invalid names, negative runtimes, zero processors, duplicate names, edges
    /// outside `0..n`, self-edges, negative transfers, repeated edges and cycles.
    pub fn new(tasks: Vec<Task>, edges: Vec<Edge>, file: &str) -> Result<Workflow, WorkflowError> {
        let file_s = || file.to_string();
        if tasks.is_empty() {
            return Err(WorkflowError::Empty { file: file_s() });
        }
        let mut first: HashMap<&str, Option<usize>> = HashMap::with_capacity(tasks.len());
        for t in &tasks {
            if let Some(why) = name_problem(&t.name) {
                return Err(WorkflowError::Name { file: file_s(), line: t.line, name: t.name.clone(), why });
            }
            if t.runtime < 0 {
                let (task, value) = (t.name.clone(), t.runtime.to_string());
                return Err(WorkflowError::Runtime { file: file_s(), line: t.line, task, value });
            }
            if t.procs < 1 {
                let (task, value) = (t.name.clone(), t.procs.to_string());
                return Err(WorkflowError::Procs { file: file_s(), line: t.line, task, value });
            }
            if let Some(&line) = first.get(t.name.as_str()) {
                let task = t.name.clone();
                return Err(WorkflowError::DuplicateTask { file: file_s(), line: t.line, task, first: line });
            }
            first.insert(&t.name, t.line);
        }
        for e in &edges {
            let (p, c) = (e.parent as usize, e.child as usize);
            if p >= tasks.len() || c >= tasks.len() {
                let n = tasks.len();
                return Err(WorkflowError::EdgeOutOfRange {
                    file: file_s(),
                    parent: e.parent,
                    child: e.child,
                    tasks: n,
                });
            }
            let child = &tasks[c];
            if p == c {
                return Err(WorkflowError::SelfParent { file: file_s(), line: child.line, task: child.name.clone() });
            }
            if e.transfer < 0 {
                let value = format!("{}:{}", tasks[p].name, e.transfer);
                return Err(WorkflowError::ParentSpec {
                    file: file_s(),
                    line: child.line,
                    task: child.name.clone(),
                    value,
                });
            }
        }
        let wf = Workflow::assemble(tasks, edges);
        if let Some(pair) = wf.edges.windows(2).find(|w| (w[0].parent, w[0].child) == (w[1].parent, w[1].child)) {
            let child = &wf.tasks[pair[0].child as usize];
            let parent = wf.tasks[pair[0].parent as usize].name.clone();
            return Err(WorkflowError::DuplicateParent {
                file: file_s(),
                line: child.line,
                task: child.name.clone(),
                parent,
            });
        }
        wf.check_acyclic(file)?;
        Ok(wf)
    }

    /// Links tasks through `edges` without validation (callers guarantee validity).
    pub(super) fn assemble(mut tasks: Vec<Task>, mut edges: Vec<Edge>) -> Workflow {
        edges.sort_by_key(|e| (e.child, e.parent));
        for t in &mut tasks {
            t.parents.clear();
            t.children.clear();
        }
        // Edges sorted by (child, parent): parents lists come out sorted by parent id and,
        // since children are visited in increasing id, children lists sorted by child id.
        for e in &edges {
            tasks[e.child as usize].parents.push((e.parent, e.transfer));
            tasks[e.parent as usize].children.push((e.child, e.transfer));
        }
        Workflow { tasks, edges }
    }

    /// The tasks, indexed by id.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The edges, sorted by (child, parent).
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// Number of tasks (always ≥ 1).
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Always `false`: constructors reject empty workflows.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The id of the task called `name`.
    pub fn index_of(&self, name: &str) -> Option<u32> {
        self.tasks.iter().position(|t| t.name == name).and_then(|i| u32::try_from(i).ok())
    }

    /// The edge `parent → child`'s transfer time, or `None` if there is no such edge.
    pub fn edge_transfer(&self, parent: u32, child: u32) -> Option<Time> {
        let links = &self.tasks.get(child as usize)?.parents;
        links.binary_search_by_key(&parent, |&(p, _)| p).ok().map(|i| links[i].1)
    }

    /// The edge `parent → child`'s cross-site transfer time; 0 if there is no such edge
    /// (use [`Workflow::edge_transfer`] to tell the two apart).
    pub fn transfer(&self, parent: u32, child: u32) -> Time {
        self.edge_transfer(parent, child).unwrap_or(0)
    }

    /// Kahn's topological order, or `Err(id)` of the lowest-id task on some cycle.
    fn topological(&self) -> Result<Vec<u32>, u32> {
        let n = self.tasks.len();
        let mut indeg: Vec<usize> = self.tasks.iter().map(|t| t.parents.len()).collect();
        let mut order = Vec::with_capacity(n);
        let mut ready: Vec<u32> = (0..n).rev().filter(|&i| indeg[i] == 0).map(|i| i as u32).collect();
        while let Some(v) = ready.pop() {
            order.push(v);
            for &(c, _) in &self.tasks[v as usize].children {
                indeg[c as usize] -= 1;
                if indeg[c as usize] == 0 {
                    ready.push(c);
                }
            }
        }
        if order.len() == n {
            return Ok(order);
        }
        // Every unordered task has an unordered parent, so walking parents among them must
        // revisit a task; the first revisit lies on a cycle.
        let stuck = |v: usize| indeg[v] > 0;
        let first_stuck_parent = |v: usize| self.tasks[v].parents.iter().map(|&(p, _)| p as usize).find(|&p| stuck(p));
        let Some(mut v) = (0..n).find(|&v| stuck(v)) else { return Ok(order) };
        let mut seen = vec![false; n];
        while !seen[v] {
            seen[v] = true;
            match first_stuck_parent(v) {
                Some(p) => v = p,
                None => break,
            }
        }
        // Report the cycle's lowest id (for files: its earliest line), for stable messages.
        let start = v;
        let mut lowest = v;
        while let Some(p) = first_stuck_parent(v) {
            v = p;
            lowest = lowest.min(v);
            if v == start {
                break;
            }
        }
        Err(lowest as u32)
    }

    /// `Err(Cycle)` naming a task on a cycle, if any.
    pub(super) fn check_acyclic(&self, file: &str) -> Result<(), WorkflowError> {
        match self.topological() {
            Ok(_) => Ok(()),
            Err(id) => {
                let t = &self.tasks[id as usize];
                Err(WorkflowError::Cycle { file: file.to_string(), line: t.line, task: t.name.clone() })
            }
        }
    }

    /// A topological order; constructors guarantee acyclicity.
    fn topo(&self) -> Vec<u32> {
        // Unreachable fallback: every constructor rejects cycles.
        self.topological().unwrap_or_else(|_| (0..self.tasks.len() as u32).collect())
    }

    /// HEFT upward ranks (eq 7): `Rank(v) = w_v + max_{j ∈ succ(v)} (c_vj + Rank(j))`,
    /// `Rank(exit) = w_exit`, with `w` = runtime (homogeneous resources) and `c` = the
    /// edge's transfer time (its average over placements as the spec asks, since the
    /// placement is unknown). Saturates at `Time::MAX` rather than overflowing.
    pub fn ranks(&self) -> Vec<Time> {
        let mut rank = vec![0; self.tasks.len()];
        for &v in self.topo().iter().rev() {
            let t = &self.tasks[v as usize];
            let tail = t.children.iter().map(|&(c, x)| x.saturating_add(rank[c as usize])).max().unwrap_or(0);
            rank[v as usize] = t.runtime.saturating_add(tail);
        }
        rank
    }

    /// Topological level of each task: 0 for tasks without parents, else 1 + the highest
    /// parent level (the spec's "level 1" is level 0 here).
    pub fn levels(&self) -> Vec<u32> {
        let mut level = vec![0u32; self.tasks.len()];
        for &v in &self.topo() {
            let t = &self.tasks[v as usize];
            level[v as usize] = t.parents.iter().map(|&(p, _)| level[p as usize] + 1).max().unwrap_or(0);
        }
        level
    }

    /// Number of levels (the longest path counted in tasks).
    pub fn depth(&self) -> usize {
        self.levels().into_iter().max().map_or(0, |l| l as usize + 1)
    }

    /// The HEFT order (§3.5 step 2, §3.7): task ids by non-increasing upward rank, ties by
    /// topological level ascending, then id ascending (A14).
    ///
    /// A topological order: a parent's rank is ≥ each child's (runtimes and transfers are
    /// ≥ 0, and saturation keeps ≥), and on equal ranks its level is strictly lower.
    pub fn heft_order(&self) -> Vec<u32> {
        let (rank, level) = (self.ranks(), self.levels());
        let mut order: Vec<u32> = (0..self.tasks.len() as u32).collect();
        order.sort_by_key(|&v| (Reverse(rank[v as usize]), level[v as usize], v));
        order
    }

    /// Best-effort allocation cost (eq 16): Σ runtime × procs, in processor-seconds —
    /// a lower bound on any provisioned plan's cost. Saturates rather than overflowing.
    pub fn best_effort_cost(&self) -> i64 {
        self.tasks.iter().fold(0i64, |sum, t| sum.saturating_add(t.runtime.saturating_mul(i64::from(t.procs))))
    }

    /// Length of the longest path counting runtimes and transfers (the highest upward
    /// rank). With all tasks on one site (transfers 0) the makespan lower bound is the
    /// same path without transfers; for single-site workflows the transfers are 0 anyway.
    pub fn critical_path(&self) -> Time {
        self.ranks().into_iter().max().unwrap_or(0)
    }

    /// Processors of the widest task.
    pub fn max_procs(&self) -> u32 {
        self.tasks.iter().map(|t| t.procs).max().unwrap_or(0)
    }

    /// `Err(TooWide)` for the first task (by id) wider than every site in `site_procs`;
    /// `file` labels the message (a file name, or e.g. "synthetic workflow").
    pub fn check_fits(&self, site_procs: &[u32], file: &str) -> Result<(), WorkflowError> {
        let largest = site_procs.iter().copied().max().unwrap_or(0);
        match self.tasks.iter().find(|t| t.procs > largest) {
            None => Ok(()),
            Some(t) => Err(WorkflowError::TooWide {
                file: file.to_string(),
                line: t.line,
                task: t.name.clone(),
                procs: t.procs,
                largest,
            }),
        }
    }
}
