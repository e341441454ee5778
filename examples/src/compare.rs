//! Image comparison for the golden tests: per-channel differences against a
//! tolerance, a count of the pixels beyond it, and a difference image for
//! inspecting failures.

use crate::headless::Image;

/// How two same-sized images differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    /// Largest difference of any channel of any pixel.
    pub max: u8,
    /// Pixels with some channel differing by more than the tolerance.
    pub over: usize,
    /// Pixels compared.
    pub pixels: usize,
}

impl Diff {
    /// Whether at most `max_fraction` of the pixels are beyond the tolerance.
    pub fn within(&self, max_fraction: f64) -> bool {
        self.over as f64 <= max_fraction * self.pixels as f64
    }
}

/// Compares `actual` with `expected`, counting pixels where any channel differs
/// by more than `tolerance`. Fails when the sizes differ.
pub fn diff(actual: &Image, expected: &Image, tolerance: u8) -> Result<Diff, String> {
    if (actual.width, actual.height) != (expected.width, expected.height)
        || actual.rgba.len() != expected.rgba.len()
    {
        return Err(format!(
            "size {}x{} differs from the golden's {}x{}",
            actual.width, actual.height, expected.width, expected.height
        ));
    }
    let mut d = Diff {
        max: 0,
        over: 0,
        pixels: actual.rgba.len() / 4,
    };
    for (a, e) in actual
        .rgba
        .chunks_exact(4)
        .zip(expected.rgba.chunks_exact(4))
    {
        let m = a
            .iter()
            .zip(e)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        d.max = d.max.max(m);
        if m > tolerance {
            d.over += 1;
        }
    }
    Ok(d)
}

/// A picture of where two same-sized images differ: black where equal, brighter
/// red with larger differences, white where beyond `tolerance`.
pub fn diff_image(actual: &Image, expected: &Image, tolerance: u8) -> Image {
    let rgba = actual
        .rgba
        .chunks_exact(4)
        .zip(expected.rgba.chunks_exact(4))
        .flat_map(|(a, e)| {
            let m = a
                .iter()
                .zip(e)
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            if m > tolerance {
                [255, 255, 255, 255]
            } else {
                [m.saturating_mul(64), 0, 0, 255]
            }
        })
        .collect();
    Image {
        width: actual.width,
        height: actual.height,
        rgba,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img(px: &[[u8; 4]]) -> Image {
        Image {
            width: px.len() as u32,
            height: 1,
            rgba: px.iter().flatten().copied().collect(),
        }
    }

    #[test]
    fn counts_pixels_beyond_tolerance() {
        let e = img(&[
            [10, 10, 10, 255],
            [0, 0, 0, 255],
            [200, 0, 0, 255],
            [5, 5, 5, 5],
        ]);
        let a = img(&[
            [12, 9, 10, 255],
            [0, 3, 0, 255],
            [100, 0, 0, 255],
            [5, 5, 5, 5],
        ]);
        let d = diff(&a, &e, 2).unwrap();
        assert_eq!(
            d,
            Diff {
                max: 100,
                over: 2,
                pixels: 4
            }
        );
        assert!(d.within(0.5) && !d.within(0.25));
        let di = diff_image(&a, &e, 2);
        assert_eq!(&di.rgba[..4], &[128, 0, 0, 255]);
        assert_eq!(&di.rgba[4..8], &[255, 255, 255, 255]);
    }

    #[test]
    fn size_mismatch_is_an_error() {
        let a = img(&[[0; 4]]);
        let b = img(&[[0; 4], [0; 4]]);
        assert!(diff(&a, &b, 2).unwrap_err().contains("differs"));
    }
}
