//! The forms CSA gives some header values, and the header lines a record's
//! headers become in a CSA file.
//!
//! A date is `YYYY/MM/DD` or `YYYY/MM/DD HH:MM:SS`; a time control is
//! `$TIME_LIMIT:HH:MM+SS` (V2.2) or `$TIME:total+byoyomi+increment` in
//! seconds (V3.0). A header of another format (`開始日時`, `Date`,
//! `持ち時間`) whose value fits, once its usual variations are put right
//! (a weekday, no seconds, full-width colons), is written under CSA's key
//! in CSA's form; one that does not is kept as a comment. A CSA file's
//! own `$` lines are written back as they were read.

use super::header::csa_key;
use crate::record::headers::Field;
use std::borrow::Cow;

/// The CSA header line (key and value) that the header `key: value`
/// becomes, or `None` when CSA has no key for it or the value is not in
/// CSA's form: the writer keeps it as a comment.
pub fn csa_line<'a>(key: &'a str, value: &'a str) -> Option<(&'a str, Cow<'a, str>)> {
    if value.contains(['\n', '\r']) {
        return None;
    }
    let csa = csa_key(key)?;
    if key.starts_with('$') || key == "N+" || key == "N-" {
        return Some((csa, Cow::Borrowed(value)));
    }
    match Field::of_key(key) {
        Some(Field::StartTime | Field::EndTime) => Some((csa, Cow::Owned(date(value)?))),
        Some(Field::TimeControl) => time_control(value.trim()),
        _ => Some((csa, Cow::Borrowed(value))),
    }
}

/// `value` as CSA's date: `YYYY/MM/DD`, then ` HH:MM:SS` when a time is
/// given (`:00` added to a time given in minutes). A weekday in brackets
/// after the date (`2024/01/05(金)`) is left out; `-` separates the date as
/// `/` does; full-width colons are read as colons.
fn date(value: &str) -> Option<String> {
    let value = value.trim().replace('：', ":");
    let (day, time) = match value.split_once(' ') {
        Some((day, time)) => (day, Some(time.trim())),
        None => (value.as_str(), None),
    };
    let day = match day.find(['(', '（']) {
        Some(at) if day.ends_with([')', '）']) => &day[..at],
        _ => day,
    };
    let parts: Vec<&str> = day.split(['/', '-']).collect();
    let [y, m, d] = parts[..] else { return None };
    let mut out = format!(
        "{:04}/{:02}/{:02}",
        number(y, 4, 1..=9999)?,
        number(m, 2, 1..=12)?,
        number(d, 2, 1..=31)?
    );
    if let Some(time) = time {
        let parts: Vec<&str> = time.split(':').collect();
        let (h, mi, s) = match parts[..] {
            [h, mi] => (h, mi, "0"),
            [h, mi, s] => (h, mi, s),
            _ => return None,
        };
        let (h, mi, s) = (
            number(h, 2, 0..=23)?,
            number(mi, 2, 0..=59)?,
            number(s, 2, 0..=60)?,
        );
        out.push_str(&format!(" {h:02}:{mi:02}:{s:02}"));
    }
    Some(out)
}

/// Digits (at most `width` of them) naming a number in `range`.
fn number(text: &str, width: usize, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
    if text.is_empty() || text.len() > width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| range.contains(n))
}

/// A time control in one of CSA's two forms, under its key: `HH:MM+SS`
/// (`$TIME_LIMIT`) or seconds `total+byoyomi+increment` (`$TIME`).
fn time_control(value: &str) -> Option<(&'static str, Cow<'_, str>)> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let seconds = |t: &str| {
        let (whole, fraction) = t.split_once('.').unwrap_or((t, "0"));
        digits(whole) && digits(fraction)
    };
    let parts: Vec<&str> = value.split('+').collect();
    match parts[..] {
        [clock, byoyomi] => {
            let (h, m) = clock.split_once(':')?;
            (digits(h) && m.len() == 2 && digits(m) && digits(byoyomi))
                .then_some(("$TIME_LIMIT", Cow::Borrowed(value)))
        }
        [total, byoyomi, increment] => [total, byoyomi, increment]
            .iter()
            .all(|t| seconds(t))
            .then_some(("$TIME", Cow::Borrowed(value))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_other_formats_are_written_in_csa_form_or_kept_as_comments() {
        let cases = [
            ("2024/01/05 10:00:00", Some("2024/01/05 10:00:00")),
            ("2024/1/5 9:05", Some("2024/01/05 09:05:00")),
            ("2024/01/05(金) 10:00", Some("2024/01/05 10:00:00")),
            ("2024/01/05（金）", Some("2024/01/05")),
            ("2024-01-05 10：30", Some("2024/01/05 10:30:00")),
            ("2024/01/05", Some("2024/01/05")),
            ("2024-01-05T01:00:00.000Z", None),
            ("2024年1月5日", None),
            ("2024/13/05", None),
            ("2024/01/05 25:00", None),
            ("", None),
        ];
        for (value, csa) in cases {
            let line = csa_line("開始日時", value);
            let expected = csa.map(|v| ("$START_TIME", Cow::Borrowed(v)));
            assert_eq!(line, expected, "{value}");
        }
        assert_eq!(
            csa_line("終了日時", "2024/01/05 18:00").map(|(k, _)| k),
            Some("$END_TIME")
        );
    }

    #[test]
    fn time_controls_csa_lines_and_free_text() {
        for (key, value, csa) in [
            // Time controls fit one of CSA's two forms.
            ("持ち時間", "00:10+30", Some(("$TIME_LIMIT", "00:10+30"))),
            ("持ち時間", "600+10+0", Some(("$TIME", "600+10+0"))),
            ("持ち時間", "300+0+2.5", Some(("$TIME", "300+0+2.5"))),
            ("持ち時間", "各５時間", None),
            ("持ち時間", "10分+30秒", None),
            ("持ち時間", "10:5+30", None),
            // CSA lines and free text are kept as they are.
            (
                "$START_TIME",
                " 10:00:00",
                Some(("$START_TIME", " 10:00:00")),
            ),
            ("$TIME_LIMIT", "各5時間", Some(("$TIME_LIMIT", "各5時間"))),
            ("棋戦", "名人戦", Some(("$EVENT", "名人戦"))),
            ("先手", "A", Some(("N+", "A"))),
            ("表題", "x", None),
            ("棋戦", "a\nb", None),
        ] {
            let expected = csa.map(|(k, v)| (k, Cow::Borrowed(v)));
            assert_eq!(csa_line(key, value), expected, "{key} {value}");
        }
    }
}
