//! Which column of a table holds what: a header mapped by its names, or
//! `--columns` naming each column's role.
//!
//! Names are compared without case, spaces, `_`, `-`, `#` or `.`:
//!
//! | role | names |
//! |---|---|
//! | the face's own number | `card`, `card no`, `ticket`, `ticket no`, `number`, `no`, `id`, `serial`, `face`, `perm` … |
//! | the star's cell (75-ball) | `star` |
//! | a strip's number (90-ball; read, not needed) | `strip` |
//! | a cell by letter and row (75-ball) | `B1` … `O5` |
//! | a cell by row and column | `r1c1` … (`c1r1` too) |
//! | a cell by its place | `1` … `25`, `cell1`, `c1`, `n1` …: row by row, or column by column with `--by columns`; a 75-ball table of 24 places skips the free centre |
//! | a face over several lines | a `row` column (1 to the face's rows) and a column for each of the face's columns (`B` … `O`, or `c1` … `c5`), the number column the same on each of its lines |
//!
//! Other columns (a series, a colour) are ignored, and `import` says which.

use super::Shape;

/// What one column of a table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The face's own number.
    Number,
    /// The star's cell, by name (`G4`).
    Star,
    /// A cell, by its row-major place on the face.
    Cell(usize),
    /// A face over several lines: which of its rows this line holds.
    Row,
    /// A face over several lines: this column of the row the line holds.
    Column(usize),
    /// Read past: a strip number, a named `skip`, a column nobody knows.
    Skip,
}

/// A table's columns, mapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    pub roles: Vec<Role>,
    /// The numbering column in words, if any: `column 'Serial'` (its
    /// header's name), or `column 1` with no header.
    pub number: Option<String>,
    /// Names of the columns read past as unknown.
    pub ignored: Vec<String>,
    /// How the cells were found, in words.
    pub cells: &'static str,
}

/// Names of a face's own number.
const NUMBER_NAMES: [&str; 22] = [
    "card",
    "cardno",
    "cardnumber",
    "cardnum",
    "cardid",
    "ticket",
    "ticketno",
    "ticketnumber",
    "ticketid",
    "number",
    "no",
    "num",
    "id",
    "serial",
    "serialno",
    "serialnumber",
    "serialnum",
    "permnumber",
    "face",
    "facenumber",
    "perm",
    "permno",
];

