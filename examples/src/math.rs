//! Small column-major 4×4 matrix helpers (the layout `uniform_matrix_4_f32_slice`
//! takes with `transpose = false`): element (row r, column c) is `m[c * 4 + r]`.

/// A column-major 4×4 matrix.
pub type Mat4 = [f32; 16];

/// The identity.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// `a * b` (applies `b` first).
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut o = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            o[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    o
}

/// A translation.
pub fn translate(x: f32, y: f32, z: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}

/// A rotation of `degrees` about the axis `(x, y, z)` (normalized here; a zero
/// axis gives the identity).
pub fn rotate(degrees: f32, x: f32, y: f32, z: f32) -> Mat4 {
    let len = (x * x + y * y + z * z).sqrt();
    if len == 0.0 {
        return IDENTITY;
    }
    let (x, y, z) = (x / len, y / len, z / len);
    let (s, c) = degrees.to_radians().sin_cos();
    let t = 1.0 - c;
    [
        t * x * x + c,
        t * x * y + s * z,
        t * x * z - s * y,
        0.0,
        t * x * y - s * z,
        t * y * y + c,
        t * y * z + s * x,
        0.0,
        t * x * z + s * y,
        t * y * z - s * x,
        t * z * z + c,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
    ]
}

/// A perspective projection like `glFrustum`.
pub fn frustum(l: f32, r: f32, b: f32, t: f32, n: f32, f: f32) -> Mat4 {
    let mut m = [0.0; 16];
    m[0] = 2.0 * n / (r - l);
    m[5] = 2.0 * n / (t - b);
    m[8] = (r + l) / (r - l);
    m[9] = (t + b) / (t - b);
    m[10] = -(f + n) / (f - n);
    m[11] = -1.0;
    m[14] = -2.0 * f * n / (f - n);
    m
}

/// A perspective projection with vertical field of view `fovy_degrees`.
pub fn perspective(fovy_degrees: f32, aspect: f32, n: f32, f: f32) -> Mat4 {
    let t = n * (fovy_degrees.to_radians() / 2.0).tan();
    frustum(-t * aspect, t * aspect, -t, t, n, f)
}

/// The upper-left 3×3 of `m` (column-major), the normal matrix of a transform
/// made only of rotations and translations.
pub fn upper3(m: &Mat4) -> [f32; 9] {
    [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]
}

/// `m * (x, y, z, 1)`.
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 4] {
    let mut o = [0.0; 4];
    for (r, v) in o.iter_mut().enumerate() {
        *v = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 4], b: [f32; 4]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn rotation_and_translation_compose() {
        // Rotating +x by 90° about z gives +y; then translating by (1, 2, 3).
        let m = mul(&translate(1.0, 2.0, 3.0), &rotate(90.0, 0.0, 0.0, 1.0));
        assert!(close(
            transform_point(&m, [1.0, 0.0, 0.0]),
            [1.0, 3.0, 3.0, 1.0]
        ));
        assert_eq!(rotate(45.0, 0.0, 0.0, 0.0), IDENTITY);
    }

    #[test]
    fn frustum_maps_near_and_far_planes() {
        let p = perspective(90.0, 1.0, 1.0, 10.0);
        let near = transform_point(&p, [1.0, 1.0, -1.0]);
        let far = transform_point(&p, [0.0, 0.0, -10.0]);
        assert!(close(near.map(|v| v / near[3]), [1.0, 1.0, -1.0, 1.0]));
        assert!((far[2] / far[3] - 1.0).abs() < 1e-5);
    }
}
