//! The textures shader_runner's `texture …` commands create, as data: every
//! level's texels and the sampler parameters piglit's helpers set
//! (`piglit_rgbw_texture`, `piglit_rgbw_texture_1d/3d`, `piglit_array_texture`,
//! `piglit_miptree_texture`, `piglit_checkerboard_texture`,
//! `piglit_depth_texture` plus the runner's compare mode), and those of rgl's
//! extension `texture mipmap` ([`mipmapped`]). A context only has
//! to upload a [`TextureImage`]; the images are the same for rgl and for a host
//! peer. Sizes are bounded so a hostile file cannot allocate unbounded memory.

use super::command::{Filter, TextureSpec, TextureTarget, Wrap};
use super::gl_enum::{self, GlEnum};

/// Largest side accepted (GL_MAX_TEXTURE_SIZE of common drivers).
pub const MAX_SIDE: u32 = 16384;
/// Largest number of texels of one texture (all levels and layers).
pub const MAX_TEXELS: u64 = 1 << 22;

/// Texel values of one level.
#[derive(Clone, Debug, PartialEq)]
pub enum Texels {
    /// RGBA floats, row by row from the bottom, then layer by layer.
    Rgba(Vec<[f32; 4]>),
    /// Depth values in the same order.
    Depth(Vec<f32>),
}

/// One mipmap level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Mip level number.
    pub level: u32,
    /// Width.
    pub width: u32,
    /// Height (1 for 1D; the layer count for 1D arrays).
    pub height: u32,
    /// Depth (3D) or layers (2D arrays); 1 otherwise.
    pub depth: u32,
    /// The texels.
    pub texels: Texels,
}

/// A texture ready to upload and bind on a unit.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureImage {
    /// Target.
    pub target: TextureTarget,
    /// Internal format (`GL_RGBA` unless the command names one; `GL_DEPTH_COMPONENT`).
    pub internal_format: String,
    /// Levels in upload order.
    pub levels: Vec<Level>,
    /// Minification filter.
    pub min_filter: Filter,
    /// Magnification filter.
    pub mag_filter: Filter,
    /// Wrap modes set for s, t, r (`None`: left at GL's default).
    pub wrap: [Option<Wrap>; 3],
    /// Border colour, when set.
    pub border_color: Option<[f32; 4]>,
    /// `GL_COMPARE_R_TO_TEXTURE` with this function, for shadow textures.
    pub compare_func: Option<GlEnum>,
    /// Compatibility contexts also `glEnable` the target (fixed-function texturing).
    pub enable_target: bool,
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const WHITE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
/// piglit's colour wheel for solid levels and layers.
const COLOR_WHEEL: [[f32; 4]; 4] = [RED, GREEN, BLUE, WHITE];

fn check_size(sides: &[u32]) -> Result<u64, String> {
    if let Some(bad) = sides.iter().find(|&&s| s == 0 || s > MAX_SIDE) {
        return Err(format!(
            "texture size {bad} is outside 1..={MAX_SIDE} (sizes {sides:?})"
        ));
    }
    let texels = sides.iter().map(|&s| u64::from(s)).product::<u64>();
    if texels > MAX_TEXELS {
        return Err(format!(
            "texture of {texels} texels is larger than this runner allows ({MAX_TEXELS})"
        ));
    }
    Ok(texels)
}

fn rgba(level: u32, width: u32, height: u32, depth: u32, texels: Vec<[f32; 4]>) -> Level {
    Level {
        level,
        width,
        height,
        depth,
        texels: Texels::Rgba(texels),
    }
}

fn base(target: TextureTarget, levels: Vec<Level>) -> TextureImage {
    TextureImage {
        target,
        internal_format: "GL_RGBA".into(),
        levels,
        min_filter: Filter::Nearest,
        mag_filter: Filter::Nearest,
        wrap: [Some(Wrap::ClampToEdge), Some(Wrap::ClampToEdge), None],
        border_color: None,
        compare_func: None,
        enable_target: false,
    }
}

