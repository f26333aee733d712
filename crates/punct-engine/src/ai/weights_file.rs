//! The text form the evaluation's and the policy's weight files share:
//! `#` comments and one `name = integer` line per weight.

/// A line without its comment, trimmed.
pub(super) fn content(raw: &str) -> &str {
    raw.split('#').next().unwrap_or("").trim()
}

/// Reads `name = integer` on line `line`: the index of `name` in `names`
/// (each a `what`: "feature", "policy term") and the value, within ±`max`.
pub(super) fn entry(
    content: &str,
    line: usize,
    names: &[&str],
    what: &str,
    max: i32,
) -> Result<(usize, i32), String> {
    let (name, value) = content
        .split_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .ok_or_else(|| format!("line {line}: expected `name = integer`, got `{content}`"))?;
    let index = names
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| format!("line {line}: unknown {what} `{name}`"))?;
    let v: i32 = value
        .parse()
        .ok()
        .filter(|v: &i32| v.abs() <= max)
        .ok_or_else(|| {
            format!("line {line}: `{name}`: `{value}` is not an integer within ±{max}")
        })?;
    Ok((index, v))
}

/// `header` as comment lines, for the top of a file.
pub(super) fn comments(header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(if line.is_empty() { "#" } else { "# " });
        out.push_str(line);
        out.push('\n');
    }
    out
}
