//! `Calls`: the edge's counters of one catalogue's calls. Each tool's
//! counters and histogram are resolved from the registry on its first
//! call and kept, so that recording a call takes no lock of the
//! registry's: a hash lookup of the tool, an increment, and the
//! histogram's update.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::histogram::Histogram;

use super::CallOutcome;
use super::registry::{CallLabels, METRICS, ToolLabel};
use crate::edge::Schema;
use crate::jobs::INTERRUPTED;
use crate::{ToolInfo, codes};

/// The `outcome` of an error whose code is neither built in nor declared
/// by the tool (a backend's made-up code): one label for all of them.
const OTHER: &str = "other";

/// The counters of one catalogue's calls. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub(crate) struct Calls {
    tools: Arc<HashMap<&'static str, ToolCalls>>,
}

/// When a call started.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock(Instant);

/// One tool's counters, made on its first call.
#[derive(Debug)]
struct ToolCalls {
    name: &'static str,
    /// The error codes the tool declares: labels beside the built-in ones.
    declared: Box<[String]>,
    ok: OnceLock<Counter>,
    job_started: OnceLock<Counter>,
    duration: OnceLock<Histogram>,
}

impl Calls {
    /// The counters of a catalogue's `tools`, each error code `schema`
    /// declares for a tool a label of its own.
    pub(crate) fn new(tools: &'static [ToolInfo], schema: &Schema) -> Self {
        let tools = tools
            .iter()
            .map(|tool| {
                let declared = schema.error_codes(tool.name).to_vec().into_boxed_slice();
                let calls = ToolCalls {
                    name: tool.name,
                    declared,
                    ok: OnceLock::new(),
                    job_started: OnceLock::new(),
                    duration: OnceLock::new(),
                };
                (tool.name, calls)
            })
            .collect();
        Calls {
            tools: Arc::new(tools),
        }
    }

    /// Starts timing a call.
    #[inline]
    pub(crate) fn start(&self) -> Clock {
        Clock(Instant::now())
    }

    /// Counts a call of `tool` that ended as `outcome`, started at `clock`.
    /// A name outside the catalogue counts nothing: doors count those
    /// with [`unknown_tool`](super::unknown_tool) before the edge.
    pub(crate) fn record(&self, tool: &str, outcome: CallOutcome<'_>, clock: Clock) {
        let Some(calls) = self.tools.get(tool) else {
            return;
        };
        calls.duration().observe(clock.0.elapsed().as_secs_f64());
        match outcome {
            CallOutcome::Ok => calls.counter(&calls.ok, "ok").inc(),
            CallOutcome::JobStarted => calls.counter(&calls.job_started, "job_started").inc(),
            CallOutcome::Error(code) => {
                let labels = CallLabels {
                    tool: calls.name,
                    outcome: calls.code_label(code),
                };
                METRICS.calls.get_or_create(&labels).inc()
            }
        };
    }
}

impl ToolCalls {
    fn counter<'a>(&self, slot: &'a OnceLock<Counter>, outcome: &'static str) -> &'a Counter {
        slot.get_or_init(|| {
            METRICS.calls.get_or_create_owned(&CallLabels {
                tool: self.name,
                outcome: Cow::Borrowed(outcome),
            })
        })
    }

    fn duration(&self) -> &Histogram {
        self.duration.get_or_init(|| {
            METRICS
                .durations
                .get_or_create_owned(&ToolLabel { tool: self.name })
        })
    }

    /// `code` as a label: a built-in code or one the tool declares as it
    /// is, any other [`OTHER`], so that the label set stays bounded.
    fn code_label(&self, code: &str) -> Cow<'static, str> {
        if let Some(known) = codes::ALL
            .iter()
            .copied()
            .chain([INTERRUPTED])
            .find(|known| *known == code)
        {
            Cow::Borrowed(known)
        } else if self.declared.iter().any(|declared| declared == code) {
            Cow::Owned(code.to_owned())
        } else {
            Cow::Borrowed(OTHER)
        }
    }
}
