//! The statistical battery test labs run before paper is sold or calls are
//! used: chi-square, permutation, runs, serial correlation, gap, poker and
//! coupon-collector tests on what players see (the cards of a file, the
//! calls of games), an exact uniqueness check, one verdict that holds the
//! family-wise error rate at α (Holm's step-down procedure), and the
//! figures a report draws.
//!
//! [`cards`] reads a file's records, [`calls`] draws games' call orders;
//! both feed [`streams`] (the sequence tests) and their own exact tables;
//! [`stats`] holds the distributions; [`report`] writes the HTML and JSON;
//! [`raw`] writes the generator's own output for a lab's batteries.

pub mod calls;
pub mod cards;
pub mod raw;
pub mod report;
pub mod stats;
pub mod streams;

/// What a test looks at, as the standards name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    ChiSquare,
    Permutation,
    Runs,
    Serial,
    Gap,
    Poker,
    Coupon,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 7] = [
        Family::ChiSquare,
        Family::Permutation,
        Family::Runs,
        Family::Serial,
        Family::Gap,
        Family::Poker,
        Family::Coupon,
    ];

    /// The test's name.
    pub fn name(self) -> &'static str {
        match self {
            Family::ChiSquare => "chi-square",
            Family::Permutation => "permutation",
            Family::Runs => "runs",
            Family::Serial => "serial correlation",
            Family::Gap => "gap",
            Family::Poker => "poker",
            Family::Coupon => "coupon collector",
        }
    }

    /// What the test asks, in one line.
    pub fn what(self) -> &'static str {
        match self {
            Family::ChiSquare => "every value as often as its exact probability says",
            Family::Permutation => "every order of a column's numbers equally likely",
            Family::Runs => "no more and no fewer runs than chance gives",
            Family::Serial => "no correlation between a value and the ones before it",
            Family::Gap => "gaps between low values of geometric lengths",
            Family::Poker => "hands of 5 with as many distinct values as chance gives",
            Family::Coupon => "runs until every value has appeared of the right lengths",
        }
    }
}

/// One test's result.
#[derive(Clone, Debug)]
pub struct Test {
    pub family: Family,
    /// What was tested: `cell B1: serial correlation at lag 2`.
    pub name: String,
    pub statistic: f64,
    /// Degrees of freedom of a chi-square statistic; None for a z-score.
    pub df: Option<f64>,
    /// The p-value.
    pub p: f64,
    /// Observations the statistic counts.
    pub n: u64,
    /// Holm-adjusted p-value and whether Holm rejects it ([`Battery::judge`]).
    pub adjusted: f64,
    pub rejected: bool,
    /// The lag of a serial correlation test.
    pub lag: Option<usize>,
}

impl Test {
    /// A chi-square test of `df` degrees of freedom.
    pub fn chi(family: Family, name: String, x: f64, df: f64, n: u64) -> Test {
        Test::new(family, name, x, Some(df), stats::chi_square_p(x, df), n)
    }

    /// A test whose statistic is standard normal, two-sided.
    pub fn normal(family: Family, name: String, z: f64, n: u64) -> Test {
        Test::new(family, name, z, None, stats::normal_two_sided_p(z), n)
    }

    fn new(family: Family, name: String, statistic: f64, df: Option<f64>, p: f64, n: u64) -> Test {
        Test {
            family,
            name,
            statistic,
            df,
            p,
            n,
            adjusted: p,
            rejected: false,
            lag: None,
        }
    }

    /// This test, of a serial correlation at `lag`.
    pub fn at_lag(mut self, lag: usize) -> Test {
        self.lag = Some(lag);
        self
    }
}

/// An exact check (no probability involved): uniqueness, the rules.
#[derive(Clone, Debug)]
pub struct Check {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

/// A series of standardised residuals (observed − expected, over its
/// standard deviation) the report plots against ±the critical value.
#[derive(Clone, Debug)]
pub struct Residuals {
    pub title: String,
    /// (label, residual) per bar.
    pub bars: Vec<(String, f64)>,
}

/// The battery's results.
#[derive(Clone, Debug)]
pub struct Battery {
    /// What was tested, in one phrase: `10,000,000 75-ball cards`.
    pub subject: String,
    pub tests: Vec<Test>,
    pub checks: Vec<Check>,
    pub residuals: Vec<Residuals>,
    /// Family-wise significance level.
    pub alpha: f64,
}

impl Battery {
    /// Applies Holm's procedure at `alpha` to every test.
    pub fn judge(&mut self, alpha: f64) {
        self.alpha = alpha;
        let p: Vec<f64> = self.tests.iter().map(|t| t.p).collect();
        let (rejected, adjusted) = stats::holm(&p, alpha);
        for (t, (r, a)) in self
            .tests
            .iter_mut()
            .zip(rejected.into_iter().zip(adjusted))
        {
            t.rejected = r;
            t.adjusted = a;
        }
    }

    /// Whether every check passed and Holm rejected no test.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed) && self.tests.iter().all(|t| !t.rejected)
    }

    /// The tests Holm rejected, smallest p first.
    pub fn rejected(&self) -> Vec<&Test> {
        let mut r: Vec<&Test> = self.tests.iter().filter(|t| t.rejected).collect();
        r.sort_by(|a, b| a.p.total_cmp(&b.p));
        r
    }

    /// The families of the rejected tests, each once, in report order.
    pub fn failed_families(&self) -> Vec<Family> {
        Family::ALL
            .into_iter()
            .filter(|f| self.tests.iter().any(|t| t.rejected && t.family == *f))
            .collect()
    }

    /// Tests at or below α before Holm's correction: about α of them when
    /// all is well.
    pub fn raw_below_alpha(&self) -> usize {
        self.tests.iter().filter(|t| t.p <= self.alpha).count()
    }

    /// Kolmogorov–Smirnov distance of the p-values from uniform, and its
    /// approximate p-value: a second look at the whole battery (continuous
    /// tests only approximately uniform, so not part of the verdict).
    pub fn p_uniformity(&self) -> (f64, f64) {
        let mut p: Vec<f64> = self.tests.iter().map(|t| t.p).collect();
        p.sort_by(f64::total_cmp);
        let n = p.len() as f64;
        if p.is_empty() {
            return (0.0, 1.0);
        }
        let d = p
            .iter()
            .enumerate()
            .map(|(i, &x)| (x - i as f64 / n).max((i + 1) as f64 / n - x))
            .fold(0.0, f64::max);
        (d, kolmogorov_p(d, n))
    }
}

/// Adds counts `b` into `a`, place by place.
pub(crate) fn add_counts(a: &mut [u64], b: &[u64]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
}

/// The asymptotic Kolmogorov p-value of distance `d` over `n` points.
fn kolmogorov_p(d: f64, n: f64) -> f64 {
    let t = (n.sqrt() + 0.12 + 0.11 / n.sqrt()) * d;
    let mut sum = 0.0;
    for k in 1..=100 {
        let k = f64::from(k);
        let term = 2.0 * (-1f64).powi(k as i32 - 1) * (-2.0 * k * k * t * t).exp();
        sum += term;
        if term.abs() < 1e-12 {
            break;
        }
    }
    sum.clamp(0.0, 1.0)
}
