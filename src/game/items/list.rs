//! The list an items game draws from: labels, each with an optional group
//! and picture, read from a text file (one label a line) or a CSV file
//! (`label`, and optional `group`, `image` and `file` columns), or built in
//! (`loteria`). A card file keeps the list as JSON ([`ItemList`]), so it is
//! complete on its own.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most items a list holds: a card holds ball numbers, one byte each.
pub const MAX_ITEMS: usize = 255;
/// The longest label, in characters.
pub const MAX_LABEL: usize = 120;
/// The longest group name, in characters.
pub const MAX_GROUP: usize = 40;
/// The longest path in an `image` or `file` column, in characters.
pub const MAX_PATH: usize = 1000;

/// One item: what a cell shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub label: String,
    /// The column it belongs to with `--columns grouped`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The picture's path as the list gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// SHA-256 of the picture's bytes, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// A file to play when the item is called (music bingo's song), as the
    /// list gave its path: `calls --format m3u` lists it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// A list of items and its name (the file's stem, or the built-in name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemList {
    pub name: String,
    pub items: Vec<Item>,
}

/// A list that cannot be used; the text names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error("cannot read '{path}': {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("'{path}', line {line}: {what}")]
    Line {
        path: String,
        line: usize,
        what: String,
    },
    #[error("'{path}': {what}")]
    List { path: String, what: String },
}

/// The built-in lists by the name `--items` takes.
pub const BUILTIN: [&str; 1] = ["loteria"];

/// The 54 cards of the traditional lotería deck, in their order.
const LOTERIA: [&str; 54] = [
    "El Gallo",
    "El Diablito",
    "La Dama",
    "El Catrín",
    "El Paraguas",
    "La Sirena",
    "La Escalera",
    "La Botella",
    "El Barril",
    "El Árbol",
    "El Melón",
    "El Valiente",
    "El Gorrito",
    "La Muerte",
    "La Pera",
    "La Bandera",
    "El Bandolón",
    "El Violoncello",
    "La Garza",
    "El Pájaro",
    "La Mano",
    "La Bota",
    "La Luna",
    "El Cotorro",
    "El Borracho",
    "El Negrito",
    "El Corazón",
    "La Sandía",
    "El Tambor",
    "El Camarón",
    "Las Jaras",
    "El Músico",
    "La Araña",
    "El Soldado",
    "La Estrella",
    "El Cazo",
    "El Mundo",
    "El Apache",
    "El Nopal",
    "El Alacrán",
    "La Rosa",
    "La Calavera",
    "La Campana",
    "El Cantarito",
    "El Venado",
    "El Sol",
    "La Corona",
    "La Chalupa",
    "El Pino",
    "El Pescado",
    "La Palma",
    "La Maceta",
    "El Arpa",
    "La Rana",
];

impl ItemList {
    /// A built-in list by name.
    pub fn builtin(name: &str) -> Option<ItemList> {
        (name == "loteria").then(|| ItemList {
            name: "Lotería".into(),
            items: LOTERIA.iter().map(|&l| Item::labelled(l)).collect(),
        })
    }