/// A name as compared: lower case, without spaces, `_`, `-`, `#`, `.`.
pub fn normal(name: &str) -> String {
    name.trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '#' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `name` names a face's own number.
pub fn is_number_name(name: &str) -> bool {
    NUMBER_NAMES.contains(&normal(name).as_str())
}

fn digits(s: &str) -> Option<usize> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The cell a name gives by letter and row (`G4`) or by row and column
/// (`r2c3`, `c3r2`), as (row, column) from 0.
fn cell_at(name: &str, shape: &Shape) -> Option<(usize, usize)> {
    let n = normal(name);
    if let Some(col) = shape
        .letters
        .iter()
        .position(|l| n.starts_with(&l.to_lowercase()))
    {
        if let Some(row) = digits(&n[1..]).filter(|r| (1..=shape.rows).contains(r)) {
            return Some((row - 1, col));
        }
    }
    for (first, second, swap) in [("r", "c", false), ("c", "r", true)] {
        let Some((a, b)) = n
            .strip_prefix(first)
            .and_then(|rest| rest.split_once(second))
        else {
            continue;
        };
        if let (Some(a), Some(b)) = (digits(a), digits(b)) {
            let (row, col) = if swap { (b, a) } else { (a, b) };
            if (1..=shape.rows).contains(&row) && (1..=shape.cols).contains(&col) {
                return Some((row - 1, col - 1));
            }
        }
    }
    None
}

/// The place (from 1) a name gives: `7`, `cell7`, `c7`, `n7`.
fn cell_place(name: &str) -> Option<usize> {
    let n = normal(name);
    ["cell", "c", "n", ""]
        .iter()
        .find_map(|prefix| n.strip_prefix(prefix).and_then(digits))
        .filter(|&k| k >= 1)
}

/// The row-major cells that places 1, 2, … fill when a face's cells are
/// written row by row or (`by_columns`) column by column, `with_free` or
/// skipping the free cells.
pub fn place_order(shape: &Shape, by_columns: bool, with_free: bool) -> Vec<usize> {
    let (rows, cols) = (shape.rows, shape.cols);
    (0..rows * cols)
        .map(|k| {
            if by_columns {
                (k % rows) * cols + k / rows
            } else {
                k
            }
        })
        .filter(|&cell| with_free || shape.free >> cell & 1 == 0)
        .collect()
}

/// `column 'Serial'`: a header's column in words, its name cut to 40
/// characters (a header is the source's text, of any length).
fn column_named(name: &str) -> String {
    format!("column '{}'", crate::text::clip(name.trim(), 40))
}

/// A `--columns` list for a header whose cells could not be read by name:
/// its numbering column `number`, the run from its first column that
/// reads as a cell (a letter of the game, a cell's name or place) to its
/// last as `cells`, every other `skip` (`number,skip,cells` for
/// `Serial,Colour,B,B,…,O`); and `--by columns` when the cells run
/// column by column (`B,B,B,B,B,I,…`) and it was not given.
fn suggested(names: &[String], shape: &Shape, by_columns: bool) -> String {
    let cellish = |name: &str| {
        let n = normal(name);
        cell_at(name, shape).is_some()
            || cell_place(name).is_some()
            || shape.letters.iter().any(|l| l.eq_ignore_ascii_case(&n))
    };
    let (Some(first), Some(last)) = (
        names.iter().position(|n| cellish(n)),
        names.iter().rposition(|n| cellish(n)),
    ) else {
        return "number,cells".into();
    };
    let mut out = Vec::new();
    let mut number = false;
    for (i, name) in names.iter().enumerate() {
        if i == first {
            out.push("cells");
        } else if (first..=last).contains(&i) {
            continue;
        } else if !number && is_number_name(name) {
            number = true;
            out.push("number");
        } else {
            out.push("skip");
        }
    }
    let letter = |i: usize| {
        let n = normal(&names[i]);
        (shape.letters.iter()).position(|l| l.eq_ignore_ascii_case(&n))
    };
    let columnwise = first < last && letter(first).is_some() && letter(first) == letter(first + 1);
    let by = if columnwise && !by_columns {
        " --by columns"
    } else {
        ""
    };
    out.join(",") + by
}

/// Maps a header row; an error says what was found and what is missing.
/// Cells are read by name (`B1`, `r1c1`) when the names cover the face,
/// else by place (`1`, `n1`, `cell1` …): `n1` … `n24` is 24 places, though
/// `n1` alone could be the N column's first cell.
pub fn from_header(names: &[String], shape: &Shape, by_columns: bool) -> Result<Columns, String> {
    if let Some(tall) = tall(names, shape) {
        return Ok(tall);
    }
    let mut roles = vec![Role::Skip; names.len()];
    let mut number = None;
    let mut cells = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let n = normal(name);
        if number.is_none() && is_number_name(name) {
            roles[i] = Role::Number;
            number = Some(column_named(name));
        } else if n == "star" && !shape.letters.is_empty() {
            roles[i] = Role::Star;
        } else if !(n.starts_with("strip") || n == "skip") {
            cells.push((i, cell_at(name, shape), cell_place(name)));
        }
    }
    // By name.
    let mut named = Columns {
        roles: roles.clone(),
        number: number.clone(),
        ignored: Vec::new(),
        cells: "cells named by row and column",
    };
    for &(i, at, _) in &cells {
        match at {
            Some((r, c)) => named.roles[i] = Role::Cell(r * shape.cols + c),
            None => named.ignored.push(names[i].trim().to_string()),
        }
    }
    let named_check = named.check(shape);
    if named_check.is_ok() {
        return Ok(named);
    }
    // By place.
    let places = cells.iter().filter(|(_, _, k)| k.is_some()).count();
    let order = place_order(shape, by_columns, places == shape.rows * shape.cols);
    let mut placed = Columns {
        roles,
        number,
        ignored: Vec::new(),
        cells: if by_columns {
            "cells by place, column by column"
        } else {
            "cells by place, row by row"
        },
    };
    for &(i, _, k) in &cells {
        match k.and_then(|k| order.get(k - 1)) {
            Some(&cell) => placed.roles[i] = Role::Cell(cell),
            None => placed.ignored.push(names[i].trim().to_string()),
        }
    }
    let missing = match placed.check(shape) {
        Ok(()) => return Ok(placed),
        Err(_) if places == 0 => named_check.unwrap_err(),
        Err(missing) => missing,
    };
    Err(format!(
        "the header does not name every cell: {missing} (columns read: {}); \
         name them with --columns, e.g. --columns {}",
        crate::text::clip(
            &names
                .iter()
                .map(|n| n.trim())
                .collect::<Vec<_>>()
                .join(", "),
            120
        ),
        suggested(names, shape, by_columns),
    ))
}

