//! A bounds-checked walk over a snapshot's MessagePack payload, before anything is decoded from
//! it: the payload must be exactly one value (nothing after it), nested at most [`MAX_DEPTH`]
//! deep, with every float finite except in the fields that legitimately hold an infinity (see
//! [`MAY_BE_INFINITE`]). One rule for every number of the world's state, so a field added later is
//! covered without a check of its own. Follows the MessagePack specification's markers; reads
//! nothing past the end and allocates nothing but its stack.

/// Deepest nesting of maps and arrays a world's state reaches is about 10; more is forged.
const MAX_DEPTH: usize = 32;

/// Fields whose value may be infinite (never NaN): a tree's build quality before its first full
/// build (`DynamicTree::built_ratio`), a contact's lower bound on its gap when it has none
/// (`ComputedAt::gap`, −∞), and a joint's break thresholds (`JointCommon`, +∞ for never).
const MAY_BE_INFINITE: &[&str] = &["built_ratio", "gap", "force_threshold", "torque_threshold"];

/// One open container: entries still to read, whether it is a map, the field it is the value of
/// (the nearest enclosing map key), and for a map the key being read (the last string key, which
/// names the value that follows).
struct Open<'a> {
    left: u64,
    map: bool,
    name: Option<&'a str>,
    key: Option<&'a str>,
}

/// Checks `payload` as described in the module notes; the error says what is wrong and where
/// (the byte offset and the field).
pub(super) fn scan(payload: &[u8]) -> Result<(), String> {
    let mut at = 0usize;
    let take = |at: &mut usize, n: u64| -> Result<&[u8], String> {
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| at.checked_add(n))
            .filter(|&e| e <= payload.len())
            .ok_or_else(|| format!("it ends inside a value at byte {at}"))?;
        let s = &payload[*at..end];
        *at = end;
        Ok(s)
    };
    let be = |s: &[u8]| s.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    // The stack of open containers, the root's slot first.
    let mut stack: Vec<Open> = vec![Open {
        left: 1,
        map: false,
        name: None,
        key: None,
    }];
    loop {
        // Close finished containers; stop when the root value is read.
        while stack.last().is_some_and(|o| o.left == 0) {
            stack.pop();
        }
        let Some(top) = stack.last_mut() else {
            break;
        };
        top.left -= 1;
        // In a map, entries alternate key, value: `left` counts both, so an even remainder after
        // taking one means this one is a value.
        let reading_key = top.map && top.left % 2 == 1;
        let field = if top.map { top.key } else { top.name };
        let start = at;
        let marker = take(&mut at, 1)?[0];
        let mut container = None;
        match marker {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => {}
            0x80..=0x8f => container = Some((u64::from(marker & 0x0f) * 2, true)),
            0x90..=0x9f => container = Some((u64::from(marker & 0x0f), false)),
            0xa0..=0xbf | 0xd9..=0xdb => {
                let len = match marker {
                    0xd9 => be(take(&mut at, 1)?),
                    0xda => be(take(&mut at, 2)?),
                    0xdb => be(take(&mut at, 4)?),
                    _ => u64::from(marker & 0x1f),
                };
                let text = take(&mut at, len)?;
                if reading_key {
                    let top = stack.last_mut().expect("the open map");
                    top.key = std::str::from_utf8(text).ok();
                }
            }
            0xc4..=0xc6 => {
                let len = be(take(&mut at, 1 << (marker - 0xc4))?);
                take(&mut at, len)?;
            }
            0xc7..=0xc9 => {
                let len = be(take(&mut at, 1 << (marker - 0xc7))?);
                take(&mut at, len + 1)?;
            }
            0xca | 0xcb => {
                let value = if marker == 0xca {
                    f64::from(f32::from_bits(be(take(&mut at, 4)?) as u32))
                } else {
                    f64::from_bits(be(take(&mut at, 8)?))
                };
                check_number(value, field, start)?;
            }
            0xcc..=0xcf => {
                take(&mut at, 1 << (marker - 0xcc))?;
            }
            0xd0..=0xd3 => {
                take(&mut at, 1 << (marker - 0xd0))?;
            }
            0xd4..=0xd8 => {
                take(&mut at, (1 << (marker - 0xd4)) + 1)?;
            }
            0xdc | 0xdd => {
                let n = be(take(&mut at, if marker == 0xdc { 2 } else { 4 })?);
                container = Some((n, false));
            }
            0xde | 0xdf => {
                let n = be(take(&mut at, if marker == 0xde { 2 } else { 4 })?);
                container = Some((n * 2, true));
            }
            0xc1 => return Err(format!("byte {start} is not a MessagePack value (0xc1)")),
        }
        if let Some((left, map)) = container {
            check_container(left, payload.len() - at, stack.len(), start)?;
            stack.push(Open {
                left,
                map,
                name: field,
                key: None,
            });
        }
    }
    if at != payload.len() {
        return Err(format!(
            "{} bytes follow the world's state (the state ends at byte {at})",
            payload.len() - at
        ));
    }
    Ok(())
}

