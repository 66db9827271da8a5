//! Whole units: a sale or a return covers whole units of its product
//! within the card file, and (under the session's rules of selling since
//! [`super::SELLING`] 1) a sale starts on the file's own unit boundaries.

use super::{Floor, SaleError, Sales};

impl Sales {
    /// Checks a range of whole units of product `p` within the file.
    pub(super) fn units(
        &self,
        p: usize,
        first: u64,
        last: u64,
        floor: &Floor,
    ) -> Result<u64, SaleError> {
        if first == 0 || last < first {
            return Err(SaleError::BadRange { first, last });
        }
        if !floor.faces.contains(&first) || !floor.faces.contains(&last) {
            return Err(SaleError::Outside {
                first,
                last,
                low: *floor.faces.start(),
                high: *floor.faces.end(),
            });
        }
        if let Some((missing, next)) = floor.serials.and_then(|s| s.missing_within(first, last)) {
            let next = match next {
                Some(n) => format!("its next face is {n}"),
                None => "nor any after it".into(),
            };
            return Err(SaleError::Missing {
                first,
                last,
                missing,
                next,
            });
        }
        let product = &self.products[p];
        let count = last - first + 1;
        if count % product.faces != 0 {
            // The hint keeps to the file's own units where the session does.
            let off = match self.rules {
                0 => 0,
                _ => (first - floor.faces.start()) % product.faces,
            };
            let lo = first - off;
            let units = (last - lo + 1).div_ceil(product.faces).max(1);
            return Err(SaleError::Units {
                first,
                last,
                count,
                product: product.name.clone(),
                faces: product.faces,
                suggest: format!("{lo}..{}", lo + units * product.faces - 1),
            });
        }
        Ok(count / product.faces)
    }

    /// Refuses a sale of product `p` whose units are not the card file's
    /// own (books of 6 are 1–6, 7–12, … from the file's first face), under
    /// the session's rules of selling since [`SELLING`] 1.
    pub(super) fn on_boundaries(
        &self,
        p: usize,
        first: u64,
        last: u64,
        floor: &Floor,
    ) -> Result<(), SaleError> {
        let faces = self.products[p].faces;
        let off = (first - floor.faces.start()) % faces;
        if self.rules < 1 || off == 0 {
            return Ok(());
        }
        let lo = first - off;
        Err(SaleError::Boundary {
            first,
            last,
            product: self.products[p].name.clone(),
            faces,
            unit: format!("{lo}..{}", lo + faces - 1),
            lo,
            hi: lo + (last - lo + 1).div_ceil(faces) * faces - 1,
        })
    }
}
