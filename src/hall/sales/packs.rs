//! Electronic packs: an electronic product's faces issued from the card
//! file's faces kept for electronic play (never printed), loaded onto one
//! player's device with the one-time code on its receipt, and voided
//! (refunded whole) before its games. Every issue, load and void is a
//! transaction of its own, numbered in order through the night (a `pack`
//! line in the log: the time is the line's), as regulators of electronic
//! bingo require (Minnesota: date and time, a sequential transaction
//! number, the amount and the faces' range). The night's rules of
//! electronic play ([`Electronic`]: the faces kept, a device's cap a game,
//! one device a pack) are decided here, once, for the live hall and for
//! `hall verify` alike.

use super::{line, overlap, Sale, SaleError, Sales};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The night file's `[electronic]`: the rules of electronic play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Electronic {
    /// The card file's faces kept for electronic play: packs are issued
    /// from them, paper is never sold from them.
    pub first: u64,
    pub last: u64,
    /// The most faces one device may hold for a game (0: no cap).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cap: u64,
    /// A pack plays on the device that loaded it and no other: claims on
    /// its faces from another device are refused.
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_device: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a pack's transaction did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Sold at the door: the faces issued, the amount taken.
    Issue,
    /// Opened on a device with its code.
    Load,
    /// Taken back whole before its games: the amount refunded.
    Void,
}

impl Action {
    pub fn word(self) -> &'static str {
        match self {
            Action::Issue => "issue",
            Action::Load => "load",
            Action::Void => "void and refund",
        }
    }
}

/// A pack's transaction, as the log states it (a `pack` line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackLine {
    /// The night's electronic transactions, numbered 1, 2, … in order.
    pub txn: u64,
    pub action: Action,
    /// The pack: the number of the sale that issued it.
    pub pack: u64,
    pub product: String,
    pub first: u64,
    pub last: u64,
    /// Taken (issue), refunded (void), or 0 (load), in minor units.
    pub amount: u64,
    /// The device it was loaded on: its public name (`d-` and 12 hex
    /// digits of a hash of the secret the device holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A pack as its transactions leave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pack {
    pub sale: u64,
    pub device: Option<String>,
    pub void: bool,
    /// Its transactions, in order.
    pub lines: Vec<PackLine>,
}

/// The night's packs and its transactions so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packs {
    pub list: Vec<Pack>,
    pub txns: u64,
}

impl Packs {
    /// The pack issued by sale `sale`.
    pub fn get(&self, sale: u64) -> Option<&Pack> {
        self.list.iter().find(|p| p.sale == sale)
    }

    /// Every transaction, in order.
    pub fn lines(&self) -> Vec<&PackLine> {
        let mut all: Vec<&PackLine> = self.list.iter().flat_map(|p| &p.lines).collect();
        all.sort_by_key(|l| l.txn);
        all
    }
}

impl Sales {
    /// Whether product `p` is sold as packs: it is electronic and the night
    /// keeps faces for electronic play.
    pub fn sold_as_packs(&self, p: usize) -> bool {
        self.products[p].electronic && self.electronic.is_some()
    }

    /// The faces kept for electronic play, if the night keeps any.
    fn kept(&self) -> Option<RangeInclusive<u64>> {
        self.electronic.as_ref().map(|e| e.first..=e.last)
    }

    /// The next pack of product `p`: its first whole unit, on the card
    /// file's own boundaries, among the faces kept that no sale of the
    /// night ever held (a voided pack's faces are not issued again).
    pub(super) fn next_pack(&self, p: usize, file_first: u64) -> Result<(u64, u64), SaleError> {
        let kept = self.kept().ok_or(SaleError::NoProducts)?;
        let faces = self.products[p].faces;
        let off = kept.start().saturating_sub(file_first).div_ceil(faces) * faces;
        let mut first = file_first + off;
        while first + faces - 1 <= *kept.end() {
            let unit = first..=first + faces - 1;
            match (self.list.iter()).find(|s| overlap(&(s.first..=s.last), &unit)) {
                // Past that sale's last face, on to the next boundary.
                Some(s) => first += (s.last + 1 - first).div_ceil(faces) * faces,
                None => return Ok((first, first + faces - 1)),
            }
        }
        Err(SaleError::PacksGone {
            product: self.products[p].name.clone(),
            kept: format!("{}..{}", kept.start(), kept.end()),
        })
    }

    /// Refuses a sale of `first..=last` of product `p` that breaks the
    /// rules of electronic play: paper from the faces kept, a pack other
    /// than the next, a pack past a device's cap.
    pub(super) fn electronic_sale(
        &self,
        p: usize,
        first: u64,
        last: u64,
        file_first: u64,
    ) -> Result<(), SaleError> {
        let Some(e) = &self.electronic else {
            return Ok(());
        };
        let product = &self.products[p];
        if !product.electronic {
            if overlap(&(e.first..=e.last), &(first..=last)) {
                return Err(SaleError::KeptForElectronic {
                    first,
                    last,
                    kept: format!("{}..{}", e.first, e.last),
                });
            }
            return Ok(());
        }
        if e.cap > 0 && product.faces > e.cap {
            return Err(SaleError::PastCap {
                product: product.name.clone(),
                faces: product.faces,
                cap: e.cap,
            });
        }
        let next = self.next_pack(p, file_first)?;
        if (first, last) != next {
            return Err(SaleError::NotNextPack {
                first,
                last,
                next: format!("{}..{}", next.0, next.1),
            });
        }
        Ok(())
    }