/// One texel of `texture mipmap`'s level 0, as RGBA8 bytes: red and green
/// ramp along s and t, blue is fine detail (a 32-texel xor pattern, shifted per
/// cube face), alpha falls from 240/255 to 64/255 along the diagonal, so alpha
/// tests pass and fail in places (and never reaches 1, where shaders that
/// read a material property from alpha divide by `1 - a`).
fn pattern_texel(x: u32, y: u32, z: u32, face: u32, [w, h, _]: [u32; 3]) -> [u8; 4] {
    let ramp = |v: u32, n: u32| if n > 1 { v * 255 / (n - 1) } else { 128 };
    let span = (w + h).saturating_sub(2).max(1);
    [
        ramp(x, w) as u8,
        ramp(y, h) as u8,
        (((x ^ y ^ z ^ (face * 5)) & 31) * 8) as u8,
        (240 - (x + y) * 176 / span) as u8,
    ]
}

/// The next mip level of `src` (`size` texels per axis, `faces` images one
/// after another): each texel is the rounded mean of the 2, 4 or 8 texels it
/// covers (the last row, column or slice of an odd size is dropped, as a
/// box filter of the even part).
fn downsample(src: &[[u8; 4]], [w, h, d]: [u32; 3], faces: u32) -> (Vec<[u8; 4]>, [u32; 3]) {
    let half = |n: u32| (n / 2).max(1);
    let (nw, nh, nd) = (half(w), half(h), half(d));
    let taps = |n: u32| if n > 1 { 2 } else { 1 };
    let (tx, ty, tz) = (taps(w), taps(h), taps(d));
    let count = tx * ty * tz;
    let mut out = Vec::with_capacity((nw * nh * nd * faces) as usize);
    for face in 0..faces {
        let base = (face * w * h * d) as usize;
        for z in 0..nd {
            for y in 0..nh {
                for x in 0..nw {
                    let mut sum = [0u32; 4];
                    for dz in 0..tz {
                        for dy in 0..ty {
                            for dx in 0..tx {
                                let (sx, sy, sz) = (2 * x + dx, 2 * y + dy, 2 * z + dz);
                                let texel = src[base + ((sz * h + sy) * w + sx) as usize];
                                for c in 0..4 {
                                    sum[c] += u32::from(texel[c]);
                                }
                            }
                        }
                    }
                    out.push(sum.map(|v| ((v + count / 2) / count) as u8));
                }
            }
        }
    }
    (out, [nw, nh, nd])
}

