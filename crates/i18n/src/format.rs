//! Numbers and dates in each language's way (CLDR's conventions):
//!
//! | | English | Finnish | Spanish |
//! |---|---|---|---|
//! | decimal mark | `2.5` | `2,5` | `2,5` |
//! | digit groups | `1,234` | `1 234` (no-break space) | `1234`, `12.345` |
//! | minus | `-3` | `−3` (U+2212) | `-3` |
//! | date and time | `2026-01-02 13:45 UTC` | `2.1.2026 klo 13.45 UTC` | `2/1/2026 13:45 UTC` |
//!
//! Spanish groups digits only from five of them (CLDR's minimum grouping
//! digits of 2). Times are UTC everywhere: a play-by-mail server's players
//! live in many time zones and a deadline must read the same to all.

use fluent_bundle::FluentValue;

use crate::Lang;

/// The marks of one language.
struct Marks {
    decimal: char,
    group: char,
    /// Digits the integer part needs before it is grouped.
    min_grouped: usize,
    minus: &'static str,
}

fn marks(lang: Lang) -> Marks {
    match lang {
        Lang::En => Marks { decimal: '.', group: ',', min_grouped: 4, minus: "-" },
        Lang::Fi => Marks { decimal: ',', group: '\u{a0}', min_grouped: 4, minus: "\u{2212}" },
        Lang::Es => Marks { decimal: ',', group: '.', min_grouped: 5, minus: "-" },
    }
}

/// An integer as `lang` writes a quantity.
pub fn format_integer(lang: Lang, n: i64) -> String {
    let m = marks(lang);
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 3);
    if n < 0 {
        out.push_str(m.minus);
    }
    push_grouped(&mut out, &digits, &m);
    out
}

/// A number with at most `max_fraction` decimals (trailing zeros dropped,
/// at least `min_fraction` kept) as `lang` writes it.
pub fn format_decimal(lang: Lang, value: f64, min_fraction: usize, max_fraction: usize) -> String {
    decimal(&marks(lang), value, min_fraction, max_fraction, true)
}

/// A share (`0.625`) as a percentage with `fraction` decimals and the
/// percent sign, as `lang` writes it (`62.5%`, `62,5 %`).
pub fn format_percent(lang: Lang, share: f64, fraction: usize) -> String {
    let number = format_decimal(lang, 100.0 * share, fraction, fraction);
    match lang {
        Lang::En => format!("{number}%"),
        // CLDR: Finnish and Spanish set the sign apart by a no-break space.
        Lang::Fi | Lang::Es => format!("{number}\u{a0}%"),
    }
}

fn decimal(m: &Marks, value: f64, min_fraction: usize, max_fraction: usize, grouping: bool) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let max_fraction = max_fraction.clamp(min_fraction, 20);
    let fixed = format!("{:.*}", max_fraction, value.abs());
    let (whole, fraction) = fixed.split_once('.').unwrap_or((&fixed, ""));
    let mut fraction = fraction.trim_end_matches('0');
    if fraction.len() < min_fraction {
        fraction = &fixed[fixed.len() - max_fraction..][..min_fraction];
    }
    let mut out = String::with_capacity(fixed.len() + 8);
    // A value that rounds to zero has no sign.
    if value < 0.0 && (whole != "0" || !fraction.is_empty()) {
        out.push_str(m.minus);
    }
    if grouping {
        push_grouped(&mut out, whole, m);
    } else {
        out.push_str(whole);
    }
    if !fraction.is_empty() {
        out.push(m.decimal);
        out.push_str(fraction);
    }
    out
}

fn push_grouped(out: &mut String, digits: &str, m: &Marks) {
    if digits.len() < m.min_grouped {
        out.push_str(digits);
        return;
    }
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(m.group);
        }
        out.push(d);
    }
}

/// Milliseconds since 1970 as a date and time in UTC, `lang`'s way.
pub fn format_datetime(lang: Lang, ms: i64) -> String {
    let pattern = match lang {
        Lang::En => "%Y-%m-%d %H:%M UTC",
        Lang::Fi => "%-d.%-m.%Y klo %-H.%M UTC",
        Lang::Es => "%-d/%-m/%Y %-H:%M UTC",
    };
    datetime(lang, ms, pattern)
}

/// `ms` since 1970 in `pattern`, or as milliseconds past what a date holds.
fn datetime(lang: Lang, ms: i64, pattern: &str) -> String {
    match chrono::DateTime::from_timestamp_millis(ms) {
        Some(t) => t.format(pattern).to_string(),
        None => format!("{} ms", format_integer(lang, ms)),
    }
}

/// A number as English writes it without grouping (`10.25`, `-3`) with
/// `lang`'s decimal mark and minus sign instead; its digits and their
/// count are kept, so a number kept as text beyond what a float holds
/// loses nothing. Text that is not such a number is returned as it is.
pub fn localize_decimal(lang: Lang, text: &str) -> String {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (unsigned.contains('.') && fraction.is_empty())
    {
        return text.to_string();
    }
    let m = marks(lang);
    let mut out = String::with_capacity(text.len() + 3);
    if negative {
        out.push_str(m.minus);
    }
    out.push_str(whole);
    if !fraction.is_empty() {
        out.push(m.decimal);
        out.push_str(fraction);
    }
    out
}

/// Milliseconds since 1970 as a date and time to the second in UTC,
/// `lang`'s way (`2026-01-02 13:45:07 UTC`, `2.1.2026 klo 13.45.07 UTC`).
pub fn format_datetime_seconds(lang: Lang, ms: i64) -> String {
    let pattern = match lang {
        Lang::En => "%Y-%m-%d %H:%M:%S UTC",
        Lang::Fi => "%-d.%-m.%Y klo %-H.%M.%S UTC",
        Lang::Es => "%-d/%-m/%Y %-H:%M:%S UTC",
    };
    datetime(lang, ms, pattern)
}

