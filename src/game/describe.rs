//! What a game says about itself to people: the summary of a run, the
//! fields `info` lists, and the exact counts `count` prints.

use super::uk90;
use super::us75::StarRule;
use super::Spec;
use num_bigint::BigUint;

impl Spec {
    /// What a run of `count` records made, for summaries: `75-ball cards`,
    /// `90-ball strips (uk, 6000 tickets)`.
    pub fn made(self, count: u64) -> String {
        let s = if count == 1 { "" } else { "s" };
        match self {
            Spec::Us75 { .. } | Spec::Us80 => format!("{} card{s}", self.short_name()),
            Spec::Uk90 { rules } => format!(
                "90-ball strip{s} ({}, {} tickets)",
                rules.name(),
                count * self.faces() as u64
            ),
            Spec::Tickets90 { .. } => format!("90-ball ticket{s} ({})", self.parameters()),
            Spec::Items(deck) => format!("items card{s} ({})", deck.describe()),
        }
    }

    /// The fields `info` lists about the game, as (field, value): those
    /// before the record layout, and those after it.
    #[allow(clippy::type_complexity)]
    pub fn info(
        self,
        count: u64,
        star_recorded: bool,
    ) -> (Vec<(&'static str, String)>, Vec<(&'static str, String)>) {
        match self {
            Spec::Us75 { star } => {
                let star = match (star, star_recorded) {
                    (StarRule::On, _) => "yes, one per card",
                    (_, true) => "no",
                    _ => "not recorded in a v3 header (each card's centre byte says: 12 no star, another cell its star)",
                };
                (
                    vec![("cards", count.to_string())],
                    vec![("star", star.to_string())],
                )
            }
            Spec::Us80 => (vec![("cards", count.to_string())], Vec::new()),
            Spec::Items(deck) => (
                vec![("items", deck.describe()), ("cards", count.to_string())],
                Vec::new(),
            ),
            Spec::Uk90 { rules } => (
                vec![
                    ("rules", rules.name().to_string()),
                    ("strips", format!("{count} ({} tickets)", 6 * count)),
                ],
                Vec::new(),
            ),
            Spec::Tickets90 { rules, loose } => (
                vec![
                    (
                        "rules",
                        if loose {
                            format!(
                                "loose: valid to play (numbers in their columns, none twice), \
                                 not all meeting the {} rules",
                                rules.name()
                            )
                        } else {
                            rules.name().to_string()
                        },
                    ),
                    (
                        "tickets",
                        format!("{count} single tickets (not grouped in strips)"),
                    ),
                ],
                Vec::new(),
            ),
        }
    }

    /// The exact counts `count` prints, as (label, value) lines, and a title.
    pub fn counts(self) -> (Option<String>, Vec<(&'static str, BigUint)>) {
        match self {
            Spec::Us75 { .. } => {
                // Ordered draws: 15·14·13·12·11 for B, I, G, O; 15·14·13·12 for N.
                let cards = BigUint::from(360_360u64).pow(4) * BigUint::from(32_760u64);
                let stars = &cards * BigUint::from(24u32);
                (
                    None,
                    vec![
                        ("75-ball cards (distinct number grids):", cards),
                        ("with a star on one of 24 cells:       ", stars),
                    ],
                )
            }
            Spec::Us80 => {
                // Ordered draws of four of twenty in each of four columns.
                let cards = BigUint::from(20u64 * 19 * 18 * 17).pow(4);
                (
                    None,
                    vec![("80-ball cards (distinct number grids):", cards)],
                )
            }
            Spec::Uk90 { rules } | Spec::Tickets90 { rules, .. } => {
                // A fresh build: `count` also checks the tables come out the same.
                let c = uk90::tables::Tables::build(rules).counts();
                (
                    Some(format!("90-ball, rule set {}", rules.name())),
                    vec![
                        ("valid rows:                     ", c.rows.into()),
                        ("ticket column-count vectors:    ", c.vectors.into()),
                        ("ticket layouts:                 ", c.ticket_layouts.into()),
                        ("strip layouts (tickets ordered):", c.strip_layouts),
                        ("numbered strips:                ", c.numbered_strips),
                    ],
                )
            }
            Spec::Items(deck) => (
                Some(format!("items: {}", deck.describe())),
                vec![("items cards (distinct grids):", deck.count())],
            ),
        }
    }
}
