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
pub fn run() -> i32 {
    limit_malloc_arenas();
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

/// glibc's malloc gives threads that allocate their own arenas (up to 8 per
/// core), and memory freed into one arena is not reused by the others:
/// analyses made on the runtime's blocking threads in turn kept several
/// times the memory one analysis needs. Two arenas halve the peak without
/// slowing the analysis; one made it slower (docs/performance.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas() {
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_ARENA_MAX: i32 = -8;
    // SAFETY: `mallopt` only sets a tuning parameter of glibc's allocator,
    // here before any other thread exists.
    unsafe {
        mallopt(M_ARENA_MAX, 2);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas() {}
