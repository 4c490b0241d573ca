//! The `LanguageServer` implementation: capabilities, document
//! notifications, and every request routed to its handler — registered
//! here, in one place. A panic inside a handler is caught, logged to the
//! client and answered as an internal error; the server keeps serving.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ropey::Rope;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer};

use super::handlers;
use super::position::Encoding;
use super::progress;
use super::state::{Severities, State};
use crate::check::Defaults;

/// What was last published per document. Its lock serialises publishing,
/// so an older analysis can never overwrite a newer one.
type Published = Arc<tokio::sync::Mutex<HashMap<Url, Shown>>>;

/// The last complete publish of a document: its revision, and the text and
/// checker diagnostics that syntax-first publishes carry over.
struct Shown {
    revision: u64,
    rope: Rope,
    semantic: Vec<crate::diagnostic::Diagnostic>,
}

pub struct Server {
    client: Client,
    state: Arc<State>,
    published: Published,
    /// Whether the client answers `workspace/configuration`.
    configuration: AtomicBool,
}

impl Server {
    pub fn new(client: Client) -> Server {
        Server {
            client,
            state: Arc::new(State::default()),
            published: Published::default(),
            configuration: AtomicBool::new(false),
        }
    }

    /// Runs a handler on a blocking thread, over the documents as they are
    /// when the request arrives (edits that come in meanwhile do not change
    /// what it answers), turning a panic into a logged internal error. The
    /// async threads stay free for edits: a request may have to wait for
    /// the analysis of a large file.
    async fn request<T: Send + 'static>(
        &self,
        method: &'static str,
        handler: impl FnOnce(&State) -> T + Send + 'static,
    ) -> Result<T> {
        let pinned = self.state.pinned();
        let outcome = tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(|| handler(&pinned)))).await;
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                let message = format!("dyno: internal error in {method}: {what}");
                self.client.log_message(MessageType::ERROR, message).await;
                Err(Error::internal_error())
            }
            Err(_) => Err(Error::internal_error()), // the runtime is shutting down
        }
    }

    /// What is reported changed for every document (a setting).
    async fn diagnostics_changed(&self) {
        republish(self.client.clone(), self.state.clone(), self.published.clone()).await;
    }

    /// Asks the client for the `dyno` section and applies it, in the
    /// background (a notification must not wait for the client's answer).
    fn fetch_settings(&self) {
        let (client, state, published) = (self.client.clone(), self.state.clone(), self.published.clone());
        tokio::spawn(async move {
            let item = ConfigurationItem {
                scope_uri: None,
                section: Some("dyno".into()),
            };
            let Ok(values) = client.configuration(vec![item]).await else {
                return;
            };
            // No settings at all reads as an empty section.
            let section = values.into_iter().next().unwrap_or_default();
            let empty = serde_json::Value::Object(Default::default());
            let section = if section.is_object() { section } else { empty };
            if apply_settings(&client, &state, &section, Read::Complete).await {
                republish(client, state, published).await;
            }
        });
    }

    /// The first pull of a document: what was pushed for it is cleared,
    /// so the client does not show it twice. Later pushes skip it (see
    /// `publish`, which checks under the same lock).
    async fn stop_pushing(&self, uris: Vec<Url>) {
        let mut published = self.published.lock().await;
        for uri in uris {
            published.remove(&uri);
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    /// Publishes the diagnostics of `revision` in the background. The
    /// notification returns at once: tower-lsp runs at most four handlers
    /// at a time, so awaiting the analysis here would queue the next edits
    /// and requests behind it.
    fn refresh(&self, uri: Url, revision: u64) {
        let (client, state, published) = (self.client.clone(), self.state.clone(), self.published.clone());
        tokio::spawn(publish(client, state, published, uri, revision));
    }

    /// Documents whose schema changed with another file (a folder's): each
    /// is published again at its current revision; a client that pulls is
    /// asked to pull again.
    fn refresh_others(&self, uris: Vec<Url>) {
        if uris.is_empty() {
            return;
        }
        let mut pulled = false;
        for uri in uris {
            pulled |= self.state.is_pulled(&uri);
            if let Some(revision) = self.state.documents.revision(&uri) {
                self.refresh(uri, revision);
            }
        }
        if pulled && self.state.diagnostic_refresh() {
            let client = self.client.clone();
            tokio::spawn(async move { client.workspace_diagnostic_refresh().await });
        }
        refresh_views(&self.client, &self.state);
    }
}

/// Asks the client to request its code lenses and inlay hints again (they
/// show costs, which a setting or another file of a folder changes), when
/// it takes those requests; otherwise it asks at its next edit or scroll.
fn refresh_views(client: &Client, state: &State) {
    if state.lens_refresh() {
        let client = client.clone();
        tokio::spawn(async move { client.code_lens_refresh().await });
    }
    if state.inlay_refresh() {
        let client = client.clone();
        tokio::spawn(async move { client.inlay_hint_refresh().await });
    }
}

/// What is reported changed for every document (a setting): pushed
/// documents are published again, and a client that pulls is asked to pull
/// again when it takes that request.
async fn republish(client: Client, state: Arc<State>, published: Published) {
    refresh_views(&client, &state);
    let mut shown = published.lock().await;
    // Under the lock, so no publish computed before the change lands after
    // the clear (see `publish`).
    state.bump_settings_generation();
    shown.clear();
    drop(shown);
    for uri in state.documents.uris() {
        if let Some(revision) = state.documents.revision(&uri) {
            tokio::spawn(publish(client.clone(), state.clone(), published.clone(), uri, revision));
        }
    }
    if state.any_pulled() && state.diagnostic_refresh() {
        tokio::spawn(async move {
            let _ = client.workspace_diagnostic_refresh().await;
        });
    }
}

/// Applies the `dyno` settings section: `diffAgainstHead`, `severity` and
/// `defaults`, from the initialization options or later. A complete section
/// (the client's answer to `workspace/configuration`) without `severity` or
/// `defaults` clears the overrides; a pushed one (`didChangeConfiguration`)
/// leaves them. Returns whether what is reported
/// may have changed; entries that are no severity are logged.
async fn apply_settings(client: &Client, state: &State, section: &serde_json::Value, read: Read) -> bool {
    let complete = read == Read::Complete;
    let mut changed = false;
    if let Some(on) = diff_against_head(Some(section)) {
        state.set_diff_against_head(on);
        changed = true;
    }
    let severity = match section.get("severity") {
        Some(severity) => Some(Severities::read(severity)),
        None if complete => Some((Severities::default(), Vec::new())),
        None => None,
    };
    if let Some((severities, unread)) = severity {
        changed |= state.set_severities(severities);
        if !unread.is_empty() {
            let message = format!(
                "dyno: ignored in dyno.severity (use off, error, warning, information or hint): {}",
                unread.join(", ")
            );
            client.log_message(MessageType::WARNING, message).await;
        }
    }
    if read != Read::Initialization && section.get("positionEncoding").is_some() {
        // The protocol fixes the encoding in `initialize`.
        let message =
            "dyno: positionEncoding is read from the initialization options only; restart the server to change it";
        client.log_message(MessageType::INFO, message).await;
    }
    let defaults = match section.get("defaults") {
        Some(defaults) => Some(Defaults::default().read(defaults)),
        None if complete => Some((Defaults::default(), Vec::new())),
        None => None,
    };
    if let Some((defaults, unread)) = defaults {
        changed |= state.documents.set_defaults(defaults);
        if !unread.is_empty() {
            let message = format!("dyno: ignored in dyno.defaults: {}", unread.join("; "));
            client.log_message(MessageType::WARNING, message).await;
        }
    }
    changed
}

/// Where a settings section comes from, which says what it leaves out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// `initializationOptions`: read before anything else, and the one
    /// place `positionEncoding` is taken (by `negotiate_encoding`).
    Initialization,
    /// The client's answer to `workspace/configuration`: what it leaves out
    /// goes back to none.
    Complete,
    /// Pushed with `didChangeConfiguration`: what it leaves out stays.
    Pushed,
}

