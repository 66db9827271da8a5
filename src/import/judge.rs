//! The judging pass: every face against its game's rules, duplicates by
//! exact key, the numbering, stars, and whether 90-ball tickets form strips.

use super::read::{self, Layout};
use super::{Describe, Duplicates, ImportError, Item, Options, Source};
use crate::cardfile::header::MAX_FIRST_FACE;
use crate::cardfile::serials::Serials;
use crate::dedup::Xxh3Build;
use crate::game::{Face, Game, Spec, Text, Visit, NO_STAR};
use std::collections::HashMap;

/// Reported faces kept whole; past this, counted.
const REPORTED: usize = 50;

/// A report: the first [`REPORTED`] lines and the count of all.
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
    pub(super) lines: Vec<String>,
    pub(super) total: u64,
}

impl Lines {
    fn push(&mut self, line: impl FnOnce() -> String) {
        self.total += 1;
        if self.lines.len() < REPORTED {
            self.lines.push(line());
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
        if self.total > self.lines.len() as u64 {
            out.push_str(&format!(
                "  … and {} more\n",
                self.total - self.lines.len() as u64
            ));
        }
        out
    }
}

/// What the judging pass found.
pub(super) struct Judged {
    pub(super) describe: Describe,
    pub(super) kept: u64,
    pub(super) first_face: u64,
    /// The kept faces' serials, when more than numbers one after another.
    pub(super) serials: Option<Serials>,
    /// Indices (from 0, in source order) of faces left out.
    pub(super) dropped: Vec<u64>,
    pub(super) dropped_lines: Lines,
    pub(super) breaking: Lines,
    /// 75-ball: faces with a star, without.
    pub(super) stars: (u64, u64),
    pub(super) strips: bool,
    pub(super) not_strips: Option<String>,
}

impl Judged {
    /// The file's game as written.
    pub(super) fn spec(&self, options: &Options) -> Spec {
        options
            .game
            .imported(self.strips, self.breaking.total > 0, self.stars.0 > 0)
    }
}

/// Pass 1.
pub(super) struct Judge<'a> {
    pub(super) source: &'a Source<'a>,
    pub(super) options: &'a Options<'a>,
    pub(super) layout: Layout,
}

impl Visit for Judge<'_> {
    type Out = Result<Judged, ImportError>;

    fn visit<G: Text>(self, game: &G) -> Result<Judged, ImportError> {
        let Judge {
            source,
            options,
            layout,
        } = self;
        let mut pass = Pass::<G>::new(game, options);
        let describe = read::read(source, layout, &mut |item| {
            pass.face(item);
            Ok(())
        })?;
        pass.finish(source, options, describe)
    }
}

/// The judging pass's state.
struct Pass<'g, G: Game> {
    game: &'g G,
    noun: &'static str,
    record: Vec<u8>,
    /// Each key's first face: its index and its place's number (a line,
    /// a value), 8 bytes with the key: 2.5 M cards in about 70 MB.
    seen: HashMap<G::Key, (u32, u32), Xxh3Build>,
    index: u64,
    kept: u64,
    refused: Lines,
    breaking: Lines,
    duplicates: Lines,
    dropped: Vec<u64>,
    /// Every face's number as the source gives it (None: not numbered),
    /// and the kept faces' numbers: the file's serials.
    numbering: Option<Serials>,
    serials: Serials,
    numbering_error: Option<String>,
    stars: (u64, u64),
    star_first: (Option<String>, Option<String>),
    /// 90-ball: the numbers of the strip being filled, and the first way
    /// the tickets failed to form strips.
    cover: u128,
    not_strips: Option<String>,
    loose: bool,
    drop: bool,
    renumber: bool,
    /// Faces a strip of the game holds (6), or 1.
    strip: usize,
    /// The game's faces, for the cells it keeps blank.
    shape: super::Shape,
}

