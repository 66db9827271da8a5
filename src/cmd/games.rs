//! `--game`'s choices, each game described in `--help`: the games of
//! numbers, and with them the items game where a command takes `--items`.

use bingomint::game::Spec;

/// `--game`'s choices: every game, each described in `--help`.
pub fn games() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(game_values())
}

/// Every game of [`Spec::GAMES`] as a choice, with its description.
pub fn game_values() -> Vec<clap::builder::PossibleValue> {
    let value = |name: &'static str| {
        let help = Spec::named(name).map_or("", |spec| spec.describe());
        clap::builder::PossibleValue::new(name).help(help)
    };
    Spec::GAMES.map(value).to_vec()
}

/// `--game`'s choices where the items game is one (with `--items`).
pub fn games_with_items() -> clap::builder::PossibleValuesParser {
    let mut values = game_values();
    values.push(
        clap::builder::PossibleValue::new("items")
            .help("cards of words, pictures or songs (with --items FILE)"),
    );
    clap::builder::PossibleValuesParser::new(values)
}
