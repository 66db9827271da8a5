//! The shell's side of electronic packs: a pack loaded onto a device by
//! the books' rules, a device's packs with their faces and receipts, the
//! one-time code on a pack's receipt and a device's public name. The rules
//! themselves are [`super::sales::packs`]'.

use super::books::{Answer, Command};
use super::sales::packs::{Action, PackLine};
use super::shell::Hall;
use super::state::FaceShown;
use super::HallError;
use serde::Serialize;

/// A pack as its device (and its receipt page) shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PackShown {
    pub pack: u64,
    pub product: String,
    pub first: u64,
    pub last: u64,
    /// The programme's games it plays, by number (empty: every game).
    pub games: Vec<usize>,
    pub void: bool,
    /// Its faces, as a phone adds them (none once voided).
    pub faces: Vec<FaceShown>,
    /// Its transactions: the receipt.
    pub receipt: Vec<ReceiptLine>,
}

/// One transaction of a pack, as its receipt prints it.
#[derive(Clone, Debug, Serialize)]
pub struct ReceiptLine {
    pub txn: u64,
    /// When it was logged (UTC, as the log's line).
    pub time: String,
    pub action: Action,
    /// `issue`, `load`, `void and refund`.
    pub words: &'static str,
    /// The amount in the night's currency (`£12.00`), none for a load.
    pub amount: Option<String>,
    pub faces: String,
    pub device: Option<String>,
}

/// The code printed on pack `pack`'s receipt: the pack's number, a dash,
/// then ten letters and digits made from the hall's claims key (kept
/// beside the log) and the number; the log never holds it.
pub fn pack_code(key: &str, pack: u64) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let text = format!("bingomint pack code\0{key}\0{pack}");
    let digest = crate::text::sha256_hex(text.as_bytes());
    let bits = u64::from_str_radix(&digest[..16], 16).unwrap_or(0);
    let letters: String = (0..10)
        .map(|i| char::from(ALPHABET[((bits >> (5 * i)) & 31) as usize]))
        .collect();
    format!("{pack}-{letters}")
}

/// The pack a code opens, if it is one of `key`'s: the number before its
/// dash, checked against the letters (in any case, spaces ignored) in
/// time that does not depend on where they differ.
pub fn pack_of_code(key: &str, code: &str) -> Option<u64> {
    let code: String = (code.chars())
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let pack: u64 = code.split_once('-')?.0.parse().ok()?;
    let made = pack_code(key, pack);
    let same = made.len() == code.len()
        && (made.bytes().zip(code.bytes())).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0;
    same.then_some(pack)
}

/// A device's public name, from the secret only it holds: `d-` and 12 hex
/// digits of a hash of it. The log names devices so.
pub fn device_name(secret: &str) -> String {
    let text = format!("bingomint device\0{secret}");
    format!("d-{}", &crate::text::sha256_hex(text.as_bytes())[..12])
}

impl Hall {
    /// Pack `pack` loaded onto device `device` (its public name), logged;
    /// the pack as the device shows it.
    pub fn load(&mut self, pack: u64, device: &str) -> Result<PackShown, HallError> {
        let command = Command::Load {
            pack,
            device: device.to_string(),
        };
        match self.execute(command)? {
            Answer::Loaded(pack) => self.pack_shown(pack),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }

    /// The packs loaded on device `device`, in order.
    pub fn packs_of(&self, device: &str) -> Result<Vec<PackShown>, HallError> {
        let sales = self.books.sales();
        (sales.packs.list.iter())
            .filter(|p| p.device.as_deref() == Some(device))
            .map(|p| self.pack_shown(p.sale))
            .collect()
    }

    /// Pack `pack` as a device shows it.
    pub fn pack_shown(&self, pack: u64) -> Result<PackShown, HallError> {
        let sales = self.books.sales();
        let (Some(held), Some(sale)) = (
            sales.packs.get(pack),
            sales.list.iter().find(|s| s.id == pack),
        ) else {
            return Err(HallError::Internal(format!("no pack {pack}")));
        };
        let faces = match held.void {
            true => Vec::new(),
            false => (sale.first..=sale.last)
                .map(|n| self.face_at(0, n))
                .collect::<Result<_, _>>()?,
        };
        let games = match sale.games.is_empty() {
            true => sales.products[sale.product].games.clone(),
            false => sale.games.clone(),
        };
        Ok(PackShown {
            pack,
            product: sales.products[sale.product].name.clone(),
            first: sale.first,
            last: sale.last,
            games,
            void: held.void,
            faces,
            receipt: held.lines.iter().map(|l| self.receipt_line(l)).collect(),
        })
    }

    /// A transaction as a receipt prints it.
    pub fn receipt_line(&self, l: &PackLine) -> ReceiptLine {
        let currency = self.currency();
        ReceiptLine {
            txn: l.txn,
            time: self.pack_times.get(&l.txn).cloned().unwrap_or_default(),
            action: l.action,
            words: l.action.word(),
            amount: (l.action != Action::Load).then(|| super::money::show(l.amount, &currency)),
            faces: format!("{}..{}", l.first, l.last),
            device: l.device.clone(),
        }
    }
}
