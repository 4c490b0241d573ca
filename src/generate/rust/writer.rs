//! Indented lines, and the two layouts rustfmt chooses between for a call:
//! on one line when it fits, else one argument per line.

pub struct Writer {
    text: String,
    indent: usize,
}

/// rustfmt's defaults: `max_width` and `fn_call_width`.
const MAX_WIDTH: usize = 100;
const CALL_WIDTH: usize = 60;

impl Writer {
    pub fn new() -> Self {
        Writer {
            text: String::new(),
            indent: 0,
        }
    }

    pub fn line(&mut self, line: &str) {
        if !line.is_empty() {
            self.text.push_str(&"    ".repeat(self.indent));
            self.text.push_str(line);
        }
        self.text.push('\n');
    }

    pub fn blank(&mut self) {
        self.text.push('\n');
    }

    /// Drops a trailing blank line.
    pub fn pop_blank(&mut self) {
        if self.text.ends_with("\n\n") {
            self.text.pop();
        }
    }

    /// A line that opens a block.
    pub fn open(&mut self, line: &str) {
        self.line(line);
        self.indent += 1;
    }

    /// A line that closes a block.
    pub fn close(&mut self, line: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(line);
    }

    /// One level deeper from here on.
    pub fn indent(&mut self) {
        self.indent += 1;
    }

    /// One level less from here on.
    pub fn dedent(&mut self) {
        self.indent = self.indent.saturating_sub(1);
    }

    /// `head(params) -> tail {` on one line when it fits, else one
    /// parameter per line; the body is indented after it.
    pub fn signature(&mut self, head: &str, params: &[String], tail: &str) {
        let line = format!("{head}({}){tail} {{", params.join(", "));
        if self.fits(&line) {
            self.open(&line);
        } else {
            self.open(&format!("{head}("));
            for param in params {
                self.line(&format!("{param},"));
            }
            self.close(&format!("){tail} {{"));
            self.indent();
        }
    }

    /// Several lines, each indented.
    pub fn text(&mut self, text: &str) {
        for line in text.lines() {
            self.line(line);
        }
    }

    pub fn push_raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// `head(args)tail` on one line when it fits as rustfmt would keep it,
    /// else `head(`, each argument on its own line with a comma, `)tail`.
    pub fn call(&mut self, head: &str, args: &[String], tail: &str) {
        let joined = args.join(", ");
        let width = self.indent * 4 + head.len() + joined.len() + tail.len() + 2;
        if width <= MAX_WIDTH && joined.len() <= CALL_WIDTH && !joined.contains('\n') {
            self.line(&format!("{head}({joined}){tail}"));
        } else {
            self.open(&format!("{head}("));
            for arg in args {
                self.line(&format!("{arg},"));
            }
            self.close(&format!("){tail}"));
        }
    }

    /// `let name = function(args)tail`: on one line, or with the call on
    /// the next line, or one argument per line, as rustfmt chooses.
    pub fn let_call(&mut self, name: &str, function: &str, args: &[String], tail: &str) {
        let joined = args.join(", ");
        let call = format!("{function}({joined}){tail}");
        let one_line = format!("let {name} = {call}");
        if joined.len() <= CALL_WIDTH && !self.fits(&one_line) && (self.indent + 1) * 4 + call.len() <= MAX_WIDTH {
            self.line(&format!("let {name} ="));
            self.indent();
            self.line(&call);
            self.dedent();
        } else {
            self.call(&format!("let {name} = {function}"), args, tail);
        }
    }

    /// Does `line` fit at the current indentation?
    pub fn fits(&self, line: &str) -> bool {
        self.indent * 4 + line.len() <= MAX_WIDTH
    }

    pub fn finish(self) -> String {
        self.text
    }
}
