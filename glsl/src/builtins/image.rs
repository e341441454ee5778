//! The GLSL 4.20 §8.12 image functions (`imageLoad`, `imageStore`, the
//! `imageAtomic*` family, `imageSize`, `imageSamples`) over every image type,
//! generated as Mesa's `builtin_functions.cpp` does (`add_image_functions`):
//! one overload per image type, with the sample argument for multisample
//! images. Their calls stay calls in the IR (see
//! [`super::functions::KEPT_CALLS`]); the memory qualifiers of the image
//! argument are checked at the call (`check::function`).

use super::functions::{has_ext, Entry, Implementation, TableBuilder};
use super::{Availability, ParamDirection};
use crate::types::{ImageType, SamplerDim, ScalarKind, Type};

/// Image types (GLSL 4.20, GLSL ES 3.10 or ARB_shader_image_load_store) of a
/// dimension ES 3.10 has (2D, 3D, cube, 2D array).
fn images(a: &Availability<'_>) -> bool {
    a.version.at_least(420, 310) || has_ext(a, "GL_ARB_shader_image_load_store")
}
/// Image types of the desktop-only dimensions (and, for rgl, cube array and
/// buffer images, which need ES 3.20).
fn images_desktop(a: &Availability<'_>) -> bool {
    !a.version.is_es() && images(a)
}
/// `imageSize`: GLSL 4.30, GLSL ES 3.10 or ARB_shader_image_size.
fn image_size(a: &Availability<'_>) -> bool {
    a.version.at_least(430, 310)
        || (images(a) && !a.version.is_es() && has_ext(a, "GL_ARB_shader_image_size"))
}
fn image_size_desktop(a: &Availability<'_>) -> bool {
    !a.version.is_es() && image_size(a)
}
/// `imageSamples`: GLSL 4.50 or ARB_shader_texture_image_samples.
fn image_samples(a: &Availability<'_>) -> bool {
    !a.version.is_es()
        && images(a)
        && (a.version.at_least(450, 0) || has_ext(a, "GL_ARB_shader_texture_image_samples"))
}
/// Float `imageAtomicExchange`: GLSL 4.50 (GLSL ES 3.20) or
/// GL_NV_shader_atomic_float (Mesa's `shader_image_atomic_exchange_float`).
fn image_exchange_float(a: &Availability<'_>) -> bool {
    images(a) && (a.version.at_least(450, 320) || has_ext(a, "GL_NV_shader_atomic_float"))
}
/// Float `imageAtomicAdd`: GL_NV_shader_atomic_float (Mesa's
/// `shader_image_atomic_add_float`).
fn image_add_float(a: &Availability<'_>) -> bool {
    images(a) && !a.version.is_es() && has_ext(a, "GL_NV_shader_atomic_float")
}
fn image_exchange_float_desktop(a: &Availability<'_>) -> bool {
    !a.version.is_es() && image_exchange_float(a)
}

/// Every image type, with whether ES 3.10 has its dimension.
fn all_images() -> Vec<(ImageType, bool)> {
    use SamplerDim::*;
    let mut list = Vec::new();
    for kind in [ScalarKind::Float, ScalarKind::Int, ScalarKind::Uint] {
        for (dim, arrayed, es) in [
            (D1, false, false),
            (D2, false, true),
            (D3, false, true),
            (Rect, false, false),
            (Cube, false, true),
            (Buffer, false, false),
            (D1, true, false),
            (D2, true, true),
            (Cube, true, false),
            (Ms, false, false),
            (Ms, true, false),
        ] {
            list.push((ImageType { dim, arrayed, kind }, es));
        }
    }
    list
}

fn entry(
    name: &'static str,
    available: super::functions::Pred,
    ret: Type,
    params: Vec<Type>,
) -> Entry {
    Entry {
        name,
        return_type: ret,
        parameters: params
            .into_iter()
            .map(|t| (t, ParamDirection::In))
            .collect(),
        available,
        sampler_gate: None,
        constant_foldable: false,
        implementation: Implementation::Generic,
    }
}

/// The names of the §8.12 atomic functions taking one data argument.
pub(crate) const IMAGE_ATOMICS: [&str; 7] = [
    "imageAtomicAdd",
    "imageAtomicMin",
    "imageAtomicMax",
    "imageAtomicAnd",
    "imageAtomicOr",
    "imageAtomicXor",
    "imageAtomicExchange",
];

/// Adds the §8.12 image functions for every image type.
pub(crate) fn add_image_functions(t: &mut TableBuilder) {
    for (image, in_es) in all_images() {
        let (avail, size_avail, exch_avail): (
            super::functions::Pred,
            super::functions::Pred,
            super::functions::Pred,
        ) = if in_es {
            (images, image_size, image_exchange_float)
        } else {
            (
                images_desktop,
                image_size_desktop,
                image_exchange_float_desktop,
            )
        };
        let ty = Type::Image(image);
        let coord = Type::vec(ScalarKind::Int, image.coord_components());
        let mut addr = vec![ty.clone(), coord];
        if image.dim == SamplerDim::Ms {
            addr.push(Type::INT);
        }
        let texel = Type::Vector(image.kind, 4);
        let scalar = Type::Scalar(image.kind);
        t.push(entry("imageLoad", avail, texel.clone(), addr.clone()));
        let mut store = addr.clone();
        store.push(texel);
        t.push(entry("imageStore", avail, Type::Void, store));
        if image.kind == ScalarKind::Float {
            let mut params = addr.clone();
            params.push(Type::FLOAT);
            t.push(entry(
                "imageAtomicExchange",
                exch_avail,
                Type::FLOAT,
                params.clone(),
            ));
            t.push(entry(
                "imageAtomicAdd",
                image_add_float,
                Type::FLOAT,
                params,
            ));
        } else {
            for name in IMAGE_ATOMICS {
                let mut params = addr.clone();
                params.push(scalar.clone());
                t.push(entry(name, avail, scalar.clone(), params));
            }
            let mut params = addr.clone();
            params.push(scalar.clone());
            params.push(scalar.clone());
            t.push(entry("imageAtomicCompSwap", avail, scalar.clone(), params));
        }
        let size = Type::vec(ScalarKind::Int, image.size_components());
        t.push(entry("imageSize", size_avail, size, vec![ty.clone()]));
        if image.dim == SamplerDim::Ms {
            t.push(entry("imageSamples", image_samples, Type::INT, vec![ty]));
        }
    }
}
