//! Compatibility-profile vertex state: the modelview, projection and texture matrix
//! stacks (`glMatrixMode` … `glFrustum`), and the current color and texture
//! coordinates (`glColor4f`, `glMultiTexCoord4f`). The draw path derives the
//! built-in uniforms (`gl_ModelViewProjectionMatrix`, `gl_NormalMatrix`, ...) from
//! them.

use crate::error::GlError;
use crate::gl;
use crate::Context;

/// A column-major 4×4 matrix.
pub type Mat4 = [f64; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// Maximum depth of each stack (GL's minimum is 32 for modelview, 2 for the others).
pub const STACK_DEPTH: usize = 32;

/// Number of texture-coordinate sets and texture matrices.
pub const TEXTURE_COORDS: usize = 8;

/// `a × b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[c * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[c * 4 + k]).sum();
        }
    }
    r
}

/// The inverse, or None when singular.
pub fn invert(m: &Mat4) -> Option<Mat4> {
    // Gauss-Jordan on a row-major copy.
    let mut a = [[0.0f64; 8]; 4];
    for (r, row) in a.iter_mut().enumerate() {
        for c in 0..4 {
            row[c] = m[c * 4 + r];
        }
        row[4 + r] = 1.0;
    }
    for col in 0..4 {
        let pivot = (col..4).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for v in a[col].iter_mut() {
            *v /= p;
        }
        for r in 0..4 {
            if r != col {
                let f = a[r][col];
                if f != 0.0 {
                    for k in 0..8 {
                        a[r][k] -= f * a[col][k];
                    }
                }
            }
        }
    }
    let mut out = [0.0; 16];
    for (r, row) in a.iter().enumerate() {
        for c in 0..4 {
            out[c * 4 + r] = row[4 + c];
        }
    }
    Some(out)
}

/// The transpose.
pub fn transpose(m: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[row * 4 + c] = m[c * 4 + row];
        }
    }
    r
}

/// Matrix stacks and current vertex values.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixState {
    /// `glMatrixMode`: `GL_MODELVIEW`, `GL_PROJECTION` or `GL_TEXTURE`.
    pub mode: u32,
    /// Modelview stack (top is last).
    pub modelview: Vec<Mat4>,
    /// Projection stack.
    pub projection: Vec<Mat4>,
    /// One texture stack per unit.
    pub texture: Vec<Vec<Mat4>>,
    /// `glActiveTexture` unit the texture stack follows.
    pub texture_unit: usize,
    /// `glColor4f`.
    pub color: [f32; 4],
    /// `glMultiTexCoord4f` per set.
    pub texcoords: [[f32; 4]; TEXTURE_COORDS],
}

impl Default for MatrixState {
    fn default() -> Self {
        MatrixState {
            mode: gl::MODELVIEW,
            modelview: vec![IDENTITY],
            projection: vec![IDENTITY],
            texture: vec![vec![IDENTITY]; TEXTURE_COORDS],
            texture_unit: 0,
            color: [1.0; 4],
            texcoords: [[0.0, 0.0, 0.0, 1.0]; TEXTURE_COORDS],
        }
    }
}

impl MatrixState {
    fn stack(&mut self) -> &mut Vec<Mat4> {
        match self.mode {
            gl::PROJECTION => &mut self.projection,
            gl::TEXTURE => {
                let unit = self.texture_unit.min(TEXTURE_COORDS - 1);
                &mut self.texture[unit]
            }
            _ => &mut self.modelview,
        }
    }
    fn top(&mut self) -> &mut Mat4 {
        let stack = self.stack();
        if stack.is_empty() {
            stack.push(IDENTITY);
        }
        let last = stack.len() - 1;
        &mut stack[last]
    }
    /// The top of the modelview stack.
    pub fn modelview(&self) -> Mat4 {
        self.modelview.last().copied().unwrap_or(IDENTITY)
    }
    /// The top of the projection stack.
    pub fn projection(&self) -> Mat4 {
        self.projection.last().copied().unwrap_or(IDENTITY)
    }
    /// A clip plane given in object space, in eye space (`plane × modelview⁻¹`).
    pub fn plane_to_eye(&self, plane: [f64; 4]) -> [f64; 4] {
        let inv = invert(&self.modelview()).unwrap_or(IDENTITY);
        let mut out = [0.0; 4];
        for (c, o) in out.iter_mut().enumerate() {
            *o = (0..4).map(|k| plane[k] * inv[c * 4 + k]).sum();
        }
        out
    }
}

impl Context {
    /// `glMatrixMode`.
    pub fn matrix_mode(&mut self, mode: u32) {
        if !matches!(mode, gl::MODELVIEW | gl::PROJECTION | gl::TEXTURE) {
            return self.record(GlError::InvalidEnum);
        }
        self.matrices.mode = mode;
    }