impl<'g, G: Game> Pass<'g, G> {
    fn new(game: &'g G, options: &Options) -> Pass<'g, G> {
        Pass {
            game,
            noun: game.spec().face_noun(),
            record: vec![0; game.spec().record_size()],
            seen: HashMap::with_hasher(Xxh3Build),
            index: 0,
            kept: 0,
            refused: Lines::default(),
            breaking: Lines::default(),
            duplicates: Lines::default(),
            dropped: Vec::new(),
            numbering: None,
            serials: Serials::default(),
            numbering_error: None,
            stars: (0, 0),
            star_first: (None, None),
            cover: 0,
            not_strips: None,
            loose: options.loose,
            drop: options.duplicates == Duplicates::Drop,
            renumber: options.renumber,
            strip: options.game.faces(),
            shape: super::Shape::of(game.spec()),
        }
    }

    /// Follows the source's numbering: one prefix and padding, each
    /// number above the last (gaps are kept); the first break is kept, to
    /// refuse a numbered source.
    fn numbering_step(&mut self, index: u64, item: &Item) {
        if self.renumber || self.numbering_error.is_some() {
            return;
        }
        let noun = self.noun;
        let why = match (&mut self.numbering, &item.number) {
            (None, None) => return,
            (_, Some(w)) if w.number > MAX_FIRST_FACE => format!(
                "{noun} {} is past the largest serial a card file keeps ({MAX_FIRST_FACE})",
                w.text()
            ),
            (None, Some(w)) if index == 0 => {
                let mut all = Serials {
                    prefix: w.prefix.clone(),
                    width: w.width,
                    runs: Vec::new(),
                };
                all.push(w.number);
                self.serials = Serials {
                    runs: Vec::new(),
                    ..all.clone()
                };
                self.numbering = Some(all);
                return;
            }
            (None, Some(w)) => format!("{noun} {} follows faces without a number", w.text()),
            (Some(all), None) => format!(
                "a {noun} without a number follows {noun} {}",
                all.text(all.last())
            ),
            (Some(all), Some(w)) if !all.same_prefix(w) => format!(
                "{noun} {} does not begin as {noun} {} does ({:?}); a card file keeps one \
                 prefix: import each series apart",
                w.text(),
                all.text(all.first()),
                all.prefix
            ),
            (Some(all), Some(w)) if !all.writes(w) => format!(
                "{noun} {} is written with other zeros in front than {noun} {}",
                w.text(),
                all.text(all.first())
            ),
            (Some(all), Some(w)) if w.number > all.last() => {
                all.push(w.number);
                return;
            }
            (Some(all), Some(w)) => format!(
                "{noun} {} follows {noun} {}; numbers must rise through the file \
                 (gaps are kept): sort the source",
                w.text(),
                all.text(all.last())
            ),
        };
        self.numbering_error = Some(format!(
            "{}: {why}; or add --renumber to number the faces 1, 2, … in file order",
            item.at
        ));
    }

    /// A number printed where the game keeps a blank (the 75-ball free
    /// centre) would be dropped by the card file: the card played would not
    /// be the card printed. Refused, loose or not; one line a cell.
    fn printed_in_free_cells(&self, face: &Face) -> Vec<String> {
        let shape = &self.shape;
        (0..shape.rows * shape.cols)
            .filter(|&c| shape.free >> c & 1 == 1 && face.cells[c] != 0)
            .map(|c| {
                format!(
                    "its free cell {} holds {}; a {} card keeps it blank, so that number would be lost (print it elsewhere, or leave the cell empty or FREE)",
                    shape.cell_name(c),
                    face.cells[c],
                    shape.short_name
                )
            })
            .collect()
    }

    /// Judges one face.
    fn face(&mut self, item: Item) {
        let index = self.index;
        self.index += 1;
        let name = match &item.number {
            Some(w) if !self.renumber => format!("{} {w} ({})", self.noun, item.at),
            _ => format!("{} {} ({})", self.noun, index + 1, item.at),
        };
        let serial = item.number.as_ref().map(|w| w.number);
        self.numbering_step(index, &item);
        let printed = self.printed_in_free_cells(&item.face);
        if !printed.is_empty() {
            self.refused
                .push(|| format!("{name}: {}", printed.join("; ")));
            return;
        }
        self.game.encode_faces(&[item.face], &mut self.record);
        let card = match self.game.decode(&self.record) {
            Ok(card) => card,
            Err(why) => {
                self.refused.push(|| format!("{name}: {why}"));
                return;
            }
        };
        let strict = self.game.strict_faults(&card);
        if !strict.is_empty() {
            if self.loose {
                self.breaking
                    .push(|| format!("{name}: {}", strict.join("; ")));
            } else {
                self.refused
                    .push(|| format!("{name}: {}", strict.join("; ")));
                return;
            }
        }
        let key = *self
            .game
            .keys(&card)
            .as_ref()
            .first()
            .expect("a key a face");
        if let Some(&(first, place)) = self.seen.get(&key) {
            let first = match (&self.numbering, self.renumber) {
                (Some(all), false) => all.text(all.number(u64::from(first)).unwrap_or(0)),
                _ => (u64::from(first) + 1).to_string(),
            };
            let at = item.at.at(u64::from(place));
            let line = format!("{name} repeats {} {first} ({at})", self.noun);
            if self.drop {
                self.dropped.push(index);
            }
            self.duplicates.push(|| line);
            return;
        }
        let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        self.seen
            .insert(key, (small(index), small(item.at.number())));
        let starred = item.face.star != NO_STAR;
        if starred {
            self.stars.0 += 1;
            self.star_first.0.get_or_insert_with(|| name.clone());
        } else {
            self.stars.1 += 1;
            self.star_first.1.get_or_insert_with(|| name.clone());
        }
        self.strip_step(&item.face, &name);
        if let Some(n) = serial.filter(|_| self.numbering.is_some()) {
            self.serials.push(n);
        }
        self.kept += 1;
    }

    /// Follows whether the kept tickets form strips, six at a time.
    fn strip_step(&mut self, face: &Face, name: &str) {
        let strip = self.strip as u64;
        if self.not_strips.is_some() || strip < 2 {
            return;
        }
        for &n in face.numbers() {
            if n != 0 {
                if self.cover >> (n - 1) & 1 == 1 {
                    self.not_strips = Some(format!(
                        "{name} holds {n}, which the strip it would join holds already"
                    ));
                }
                self.cover |= 1 << (n - 1);
            }
        }
        if (self.kept + 1) % strip == 0 {
            if self.cover != (1u128 << 90) - 1 && self.not_strips.is_none() {
                self.not_strips = Some(format!(
                    "the six tickets ending with {name} do not hold 1–90 once"
                ));
            }
            self.cover = 0;
        }
    }

    /// The report of faces that break the rules, repeat, or mix stars;
    /// empty when there are none.
    fn refusals(&mut self, path: &str, spec: Spec, describe: &Describe) -> String {
        let mut report = String::new();
        if self.refused.total > 0 {
            report.push_str(&format!(
                "'{path}': {} of {} {}s break the {} rules:\n{}",
                self.refused.total,
                self.index,
                self.noun,
                rules_name(spec),
                self.refused.text()
            ));
            if self.refused.total == self.index && describe.layout.contains("row by row") {
                report.push_str(
                    "  every face breaks them: if the source lists cells column by column, \
                     add --by columns\n",
                );
            }
            if spec.faces() > 1 && !self.loose {
                report.push_str(
                    "  --rules loose imports tickets that break the layout rules but are \
                     valid to play (numbers in their columns, none twice)\n",
                );
            }
        }
        if self.duplicates.total > 0 && !self.drop {
            report.push_str(&format!(
                "'{path}': {} repeat{} an earlier {} (same numbers in the same cells):\n{}  \
                 --duplicates drop keeps the first of each and leaves out the rest\n",
                crate::text::count_of(self.duplicates.total, self.noun),
                if self.duplicates.total == 1 { "s" } else { "" },
                self.noun,
                self.duplicates.text()
            ));
        }
        if self.stars.0 > 0 && self.stars.1 > 0 {
            report.push_str(&format!(
                "'{path}': some cards carry a star and some do not ({} has one, {} none); \
                 a card file's cards all carry one or none\n",
                self.star_first.0.take().unwrap_or_default(),
                self.star_first.1.take().unwrap_or_default()
            ));
        }
        report
    }

    /// The verdict on the whole source.
    fn finish(
        mut self,
        source: &Source,
        options: &Options,
        describe: Describe,
    ) -> Result<Judged, ImportError> {
        let path = source.name();
        let spec = options.game;
        if self.index == 0 {
            return Err(source.not_cards("it holds no faces"));
        }
        let mut report = self.refusals(&path, spec, &describe);
        if !report.is_empty() {
            report.push_str("nothing was written");
            return Err(ImportError::Refused(report));
        }
        let numbered = describe.numbered_by.is_some() && !self.renumber;
        if let Some(why) = self.numbering_error.filter(|_| numbered) {
            return Err(ImportError::Refused(format!(
                "'{path}', {why}\nnothing was written"
            )));
        }
        // Faces left out as duplicates leave gaps: the rest keep their numbers.
        let serials = Some(self.serials).filter(|s| numbered && !s.runs.is_empty());
        let first_face = serials.as_ref().map_or(1, Serials::first);
        let serials = serials.filter(|s| !s.is_plain());
        let strips = spec.faces() > 1 && self.breaking.total == 0 && {
            if self.kept % 6 != 0 && self.not_strips.is_none() {
                self.not_strips = Some(format!(
                    "{} tickets are not a whole number of strips",
                    self.kept
                ));
            }
            self.not_strips.is_none()
        };
        if spec.faces() > 1 && self.breaking.total > 0 && self.not_strips.is_none() {
            self.not_strips =
                Some("tickets that break the rules are kept as single tickets".into());
        }
        Ok(Judged {
            describe,
            kept: self.kept,
            first_face,
            serials,
            dropped: self.dropped,
            dropped_lines: self.duplicates,
            breaking: self.breaking,
            stars: self.stars,
            strips,
            not_strips: self.not_strips.filter(|_| spec.faces() > 1),
        })
    }
}

/// The rules a game's faces are judged by, in words: `75-ball`, `90-ball uk`.
fn rules_name(spec: Spec) -> String {
    match spec.parameters() {
        p if p.starts_with("rules ") => format!("{} {}", spec.short_name(), &p[6..]),
        _ => spec.short_name().to_string(),
    }
}
