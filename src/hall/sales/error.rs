//! Why a sale, return or void is refused: each refusal names the range,
//! the rule and what would be taken instead, with its HTTP status.

/// A sale, return or void the hall refuses.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaleError {
    #[error("the night file lists no [[product]]: name what is sold, its price and faces a unit, to sell by serial range")]
    NoProducts,
    #[error("no product {0:?}: the night sells {1}")]
    NoProduct(String, String),
    #[error("{first}..{last} is not a range of faces: give first and last, first no higher than last, from 1")]
    BadRange { first: u64, last: u64 },
    #[error("{first}..{last} is outside the card file's faces {low}..{high}")]
    Outside {
        first: u64,
        last: u64,
        low: u64,
        high: u64,
    },
    #[error("{first}..{last} is not all paper: the card file holds no face {missing} ({next}); sell faces printed on the file's paper")]
    Missing {
        first: u64,
        last: u64,
        missing: u64,
        next: String,
    },
    #[error("{first}..{last} is {count} faces, not whole units of {product:?} ({faces} faces a unit): give {suggest}")]
    Units {
        first: u64,
        last: u64,
        count: u64,
        product: String,
        faces: u64,
        suggest: String,
    },
    #[error("{first}..{last} does not start on a unit of {product:?}: its units of {faces} faces are the card file's own ({unit} holds face {first}): give {lo}..{hi}")]
    Boundary {
        first: u64,
        last: u64,
        product: String,
        faces: u64,
        unit: String,
        lo: u64,
        hi: u64,
    },
    #[error("faces {first}..{last} were sold already (sale {sale}, {held}): a face is sold once a night")]
    SoldTwice {
        first: u64,
        last: u64,
        sale: u64,
        held: String,
    },
    #[error("{product:?} plays game {game}, which has started: paper is sold, returned or voided before its games")]
    Started { product: String, game: String },
    #[error("every game {product:?} plays has started: nothing is left to sell it for")]
    AllStarted { product: String },
    #[error("name the drawer (or seller): 1 to 40 characters of text")]
    DrawerName,
    #[error("drawer {0:?} has no float: give it one first (POST /api/cash/float)")]
    NoDrawer(String),
    #[error("drawer {0:?} has its float already ({1})")]
    Floated(String, String),
    #[error("drawer {0:?} was counted: its cash is up for the session")]
    Counted(String),
    #[error("{first}..{last} of {product:?} was not issued (or was returned already): a return is of faces issued and still out")]
    NotIssued {
        first: u64,
        last: u64,
        product: String,
    },
    #[error("{first}..{last} splits the units of sale {sale} ({held}, {faces} faces a unit): a return is of whole units as sold, such as {lo}..{hi}")]
    SplitsUnits {
        first: u64,
        last: u64,
        sale: u64,
        held: String,
        faces: u64,
        lo: u64,
        hi: u64,
    },
    #[error("no sale {0}")]
    NoSale(u64),
    #[error("sale {0} is voided already")]
    Voided(u64),
    #[error("give the reason the sale is voided")]
    NoReason,
    #[error("the sale's amount is over the largest amount taken")]
    TooLarge,
    #[error(
        "faces {first}..{last} are kept for electronic play ({kept}): sell paper from other faces"
    )]
    KeptForElectronic { first: u64, last: u64, kept: String },
    #[error("{first}..{last} is not the next pack: packs are issued from the faces kept for electronic play in order, the next is {next} (give the product alone, no first or last)")]
    NotNextPack { first: u64, last: u64, next: String },
    #[error("every pack of {product:?} is issued: the faces kept for electronic play ({kept}) hold no more")]
    PacksGone { product: String, kept: String },
    #[error("a pack of {product:?} holds {faces} faces, past the night's cap of {cap} faces a device a game")]
    PastCap {
        product: String,
        faces: u64,
        cap: u64,
    },
    #[error(
        "{0:?} is not sold as packs: give the serial range (first and last) of the paper sold"
    )]
    NotPacks(String),
    #[error("a pack of {0:?} is not returned in part: void it whole (POST /api/sales/void), which refunds it")]
    PackReturn(String),
    #[error("no pack {0}: the code is not a pack's of this night")]
    NoPack(u64),
    #[error("pack {0} was voided and refunded: it plays no game")]
    PackVoided(u64),
    #[error("pack {pack} is loaded on a device already ({device}): a pack's code loads it once")]
    Loaded { pack: u64, device: String },
    #[error("this device holds {holds} faces for {game} (pack {packs}): pack {pack}'s {faces} more would pass the night's cap of {cap} faces a device a game; load it on another device")]
    DeviceCap {
        pack: u64,
        faces: u64,
        holds: u64,
        packs: String,
        game: String,
        cap: u64,
    },
    #[error("face {face} is in electronic pack {pack}: a pack opens on a phone with the code on its receipt")]
    PackFace { face: u64, pack: u64 },
    #[error("face {face} is in electronic pack {pack}, which plays on the device that loaded it: claim from that device")]
    OtherDevice { face: u64, pack: u64 },
    #[error("denominations: {0}")]
    Denominations(String),
}
