//! Pixel buffer objects: an image uploaded from a `GL_PIXEL_UNPACK_BUFFER` and
//! read back into a `GL_PIXEL_PACK_BUFFER` (by `read_pixels` and
//! `get_tex_image`) round-trips, and the client memory is not touched.

use rgl_state::{gl, Context};

#[test]
fn texels_round_trip_through_unpack_and_pack_buffers() {
    let mut c = Context::new_headless(4, 4);
    let texels: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(13)).collect();
    let unpack = c.create_buffer().expect("buffer");
    c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, Some(unpack));
    c.buffer_data_u8_slice(gl::PIXEL_UNPACK_BUFFER, &texels, gl::STATIC_DRAW);
    let t = c.create_texture().expect("texture");
    c.bind_texture(gl::TEXTURE_2D, Some(t));
    let (t2, rgba8, ub) = (gl::TEXTURE_2D, gl::RGBA8 as i32, gl::UNSIGNED_BYTE);
    c.tex_image_2d(t2, 0, rgba8, 4, 4, 0, gl::RGBA, ub, None);
    // A sub-image from the same buffer: its first 4 texels into row 3.
    c.tex_sub_image_2d(t2, 0, 0, 3, 4, 1, gl::RGBA, ub, &[]);
    // Client pixels while an unpack buffer is bound: rgl takes no pointer then.
    c.tex_sub_image_2d(t2, 0, 0, 0, 1, 1, gl::RGBA, ub, &[1, 2, 3, 4]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, None);

    let pack = c.create_buffer().expect("buffer");
    c.bind_buffer(gl::PIXEL_PACK_BUFFER, Some(pack));
    c.buffer_data_size(gl::PIXEL_PACK_BUFFER, 64, gl::STREAM_READ);
    c.get_tex_image(t2, 0, gl::RGBA, ub, &mut []);
    let mut packed = vec![0u8; 64];
    c.get_buffer_sub_data(gl::PIXEL_PACK_BUFFER, 0, &mut packed);
    let mut expected = texels.clone();
    expected.copy_within(0..16, 48);
    assert_eq!(packed, expected);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // read_pixels into the pack buffer.
    c.clear_color(1.0, 0.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.read_pixels(1, 1, 2, 2, gl::RGBA, ub, &mut []);
    c.get_buffer_sub_data(gl::PIXEL_PACK_BUFFER, 0, &mut packed);
    assert_eq!(&packed[..16], &[255, 0, 0, 255].repeat(4)[..]);
    assert_eq!(
        &packed[16..],
        &expected[16..],
        "bytes past the pixels changed"
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
