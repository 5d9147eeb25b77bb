#!/usr/bin/env python3
"""Writes a synthetic catalogue of N tools (50 per file) into DIR.

Each tool has a 5-field request with defaults and constraints, a recursive
response struct, an item struct and an error type, all documented (the
catalogue draws no warning). Used by the check, diff, language-server and
compile-time benchmarks.

    scripts/synth-catalogue.py DIR N
"""
import sys, os
out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
per_file = 50
for f in range((n + per_file - 1) // per_file):
    lines = [f"/// Generated category {f}.", f"category gen_{f};", ""]
    lines += [f"/// Shared enum {f}.", f"enum Mode{f} {{ fast, slow, exact }}", ""]
    for t in range(f * per_file, min(n, (f + 1) * per_file)):
        lines += [
            f"/// Tool {t}.",
            f"tool tool_{t} {{",
            "    timing async_short",
            f'    title "Tool {t}"',
            "    request {",
            "        /// Input text.",
            "        @length(1, 4096)",
            "        text: string,",
            "        /// Repeat count.",
            "        @range(1, 100)",
            "        count: u32 = 1,",
            "        /// Speed.",
            f"        mode: Mode{f} = fast,",
            "        /// Labels.",
            "        tags: list<string> = [],",
            "        /// Anything else.",
            "        extra: map<json>?,",
            "    }",
            f"    response Result{t} {{",
            "        /// Whether it worked.",
            "        ok: bool,",
            "        /// What it found.",
            f"        items: list<Item{t}>,",
            "        /// The next page.",
            f"        next: Result{t}?,",
            "    }",
            f"    errors Error{t}",
            "}",
            "",
            f"/// Item {t}.",
            f"struct Item{t} {{",
            "    /// Its id.",
            "    id: string,",
            "    /// How well it matches.",
            "    score: f64,",
            "    /// Its bytes.",
            "    payload: bytes?,",
            "}",
            "",
            f"/// Errors of tool {t}.",
            f"error Error{t} {{",
            "    /// Nothing has this id.",
            "    not_found {",
            "        /// The id asked for.",
            "        id: string,",
            "    },",
            "    /// Try again later.",
            "    busy,",
            "}",
            "",
        ]
    with open(os.path.join(out, f"gen_{f}.tool"), "w") as fh:
        fh.write("\n".join(lines))
