//! The helpers generated TypeScript calls (`runtime.ts`), copied into each
//! module: only the chunks it uses and the chunks those call, in the file's
//! order, so the module has no unused code.

const RUNTIME: &str = include_str!("runtime.ts");

struct Chunk {
    name: &'static str,
    deps: Vec<&'static str>,
    text: &'static str,
}

/// `//@ name: dep, dep` starts a chunk; text before the first is the file's
/// own comment.
fn chunks() -> Vec<Chunk> {
    let mut out: Vec<Chunk> = Vec::new();
    let mut rest = RUNTIME;
    let mut current: Option<(&'static str, Vec<&'static str>)> = None;
    loop {
        let next = rest.find("\n//@ ").map(|i| i + 1);
        let (body, after) = match next {
            Some(i) => (&rest[..i], Some(&rest[i..])),
            None => (rest, None),
        };
        if let Some((name, deps)) = current.take() {
            out.push(Chunk {
                name,
                deps,
                text: body.trim_end(),
            });
        }
        let Some(after) = after else { break };
        let line_end = after.find('\n').unwrap_or(after.len());
        let header = after[4..line_end].trim();
        let (name, deps) = header.split_once(':').unwrap_or((header, ""));
        let deps = deps.split(',').map(str::trim).filter(|d| !d.is_empty()).collect();
        current = Some((name.trim(), deps));
        rest = &after[(line_end + 1).min(after.len())..];
    }
    out
}

/// The text of the chunks `used` names and those they call, in file order,
/// separated by blank lines.
pub fn helpers(used: &[&str]) -> String {
    let chunks = chunks();
    let mut wanted: Vec<&str> = used.to_vec();
    let mut i = 0;
    while i < wanted.len() {
        if let Some(chunk) = chunks.iter().find(|c| c.name == wanted[i]) {
            for dep in &chunk.deps {
                if !wanted.contains(dep) {
                    wanted.push(dep);
                }
            }
        }
        i += 1;
    }
    chunks
        .iter()
        .filter(|c| wanted.contains(&c.name))
        .map(|c| c.text)
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dependency_is_a_chunk_and_chunks_come_with_their_dependencies() {
        let chunks = chunks();
        assert!(chunks.len() > 10);
        for chunk in &chunks {
            for dep in &chunk.deps {
                assert!(chunks.iter().any(|c| c.name == *dep), "{}: {dep}", chunk.name);
            }
            assert!(!chunk.text.contains("//@"), "{}", chunk.name);
        }
        let decode = helpers(&["decode"]);
        assert!(decode.contains("function _decode("));
        assert!(decode.contains("interface _Entity"), "its dependency");
        assert!(decode.contains("function _fromAttr("), "its dependency");
        assert!(!decode.contains("function _merge("));
    }
}
