//! The default "first differing field" of two states: their pretty `Debug` output, line by line.

use core::fmt::Debug;

/// Names the first field where the pretty `Debug` output (`{:#?}`) of `a` and `b` differs, as
/// `` `path`: a-value vs b-value `` (for example `` `ball.vel[1]`: -9.81 vs -9.810000000000002 ``),
/// or `None` when the outputs are equal.
///
/// The path is built from the field names and element positions of the nested output; a
/// difference in length (a longer list) names the first line one side lacks. Rust prints
/// `f64`/`f32` with the shortest text that reads back to the same bits, so any bit difference
/// of a finite float shows; `NaN` compares unequal to itself under `PartialEq` but prints the
/// same, so a state holding `NaN` fails a `PartialEq` check with no differing line (use a
/// checksum over `to_bits()` for such states).
///
/// # Examples
///
/// ```
/// use tickfold_testing::debug_diff;
///
/// #[derive(Debug)]
/// struct Ball { pos: [f64; 2], vel: [f64; 2] }
///
/// let a = Ball { pos: [1.0, 2.0], vel: [0.0, -9.81] };
/// let b = Ball { pos: [1.0, 2.0], vel: [0.0, -9.8] };
/// assert_eq!(debug_diff(&a, &b).as_deref(), Some("`vel[1]`: -9.81 vs -9.8"));
/// assert_eq!(debug_diff(&a, &a), None);
/// ```
#[must_use]
pub fn debug_diff<S: Debug + ?Sized>(a: &S, b: &S) -> Option<String> {
    let (sa, sb) = (format!("{a:#?}"), format!("{b:#?}"));
    if sa == sb {
        return None;
    }
    let (la, lb): (Vec<&str>, Vec<&str>) = (sa.lines().collect(), sb.lines().collect());
    if la.len() == 1 || lb.len() == 1 {
        return Some(format!("`value`: {} vs {}", sa, sb));
    }
    // A stack of (name, next child index) per nesting level; level 0 is the type line.
    let mut stack: Vec<(String, usize)> = Vec::new();
    for i in 0..la.len().max(lb.len()) {
        let (a, b) = (la.get(i).copied(), lb.get(i).copied());
        let line = a.or(b).unwrap_or_default();
        let depth = (line.len() - line.trim_start().len()) / 4;
        let text = line.trim();
        let closing = text.starts_with(['}', ']', ')']);
        stack.truncate(depth + usize::from(closing));
        let name = if closing {
            String::new()
        } else {
            match stack.last_mut() {
                Some(parent) if depth > 0 => {
                    let index = parent.1;
                    parent.1 += 1;
                    match text.split_once(": ") {
                        Some((field, _)) if !field.contains(['(', '[', '{', ' ']) => {
                            field.to_owned()
                        }
                        _ => format!("[{index}]"),
                    }
                }
                _ => String::new(),
            }
        };
        if a != b {
            let mut path = String::new();
            for (n, _) in stack.iter().skip(1) {
                join(&mut path, n);
            }
            if !closing {
                join(&mut path, &name);
            }
            let strip = |l: Option<&str>| match l {
                None => "(missing)".to_owned(),
                Some(l) => {
                    let t = l.trim().trim_end_matches(',');
                    if closing {
                        t.to_owned()
                    } else {
                        t.split_once(": ")
                            .filter(|_| !name.starts_with('['))
                            .map_or(t, |(_, v)| v)
                            .to_owned()
                    }
                }
            };
            let path = if path.is_empty() {
                "value".into()
            } else {
                path
            };
            return Some(format!("`{path}`: {} vs {}", strip(a), strip(b)));
        }
        if !closing && text.ends_with(['{', '[', '(']) {
            stack.push((name, 0));
        }
    }
    Some(format!("`value`: {sa} vs {sb}"))
}

fn join(path: &mut String, name: &str) {
    if !path.is_empty() && !name.starts_with('[') {
        path.push('.');
    }
    path.push_str(name);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    #[allow(dead_code, reason = "read through Debug")]
    struct Inner {
        y: f64,
    }

    #[derive(Debug)]
    #[allow(dead_code, reason = "read through Debug")]
    struct Outer {
        a: u32,
        list: Vec<Inner>,
        pair: (u8, u8),
    }

    #[test]
    fn names_nested_fields_and_positions() {
        let a = Outer {
            a: 1,
            list: vec![Inner { y: 1.0 }, Inner { y: 2.0 }],
            pair: (3, 4),
        };
        let b = Outer {
            a: 1,
            list: vec![Inner { y: 1.0 }, Inner { y: 2.5 }],
            pair: (3, 4),
        };
        assert_eq!(
            debug_diff(&a, &b).as_deref(),
            Some("`list[1].y`: 2.0 vs 2.5")
        );
        let c = Outer {
            pair: (3, 5),
            ..Outer {
                a: 1,
                list: vec![Inner { y: 1.0 }, Inner { y: 2.0 }],
                pair: (0, 0),
            }
        };
        assert_eq!(debug_diff(&a, &c).as_deref(), Some("`pair[1]`: 4 vs 5"));
        let d = Outer {
            a: 1,
            list: vec![Inner { y: 1.0 }],
            pair: (3, 4),
        };
        assert!(
            debug_diff(&a, &d).unwrap().starts_with("`list"),
            "{:?}",
            debug_diff(&a, &d)
        );
        assert_eq!(
            debug_diff(&1.0f64, &2.0).as_deref(),
            Some("`value`: 1.0 vs 2.0")
        );
    }
}
