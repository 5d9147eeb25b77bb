//! `toolwright lsp`: the Language Server Protocol over stdio, on
//! rust-analyzer's `lsp-server` (a synchronous message loop, no async
//! runtime) with `lsp-types`.
//!
//! Every edit re-checks the edited file's catalogue with the same checker
//! as `toolwright check` and publishes its errors (or, once there are
//! none, its warnings) for every file of the catalogue. Hover, go to
//! definition, find references, rename (of types), completion and
//! formatting read that check.

mod complete;
mod navigate;
mod position;
mod workspace;

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, Formatting, GotoDefinition, HoverRequest, PrepareRenameRequest, References, Rename,
    Request as _,
};
use lsp_types::{
    CompletionOptions, CompletionParams, CompletionResponse, DiagnosticRelatedInformation,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentFormattingParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, InitializeResult, MarkupContent, MarkupKind,
    NumberOrString, OneOf, PositionEncodingKind, PrepareRenameResponse, PublishDiagnosticsParams,
    ReferenceParams, RenameOptions, RenameParams, ServerCapabilities, ServerInfo,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
    WorkspaceEdit,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::diag::Severity;
use crate::model::TypeDef;
use crate::source::{FileId, Span};
use position::Encoding;
use workspace::{Analysis, Workspace};

/// A failure of the connection itself (not of a request).
pub type LspError = Box<dyn Error + Send + Sync>;

/// Serves one editor on stdin and stdout until it says `exit`.
pub fn run_stdio() -> Result<(), LspError> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// Serves one editor on `connection`: the handshake, then every message
/// until `shutdown` and `exit`.
pub fn serve(connection: &Connection) -> Result<(), LspError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let encoding = negotiate(&params);
    let result = InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(ServerInfo {
            name: "toolwright".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    let mut server = Server {
        connection,
        workspace: Workspace::new(true),
        encoding,
        published: BTreeMap::new(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                server.request(request)?;
            }
            Message::Notification(notification) => server.notification(notification)?,
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// UTF-8 columns when the client offers them (no conversion), else UTF-16.
fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|o| o.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["@".into(), ":".into(), "<".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

struct Server<'c> {
    connection: &'c Connection,
    workspace: Workspace,
    encoding: Encoding,
    /// The files each catalogue root last published diagnostics for, so a
    /// file that left the catalogue is cleared.
    published: BTreeMap<PathBuf, Vec<PathBuf>>,
}

/// A request's failure, answered as a JSON-RPC error.
struct Refusal(ErrorCode, String);

impl Server<'_> {
    fn notification(&mut self, notification: Notification) -> Result<(), LspError> {
        let roots = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let params: DidOpenTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                let Some(path) = position::path(&params.text_document.uri) else {
                    return Ok(());
                };
                vec![self.workspace.set_text(&path, params.text_document.text)]
            }
            DidChangeTextDocument::METHOD => {
                let params: DidChangeTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                let Some(path) = position::path(&params.text_document.uri) else {
                    return Ok(());
                };
                // Full sync: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().next_back() else {
                    return Ok(());
                };
                vec![self.workspace.set_text(&path, change.text)]
            }
            DidCloseTextDocument::METHOD => {
                let params: DidCloseTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                let Some(path) = position::path(&params.text_document.uri) else {
                    return Ok(());
                };
                vec![self.workspace.close(&path)]
            }
            DidChangeWatchedFiles::METHOD => {
                let params: DidChangeWatchedFilesParams =
                    serde_json::from_value(notification.params)?;
                let paths: Vec<PathBuf> = params
                    .changes
                    .iter()
                    .filter_map(|c| position::path(&c.uri))
                    .collect();
                self.workspace.disk_changed(&paths)
            }
            _ => Vec::new(),
        };
        for root in roots {
            self.publish(&root)?;
        }
        Ok(())
    }

    /// Sends the diagnostics of every file of the catalogue at `root`.
    fn publish(&mut self, root: &Path) -> Result<(), LspError> {
        let Some(catalogue) = self.workspace.catalogue(root) else {
            return Ok(());
        };
        let analysis = &catalogue.analysis;
        let mut per_file: HashMap<FileId, Vec<lsp_types::Diagnostic>> = HashMap::new();
        for d in &analysis.diagnostics {
            if let Some(converted) = self.convert(analysis, d) {
                per_file
                    .entry(d.primary.span.file)
                    .or_default()
                    .push(converted);
            }
        }
        let mut now = Vec::new();
        for (file, _) in analysis.sources.iter() {
            let Some(path) = analysis.path(file) else {
                continue;
            };
            now.push(path.to_owned());
            let diagnostics = per_file.remove(&file).unwrap_or_default();
            self.send_diagnostics(path, diagnostics)?;
        }
        let before = self
            .published
            .insert(root.to_owned(), now.clone())
            .unwrap_or_default();
        for gone in before.iter().filter(|p| !now.contains(p)) {
            self.send_diagnostics(gone, Vec::new())?;
        }
        Ok(())
    }

    fn send_diagnostics(
        &self,
        path: &Path,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) -> Result<(), LspError> {
        let Some(uri) = position::uri(path) else {
            return Ok(());
        };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        self.connection
            .sender
            .send(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.to_owned(),
                params,
            )))?;
        Ok(())
    }

    fn convert(&self, analysis: &Analysis, d: &crate::Diagnostic) -> Option<lsp_types::Diagnostic> {
        analysis.path(d.primary.span.file)?;
        let mut message = d.message.clone();
        if !d.primary.message.is_empty() {
            message.push_str(&format!(" ({})", d.primary.message));
        }
        for note in &d.notes {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let related = d
            .secondary
            .iter()
            .filter_map(|label| {
                Some(DiagnosticRelatedInformation {
                    location: self.location(analysis, label.span)?,
                    message: if label.message.is_empty() {
                        "related".to_owned()
                    } else {
                        label.message.clone()
                    },
                })
            })
            .collect();
        Some(lsp_types::Diagnostic {
            range: self.range(analysis, d.primary.span),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.as_str().to_owned())),
            source: Some("toolwright".to_owned()),
            message,
            related_information: Some(related),
            ..lsp_types::Diagnostic::default()
        })
    }

    fn range(&self, analysis: &Analysis, span: Span) -> lsp_types::Range {
        let text = analysis.sources.get(span.file).text();
        position::range(text, span.range(), self.encoding)
    }

    fn location(&self, analysis: &Analysis, span: Span) -> Option<lsp_types::Location> {
        let uri = position::uri(analysis.path(span.file)?)?;
        Some(lsp_types::Location {
            uri,
            range: self.range(analysis, span),
        })
    }

    fn request(&mut self, request: Request) -> Result<(), LspError> {
        let id = request.id.clone();
        let answer = match request.method.as_str() {
            HoverRequest::METHOD => self.answer(request, Self::hover),
            GotoDefinition::METHOD => self.answer(request, Self::definition),
            References::METHOD => self.answer(request, Self::references),
            PrepareRenameRequest::METHOD => self.answer(request, Self::prepare_rename),
            Rename::METHOD => self.answer(request, Self::rename),
            Completion::METHOD => self.answer(request, Self::completion),
            Formatting::METHOD => self.answer(request, Self::formatting),
            method => Err(Refusal(
                ErrorCode::MethodNotFound,
                format!("`{method}` is not served"),
            )),
        };
        let response = match answer {
            Ok(value) => Response::new_ok(id, value),
            Err(Refusal(code, message)) => Response::new_err(id, code as i32, message),
        };
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn answer<P: DeserializeOwned, R: Serialize>(
        &self,
        request: Request,
        handler: fn(&Self, P) -> Result<R, Refusal>,
    ) -> Result<serde_json::Value, Refusal> {
        let params: P = serde_json::from_value(request.params)
            .map_err(|e| Refusal(ErrorCode::InvalidParams, e.to_string()))?;
        let result = handler(self, params)?;
        serde_json::to_value(result).map_err(|e| Refusal(ErrorCode::InternalError, e.to_string()))
    }

    /// The catalogue, file and byte offset of a position in an open file.
    fn at(&self, params: &TextDocumentPositionParams) -> Option<(&Analysis, FileId, usize)> {
        let path = position::path(&params.text_document.uri)?;
        let analysis = &self.workspace.catalogue_of(&path)?.analysis;
        let file = analysis.file(&path)?;
        let text = analysis.sources.get(file).text();
        Some((
            analysis,
            file,
            position::offset(text, params.position, self.encoding),
        ))
    }

    /// The identifier at a position, with its catalogue and span.
    fn ident(&self, params: &TextDocumentPositionParams) -> Option<(&Analysis, String, Span)> {
        let (analysis, file, offset) = self.at(params)?;
        let (ident, span) = navigate::identifier_at(&analysis.sources, file, offset)?;
        Some((analysis, ident, span))
    }

    /// The declared type named at a position, when the catalogue checks.
    fn declared(&self, params: &TextDocumentPositionParams) -> Option<(&Analysis, &TypeDef)> {
        let (analysis, ident, _) = self.ident(params)?;
        let def = navigate::declared_type(analysis.model.as_ref()?, &ident)?;
        Some((analysis, def))
    }

    fn hover(&self, params: HoverParams) -> Result<Option<Hover>, Refusal> {
        let Some((analysis, ident, span)) = self.ident(&params.text_document_position_params)
        else {
            return Ok(None);
        };
        Ok(navigate::hover(analysis, &ident, span).map(|value| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(self.range(analysis, span)),
        }))
    }

    fn definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>, Refusal> {
        let Some((analysis, def)) = self.declared(&params.text_document_position_params) else {
            return Ok(None);
        };
        let span = analysis.sources.name_span(def.location);
        Ok(self
            .location(analysis, span)
            .map(GotoDefinitionResponse::Scalar))
    }

    fn references(
        &self,
        params: ReferenceParams,
    ) -> Result<Option<Vec<lsp_types::Location>>, Refusal> {
        let Some((analysis, def)) = self.declared(&params.text_document_position) else {
            return Ok(None);
        };
        let declaration = analysis.sources.name_span(def.location);
        let locations = navigate::references(analysis, &def.name)
            .into_iter()
            .filter(|span| params.context.include_declaration || *span != declaration)
            .filter_map(|span| self.location(analysis, span))
            .collect();
        Ok(Some(locations))
    }

    fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>, Refusal> {
        let Some((analysis, ident, span)) = self.ident(&params) else {
            return Ok(None);
        };
        let model = checked_for_rename(analysis)?;
        if navigate::declared_type(model, &ident).is_none() {
            return Err(Refusal(
                ErrorCode::RequestFailed,
                "only types can be renamed: other names are on the wire, and clients call them"
                    .to_owned(),
            ));
        }
        Ok(Some(PrepareRenameResponse::Range(
            self.range(analysis, span),
        )))
    }

    fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>, Refusal> {
        let Some((analysis, ident, _)) = self.ident(&params.text_document_position) else {
            return Ok(None);
        };
        let failed = |message: String| Refusal(ErrorCode::RequestFailed, message);
        let model = checked_for_rename(analysis)?;
        if navigate::declared_type(model, &ident).is_none() {
            return Err(failed(format!("`{ident}` is not a declared type")));
        }
        if let Some(problem) = navigate::rename_problem(model, &params.new_name) {
            return Err(failed(problem));
        }
        // `WorkspaceEdit::changes` is keyed by `Uri`, whose hash and
        // equality read only its text (lsp-types), never its cached parts.
        #[allow(clippy::mutable_key_type)]
        let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
        for span in navigate::references(analysis, &ident) {
            if let Some(location) = self.location(analysis, span) {
                changes.entry(location.uri).or_default().push(TextEdit {
                    range: location.range,
                    new_text: params.new_name.clone(),
                });
            }
        }
        Ok(Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }))
    }

    fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>, Refusal> {
        let Some((analysis, file, offset)) = self.at(&params.text_document_position) else {
            return Ok(None);
        };
        let text = analysis.sources.get(file).text();
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let items = complete::complete(analysis.model.as_ref(), &text[line_start..offset]);
        Ok(Some(CompletionResponse::Array(items)))
    }

    fn formatting(
        &self,
        params: DocumentFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>, Refusal> {
        let Some(path) = position::path(&params.text_document.uri) else {
            return Ok(None);
        };
        let Some(analysis) = self.workspace.catalogue_of(&path).map(|c| &c.analysis) else {
            return Ok(None);
        };
        let Some(file) = analysis.file(&path) else {
            return Ok(None);
        };
        let text = analysis.sources.get(file).text();
        let mut one = crate::Sources::new();
        let id = one.add(path.to_string_lossy().into_owned(), text.as_bytes());
        // A file that does not parse is left alone; its errors are shown.
        let Ok(formatted) = crate::format_file(&one, id) else {
            return Ok(None);
        };
        if formatted == text {
            return Ok(Some(Vec::new()));
        }
        Ok(Some(vec![TextEdit {
            range: position::range(text, 0..text.len(), self.encoding),
            new_text: formatted,
        }]))
    }
}

/// The model a rename works on: none while the catalogue has errors.
fn checked_for_rename(analysis: &Analysis) -> Result<&crate::Model, Refusal> {
    analysis.model.as_ref().ok_or_else(|| {
        Refusal(
            ErrorCode::RequestFailed,
            "the catalogue has errors; fix them before renaming".to_owned(),
        )
    })
}
