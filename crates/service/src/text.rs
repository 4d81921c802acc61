//! Free text people write (chat lines, comments, names) cleaned before it
//! is stored or sent: it reaches other players' terminals through
//! `history`, their mail programs and web pages, where a control character
//! could move the cursor, rewrite the screen (ESC sequences), cut a mail
//! body short (NUL) or turn the text around (bidirectional overrides).

/// Whether `c` is kept in free text: everything but the control characters
/// (Unicode `Cc`) other than newline and tab, and the invisible
/// direction marks and overrides, which can make a line read backwards.
pub fn is_kept(c: char) -> bool {
    match c {
        '\n' | '\t' => true,
        // ALM, LRM, RLM, the embeddings and overrides (LRE..RLO), and the
        // isolates (LRI..PDI).
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => false,
        c => !c.is_control(),
    }
}

/// `text` with every character that [`is_kept`] refuses removed. A
/// carriage return before a newline goes with the other controls, so
/// `\r\n` line ends become `\n`.
pub fn clean(text: &str) -> String {
    text.chars().filter(|&c| is_kept(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_other_than_newline_and_tab_go() {
        assert_eq!(clean("a\0b\u{1b}[2Jc\r\nd\te\u{7f}f\u{85}g"), "ab[2Jc\nd\tefg");
        assert_eq!(clean("left \u{202E}thgir\u{202C} \u{2066}x\u{2069}"), "left thgir x");
        assert_eq!(clean("plain text, ünïcode ✓"), "plain text, ünïcode ✓");
    }
}
