//! Values of the compatibility-profile built-in uniforms (`gl_ModelViewMatrix`,
//! `gl_NormalMatrix`, `gl_DepthRange`, `gl_ClipPlane[]`, `gl_Point`, ...) computed
//! from the context's state at draw time, as Mesa's `STATE_*` parameters are.
//! Values are produced as vec4 slots in rgl's uniform storage layout (one slot per
//! matrix column or vector, arrays one element after another).

use crate::matrices::{invert, mul, transpose, Mat4, IDENTITY};
use crate::Context;

fn mat_slots(m: &Mat4, out: &mut Vec<[f32; 4]>) {
    for c in 0..4 {
        out.push([
            m[c * 4] as f32,
            m[c * 4 + 1] as f32,
            m[c * 4 + 2] as f32,
            m[c * 4 + 3] as f32,
        ]);
    }
}

/// Applies a `Inverse` / `Transpose` / `InverseTranspose` suffix.
fn with_suffix(m: Mat4, suffix: &str) -> Option<Mat4> {
    Some(match suffix {
        "" => m,
        "Inverse" => invert(&m).unwrap_or(IDENTITY),
        "Transpose" => transpose(&m),
        "InverseTranspose" => transpose(&invert(&m).unwrap_or(IDENTITY)),
        _ => return None,
    })
}

impl Context {
    /// The slots of built-in uniform `name` (`array_size` elements), or `None` when
    /// `name` is not a state-derived built-in.
    pub(crate) fn builtin_uniform(&self, name: &str, array_size: u32) -> Option<Vec<[f32; 4]>> {
        let name = name.strip_suffix("[0]").unwrap_or(name);
        let m = &self.matrices;
        let f = &self.fixed;
        let mut out = Vec::new();
        let matrix = |base: &str| -> Option<Mat4> {
            let mv = m.modelview();
            let p = m.projection();
            let (which, suffix) = [
                "gl_ModelViewProjectionMatrix",
                "gl_ModelViewMatrix",
                "gl_ProjectionMatrix",
            ]
            .iter()
            .find_map(|w| base.strip_prefix(w).map(|s| (*w, s)))?;
            let raw = match which {
                "gl_ModelViewProjectionMatrix" => mul(&p, &mv),
                "gl_ModelViewMatrix" => mv,
                _ => p,
            };
            with_suffix(raw, suffix)
        };
        if let Some(mat) = matrix(name) {
            mat_slots(&mat, &mut out);
            return Some(out);
        }
        if let Some(suffix) = name.strip_prefix("gl_TextureMatrix") {
            for unit in 0..array_size.max(1) as usize {
                let t = m
                    .texture
                    .get(unit)
                    .and_then(|s| s.last().copied())
                    .unwrap_or(IDENTITY);
                mat_slots(&with_suffix(t, suffix)?, &mut out);
            }
            return Some(out);
        }
        match name {
            "gl_NormalMatrix" => {
                // Inverse transpose of the modelview's upper-left 3×3.
                let it = transpose(&invert(&m.modelview()).unwrap_or(IDENTITY));
                for c in 0..3 {
                    out.push([
                        it[c * 4] as f32,
                        it[c * 4 + 1] as f32,
                        it[c * 4 + 2] as f32,
                        0.0,
                    ]);
                }
            }
            "gl_NormalScale" => out.push([1.0, 0.0, 0.0, 0.0]),
            "gl_DepthRange.near" => out.push([f.depth_range[0] as f32, 0.0, 0.0, 0.0]),
            "gl_DepthRange.far" => out.push([f.depth_range[1] as f32, 0.0, 0.0, 0.0]),
            "gl_DepthRange.diff" => {
                out.push([(f.depth_range[1] - f.depth_range[0]) as f32, 0.0, 0.0, 0.0])
            }
            "gl_ClipPlane" => {
                for i in 0..array_size.max(1) as usize {
                    let p = f.clip_plane_eqs.get(i).copied().unwrap_or([0.0; 4]);
                    out.push(p.map(|v| v as f32));
                }
            }
            "gl_Point.size" => out.push([f.point_size, 0.0, 0.0, 0.0]),
            "gl_Point.sizeMin" => out.push([1.0, 0.0, 0.0, 0.0]),
            "gl_Point.sizeMax" => out.push([crate::limits::MAX_POINT_SIZE, 0.0, 0.0, 0.0]),
            "gl_Point.distanceConstantAttenuation" => out.push([1.0, 0.0, 0.0, 0.0]),
            "gl_Point.fadeThresholdSize"
            | "gl_Point.distanceLinearAttenuation"
            | "gl_Point.distanceQuadraticAttenuation" => out.push([0.0; 4]),
            _ => return None,
        }
        Some(out)
    }
}
