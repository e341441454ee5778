//! The geometry shader stage: assembled primitives (with adjacency) are shaded
//! [`LANES`] primitives at a time; each lane's `emit_vertex` / `end_primitive` calls
//! build output strips, which are re-assembled into points, lines or triangles in
//! primitive order. Vertices emitted past `max_vertices` are dropped.

use super::prim::{assemble, Prim, PrimClass};
use crate::driver::PrimMode;
use crate::exec::{
    Budget, GsOutput, GsSink, Invocation, Reg, Resources, ShaderExec, SysVals, LANES,
};
use crate::{Error, Result};

/// Largest `max_vertices` accepted.
pub const MAX_GS_VERTICES: u32 = 1024;

/// Collects each lane's emitted vertices and strip boundaries.
struct Collector {
    words: usize,
    max: u32,
    /// Per lane: vertex words and the strips (start vertex, count).
    verts: Vec<Vec<u32>>,
    count: Vec<u32>,
    strips: Vec<Vec<(u32, u32)>>,
    open: Vec<u32>,
}

impl GsSink for Collector {
    fn emit_vertex(&mut self, mask: u32, outputs: &[Reg]) {
        for l in 0..LANES {
            if mask & (1 << l) == 0 || self.count[l] >= self.max {
                continue;
            }
            for w in 0..self.words {
                self.verts[l].push(outputs.get(w).map(|r| r.0[l]).unwrap_or(0));
            }
            self.count[l] += 1;
        }
    }
    fn end_primitive(&mut self, mask: u32) {
        for l in 0..LANES {
            if mask & (1 << l) != 0 {
                self.close(l);
            }
        }
    }
}

impl Collector {
    fn close(&mut self, l: usize) {
        let start = self.open[l];
        if self.count[l] > start {
            self.strips[l].push((start, self.count[l] - start));
        }
        self.open[l] = self.count[l];
    }
}

/// Runs the GS over `prims` (vertex indices into `vs_out`, `vs_words` words each),
/// with `link[k]` mapping GS input word `k` of a vertex to a VS output word. Returns
/// the output vertices (GS output words each), the primitives over them and their class.
#[allow(clippy::too_many_arguments)]
pub fn run_gs(
    gs: &dyn ShaderExec,
    prims: &[Prim],
    vs_out: &[u32],
    vs_words: usize,
    link: &[Option<usize>],
    res: Resources<'_>,
    budget: &mut Budget,
    scratch: &mut Vec<Reg>,
    first_provoking: bool,
) -> Result<(Vec<u32>, Vec<Prim>, PrimClass)> {
    let info = gs.info();
    let g = info
        .gs
        .ok_or_else(|| Error::InvalidArgument("geometry shader without GS parameters".into()))?;
    if g.max_vertices > MAX_GS_VERTICES {
        return Err(Error::TooLarge(format!(
            "geometry shader max_vertices {}",
            g.max_vertices
        )));
    }
    let total = prims.len() as u64 * g.max_vertices as u64 * info.outputs.len() as u64 * 4;
    if total > super::draw::MAX_VERTEX_WORDS {
        return Err(Error::TooLarge(format!(
            "geometry shader output of up to {total} words for {} primitives",
            prims.len()
        )));
    }
    let nv = g.vertices_in.max(1) as usize;
    let per_vertex = info.inputs.len() * 4;
    let words = info.outputs.len() * 4;
    let mut inputs = vec![Reg::default(); nv * per_vertex];
    let mut outputs = vec![Reg::default(); words];
    let mut out_verts: Vec<u32> = Vec::new();
    let mut out_prims: Vec<Prim> = Vec::new();
    let (mode, class) = match g.output {
        GsOutput::Points => (PrimMode::Points, PrimClass::Point),
        GsOutput::LineStrip => (PrimMode::LineStrip, PrimClass::Line),
        GsOutput::TriangleStrip => (PrimMode::TriangleStrip, PrimClass::Triangle),
    };
    let mut sys = SysVals::default();
    for (chunk_i, chunk) in prims.chunks(LANES).enumerate() {
        for (l, p) in chunk.iter().enumerate() {
            for v in 0..nv {
                let vi = p.v.get(v).copied().unwrap_or(0) as usize;
                let base = vi * vs_words;
                for (k, src) in link.iter().enumerate().take(per_vertex) {
                    let word = src.and_then(|w| vs_out.get(base + w)).copied().unwrap_or(0);
                    inputs[v * per_vertex + k].0[l] = word;
                }
            }
            sys.primitive_id.0[l] = (chunk_i * LANES + l) as u32;
        }
        let mut sink = Collector {
            words,
            max: g.max_vertices,
            verts: vec![Vec::new(); LANES],
            count: vec![0; LANES],
            strips: vec![Vec::new(); LANES],
            open: vec![0; LANES],
        };
        let n = chunk.len();
        budget.refill();
        let mut inv = Invocation {
            inputs: &inputs,
            outputs: &mut outputs,
            sys: &sys,
            mask: if n >= 32 { u32::MAX } else { (1u32 << n) - 1 },
            kill: 0,
            res,
            budget,
            scratch,
            gs: Some(&mut sink),
        };
        gs.run(&mut inv)?;
        for l in 0..n {
            sink.close(l);
            let base = (out_verts.len() / words.max(1)) as u32;
            out_verts.extend_from_slice(&sink.verts[l]);
            for &(start, count) in &sink.strips[l] {
                let seq: Vec<u32> = (base + start..base + start + count).collect();
                assemble(mode, &seq, first_provoking, false, &mut |p| {
                    out_prims.push(p)
                });
            }
        }
    }
    Ok((out_verts, out_prims, class))
}
