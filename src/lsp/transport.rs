//! Framing between the client and tower-lsp. tower-lsp 0.20 answers a
//! message that is not valid JSON-RPC with an error and then stops reading
//! (its framed reader ends after a decode error), which would end the
//! session. This proxy reads the client's frames itself: valid messages are
//! passed to tower-lsp unchanged; a frame that is not JSON, or not a
//! JSON-RPC message, is answered here with the protocol's error and the
//! session goes on. Output frames are forwarded whole, so an error response
//! never lands inside another message.

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
/// Larger messages are refused rather than buffered.
const MAX_MESSAGE: usize = 64 << 20;
/// The most room the input buffer keeps between messages.
const KEPT_BUFFER: usize = 256 << 10;

pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(code: i64, message: &str, id: Value) -> Vec<u8> {
    frame(
        json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id })
            .to_string()
            .as_bytes(),
    )
}

/// The method of a checked message, and the body to hand to tower-lsp:
/// unchanged, except that `"params": null` is dropped. Some clients (Eglot,
/// LSP4IJ) send it for `shutdown`, whose params are `void`, and tower-lsp
/// would refuse it with "Unexpected params: null".
fn prepare(body: Vec<u8>) -> (Option<String>, Vec<u8>) {
    let Ok(Value::Object(mut message)) = serde_json::from_slice::<Value>(&body) else {
        return (None, body);
    };
    let method = message.get("method").and_then(Value::as_str).map(str::to_string);
    if message.get("params") == Some(&Value::Null) {
        message.remove("params");
        if let Ok(stripped) = serde_json::to_vec(&message) {
            return (method, stripped);
        }
    }
    (method, body)
}

/// The code point of a `\uXXXX` escape at the start of `bytes`.
fn escape_at(bytes: &[u8]) -> Option<u32> {
    let hex = bytes.strip_prefix(b"\\u")?.get(..4)?;
    u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

/// Rewrites each `\uXXXX` escape of a lone surrogate in a JSON text as
/// `\ufffd`, in place (both are six bytes). Clients written in JavaScript
/// can send one (a JavaScript string may hold one, VS Code included), and
/// serde_json refuses it in a string: the whole message, a `didOpen` say,
/// would be lost. Backslashes only occur inside strings, so every escape is
/// found by walking them.
fn replace_lone_surrogates(body: &mut [u8]) {
    let mut at = 0;
    while let Some(found) = body[at..].iter().position(|&b| b == b'\\') {
        at += found;
        match escape_at(&body[at..]) {
            Some(0xD800..=0xDBFF) if matches!(body.get(at + 6..).and_then(escape_at), Some(0xDC00..=0xDFFF)) => {
                at += 12
            }
            Some(0xD800..=0xDFFF) => {
                body[at + 2..at + 6].copy_from_slice(b"fffd");
                at += 6;
            }
            Some(_) => at += 6,
            None => at = (at + 2).min(body.len()),
        }
    }
}

/// `Ok` for a message tower-lsp can decode, or the error's code and the
/// error frame to answer.
fn check(body: &[u8]) -> Result<(), (i64, Vec<u8>)> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Err((PARSE_ERROR, error_frame(PARSE_ERROR, "Parse error", Value::Null)));
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let valid_id = matches!(id, Value::Null | Value::Number(_) | Value::String(_));
    let is_request = value.get("method").is_some_and(Value::is_string)
        && value
            .get("params")
            .is_none_or(|p| p.is_object() || p.is_array() || p.is_null());
    let is_response = value.get("id").is_some() && (value.get("result").is_some() || value.get("error").is_some());
    if value.get("jsonrpc") == Some(&json!("2.0")) && valid_id && (is_request || is_response) {
        Ok(())
    } else {
        Err((
            INVALID_REQUEST,
            error_frame(
                INVALID_REQUEST,
                "Invalid request",
                if valid_id { id } else { Value::Null },
            ),
        ))
    }
}

/// The start of a header, matched without regard to case.
const HEADER: &[u8] = b"content-length:";

fn starts_header(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER.len() && bytes[..HEADER.len()].eq_ignore_ascii_case(HEADER)
}

/// Where `Content-Length:` starts at or after `from`.
fn find_header(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        let c = at + bytes[at..].iter().position(|&b| b | 0x20 == b'c')?;
        if starts_header(&bytes[c..]) {
            return Some(c);
        }
        at = c + 1;
    }
    None
}

