//! Studio: an example Toolwright service over the reference catalogue.
//!
//! It implements a handful of tools for real — `add` and `multiply`, a
//! content-addressed store (`cas_store`, `cas_get`, `cas_inspect`) on disk,
//! and `orpheus_generate`, an `async_long` tool that streams progress and
//! MIDI fragments and stops promptly when cancelled — and answers every
//! other tool of the catalogue with `NOT_IMPLEMENTED`. Its resources and
//! prompts are all served ([`library`]).

pub mod cas;
pub mod library;
pub mod midi;

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use toolwright::entry::{
    Completion, CompletionRequest, PromptMessages, ResourceContents, ResourceUpdates,
};
use toolwright::{Bytes, Context, ToolError};

use crate::cas::Cas;

toolwright::include_tools!();

/// The service: its state is the content store.
#[derive(Debug)]
pub struct Studio {
    cas: Cas,
    step: Duration,
    /// Where it says `cas://index` changed.
    updates: ResourceUpdates,
}

impl Studio {
    /// A studio storing content under `data_dir`.
    ///
    /// # Errors
    /// When the store's directories cannot be created.
    pub fn open(data_dir: impl Into<PathBuf>) -> io::Result<Studio> {
        Ok(Studio {
            cas: Cas::open(data_dir, 256 * 1024 * 1024)?,
            step: Duration::from_millis(25),
            updates: ResourceUpdates::new(),
        })
    }

    /// The channel its resources' updates go through, for its dispatcher
    /// (`Dispatcher::with_resource_updates`).
    pub fn resource_updates(&self) -> ResourceUpdates {
        self.updates.clone()
    }

    /// Sets how long the generator spends on each step (tests shorten it).
    #[must_use]
    pub fn with_step(mut self, step: Duration) -> Studio {
        self.step = step;
        self
    }

    fn check_hash(hash: &str) -> Result<(), CasError> {
        if Cas::is_valid_hash(hash) {
            Ok(())
        } else {
            Err(CasError::InvalidHash {
                hash: hash.to_owned(),
            })
        }
    }
}

pub(crate) fn storage_failed(e: &io::Error) -> CasError {
    if e.kind() == io::ErrorKind::StorageFull {
        CasError::DiskFull {}
    } else {
        CasError::StorageFailed {
            message: e.to_string(),
        }
    }
}

