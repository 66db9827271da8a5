//! The night's log read back in order: the games it revealed.

use super::event::Event;
use crate::play::calls::Calls;

/// A game a log revealed: its numbers, seed and room seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub balls: u8,
    pub seed: String,
    pub room_seed: Option<String>,
}

impl Ended {
    /// The game's whole order.
    pub fn calls(&self) -> Calls {
        let room = self.room_seed.as_deref().unwrap_or("");
        Calls::of_hall(self.balls, &self.seed, room, usize::from(self.balls))
    }
}

/// The games a log revealed, in log order (the chain checked first); a
/// game of balls from a blower revealed no seed and is not among them.
pub fn revealed(text: &str) -> Result<Vec<Ended>, super::log::LogError> {
    let (lines, _) = super::log::read::<Event>(text)?;
    let (mut balls, mut room_seed) = (0, None);
    let mut out = Vec::new();
    for line in lines {
        match line.event {
            Event::GameStart(e) => (balls, room_seed) = (e.balls, None),
            Event::RoomSeed(e) => room_seed = e.room_seed,
            Event::GameEnd(e) => {
                if let Some(seed) = e.seed.seed() {
                    out.push(Ended {
                        balls,
                        seed: seed.to_string(),
                        room_seed: room_seed.take(),
                    });
                }
            }
            _ => {}
        }
    }
    Ok(out)
}