/// Analyses the current revision off the async threads and publishes its
/// diagnostics — unless a newer revision arrived meanwhile (its own refresh
/// publishes then) or the document was closed.
async fn publish(client: Client, state: Arc<State>, published: Published, uri: Url, revision: u64) {
    if state.documents.revision(&uri) != Some(revision) || state.is_pulled(&uri) {
        return; // superseded before its analysis started, or the client pulls
    }
    // The settings this publish starts under: a change of them meanwhile
    // republishes, and this one must not land after that one.
    let settings = state.settings_generation();
    // Small files analyse in milliseconds: they always get one complete
    // publish per version, never a partial one first.
    let large = state
        .documents
        .text(&uri)
        .is_some_and(|(rope, ..)| rope.len_bytes() >= SYNTAX_FIRST_MIN_BYTES);
    // The analysis hands over its syntax errors as soon as it has parsed.
    let (parsed, syntax) = tokio::sync::oneshot::channel();
    let analysed = state.clone();
    let target = uri.clone();
    // Told to the client if the analysis takes a while; ends when it lands.
    let report = progress::Report::after(&client, state.work_done_progress(), &uri);
    let mut analysis = tokio::task::spawn_blocking(move || {
        catch_unwind(AssertUnwindSafe(|| {
            // Typing faster than a large file is checked: the check of an
            // earlier revision may still run. This one starts from it, or,
            // superseded meanwhile, leaves the work to the next revision's.
            analysed.documents.wait_for_check(&target);
            if analysed.documents.revision(&target) != Some(revision) {
                return None;
            }
            let snapshot = analysed.documents.snapshot_with(&target, |rope, syntax| {
                if large {
                    let _ = parsed.send((rope.clone(), syntax.to_vec()));
                }
            })?;
            // Superseded while it was checked: let go of it at once, for
            // the next revision's check to take rather than copy.
            if analysed.documents.revision(&target) != Some(snapshot.revision) {
                return None;
            }
            let diagnostics = handlers::diagnostics::all(&analysed, &snapshot);
            let shown = Shown {
                revision: snapshot.revision,
                semantic: handlers::diagnostics::semantic(&snapshot),
                rope: snapshot.rope,
            };
            Some((shown, snapshot.version, diagnostics))
        }))
    });
    let computed = tokio::select! {
        computed = &mut analysis => computed,
        _ = tokio::time::sleep(SYNTAX_FIRST_AFTER), if large => {
            // The analysis is slow (a large file): show the syntax errors of
            // this version as soon as they are known, the rest when the
            // analysis lands. (No syntax errors come when another request
            // is analysing this revision: then the analysis alone counts.)
            tokio::select! {
                biased;
                computed = &mut analysis => computed,
                Ok((rope, syntax)) = syntax => {
                    publish_syntax_first(&client, &state, &published, &uri, revision, &rope, &syntax).await;
                    analysis.await
                }
            }
        }
    };
    report.finish();
    let (shown, version, diagnostics) = match computed {
        Ok(Ok(Some(computed))) => computed,
        Ok(Ok(None)) => return, // closed or superseded meanwhile
        Ok(Err(_)) | Err(_) => {
            client
                .log_message(MessageType::ERROR, format!("dyno: could not analyse {uri}"))
                .await;
            return;
        }
    };
    let mut published = published.lock().await;
    let revision = shown.revision;
    if state.documents.revision(&uri) != Some(revision)
        || published.get(&uri).is_some_and(|s| s.revision >= revision)
        || state.is_pulled(&uri)
        || state.settings_generation() != settings
    {
        return; // stale, already published, pulled by the client now, or under old settings
    }
    published.insert(uri.clone(), shown);
    client.publish_diagnostics(uri, diagnostics, Some(version)).await;
}

