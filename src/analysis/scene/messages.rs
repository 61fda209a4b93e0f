//! The scene loader's error messages in the user's words: which body and field a serde error or
//! a refused body is about (`bodies[3].shape.radius`, with its line and column), and serde's own
//! wording ("invalid type: floating point `1.5`, expected u64") turned into the file's terms.

use super::SceneError;

/// The scene-file field an error of the body's extra shape `k` is about (`shapes[k].density`).
pub(super) fn shape_error_field(k: usize, e: &crate::BodyError) -> String {
    use crate::BodyError as E;
    let field = match e {
        E::NonFinite { field, .. } | E::OutOfRange { field, .. } => match *field {
            "shape offset" => "offset",
            "shape density" | "density" => "density",
            "shape friction" => "friction",
            "shape restitution" => "restitution",
            other => other,
        },
        E::InvalidRotation { .. } => "angle",
        E::Shape { .. } => "shape",
        _ => "",
    };
    format!("shapes[{k}].{field}")
}

/// The scene-file field a body error is about.
pub(super) fn body_error_field(e: &crate::BodyError) -> &'static str {
    use crate::BodyError as E;
    let field = match e {
        E::NonFinite { field, .. } | E::OutOfRange { field, .. } => *field,
        E::Shape { .. } => "shape",
        E::InvalidRotation { .. } => "transform.rotation",
        _ => "",
    };
    // BodyDef's names → the file's names.
    match field {
        f if f.starts_with("transform.translation") => "position",
        f if f.starts_with("transform.rotation") => "angle",
        f if f.starts_with("linear_velocity") => "velocity",
        other => other,
    }
}

/// Turns a serde error with its path into a [`SceneError`] naming the body and the field.
pub(super) fn describe(
    text: &str,
    err: &serde_path_to_error::Error<serde_json::Error>,
) -> SceneError {
    let inner = err.inner();
    let path = err.path().to_string();
    // serde_json reports an array with too many elements (`"position": [0, 3, 4]`) as trailing
    // characters, a syntax error; inside a field it is that field's mistake.
    let too_long = inner.to_string().starts_with("trailing characters") && path != ".";
    // A number too large for f64 (`1e999`), and a value of the wrong kind where serde_json can
    // only say "expected value" (`"kind": 3`), are reported as syntax by serde_json; inside a
    // field of otherwise valid JSON they are that field's mistake, said in the user's words.
    let out_of_range = inner.to_string().starts_with("number out of range") && path != ".";
    let document: Option<serde_json::Value> = serde_json::from_str(text).ok();
    let wrong_kind = inner.is_syntax() && document.is_some() && path != ".";
    if (inner.is_syntax() || inner.is_eof()) && !too_long && !out_of_range && !wrong_kind {
        return SceneError::Syntax {
            line: inner.line(),
            column: inner.column(),
            message: strip_location(&inner.to_string()),
        };
    }
    let location = (inner.line() > 0).then(|| (inner.line(), inner.column()));
    let reason = if too_long {
        "too many values; a point or vector is written [x, y]".to_string()
    } else if out_of_range {
        "the number is too large for a 64-bit float (above about 1.8e308); give a finite number"
            .to_string()
    } else if wrong_kind {
        let pointer = format!(
            "/{}",
            path.replace('[', "/").replace(']', "").replace('.', "/")
        );
        let value = document
            .as_ref()
            .and_then(|d| d.pointer(&pointer))
            .map_or_else(
                || "this value".to_string(),
                |v| {
                    let shown = v.to_string();
                    if shown.chars().count() > 40 {
                        format!("{}…", shown.chars().take(40).collect::<String>())
                    } else {
                        shown
                    }
                },
            );
        let expected = if path.ends_with(".kind") {
            "; expected one of \"static\", \"dynamic\", \"kinematic\""
        } else {
            ""
        };
        format!("{value} is not a valid value here{expected}")
    } else {
        user_words(&strip_location(&inner.to_string()))
    };
    at_path(text, &path, reason, location)
}

/// The path of the first place where `document` (the text as read) has an array and `canonical`
/// (the parsed scene written back) has an object: a struct given as positional values.
pub(super) fn positional_struct(
    document: &serde_json::Value,
    canonical: &serde_json::Value,
    path: String,
) -> Option<String> {
    use serde_json::Value;
    match (document, canonical) {
        (Value::Array(_), Value::Object(_)) => Some(path),
        (Value::Object(d), Value::Object(c)) => d.iter().find_map(|(key, dv)| {
            let cv = c.get(key)?;
            let sub = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            positional_struct(dv, cv, sub)
        }),
        (Value::Array(d), Value::Array(c)) => d
            .iter()
            .zip(c)
            .enumerate()
            .find_map(|(i, (dv, cv))| positional_struct(dv, cv, format!("{path}[{i}]"))),
        _ => None,
    }
}

/// The error for `reason` at serde path `path` (`bodies[3].shape.radius` names body 3, field
/// `shape.radius`; anything else is a top-level field).
pub(super) fn at_path(
    text: &str,
    path: &str,
    reason: String,
    location: Option<(usize, usize)>,
) -> SceneError {
    // `bodies[3].shape.radius` → body 3, field `shape.radius`.
    if let Some(rest) = path.strip_prefix("bodies[") {
        if let Some((index, field)) = rest.split_once(']') {
            if let Ok(index) = index.parse::<usize>() {
                return SceneError::Body {
                    index,
                    name: body_name_in(text, index),
                    field: field.trim_start_matches('.').to_string(),
                    reason,
                    location,
                };
            }
        }
    }
    SceneError::Field {
        field: if path == "." || path.is_empty() {
            String::new()
        } else {
            path.to_string()
        },
        reason,
        location,
    }
}

