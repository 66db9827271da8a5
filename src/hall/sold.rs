//! The faces sold tonight: `--sold` ranges read and checked against a file.

/// Sold faces that cannot be read, or are not the file's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoldError {
    #[error("{0:?} is not a face number or a range like 1..5000 (or of serials as printed, CH-04512..CH-04517)")]
    NotANumber(String),
    #[error("{0:?} is an empty range: faces start at 1 and a range runs low..high")]
    Empty(String),
    #[error("name the faces sold, such as 1..5000,7001..9000")]
    Nothing,
    #[error("{start}..{end} is not within the faces of '{path}', numbered {first}..{last}")]
    Outside {
        start: u64,
        end: u64,
        path: String,
        first: u64,
        last: u64,
    },
}

/// Whether face `n` of file `f` was sold, by the ranges `sold` of the
/// first file (None: every face of every file).
pub fn is_sold(sold: Option<&[std::ops::RangeInclusive<u64>]>, f: usize, n: u64) -> bool {
    match sold {
        Some(ranges) if f == 0 => ranges.iter().any(|r| r.contains(&n)),
        _ => true,
    }
}

/// `ranges` when every one is within a file's faces `faces` (the file at
/// `path`); else which is not.
pub fn sold_within(
    ranges: Vec<std::ops::RangeInclusive<u64>>,
    faces: std::ops::RangeInclusive<u64>,
    path: &str,
) -> Result<Vec<std::ops::RangeInclusive<u64>>, SoldError> {
    match ranges
        .iter()
        .find(|r| !faces.contains(r.start()) || !faces.contains(r.end()))
    {
        Some(r) => Err(SoldError::Outside {
            start: *r.start(),
            end: *r.end(),
            path: path.to_string(),
            first: *faces.start(),
            last: *faces.end(),
        }),
        None => Ok(ranges),
    }
}

/// Sold faces: ranges `A..B` or single faces, separated by commas, each
/// end a number or a serial as the first file `header` prints it
/// (`CH-04512..CH-04517`).
pub fn parse_sold(
    text: &str,
    header: &crate::cardfile::Header,
) -> Result<Vec<std::ops::RangeInclusive<u64>>, SoldError> {
    let mut ranges = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            (header.read_serial(s.trim())).ok_or_else(|| SoldError::NotANumber(part.to_string()))
        };
        let range = match part.split_once("..") {
            Some((a, b)) => number(a)?..=number(b)?,
            None => number(part)?..=number(part)?,
        };
        if range.is_empty() || *range.start() == 0 {
            return Err(SoldError::Empty(part.to_string()));
        }
        ranges.push(range);
    }
    if ranges.is_empty() {
        return Err(SoldError::Nothing);
    }
    Ok(ranges)
}
