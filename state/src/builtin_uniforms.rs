//! Values of the compatibility-profile built-in uniforms (`gl_ModelViewMatrix`,
//! `gl_NormalMatrix`, `gl_DepthRange`, `gl_ClipPlane[]`, `gl_Point`, ...) computed
//! from the context's state at draw time, as Mesa's `STATE_*` parameters are.
//! Values are produced as vec4 slots in rgl's uniform storage layout (one slot per
//! matrix column or vector, arrays one element after another). Lighting, material,
//! fog and texgen built-ins (`gl_LightSource[]`, `gl_FrontMaterial`, `gl_Fog`, ...)
//! hold GL's initial values: rgl has no entry points that change them.

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
            _ => {
                let slot = initial_fixed_function_value(name)?;
                out.resize(array_size.max(1) as usize, slot);
            }
        }
        Some(out)
    }
}

/// `gl_LightSource[i]` member `field` in GL's initial state: light 0 is white,
/// the others black; every light is directional along +z with no spot cutoff.
fn initial_light(i: usize, field: &str) -> Option<[f32; 4]> {
    let white_if_first = if i == 0 {
        [1.0; 4]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    };
    Some(match field {
        "ambient" => [0.0, 0.0, 0.0, 1.0],
        "diffuse" | "specular" => white_if_first,
        "position" => [0.0, 0.0, 1.0, 0.0],
        // normalize(eye direction (0, 0, 1) + light direction (0, 0, 1)).
        "halfVector" => [0.0, 0.0, 1.0, 0.0],
        "spotDirection" => [0.0, 0.0, -1.0, 0.0],
        "spotCutoff" => [180.0, 0.0, 0.0, 0.0],
        "spotCosCutoff" => [-1.0, 0.0, 0.0, 0.0],
        "constantAttenuation" => [1.0, 0.0, 0.0, 0.0],
        "spotExponent" | "linearAttenuation" | "quadraticAttenuation" => [0.0; 4],
        _ => return None,
    })
}

/// A material member in GL's initial state (front and back are equal).
fn initial_material(field: &str) -> Option<[f32; 4]> {
    Some(match field {
        "emission" | "specular" => [0.0, 0.0, 0.0, 1.0],
        "ambient" => [0.2, 0.2, 0.2, 1.0],
        "diffuse" => [0.8, 0.8, 0.8, 1.0],
        "shininess" => [0.0; 4],
        _ => return None,
    })
}

const LIGHT_MODEL_AMBIENT: [f32; 4] = [0.2, 0.2, 0.2, 1.0];

fn product(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]]
}

/// One vec4 slot of a lighting, material, fog, texture-environment or
/// texture-generation built-in uniform (one array element, or the whole
/// value of a non-array). rgl has no `glLight`/`glMaterial`/`glFog`/`glTexGen`
/// entry points, so these keep the values GL gives them initially.
fn initial_fixed_function_value(name: &str) -> Option<[f32; 4]> {
    let (base, field) = match name.split_once('.') {
        Some((b, f)) => (b, f),
        None => (name, ""),
    };
    let (array, index) = match base.split_once('[') {
        Some((a, rest)) => (a, rest.strip_suffix(']')?.parse::<usize>().ok()?),
        None => (base, 0),
    };
    Some(match array {
        "gl_LightSource" => initial_light(index, field)?,
        "gl_FrontMaterial" | "gl_BackMaterial" => initial_material(field)?,
        "gl_LightModel" if field == "ambient" => LIGHT_MODEL_AMBIENT,
        "gl_FrontLightModelProduct" | "gl_BackLightModelProduct" if field == "sceneColor" => {
            let e = initial_material("emission")?;
            let a = product(initial_material("ambient")?, LIGHT_MODEL_AMBIENT);
            [
                e[0] + a[0],
                e[1] + a[1],
                e[2] + a[2],
                initial_material("diffuse")?[3],
            ]
        }
        "gl_FrontLightProduct" | "gl_BackLightProduct" => {
            let mut p = product(initial_light(index, field)?, initial_material(field)?);
            p[3] = initial_material("diffuse")?[3];
            p
        }
        "gl_Fog" => match field {
            "color" | "start" => [0.0; 4],
            // density, end and scale = 1 / (end - start).
            "density" | "end" | "scale" => [1.0, 0.0, 0.0, 0.0],
            _ => return None,
        },
        "gl_TextureEnvColor" => [0.0; 4],
        "gl_EyePlaneS" | "gl_ObjectPlaneS" => [1.0, 0.0, 0.0, 0.0],
        "gl_EyePlaneT" | "gl_ObjectPlaneT" => [0.0, 1.0, 0.0, 0.0],
        "gl_EyePlaneR" | "gl_ObjectPlaneR" | "gl_EyePlaneQ" | "gl_ObjectPlaneQ" => [0.0; 4],
        _ => return None,
    })
}