    /// The pack line an electronic sale's line (or a void of one) makes,
    /// if it makes one.
    pub fn pack_line(&self, sold: &line::SaleLine) -> Option<PackLine> {
        let txn = self.packs.txns + 1;
        match sold {
            line::SaleLine::Sale(s) => {
                let p = self.products.iter().position(|x| x.name == s.product)?;
                self.sold_as_packs(p).then(|| PackLine {
                    txn,
                    action: Action::Issue,
                    pack: s.sale,
                    product: s.product.clone(),
                    first: s.first,
                    last: s.last,
                    amount: s.amount,
                    device: None,
                })
            }
            line::SaleLine::Void(v) => {
                let pack = self.packs.get(v.sale)?;
                let sale = self.list.iter().find(|s| s.id == v.sale)?;
                Some(PackLine {
                    txn,
                    action: Action::Void,
                    pack: v.sale,
                    product: self.products[sale.product].name.clone(),
                    first: sale.first,
                    last: sale.last,
                    amount: v.amount,
                    device: pack.device.clone(),
                })
            }
            _ => None,
        }
    }

    /// The faces device `device` holds for the programme's game
    /// `planned` (its loaded packs, not voided, that play it).
    fn device_faces(&self, device: &str, planned: Option<usize>) -> (u64, Vec<u64>) {
        let mut faces = 0;
        let mut packs = Vec::new();
        for pack in
            (self.packs.list.iter()).filter(|p| !p.void && p.device.as_deref() == Some(device))
        {
            if let Some(s) = self.list.iter().find(|s| s.id == pack.sale) {
                if self.sale_plays(s, planned) {
                    faces += s.last - s.first + 1;
                    packs.push(s.id);
                }
            }
        }
        (faces, packs)
    }

    /// Pack `pack` loaded onto device `device` (its public name): once,
    /// not voided, within the night's cap of faces a device a game.
    pub fn load(&self, pack: u64, device: &str) -> Result<PackLine, SaleError> {
        let sale = self.list.iter().find(|s| s.id == pack);
        let (Some(sale), Some(held)) = (sale, self.packs.get(pack)) else {
            return Err(SaleError::NoPack(pack));
        };
        if held.void {
            return Err(SaleError::PackVoided(pack));
        }
        if let Some(on) = &held.device {
            return Err(SaleError::Loaded {
                pack,
                device: on.clone(),
            });
        }
        let cap = self.electronic.as_ref().map_or(0, |e| e.cap);
        let games: Vec<Option<usize>> = match self.programme {
            0 => vec![None],
            n => (1..=n).map(Some).collect(),
        };
        let faces = sale.last - sale.first + 1;
        for planned in games.into_iter().filter(|&g| self.sale_plays(sale, g)) {
            let (holds, packs) = self.device_faces(device, planned);
            if cap > 0 && holds + faces > cap {
                return Err(SaleError::DeviceCap {
                    pack,
                    faces,
                    holds,
                    packs: (packs.iter().map(u64::to_string))
                        .collect::<Vec<_>>()
                        .join(", "),
                    game: planned.map_or("the game".into(), |k| format!("game {k}")),
                    cap,
                });
            }
        }
        Ok(PackLine {
            txn: self.packs.txns + 1,
            action: Action::Load,
            pack,
            product: self.products[sale.product].name.clone(),
            first: sale.first,
            last: sale.last,
            amount: 0,
            device: Some(device.to_string()),
        })
    }

    /// Books a pack line (checked before).
    pub fn book_pack(&mut self, line: &PackLine) {
        self.packs.txns = line.txn;
        match line.action {
            Action::Issue => self.packs.list.push(Pack {
                sale: line.pack,
                device: None,
                void: false,
                lines: Vec::new(),
            }),
            Action::Load => {}
            Action::Void => {}
        }
        if let Some(p) = self.packs.list.iter_mut().find(|p| p.sale == line.pack) {
            match line.action {
                Action::Load => p.device.clone_from(&line.device),
                Action::Void => p.void = true,
                Action::Issue => {}
            }
            p.lines.push(line.clone());
        }
    }