// Every tool of the catalogue needs a handler or a place in this list, so a
// tool added to the IDL is a compile error here until it is served.
#[toolwright::tools(not_implemented(
    abc_parse,
    abc_validate,
    abc_transpose,
    abc_to_midi,
    ping,
    list_tools,
    add_annotation,
    list_annotations,
    artifact_upload,
    artifact_create,
    artifact_get,
    artifact_list,
    midi_to_wav,
    audio_convert,
    audio_info,
    midi_info,
    beatthis_analyze,
    cas_upload_file,
    cas_stats,
    clap_analyze,
    code,
    config_get,
    config_list,
    fs,
    garden_status,
    garden_play,
    garden_pause,
    garden_stop,
    garden_seek,
    garden_set_tempo,
    garden_emergency_pause,
    garden_get_regions,
    garden_create_region,
    garden_delete_region,
    garden_move_region,
    garden_clear_regions,
    garden_query,
    graph_bind,
    graph_tag,
    graph_connect,
    graph_find,
    graph_query,
    graph_context,
    musicgen_generate,
    net,
    orpheus_continue,
    orpheus_bridge,
    orpheus_loops,
    orpheus_classify,
    proc,
    web_search,
    rag_search,
    soundfont_inspect,
    soundfont_preset_inspect,
    test,
    ui,
    vcs,
    ws,
    yue_generate,
))]
impl Studio {
    #[tool]
    fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_add(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    #[tool]
    fn multiply(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_mul(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    #[tool]
    fn cas_store(&self, request: CasStoreRequest) -> Result<CasStored, CasError> {
        let size = request.data.len() as u64;
        if size > self.cas.max_size() {
            return Err(CasError::TooLarge {
                size,
                limit: self.cas.max_size(),
            });
        }
        let (hash, already_present) = self
            .cas
            .put(&request.data, &request.mime_type)
            .map_err(|e| storage_failed(&e))?;
        if !already_present {
            self.updates.updated(library::INDEX_URI);
        }
        Ok(CasStored {
            hash,
            size,
            mime_type: request.mime_type,
            already_present,
        })
    }

    #[tool]
    fn cas_get(&self, request: CasGetRequest) -> Result<CasContent, CasError> {
        Self::check_hash(&request.hash)?;
        match self
            .cas
            .get(&request.hash)
            .map_err(|e| storage_failed(&e))?
        {
            Some((data, meta)) => Ok(CasContent {
                hash: request.hash,
                size: meta.size,
                mime_type: meta.mime_type,
                data: Bytes(data),
            }),
            None => Err(CasError::NotFound { hash: request.hash }),
        }
    }

    #[tool]
    fn cas_list(&self, request: CasListRequest) -> Result<CasListResponse, CasError> {
        // The position is the last hash of the previous page: a page
        // continues after it even when content was stored in between.
        let after = request.cursor.unwrap_or_default();
        let limit = usize::try_from(request.limit).unwrap_or(usize::MAX);
        let (hashes, more) = self
            .cas
            .list(&request.prefix, &after, limit)
            .map_err(|e| storage_failed(&e))?;
        let paging = match hashes.last() {
            Some(last) if more => Paging::next(last.clone()),
            _ => Paging::last(),
        };
        Ok(CasListResponse { hashes, paging })
    }

    #[tool]
    fn cas_inspect(&self, request: CasInspectRequest) -> Result<CasInspected, CasError> {
        Self::check_hash(&request.hash)?;
        let Some(meta) = self
            .cas
            .meta(&request.hash)
            .map_err(|e| storage_failed(&e))?
        else {
            return Ok(CasInspected {
                hash: request.hash,
                exists: false,
                size: None,
                mime_type: None,
                preview: None,
            });
        };
        let chars = request.preview_chars as usize;
        let preview = if chars > 0 && meta.mime_type.starts_with("text/") {
            // A UTF-8 character is at most 4 bytes: read enough for `chars`.
            let head = self
                .cas
                .head(&request.hash, chars * 4)
                .map_err(|e| storage_failed(&e))?;
            Some(String::from_utf8_lossy(&head).chars().take(chars).collect())
        } else {
            None
        };
        Ok(CasInspected {
            hash: request.hash,
            exists: true,
            size: Some(meta.size),
            mime_type: Some(meta.mime_type),
            preview,
        })
    }

    #[resource]
    fn cas_object(&self, arguments: CasObjectArguments) -> Result<ResourceContents, CasError> {
        library::object(&self.cas, &arguments.hash)
    }

    #[complete(cas_object.hash)]
    fn object_hashes(&self, request: CompletionRequest) -> Result<Completion, CasError> {
        library::hashes(&self.cas, &request.value)
    }

    #[resource]
    fn cas_index(&self) -> Result<CasIndex, CasError> {
        library::index(&self.cas)
    }

    #[prompt]
    fn cas_describe(&self, arguments: CasDescribeArguments) -> Result<PromptMessages, CasError> {
        library::describe(&self.cas, &arguments.hash, arguments.focus.as_deref())
    }

    #[complete(cas_describe.hash)]
    fn described_hashes(&self, request: CompletionRequest) -> Result<Completion, CasError> {
        library::hashes(&self.cas, &request.value)
    }

    #[prompt]
    fn abc_compose(&self, arguments: AbcComposeArguments) -> Result<PromptMessages, ToolError> {
        Ok(library::compose(&arguments))
    }

    #[complete(abc_compose.mood)]
    fn moods(&self, request: CompletionRequest) -> Completion {
        library::moods(&request.value)
    }

    #[tool]
    async fn orpheus_generate(
        &self,
        request: OrpheusGenerateRequest,
        cx: Context<GenerationChunk>,
    ) -> Result<OrpheusGenerated, OrpheusError> {
        let send = |chunk: GenerationChunk| {
            cx.send(&chunk)
                .map_err(|e| OrpheusError::GenerationFailed { message: e.message })
        };
        send(GenerationChunk::ModelLoaded {})?;
        let steps = (request.max_tokens / 128).clamp(1, 16);
        let total = steps * request.num_variations;
        let mut hashes = Vec::new();
        let mut tokens = Vec::new();
        let mut done = 0;
        for variation in 0..request.num_variations {
            let mut song =
                midi::Song::new(request.seed.unwrap_or(7).wrapping_add(u64::from(variation)));
            for _ in 0..steps {
                // Wait out one step of "inference", or stop at once when
                // the caller cancels: the dispatcher aborts us otherwise.
                tokio::select! {
                    () = tokio::time::sleep(self.step) => {}
                    () = cx.cancelled() => {
                        return Err(OrpheusError::GenerationFailed { message: "cancelled".into() });
                    }
                }
                let events = song.next_bar();
                send(GenerationChunk::PartialMidi {
                    variation,
                    events: Bytes(events),
                })?;
                done += 1;
                let percent = 100.0 * done as f32 / total as f32;
                cx.progress(percent / 100.0);
                send(GenerationChunk::Progress {
                    percent,
                    message: format!(
                        "sampling variation {} of {}",
                        variation + 1,
                        request.num_variations
                    ),
                })?;
            }
            let file = song.into_smf();
            let (hash, _) =
                self.cas
                    .put(&file, "audio/midi")
                    .map_err(|e| OrpheusError::GenerationFailed {
                        message: e.to_string(),
                    })?;
            hashes.push(hash);
            tokens.push(u64::from(steps) * 128);
        }
        let total_tokens = tokens.iter().sum();
        Ok(OrpheusGenerated {
            summary: format!("{} variation(s), {total_tokens} tokens", hashes.len()),
            output_hashes: hashes,
            // This studio keeps no artifact records, only CAS content.
            artifact_ids: Vec::new(),
            tokens_per_variation: tokens,
            total_tokens,
            variation_set_id: request.variation_set_id,
        })
    }
}
