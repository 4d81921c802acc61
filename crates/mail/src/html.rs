//! HTML to plain text, for messages that have no text/plain part.
//!
//! Only what mail needs: block elements and `<br>` become line breaks,
//! `<blockquote>` becomes `> ` quoting (so a quoted earlier message is
//! recognised as quoted, as in a plain-text reply), scripts, styles and
//! the head are dropped, and entities are decoded. One pass over the input,
//! never more output lines than input bytes.

/// Deepest `<blockquote>` nesting that is still prefixed (deeper is kept at this depth).
const MAX_QUOTE_DEPTH: usize = 16;

/// Convert an HTML document or fragment to plain text lines.
pub fn html_to_text(html: &str) -> String {
    let mut w = Writer::default();
    let bytes = html.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' {
            if html[i..].starts_with("<!--") {
                i = match html[i + 4..].find("-->") {
                    Some(end) => i + 4 + end + 3,
                    None => bytes.len(),
                };
                continue;
            }
            if let Some((tag, end)) = parse_tag(html, i) {
                w.tag(&tag);
                i = end;
                continue;
            }
            // A lone '<' is text.
            w.text("<");
            i += 1;
            continue;
        }
        let end = html[i..].find('<').map_or(bytes.len(), |n| i + n);
        w.text(&decode_entities(&html[i..end]));
        i = end;
    }
    w.finish()
}

struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
}

/// Parse the tag starting at `start` (a `<`); returns it and the index after its `>`.
fn parse_tag(html: &str, start: usize) -> Option<(Tag, usize)> {
    let bytes = html.as_bytes();
    let mut i = start + 1;
    let closing = bytes.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let name_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'!' || bytes[i] == b'?') {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    // Skip attributes, respecting quoted values that may contain '>'.
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => {
                let self_closing = i > start && bytes[i - 1] == b'/';
                return Some((Tag { name, closing, self_closing }, i + 1));
            }
            None => {}
        }
        i += 1;
    }
    // An unterminated tag swallows the rest, as browsers do.
    Some((Tag { name, closing, self_closing: false }, bytes.len()))
}

#[derive(Default)]
struct Writer {
    lines: Vec<String>,
    line: String,
    line_depth: usize,
    depth: usize,
    skip: usize,
    pre: usize,
    space_pending: bool,
}

impl Writer {
    fn tag(&mut self, tag: &Tag) {
        let name = tag.name.as_str();
        match name {
            "script" | "style" | "head" | "title" | "template" | "noscript" => {
                if tag.closing {
                    self.skip = self.skip.saturating_sub(1);
                } else if !tag.self_closing {
                    self.skip += 1;
                }
            }
            "br" => self.hard_break(),
            "blockquote" => {
                self.soft_break();
                if tag.closing {
                    self.depth = self.depth.saturating_sub(1);
                } else if !tag.self_closing {
                    self.depth += 1;
                }
            }
            "pre" => {
                self.soft_break();
                if tag.closing {
                    self.pre = self.pre.saturating_sub(1);
                } else if !tag.self_closing {
                    self.pre += 1;
                }
            }
            "td" | "th" if !tag.closing => self.space_pending = true,
            "p" | "div" | "tr" | "li" | "ul" | "ol" | "table" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
            | "hr" | "section" | "article" | "header" | "footer" | "dl" | "dt" | "dd" | "address"
            | "center" | "body" | "html" | "form" | "fieldset" | "figure" | "main" | "nav" | "aside" => {
                self.soft_break()
            }
            _ => {}
        }
    }

    fn text(&mut self, text: &str) {
        if self.skip > 0 {
            return;
        }
        if self.pre > 0 {
            let mut parts = text.split('\n').peekable();
            while let Some(part) = parts.next() {
                self.push(part.trim_end_matches('\r'));
                if parts.peek().is_some() {
                    self.hard_break();
                }
            }
            return;
        }
        for (n, word) in text.split(|c: char| c.is_whitespace()).enumerate() {
            if n > 0 {
                self.space_pending = true;
            }
            if !word.is_empty() {
                if self.space_pending && !self.line.is_empty() {
                    self.line.push(' ');
                }
                self.space_pending = false;
                self.push(word);
            }
        }
    }

    fn push(&mut self, s: &str) {
        if self.line.is_empty() {
            self.line_depth = self.depth;
        }
        self.line.push_str(s);
    }