    /// Reads `--items`: a built-in name, a `.csv` file, or a text file.
    pub fn read(arg: &str) -> Result<ItemList, ListError> {
        if let Some(list) = ItemList::builtin(arg) {
            return Ok(list);
        }
        let path = Path::new(arg);
        let shown = path.display().to_string();
        let text = std::fs::read(path).map_err(|source| ListError::Io {
            path: shown.clone(),
            source,
        })?;
        let text = String::from_utf8(text).map_err(|e| ListError::List {
            path: shown.clone(),
            what: format!(
                "not UTF-8 text (byte {}): save the list as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        })?;
        let name = path
            .file_stem()
            .map_or_else(|| "items".into(), |s| s.to_string_lossy().into_owned());
        let csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let items = if csv {
            read_csv(&text, path)?
        } else {
            read_lines(&text, &shown)?
        };
        let list = ItemList { name, items };
        list.check()
            .map_err(|what| ListError::List { path: shown, what })?;
        Ok(list)
    }

    /// What no list may be: empty, or longer than [`MAX_ITEMS`].
    pub fn check(&self) -> Result<(), String> {
        match self.items.len() {
            0 => Err("no items: give one label a line".into()),
            n if n > MAX_ITEMS => Err(format!(
                "{n} items; a list holds at most {MAX_ITEMS} (split it into two games)"
            )),
            _ => Ok(()),
        }
    }

    /// The groups in order of first appearance, with the items' places in
    /// each; None when some item has no group.
    pub fn groups(&self) -> Option<Vec<(String, Vec<usize>)>> {
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            let group = item.group.as_ref()?;
            match groups.iter_mut().find(|(g, _)| g == group) {
                Some((_, members)) => members.push(i),
                None => groups.push((group.clone(), vec![i])),
            }
        }
        Some(groups)
    }

    /// The labels, in ball order.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|i| i.label.as_str())
    }
}

impl Item {
    fn labelled(label: &str) -> Item {
        Item {
            label: label.into(),
            group: None,
            image: None,
            sha256: None,
            file: None,
        }
    }
}

/// A label as a person sees it ([`crate::shown`]), or what is wrong with
/// it; a repeat is found after normalising and case-folding, so `apple`,
/// `Apple` and `ap<zero-width space>ple` cannot share a card.
fn label(text: &str, seen: &mut Vec<(String, usize)>, line: usize) -> Result<String, String> {
    let label = crate::shown::shown(text, MAX_LABEL).map_err(|e| match e {
        crate::shown::ShownError::TooLong { len, max } => {
            format!("the label is {len} characters; at most {max} fit a cell")
        }
        e => format!("the label: {e}"),
    })?;
    if label.is_empty() {
        return Err("the line is blank: remove it (one item a line)".into());
    }
    let folded = crate::shown::folded(&label);
    if let Some((_, first)) = seen.iter().find(|(s, _)| *s == folded) {
        return Err(format!("{label:?} repeats line {first}: each item once"));
    }
    seen.push((folded, line));
    Ok(label)
}

/// A group name or a file field as a person sees it, or what is wrong
/// with it, naming `column`.
fn field_text(column: &str, text: &str, max: usize) -> Result<String, String> {
    crate::shown::shown(text, max).map_err(|e| format!("the {column}: {e}"))
}

/// One label a line.
fn read_lines(text: &str, path: &str) -> Result<Vec<Item>, ListError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut seen = Vec::new();
    // Blank lines at the end are how editors leave files: ignored (a blank
    // line between items is still refused, as a missing item).
    let mut lines: Vec<&str> = text.lines().collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            label(line, &mut seen, i + 1)
                .map(|l| Item::labelled(&l))
                .map_err(|what| ListError::Line {
                    path: path.into(),
                    line: i + 1,
                    what,
                })
        })
        .collect()
}

/// A CSV list: a header naming `label` and optionally `group`, `image`
/// and `file`.
fn read_csv(text: &str, path: &Path) -> Result<Vec<Item>, ListError> {
    let shown = path.display().to_string();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let at = |line: usize, what: String| ListError::Line {
        path: shown.clone(),
        line,
        what,
    };
    let headers = reader.headers().map_err(|e| at(1, e.to_string()))?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let Some(label_at) = column("label") else {
        return Err(at(
            1,
            "no 'label' column: the first line names the columns (label, and optionally group, image and file)".into(),
        ));
    };
    let (group_at, image_at, file_at) = (column("group"), column("image"), column("file"));
    let base = path.parent().unwrap_or(Path::new("."));
    let mut seen = Vec::new();
    let mut items = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            at(line, e.to_string())
        })?;
        let line = row.position().map_or(0, |p| p.line() as usize);
        let field = |i: Option<usize>| i.and_then(|i| row.get(i)).map(str::trim);
        let label = label(field(Some(label_at)).unwrap_or(""), &mut seen, line)
            .map_err(|what| at(line, what))?;
        let group = (field(group_at).filter(|g| !g.is_empty()))
            .map(|g| field_text("group", g, MAX_GROUP))
            .transpose()
            .map_err(|what| at(line, what))?;
        let (image, sha256) = match field(image_at).filter(|i| !i.is_empty()) {
            Some(image) => {
                let sha = picture(&base.join(image)).map_err(|what| at(line, what))?;
                (Some(image.to_string()), Some(sha))
            }
            None => (None, None),
        };
        let file = (field(file_at).filter(|f| !f.is_empty()))
            .map(|f| field_text("file", f, MAX_PATH))
            .transpose()
            .map_err(|what| at(line, what))?;
        items.push(Item {
            label,
            group,
            image,
            sha256,
            file,
        });
    }
    Ok(items)
}

