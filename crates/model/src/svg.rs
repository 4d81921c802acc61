//! Small helpers the games share for their SVG pictures, so every board
//! uses the same player colours and escapes text the same way.

/// Player colours by seat (colour-blind-friendly first, then more), cycling past 26.
pub const PLAYER_COLOURS: [&str; 26] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c564b", "#7f7f7f", "#1b9e77",
    "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#1f78b4", "#33a02c", "#e31a1c",
    "#ff7f00", "#6a3d9a", "#b15928", "#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
];

/// The colour of neutral pieces.
pub const NEUTRAL_COLOUR: &str = "#444444";

/// The colour of seat `seat`.
pub fn player_colour(seat: usize) -> &'static str {
    PLAYER_COLOURS[seat % PLAYER_COLOURS.len()]
}

/// Escape text for SVG/XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The opening tag of a standalone SVG document of `width` x `height` user units.
pub fn open(width: f64, height: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" font-family=\"ui-monospace, monospace\">"
    )
}

/// Width in characters of a picture drawn for a phone first: 44
/// characters of 13-unit monospace (0.6 em each) and the margins make
/// about 360 units, which a 390 px wide phone shows at full size.
pub const PHONE_CHARS: usize = 44;

/// Width of the pictures drawn for a phone first, in user units.
pub const PHONE_WIDTH: f64 = 360.0;

/// `text` cut into lines of at most `width` characters, at spaces where
/// there are any (a word longer than a line is cut where it must be).
/// Never returns an empty list.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        let used = line.chars().count();
        if used > 0 && used + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        while line.chars().count() + word.len() > width {
            let room = width - line.chars().count();
            line.extend(word.drain(..room));
            lines.push(std::mem::take(&mut line));
        }
        line.extend(word);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        assert_eq!(super::escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        assert_eq!(super::wrap("ab cd ef", 5), ["ab cd", "ef"]);
        assert_eq!(super::wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(super::wrap("", 3), [""]);
        assert_eq!(super::wrap("ab abcdefg", 4), ["ab", "abcd", "efg"]);
        assert!(super::wrap(&"x ".repeat(100), 7).iter().all(|l| l.chars().count() <= 7));
    }
}