    /// Why a pack line read back is not the one the hall would have
    /// written after the lines before it (None: it is). A load is decided
    /// again for its device; an issue or void follows its sale's line.
    pub fn pack_finding(
        &self,
        given: &PackLine,
        before: Option<&line::SaleLine>,
    ) -> Option<String> {
        let made = match given.action {
            Action::Load => {
                let device = given.device.as_deref().unwrap_or("");
                match self.load(given.pack, device) {
                    Ok(made) => made,
                    Err(e) => return Some(format!("a load the hall would have refused: {e}")),
                }
            }
            Action::Issue | Action::Void => {
                let made = before.and_then(|b| self.pack_line(b));
                match made {
                    Some(made) => made,
                    None => {
                        return Some(
                            "a pack's issue or void that follows no sale or void of it".into(),
                        )
                    }
                }
            }
        };
        (made != *given).then(|| {
            format!(
                "a pack line whose figures are not the hall's: {}",
                serde_json::to_string(&made).unwrap_or_default()
            )
        })
    }

    /// The pack holding face `n` (of the first card file), if any.
    pub fn pack_of(&self, n: u64) -> Option<(&Pack, &Sale)> {
        self.packs.list.iter().find_map(|p| {
            let s = self.list.iter().find(|s| s.id == p.sale)?;
            (s.first..=s.last).contains(&n).then_some((p, s))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{floor, product, sale, two_products};
    use super::super::{Floor, Move, SaleError, Sales};
    use super::{Action, Electronic};
    use std::collections::BTreeSet;

    /// Packs of 36 ("e36") from faces 217..400, capped at 36 a device a
    /// game, beside books of 6 for paper.
    fn night() -> Sales {
        let mut s = two_products();
        let mut pack = product("e36", 1000, 36, vec![]);
        pack.electronic = true;
        s.products.push(pack);
        s.electronic = Some(Electronic {
            first: 217,
            last: 400,
            cap: 36,
            one_device: true,
        });
        s
    }

    /// The next pack issued and booked: its faces.
    fn issue(s: &mut Sales, open: &Floor) -> (u64, u64) {
        let m = Move::Pack {
            product: "e36".into(),
            drawer: None,
        };
        let line = s.event(&m, open).unwrap();
        let pack = s.pack_line(&line).expect("a pack's line");
        s.book(&line);
        s.book_pack(&pack);
        (pack.first, pack.last)
    }

    #[test]
    fn packs_come_from_the_kept_faces_in_order() {
        let mut s = night();
        let played = BTreeSet::new();
        let open = Floor {
            faces: 1..=400,
            ..floor(&played, false)
        };
        // Paper never from the kept faces; a pack only the next.
        let kept = s.event(&sale("book", 217, 222), &open).unwrap_err();
        assert!(
            matches!(kept, SaleError::KeptForElectronic { .. }),
            "{kept:?}"
        );
        let wrong = s.event(&sale("e36", 253, 288), &open).unwrap_err();
        assert!(
            kept.to_string().contains("217..400")
                && wrong.to_string().contains("the next is 217..252"),
            "{wrong}"
        );
        assert_eq!(issue(&mut s, &open), (217, 252));
        assert_eq!(issue(&mut s, &open), (253, 288));
        // A voided pack's faces are not issued again.
        let void = s
            .event(
                &Move::Void {
                    sale: 2,
                    reason: "mistake".into(),
                },
                &open,
            )
            .unwrap();
        let pack = s.pack_line(&void).unwrap();
        assert_eq!((pack.action, pack.amount), (Action::Void, 1000));
        s.book(&void);
        s.book_pack(&pack);
        assert_eq!(issue(&mut s, &open), (289, 324));
        // 325..360 and 361..396 fit the kept faces; 397..432 does not.
        assert_eq!(issue(&mut s, &open), (325, 360));
        assert_eq!(issue(&mut s, &open), (361, 396));
        let gone = s
            .event(
                &Move::Pack {
                    product: "e36".into(),
                    drawer: None,
                },
                &open,
            )
            .unwrap_err();
        assert!(matches!(gone, SaleError::PacksGone { .. }), "{gone:?}");
        assert_eq!(s.packs.txns, 6);
    }

    #[test]
    fn a_pack_loads_once_never_voided_and_within_a_device_s_cap() {
        let mut s = night();
        let played = BTreeSet::new();
        let open = Floor {
            faces: 1..=400,
            ..floor(&played, false)
        };
        for _ in 0..3 {
            issue(&mut s, &open);
        }
        let void = s
            .event(
                &Move::Void {
                    sale: 2,
                    reason: "mistake".into(),
                },
                &open,
            )
            .unwrap();
        let pack = s.pack_line(&void).unwrap();
        s.book(&void);
        s.book_pack(&pack);
        let load = s.load(1, "d-a").unwrap();
        s.book_pack(&load);
        let capped = s.load(3, "d-a").unwrap_err();
        assert!(
            matches!(
                capped,
                SaleError::DeviceCap {
                    holds: 36,
                    cap: 36,
                    ..
                }
            ),
            "{capped:?}"
        );
        assert!(matches!(s.load(1, "d-b"), Err(SaleError::Loaded { .. })));
        assert!(matches!(s.load(2, "d-b"), Err(SaleError::PackVoided(2))));
        assert!(s.load(3, "d-b").is_ok());
        assert_eq!(s.packs.txns, 5);
    }
}