/// The SHA-256 of a PNG or JPEG picture, decoded whole (so a damaged one
/// is refused before a card is made), or what is wrong with it.
fn picture(path: &Path) -> Result<String, String> {
    let bytes = super::picture::read(path)?;
    super::picture::rgb(&bytes).map_err(|why| format!("'{}': {why}", path.display()))?;
    Ok(crate::text::sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Result<Vec<Item>, ListError> {
        read_lines(text, "words.txt")
    }

    #[test]
    fn a_text_list_is_one_label_a_line_and_its_faults_are_named() {
        let items = lines("\u{feff}apple\r\n  pear \nДом\n日本\n").unwrap();
        let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, ["apple", "pear", "Дом", "日本"]);
        let fault = |text: &str| lines(text).unwrap_err().to_string();
        // See: a newcomer's first hour — a trailing blank line was an error.
        assert_eq!(lines("a\nb\n\n  \n").unwrap().len(), 2);
        assert_eq!(
            fault("a\n\nb\n"),
            "'words.txt', line 2: the line is blank: remove it (one item a line)"
        );
        assert_eq!(
            fault("Apple\npear\napple\n"),
            "'words.txt', line 3: \"apple\" repeats line 1: each item once"
        );
        assert!(fault(&"x".repeat(121)).contains("121 characters; at most 120"));
        assert!(fault("a\tb").contains("control character"));
        // See: hardening round four (two cells that print alike).
        assert_eq!(
            fault("apple\nap\u{200b}ple\n"),
            "'words.txt', line 2: the label: it holds an invisible format character (U+200B), which a screen does not show as typed: remove it"
        );
        assert!(fault("evil\u{202e}\n").contains("a direction mark (U+202E)"));
        assert!(fault("cafe\u{301}\ncaf\u{e9}\n").contains("repeats line 1"));
        assert!(fault("CAFÉ\ncafé\n").contains("repeats line 1"));
    }

    #[test]
    fn loteria_is_the_traditional_deck() {
        let list = ItemList::builtin("loteria").unwrap();
        assert_eq!(list.items.len(), 54);
        assert_eq!(list.items[0].label, "El Gallo");
        assert_eq!(list.items[53].label, "La Rana");
        let mut labels: Vec<&str> = list.labels().collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), 54);
    }

    #[test]
    fn a_csv_list_has_labels_groups_and_checked_pictures() {
        let dir = tempfile::tempdir().unwrap();
        let red = concat!(env!("CARGO_MANIFEST_DIR"), "/data/items/pictures/red.png");
        std::fs::copy(red, dir.path().join("cat.png")).unwrap();
        std::fs::write(dir.path().join("dog.gif"), b"GIF89a").unwrap();
        let csv = dir.path().join("pets.csv");
        std::fs::write(&csv, "label,group,image\ncat,A,cat.png\nmouse,B,\n").unwrap();
        let list = ItemList::read(csv.to_str().unwrap()).unwrap();
        assert_eq!(list.name, "pets");
        assert_eq!(list.items[0].group.as_deref(), Some("A"));
        assert_eq!(list.items[0].sha256.as_ref().unwrap().len(), 64);
        assert_eq!(list.items[1].image, None);
        assert_eq!(list.groups().unwrap().len(), 2);
        std::fs::write(&csv, "label,image\ncat,cat.png\ndog,dog.gif\n").unwrap();
        let err = ItemList::read(csv.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 3") && err.contains("not a PNG or JPEG"),
            "{err}"
        );
        std::fs::write(&csv, "name\ncat\n").unwrap();
        let err = ItemList::read(csv.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no 'label' column"), "{err}");
    }
}
