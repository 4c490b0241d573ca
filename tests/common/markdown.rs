//! Fenced code blocks in Markdown docs, so documentation examples are
//! tested like code.

pub struct Block {
    /// The fence's info string, e.g. `dyno` or `dyno fails`.
    pub info: String,
    pub code: String,
    /// One-based line of the opening fence.
    pub line: usize,
    /// The nearest `## ` heading above the block.
    pub heading: String,
}

pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut heading = String::new();
    let mut open: Option<Block> = None;
    for (index, line) in markdown.lines().enumerate() {
        match &mut open {
            Some(block) => {
                if line.trim_start().starts_with("```") {
                    blocks.push(open.take().unwrap());
                } else {
                    block.code.push_str(line);
                    block.code.push('\n');
                }
            }
            None => {
                if let Some(title) = line.strip_prefix("## ") {
                    heading = title.trim().to_string();
                } else if let Some(info) = line.trim_start().strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        code: String::new(),
                        line: index + 1,
                        heading: heading.clone(),
                    });
                }
            }
        }
    }
    blocks
}