/// A number read at byte `start` in `field`: finite, or infinite where the field may be.
fn check_number(value: f64, field: Option<&str>, start: usize) -> Result<(), String> {
    let allowed = value.is_infinite() && field.is_some_and(|f| MAY_BE_INFINITE.contains(&f));
    if value.is_finite() || allowed {
        return Ok(());
    }
    Err(format!(
        "{} {value} at byte {start}: every number of a world is finite",
        field.map_or_else(|| "a number".to_string(), |f| format!("field `{f}` holds")),
    ))
}

/// A container opened at byte `start` claiming `left` entries (keys and values counted apart)
/// with `bytes` left in the payload, inside `depth` open containers: every entry takes at least a
/// byte (a count beyond the bytes left is forged), and nesting is bounded.
fn check_container(left: u64, bytes: usize, depth: usize, start: usize) -> Result<(), String> {
    if left > bytes as u64 {
        return Err(format!(
            "a container at byte {start} claims {left} entries in {bytes} bytes"
        ));
    }
    if depth > MAX_DEPTH {
        return Err(format!(
            "values nested more than {MAX_DEPTH} deep at byte {start}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::scan;

    #[test]
    fn one_finite_value_passes_and_everything_else_is_named() {
        // {"a": [1, 2.5], "gap": -inf}
        let mut ok = vec![0x82, 0xa1, b'a', 0x92, 0x01, 0xcb];
        ok.extend_from_slice(&2.5f64.to_be_bytes());
        ok.extend_from_slice(&[0xa3, b'g', b'a', b'p', 0xcb]);
        ok.extend_from_slice(&f64::NEG_INFINITY.to_be_bytes());
        assert_eq!(scan(&ok), Ok(()));
        // The same value twice: something follows the state.
        let twice = [ok.clone(), ok.clone()].concat();
        assert!(scan(&twice).unwrap_err().contains("follow"));
        // NaN where an infinity is allowed, and an infinity in a field that must be finite.
        let mut nan = ok.clone();
        let n = nan.len();
        nan[n - 8..].copy_from_slice(&f64::NAN.to_be_bytes());
        assert!(scan(&nan).unwrap_err().contains("`gap`"));
        let mut inf = ok.clone();
        inf[6..14].copy_from_slice(&f64::INFINITY.to_be_bytes());
        assert!(scan(&inf).unwrap_err().contains("`a`"));
        // Cut anywhere: never a panic, always an error.
        for cut in 0..ok.len() {
            assert!(scan(&ok[..cut]).is_err(), "cut at {cut}");
        }
        // A count larger than the bytes, and nesting beyond the cap.
        assert!(scan(&[0xdd, 0xff, 0xff, 0xff, 0xff])
            .unwrap_err()
            .contains("claims"));
        assert!(scan(&[0x91; 40]).unwrap_err().contains("nested"));
    }
}
