//! `$/progress` for an analysis that takes a while: a client that offers
//! `window.workDoneProgress` is shown "dyno: checking billing.dyno" once an
//! analysis has run for `AFTER`, and the report ends when it lands. Quick
//! analyses (every keystroke on a normal file) never start one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::oneshot;
use tower_lsp::Client;
use tower_lsp::lsp_types::notification::Progress as ProgressNotification;
use tower_lsp::lsp_types::request::WorkDoneProgressCreate;
use tower_lsp::lsp_types::{
    NumberOrString, ProgressParams, ProgressParamsValue, Url, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressCreateParams, WorkDoneProgressEnd,
};

/// How long an analysis runs before the client is told.
pub const AFTER: Duration = Duration::from_millis(200);

static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

/// Reports one analysis; dropping it (or `finish`) ends the report.
pub struct Report {
    done: Option<oneshot::Sender<()>>,
}

impl Report {
    /// Starts the clock for the analysis of `uri`; `None` when the client
    /// takes no progress.
    pub fn after(client: &Client, supported: bool, uri: &Url) -> Report {
        if !supported {
            return Report { done: None };
        }
        let (done, finished) = oneshot::channel();
        let client = client.clone();
        let name = uri
            .path_segments()
            .and_then(|mut s| s.next_back())
            .unwrap_or("schema")
            .to_string();
        tokio::spawn(report(client, name, finished));
        Report { done: Some(done) }
    }

    pub fn finish(mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
    }
}

impl Drop for Report {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
    }
}

async fn report(client: Client, name: String, mut finished: oneshot::Receiver<()>) {
    tokio::select! {
        _ = &mut finished => return,
        () = tokio::time::sleep(AFTER) => {}
    }
    let token = NumberOrString::String(format!("dyno/check/{}", NEXT_TOKEN.fetch_add(1, Ordering::Relaxed)));
    // The client must accept the token before it is used (LSP 3.15).
    let created = client
        .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams { token: token.clone() })
        .await;
    if created.is_err() {
        return;
    }
    let send = |value| {
        client.send_notification::<ProgressNotification>(ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(value),
        })
    };
    send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
        title: format!("dyno: checking {name}"),
        cancellable: Some(false),
        message: None,
        percentage: None,
    }))
    .await;
    let _ = finished.await;
    send(WorkDoneProgress::End(WorkDoneProgressEnd { message: None })).await;
}
