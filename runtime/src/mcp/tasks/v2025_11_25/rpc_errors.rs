//! The JSON-RPC errors of the tasks methods: params that do not read, a
//! method there is not, a task not found or not cancellable.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde::Deserialize;
use serde_json::Value;

use super::store::TaskError;

pub(super) fn parse<T: for<'de> Deserialize<'de>>(params: Value) -> Result<T, ErrorData> {
    serde_json::from_value(params).map_err(|e| invalid_params(&format!("bad params: {e}")))
}

pub(super) fn invalid_params(message: &str) -> ErrorData {
    ErrorData::invalid_params(message.to_owned(), None)
}

pub(super) fn internal(e: serde_json::Error) -> ErrorData {
    ErrorData::internal_error(format!("cannot encode the answer: {e}"), None)
}

pub(super) fn method_not_found(method: &str) -> ErrorData {
    let shown: String = method.chars().take(64).collect();
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("no method `{shown}` in the negotiated protocol revision"),
        None,
    )
}

pub(super) fn task_error(e: TaskError) -> ErrorData {
    match e {
        TaskError::NotFound => invalid_params(
            "no task of this session has that id (it may have expired); tasks/list gives them",
        ),
        TaskError::Terminal(status) => invalid_params(&format!(
            "the task is already {status} and cannot be cancelled"
        )),
        TaskError::Full => ErrorData::internal_error(
            "this session has as many working tasks as it may hold; wait for some to end",
            None,
        ),
        TaskError::BadCursor => invalid_params("the cursor is not one tasks/list gave"),
    }
}
