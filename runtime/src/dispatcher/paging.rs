//! Running a handler, with the cursor of a `@paged` call opened before it
//! runs and the cursor of its page sealed after (see `crate::cursor`). A
//! call of any other tool pays one `None` from the catalogue.

use std::future::Future;
use std::sync::Arc;

use super::{RequestOf, ResponseOf};
use crate::cursor::CursorKey;
pub(super) use crate::cursor::Scope;
use crate::{CallContext, Catalogue, DispatcherConfig, Paging, Service, ToolError};

/// The handler's future for `request`, whose cursor [`open`] has opened
/// into `scope`: the page it answers with has its cursor sealed.
pub(super) fn call<S: Service>(
    service: &Arc<S>,
    request: RequestOf<S>,
    cx: CallContext,
    scope: Option<Box<Scope>>,
) -> impl Future<Output = Result<ResponseOf<S>, ToolError>> + Send + 'static {
    let call = S::call(service, request, cx);
    async move {
        let outcome = call.await;
        match scope {
            Some(scope) => outcome.and_then(|response| seal::<S>(&scope, response)),
            None => outcome,
        }
    }
}

/// The scope of a paged call, its cursor (if it came with one) replaced
/// by the position it was sealed with; `None` for any other call.
///
/// # Errors
/// `INVALID_CURSOR` when the cursor is not one this server issued for the
/// same call; no handler may run then.
pub(super) fn open<S: Service>(
    config: &DispatcherConfig,
    request: &mut RequestOf<S>,
) -> Result<Option<Box<Scope>>, ToolError> {
    let Some(cursor) = S::Catalogue::cursor(request).map(Option::take) else {
        return Ok(None);
    };
    let key = match config.cursor_key {
        Some(key) => key,
        None => CursorKey::process()?,
    };
    // The scope is the call without its cursor: a cursor continues the
    // query it was issued for, and no other.
    let scope = key.scope(request)?;
    if let Some(cursor) = cursor {
        let position = scope.open(&cursor)?;
        if let Some(slot) = S::Catalogue::cursor(request) {
            *slot = Some(position);
        }
    }
    Ok(Some(Box::new(scope)))
}

/// The response with its next position sealed into a cursor.
///
/// # Errors
/// `INTERNAL` when the handler's `paging` contradicts itself: more pages
/// without a cursor to them, or a cursor after the last page.
fn seal<S: Service>(
    scope: &Scope,
    mut response: ResponseOf<S>,
) -> Result<ResponseOf<S>, ToolError> {
    let Some(paging) = S::Catalogue::paging(&mut response) else {
        return Ok(response);
    };
    let Paging { cursor, more } = paging;
    match (cursor.take(), *more) {
        (Some(position), true) => *cursor = Some(scope.seal(&position)),
        (None, false) => {}
        (None, true) => {
            return Err(ToolError::internal(
                "the handler said more pages follow but gave no cursor to them \
                 (`Paging::next(position)` gives both)",
            ));
        }
        (Some(_), false) => {
            return Err(ToolError::internal(
                "the handler gave a cursor but said no page follows \
                 (`Paging::last()` ends the pages)",
            ));
        }
    }
    Ok(response)
}
