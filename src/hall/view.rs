//! What the pages show: the hall's [`State`], the open game with its
//! name, paper, prizes and specials, and the night's programme.

use super::open::Open;
use super::rules::{paper_colour, Plan};
use super::shell::Hall;
use super::state::{
    CardShape, Drawn, FileState, GameState, JackpotShown, NightGame, NightShown, PrizeShown, State,
    ToGo,
};
use super::Source;
use crate::play::pattern::Pattern;

impl Hall {
    /// What the pages show.
    pub fn state(&self) -> State {
        let spec = self.cards.files[0].header().spec;
        let game = self.books.open.as_ref().map(|o| {
            let mut game = game_state(o, spec);
            let tracked = (self.cards.tracker.as_ref()).and_then(|t| t.distances(self.tracked));
            game.counting = self.cards.tracker.is_some() && tracked.is_none();
            game.to_go = (tracked.unwrap_or_default().into_iter())
                .map(|d| ToGo {
                    stage: o.stages[d.stage].clone(),
                    holding: d.holding,
                    one: d.one,
                    two: d.two,
                })
                .collect();
            game
        });
        let files = self
            .cards
            .files
            .iter()
            .map(|f| FileState {
                id: f.short_id(),
                count: f.header().count,
                // Every viewer sees the state: the file's name, never
                // where it lies on the caller's machine.
                path: std::path::Path::new(f.path())
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            })
            .collect();
        State {
            game,
            revealed: self.books.revealed.clone(),
            files,
            balls: spec.balls(),
            letters: spec.facts().letters,
            game_name: spec.short_name(),
            patterns: spec.facts().patterns.iter().map(|p| p.name).collect(),
            claims: self.books.claims.iter().rev().take(10).cloned().collect(),
            notice: self.notice.clone(),
            daub: self.daub,
            daub_rule: self.daub_rule,
            audience: self.audience,
            night: self.night_shown(),
            card: card_shape(spec),
            winner: self.winner.clone(),
            reversible: self.books.reversible(),
            languages: self
                .night
                .as_ref()
                .map_or_else(Vec::new, |n| n.languages.clone()),
        }
    }

    /// What each ball shows in an items game: its label (ball n at n - 1)
    /// and the free cell's text; empty labels for numbers. Sent once, apart
    /// from the state, which every call sends to every page.
    pub fn labels(&self) -> super::state::Labels {
        let spec = self.cards.files[0].header().spec;
        match spec.items() {
            Some(deck) => super::state::Labels {
                labels: deck.list.labels().map(String::from).collect(),
                free: deck.free.clone(),
            },
            None => super::state::Labels::default(),
        }
    }

    /// The night's programme, each game with its status.
    pub fn night_shown(&self) -> Option<NightShown> {
        let night = self.night.as_ref()?;
        let playing = self.books.open.as_ref().and_then(|o| o.rules.planned);
        let games = night
            .games
            .iter()
            .enumerate()
            .map(|(i, plan)| {
                let number = i + 1;
                let status = if playing == Some(number) {
                    "playing"
                } else if self.books.played.contains(&number) {
                    "played"
                } else {
                    "to come"
                };
                // A progressive's pot as the ledger carries it tonight.
                let mut plan = plan.clone();
                if let (Some(p), Some(j)) = (&mut plan.rules.progressive, &mut plan.rules.jackpot) {
                    if let Some(pot) = self.books.pots.iter().find(|q| q.rules.name == p.name) {
                        (p.pot, j.prize, j.within) = (pot.pot, pot.pot, pot.within);
                    }
                }
                night_game(number, &plan, status)
            })
            .collect();
        Some(NightShown {
            title: night.title.clone(),
            games,
            next: self.next_planned(),
            paid: super::money::show(self.books.paid, &night.currency),
            currency: night.currency.clone(),
        })
    }
}

/// A face's shape: rows, columns, the free cell and its text.
pub(super) fn card_shape(spec: crate::game::Spec) -> CardShape {
    let facts = spec.facts();
    let cells = facts.rows * facts.cols;
    let free = (0..cells).find(|&i| facts.free >> i & 1 == 1);
    let free_text = match spec.items() {
        Some(deck) => deck.free.clone().unwrap_or_default(),
        None => "FREE".into(),
    };
    CardShape {
        rows: facts.rows,
        cols: facts.cols,
        free,
        free_text,
        noun: spec.face_noun(),
    }
}

