//! A scheduler in another process, speaking Batsim's JSON protocol over
//! ZeroMQ: the transport of `[batsim] command` and `endpoint`.
//!
//! Reference: Batsim's protocol documentation (oar-team/batsim,
//! `docs/protocol.rst`), in the version pybatsim 3.2.1 speaks.
//!
//! Contract:
//! - Each exchange is one message `{"now": t, "events": [...]}` and one
//!   reply. The events are written exactly as Batsim writes them (see
//!   [`super::protocol`]); the reply's frame is checked by
//!   [`parse_reply`] and each of its events read by [`Decision::parse`].
//! - RESOURCE_STATE_CHANGED's `state` is Batsim's string (`"3"`), or a JSON
//!   number with `[batsim] state_as_number` (see [`BatsimConfig`]).
//! - Errors say what the socket or the process did (no answer within the
//!   timeout, exited with its last words on stderr, refused) or which event of
//!   the reply is malformed, and why.

use std::time::Duration;

use serde_json::{Value, json};

use crate::policy::batsim::config::BatsimConfig;
use crate::policy::batsim::event::{Event, Workload};
use crate::policy::batsim::link::{Link, LinkError};
use crate::policy::batsim::protocol::{
    Decision, JobDescription, JobState, event, message, parse_reply, simulation_begins,
};
use crate::policy::batsim::scheduler::Scheduler;
use crate::workload::batsim::delay_profile_name;
use slasim_core::units::Time;

/// The workload path SIMULATION_BEGINS announces.
const WORKLOAD_PATH: &str = "slasim";

/// The ZeroMQ transport: a started or running scheduler.
pub struct Remote {
    command: Option<String>,
    endpoint: Option<String>,
    timeout: Duration,
    link: Option<Link>,
    state_as_number: bool,
    exchanged: u64,
    /// The events of the message being written (reused).
    values: Vec<Value>,
}

impl Remote {
    /// The scheduler `config`'s command or endpoint names (connected at start).
    pub fn new(config: &BatsimConfig) -> Remote {
        Remote {
            command: config.command.clone(),
            endpoint: config.endpoint.clone(),
            timeout: Duration::from_secs_f64(config.timeout),
            link: None,
            state_as_number: config.state_as_number,
            exchanged: 0,
            values: Vec::new(),
        }
    }
}

/// `e` as Batsim writes it at `now` (a pstate as a number if `state_as_number`).
fn to_json(workload: &Workload, now: Time, e: &Event, state_as_number: bool) -> Value {
    match e {
        Event::SimulationBegins => {
            let mut runtimes: Vec<Time> = workload.jobs.iter().map(|j| j.runtime).collect();
            runtimes.sort_unstable();
            runtimes.dedup();
            simulation_begins(workload.capacity, WORKLOAD_PATH, &runtimes, workload.power.as_ref())
        }
        Event::JobSubmitted { job } => {
            let spec = workload.jobs[*job as usize];
            let profile = delay_profile_name(spec.runtime);
            let name = workload.name(*job);
            let description =
                JobDescription { id: name, subtime: now, res: spec.nodes, walltime: spec.walltime, profile: &profile };
            event(now, "JOB_SUBMITTED", json!({"job_id": name, "job": description.to_json()}))
        }
        Event::JobCompleted { job, state, alloc } => {
            let data = json!({
                "job_id": workload.name(*job),
                "job_state": state.as_str(),
                "return_code": if *state == JobState::CompletedSuccessfully { 0 } else { -1 },
                "kill_reason": "",
                "alloc": alloc.to_string(),
            });
            event(now, "JOB_COMPLETED", data)
        }
        Event::JobKilled { jobs } => {
            let mut ids = Vec::with_capacity(jobs.len());
            let mut progress = serde_json::Map::new();
            for k in jobs {
                let name = workload.name(k.job);
                if let Some(done) = k.progress {
                    let runtime = workload.jobs[k.job as usize].runtime;
                    progress
                        .insert(name.to_string(), json!({"profile": delay_profile_name(runtime), "progress": done}));
                }
                ids.push(Value::String(name.to_string()));
            }
            event(now, "JOB_KILLED", json!({"job_ids": ids, "job_progress": progress}))
        }
        Event::MachineUnavailable { node } => {
            event(now, "NOTIFY", json!({"type": "event_machine_unavailable", "resources": node.to_string()}))
        }
        Event::MachineAvailable { node } => {
            event(now, "NOTIFY", json!({"type": "event_machine_available", "resources": node.to_string()}))
        }
        Event::ResourceStateChanged { nodes, pstate } => {
            let state = if state_as_number { json!(pstate) } else { json!(pstate.to_string()) };
            event(now, "RESOURCE_STATE_CHANGED", json!({"resources": nodes.to_string(), "state": state}))
        }
        Event::EnergyAnswer { joules } => event(now, "ANSWER", json!({"consumed_energy": joules})),
        Event::RequestedCall => event(now, "REQUESTED_CALL", json!({})),
        Event::SimulationEnds => event(now, "SIMULATION_ENDS", json!({})),
    }
}

impl Scheduler for Remote {
    fn start(&mut self, _workload: &Workload) -> Result<(), String> {
        let link = match (&self.command, &self.endpoint) {
            (Some(command), _) => Link::launch(command, self.timeout),
            (None, Some(endpoint)) => Link::connect(endpoint, self.timeout),
            (None, None) => Err(LinkError::Other("no scheduler command or endpoint".into())),
        };
        self.link = Some(link.map_err(|e| format!("cannot reach the scheduler: {e}"))?);
        Ok(())
    }

    fn exchange(
        &mut self,
        workload: &Workload,
        now: Time,
        events: &[Event],
        decisions: &mut Vec<Decision>,
    ) -> Result<(), String> {
        self.values.clear();
        let as_number = self.state_as_number;
        self.values.extend(events.iter().map(|e| to_json(workload, now, e, as_number)));
        let text = message(now, &self.values);
        let link = self.link.as_mut().ok_or("the scheduler is not connected")?;
        let reply = link.request(text).map_err(|e| match e {
            LinkError::Timeout(_) => format!("{e} (the simulation waited for its decisions)"),
            _ => e.to_string(),
        })?;
        self.exchanged += 1;
        let events = parse_reply(&reply, now).map_err(|b| format!("malformed reply: {} {}", b.event, b.why))?;
        for e in &events {
            let (_, decision) = Decision::parse(e).map_err(|b| format!("decision {}: {}", b.event, b.why))?;
            decisions.push(decision);
        }
        Ok(())
    }

    fn stop(&mut self, finished: bool) {
        if let Some(mut link) = self.link.take() {
            link.close(if finished { Duration::from_secs(2) } else { Duration::ZERO });
        }
    }

    fn exchanges(&self) -> u64 {
        self.exchanged
    }
}
