//! `dyno lsp` driven over stdio by the measuring examples (`lsp_latency`,
//! `lsp_memory`): framed JSON-RPC, each message stamped on arrival with the
//! length of its body, requests from the server answered with `null`.

use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "../../tests/common/framing.rs"]
mod framing;

/// A message from the server: when it arrived, its body's length in bytes.
#[allow(dead_code)] // each example reads the fields it measures
pub struct Received {
    pub at: Instant,
    pub len: usize,
    pub message: Value,
}

pub struct Server {
    pub child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Received>,
    next_id: i64,
    /// How long any one wait may take.
    timeout: Duration,
}

impl Server {
    pub fn spawn(path: &Path, timeout: Duration) -> Server {
        let mut child = Command::new(path)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let stdout = child.stdout.take().unwrap();
        let (sender, incoming) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(body)) = framing::read_frame(&mut reader) {
                // Stamped on arrival, before any parsing on this side.
                let at = Instant::now();
                let Ok(message) = serde_json::from_slice::<Value>(&body) else {
                    continue;
                };
                if sender
                    .send(Received {
                        at,
                        len: body.len(),
                        message,
                    })
                    .is_err()
                {
                    break;
                }
            }
        });
        Server {
            stdin: child.stdin.take().unwrap(),
            child,
            incoming,
            next_id: 1,
            timeout,
        }
    }

    /// Sends a message; returns when it was written.
    pub fn send(&mut self, message: Value) -> Instant {
        let frame = framing::frame(message.to_string().as_bytes());
        let at = Instant::now();
        self.stdin.write_all(&frame).expect("server stdin");
        self.stdin.flush().expect("server stdin");
        at
    }

    pub fn notify(&mut self, method: &str, params: Value) -> Instant {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// Sends a request; returns its id and when it was sent.
    pub fn request(&mut self, method: &str, params: Value) -> (i64, Instant) {
        let id = self.next_id;
        self.next_id += 1;
        let at = self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        (id, at)
    }

    /// The next message that satisfies `wanted`; requests from the server
    /// are answered with `null` on the way.
    pub fn wait(&mut self, mut wanted: impl FnMut(&Value) -> bool) -> Received {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(received) => {
                    let message = &received.message;
                    if message.get("method").is_some()
                        && let Some(id) = message.get("id")
                    {
                        let id = id.clone();
                        self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
                        continue;
                    }
                    if wanted(message) {
                        return received;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer from the server within {:?}", self.timeout),
                Err(RecvTimeoutError::Disconnected) => panic!("the server exited"),
            }
        }
    }

    /// The response to request `id`.
    pub fn response(&mut self, id: i64) -> Received {
        self.wait(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// A `kB` field of `/proc/PID/status` (`VmRSS:`, `VmHWM:`).
    pub fn status_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}
