//! Handlers for the `dispatch` benchmark (`benches/dispatch.rs`). They do
//! little work on purpose, so the benchmark measures decoding, dispatch and
//! encoding; the same functions serve the baselines it compares against.

use crate::{
    AbcError, AbcParseRequest, AbcParsed, CasError, CasStoreRequest, CasStored, GardenError,
    GardenGetRegionsRequest, GardenGetRegionsResponse, Region, RegionBehavior,
};

/// A small request's payload: a short ABC tune.
pub const TUNE: &str = "X:1\nT:Speed the Plough\nM:4/4\nL:1/8\nQ:1/4=120\nK:G\n\
                        |:GABc dedB|dedB dedB|c2ec B2dB|c2A2 A2BA|\n";

/// Serves `abc_parse`, `garden_get_regions` and `cas_store`; every other
/// tool answers `NOT_IMPLEMENTED`.
#[derive(Debug)]
pub struct BenchService {
    regions: Vec<Region>,
}

impl BenchService {
    /// A service whose timeline holds `regions` regions.
    pub fn new(regions: usize) -> BenchService {
        BenchService {
            regions: timeline(regions),
        }
    }

    /// The timeline.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
}

#[toolwright::tools(not_implemented)]
impl BenchService {
    #[tool]
    fn abc_parse(&self, request: AbcParseRequest) -> Result<AbcParsed, AbcError> {
        abc_parse(request)
    }

    #[tool]
    fn garden_get_regions(
        &self,
        request: GardenGetRegionsRequest,
    ) -> Result<GardenGetRegionsResponse, GardenError> {
        garden_get_regions(&self.regions, request)
    }

    #[tool]
    fn cas_store(&self, request: CasStoreRequest) -> Result<CasStored, CasError> {
        cas_store(request)
    }
}

/// `n` regions, one per four beats.
pub fn timeline(n: usize) -> Vec<Region> {
    (0..n)
        .map(|i| Region {
            id: format!("region_{i:04}"),
            start_beat: 4.0 * i as f64,
            length_beats: 4.0,
            behavior: if i % 3 == 0 {
                RegionBehavior::Latent
            } else {
                RegionBehavior::PlayContent
            },
            content_id: format!("artifact_{:08x}", i * 2_654_435_761 % 0xffff_ffff),
            name: (i % 2 == 0).then(|| format!("Verse {i}")),
        })
        .collect()
}

/// Answers from the tune's size alone: the benchmark measures the path
/// around a handler, so the handler itself does next to nothing.
///
/// # Errors
/// `parse_failed` for an empty tune.
pub fn abc_parse(request: AbcParseRequest) -> Result<AbcParsed, AbcError> {
    if request.abc.is_empty() {
        return Err(AbcError::ParseFailed {
            line: 1,
            column: 1,
            message: "empty tune".into(),
        });
    }
    Ok(AbcParsed {
        valid: true,
        title: None,
        key: None,
        meter: None,
        tempo: None,
        voices: Vec::new(),
        notes_count: request.abc.len() as u64,
    })
}

/// The regions overlapping the requested beat range.
///
/// # Errors
/// Never; the signature is the tool's.
pub fn garden_get_regions(
    regions: &[Region],
    request: GardenGetRegionsRequest,
) -> Result<GardenGetRegionsResponse, GardenError> {
    let from = request.start_beat.unwrap_or(f64::NEG_INFINITY);
    let to = request.end_beat.unwrap_or(f64::INFINITY);
    let regions: Vec<Region> = regions
        .iter()
        .filter(|r| r.start_beat + r.length_beats > from && r.start_beat < to)
        .cloned()
        .collect();
    Ok(GardenGetRegionsResponse {
        count: regions.len() as u32,
        regions,
    })
}

/// Acknowledges the bytes without storing them.
///
/// # Errors
/// Never; the signature is the tool's.
pub fn cas_store(request: CasStoreRequest) -> Result<CasStored, CasError> {
    Ok(CasStored {
        hash: "0".repeat(64),
        size: request.data.len() as u64,
        mime_type: request.mime_type,
        already_present: false,
    })
}
