//! `print --large-print`: one face a page for low-vision players, refused
//! where its numbers would print under 48 pt.

use anyhow::anyhow;
use bingomint::print::Plan;

/// The numbers' size `--large-print` promises: at least 48 pt.
const LARGE_PRINT_PT: f32 = 48.0;

/// Refuses a `--large-print` whose numbers print under 48 pt (a 90-ball
/// strip's six tickets on one page; a small --paper).
pub(super) fn large_enough(args: &super::Args, plan: &Plan) -> anyhow::Result<()> {
    let points = plan.cell * 0.5;
    if !args.large_print || points >= LARGE_PRINT_PT {
        return Ok(());
    }
    let fix = match plan.spec.facts().faces {
        1 => "a larger --paper (letter or a4 and up)",
        _ => "a larger --paper: a strip's tickets print together, one strip a page",
    };
    Err(anyhow!(
        "--large-print: one {} a page on {} paper makes numbers {points:.1} pt, under the {LARGE_PRINT_PT} pt large print needs; use {fix}",
        plan.spec.noun(),
        plan.options.paper_name
    ))
}