/// How long the full analysis may take before the syntax errors are
/// published on their own.
const SYNTAX_FIRST_AFTER: std::time::Duration = std::time::Duration::from_millis(50);
/// Documents smaller than this never get a syntax-only publish.
const SYNTAX_FIRST_MIN_BYTES: usize = 64 * 1024;

async fn publish_syntax_first(
    client: &Client,
    state: &State,
    published: &Published,
    uri: &Url,
    revision: u64,
    rope: &Rope,
    syntax: &[crate::diagnostic::Diagnostic],
) {
    let published = published.lock().await;
    // Never over a complete publish of this revision or a newer one.
    let Some((_, version, current)) = state.documents.text(uri) else {
        return;
    };
    let previous = published.get(uri);
    if current != revision || previous.is_some_and(|s| s.revision >= revision) || state.is_pulled(uri) {
        return;
    }
    let encoding = state.encoding();
    let diagnostics = catch_unwind(AssertUnwindSafe(|| {
        let previous = previous.map(|s| (&s.rope, s.semantic.as_slice()));
        handlers::diagnostics::syntax_first(uri, rope, syntax, previous, encoding, &state.severities())
    }))
    .unwrap_or_default();
    client
        .publish_diagnostics(uri.clone(), diagnostics, Some(version))
        .await;
}

/// The `diffAgainstHead` setting in the initialization options or the
/// `dyno` section of the settings, when given.
fn diff_against_head(options: Option<&serde_json::Value>) -> Option<bool> {
    options?.get("diffAgainstHead")?.as_bool()
}

