//! The `.tool` files built into the generator: the job tools every catalogue
//! serves. Read by [`crate::Sources::add_job_tools`]; the Rust backend maps
//! them onto the runtime's own copy of their types.

/// The name diagnostics show for the job tools' file.
pub(crate) const JOBS_NAME: &str = "<builtin>/jobs.tool";

/// The job tools' declarations.
pub(crate) const JOBS: &str = include_str!("jobs.tool");

/// Each job tool and the variant of the runtime's `JobCall` / `JobReply`
/// that carries it to and from the dispatcher.
pub(crate) const JOB_CALLS: &[(&str, &str)] = &[
    ("job_status", "Status"),
    ("job_list", "List"),
    ("job_poll", "Poll"),
    ("job_cancel", "Cancel"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Sources, check};

    #[test]
    fn the_job_tools_check_clean_and_each_has_a_job_call() {
        let mut sources = Sources::new();
        sources.add_job_tools();
        let model = check(&sources).expect("jobs.tool is valid");
        assert!(model.files[0].builtin);
        let names: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
        let mapped: Vec<&str> = JOB_CALLS.iter().map(|(tool, _)| *tool).collect();
        assert_eq!(names, mapped);
    }
}
