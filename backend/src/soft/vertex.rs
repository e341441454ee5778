//! Vertex fetch and vertex shading: attribute elements are read from the bound vertex
//! buffers (every GL attribute format, strides, instance divisors; an element that
//! would read outside its buffer, or a negative/overflowing index, reads zeros), packed
//! into SoA lanes, shaded [`LANES`] vertices at a time, and stored AoS (one run of
//! words per vertex, every output's 4 components) for assembly and clipping.

use crate::driver::VertexSource;
use crate::exec::{Budget, Invocation, Reg, Resources, ShaderExec, SysVals, LANES};
use crate::Result;

/// A vertex buffer resolved for one draw.
#[derive(Clone, Copy)]
pub struct BoundVb<'a> {
    /// Buffer contents.
    pub data: &'a [u8],
    /// Byte offset of vertex 0.
    pub offset: u64,
    /// Stride in bytes.
    pub stride: u32,
}

/// What vertex fetch reads in one draw.
pub struct Fetcher<'a> {
    /// Vertex elements (index = VS input location).
    pub elems: &'a [VertexSource],
    /// Vertex buffers by slot (`None`: unbound, reads zeros).
    pub vbs: &'a [Option<BoundVb<'a>>],
    /// Current instance.
    pub instance: u32,
    /// First instance (`baseinstance`).
    pub start_instance: u32,
}

impl Fetcher<'_> {
    /// Fetches element `e` for vertex `index` (already including base vertex).
    pub fn fetch(&self, e: usize, index: i64) -> [u32; 4] {
        let Some(src) = self.elems.get(e) else {
            return [0, 0, 0, 0];
        };
        match *src {
            VertexSource::Constant(v) => v,
            VertexSource::Array {
                buffer,
                offset,
                format,
                divisor,
            } => {
                let Some(Some(vb)) = self.vbs.get(buffer as usize) else {
                    return [0; 4];
                };
                let idx = match self.instance.checked_div(divisor) {
                    None => index,
                    Some(step) => self.start_instance as i64 + step as i64,
                };
                if idx < 0 {
                    return [0; 4];
                }
                let addr = (idx as u128) * vb.stride as u128 + vb.offset as u128 + offset as u128;
                let size = format.element_bytes() as u128;
                if addr + size > vb.data.len() as u128 {
                    return [0; 4];
                }
                let a = addr as usize;
                format.decode(&vb.data[a..a + size as usize])
            }
        }
    }
}

/// Shades `indices.len()` vertices (each given as its index including base vertex) and
/// appends their outputs to `out` (`outputs.len() * 4` words per vertex).
#[allow(clippy::too_many_arguments)]
pub fn shade_vertices(
    vs: &dyn ShaderExec,
    fetch: &Fetcher<'_>,
    indices: &mut dyn Iterator<Item = i64>,
    res: Resources<'_>,
    budget: &mut Budget,
    scratch: &mut Vec<Reg>,
    out: &mut Vec<u32>,
) -> Result<u64> {
    let info = vs.info();
    let nin = info.inputs.len();
    let nout = info.outputs.len() * 4;
    let mut inputs = vec![Reg::default(); nin * 4];
    let mut outputs = vec![Reg::default(); nout];
    let mut sys = SysVals {
        instance_id: Reg::splat_u(fetch.instance),
        ..SysVals::default()
    };
    let mut shaded = 0u64;
    loop {
        let mut ids = [0i64; LANES];
        let mut n = 0;
        while n < LANES {
            match indices.next() {
                Some(i) => {
                    ids[n] = i;
                    n += 1;
                }
                None => break,
            }
        }
        if n == 0 {
            break;
        }
        for (i, decl) in info.inputs.iter().enumerate() {
            for (l, &id) in ids.iter().enumerate().take(n) {
                let v = fetch.fetch(decl.location.max(0) as usize, id);
                for c in 0..4 {
                    inputs[i * 4 + c].0[l] = v[c];
                }
            }
        }
        for (l, &id) in ids.iter().enumerate() {
            sys.vertex_id.0[l] = id as u32;
        }
        budget.refill();
        let mut inv = Invocation {
            inputs: &inputs,
            outputs: &mut outputs,
            sys: &sys,
            mask: (1u32 << n) - 1,
            kill: 0,
            res,
            budget,
            scratch,
            gs: None,
        };
        vs.run(&mut inv)?;
        for l in 0..n {
            for reg in outputs.iter() {
                out.push(reg.0[l]);
            }
        }
        shaded += n as u64;
        if n < LANES {
            break;
        }
    }
    Ok(shaded)
}