/// UTF-8 when the client offers it (offsets are byte offsets then, no
/// conversion), else UTF-16, which every client must take. The
/// `positionEncoding` initialization option (`"utf-16"`) keeps UTF-16 for
/// a client that offers UTF-8 but has plugins that count in UTF-16.
fn negotiate_encoding(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    let preferred = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("positionEncoding"))
        .and_then(|e| e.as_str());
    match offered {
        _ if preferred == Some("utf-16") => Encoding::Utf16,
        Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            retrigger_characters: None,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                ["{", "\"", "#", ".", ":", "(", " "]
                    .iter()
                    .map(|c| c.to_string())
                    .collect(),
            ),
            resolve_provider: Some(true),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: handlers::semantic_tokens::legend(),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                range: Some(true),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR_REWRITE]),
            ..CodeActionOptions::default()
        })),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("dyno".into()),
            inter_file_dependencies: false,
            workspace_diagnostics: true,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: crate::ide::code_lens::Action::ALL
                .iter()
                .map(|a| a.command().into())
                .collect(),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        ..ServerCapabilities::default()
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = negotiate_encoding(&params);
        self.state.set_encoding(encoding);
        let completion = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.completion.as_ref());
        let snippets = completion
            .and_then(|c| c.completion_item.as_ref())
            .and_then(|i| i.snippet_support);
        self.state.set_snippets(snippets == Some(true));
        let refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.diagnostic.as_ref())
            .and_then(|d| d.refresh_support);
        self.state.set_diagnostic_refresh(refresh == Some(true));
        let workspace = params.capabilities.workspace.as_ref();
        let lens = workspace
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support);
        let inlay = workspace
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|i| i.refresh_support);
        self.state.set_view_refresh(lens == Some(true), inlay == Some(true));
        let watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration);
        self.state.set_watch_files(watch == Some(true));
        let progress = params.capabilities.window.as_ref().and_then(|w| w.work_done_progress);
        self.state.set_work_done_progress(progress == Some(true));
        let cancel = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.semantic_tokens.as_ref())
            .and_then(|s| s.server_cancel_support);
        self.state.set_semantic_tokens_cancel(cancel == Some(true));
        let document_changes = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes);
        self.state.set_versioned_edits(document_changes == Some(true));
        if let Some(options) = &params.initialization_options {
            apply_settings(&self.client, &self.state, options, Read::Initialization).await;
        }
        let configuration = params.capabilities.workspace.as_ref().and_then(|w| w.configuration);
        self.configuration.store(configuration == Some(true), Ordering::Relaxed);
        let mut folders: Vec<_> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| f.uri.to_file_path().ok())
            .collect();
        #[allow(deprecated)] // older clients send only rootUri
        if folders.is_empty()
            && let Some(root) = params.root_uri.as_ref().and_then(|u| u.to_file_path().ok())
        {
            folders.push(root);
        }
        if let Ok(mut current) = self.state.workspace_folders.lock() {
            *current = folders;
        }
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "dyno".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
    }

    /// A client that answers `workspace/configuration` is asked for the
    /// `dyno` section now.
    async fn initialized(&self, _: InitializedParams) {
        if self.configuration.load(Ordering::Relaxed) {
            self.fetch_settings();
        }
        if self.state.watch_files() {
            // A schema folder's files that are not open, and `dyno.json`
            // (which makes a folder one schema), as they change on disk.
            let watchers = ["**/*.dyno", "**/dyno.json"]
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String(glob.into()),
                    kind: None,
                })
                .to_vec();
            let registration = Registration {
                id: "dyno/watch".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions { watchers }).ok(),
            };
            let client = self.client.clone();
            tokio::spawn(async move { client.register_capability(vec![registration]).await });
        }
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    // Document notifications apply their edit before any `.await`.

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let (revision, others) = self.state.documents.open(doc.uri.clone(), &doc.text, doc.version);
        self.refresh(doc.uri, revision);
        self.refresh_others(others);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let applied = self.state.documents.change(
            &uri,
            params.text_document.version,
            &params.content_changes,
            self.state.encoding(),
        );
        if let Some((revision, others)) = applied {
            self.refresh(uri, revision);
            self.refresh_others(others);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let Some(others) = self.state.documents.close(&uri) else {
            return; // never opened: nothing to clear
        };
        self.refresh_others(others);
        self.state.forget_semantic_tokens(&uri);
        let mut published = self.published.lock().await;
        published.remove(&uri);
        // Unless it was reopened meanwhile: then its own refresh publishes.
        if self.state.documents.revision(&uri).is_none() {
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    /// `{"dyno": {"diffAgainstHead": true}}`: the setting changed; every
    /// open document is published again with (or without) the comparison.
    /// `{"dyno": {...}}` pushed with the notification is applied as it
    /// is; without it (clients that expect to be asked) the section is
    /// fetched with `workspace/configuration` when the client takes that.
    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let Some(section) = params.settings.get("dyno") else {
            if self.configuration.load(Ordering::Relaxed) {
                self.fetch_settings();
            }
            return;
        };
        if apply_settings(&self.client, &self.state, section, Read::Pushed).await {
            self.diagnostics_changed().await;
        }
    }

    /// A file of a schema folder (or a `dyno.json`) changed on disk: the
    /// folders of the open documents are read again, off the async threads.
    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        let state = self.state.clone();
        let Ok(others) = tokio::task::spawn_blocking(move || state.documents.disk_changed()).await else {
            return;
        };
        self.refresh_others(others);
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        if let Ok(mut folders) = self.state.workspace_folders.lock() {
            let removed: Vec<_> = params
                .event
                .removed
                .iter()
                .filter_map(|f| f.uri.to_file_path().ok())
                .collect();
            folders.retain(|f| !removed.contains(f));
            folders.extend(params.event.added.iter().filter_map(|f| f.uri.to_file_path().ok()));
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.request("hover", |state| handlers::hover::handle(state, params))
            .await
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        self.request("definition", |state| handlers::definition::handle(state, params))
            .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.request("references", |state| handlers::references::handle(state, params))
            .await
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        self.request("documentHighlight", |state| {
            handlers::document_highlight::handle(state, params)
        })
        .await
    }

    async fn selection_range(&self, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
        self.request("selectionRange", |state| {
            handlers::selection_range::handle(state, params)
        })
        .await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        self.request("signatureHelp", |state| handlers::signature_help::handle(state, params))
            .await
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        self.request("prepareRename", |state| handlers::rename::prepare(state, params))
            .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.request("rename", |state| handlers::rename::handle(state, params))
            .await?
            .map_err(Error::invalid_params)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.request("completion", |state| handlers::completion::handle(state, params))
            .await
    }

    async fn completion_resolve(&self, item: CompletionItem) -> Result<CompletionItem> {
        let fallback = item.clone();
        Ok(self
            .request("completionItem/resolve", |state| {
                handlers::completion::resolve(state, item)
            })
            .await
            .unwrap_or(fallback))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        self.request("documentSymbol", |state| {
            handlers::document_symbol::handle(state, params)
        })
        .await
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<Vec<SymbolInformation>>> {
        self.request("workspace/symbol", |state| {
            handlers::workspace_symbol::handle(state, params)
        })
        .await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        self.request("semanticTokens/full", |state| {
            handlers::semantic_tokens::handle(state, params)
        })
        .await?
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        self.request("semanticTokens/full/delta", |state| {
            handlers::semantic_tokens_delta::handle(state, params)
        })
        .await?
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.request("semanticTokens/range", |state| {
            handlers::semantic_tokens_range::handle(state, params)
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.request("foldingRange", |state| handlers::folding_range::handle(state, params))
            .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.request("formatting", |state| handlers::formatting::handle(state, params))
            .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.request("codeAction", |state| handlers::code_action::handle(state, params))
            .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.request("inlayHint", |state| handlers::inlay_hint::handle(state, params))
            .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        self.request("codeLens", |state| handlers::code_lens::handle(state, params))
            .await
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri.clone();
        let first = self.state.mark_pulled(&uri);
        let report = self
            .request("textDocument/diagnostic", |state| {
                handlers::document_diagnostic::handle(state, params)
            })
            .await;
        if first {
            self.stop_pushing(vec![uri]).await;
        }
        report
    }

    async fn workspace_diagnostic(&self, params: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        let first: Vec<Url> = self
            .state
            .documents
            .uris()
            .into_iter()
            .filter(|uri| self.state.mark_pulled(uri))
            .collect();
        let report = self
            .request("workspace/diagnostic", |state| {
                handlers::workspace_diagnostic::handle(state, params)
            })
            .await;
        self.stop_pushing(first).await;
        report
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<serde_json::Value>> {
        self.request("workspace/executeCommand", |state| {
            handlers::execute_command::handle(state, params)
        })
        .await?
        .map_err(Error::invalid_params)
    }
}