/// Fluent's formatter of numbers for `lang`'s bundle: numbers as above,
/// with the message's `minimumFractionDigits`, `maximumFractionDigits`
/// (3 decimals at most by default, as ICU does) and `useGrouping`.
pub(crate) fn formatter<M>(lang: Lang) -> fn(&FluentValue<'_>, &M) -> Option<String> {
    match lang {
        Lang::En => |value, _| number(Lang::En, value),
        Lang::Fi => |value, _| number(Lang::Fi, value),
        Lang::Es => |value, _| number(Lang::Es, value),
    }
}

fn number(lang: Lang, value: &FluentValue<'_>) -> Option<String> {
    let FluentValue::Number(n) = value else { return None };
    let min = n.options.minimum_fraction_digits.unwrap_or(0);
    let max = n.options.maximum_fraction_digits.unwrap_or(3).max(min);
    Some(decimal(&marks(lang), n.value, min, max, n.options.use_grouping))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_per_language() {
        for (n, en, fi, es) in [
            (0, "0", "0", "0"),
            (999, "999", "999", "999"),
            (1234, "1,234", "1\u{a0}234", "1234"),
            (12_345, "12,345", "12\u{a0}345", "12.345"),
            (-1_234_567, "-1,234,567", "\u{2212}1\u{a0}234\u{a0}567", "-1.234.567"),
            (
                i64::MIN,
                "-9,223,372,036,854,775,808",
                "\u{2212}9\u{a0}223\u{a0}372\u{a0}036\u{a0}854\u{a0}775\u{a0}808",
                "-9.223.372.036.854.775.808",
            ),
        ] {
            assert_eq!(format_integer(Lang::En, n), en);
            assert_eq!(format_integer(Lang::Fi, n), fi);
            assert_eq!(format_integer(Lang::Es, n), es);
        }
    }

    #[test]
    fn decimals_per_language() {
        assert_eq!(format_decimal(Lang::En, 2.5, 0, 3), "2.5");
        assert_eq!(format_decimal(Lang::Fi, 2.5, 0, 3), "2,5");
        assert_eq!(format_decimal(Lang::Es, 12_345.25, 0, 1), "12.345,2");
        assert_eq!(format_decimal(Lang::En, 70.0, 1, 1), "70.0");
        assert_eq!(format_decimal(Lang::Fi, 63.333, 1, 1), "63,3");
        assert_eq!(format_decimal(Lang::En, -0.0001, 0, 2), "0");
        assert_eq!(format_decimal(Lang::Fi, -1.5, 0, 2), "\u{2212}1,5");
        assert_eq!(format_decimal(Lang::En, 3.0, 0, 3), "3");
        assert_eq!(format_decimal(Lang::En, f64::NAN, 0, 3), "NaN");
    }

    #[test]
    fn decimals_written_as_text_take_the_language_marks() {
        assert_eq!(localize_decimal(Lang::En, "10.25"), "10.25");
        assert_eq!(localize_decimal(Lang::Fi, "10.25"), "10,25");
        assert_eq!(localize_decimal(Lang::Es, "12345.00"), "12345,00");
        assert_eq!(localize_decimal(Lang::Fi, "-3.5"), "\u{2212}3,5");
        assert_eq!(localize_decimal(Lang::Es, "7"), "7");
        for odd in ["", "a.b", "1.", ".5", "1.2.3", "x"] {
            assert_eq!(localize_decimal(Lang::Fi, odd), odd);
        }
    }

    #[test]
    fn dates_to_the_second_per_language() {
        let ms = 1_700_000_000_000; // 2023-11-14 22:13:20 UTC
        assert_eq!(format_datetime_seconds(Lang::En, ms), "2023-11-14 22:13:20 UTC");
        assert_eq!(format_datetime_seconds(Lang::Fi, ms), "14.11.2023 klo 22.13.20 UTC");
        assert_eq!(format_datetime_seconds(Lang::Es, ms), "14/11/2023 22:13:20 UTC");
    }

    #[test]
    fn dates_per_language() {
        let ms = 1_700_000_000_000; // 2023-11-14 22:13:20 UTC
        assert_eq!(format_datetime(Lang::En, ms), "2023-11-14 22:13 UTC");
        assert_eq!(format_datetime(Lang::Fi, ms), "14.11.2023 klo 22.13 UTC");
        assert_eq!(format_datetime(Lang::Es, ms), "14/11/2023 22:13 UTC");
        assert_eq!(
            format_datetime(Lang::Fi, 951_782_400_000 + 3_600_000 * 7 + 60_000 * 5),
            "29.2.2000 klo 7.05 UTC"
        );
        assert_eq!(format_datetime(Lang::En, i64::MAX), "9,223,372,036,854,775,807 ms");
    }

    proptest::proptest! {
        #[test]
        fn grouping_never_changes_the_digits(n in proptest::num::i64::ANY) {
            for lang in Lang::ALL {
                let text = format_integer(lang, n);
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                proptest::prop_assert_eq!(digits, n.unsigned_abs().to_string());
            }
        }

        #[test]
        fn decimals_keep_their_value(n in -1e12f64..1e12) {
            for lang in Lang::ALL {
                let m = marks(lang);
                let plain: String = format_decimal(lang, n, 0, 3)
                    .replace(m.group, "")
                    .replace(m.minus, "-")
                    .replace(m.decimal, ".");
                let back: f64 = plain.parse().unwrap();
                proptest::prop_assert!((back - n).abs() <= 0.0005 + n.abs() * 1e-15, "{} -> {}", n, plain);
            }
        }
    }
}
