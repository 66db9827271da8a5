//! The hall's time zone: the log keeps UTC (`2026-11-25T19:04:11.250Z`);
//! reports show a line's time in the zone the night file states (`zone =
//! "America/Los_Angeles"`) or `hall report --zone` names, as local time
//! with its offset (`2026-11-25T11:04:11.250-08:00`), so a daily record's
//! date is the hall's. The zones are the IANA database's, bundled with the
//! build: a report reads the same on any machine.

use jiff::tz::TimeZone;

/// A named time zone of the IANA database.
#[derive(Clone, Debug)]
pub struct Zone {
    name: String,
    tz: TimeZone,
}

impl Zone {
    /// The zone named `name` (`America/Los_Angeles`, `Europe/London`, `UTC`).
    pub fn parse(name: &str) -> Result<Zone, String> {
        let name = name.trim();
        TimeZone::get(name)
            .map(|tz| Zone {
                name: name.to_string(),
                tz,
            })
            .map_err(|_| {
                format!("{name:?} is no time zone of the IANA database: give one such as America/Los_Angeles, Europe/London or UTC")
            })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A log line's UTC time as local time with its offset; a time that is
    /// not one (an older line's oddity) as it was.
    pub fn local(&self, utc: &str) -> String {
        match utc.parse::<jiff::Timestamp>() {
            Ok(ts) => ts
                .to_zoned(self.tz.clone())
                .strftime("%Y-%m-%dT%H:%M:%S%.3f%:z")
                .to_string(),
            Err(_) => utc.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Zone;

    #[test]
    fn a_utc_time_is_shown_in_the_hall_s_zone_with_its_offset() {
        let la = Zone::parse("America/Los_Angeles").unwrap();
        assert_eq!(
            la.local("2026-11-25T19:04:11.250Z"),
            "2026-11-25T11:04:11.250-08:00"
        );
        // Past midnight UTC is the evening before in Washington.
        assert_eq!(
            la.local("2026-11-26T04:30:00.000Z"),
            "2026-11-25T20:30:00.000-08:00"
        );
        // Summer time.
        assert_eq!(
            la.local("2026-07-01T19:00:00.000Z"),
            "2026-07-01T12:00:00.000-07:00"
        );
        let london = Zone::parse("Europe/London").unwrap();
        assert_eq!(
            london.local("2026-07-01T19:00:00.000Z"),
            "2026-07-01T20:00:00.000+01:00"
        );
        assert_eq!(london.local("not a time"), "not a time");
        let err = Zone::parse("Mars/Olympus").unwrap_err();
        assert!(err.contains("\"Mars/Olympus\" is no time zone"), "{err}");
    }
}
