//! Which scheduler the `batsim` strategy talks to: `[batsim]` in a config,
//! `--scheduler-…` on the command line, or a scheduler in this process.
//!
//! Contract:
//! - Exactly one scheduler: a command started per point, the endpoint of a
//!   running one, or an [`InProcess`] scheduler (a program's own, e.g. a
//!   Python object through the `slasim` package). An in-process scheduler is
//!   not serialised: its `name` stands for it in the point's identity, and is
//!   required.
//! - The timeout is not part of a point's identity (it changes no outcome).
//! - `state_as_number` (default false) is left out of the canonical text
//!   when false, so the ids of points that do not set it do not change.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::policy::batsim::scheduler::Scheduler;
use slasim_core::setting::InvalidSetting;

/// Builds an in-process scheduler for one point.
type Make = dyn Fn() -> Box<dyn Scheduler> + Send + Sync;

/// A scheduler in this process: a factory called once per point. Two handles
/// are equal when they are the same factory.
#[derive(Clone)]
pub struct InProcess(Arc<Make>);

impl InProcess {
    /// The scheduler `make` builds, once per point.
    pub fn new(make: impl Fn() -> Box<dyn Scheduler> + Send + Sync + 'static) -> InProcess {
        InProcess(Arc::new(make))
    }

    /// A scheduler for one point.
    pub fn make(&self) -> Box<dyn Scheduler> {
        (self.0)()
    }
}

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcess(..)")
    }
}

impl PartialEq for InProcess {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Where the scheduler is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatsimConfig {
    /// A command started for each point, `{port}` standing for the TCP port
    /// it must listen on (e.g. `pybatsim easyBackfill -s tcp://127.0.0.1:{port}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A scheduler already listening (e.g. `tcp://127.0.0.1:28000`), used
    /// instead of a command (one point at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// A name for the scheduler, part of the point's identity: an endpoint
    /// alone does not say which scheduler listens there, so two schedulers
    /// served one after the other at one endpoint need two names. Required
    /// with an in-process scheduler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Seconds to wait for a reply, or for a started scheduler to listen.
    /// Not part of a point's identity (it changes no outcome).
    #[serde(default = "default_timeout", skip_serializing)]
    pub timeout: f64,
    /// A scheduler in this process, instead of a command or an endpoint (not
    /// serialised: `name` stands for it).
    #[serde(skip)]
    pub in_process: Option<InProcess>,
    /// Send RESOURCE_STATE_CHANGED's `state` as a JSON number instead of
    /// Batsim's string (`"3"`). A departure from Batsim, for pybatsim's
    /// `fcfsSchedSleep`, which compares the state it is given with integers
    /// and so never recognises Batsim's string. Part of the point's identity
    /// (left out when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub state_as_number: bool,
}

fn default_timeout() -> f64 {
    30.0
}

impl Default for BatsimConfig {
    fn default() -> Self {
        BatsimConfig {
            command: None,
            endpoint: None,
            name: None,
            timeout: default_timeout(),
            in_process: None,
            state_as_number: false,
        }
    }
}

impl BatsimConfig {
    /// The in-process scheduler `make` builds, named `name` in the point's identity.
    pub fn in_process(name: &str, make: InProcess) -> BatsimConfig {
        BatsimConfig { name: Some(name.to_string()), in_process: Some(make), ..BatsimConfig::default() }
    }

    /// Checks that exactly one scheduler is given, and the timeout.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        match (&self.command, &self.endpoint, &self.in_process) {
            (Some(_), Some(_), _) => {
                return Err(InvalidSetting::new(
                    "batsim",
                    "command and endpoint",
                    "give either a command to start per point or the endpoint of a running scheduler, not both",
                ));
            }
            (Some(_), None, Some(_)) | (None, Some(_), Some(_)) => {
                return Err(InvalidSetting::new(
                    "batsim",
                    "an in-process scheduler and a command or endpoint",
                    "give one scheduler",
                ));
            }
            (None, None, None) => {
                return Err(InvalidSetting::new(
                    "batsim",
                    "neither command nor endpoint",
                    "the batsim strategy needs a scheduler: on the command line \
                     `--scheduler-command \"CMD {port}\"` (started per point, {port} the port it listens on) or \
                     `--scheduler-endpoint tcp://127.0.0.1:28000` (a running scheduler); in a config, \
                     `[batsim] command` or `endpoint`",
                ));
            }
            (None, None, Some(_)) if self.name.as_deref().is_none_or(str::is_empty) => {
                return Err(InvalidSetting::new(
                    "batsim.name",
                    "",
                    "an in-process scheduler needs a name: it stands for the scheduler in the run's identity",
                ));
            }
            (Some(c), None, None) if !c.contains("{port}") => {
                return Err(InvalidSetting::new(
                    "batsim.command",
                    c,
                    "must contain {port}, the TCP port the scheduler is to listen on",
                ));
            }
            _ => {}
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(InvalidSetting::new(
                "batsim.timeout",
                self.timeout.to_string(),
                "must be a positive number of seconds",
            ));
        }
        Ok(())
    }
}
