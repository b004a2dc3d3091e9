//! Maps byte offsets of the preprocessed source back to `file:line:col` of the original files,
//! using the preprocessor's line markers (`# 12 "prog.c" 2`).

use crate::ir::{SourceFile, Span};
use std::collections::HashMap;
use std::path::Path;

/// Offsets of the preprocessed text → original positions.
pub struct SourceMap {
    /// Byte offset where each preprocessed line starts.
    line_starts: Vec<usize>,
    /// For each preprocessed line: (file index, original line), or `None` for a marker line.
    origin: Vec<Option<(u32, u32)>>,
    /// File names, index 0 is the main source.
    names: Vec<String>,
}

impl SourceMap {
    /// Builds the map of `pre`, the output of `cc -E` on `main`.
    pub fn new(pre: &str, main: &Path) -> SourceMap {
        let mut names = vec![main.display().to_string()];
        let mut index: HashMap<String, u32> = HashMap::new();
        index.insert(names[0].clone(), 0);
        let mut line_starts = Vec::new();
        let mut origin = Vec::new();
        let (mut file, mut line) = (0u32, 1u32);
        let mut off = 0;
        for text in pre.split_inclusive('\n') {
            line_starts.push(off);
            off += text.len();
            if let Some((l, f)) = parse_marker(text) {
                let next = names.len() as u32;
                file = *index.entry(f.to_string()).or_insert_with(|| {
                    names.push(f.to_string());
                    next
                });
                line = l;
                origin.push(None);
            } else {
                origin.push(Some((file, line)));
                line += 1;
            }
        }
        SourceMap {
            line_starts,
            origin,
            names,
        }
    }

    fn locate(&self, offset: usize) -> (u32, u32, u32) {
        let i = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(0) => 0,
            Err(i) => i - 1,
        };
        let col = offset.saturating_sub(*self.line_starts.get(i).unwrap_or(&0)) as u32 + 1;
        match self.origin.get(i).copied().flatten() {
            Some((f, l)) => (f, l, col),
            None => (0, 1, col),
        }
    }

    /// The span of a `lang-c` span.
    pub fn span(&self, s: lang_c::span::Span) -> Span {
        let (file, line, col) = self.locate(s.start);
        let (efile, eline, ecol) = self.locate(s.end.max(s.start));
        let (end_line, end_col) = if efile == file && eline >= line {
            (eline, ecol)
        } else {
            (line, col)
        };
        Span {
            file,
            line,
            col,
            end_line,
            end_col,
        }
    }

    /// `file:line:col` of a byte offset.
    pub fn position_of_offset(&self, offset: usize) -> String {
        let (f, l, c) = self.locate(offset);
        format!("{}:{}:{}", self.names[f as usize], l, c)
    }

    /// `file:line:col` of a span.
    pub fn position(&self, s: &Span) -> String {
        format!("{}:{}:{}", self.names[s.file as usize], s.line, s.col)
    }

    /// Whether a span lies in the main source file (not in a header).
    pub fn in_main_file(&self, s: &Span) -> bool {
        s.file == 0
    }

    /// The files with their lines (for printing traces).
    pub fn files(&self) -> Vec<SourceFile> {
        self.names
            .iter()
            .map(|n| SourceFile {
                path: n.clone(),
                lines: std::fs::read_to_string(n)
                    .map(|t| t.lines().map(str::to_string).collect())
                    .unwrap_or_default(),
            })
            .collect()
    }
}

/// Parses `# 12 "file" flags` (or `#line 12 "file"`).
fn parse_marker(text: &str) -> Option<(u32, &str)> {
    let t = text.trim_end();
    let rest = t.strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 {
        return None;
    }
    let line: u32 = rest[..digits_end].parse().ok()?;
    let rest = rest[digits_end..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some((line, &rest[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_lines_and_columns() {
        let pre = "# 1 \"a.c\"\nint x;\n# 5 \"b.h\" 1\nint y;\n# 3 \"a.c\" 2\n  int z;\n";
        let m = SourceMap::new(pre, Path::new("a.c"));
        let z = pre.find("int z").unwrap();
        assert_eq!(m.position_of_offset(z), "a.c:3:3");
        let y = pre.find("int y").unwrap();
        assert_eq!(m.position_of_offset(y), "b.h:5:1");
        assert_eq!(m.position_of_offset(pre.find("int x").unwrap()), "a.c:1:1");
    }
}
