//! The one pipeline every door goes through: [`run`] checks the catalogue,
//! then runs each target's backend. build.rs ([`crate::Builder`]), the CLI
//! and the public functions below only choose the targets and write the
//! files; where the doors differ, [`crate::Generator`] says how.

use crate::lang::{self, Input, Target};
use crate::options::Options;
use crate::output::OutputFile;
use crate::{Checked, Diagnostics, Sources, check_for_clients};

/// What a generation produced: the files of each target, in the order the
/// targets were asked for, and the catalogue's warnings.
pub(crate) struct Generated {
    /// Each target with its files. A binding's paths start with its
    /// directory (`schemas/tools.json`); the others are as the backend
    /// names them.
    pub(crate) files: Vec<(Target, Vec<OutputFile>)>,
    /// The catalogue's warnings (`TW4xx`); may be empty.
    pub(crate) warnings: Diagnostics,
    /// The files read besides the `.tool` files (hand-written apps), for
    /// build scripts to watch.
    pub(crate) inputs: Vec<std::path::PathBuf>,
}

impl Generated {
    /// Every file, of every target.
    pub(crate) fn into_files(self) -> Vec<OutputFile> {
        self.files
            .into_iter()
            .flat_map(|(_, files)| files)
            .collect()
    }
}

/// Checks the catalogue and generates `targets` from it.
///
/// # Errors
/// Every error of the catalogue, when it has any, or of a schema that the
/// JSON Schema metaschema rejects (checked whenever Rust is generated too,
/// since the Rust embeds the MCP schema).
pub(crate) fn run(
    sources: &Sources,
    options: &Options,
    targets: &[Target],
) -> Result<Generated, Diagnostics> {
    let Checked { model, warnings } = check_for_clients(sources, &options.clients)?;
    let input = Input::new(&model, sources, options);
    let validate = targets.contains(&Target::Rust) && !targets.contains(&Target::Schemas);
    // The targets are independent of each other, so they run at once, each
    // on a thread of its own, with the schema check beside them; the
    // first failure, in the order the targets were asked for, is the
    // answer.
    let (checked, outputs) = std::thread::scope(|scope| {
        let input = &input;
        let check = validate.then(|| scope.spawn(move || lang::schema::validate(input)));
        let outputs: Vec<_> = targets
            .iter()
            .map(|&target| scope.spawn(move || target_files(input, target)))
            .collect();
        (
            check.map(lang::joined),
            outputs.into_iter().map(lang::joined).collect::<Vec<_>>(),
        )
    });
    checked.transpose()?;
    let mut files = Vec::with_capacity(targets.len());
    for (&target, out) in targets.iter().zip(outputs) {
        files.push((target, out?));
    }
    let inputs = model
        .apps()
        .filter_map(|(_, app)| match &app.source {
            crate::model::AppSource::File { resolved, .. } => Some(resolved.clone()),
            crate::model::AppSource::Generated => None,
        })
        .collect();
    Ok(Generated {
        files,
        warnings,
        inputs,
    })
}

/// One target's files, with a binding's paths under its directory and
/// each file's `@generated` line.
fn target_files(input: &Input<'_>, target: Target) -> Result<Vec<OutputFile>, Diagnostics> {
    let mut out = target.backend()(input)?;
    if let Some(dir) = target.binding_dir() {
        let regenerate = format!("run `toolwright generate {dir}`");
        for file in &mut out {
            lang::header::stamp(file, &regenerate);
            file.path = std::path::Path::new(dir).join(&file.path);
        }
    }
    Ok(out)
}

/// Checks the catalogue and generates Rust from it.
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any, or of a schema that
/// the JSON Schema metaschema rejects (the catalogue embeds its MCP schema).
pub fn generate(sources: &Sources, options: &Options) -> Result<Vec<OutputFile>, Diagnostics> {
    Ok(run(sources, options, &[Target::Rust])?.into_files())
}

/// A set of files for frontends, generated beside the Rust: what
/// `generated/` holds for the reference catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// `schemas/`: the MCP `tools` array and JSON Schema 2020-12 per type.
    Schemas,
    /// `typescript/`: an npm package with the types, a tool registry, the
    /// TOON codec and a typed client.
    TypeScript,
    /// `python/`: a pip package with pydantic models, a tool registry and
    /// the TOON codec.
    Python,
}

impl Binding {
    /// Every binding, in the order they are generated.
    pub const ALL: [Binding; 3] = [Binding::Schemas, Binding::TypeScript, Binding::Python];

    /// The directory the binding's files go in, relative to the output
    /// directory: `schemas`, `typescript`, `python`.
    pub fn dir(self) -> &'static str {
        self.target().binding_dir().unwrap_or_default()
    }

    /// The target that makes it.
    pub(crate) fn target(self) -> Target {
        match self {
            Binding::Schemas => Target::Schemas,
            Binding::TypeScript => Target::TypeScript,
            Binding::Python => Target::Python,
        }
    }
}

/// Checks the catalogue and generates the given bindings. Each file's path
/// starts with its binding's [`Binding::dir`].
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any, or of a schema that
/// the JSON Schema metaschema rejects.
pub fn generate_bindings(
    sources: &Sources,
    bindings: &[Binding],
) -> Result<Vec<OutputFile>, Diagnostics> {
    let targets: Vec<Target> = bindings.iter().map(|b| b.target()).collect();
    Ok(run(sources, &Options::default(), &targets)?.into_files())
}

/// Checks the catalogue and renders its documentation: `index.html`, a
/// self-contained page (search, a section per tool, examples), and
/// `catalogue.md`, the same as Markdown.
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any.
pub fn generate_docs(sources: &Sources) -> Result<Vec<OutputFile>, Diagnostics> {
    Ok(run(sources, &Options::default(), &[Target::Docs])?.into_files())
}

/// The page a Toolwright server shows at `GET /`: the documentation page
/// without data, which reads the server's `api/tools` and adds a *try it*
/// form per tool and a live feed of calls.
pub fn served_docs_page() -> String {
    lang::docs::served_page()
}
