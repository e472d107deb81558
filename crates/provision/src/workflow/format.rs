//! The workflow text format: one task per line,
//! `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]` (see [`Workflow::parse`]).
//!
//! Contract: parsing yields a valid [`Workflow`] (non-empty, acyclic, unique
//! names) or an error naming `file:line` and the field; [`Workflow::to_text`]
//! parses back to the same workflow apart from line numbers.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::workflow::{Edge, Task, Workflow, WorkflowError, name_problem};
use slasim_core::units::Time;

impl Workflow {
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