/// A face over several lines (`Serial,Row,B,I,N,G,O`): a `row` column and
/// one column for each of the face's columns, by letter or as `c1`, `col1`.
fn tall(names: &[String], shape: &Shape) -> Option<Columns> {
    let row = names
        .iter()
        .position(|n| matches!(normal(n).as_str(), "row" | "rowno" | "line"))?;
    let mut roles = vec![Role::Skip; names.len()];
    roles[row] = Role::Row;
    let mut number = None;
    let mut ignored = Vec::new();
    let mut found = vec![false; shape.cols];
    for (i, name) in names.iter().enumerate().filter(|&(i, _)| i != row) {
        let n = normal(name);
        let by_letter = shape
            .letters
            .iter()
            .position(|l| l.eq_ignore_ascii_case(&n));
        let by_number = ["c", "col", "column"]
            .iter()
            .find_map(|p| n.strip_prefix(p).and_then(digits))
            .filter(|&k| (1..=shape.cols).contains(&k))
            .map(|k| k - 1);
        match by_letter.or(by_number) {
            Some(c) if !found[c] => {
                found[c] = true;
                roles[i] = Role::Column(c);
            }
            _ if number.is_none() && is_number_name(name) => {
                roles[i] = Role::Number;
                number = Some(column_named(name));
            }
            _ => ignored.push(name.trim().to_string()),
        }
    }
    found.iter().all(|&f| f).then_some(Columns {
        roles,
        number,
        ignored,
        cells: "a face over several lines, a row a line",
    })
}

/// Maps `--columns`: a comma-separated role for each column: `number`,
/// `star`, `skip` (or `-`), `cells` (this column and as many after it as a
/// face has cells, or a 75-ball face's 24 numbered ones when the table has
/// no more), or any header name. `fields` is the width of the table's first
/// row.
pub fn from_list(
    list: &str,
    (fields, header): (usize, Option<&[&str]>),
    shape: &Shape,
    by_columns: bool,
) -> Result<Columns, String> {
    let items: Vec<&str> = list.split(',').map(str::trim).collect();
    let mut roles = Vec::new();
    let mut number = None;
    for (i, item) in items.iter().enumerate() {
        match normal(item).as_str() {
            "number" => {
                roles.push(Role::Number);
                number = Some(match header.and_then(|h| h.get(roles.len() - 1)) {
                    Some(name) => column_named(name),
                    None => format!("column {}", roles.len()),
                });
            }
            "star" => roles.push(Role::Star),
            "skip" | "" => roles.push(Role::Skip),
            "cells" => {
                let rest = items.len() - i - 1;
                let left = fields.saturating_sub(roles.len() + rest);
                let all = shape.rows * shape.cols;
                let with_free = left >= all || shape.free == 0;
                let order = place_order(shape, by_columns, with_free);
                roles.extend(order.iter().map(|&c| Role::Cell(c)));
            }
            _ => match (cell_at(item, shape), cell_place(item)) {
                (Some((r, c)), _) => roles.push(Role::Cell(r * shape.cols + c)),
                (None, Some(k)) => match place_order(shape, by_columns, true).get(k - 1) {
                    Some(&cell) => roles.push(Role::Cell(cell)),
                    None => return Err(format!("{item:?} is past the face's cells")),
                },
                (None, None) => {
                    return Err(format!(
                        "{item:?} is not a role: use number, star, skip, cells or a cell name \
                         such as B1 or r1c1"
                    ))
                }
            },
        }
    }
    let columns = Columns {
        roles,
        number,
        ignored: Vec::new(),
        cells: if by_columns {
            "cells as --columns names them, column by column"
        } else {
            "cells as --columns names them, row by row"
        },
    };
    columns.check(shape)?;
    Ok(columns)
}

