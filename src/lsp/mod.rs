//! The language server over stdio. The only code that knows tower-lsp, LSP
//! types or JSON-RPC.

#[doc(hidden)]
pub mod documents;
mod handlers;
pub mod position;
mod progress;
mod server;
mod state;
mod transport;

/// Serves LSP on stdin/stdout until the client says exit.
/// (`cli::main` has limited malloc's arenas before any thread started.)
pub fn run() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the language server: {error}");
            return 2;
        }
    };
    runtime.block_on(transport::serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        |input, output| {
            let (service, socket) = tower_lsp::LspService::new(server::Server::new);
            tokio::spawn(tower_lsp::Server::new(input, output, socket).serve(service))
        },
    ))
}