/// Where a whole header line, `Content-Length:` up to its line break with
/// no `"` on the way, starts in `bytes` at or after `from`. No valid JSON
/// holds one: outside a string the name is not JSON, inside one a raw line
/// break is not allowed. `Err` with where to search again once more bytes
/// came.
fn find_header_line(bytes: &[u8], from: usize) -> Result<usize, usize> {
    let mut at = from;
    while let Some(start) = find_header(bytes, at) {
        match bytes[start..].iter().position(|&b| b == b'\n' || b == b'"') {
            Some(end) if bytes[start + end] == b'\n' => return Ok(start),
            Some(_) => at = start + 1,
            None => return Err(start),
        }
    }
    Err(bytes.len().saturating_sub(HEADER.len() - 1).max(from))
}

/// The length of the longest end of `body` that begins a header (`Cont` of
/// a next frame swallowed by a declared length a few bytes too long). No
/// JSON text ends that way.
fn header_prefix_at_end(body: &[u8]) -> usize {
    (1..HEADER.len().min(body.len() + 1))
        .rev()
        .find(|&n| body[body.len() - n..].eq_ignore_ascii_case(&HEADER[..n]))
        .unwrap_or(0)
}

fn parse_error(detail: &str) -> Vec<u8> {
    error_frame(PARSE_ERROR, &format!("Parse error: {detail}"), Value::Null)
}

/// Reads frames off a byte stream and gets back in step after a frame with
/// a wrong `Content-Length`: reading resumes at the next `Content-Length:`
/// header wherever it starts, and the bad frame costs one parse error.
struct Frames<R> {
    input: R,
    buffer: Vec<u8>,
    /// Bytes of `buffer` already consumed.
    at: usize,
    eof: bool,
    /// After a bad frame: skip whatever comes before the next header.
    resync: bool,
}

impl<R: AsyncRead + Unpin> Frames<R> {
    fn new(input: R) -> Frames<R> {
        Frames {
            input,
            buffer: Vec::new(),
            at: 0,
            eof: false,
            resync: false,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buffer[self.at..]
    }

    /// Reads more input; `false` at its end.
    async fn fill(&mut self) -> std::io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.at > 0 && self.at * 2 >= self.buffer.len() {
            self.buffer.drain(..self.at);
            self.at = 0;
            // A large message (a whole document) made room that the small
            // ones after it would keep for the session.
            if self.buffer.capacity() > KEPT_BUFFER {
                self.buffer.shrink_to(KEPT_BUFFER);
            }
        }
        let mut chunk = [0u8; 64 << 10];
        let n = self.input.read(&mut chunk).await?;
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        self.buffer.extend_from_slice(&chunk[..n]);
        Ok(true)
    }

    /// One line without its line break, and how many bytes it took with
    /// it; `None` at the end of input.
    async fn line(&mut self) -> std::io::Result<Option<(Vec<u8>, usize)>> {
        loop {
            if let Some(end) = self.pending().iter().position(|&b| b == b'\n') {
                let line = &self.pending()[..end];
                let line = line.strip_suffix(b"\r").unwrap_or(line).to_vec();
                self.at += end + 1;
                return Ok(Some((line, end + 1)));
            }
            if !self.fill().await? {
                if self.pending().is_empty() {
                    return Ok(None);
                }
                let line = self.pending().to_vec();
                self.at = self.buffer.len();
                let taken = line.len();
                return Ok(Some((line, taken)));
            }
        }
    }

    /// Drops bytes up to the next header; `false` if the input ends first.
    async fn skip_to_header(&mut self) -> std::io::Result<bool> {
        loop {
            if let Some(start) = find_header(self.pending(), 0) {
                self.at += start;
                return Ok(true);
            }
            // Keep a tail that may be the beginning of a header.
            self.at = self.buffer.len() - header_prefix_at_end(self.pending());
            if !self.fill().await? {
                return Ok(false);
            }
        }
    }

    /// A bad frame: its error, and everything up to the next header is
    /// dropped without another.
    fn bad(&mut self, detail: &str) -> Option<Result<Vec<u8>, Vec<u8>>> {
        self.resync = true;
        Some(Err(parse_error(detail)))
    }

    /// A body that was not JSON (the caller found out): what follows it up
    /// to the next header belongs to the same bad frame.
    fn not_json(&mut self) {
        self.resync = true;
    }

