//! Compute dispatch in the software driver (`Driver::dispatch_compute`): the
//! shaders in `tests/compute/*.nir` run over buffers bound as storage ranges,
//! and the buffer contents they leave are compared with values worked out from
//! the inputs here (sums, counts, the bound range's size), never with the
//! driver's own earlier output.

use std::path::PathBuf;

use rgl_backend::driver::{BufferHandle, BufferRange, ComputeDispatch, ComputeShaderHandle};
use rgl_backend::{Driver, Error, SoftDriver};

fn shader(driver: &mut SoftDriver, file: &str) -> ComputeShaderHandle {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compute")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("read test shader");
    let nir = rgl_nir::reader::parse_shader(&text).expect("parse");
    rgl_nir::validate::validate(&nir).expect("valid");
    driver.create_compute_shader(&nir).expect("compute shader")
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words(driver: &SoftDriver, b: BufferHandle, len: usize) -> Vec<u32> {
    driver
        .read_buffer(b, 0, len as u64 * 4)
        .expect("read back")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn whole(buffer: BufferHandle, words: usize) -> Option<BufferRange> {
    Some(BufferRange {
        buffer,
        offset: 0,
        size: words as u64 * 4,
    })
}

/// `reduce64.nir`: each 64-invocation workgroup copies its 64 input words
/// into shared memory, halves the active invocations six times with a
/// barrier after each step (strides 32 ... 1), and invocation 0 stores the
/// workgroup's sum at word `workgroup` of buffer 1. Then every invocation
/// does `atomicAdd(buffer1[16], 1)` and stores the old value over its own
/// input word. With 8 workgroups that is 512 contended increments.
#[test]
fn shared_memory_reduction_and_contended_atomics() {
    let mut d = SoftDriver::new(2);
    let sh = shader(&mut d, "reduce64.nir");
    let input: Vec<u32> = (0..512u32).map(|i| i * 3 + 1).collect();
    let input_buf = d.create_buffer(&bytes(&input)).unwrap();
    let output_buf = d.create_buffer(&bytes(&[0; 17])).unwrap();
    let dispatch = ComputeDispatch {
        groups: [8, 1, 1],
        storage: vec![whole(input_buf, 512), whole(output_buf, 17)],
        ..Default::default()
    };
    d.dispatch_compute(sh, &dispatch).expect("dispatch");
    let out = words(&d, output_buf, 17);
    for g in 0..8 {
        let expected: u32 = input[g * 64..(g + 1) * 64].iter().sum();
        assert_eq!(out[g], expected, "sum of workgroup {g}");
    }
    assert_eq!(out[16], 512, "every increment counted");
    let mut olds = words(&d, input_buf, 512);
    olds.sort_unstable();
    assert_eq!(
        olds,
        (0..512).collect::<Vec<u32>>(),
        "each increment saw a distinct old value"
    );
}

/// `bounds.nir` over bytes 16..32 of a 64-byte buffer of 0xff: word 0 of the
/// range gets `get_ssbo_size` (16), word 1 the read at byte 1000 (out of
/// range: 0; the store there was dropped), word 2 a read of unbound block 3
/// (0), word 3 the old value of an atomic at byte 1000 (out of range: 0, not
/// performed). Bytes outside the range keep 0xff.
#[test]
fn accesses_are_bounds_checked_against_the_range() {
    let mut d = SoftDriver::new(1);
    let sh = shader(&mut d, "bounds.nir");
    let buf = d.create_buffer(&[0xff; 64]).unwrap();
    let dispatch = ComputeDispatch {
        groups: [1, 1, 1],
        storage: vec![Some(BufferRange {
            buffer: buf,
            offset: 16,
            size: 16,
        })],
        ..Default::default()
    };
    d.dispatch_compute(sh, &dispatch).expect("dispatch");
    let w = words(&d, buf, 16);
    assert_eq!(&w[0..4], &[u32::MAX; 4], "bytes before the range");
    assert_eq!(
        &w[4..8],
        &[16, 0, 0, 0],
        "size, dropped write, unbound, atomic"
    );
    assert_eq!(&w[8..16], &[u32::MAX; 8], "bytes after the range");
}

/// `endless.nir` loops forever incrementing a counter: the dispatch stops
/// at the instruction budget with `BudgetExceeded`, and the driver stays
/// usable.
#[test]
fn an_endless_loop_stops_at_the_budget() {
    let mut d = SoftDriver::new(1);
    d.set_instruction_budget(100_000);
    let sh = shader(&mut d, "endless.nir");
    let buf = d.create_buffer(&[0; 4]).unwrap();
    let dispatch = ComputeDispatch {
        groups: [3, 1, 1],
        storage: vec![whole(buf, 1)],
        ..Default::default()
    };
    let r = d.dispatch_compute(sh, &dispatch);
    assert_eq!(r, Err(Error::BudgetExceeded(100_000)));
    // The driver still runs other work.
    let sh2 = shader(&mut d, "bounds.nir");
    let b2 = d.create_buffer(&[0; 16]).unwrap();
    let ok = ComputeDispatch {
        groups: [1, 1, 1],
        storage: vec![whole(b2, 4)],
        ..Default::default()
    };
    d.dispatch_compute(sh2, &ok)
        .expect("dispatch after a budget error");
    assert_eq!(words(&d, b2, 1)[0], 16);
}

/// What the driver refuses: a non-compute shader, a deleted handle.
#[test]
fn bad_shaders_and_handles_are_errors() {
    let mut d = SoftDriver::new(1);
    let fs = rgl_nir::reader::parse_shader(
        "shader: MESA_SHADER_FRAGMENT\ninputs: 0\noutputs: 0\nuniforms: 0\n\
         decl_function main () (entrypoint)\n\nimpl main {\n    block b0:\n}\n",
    )
    .expect("parse");
    assert!(matches!(
        d.create_compute_shader(&fs),
        Err(Error::InvalidArgument(_))
    ));
    let sh = shader(&mut d, "bounds.nir");
    d.delete_compute_shader(sh).unwrap();
    let r = d.dispatch_compute(sh, &ComputeDispatch::default());
    assert!(matches!(r, Err(Error::InvalidHandle { .. })));
}

/// GL 4.2 §8.26 on the software driver: 4 workgroups of 16 invocations add 1
/// each to one r32ui texel of an RGBA8 texture (atomic across the dispatch's
/// threads), store their local index into an R32F texture through an r32f
/// image, and a store past the edge is dropped.
#[test]
fn image_atomics_and_stores_reach_the_textures() {
    use rgl_backend::driver::{ImageBinding, TexBox, TexTarget, TextureDesc};
    use rgl_backend::format::Format;
    use rgl_nir::intrinsics::ImageFormat;
    let mut d = SoftDriver::new(2);
    let sh = shader(&mut d, "images.nir");
    let desc = |format| TextureDesc {
        target: TexTarget::D2,
        format,
        width: 4,
        height: 4,
        depth: 1,
        levels: 1,
    };
    let counter = d.create_texture(&desc(Format::Rgba8Unorm)).unwrap();
    let values = d.create_texture(&desc(Format::Rgba32Float)).unwrap();
    let all = TexBox {
        x: 0,
        y: 0,
        z: 0,
        width: 4,
        height: 4,
        depth: 1,
    };
    d.texture_upload(counter, 0, all, &[0; 64]).unwrap();
    d.texture_upload(values, 0, all, &[0xff; 256]).unwrap();
    let bind = |texture, format| {
        Some(ImageBinding {
            texture,
            level: 0,
            layered: false,
            layer: 0,
            format,
            read_only: false,
        })
    };
    let dispatch = ComputeDispatch {
        groups: [4, 1, 1],
        images: vec![
            bind(counter, ImageFormat::R32ui),
            bind(values, ImageFormat::R32f),
        ],
        ..Default::default()
    };
    d.dispatch_compute(sh, &dispatch).expect("dispatch");
    let c = d.texture_read(counter, 0, all).unwrap();
    assert_eq!(
        u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
        64,
        "every add counted"
    );
    assert!(c[4..].iter().all(|b| *b == 0), "other texels untouched");
    let v = d.texture_read(values, 0, all).unwrap();
    for i in 0..16usize {
        let r = f32::from_le_bytes([v[16 * i], v[16 * i + 1], v[16 * i + 2], v[16 * i + 3]]);
        assert_eq!(r, i as f32, "texel {i}: the r32f store");
        assert!(
            v[16 * i + 4..16 * i + 16].iter().all(|b| *b == 0xff),
            "texel {i}: g, b, a kept"
        );
    }
}
