//! `completion/complete` of a mounted prompt's or resource template's
//! argument: the reference as the mounted server names it, its answer
//! passed through.

use rmcp::model::{CompleteRequestParams, CompleteResult, Reference, ResultType};

use super::names::unprefixed_uri;
use super::set::Mounts;
use super::state::Proxied;

impl Mounts {
    /// Completes an argument of the mounted prompt (`ref/prompt`) or
    /// template (`ref/resource`) `request` names; `None` when it is no
    /// mount's, or the mount answers and lists no such prompt.
    pub(crate) async fn complete(
        &self,
        mut request: CompleteRequestParams,
        principal: Option<&crate::Principal>,
    ) -> Option<Result<CompleteResult, Proxied>> {
        let (mounted, asked) = match &request.r#ref {
            Reference::Prompt(prompt) => (self.by_name(&prompt.name)?, prompt.name.clone()),
            Reference::Resource(template) => (self.by_uri(&template.uri)?.0, template.uri.clone()),
            // A kind of reference newer than this server: none of a mount's.
            _ => return None,
        };
        let (state, peer) = match mounted.ready(principal, &asked) {
            Ok(ready) => ready,
            Err(refused) => return Some(Err(refused)),
        };
        match &mut request.r#ref {
            Reference::Prompt(prompt) => {
                prompt.name = state.listing.prompt_names.get(&asked)?.clone()
            }
            Reference::Resource(template) => {
                template.uri = unprefixed_uri(&mounted.prefix, &asked)?;
            }
            _ => return None,
        }
        // A mounted server that does not declare completions has none to
        // give: its arguments are answered as the catalogue answers one it
        // cannot complete, with no values, rather than with an error the
        // client could do nothing about.
        let completes = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.completions.is_some());
        if !completes {
            return Some(Ok(CompleteResult::default()));
        }
        // This request's own metadata (its progress token) is not the
        // mounted request's.
        request.meta = None;
        Some(
            mounted
                .answered(peer.complete(request).await)
                .map(|mut result| {
                    result.result_type = Some(ResultType::COMPLETE);
                    result
                }),
        )
    }
}
