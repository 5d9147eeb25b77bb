//! The 2025-11-25 tasks utility, which rmcp's model cannot carry: its
//! `Tool` has no `execution`, its capabilities no `tasks`, its `tools/call`
//! params drop `task`, and it reads `tasks/get` and `tasks/cancel` as a
//! later extension's requests. So both transports reroute those messages to
//! the server's own custom methods before rmcp parses them, and add the
//! `tasks` capability to the `initialize` result on the way out.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde_json::{Value, json};

use crate::mcp::revision::Revision;

/// The prefix of the methods the transports reroute to the server.
pub(crate) const PREFIX: &str = "toolwright/";

/// The `_meta` key in which a request names its revision (2026-07-28 on).
const REVISION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The methods rerouted whatever their params.
const REROUTED: [&str; 5] = [
    "tools/list",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
];

/// A cheap test on a message's bytes: false means [`reroute`] would leave
/// it alone, so the common `tools/call` skips building a JSON tree.
pub(crate) fn may_reroute(bytes: &[u8]) -> bool {
    // Built once: `memmem::find` builds its searcher on every call, which
    // cost more than the search of a short message.
    static TASK: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"task"));
    static TOOLS_LIST: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"tools/list"));
    TASK.find(bytes).is_some() || TOOLS_LIST.find(bytes).is_some()
}

/// Renames a request rmcp cannot serve as the 2025-11-25 revision has it:
/// `tools/list` (whose tools carry `execution`), a `tools/call` with a
/// `task`, and the `tasks/…` methods. True when the message changed.
pub(crate) fn reroute(message: &mut Value) -> bool {
    let Some(object) = message.as_object_mut() else {
        return false;
    };
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return false;
    };
    // From 2026-07-28 each request names its revision, and rmcp serves
    // that revision's tasks (an extension) and tools/list itself.
    let revision = object
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(REVISION_META))
        .and_then(Value::as_str);
    if revision.is_some_and(|r| Revision::TASKS.is_before(r)) {
        return false;
    }
    let with_task = method == "tools/call"
        && object
            .get("params")
            .and_then(|p| p.get("task"))
            .is_some_and(Value::is_object);
    if !(with_task || REROUTED.contains(&method)) {
        return false;
    }
    let renamed = format!("{PREFIX}{method}");
    object.insert("method".into(), Value::String(renamed));
    true
}

/// True when a negotiated revision has the tasks utility served here:
/// 2025-11-25 alone (2026-07-28 moved tasks into an extension).
pub(crate) fn has_tasks(revision: &str) -> bool {
    Revision::parse(revision) == Some(Revision::TASKS)
}

/// Adds the `tasks` capability to an `initialize` result (the `result`
/// object) that negotiated a revision with tasks.
pub(crate) fn patch_initialize(result: &mut Value) {
    let revision = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !has_tasks(revision) {
        return;
    }
    if let Some(capabilities) = result
        .get_mut("capabilities")
        .and_then(Value::as_object_mut)
    {
        capabilities.insert(
            "tasks".into(),
            json!({ "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rerouted(message: Value) -> Option<String> {
        let mut message = message;
        reroute(&mut message).then(|| message["method"].as_str().unwrap_or("").to_owned())
    }

    #[test]
    fn task_methods_and_task_calls_are_rerouted() {
        for method in REROUTED {
            let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {}});
            assert!(may_reroute(message.to_string().as_bytes()), "{method}");
            assert_eq!(rerouted(message), Some(format!("toolwright/{method}")));
        }
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "add", "arguments": {}, "task": {"ttl": 1000}}});
        assert!(may_reroute(call.to_string().as_bytes()));
        assert_eq!(rerouted(call).as_deref(), Some("toolwright/tools/call"));
    }

    #[test]
    fn plain_calls_are_left_alone() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1}}});
        assert!(!may_reroute(call.to_string().as_bytes()));
        assert_eq!(rerouted(call), None);
        // An argument named `task` makes the cheap test say maybe; the
        // message itself is still a plain call.
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "add", "arguments": {"task": {}}}});
        assert!(may_reroute(call.to_string().as_bytes()));
        assert_eq!(rerouted(call), None);
        assert_eq!(
            rerouted(json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
            None
        );
    }

    #[test]
    fn requests_naming_a_later_revision_are_left_to_rmcp() {
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        assert_eq!(rerouted(list), None);
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}}});
        assert_eq!(rerouted(list).as_deref(), Some("toolwright/tools/list"));
        assert!(has_tasks("2025-11-25"));
        assert!(!has_tasks("2026-07-28"));
        assert!(!has_tasks("2025-06-18"));
    }

    #[test]
    fn initialize_gains_tasks_on_2025_11_25() {
        let mut result = json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}});
        patch_initialize(&mut result);
        assert_eq!(
            result["capabilities"]["tasks"]["requests"]["tools"]["call"],
            json!({})
        );
        let mut older = json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}});
        patch_initialize(&mut older);
        assert!(older["capabilities"].get("tasks").is_none());
    }
}