/// The texture of `texture mipmap TARGET U (size)`: an RGBA8 pattern
/// ([`pattern_texel`]) and every level down to 1×1, built here rather than
/// by `glGenerateMipmap` so that every context samples the same texels (all
/// values are exact multiples of 1/255); trilinear filtering, repeat wrap (a
/// cube clamps to its edges; cube faces are the layers of a level, in the
/// order +X, −X, +Y, −Y, +Z, −Z).
pub fn mipmapped(target: TextureTarget, size: &[u32]) -> Result<TextureImage, String> {
    let (dims, faces) = match (target, size) {
        (TextureTarget::T1D, [w]) => ([*w, 1, 1], 1),
        (TextureTarget::T2D, [w, h]) => ([*w, *h, 1], 1),
        (TextureTarget::T3D, [w, h, d]) => ([*w, *h, *d], 1),
        (TextureTarget::Cube, [w, h]) if w == h => ([*w, *h, 1], 6),
        (TextureTarget::Cube, [w, h]) => {
            return Err(format!("cube map faces must be square, not {w}x{h}"))
        }
        _ => {
            return Err(format!(
                "texture mipmap {} with size {size:?}",
                target.name()
            ))
        }
    };
    let level0 = check_size(&dims)? * u64::from(faces);
    // A whole mip chain has fewer than twice the texels of its level 0.
    if 2 * level0 > MAX_TEXELS {
        return Err(format!(
            "a mip chain of {level0} texels at level 0 is larger than this runner allows ({MAX_TEXELS} in all)"
        ));
    }
    let mut texels = Vec::with_capacity((dims[0] * dims[1] * dims[2] * faces) as usize);
    for face in 0..faces {
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    texels.push(pattern_texel(x, y, z, face, dims));
                }
            }
        }
    }
    let to_level = |level: u32, [w, h, d]: [u32; 3], data: &[[u8; 4]]| Level {
        level,
        width: w,
        height: h,
        depth: d * faces,
        texels: Texels::Rgba(
            data.iter()
                .map(|t| t.map(|c| f32::from(c) / 255.0))
                .collect(),
        ),
    };
    let mut levels = vec![to_level(0, dims, &texels)];
    let mut size = dims;
    while size.iter().any(|&s| s > 1) {
        let (next, next_size) = downsample(&texels, size, faces);
        levels.push(to_level(levels.len() as u32, next_size, &next));
        texels = next;
        size = next_size;
    }
    let mut image = base(target, levels);
    image.internal_format = "GL_RGBA8".into();
    image.min_filter = Filter::LinearMipmapLinear;
    image.mag_filter = Filter::Linear;
    let wrap = if target == TextureTarget::Cube {
        Wrap::ClampToEdge
    } else {
        Wrap::Repeat
    };
    image.wrap = match target {
        TextureTarget::T1D => [Some(wrap), None, None],
        TextureTarget::T2D => [Some(wrap), Some(wrap), None],
        _ => [Some(wrap); 3],
    };
    Ok(image)
}

