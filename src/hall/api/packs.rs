//! The API's electronic packs: a pack loaded onto a phone with the code on
//! its receipt (`POST /api/packs/load`), a phone's packs and receipts
//! (`POST /api/packs`), the code and QR a sale of a pack answers at the
//! console. A phone names itself by a secret it made once (`device`: 32
//! to 64 hex digits, kept on the phone); the hall logs only its public
//! name ([`device_name`]).

use super::super::packs::{device_name, pack_code, pack_of_code, PackShown};
use super::super::shell::Hall;
use super::{ApiError, Reply};
use serde::{Deserialize, Serialize};

/// `POST /api/packs/load`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LoadBody {
    code: String,
    device: String,
}

/// `POST /api/packs`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeviceBody {
    device: String,
}

/// A pack issued at the console: its code, the address a phone opens it
/// at and that address's QR code (rows of `1` and `0`).
#[derive(Clone, Debug, Serialize)]
pub struct PackIssued {
    pub pack: u64,
    pub code: String,
    pub url: String,
    pub qr: Vec<String>,
}

/// A device's secret, checked: 32 to 64 hex digits.
pub(super) fn device(secret: &str) -> Result<String, ApiError> {
    let ok = (32..=64).contains(&secret.len()) && secret.bytes().all(|b| b.is_ascii_hexdigit());
    match ok {
        true => Ok(secret.to_ascii_lowercase()),
        false => Err(ApiError::Body(
            "field device: 32 to 64 hex digits, the secret a phone makes once and keeps".into(),
        )),
    }
}

/// `{"code": …, "device": …}`, read.
pub(super) fn load_body(body: &[u8]) -> Result<super::Command, ApiError> {
    let LoadBody { code, device: d } = super::routes::read(body)?;
    if code.len() > 40 {
        return Err(ApiError::Body(
            "field code: over 40 bytes; type the code on the pack's receipt".into(),
        ));
    }
    Ok(super::Command::Load {
        code,
        device: device(&d)?,
    })
}

/// `{"device": …}`, read.
pub(super) fn device_body(body: &[u8]) -> Result<super::Command, ApiError> {
    let DeviceBody { device: d } = super::routes::read(body)?;
    Ok(super::Command::Packs {
        device: device(&d)?,
    })
}

/// A pack loaded, or a phone's packs.
pub(super) fn answer(
    hall: &mut Hall,
    key: &str,
    command: super::Command,
) -> Result<Reply, ApiError> {
    match command {
        super::Command::Load { code, device } => {
            let pack = pack_of_code(key, &code).ok_or(ApiError::NoPackCode)?;
            let shown: PackShown = hall.load(pack, &device_name(&device))?;
            Ok(Reply::Pack(Box::new(shown)))
        }
        super::Command::Packs { device } => Ok(Reply::Packs {
            packs: hall.packs_of(&device_name(&device))?,
        }),
        _ => unreachable!("answer sends only packs here"),
    }
}

/// What the console is answered when a sale made `made` issued a pack.
pub(super) fn issued(
    hall: &Hall,
    key: &str,
    made: &super::super::Event,
    join: &super::super::join::Join,
) -> Option<PackIssued> {
    let super::super::Event::Sale(sale) = made else {
        return None;
    };
    hall.books().sales().packs.get(sale.sale)?;
    let code = pack_code(key, sale.sale);
    let base = join.players.first().map_or("/play", String::as_str);
    let url = format!("{base}?code={code}");
    let qr = super::super::join::qr_rows(&url);
    Some(PackIssued {
        pack: sale.sale,
        code,
        url,
        qr,
    })
}
