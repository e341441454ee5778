//! Primitive assembly: a draw's vertex sequence (split at primitive restart) becomes
//! points, lines or triangles, each with its provoking vertex, following the GL tables
//! for first- and last-vertex conventions. Adjacency primitives without a geometry
//! shader draw their non-adjacent vertices.

use crate::driver::PrimMode;

/// An assembled primitive: up to 6 vertex positions (indices into the shaded-vertex
/// sequence), the count used, and the provoking vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prim {
    /// Vertices in winding order.
    pub v: [u32; 6],
    /// Vertices used (1, 2, 3; 4 or 6 with adjacency).
    pub n: u8,
    /// Provoking vertex.
    pub provoking: u32,
    /// Triangles: bit `i` set when the edge from `v[i]` to `v[(i + 1) % 3]` is a
    /// boundary edge of the GL primitive (the diagonals that split quads and polygons
    /// are not), for polygon modes `GL_LINE` / `GL_POINT`.
    pub edges: u8,
    /// A later triangle of the same GL primitive (the second half of a quad, the
    /// rest of a polygon): it shares the previous triangle's `gl_PrimitiveID`.
    pub continues: bool,
}

/// Basic class of a mode's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrimClass {
    /// Points.
    Point,
    /// Lines.
    Line,
    /// Triangles.
    Triangle,
}

/// The class a mode draws (adjacency modes draw their main primitive).
pub fn class_of(mode: PrimMode) -> PrimClass {
    use PrimMode::*;
    match mode {
        Points => PrimClass::Point,
        Lines | LineStrip | LineLoop | LinesAdjacency | LineStripAdjacency => PrimClass::Line,
        _ => PrimClass::Triangle,
    }
}

/// Calls `emit` for every primitive of `mode` over the run `seq` (no restart inside).
/// With `keep_adjacency`, adjacency primitives are emitted whole (for a GS).
pub fn assemble(
    mode: PrimMode,
    seq: &[u32],
    first: bool,
    keep_adjacency: bool,
    emit: &mut dyn FnMut(Prim),
) {
    use PrimMode::*;
    let n = seq.len();
    let mk = |v: &[u32], prov: u32| {
        let mut a = [0u32; 6];
        a[..v.len()].copy_from_slice(v);
        Prim {
            v: a,
            n: v.len() as u8,
            provoking: prov,
            edges: 0b111,
            continues: false,
        }
    };
    let with_edges = |mut p: Prim, e: u8| {
        p.edges = e;
        p
    };
    let continued = |mut p: Prim| {
        p.continues = true;
        p
    };
    let pick = |f: u32, l: u32| if first { f } else { l };
    match mode {
        Points => seq.iter().for_each(|&a| emit(mk(&[a], a))),
        Lines => {
            for c in seq.chunks_exact(2) {
                emit(mk(c, pick(c[0], c[1])));
            }
        }
        LineStrip | LineLoop => {
            for i in 1..n {
                emit(mk(&[seq[i - 1], seq[i]], pick(seq[i - 1], seq[i])));
            }
            if mode == LineLoop && n >= 2 {
                emit(mk(&[seq[n - 1], seq[0]], pick(seq[n - 1], seq[0])));
            }
        }
        Triangles => {
            for c in seq.chunks_exact(3) {
                emit(mk(c, pick(c[0], c[2])));
            }
        }
        TriangleStrip => {
            for i in 2..n {
                let (a, b, c) = (seq[i - 2], seq[i - 1], seq[i]);
                let tri = if i % 2 == 0 { [a, b, c] } else { [b, a, c] };
                emit(mk(&tri, pick(a, c)));
            }
        }
        TriangleFan => {
            for i in 2..n {
                emit(mk(&[seq[0], seq[i - 1], seq[i]], pick(seq[i - 1], seq[i])));
            }
        }
        Polygon => {
            for i in 2..n {
                let e = 0b010 | (i == 2) as u8 | (((i == n - 1) as u8) << 2);
                let tri = with_edges(mk(&[seq[0], seq[i - 1], seq[i]], seq[0]), e);
                emit(if i > 2 { continued(tri) } else { tri });
            }
        }
        Quads => {
            for q in seq.chunks_exact(4) {
                let prov = pick(q[0], q[3]);
                emit(with_edges(mk(&[q[0], q[1], q[2]], prov), 0b011));
                emit(continued(with_edges(mk(&[q[0], q[2], q[3]], prov), 0b110)));
            }
        }
        QuadStrip => {
            let mut i = 3;
            while i < n {
                let (a, b, c, d) = (seq[i - 3], seq[i - 2], seq[i - 1], seq[i]);
                let prov = pick(a, d);
                emit(with_edges(mk(&[a, b, d], prov), 0b011));
                emit(continued(with_edges(mk(&[a, d, c], prov), 0b110)));
                i += 2;
            }
        }
        LinesAdjacency => {
            for c in seq.chunks_exact(4) {
                if keep_adjacency {
                    emit(mk(c, pick(c[1], c[2])));
                } else {
                    emit(mk(&[c[1], c[2]], pick(c[1], c[2])));
                }
            }
        }
        LineStripAdjacency => {
            for i in 3..n {
                let c = &seq[i - 3..=i];
                if keep_adjacency {
                    emit(mk(c, pick(c[1], c[2])));
                } else {
                    emit(mk(&[c[1], c[2]], pick(c[1], c[2])));
                }
            }
        }
        TrianglesAdjacency => {
            for c in seq.chunks_exact(6) {
                if keep_adjacency {
                    emit(mk(c, pick(c[0], c[4])));
                } else {
                    emit(mk(&[c[0], c[2], c[4]], pick(c[0], c[4])));
                }
            }
        }
        TriangleStripAdjacency => {
            // GL spec table "triangles generated by triangle strips with
            // adjacency" (1-based positions): triangle i has primitive vertices
            // 2i+1, 2i+3, 2i+5 (even i) or 2i+3, 2i+1, 2i+5 (odd i); the vertex
            // adjacent to edge 1/2 is 2i-1 (2 for the first), to edges 2/3 and
            // 3/1 are 2i+7 and 2i+4 (even) or 2i+4 and 2i+7 (odd), where the
            // last triangle has 2i+6 in place of 2i+7.
            if n < 6 {
                return;
            }
            let tris = (n - 4) / 2;
            for i in 0..tris {
                let v = |k: usize| seq.get(k).copied().unwrap_or(seq[n - 1]);
                let b = 2 * i;
                let last = i + 1 == tris;
                let beyond = if last { v(b + 5) } else { v(b + 6) };
                let first_adj = if i == 0 { v(b + 1) } else { v(b - 2) };
                // [1st, 2nd, 3rd] primitive vertices, [1/2, 2/3, 3/1] adjacent.
                let (main, adj) = if i % 2 == 0 {
                    ([v(b), v(b + 2), v(b + 4)], [first_adj, beyond, v(b + 3)])
                } else {
                    ([v(b + 2), v(b), v(b + 4)], [first_adj, v(b + 3), beyond])
                };
                let prov = pick(v(b), v(b + 4));
                if keep_adjacency {
                    emit(mk(
                        &[main[0], adj[0], main[1], adj[1], main[2], adj[2]],
                        prov,
                    ));
                } else {
                    emit(mk(&main, prov));
                }
            }
        }
    }
}