    /// `glLoadIdentity`.
    pub fn load_identity(&mut self) {
        *self.matrices.top() = IDENTITY;
    }

    /// `glLoadMatrixf` (column-major).
    pub fn load_matrix_f32(&mut self, m: &[f32; 16]) {
        *self.matrices.top() = m.map(f64::from);
    }

    /// `glMultMatrixf` (column-major).
    pub fn mult_matrix_f32(&mut self, m: &[f32; 16]) {
        self.mult(&m.map(f64::from));
    }

    fn mult(&mut self, m: &Mat4) {
        let top = self.matrices.top();
        *top = mul(top, m);
    }

    /// `glPushMatrix`.
    pub fn push_matrix(&mut self) {
        let stack = self.matrices.stack();
        if stack.len() >= STACK_DEPTH {
            // GL 3.3 compatibility §2.12.2: pushing a full stack is
            // GL_STACK_OVERFLOW and leaves the stack as it was.
            return self.record(GlError::StackOverflow);
        }
        let top = stack.last().copied().unwrap_or(IDENTITY);
        stack.push(top);
    }

    /// `glPopMatrix`.
    pub fn pop_matrix(&mut self) {
        let stack = self.matrices.stack();
        if stack.len() <= 1 {
            // GL 3.3 compatibility §2.12.2: popping the last matrix is
            // GL_STACK_UNDERFLOW.
            return self.record(GlError::StackUnderflow);
        }
        stack.pop();
    }

    /// `glOrtho`.
    pub fn ortho(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        if l == r || b == t || n == f {
            return self.record(GlError::InvalidValue);
        }
        let mut m = IDENTITY;
        m[0] = 2.0 / (r - l);
        m[5] = 2.0 / (t - b);
        m[10] = -2.0 / (f - n);
        m[12] = -(r + l) / (r - l);
        m[13] = -(t + b) / (t - b);
        m[14] = -(f + n) / (f - n);
        self.mult(&m);
    }

    /// `glFrustum`.
    pub fn frustum(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        if n <= 0.0 || f <= 0.0 || l == r || b == t || n == f {
            return self.record(GlError::InvalidValue);
        }
        let mut m = [0.0; 16];
        m[0] = 2.0 * n / (r - l);
        m[5] = 2.0 * n / (t - b);
        m[8] = (r + l) / (r - l);
        m[9] = (t + b) / (t - b);
        m[10] = -(f + n) / (f - n);
        m[11] = -1.0;
        m[14] = -2.0 * f * n / (f - n);
        self.mult(&m);
    }

    /// `glTranslatef`.
    pub fn translate(&mut self, x: f64, y: f64, z: f64) {
        let mut m = IDENTITY;
        m[12] = x;
        m[13] = y;
        m[14] = z;
        self.mult(&m);
    }

    /// `glScalef`.
    pub fn scale(&mut self, x: f64, y: f64, z: f64) {
        let mut m = IDENTITY;
        m[0] = x;
        m[5] = y;
        m[10] = z;
        self.mult(&m);
    }

    /// `glRotatef` (degrees about an axis).
    pub fn rotate(&mut self, degrees: f64, x: f64, y: f64, z: f64) {
        let len = (x * x + y * y + z * z).sqrt();
        if len == 0.0 {
            return;
        }
        let (x, y, z) = (x / len, y / len, z / len);
        let (s, c) = degrees.to_radians().sin_cos();
        let k = 1.0 - c;
        let m = [
            x * x * k + c,
            y * x * k + z * s,
            x * z * k - y * s,
            0.0,
            x * y * k - z * s,
            y * y * k + c,
            y * z * k + x * s,
            0.0,
            x * z * k + y * s,
            y * z * k - x * s,
            z * z * k + c,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ];
        self.mult(&m);
    }

    /// `glColor4f`.
    pub fn color_4_f32(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.matrices.color = [r, g, b, a];
    }

    /// `glMultiTexCoord4f`.
    pub fn multi_tex_coord_4_f32(&mut self, unit: u32, s: f32, t: f32, r: f32, q: f32) {
        let Some(set) = unit
            .checked_sub(gl::TEXTURE0)
            .and_then(|i| self.matrices.texcoords.get_mut(i as usize))
        else {
            return self.record(GlError::InvalidEnum);
        };
        *set = [s, t, r, q];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_product_is_the_product_of_inverses() {
        let mut ctx = Context::new_headless(4, 4);
        ctx.frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0);
        ctx.rotate(30.0, 0.0, 1.0, 0.0);
        ctx.translate(1.0, 2.0, 3.0);
        let m = ctx.matrices.modelview();
        let inv = invert(&m).expect("invertible");
        let id = mul(&m, &inv);
        for (i, v) in id.iter().enumerate() {
            let want = IDENTITY[i];
            assert!((v - want).abs() < 1e-9, "element {i}: {v} vs {want}");
        }
    }
}
