/// Testing (HIP-0300 `test`): a normalised preset over `proc.exec` that
/// knows the workspace's test framework and reports pass/fail/skip counts
/// and failure locations the same way for every language.
category test;

/// Discover and run the workspace's tests.
tool test {
    title "Tests"

    /// List the test suites the detected frameworks know about.
    action list {
        timing async_short
        title "List test suites"
        request {
            /// Directory or file to look under; the workspace root when omitted.
            path: string?,
        }
        response {
            /// The suites, in path order.
            suites: list<TestSuite>,
        }
    }

    /// Run tests and report the results; streams events while it runs.
    action run {
        timing async_long
        title "Run tests"
        request {
            /// Suite to run, by ID from `list`; all suites when omitted.
            suite: string?,
            /// Only tests whose names contain this text.
            filter: string?,
            /// Run tests in parallel where the framework allows.
            parallel: bool = true,
            /// Stop at the first failure.
            fail_fast: bool = false,
            /// Give up after this many milliseconds.
            @range(1000, 86400000)
            timeout_ms: u64 = 1800000,
        }
        response TestSummary
    }

    /// Report the state of a test run, and its results once finished.
    action status {
        timing sync
        title "Test run status"
        request {
            /// The run, as returned by `run`.
            run_id: string,
        }
        response {
            /// Where the run is in its life.
            state: JobState,
            /// Results so far; final once `state` is `complete` or `failed`.
            summary: TestSummary?,
        }
    }

    stream TestEvent
    errors TestError
}

/// Results of a test run.
struct TestSummary {
    /// ID of the run, for `status`.
    run_id: string,
    /// Tests that passed.
    pass: u32,
    /// Tests that failed.
    fail: u32,
    /// Tests skipped or ignored.
    skip: u32,
    /// Wall-clock time of the run in milliseconds.
    duration_ms: u64,
    /// Every failure, with where it happened.
    failures: list<TestFailure>,
}

/// A group of tests one framework runs together.
struct TestSuite {
    /// Suite ID, passed to `run` as `suite`.
    id: string,
    /// Human-readable name.
    name: string,
    /// Framework that runs it, e.g. `cargo`, `pytest`, `vitest`.
    framework: string,
    /// Directory or file the suite lives in.
    path: string,
    /// Number of tests, when the framework can count them without running.
    test_count: u32?,
}

/// One failed test.
struct TestFailure {
    /// Full test name, e.g. `tests::parse::rejects_empty`.
    name: string,
    /// Failure message or assertion text.
    message: string,
    /// Where the failure was raised, when the framework reports it.
    location: Location?,
    /// Output the test printed, when captured.
    output: string?,
}

/// Progress events streamed by `run`.
union TestEvent {
    /// The run has started.
    started {
        /// Number of tests to run, when known.
        total: u32?,
    },
    /// A test passed.
    passed {
        /// Full test name.
        name: string,
        /// Time the test took in milliseconds.
        duration_ms: u64,
    },
    /// A test failed.
    failed {
        /// The failure.
        failure: TestFailure,
    },
    /// A test was skipped.
    skipped {
        /// Full test name.
        name: string,
    },
    /// The build step before the tests finished.
    build_finished,
}

/// Errors from test actions.
error TestError {
    /// No supported test framework was found in the workspace.
    no_test_framework,
    /// No suite has this ID.
    suite_not_found {
        /// The suite that was asked for.
        suite: string,
    },
    /// No run has this ID, or it expired.
    run_not_found {
        /// The run that was asked for.
        run_id: string,
    },
    /// The code failed to build, so no tests ran.
    build_failed {
        /// Compiler output.
        output: string,
    },
    /// The run exceeded `timeout_ms`.
    timed_out {
        /// Results collected before the timeout.
        partial: TestSummary,
    },
}
