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
//!   `rng::stream(seed, Stream::Workflows, index)`.
//!
//! File format (one task per line, see [`Workflow::parse`]):
//! `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`; `#` starts a comment; blank lines are
//! ignored; parents may be defined on earlier or later lines.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::setting::InvalidSetting;
use crate::units::Time;

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
fn at(file: &str, line: &Option<usize>) -> String {
    match line {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    }
}

/// Why `name` cannot be a task name, if it cannot.
fn name_problem(name: &str) -> Option<&'static str> {
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
    fn assemble(mut tasks: Vec<Task>, mut edges: Vec<Edge>) -> Workflow {
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
    fn check_acyclic(&self, file: &str) -> Result<(), WorkflowError> {
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

    /// Parses the workflow text format; `file` labels error messages.
    ///
    /// Format: one task per line, `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`,
    /// whitespace-separated. `NAME` has no whitespace, `:` or `#`; `RUNTIME_S` is an integer
    /// ≥ 0; `PROCS` an integer ≥ 1; each `PARENT` names a task defined on any line (earlier
    /// or later), optionally followed by `:TRANSFER_S`, the integer seconds (≥ 0, default 0)
    /// to move its data when parent and child run on different sites. `#` starts a comment
    /// running to the end of the line; blank lines are ignored. Task ids follow line order.
    /// Errors name `file:line` and the field.
    pub fn parse(text: &str, file: &str) -> Result<Workflow, WorkflowError> {
        let file_s = || file.to_string();
        let mut tasks: Vec<Task> = Vec::new();
        let mut pending: Vec<Vec<(&str, Time)>> = Vec::new();
        let mut index: HashMap<&str, u32> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = Some(i + 1);
            let content = raw.find('#').map_or(raw, |hash| &raw[..hash]);
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            if fields.len() < 3 {
                return Err(WorkflowError::FieldCount { file: file_s(), line: i + 1, found: fields.len() });
            }
            let name = fields[0];
            if let Some(why) = name_problem(name) {
                return Err(WorkflowError::Name { file: file_s(), line, name: name.to_string(), why });
            }
            let task = || name.to_string();
            let runtime = match fields[1].parse::<Time>() {
                Ok(r) if r >= 0 => r,
                _ => {
                    return Err(WorkflowError::Runtime { file: file_s(), line, task: task(), value: fields[1].into() });
                }
            };
            let procs = match fields[2].parse::<u32>() {
                Ok(p) if p >= 1 => p,
                _ => return Err(WorkflowError::Procs { file: file_s(), line, task: task(), value: fields[2].into() }),
            };
            let mut parents: Vec<(&str, Time)> = Vec::with_capacity(fields.len() - 3);
            for &spec in &fields[3..] {
                let (parent, transfer) = match spec.split_once(':') {
                    None => (spec, Some(0)),
                    Some((parent, t)) => (parent, t.parse::<Time>().ok().filter(|&t| t >= 0)),
                };
                let Some(transfer) = transfer.filter(|_| !parent.is_empty()) else {
                    return Err(WorkflowError::ParentSpec { file: file_s(), line, task: task(), value: spec.into() });
                };
                if parent == name {
                    return Err(WorkflowError::SelfParent { file: file_s(), line, task: task() });
                }
                if parents.iter().any(|&(p, _)| p == parent) {
                    let parent = parent.to_string();
                    return Err(WorkflowError::DuplicateParent { file: file_s(), line, task: task(), parent });
                }
                parents.push((parent, transfer));
            }
            if let Some(&id) = index.get(name) {
                let first = tasks[id as usize].line;
                return Err(WorkflowError::DuplicateTask { file: file_s(), line, task: task(), first });
            }
            index.insert(name, tasks.len() as u32);
            tasks.push(Task { line, ..Task::new(name, runtime, procs) });
            pending.push(parents);
        }
        if tasks.is_empty() {
            return Err(WorkflowError::Empty { file: file_s() });
        }
        // Parents are resolved only now, so forward references work.
        let mut edges = Vec::new();
        for (child, parents) in pending.iter().enumerate() {
            for &(parent, transfer) in parents {
                let Some(&p) = index.get(parent) else {
                    let t = &tasks[child];
                    let parent = parent.to_string();
                    return Err(WorkflowError::UnknownParent {
                        file: file_s(),
                        line: t.line,
                        task: t.name.clone(),
                        parent,
                    });
                };
                edges.push(Edge { parent: p, child: child as u32, transfer });
            }
        }
        let wf = Workflow::assemble(tasks, edges);
        wf.check_acyclic(file)?;
        Ok(wf)
    }

    /// Reads and parses a workflow file (see [`Workflow::parse`]); errors name the path.
    pub fn load(path: impl AsRef<Path>) -> Result<Workflow, WorkflowError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => Workflow::parse(&text, &name),
            Err(source) => Err(WorkflowError::Io { path: name, source }),
        }
    }

    /// The workflow in the text format of [`Workflow::parse`] (tasks in id order, `:0`
    /// transfers omitted); parsing it back yields the same workflow apart from `line`.
    pub fn to_text(&self) -> String {
        let mut out = String::from("# slasim workflow: NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]\n");
        for t in &self.tasks {
            // Writing to a String cannot fail.
            let _ = write!(out, "{} {} {}", t.name, t.runtime, t.procs);
            for &(p, transfer) in &t.parents {
                let _ = write!(out, " {}", self.tasks[p as usize].name);
                if transfer != 0 {
                    let _ = write!(out, ":{transfer}");
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Parameters of the synthetic layered workflow generator (§3.8 Fig 12, §10.1).
///
/// Setting names in errors: `workflow_tasks`, `workflow_levels`, `task_runtime`,
/// `task_processors`, `task_processors_max`, `edge_transfer`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticWorkflow {
    /// Number of tasks n (`workflow_tasks`, ≥ 1; default 100).
    pub tasks: usize,
    /// Number of levels L (`workflow_levels`, 1..=n); `None` ⇒ round(√n), which is the
    /// spec's 10 for 100 tasks and 14, 17, 20 for 200, 300, 400.
    pub levels: Option<usize>,
    /// Mean task runtime in seconds (`task_runtime`, ≥ 1; default 1000).
    pub mean_runtime: Time,
    /// Mean processors per task p̄ (`task_processors`, ≥ 1, ≤ `max_procs`; default 22).
    pub mean_procs: u32,
    /// Cap on a task's processors (`task_processors_max`, ≥ 1): set it to the smallest
    /// cluster used. Default `u32::MAX` (no cap).
    pub max_procs: u32,
    /// Mean cross-site transfer time per edge in seconds (`edge_transfer`, ≥ 0); 0 ⇒ none.
    pub mean_transfer: Time,
}

impl Default for SyntheticWorkflow {
    fn default() -> Self {
        SyntheticWorkflow {
            tasks: 100,
            levels: None,
            mean_runtime: 1000,
            mean_procs: 22,
            max_procs: u32::MAX,
            mean_transfer: 0,
        }
    }
}

/// Link latency of the multi-site experiment (§3.8): 150 s.
const LATENCY: Time = 150;

impl SyntheticWorkflow {
    /// The number of levels used: `levels`, or round(√tasks) (at least 1).
    pub fn level_count(&self) -> usize {
        self.levels.unwrap_or_else(|| ((self.tasks as f64).sqrt().round() as usize).max(1))
    }

    /// Checks every setting's domain.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.tasks < 1 || u32::try_from(self.tasks).is_err() {
            return Err(InvalidSetting::new("workflow_tasks", self.tasks, "must lie in 1..=4294967295"));
        }
        let levels = self.level_count();
        if levels < 1 || levels > self.tasks {
            return Err(InvalidSetting::new("workflow_levels", levels, "must lie in 1..=workflow_tasks"));
        }
        if self.mean_runtime < 1 || self.mean_runtime > Time::MAX / 2 {
            return Err(InvalidSetting::new("task_runtime", self.mean_runtime, "must be a positive number of seconds"));
        }
        if self.max_procs < 1 {
            return Err(InvalidSetting::new("task_processors_max", self.max_procs, "must be at least 1"));
        }
        if self.mean_procs < 1 || self.mean_procs > self.max_procs {
            return Err(InvalidSetting::new("task_processors", self.mean_procs, "must lie in 1..=task_processors_max"));
        }
        if self.mean_transfer < 0 || self.mean_transfer > Time::MAX / 4 {
            return Err(InvalidSetting::new(
                "edge_transfer",
                self.mean_transfer,
                "must be a non-negative number of seconds",
            ));
        }
        Ok(())
    }

    /// Draws a layered workflow (§10.1), deterministic for a given `rng` state.
    ///
    /// Draw order (kept stable so seeds reproduce): level widths, their fix-up, then per task
    /// in id order: runtime, processors, parents, one transfer per parent.
    /// - Widths W_l ~ U{1..h}, h = max(⌊2n/L⌋ − 1, ⌈n/L⌉) (mean ≈ n/L, max ≈ twice that; the
    ///   ⌈n/L⌉ floor makes n reachable). While Σ W ≠ n, a uniformly chosen level that can move
    ///   (> 1 when shrinking, < h when growing) moves by one.
    /// - Ids run level by level. Each task below the first level gets 2 distinct parents
    ///   uniform over the previous level (1 if that level has a single task).
    /// - Runtime ~ U{r̄ − ⌊r̄/2⌋ .. r̄ + ⌊r̄/2⌋} (U[500, 1500] for r̄ = 1000).
    /// - Processors ~ U{1..2p̄ − 1}, capped at `max_procs`.
    /// - Transfer (when `mean_transfer` t̄ > 0) = λ + U{0..2(t̄ − λ)}, λ = min(150, t̄): for
    ///   t̄ = 250 this is the spec's U[0, 2000] Gb / 10 Gbps + 150 s latency, mean 250 s.
    pub fn generate(&self, rng: &mut ChaCha8Rng) -> Result<Workflow, InvalidSetting> {
        self.validate()?;
        let (n, levels) = (self.tasks, self.level_count());
        let high = ((2 * n) / levels).saturating_sub(1).max(n.div_ceil(levels));
        let mut widths: Vec<usize> = (0..levels).map(|_| rng.random_range(1..=high)).collect();
        let mut sum: usize = widths.iter().sum();
        while sum != n {
            let shrink = sum > n;
            let movable: Vec<usize> =
                (0..levels).filter(|&l| if shrink { widths[l] > 1 } else { widths[l] < high }).collect();
            // Non-empty: L ≤ n ≤ L·h, so some level can always move towards n.
            if movable.is_empty() {
                break;
            }
            let l = movable[rng.random_range(0..movable.len())];
            if shrink {
                widths[l] -= 1;
                sum -= 1;
            } else {
                widths[l] += 1;
                sum += 1;
            }
        }

        let half = self.mean_runtime / 2;
        let (runtime_lo, runtime_hi) = (self.mean_runtime - half, self.mean_runtime + half);
        let procs_hi = (2 * u64::from(self.mean_procs) - 1).min(u64::from(self.max_procs));
        let latency = self.mean_transfer.min(LATENCY);
        let spread = 2 * (self.mean_transfer - latency);

        let mut tasks = Vec::with_capacity(n);
        let mut edges = Vec::with_capacity(2 * n);
        let mut previous: std::ops::Range<usize> = 0..0;
        for &width in &widths {
            let start = tasks.len();
            for _ in 0..width {
                let id = tasks.len();
                let runtime = rng.random_range(runtime_lo..=runtime_hi);
                let procs = u32::try_from(rng.random_range(1..=procs_hi)).unwrap_or(self.max_procs);
                tasks.push(Task::new(format!("t{id}"), runtime, procs));
                let parents: Vec<usize> = match previous.len() {
                    0 => Vec::new(),
                    1 => vec![previous.start],
                    w => {
                        // Two distinct draws: the second skips over the first.
                        let a = rng.random_range(0..w);
                        let b = rng.random_range(0..w - 1);
                        let b = if b >= a { b + 1 } else { b };
                        vec![previous.start + a.min(b), previous.start + a.max(b)]
                    }
                };
                for p in parents {
                    let transfer = if self.mean_transfer > 0 { latency + rng.random_range(0..=spread) } else { 0 };
                    edges.push(Edge { parent: p as u32, child: id as u32, transfer });
                }
            }
            previous = start..tasks.len();
        }
        Ok(Workflow::assemble(tasks, edges))
    }
}

/// synthSGT and peakValCal task count of the CyberShake workflow (Table 2).
pub const CYBERSHAKE_SGT_TASKS: usize = 4017;

/// The CyberShake seismic-hazard workflow (§3.8, Table 2; structure reconstructed, A26):
/// L1 {fd_grid_xyz 1 s 1p, preSGT 300 s 1p} → L2 {fd_grid_cvm 2100 s 288p, child of
/// fd_grid_xyz} → L3 {pvml_chk1, pmvl_chk2 86400 s 288p, each child of fd_grid_cvm and
/// preSGT} → L4 {4017 × synthSGT_NNNN 519 s 1p, each child of both chk tasks} → L5
/// {4017 × peakValCal_NNNN 1 s 1p, child of the synthSGT with the same number}.
/// 8039 tasks, transfers 0 (it runs on one site), ids in the order listed.
pub fn cybershake() -> Workflow {
    let n = CYBERSHAKE_SGT_TASKS;
    let mut tasks = vec![
        Task::new("fd_grid_xyz", 1, 1),
        Task::new("preSGT", 300, 1),
        Task::new("fd_grid_cvm", 2100, 288),
        Task::new("pvml_chk1", 86_400, 288),
        Task::new("pmvl_chk2", 86_400, 288),
    ];
    let (xyz, pre, cvm, chk1, chk2) = (0, 1, 2, 3, 4);
    let edge = |parent: usize, child: usize| Edge { parent: parent as u32, child: child as u32, transfer: 0 };
    let mut edges = vec![edge(xyz, cvm), edge(cvm, chk1), edge(pre, chk1), edge(cvm, chk2), edge(pre, chk2)];
    let synth0 = tasks.len();
    let peak0 = synth0 + n;
    for i in 0..n {
        tasks.push(Task::new(format!("synthSGT_{i:04}"), 519, 1));
        edges.push(edge(chk1, synth0 + i));
        edges.push(edge(chk2, synth0 + i));
    }
    for i in 0..n {
        tasks.push(Task::new(format!("peakValCal_{i:04}"), 1, 1));
        edges.push(edge(synth0 + i, peak0 + i));
    }
    Workflow::assemble(tasks, edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};
    use proptest::prelude::*;

    /// Re-validates a workflow through the checked constructor.
    fn revalidate(wf: &Workflow) -> Workflow {
        Workflow::new(wf.tasks().to_vec(), wf.edges().to_vec(), "revalidate").unwrap()
    }

    fn assert_topological(wf: &Workflow, order: &[u32]) {
        let mut pos = vec![usize::MAX; wf.len()];
        for (i, &v) in order.iter().enumerate() {
            assert_eq!(pos[v as usize], usize::MAX, "task {v} twice");
            pos[v as usize] = i;
        }
        assert_eq!(order.len(), wf.len());
        for e in wf.edges() {
            assert!(pos[e.parent as usize] < pos[e.child as usize], "edge {e:?} violated by {order:?}");
        }
    }

    fn without_lines(wf: &Workflow) -> Vec<Task> {
        wf.tasks().iter().map(|t| Task { line: None, ..t.clone() }).collect()
    }

    fn err(text: &str) -> String {
        Workflow::parse(text, "wf.txt").unwrap_err().to_string()
    }

    fn diamond() -> Workflow {
        let tasks = vec![Task::new("a", 10, 1), Task::new("b", 20, 2), Task::new("c", 30, 3), Task::new("d", 5, 4)];
        let e = |parent, child, transfer| Edge { parent, child, transfer };
        Workflow::new(tasks, vec![e(0, 1, 1), e(0, 2, 2), e(1, 3, 3), e(2, 3, 4)], "diamond").unwrap()
    }

    #[test]
    fn diamond_ranks_order_and_costs() {
        let wf = diamond();
        // Rank(d) = 5 (exit)
        // Rank(b) = 20 + (3 + 5) = 28
        // Rank(c) = 30 + (4 + 5) = 39
        // Rank(a) = 10 + max(1 + 28, 2 + 39) = 51
        assert_eq!(wf.ranks(), vec![51, 28, 39, 5]);
        assert_eq!(wf.heft_order(), vec![0, 2, 1, 3]);
        assert_eq!(wf.critical_path(), 51);
        assert_eq!(wf.levels(), vec![0, 1, 1, 2]);
        assert_eq!(wf.depth(), 3);
        // 10·1 + 20·2 + 30·3 + 5·4
        assert_eq!(wf.best_effort_cost(), 160);
        assert_eq!(wf.max_procs(), 4);
        assert_eq!(wf.tasks()[3].parents, vec![(1, 3), (2, 4)]);
        assert_eq!(wf.tasks()[0].children, vec![(1, 1), (2, 2)]);
        assert_eq!(wf.transfer(2, 3), 4);
        assert_eq!(wf.edge_transfer(2, 3), Some(4));
        assert_eq!(wf.transfer(0, 3), 0);
        assert_eq!(wf.edge_transfer(0, 3), None);
        assert_eq!(wf.edge_transfer(0, 99), None);
        assert_eq!(wf.index_of("c"), Some(2));
        assert_eq!(wf.index_of("z"), None);
    }

    #[test]
    fn zero_runtime_heft_order_is_topological() {
        // Chain a → b → c declared in reverse id order with all-zero ranks: only the level
        // tie-break keeps the order topological (id order alone would give c, b, a).
        let tasks = vec![Task::new("c", 0, 1), Task::new("b", 0, 1), Task::new("a", 0, 1), Task::new("x", 0, 1)];
        let e = |parent, child| Edge { parent, child, transfer: 0 };
        let wf = Workflow::new(tasks, vec![e(2, 1), e(1, 0)], "zero").unwrap();
        assert_eq!(wf.ranks(), vec![0; 4]);
        assert_eq!(wf.heft_order(), vec![2, 3, 1, 0]);
        assert_topological(&wf, &wf.heft_order());
    }

    #[test]
    fn generator_structure_100_tasks_10_levels() {
        let g = SyntheticWorkflow::default();
        assert_eq!(g.level_count(), 10);
        for index in 0..50 {
            let wf = g.generate(&mut stream(1, Stream::Workflows, index)).unwrap();
            revalidate(&wf);
            assert_eq!(wf.len(), 100);
            let levels = wf.levels();
            assert_eq!(wf.depth(), 10);
            let mut widths = vec![0usize; 10];
            for &l in &levels {
                widths[l as usize] += 1;
            }
            assert!(widths.iter().all(|&w| (1..=19).contains(&w)), "{widths:?}");
            for (v, t) in wf.tasks().iter().enumerate() {
                let l = levels[v] as usize;
                let expected = if l == 0 { 0 } else { widths[l - 1].min(2) };
                assert_eq!(t.parents.len(), expected, "task {v} at level {l}, widths {widths:?}");
                assert!(t.parents.iter().all(|&(p, x)| levels[p as usize] as usize + 1 == l && x == 0));
                assert!((500..=1500).contains(&t.runtime));
                assert!((1..=43).contains(&t.procs));
            }
            assert_topological(&wf, &wf.heft_order());
        }
    }

    #[test]
    fn generator_default_levels_follow_sqrt() {
        let count = |tasks| SyntheticWorkflow { tasks, ..SyntheticWorkflow::default() }.level_count();
        assert_eq!([count(100), count(200), count(300), count(400), count(1), count(2)], [10, 14, 17, 20, 1, 1]);
        let g = SyntheticWorkflow { tasks: 200, ..SyntheticWorkflow::default() };
        assert_eq!(g.generate(&mut stream(3, Stream::Workflows, 0)).unwrap().depth(), 14);
        // Extremes: one level, and one task per level (a chain).
        let flat = SyntheticWorkflow { tasks: 7, levels: Some(1), ..SyntheticWorkflow::default() };
        assert!(flat.generate(&mut stream(3, Stream::Workflows, 0)).unwrap().edges().is_empty());
        let chain = SyntheticWorkflow { tasks: 7, levels: Some(7), ..SyntheticWorkflow::default() };
        let wf = chain.generate(&mut stream(3, Stream::Workflows, 0)).unwrap();
        assert_eq!((wf.depth(), wf.edges().len()), (7, 6));
    }

    #[test]
    fn generator_means_over_many_draws() {
        let g = SyntheticWorkflow { mean_transfer: 250, ..SyntheticWorkflow::default() };
        let (mut procs, mut runtime, mut transfer, mut tasks, mut edges) = (0u64, 0i64, 0i64, 0i64, 0i64);
        for index in 0..200 {
            let wf = g.generate(&mut stream(9, Stream::Workflows, index)).unwrap();
            procs += wf.tasks().iter().map(|t| u64::from(t.procs)).sum::<u64>();
            runtime += wf.tasks().iter().map(|t| t.runtime).sum::<i64>();
            tasks += wf.len() as i64;
            for e in wf.edges() {
                assert!((150..=350).contains(&e.transfer));
                transfer += e.transfer;
                edges += 1;
            }
        }
        // 20,000 draws: standard errors ≈ 0.09 procs, 2 s runtime, 0.5 s transfer.
        let mean_procs = procs as f64 / tasks as f64;
        assert!((mean_procs - 22.0).abs() < 0.5, "mean procs {mean_procs}");
        let mean_runtime = runtime as f64 / tasks as f64;
        assert!((mean_runtime - 1000.0).abs() < 10.0, "mean runtime {mean_runtime}");
        let mean_transfer = transfer as f64 / edges as f64;
        assert!((mean_transfer - 250.0).abs() < 3.0, "mean transfer {mean_transfer}");
        // Below the latency the transfer is constant.
        let small = SyntheticWorkflow { mean_transfer: 40, ..SyntheticWorkflow::default() };
        let wf = small.generate(&mut stream(9, Stream::Workflows, 0)).unwrap();
        assert!(wf.edges().iter().all(|e| e.transfer == 40));
    }

    #[test]
    fn generator_caps_processors() {
        let g = SyntheticWorkflow { mean_procs: 10, max_procs: 12, ..SyntheticWorkflow::default() };
        let wf = g.generate(&mut stream(4, Stream::Workflows, 0)).unwrap();
        assert!(wf.tasks().iter().all(|t| t.procs <= 12));
        assert!(wf.tasks().iter().any(|t| t.procs == 12));
        let ones = SyntheticWorkflow { mean_procs: 1, ..SyntheticWorkflow::default() };
        assert_eq!(ones.generate(&mut stream(4, Stream::Workflows, 0)).unwrap().max_procs(), 1);
    }

    #[test]
    fn generator_is_deterministic() {
        let g = SyntheticWorkflow { tasks: 300, mean_transfer: 250, ..SyntheticWorkflow::default() };
        let a = g.generate(&mut stream(42, Stream::Workflows, 5)).unwrap();
        assert_eq!(a, g.generate(&mut stream(42, Stream::Workflows, 5)).unwrap());
        assert_ne!(a, g.generate(&mut stream(42, Stream::Workflows, 6)).unwrap());
        assert_ne!(a, g.generate(&mut stream(43, Stream::Workflows, 5)).unwrap());
    }

    #[test]
    fn generator_rejects_bad_settings() {
        let bad = |g: SyntheticWorkflow| g.generate(&mut stream(0, Stream::Workflows, 0)).unwrap_err().setting;
        let d = SyntheticWorkflow::default;
        assert_eq!(bad(SyntheticWorkflow { tasks: 0, ..d() }), "workflow_tasks");
        assert_eq!(bad(SyntheticWorkflow { levels: Some(0), ..d() }), "workflow_levels");
        assert_eq!(bad(SyntheticWorkflow { levels: Some(101), ..d() }), "workflow_levels");
        assert_eq!(bad(SyntheticWorkflow { mean_runtime: 0, ..d() }), "task_runtime");
        assert_eq!(bad(SyntheticWorkflow { mean_procs: 0, ..d() }), "task_processors");
        assert_eq!(bad(SyntheticWorkflow { mean_procs: 30, max_procs: 20, ..d() }), "task_processors");
        assert_eq!(bad(SyntheticWorkflow { max_procs: 0, mean_procs: 0, ..d() }), "task_processors_max");
        assert_eq!(bad(SyntheticWorkflow { mean_transfer: -1, ..d() }), "edge_transfer");
        let e = SyntheticWorkflow { tasks: 0, ..d() }.validate().unwrap_err();
        assert_eq!(e.to_string(), "setting `workflow_tasks` = 0: must lie in 1..=4294967295");
    }

    #[test]
    fn cybershake_numbers() {
        let wf = cybershake();
        revalidate(&wf);
        assert_eq!(wf.len(), 8039);
        assert_eq!(wf.edges().len(), 5 + 3 * CYBERSHAKE_SGT_TASKS);
        assert_eq!(wf.best_effort_cost(), 52_460_341);
        assert_eq!(wf.critical_path(), 1 + 2100 + 86_400 + 519 + 1);
        assert_eq!(wf.depth(), 5);
        assert_eq!(wf.max_procs(), 288);
        let synth = wf.index_of("synthSGT_0007").unwrap();
        assert_eq!(wf.tasks()[synth as usize].parents, vec![(3, 0), (4, 0)]);
        let peak = wf.index_of("peakValCal_0007").unwrap();
        assert_eq!(wf.tasks()[peak as usize].parents, vec![(synth, 0)]);
        // Ranks: fd_grid_xyz 89021, fd_grid_cvm 89020, preSGT 87220, chk 86920 each.
        let order = wf.heft_order();
        assert_eq!(&order[..5], &[0, 2, 1, 3, 4]);
        assert_topological(&wf, &order);
        assert!(wf.check_fits(&[430], "cybershake").is_ok());
        assert_eq!(
            wf.check_fits(&[128, 100], "cybershake").unwrap_err().to_string(),
            "cybershake: task `fd_grid_cvm` needs 288 processors, more than any site offers (largest site: 128)"
        );
    }

    #[test]
    fn parse_forward_references_comments_and_transfers() {
        let text = "# a diamond\n\nd 5 4 b:3 c:4   # exit task\nb 20 2 a:1\n  c 30 3 a:2\na 10 1\n";
        let wf = Workflow::parse(text, "wf.txt").unwrap();
        let d = diamond();
        let names: Vec<&str> = wf.tasks().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["d", "b", "c", "a"]);
        assert_eq!(wf.tasks().iter().map(|t| t.line).collect::<Vec<_>>(), [Some(3), Some(4), Some(5), Some(6)]);
        assert_eq!(wf.critical_path(), d.critical_path());
        assert_eq!(wf.best_effort_cost(), d.best_effort_cost());
        assert_eq!(wf.transfer(3, 2), 2);
        assert_eq!(wf.heft_order(), vec![3, 2, 1, 0]);
        let plain = Workflow::parse("x 1 1\ny 2 1 x", "f").unwrap();
        assert_eq!(plain.edge_transfer(0, 1), Some(0));
    }

    #[test]
    fn parse_errors_name_file_line_and_field() {
        assert_eq!(
            err("a 10 1\n\nb 5\n"),
            "wf.txt:3: expected `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`, found 2 field(s)"
        );
        assert_eq!(
            err("a ten 1"),
            "wf.txt:1: task `a`: field RUNTIME_S = `ten` is not a non-negative integer (seconds)"
        );
        assert_eq!(
            err("# c\na -5 1"),
            "wf.txt:2: task `a`: field RUNTIME_S = `-5` is not a non-negative integer (seconds)"
        );
        assert_eq!(
            err("a 1.5 1"),
            "wf.txt:1: task `a`: field RUNTIME_S = `1.5` is not a non-negative integer (seconds)"
        );
        assert_eq!(err("a 5 0"), "wf.txt:1: task `a`: field PROCS = `0` is not an integer >= 1");
        assert_eq!(err("a 5 -2"), "wf.txt:1: task `a`: field PROCS = `-2` is not an integer >= 1");
        assert_eq!(
            err("a 5 1\nb 5 1 a:-3"),
            "wf.txt:2: task `b`: parent field `a:-3` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
        );
        assert_eq!(
            err("a 5 1\nb 5 1 :3"),
            "wf.txt:2: task `b`: parent field `:3` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
        );
        assert_eq!(
            err("a:b 5 1"),
            "wf.txt:1: task name `a:b` is invalid: must not contain `:` (it separates PARENT:TRANSFER_S)"
        );
        assert_eq!(err("a 5 1\nb 5 1\na 6 1"), "wf.txt:3: duplicate task name `a` (first defined at wf.txt:1)");
        assert_eq!(err("a 5 1\nb 5 1 a zz"), "wf.txt:2: task `b`: unknown parent `zz`");
        assert_eq!(err("a 5 1 a"), "wf.txt:1: task `a` lists itself as a parent");
        assert_eq!(err("a 5 1\nb 5 1 a a:4"), "wf.txt:2: task `b` lists parent `a` more than once");
        assert_eq!(err("x 1 1\nb 1 1 c\nc 1 1 d x\nd 1 1 b\n"), "wf.txt:2: task `b` is on a dependency cycle");
        // A task downstream of a cycle is not reported; one on it is.
        assert_eq!(err("z 1 1 p\np 1 1 q\nq 1 1 p"), "wf.txt:2: task `p` is on a dependency cycle");
        assert_eq!(err("# nothing\n\n   \n"), "wf.txt: the workflow has no tasks");
        assert_eq!(err(""), "wf.txt: the workflow has no tasks");
    }

    #[test]
    fn new_rejects_invalid_parts() {
        let e = |parent, child, transfer| Edge { parent, child, transfer };
        let two = || vec![Task::new("a", 1, 1), Task::new("b", 1, 1)];
        let new = |tasks, edges| Workflow::new(tasks, edges, "code").unwrap_err().to_string();
        assert_eq!(new(vec![], vec![]), "code: the workflow has no tasks");
        assert_eq!(new(two(), vec![e(0, 2, 0)]), "code: edge 0 -> 2 refers to a task outside 0..2");
        assert_eq!(new(two(), vec![e(1, 1, 0)]), "code: task `b` lists itself as a parent");
        assert_eq!(
            new(two(), vec![e(0, 1, -1)]),
            "code: task `b`: parent field `a:-1` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
        );
        assert_eq!(new(two(), vec![e(0, 1, 0), e(0, 1, 5)]), "code: task `b` lists parent `a` more than once");
        assert_eq!(new(two(), vec![e(0, 1, 0), e(1, 0, 0)]), "code: task `a` is on a dependency cycle");
        assert_eq!(
            new(vec![Task::new("a", 1, 1), Task::new("a", 1, 1)], vec![]),
            "code: duplicate task name `a` (first defined at code)"
        );
        assert_eq!(
            new(vec![Task::new("a b", 1, 1)], vec![]),
            "code: task name `a b` is invalid: must not contain whitespace"
        );
        assert_eq!(
            new(vec![Task::new("a", -1, 1)], vec![]),
            "code: task `a`: field RUNTIME_S = `-1` is not a non-negative integer (seconds)"
        );
        assert_eq!(new(vec![Task::new("a", 1, 0)], vec![]), "code: task `a`: field PROCS = `0` is not an integer >= 1");
    }

    #[test]
    fn load_reads_files_and_names_the_path() {
        let dir = std::env::temp_dir().join(format!("slasim-workflow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("wf.txt");
        std::fs::write(&path, "a 10 1\nb 5 500 a:7\n").unwrap();
        let wf = Workflow::load(&path).unwrap();
        assert_eq!((wf.len(), wf.transfer(0, 1)), (2, 7));
        let shown = path.display().to_string();
        assert_eq!(
            wf.check_fits(&[430, 128], &shown).unwrap_err().to_string(),
            format!("{shown}:2: task `b` needs 500 processors, more than any site offers (largest site: 430)")
        );
        assert!(wf.check_fits(&[128, 512], &shown).is_ok());
        std::fs::write(&path, "a 10 1\nb 5 1 c\n").unwrap();
        assert_eq!(Workflow::load(&path).unwrap_err().to_string(), format!("{shown}:2: task `b`: unknown parent `c`"));
        let missing = dir.join("missing.txt");
        let msg = Workflow::load(&missing).unwrap_err().to_string();
        assert!(msg.starts_with(&format!("cannot read workflow file `{}`: ", missing.display())), "{msg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_fits_without_sites_names_the_first_task() {
        let msg = diamond().check_fits(&[], "synthetic workflow").unwrap_err().to_string();
        assert_eq!(msg, "synthetic workflow: task `a` needs 1 processors, more than any site offers (largest site: 0)");
    }

    #[test]
    fn text_round_trips() {
        let g = SyntheticWorkflow { tasks: 60, mean_transfer: 250, ..SyntheticWorkflow::default() };
        for wf in [diamond(), g.generate(&mut stream(5, Stream::Workflows, 0)).unwrap(), cybershake()] {
            let back = Workflow::parse(&wf.to_text(), "round-trip").unwrap();
            assert_eq!(without_lines(&back), without_lines(&wf));
            assert_eq!(back.edges(), wf.edges());
            assert_eq!(back.to_text(), wf.to_text());
        }
        assert!(diamond().to_text().contains("\nd 5 4 b:3 c:4\n"));
        assert!(cybershake().to_text().contains("\nfd_grid_cvm 2100 288 fd_grid_xyz\n"));
    }

    proptest! {
        #![proptest_config(crate::testing::cases(64))]

        #[test]
        fn generated_heft_order_is_a_topological_permutation(
            tasks in 1usize..250,
            level_frac in 0.0f64..1.0,
            mean_procs in 1u32..30,
            mean_runtime in 1i64..3000,
            mean_transfer in 0i64..500,
            seed in any::<u64>(),
        ) {
            let levels = 1 + ((tasks - 1) as f64 * level_frac) as usize;
            let g = SyntheticWorkflow {
                tasks,
                levels: Some(levels),
                mean_runtime,
                mean_procs,
                mean_transfer,
                ..SyntheticWorkflow::default()
            };
            let wf = g.generate(&mut stream(seed, Stream::Workflows, 0)).unwrap();
            prop_assert_eq!(wf.len(), tasks);
            prop_assert_eq!(wf.depth(), levels);
            revalidate(&wf);
            assert_topological(&wf, &wf.heft_order());
        }

        #[test]
        fn heft_order_is_topological_on_random_dags_with_zero_weights(
            (perm, raw, runtimes) in (1usize..40).prop_flat_map(|n| (
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
                proptest::collection::vec((0..n, 0..n, 0i64..3), 0..120),
                proptest::collection::vec(0i64..3, n),
            )),
        ) {
            // Edges go from a lower to a higher position of a random permutation, so ids are in
            // arbitrary order; runtimes and transfers are mostly 0 to force rank ties.
            let n = perm.len();
            let mut edges = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for &(a, b, x) in &raw {
                if a < b && seen.insert((a, b)) {
                    edges.push(Edge { parent: perm[a], child: perm[b], transfer: x / 2 });
                }
            }
            let tasks = (0..n).map(|k| Task::new(format!("t{k}"), runtimes[k] / 2, 1)).collect();
            let wf = Workflow::new(tasks, edges, "prop").unwrap();
            assert_topological(&wf, &wf.heft_order());
        }
    }
}