    /// End the current line if it has text.
    fn soft_break(&mut self) {
        if !self.line.is_empty() {
            self.hard_break();
        }
        self.space_pending = false;
    }

    /// End the current line, even an empty one.
    fn hard_break(&mut self) {
        if self.skip > 0 {
            return;
        }
        let depth = if self.line.is_empty() { self.depth } else { self.line_depth };
        let mut out = "> ".repeat(depth.min(MAX_QUOTE_DEPTH));
        out.push_str(self.line.trim_end());
        self.lines.push(out.trim_end().to_string());
        self.line.clear();
        self.space_pending = false;
    }

    fn finish(mut self) -> String {
        self.skip = 0;
        self.soft_break();
        while self.lines.last().is_some_and(|l| l.is_empty()) {
            self.lines.pop();
        }
        let first = self.lines.iter().position(|l| !l.is_empty()).unwrap_or(self.lines.len());
        let mut out = self.lines[first..].join("\n");
        out.push('\n');
        out
    }
}

/// Decode HTML character references; unknown names are kept as written.
pub fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest.char_indices().take(12).find(|&(_, c)| c == ';').map(|(n, _)| n);
        let decoded = end.and_then(|end| entity(&rest[1..end]).map(|c| (c, end)));
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        return match char::from_u32(code)? {
            '\u{a0}' => Some(' '),
            c if c.is_control() && c != '\n' && c != '\t' => None,
            c => Some(c),
        };
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" | "ensp" | "emsp" | "thinsp" => ' ',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "laquo" => '«',
        "raquo" => '»',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "copy" => '©',
        "reg" => '®',
        "euro" => '€',
        "shy" | "zwnj" | "zwj" => '\u{200b}',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "Auml" => 'Ä',
        "Ouml" => 'Ö',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        "eacute" => 'é',
        "egrave" => 'è',
        "ecirc" => 'ê',
        "agrave" => 'à',
        "aacute" => 'á',
        "ccedil" => 'ç',
        "ntilde" => 'ñ',
        "oacute" => 'ó',
        "iacute" => 'í',
        "uacute" => 'ú',
        "aring" => 'å',
        "Aring" => 'Å',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_breaks_and_entities() {
        let html = "<html><head><title>x</title><style>p{}</style></head><body>\
            <div>dna move 1 ned pw AAG</div><div><br></div><div>Good&nbsp;luck &amp; have fun &#233;&#x263a;</div>\
            <p>second&lt;para&gt;</p></body></html>";
        assert_eq!(html_to_text(html), "dna move 1 ned pw AAG\n\nGood luck & have fun é☺\nsecond<para>\n");
    }

    #[test]
    fn blockquotes_become_quoted_lines() {
        let html = "<div>my reply</div><div class=\"gmail_quote\">On Mon, Ned wrote:<br>\
            <blockquote type=\"cite\">DNA Board 1 ted<br><br>It is ted's turn.<blockquote>deeper</blockquote></blockquote></div>";
        assert_eq!(
            html_to_text(html),
            "my reply\nOn Mon, Ned wrote:\n> DNA Board 1 ted\n>\n> It is ted's turn.\n> > deeper\n"
        );
    }

    #[test]
    fn whitespace_collapses_except_in_pre() {
        assert_eq!(html_to_text("a \n  b<pre>x  y\nz</pre>c"), "a b\nx  y\nz\nc\n");
    }

    #[test]
    fn attributes_with_gt_and_broken_markup() {
        assert_eq!(html_to_text("<a title=\"a>b\">link</a> 1 < 2 &bogus; &"), "link 1 < 2 &bogus; &\n");
        assert_eq!(html_to_text("text <div"), "text\n");
        assert_eq!(html_to_text("<!-- hidden -->shown<!-- open"), "shown\n");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let _ = html_to_text(&s);
        }

        #[test]
        fn tag_soup_never_panics(parts in proptest::collection::vec("(<div>|</div>|<br>|<blockquote>|</blockquote>|<pre>|</pre>|&amp;|&#x41;|&#99999999;|text| |\n|<|>|\"|<!--|-->|<script>|</script>)", 0..30)) {
            let text = html_to_text(&parts.concat());
            proptest::prop_assert!(text.ends_with('\n'));
        }
    }
}
