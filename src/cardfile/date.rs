//! Dates in headers: yyyymmdd, today's or `SOURCE_DATE_EPOCH`'s.

/// Today's date as yyyymmdd (UTC), or the date of `SOURCE_DATE_EPOCH` when
/// that variable is set, so that runs can be reproduced byte for byte on any day.
/// A `SOURCE_DATE_EPOCH` that is not a date from 1970-01-01 to 9999-12-31
/// is an error naming the variable.
pub fn today() -> Result<u32, SourceDateEpochError> {
    let secs = match source_date_epoch()? {
        Some(secs) => secs,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0),
    };
    Ok(yyyymmdd(secs.div_euclid(86_400)))
}

/// `SOURCE_DATE_EPOCH` in seconds, if set: an error naming the variable
/// unless it is a time from 1970-01-01 to 9999-12-31 (the last date a
/// yyyymmdd field holds).
pub fn source_date_epoch() -> Result<Option<i64>, SourceDateEpochError> {
    let Ok(text) = std::env::var("SOURCE_DATE_EPOCH") else {
        return Ok(None);
    };
    match text.trim().parse::<i64>() {
        Ok(secs) if (0..=LAST_SECOND).contains(&secs) => Ok(Some(secs)),
        _ => Err(SourceDateEpochError(text)),
    }
}

/// 9999-12-31T23:59:59Z, the last time a yyyymmdd field holds.
const LAST_SECOND: i64 = 253_402_300_799;

/// `SOURCE_DATE_EPOCH` holds something that is not a time a header can
/// carry (the variable's text).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "SOURCE_DATE_EPOCH is {0:?}; it must be whole seconds since 1970 \
     from 0 to {LAST_SECOND} (9999-12-31), or unset"
)]
pub struct SourceDateEpochError(pub String);

/// Days since 1970-01-01 → yyyymmdd (proleptic Gregorian calendar).
pub fn yyyymmdd(days: i64) -> u32 {
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year * 10_000 + month * 100 + day) as u32
}

/// Days since 1970-01-01 of the date `year-month-day` (the inverse of
/// [`yyyymmdd`]; Howard Hinnant's days_from_civil).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(yyyymmdd(0), 19700101);
        for days in [-1, 0, 59, 11_016, 20_500, 2_932_896] {
            let d = i64::from(yyyymmdd(days));
            assert_eq!(days_from_civil(d / 10_000, d / 100 % 100, d % 100), days);
        }
        assert_eq!(yyyymmdd(19_393), 20230205);
        assert_eq!(yyyymmdd(20_513), 20260301);
        assert_eq!(yyyymmdd(11_016), 20000229);
    }
}