/// The open game's prizes: each stage's pattern, amount, and the call it
/// was won at.
fn prizes(o: &Open) -> Vec<PrizeShown> {
    let r = &o.rules;
    (0..o.stages.len())
        .map(|k| PrizeShown {
            pattern: o.stages[k].clone(),
            amount: r.amounts.get(k).map(|&a| r.money(a)),
            won_at: o.won(k),
        })
        .collect()
}

/// The stage whose pattern is drawn: the stage played, or the first prize
/// still open.
fn drawn_stage(o: &Open) -> usize {
    if o.rules.concurrent {
        (0..o.stages.len())
            .find(|&k| o.won(k).is_none())
            .unwrap_or(0)
    } else {
        o.stage
    }
}

/// The open game as the pages show it.
fn game_state(o: &Open, spec: crate::game::Spec) -> GameState {
    let r = &o.rules;
    let shown = o.shown();
    let jackpot = r.jackpot.map(|j| JackpotShown {
        within: j.within,
        prize: r.money(j.prize),
        consolation: r.money(j.consolation),
        left: j.within.saturating_sub(shown.len()),
    });
    let drawn_stage = drawn_stage(o);
    GameState {
        game: o.game,
        balls: o.balls,
        stages: o.stages.clone(),
        stage: o.stages[drawn_stage].clone(),
        prize: o.prize.clone(),
        last_call: o.last_call,
        commitment: o.commitment.hex().to_string(),
        room_seed: o.room.mixed().map(str::to_string),
        calls: shown.to_vec(),
        drawn: drawn(&o.patterns[drawn_stage], spec),
        aim: o.patterns[drawn_stage].aim(),
        name: r.name.clone(),
        paper: r.paper.clone(),
        paper_colour: r.paper.as_deref().and_then(|p| paper_colour(p).ok()),
        balls_from: if r.blower {
            Source::Blower
        } else {
            Source::Rng
        },
        precalls: r.precalls,
        wild: o.wild(),
        wild_game: r.wild,
        jackpot,
        consolation: r.near.map(|n| {
            let last = o.stages.last().map_or("", String::as_str);
            format!(
                "{} shared by the faces {} when {last} is won",
                r.money(n.prize),
                n.words()
            )
        }),
        prizes: prizes(o),
        concurrent: r.concurrent,
        share: r.share.name(),
        payouts: o.payouts.iter().map(listed).collect(),
        announcement: o.announcement.clone(),
        to_go: Vec::new(),
        counting: false,
    }
}

/// A payout as every viewer gets it: at most [`super::payout::LISTED`]
/// winners and shares (a 10,000-way split is not sent whole on each call).
fn listed(p: &super::state::PayoutShown) -> super::state::PayoutShown {
    let keep = super::payout::LISTED;
    let mut p = p.clone();
    p.more = p.winners.len().saturating_sub(keep);
    p.winners.truncate(keep);
    p.shares.truncate(keep);
    p
}

/// A game of the programme, as the console lists it.
fn night_game(number: usize, plan: &Plan, status: &'static str) -> NightGame {
    let r = &plan.rules;
    let prize = plan.prize_text();
    // A share of sales the prize already says in words is not said twice.
    let mut specials = r.programme_specials();
    specials.retain(|s| {
        let words = s
            .split_once(": ")
            .filter(|(k, _)| k.starts_with("prize "))
            .map_or(s.as_str(), |(_, w)| w);
        !prize.contains(words)
    });
    NightGame {
        number,
        name: r.name.clone().unwrap_or_default(),
        paper: r.paper.clone(),
        paper_colour: r.paper.as_deref().and_then(|p| paper_colour(p).ok()),
        stages: plan.stages.clone(),
        prize,
        specials,
        status,
    }
}

/// A pattern as the board draws it: its first way's cells (rows × cols,
/// row-major) and how many ways it has; None for a pattern with no fixed
/// cells (90-ball lines count numbers, not cells).
fn drawn(pattern: &Pattern, spec: crate::game::Spec) -> Option<Drawn> {
    let ways = pattern.ways()?;
    let facts = spec.facts();
    let cells = facts.rows * facts.cols;
    Some(Drawn {
        rows: facts.rows,
        cols: facts.cols,
        cells: (0..cells).map(|i| ways[0].mask >> i & 1 == 1).collect(),
        way: ways[0].name.to_string(),
        ways: ways.len(),
    })
}