/// What serde calls the types a scene is read into, said in the file's words.
fn expected_in_user_words(expected: &str) -> String {
    let named = [
        ("internally tagged enum ShapeSpec", "a shape object such as {\"type\": \"circle\", \"radius\": 0.5}"),
        ("internally tagged enum JointSpec", "a joint object such as {\"type\": \"revolute\", \"body_a\": 0, \"body_b\": 1, \"anchor\": [0, 0]}"),
        ("untagged enum BodyRef", "a body's index (0, 1, ...) or its name"),
        ("struct SceneFile", "a scene object such as {\"bodies\": [...]}"),
        ("struct BodySpec", "a body object such as {\"kind\": \"dynamic\", \"position\": [0, 0], \"shape\": {...}}"),
        ("struct ShapeDefSpec", "a shape entry such as {\"shape\": {...}, \"offset\": [0, 0]}"),
        ("struct PieceSpec", "a piece such as {\"shape\": {...}, \"offset\": [0, 0]}"),
        ("struct MotorSpec", "a motor object such as {\"speed\": 1, \"max\": 10}"),
        ("struct SpringSpec", "a spring object such as {\"hertz\": 2, \"damping_ratio\": 0.7}"),
        ("struct Filter", "a filter object such as {\"category\": 1, \"mask\": 255, \"group\": 0}"),
        ("enum KindSpec", "one of \"static\", \"dynamic\", \"kinematic\""),
        ("f64", "a number"),
        ("f32", "a number"),
        ("u64", "a whole number, 0 or more"),
        ("u32", "a whole number, 0 or more"),
        ("usize", "a whole number, 0 or more"),
        ("u16", "a whole number, 0 or more"),
        ("u8", "a whole number, 0 or more"),
        ("i64", "a whole number"),
        ("i32", "a whole number"),
        ("a sequence", "an array"),
        ("a map", "an object"),
    ];
    if let Some((_, words)) = named.iter().find(|(serde, _)| *serde == expected) {
        return (*words).to_string();
    }
    // Any other struct or enum of ours: say what kind of JSON value it is.
    if expected.starts_with("struct ") {
        return "an object with named fields".to_string();
    }
    if expected.contains("enum ") {
        return "one of the names this field takes".to_string();
    }
    expected.to_string()
}

/// A value serde describes (`string "abc"`, `integer \`3\``, `map`) as the user wrote it, cut to
/// 40 characters with control characters escaped.
fn found_in_user_words(found: &str) -> String {
    let quoted = |v: &str| {
        let cut: String = v.chars().take(40).flat_map(char::escape_debug).collect();
        if v.chars().count() > 40 {
            format!("{cut}…")
        } else {
            cut
        }
    };
    if let Some(v) = found.strip_prefix("string \"") {
        return format!("the text \"{}\"", quoted(v.strip_suffix('"').unwrap_or(v)));
    }
    for prefix in ["integer `", "floating point `", "boolean `"] {
        if let Some(v) = found.strip_prefix(prefix) {
            return quoted(v.strip_suffix('`').unwrap_or(v));
        }
    }
    match found {
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        "null" | "unit value" | "unit" => "null".to_string(),
        other => quoted(other),
    }
}

/// serde's messages about a value (`invalid type: string "x", expected f64`) in the file's words
/// (`the text "x" is not a number`); messages serde words plainly (missing or unknown fields,
/// unknown names) pass through.
fn user_words(message: &str) -> String {
    for (prefix, verb) in [("invalid type: ", "is not"), ("invalid value: ", "is not")] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((found, expected)) = rest.rsplit_once(", expected ") {
                return format!(
                    "{} {verb} {}",
                    found_in_user_words(found),
                    expected_in_user_words(expected)
                );
            }
        }
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        if let Some((_, expected)) = rest.split_once(", expected ") {
            if expected.starts_with("struct ") || expected.contains("enum ") {
                return "write this as an object with named fields ({\"field\": value, ...}), \
                        not as an array of values"
                    .to_string();
            }
            let (n, _) = rest.split_once(',').unwrap_or((rest, ""));
            return format!("{n} values is not {expected}");
        }
    }
    if message.starts_with("data did not match any variant of untagged enum BodyRef") {
        return "expected a body's index (0, 1, ...) or its name".to_string();
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return format!("unknown name {}", tame_quoted(rest));
    }
    if message.starts_with("unknown field ") || message.starts_with("duplicate field ") {
        return tame_quoted(message);
    }
    // Whatever else names one of our types: replace the type's name.
    let mut out = message.to_string();
    for t in [
        "internally tagged enum ",
        "untagged enum ",
        "struct ",
        "enum ",
    ] {
        while let Some(i) = out.find(t) {
            let end = out[i + t.len()..]
                .find(|c: char| !c.is_alphanumeric() && c != '_')
                .map_or(out.len(), |j| i + t.len() + j);
            let words = expected_in_user_words(&out[i..end]);
            out.replace_range(i..end, &words);
        }
    }
    out
}

/// `message` with each `` `quoted` `` part cut to 40 characters and control characters escaped
/// (a hostile key or name must not drive the terminal or flood the screen).
fn tame_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    for (k, part) in message.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        let escaped = part.chars().flat_map(|c| {
            let e: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        });
        if k % 2 == 1 && part.chars().count() > 40 {
            out.extend(escaped.take(40));
            out.push('…');
        } else {
            out.extend(escaped);
        }
    }
    out
}

/// serde_json appends " at line L column C" to its messages; the error carries them separately.
fn strip_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The `name` of body `index`, read leniently from text that failed strict reading.
fn body_name_in(text: &str, index: usize) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value
        .get("bodies")?
        .get(index)?
        .get("name")?
        .as_str()
        .map(str::to_string)
}