    /// One frame's body; `None` at the end of input, `Err` with the error
    /// frame to answer for a frame that cannot be read.
    async fn next(&mut self) -> std::io::Result<Option<Result<Vec<u8>, Vec<u8>>>> {
        if std::mem::take(&mut self.resync) && !self.skip_to_header().await? {
            return Ok(None);
        }
        let mut length: Option<usize> = None;
        let mut saw_header = false;
        loop {
            let Some((line, taken)) = self.line().await? else {
                return Ok(None);
            };
            if line.is_empty() {
                if !saw_header {
                    continue; // stray blank line between frames
                }
                break;
            }
            if let Some(start) = find_header(&line, 1) {
                // A header glued to the end of something else: the rest of
                // an earlier body, or garbage. Read on from the header.
                self.at = self.at - taken + start;
                return Ok(Some(Err(parse_error("a header glued to other bytes"))));
            }
            saw_header = true;
            let line = String::from_utf8_lossy(&line);
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().ok();
            }
        }
        let Some(length) = length.filter(|&n| n <= MAX_MESSAGE) else {
            return Ok(self.bad("missing or invalid Content-Length"));
        };
        let mut search = 0;
        loop {
            let available = self.pending().len().min(length);
            match find_header_line(&self.pending()[..available], search) {
                Ok(start) => {
                    // The declared length runs into the next frame.
                    self.at += start;
                    return Ok(self.bad("the Content-Length runs into the next frame"));
                }
                Err(again) => search = again,
            }
            if available == length {
                break;
            }
            if !self.fill().await? {
                self.at = self.buffer.len();
                return Ok(Some(Err(parse_error("the input ends inside a frame"))));
            }
        }
        let body = &self.pending()[..length];
        let tail = header_prefix_at_end(body);
        if tail > 0 {
            self.at += length - tail;
            return Ok(self.bad("the Content-Length runs into the next frame"));
        }
        let body = body.to_vec();
        self.at += length;
        Ok(Some(Ok(body)))
    }
}

/// The most each pipe between the proxy and tower-lsp holds at once.
const PIPE_BYTES: usize = 64 * 1024;