/// Builds the texture a `texture` command creates.
pub fn build(spec: &TextureSpec) -> Result<TextureImage, String> {
    Ok(match spec {
        TextureSpec::Rgbw2D { size, format } => {
            let [w, h] = *size;
            check_size(&[w, h])?;
            let mut texels = Vec::with_capacity((w * h) as usize);
            for y in 0..h {
                for x in 0..w {
                    texels.push(match (x < w / 2, y < h / 2) {
                        (true, true) => RED,
                        (false, true) => GREEN,
                        (true, false) => BLUE,
                        (false, false) => WHITE,
                    });
                }
            }
            let mut image = base(TextureTarget::T2D, vec![rgba(0, w, h, 1, texels)]);
            if let Some(format) = format {
                image.internal_format = format.clone();
            }
            image.enable_target = true;
            image
        }
        TextureSpec::Rgbw1D => base(
            TextureTarget::T1D,
            vec![rgba(0, 4, 1, 1, vec![RED, GREEN, BLUE, WHITE])],
        ),
        TextureSpec::Rgbw3D => {
            let texels = vec![
                RED,
                GREEN,
                BLUE,
                WHITE,
                [1.0, 1.0, 0.0, 1.0],
                [1.0, 0.0, 1.0, 1.0],
                [0.0, 1.0, 1.0, 1.0],
                [0.0, 0.0, 0.0, 1.0],
            ];
            let mut image = base(TextureTarget::T3D, vec![rgba(0, 2, 2, 2, texels)]);
            image.wrap[2] = Some(Wrap::ClampToEdge);
            image
        }
        TextureSpec::Rgbw1DArray { size } => {
            let [w, layers] = *size;
            check_size(&[w, layers])?;
            let texels = (0..layers)
                .flat_map(|l| std::iter::repeat_n(COLOR_WHEEL[l as usize % 4], w as usize))
                .collect();
            base(TextureTarget::T1DArray, vec![rgba(0, w, layers, 1, texels)])
        }
        TextureSpec::Rgbw2DArray { size } => {
            let [w, h, layers] = *size;
            check_size(&[w, h, layers])?;
            let texels = (0..layers)
                .flat_map(|l| std::iter::repeat_n(COLOR_WHEEL[l as usize % 4], (w * h) as usize))
                .collect();
            base(TextureTarget::T2DArray, vec![rgba(0, w, h, layers, texels)])
        }
        TextureSpec::Miptree => {
            let levels = (0..4u32)
                .map(|level| {
                    let size = 8 >> level;
                    rgba(
                        level,
                        size,
                        size,
                        1,
                        vec![COLOR_WHEEL[level as usize]; (size * size) as usize],
                    )
                })
                .collect();
            let mut image = base(TextureTarget::T2D, levels);
            image.min_filter = Filter::NearestMipmapNearest;
            image.enable_target = true;
            image
        }
        TextureSpec::Checkerboard {
            level,
            size,
            color0,
            color1,
        } => {
            let [w, h] = *size;
            check_size(&[w, h])?;
            // Squares of w/2 x h/2 (at least one texel).
            let (sw, sh) = ((w / 2).max(1), (h / 2).max(1));
            let mut texels = Vec::with_capacity((w * h) as usize);
            for y in 0..h {
                for x in 0..w {
                    texels.push(if ((y / sh) ^ (x / sw)) & 1 == 1 {
                        *color1
                    } else {
                        *color0
                    });
                }
            }
            let mut image = base(TextureTarget::T2D, vec![rgba(*level, w, h, 1, texels)]);
            image.wrap = [Some(Wrap::ClampToBorder), Some(Wrap::ClampToBorder), None];
            image.border_color = Some([1.0, 0.0, 0.0, 1.0]);
            image.enable_target = true;
            image
        }
        TextureSpec::Shadow { target, size } => {
            let (w, h, d) = match (target, size.as_slice()) {
                (TextureTarget::T1D, [w]) => (*w, 1, 1),
                (TextureTarget::T2D | TextureTarget::Rect, [w, h]) => (*w, *h, 1),
                // piglit_depth_texture(1D_ARRAY, w, layers, 1): layers are rows.
                (TextureTarget::T1DArray, [w, l]) => (*w, *l, 1),
                (TextureTarget::T2DArray, [w, h, l]) => (*w, *h, *l),
                _ => {
                    return Err(format!(
                        "shadow texture {} with size {size:?}",
                        target.name()
                    ))
                }
            };
            check_size(&[w, h, d])?;
            // depth = x / (w - 1): a gradient along s, as piglit computes it
            // (0/0 for a one-texel-wide texture, as in C).
            let row: Vec<f32> = (0..w).map(|x| x as f32 / (w as f32 - 1.0)).collect();
            let texels = (0..h * d).flat_map(|_| row.iter().copied()).collect();
            let mut image = base(
                *target,
                vec![Level {
                    level: 0,
                    width: w,
                    height: h,
                    depth: d,
                    texels: Texels::Depth(texels),
                }],
            );
            image.internal_format = "GL_DEPTH_COMPONENT".into();
            image.compare_func = gl_enum::lookup("GL_GREATER");
            image.enable_target = *target == TextureTarget::T2D;
            image
        }
        TextureSpec::Mipmap { target, size } => mipmapped(*target, size)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texels(image: &TextureImage) -> Vec<String> {
        image
            .levels
            .iter()
            .map(|l| match &l.texels {
                Texels::Rgba(t) => format!(
                    "level {} {}x{}x{}: {}",
                    l.level,
                    l.width,
                    l.height,
                    l.depth,
                    t.iter()
                        .map(|c| match *c {
                            RED => "R",
                            GREEN => "G",
                            BLUE => "B",
                            WHITE => "W",
                            _ => "?",
                        })
                        .collect::<String>()
                ),
                Texels::Depth(d) => format!("level {} depth {d:?}", l.level),
            })
            .collect()
    }

    #[test]
    fn images() {
        let rgbw = build(&TextureSpec::Rgbw2D {
            size: [4, 2],
            format: None,
        });
        assert_eq!(
            rgbw.as_ref().map(texels),
            Ok(vec!["level 0 4x2x1: RRGGBBWW".to_string()])
        );
        let mip = build(&TextureSpec::Miptree).map(|i| i.levels.len());
        assert_eq!(mip, Ok(4));
        let checker = build(&TextureSpec::Checkerboard {
            level: 0,
            size: [4, 2],
            color0: RED,
            color1: GREEN,
        });
        assert_eq!(
            checker.as_ref().map(texels),
            Ok(vec!["level 0 4x2x1: RRGGGGRR".to_string()])
        );
        let shadow = build(&TextureSpec::Shadow {
            target: TextureTarget::T1D,
            size: vec![3],
        });
        assert_eq!(
            shadow.as_ref().map(texels),
            Ok(vec!["level 0 depth [0.0, 0.5, 1.0]".to_string()])
        );
        let huge = build(&TextureSpec::Rgbw2D {
            size: [16384, 16384],
            format: None,
        });
        assert!(huge.is_err());
        let zero = build(&TextureSpec::Rgbw2DArray { size: [4, 4, 0] });
        assert!(zero.is_err());
    }

    fn rgba_levels(image: &TextureImage) -> Vec<(u32, [u32; 3], Vec<[f32; 4]>)> {
        image
            .levels
            .iter()
            .filter_map(|l| match &l.texels {
                Texels::Rgba(t) => Some((l.level, [l.width, l.height, l.depth], t.clone())),
                Texels::Depth(_) => None,
            })
            .collect()
    }

    #[test]
    fn mipmapped_chains_are_box_filtered_bytes() {
        let sizes = |image: &TextureImage| -> Vec<[u32; 3]> {
            rgba_levels(image).iter().map(|l| l.1).collect()
        };
        let d2 = mipmapped(TextureTarget::T2D, &[8, 2]).expect("8x2");
        assert_eq!(
            sizes(&d2),
            [[8, 2, 1], [4, 1, 1], [2, 1, 1], [1, 1, 1]],
            "every level down to 1x1"
        );
        assert_eq!(d2.min_filter, Filter::LinearMipmapLinear);
        assert_eq!(d2.wrap, [Some(Wrap::Repeat), Some(Wrap::Repeat), None]);
        let levels = rgba_levels(&d2);
        for (_, _, texels) in &levels {
            for c in texels.iter().flatten() {
                let byte = c * 255.0;
                assert_eq!(byte, byte.round(), "{c} is not a multiple of 1/255");
            }
        }
        // Level 1 texel (x, 0) is the rounded mean of level 0's (2x..2x+1, 0..1).
        let (l0, l1) = (&levels[0].2, &levels[1].2);
        for x in 0..4usize {
            for c in 0..4 {
                let sum: f32 = [2 * x, 2 * x + 1, 8 + 2 * x, 8 + 2 * x + 1]
                    .iter()
                    .map(|&i| (l0[i][c] * 255.0).round())
                    .sum();
                let mean = ((sum as u32 + 2) / 4) as f32;
                assert_eq!((l1[x][c] * 255.0).round(), mean, "texel {x} channel {c}");
            }
        }
        let cube = mipmapped(TextureTarget::Cube, &[4, 4]).expect("cube");
        assert_eq!(sizes(&cube), [[4, 4, 6], [2, 2, 6], [1, 1, 6]]);
        let faces = &rgba_levels(&cube)[0].2;
        assert_ne!(faces[..16], faces[16..32], "faces differ");
        let d3 = mipmapped(TextureTarget::T3D, &[4, 2, 2]).expect("3D");
        assert_eq!(sizes(&d3), [[4, 2, 2], [2, 1, 1], [1, 1, 1]]);
        assert!(mipmapped(TextureTarget::Cube, &[4, 2]).is_err());
        assert!(mipmapped(TextureTarget::Rect, &[4, 4]).is_err());
        assert!(mipmapped(TextureTarget::T2D, &[4]).is_err());
        assert!(mipmapped(TextureTarget::T3D, &[1024, 1024, 1024]).is_err());
        assert!(mipmapped(TextureTarget::T2D, &[0, 4]).is_err());
    }
}
