//! Framing between the client and tower-lsp. tower-lsp 0.20 answers a
//! message that is not valid JSON-RPC with an error and then stops reading
//! (its framed reader ends after a decode error), which would end the
//! session. This proxy reads the client's frames itself: valid messages are
//! passed to tower-lsp unchanged; a frame that is not JSON, or not a
//! JSON-RPC message, is answered here with the protocol's error and the
//! session goes on. Output frames are forwarded whole, so an error response
//! never lands inside another message.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
/// Larger messages are refused rather than buffered.
const MAX_MESSAGE: usize = 64 << 20;

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

/// `Ok` for a message tower-lsp can decode, or the error frame to answer.
fn check(body: &[u8]) -> Result<(), Vec<u8>> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Err(error_frame(PARSE_ERROR, "Parse error", Value::Null));
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
        Err(error_frame(
            INVALID_REQUEST,
            "Invalid request",
            if valid_id { id } else { Value::Null },
        ))
    }
}

/// Reads one frame's body; `Ok(None)` at the end of input, `Err` with the
/// error frame for a malformed header (the reader skips to the next one).
async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
) -> std::io::Result<Option<Result<Vec<u8>, Vec<u8>>>> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if !saw_header {
                continue; // stray blank line between frames
            }
            break;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    match length {
        Some(n) if n <= MAX_MESSAGE => {
            let mut body = vec![0; n];
            reader.read_exact(&mut body).await?;
            Ok(Some(Ok(body)))
        }
        _ => Ok(Some(Err(error_frame(
            PARSE_ERROR,
            "Parse error: missing or invalid Content-Length",
            Value::Null,
        )))),
    }
}

/// Serves over the given streams through the proxy. Returns the process
/// exit code the protocol asks for: 0 when `exit` follows `shutdown`, 1
/// otherwise (including input that just ends).
pub async fn serve<I, O, S>(input: I, mut output: O, serve_inner: S) -> i32
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
    S: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> tokio::task::JoinHandle<()>,
{
    let (mut to_server, server_input) = tokio::io::duplex(1 << 20);
    let (server_output, from_server) = tokio::io::duplex(1 << 20);
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
        let mut reader = BufReader::new(from_server);
        while let Ok(Some(Ok(body))) = read_frame(&mut reader).await {
            if server_frames.send(frame(&body)).is_err() {
                break;
            }
        }
    });
    let mut server = serve_inner(server_input, server_output);
    let error_frames = frames.clone();
    let read_input = async move {
        let mut reader = BufReader::new(input);
        let mut shut_down = false;
        while let Ok(Some(message)) = read_frame(&mut reader).await {
            match message.and_then(|body| check(&body).map(|()| body)) {
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
        let parse = String::from_utf8(check(b"{bad").unwrap_err()).unwrap();
        assert!(parse.contains("-32700") && parse.contains(r#""id":null"#), "{parse}");
        let invalid = String::from_utf8(check(br#"{"jsonrpc":"2.0","id":7}"#).unwrap_err()).unwrap();
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
}