/// Serves over the given streams through the proxy. Returns the process
/// exit code the protocol asks for: 0 when `exit` follows `shutdown`, 1
/// otherwise (including input that just ends).
pub async fn serve<I, O, S>(input: I, mut output: O, serve_inner: S) -> i32
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
    S: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> tokio::task::JoinHandle<()>,
{
    // Small pipes: a pipe's buffer keeps the size it grew to, and a large
    // message (a whole schema opened) passes through in pieces as well.
    let (mut to_server, server_input) = tokio::io::duplex(PIPE_BYTES);
    let (server_output, from_server) = tokio::io::duplex(PIPE_BYTES);
    let (frames, mut outgoing) = mpsc::unbounded_channel::<Vec<u8>>();

    let writer = tokio::spawn(async move {
        while let Some(bytes) = outgoing.recv().await {
            if output.write_all(&bytes).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let server_frames = frames.clone();
    let forward_output = tokio::spawn(async move {
        let mut reader = Frames::new(from_server);
        while let Ok(Some(Ok(body))) = reader.next().await {
            if server_frames.send(frame(&body)).is_err() {
                break;
            }
        }
    });
    let mut server = serve_inner(server_input, server_output);
    let error_frames = frames.clone();
    let read_input = async move {
        let mut reader = Frames::new(input);
        let mut shut_down = false;
        while let Ok(Some(message)) = reader.next().await {
            let checked = message.and_then(|mut body| {
                replace_lone_surrogates(&mut body);
                match check(&body) {
                    Ok(()) => Ok(body),
                    Err((code, error)) => {
                        if code == PARSE_ERROR {
                            reader.not_json();
                        }
                        Err(error)
                    }
                }
            });
            match checked {
                Ok(body) => {
                    let (method, body) = prepare(body);
                    if to_server.write_all(&frame(&body)).await.is_err() {
                        break;
                    }
                    match method.as_deref() {
                        Some("shutdown") => shut_down = true,
                        // tower-lsp would only notice at the next message.
                        Some("exit") => return if shut_down { 0 } else { 1 },
                        _ => {}
                    }
                }
                Err(error) => {
                    let _ = error_frames.send(error);
                }
            }
        }
        1
        // Dropping `to_server` ends tower-lsp's input: it stops.
    };
    let code = tokio::select! {
        code = read_input => {
            let _ = (&mut server).await;
            code
        }
        _ = &mut server => 1,
    };
    let _ = forward_output.await;
    drop(frames);
    let _ = writer.await;
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_messages_from_garbage() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"initialized"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"result":null}"#).is_ok());
        let parse = String::from_utf8(check(b"{bad").unwrap_err().1).unwrap();
        assert!(parse.contains("-32700") && parse.contains(r#""id":null"#), "{parse}");
        let invalid = String::from_utf8(check(br#"{"jsonrpc":"2.0","id":7}"#).unwrap_err().1).unwrap();
        assert!(invalid.contains("-32600") && invalid.contains(r#""id":7"#), "{invalid}");
        assert!(check(b"[]").is_err());
        assert!(check(br#"{"jsonrpc":"1.0","id":1,"method":"x"}"#).is_err());
    }

    #[test]
    fn null_params_are_dropped_and_everything_else_is_kept() {
        let (method, body) = prepare(br#"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":null}"#.to_vec());
        assert_eq!(method.as_deref(), Some("shutdown"));
        assert_eq!(body, br#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#);
        let hover = br#"{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"a":1}}"#;
        assert_eq!(
            prepare(hover.to_vec()),
            (Some("textDocument/hover".into()), hover.to_vec())
        );
        let response = br#"{"jsonrpc":"2.0","id":5,"result":null}"#;
        assert_eq!(prepare(response.to_vec()), (None, response.to_vec()));
    }

    /// What a reader makes of `input`: each frame's body, or `ERR` for an
    /// error answered by the reader itself; `not_json` bodies are marked
    /// as the proxy does.
    fn frames(input: &[u8]) -> Vec<String> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let mut reader = Frames::new(input);
            let mut out = Vec::new();
            while let Some(frame) = reader.next().await.unwrap() {
                match frame {
                    Ok(body) => {
                        if serde_json::from_slice::<Value>(&body).is_err() {
                            reader.not_json();
                        }
                        out.push(String::from_utf8_lossy(&body).into_owned());
                    }
                    Err(_) => out.push("ERR".into()),
                }
            }
            out
        })
    }

    #[test]
    fn a_wrong_content_length_costs_one_frame_and_reading_resumes_at_the_next_header() {
        let body = r#"{"id":1}"#;
        let next = frame(br#"{"id":2}"#);
        let with = |length: &str| {
            let mut input = format!("Content-Length: {length}\r\n\r\n{body}").into_bytes();
            input.extend_from_slice(&next);
            input
        };
        let good = r#"{"id":2}"#.to_string();
        assert_eq!(frames(&with("8")), [body.to_string(), good.clone()]);
        // Too short: the cut body is not JSON, its rest is skipped.
        assert_eq!(frames(&with("3")), ["{\"i".to_string(), good.clone()]);
        for length in ["9", "10", "20", "30", "500", "ten", "", "-5", "99999999999999999999999"] {
            assert_eq!(frames(&with(length)), ["ERR".to_string(), good.clone()], "{length}");
        }
        // Too long at the end of input: answered, not waited for.
        assert_eq!(frames(b"Content-Length: 50\r\n\r\n{\"id\":1}"), ["ERR"]);
        // Garbage glued before a header.
        let mut glued = b"garbage".to_vec();
        glued.extend_from_slice(&next);
        assert_eq!(frames(&glued), ["ERR".to_string(), good.clone()]);
        // A JSON body may say `Content-Length:` in a string.
        let quoted = "{\"text\": \"Content-Length: 5\",\n\"x\": 1}";
        assert_eq!(frames(&frame(quoted.as_bytes())), [quoted]);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let fixed = |text: &str| {
            let mut bytes = text.as_bytes().to_vec();
            replace_lone_surrogates(&mut bytes);
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(fixed(r#"["\ud800"]"#), r#"["\ufffd"]"#);
        assert_eq!(fixed(r#"["\uDC00x\ud800\ud800"]"#), r#"["\ufffdx\ufffd\ufffd"]"#);
        assert_eq!(fixed(r#"["\ud800\u0041"]"#), r#"["\ufffd\u0041"]"#);
        for kept in [
            r#"["\ud83d\ude00"]"#,
            r#"["\\ud800"]"#,
            r#"["\\\\", "\"\u00e9"]"#,
            r#"["\ud8"]"#,
            "\\",
        ] {
            assert_eq!(fixed(kept), kept);
        }
        let value: Value = serde_json::from_str(&fixed(r#"["a\ud800b\udfffc\ud83d\ude00"]"#)).unwrap();
        assert_eq!(value, json!(["a\u{fffd}b\u{fffd}c\u{1F600}"]));
    }
}
