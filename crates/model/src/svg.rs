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

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        assert_eq!(super::escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }
}