impl Columns {
    /// Every cell a face needs is mapped once (the free centre may be
    /// missing); the error names what is missing or doubled.
    fn check(&self, shape: &Shape) -> Result<(), String> {
        let mut seen = vec![0u32; shape.rows * shape.cols];
        for role in &self.roles {
            if let Role::Cell(c) = role {
                seen[*c] += 1;
            }
        }
        let name = |c: usize| shape.cell_name(c);
        if let Some(c) = seen.iter().position(|&n| n > 1) {
            return Err(format!("cell {} is named twice", name(c)));
        }
        let missing: Vec<String> = (0..seen.len())
            .filter(|&c| seen[c] == 0 && shape.free >> c & 1 == 0)
            .map(name)
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "no column for {} ({})",
                crate::text::count_of(missing.len() as u64, "cell"),
                crate::text::clip(&missing.join(", "), 60)
            ))
        }
    }

    /// The width a row must have.
    pub fn width(&self) -> usize {
        self.roles.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Spec;

    fn names(text: &str) -> Vec<String> {
        text.split(',').map(String::from).collect()
    }

    #[test]
    fn headers_map_by_letter_by_row_and_column_and_by_place() {
        let shape = Shape::of(Spec::named("75").unwrap());
        // bingomint's own export: card, B1, I1, …, O5, star.
        let mut header = vec!["card".to_string()];
        for r in 1..=5 {
            for l in ["B", "I", "N", "G", "O"] {
                header.push(format!("{l}{r}"));
            }
        }
        header.push("star".into());
        let c = from_header(&header, &shape, false).unwrap();
        assert_eq!(c.roles[0], Role::Number);
        assert_eq!(c.roles[2], Role::Cell(1));
        assert_eq!(c.roles[26], Role::Star);
        // 24 places, column by column, skipping the centre; a series ignored.
        let places: Vec<String> = (1..=24).map(|k| format!("n{k}")).collect();
        let header = [vec!["Card No.".into(), "Series".into()], places].concat();
        let c = from_header(&header, &shape, true).unwrap();
        assert_eq!(c.number.as_deref(), Some("column 'Card No.'"));
        assert_eq!(c.ignored, ["Series"]);
        assert_eq!(c.roles[2], Role::Cell(0));
        assert_eq!(c.roles[3], Role::Cell(5));
        // N column: rows 1, 2, then 4 (the centre skipped).
        assert_eq!(c.roles[2 + 10..2 + 13], [2, 7, 17].map(Role::Cell));
        let err = from_header(&names("id,a,b,c"), &shape, false).unwrap_err();
        assert!(err.contains("--columns"), "{err}");
    }

    #[test]
    fn a_list_names_each_column() {
        let shape = Shape::of(Spec::named("90").unwrap());
        let c = from_list("number,skip,cells", (29, None), &shape, false).unwrap();
        assert_eq!(c.number.as_deref(), Some("column 1"));
        assert_eq!(c.width(), 29);
        assert_eq!(c.roles[2], Role::Cell(0));
        assert_eq!(c.roles[28], Role::Cell(26));
        assert!(from_list("number,cells,bogus", (30, None), &shape, false).is_err());
        assert!(from_list("number,r1c1", (2, None), &shape, false)
            .unwrap_err()
            .contains("no column for"));
    }
}
