//! A small LSP client for end-to-end tests: spawns the built `dyno lsp`
//! binary and speaks `Content-Length`-framed JSON-RPC over its stdio. A
//! reader thread parses frames from the server's stdout and hands each
//! message over a channel; every wait is bounded by a timeout, nothing
//! sleeps for a fixed time.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub use super::framing::frame;
use super::framing::read_frame;

/// How long any single exchange may take before the test fails. Generous:
/// a debug build on a busy 2-core machine.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct LspClient {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Messages received but not yet taken by a wait.
    pending: VecDeque<Value>,
    /// Every notification the server sent, in arrival order.
    notifications: Vec<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
    /// What requests from the server are answered with, by method (`null`
    /// for any other).
    answers: std::collections::HashMap<String, Value>,
}

impl LspClient {
    /// Starts `dyno lsp` without initializing it.
    pub fn spawn() -> LspClient {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dyno"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn dyno lsp");
        let stdout = child.stdout.take().unwrap();
        let (sender, incoming) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(body)) = read_frame(&mut reader) {
                let value: Value = serde_json::from_slice(&body)
                    .unwrap_or_else(|e| panic!("server sent invalid JSON ({e}): {}", String::from_utf8_lossy(&body)));
                if sender.send(value).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut child_stderr = child.stderr.take().unwrap();
        let collected = stderr.clone();
        thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(n @ 1..) = child_stderr.read(&mut buffer) {
                collected
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        LspClient {
            stdin: child.stdin.take(),
            child,
            incoming,
            pending: VecDeque::new(),
            notifications: Vec::new(),
            stderr,
            next_id: 1,
            answers: Default::default(),
        }
    }

    /// Starts and initializes a server with the given client capabilities
    /// and workspace folders; returns it with the `initialize` result.
    pub fn start_with(capabilities: Value, folders: &[std::path::PathBuf]) -> (LspClient, Value) {
        let mut client = LspClient::spawn();
        let folders: Vec<Value> = folders
            .iter()
            .map(|p| json!({ "uri": file_uri(p), "name": p.file_name().unwrap().to_string_lossy() }))
            .collect();
        let response = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": capabilities,
                "workspaceFolders": if folders.is_empty() { Value::Null } else { Value::Array(folders) },
            }),
        );
        let result = response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("initialize failed: {response}"));
        client.notify("initialized", json!({}));
        (client, result)
    }

    /// An initialized server with default (UTF-16) client capabilities.
    pub fn start() -> LspClient {
        LspClient::start_with(json!({}), &[]).0
    }

    /// Answers the server's later requests of `method` with `result`
    /// (requests are answered as they are read, during any wait).
    pub fn answer(&mut self, method: &str, result: Value) {
        self.answers.insert(method.to_string(), result);
    }

    /// Writes raw bytes to the server's stdin.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        stdin.write_all(bytes).expect("write to dyno lsp");
        stdin.flush().expect("flush to dyno lsp");
    }

    /// Sends one framed JSON value.
    pub fn send(&mut self, message: &Value) {
        self.send_raw(&frame(message.to_string().as_bytes()));
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if !params.is_null() {
            message["params"] = params; // `void` params are left out, not null
        }
        self.send(&message);
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let mut message = json!({ "jsonrpc": "2.0", "method": method });
        if !params.is_null() {
            message["params"] = params;
        }
        self.send(&message);
    }

    /// Sends a request and waits for its whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(&json!(id))
    }

    /// Sends a request and returns its `result`, failing on an error.
    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// The response with this id.
    pub fn response(&mut self, id: &Value) -> Value {
        self.response_within(id, TIMEOUT)
    }

    /// The response with this id, waiting up to `timeout` (a request on a
    /// large file in a debug build).
    pub fn response_within(&mut self, id: &Value, timeout: Duration) -> Value {
        self.wait_for(timeout, &format!("the response to request {id}"), |m| {
            m.get("method").is_none() && m.get("id") == Some(id)
        })
    }

    /// The next response that carries no usable id (`"id": null`), as sent
    /// for frames the server cannot read.
    pub fn null_id_response(&mut self) -> Value {
        self.wait_for(TIMEOUT, "a response with a null id", |m| {
            m.get("method").is_none() && m.get("id") == Some(&Value::Null)
        })
    }

    /// The first notification of `method` satisfying `predicate` (checked
    /// against those already received first); removed from the queue.
    pub fn wait_for_notification(
        &mut self,
        method: &str,
        predicate: impl Fn(&Value) -> bool,
        timeout: Duration,
    ) -> Value {
        self.wait_for(timeout, &format!("a {method} notification"), |m| {
            m.get("id").is_none() && m["method"] == method && predicate(&m["params"])
        })["params"]
            .clone()
    }

    /// The errors the server logged (`window/logMessage` of type Error):
    /// what it says when a request failed inside it.
    #[allow(dead_code)] // not every test file looks at the log
    pub fn logged_errors(&self) -> Vec<&Value> {
        self.notifications
            .iter()
            .filter(|n| n["method"] == "window/logMessage" && n["params"]["type"] == 1)
            .collect()
    }

    /// Waits for the responses to `sent` (id, method, params), sent in
    /// `round`: each must be a result, but for a rename the server refuses
    /// (`-32602`, no name there to rename). Returns the methods answered.
    #[allow(dead_code)] // the random-request tests use it
    pub fn expect_answered<'a>(&mut self, sent: Vec<(i64, &'a str, Value)>, round: usize) -> Vec<&'a str> {
        let mut answered = Vec::new();
        for (id, method, params) in sent {
            let response = self.response(&json!(id));
            if let Some(error) = response.get("error") {
                assert!(
                    method == "textDocument/rename" && error["code"] == -32602,
                    "round {round}: {method} {params} failed: {response}"
                );
            }
            answered.push(method);
        }
        answered
    }

    /// The params of the server's next request of `method` (already
    /// answered, see `answer`).
    #[allow(dead_code)] // not every test file waits for a server request
    pub fn wait_for_server_request(&mut self, method: &str, timeout: Duration) -> Value {
        self.wait_for(timeout, &format!("a {method} request"), |m| {
            m.get("id").is_some() && m["method"] == method
        })["params"]
            .clone()
    }

    /// The diagnostics published for `uri` at exactly `version`.
    pub fn diagnostics_for(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let params = self.wait_for_notification(
            "textDocument/publishDiagnostics",
            |p| p["uri"] == uri && p["version"] == version,
            TIMEOUT,
        );
        params["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// Every notification received so far, in arrival order.
    pub fn notifications(&self) -> &[Value] {
        &self.notifications
    }

    /// Messages received but not taken by any wait so far.
    pub fn pending(&self) -> &VecDeque<Value> {
        &self.pending
    }

    /// Whatever the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn receive(&mut self, deadline: Instant) -> Result<Value, RecvTimeoutError> {
        let message = self
            .incoming
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))?;
        if message.get("id").is_none() && message.get("method").is_some() {
            self.notifications.push(message.clone());
        } else if message.get("method").is_some() {
            // A request from the server: answer it so it never waits on us.
            let id = message["id"].clone();
            let method = message["method"].as_str().unwrap_or_default();
            let result = self.answers.get(method).cloned().unwrap_or(Value::Null);
            self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": result }));
        }
        Ok(message)
    }

    fn wait_for(&mut self, timeout: Duration, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.pending.iter().position(&matches) {
            return self.pending.remove(at).unwrap();
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline) {
                Ok(message) if matches(&message) => return message,
                Ok(message) => self.pending.push_back(message),
                Err(error) => panic!(
                    "waiting for {what}: {error:?} after {timeout:?}\nunmatched messages: {:#?}\nstderr: {}",
                    self.pending,
                    self.stderr()
                ),
            }
        }
    }

    /// Takes every message that arrives until `quiet` passes with none;
    /// returns them (they are not queued).
    pub fn drain(&mut self, quiet: Duration) -> Vec<Value> {
        let mut out: Vec<Value> = self.pending.drain(..).collect();
        while let Ok(message) = self.receive(Instant::now() + quiet) {
            out.push(message);
        }
        out
    }

    /// Closes stdin (if still open), waits for the server to close its
    /// stdout and exit, and returns its status.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        // The reader thread hangs up when stdout closes, which the server
        // does on its way out.
        loop {
            match self.receive(deadline) {
                Ok(message) => self.pending.push_back(message),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("dyno lsp did not exit within {timeout:?}"),
            }
        }
        // Stdout is closed: the process is finishing. Poll with a deadline.
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for dyno lsp") {
                return status;
            }
            assert!(Instant::now() < deadline, "dyno lsp did not exit within {timeout:?}");
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Closes the server's stdin: the end of its input.
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("query dyno lsp").is_none()
    }

    /// `shutdown` then `exit`, returning the exit status.
    pub fn shutdown_and_exit(mut self) -> ExitStatus {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null);
        self.wait_exit(TIMEOUT)
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `file://` URI of an absolute path.
pub fn file_uri(path: &std::path::Path) -> String {
    let path = path.to_str().expect("UTF-8 path").replace('\\', "/");
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let mut out = String::from("file://");
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}
