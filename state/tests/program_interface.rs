//! Program interface queries (GL 4.3 §7.3.1) on a linked vertex + fragment
//! program. Expected values come from the layout rules, worked out here:
//! std140 for the uniform block (`vec4` at 0, `float f[3]` at 16 with a
//! 16-byte stride, 64 bytes in all), std430 for the storage block (`uint n`
//! at 0, `vec2 v[]` at 8 with an 8-byte stride; the unsized array counts as
//! one element, so 16 bytes), counters at their declared offsets.

mod common;

use rgl_state::{gl, Context, Program};

const VS: &str = "#version 440
layout(location = 2) in vec3 pos[2];
layout(location = 1, component = 3) in float w;
layout(std140, binding = 3) uniform U { vec4 tint; float f[3]; } u;
void main() { gl_Position = vec4(pos[0] + pos[1], w) + u.tint * u.f[2]; }
";

const FS: &str = "#version 440
layout(std430, binding = 5) buffer S { uint n; vec2 v[]; } s;
layout(binding = 1, offset = 8) uniform atomic_uint hits;
uniform mat3 m;
layout(location = 0, index = 1) out vec4 blend_src;
layout(location = 0) out vec4 color;
void main() {
    atomicCounterIncrement(hits);
    color = vec4(m[1], s.v[s.n].x);
    blend_src = vec4(float(s.v.length()));
}
";

fn setup() -> (Context, Program) {
    let mut c = Context::new_headless(8, 8);
    let p = common::program(
        &mut c,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
    );
    (c, p)
}

/// The properties `props` of the resource called `name`.
fn props(c: &mut Context, p: Program, iface: u32, name: &str, props: &[u32]) -> Vec<i32> {
    let index = c
        .get_program_resource_index(p, iface, name)
        .unwrap_or_else(|| panic!("{name} is a resource of 0x{iface:x}"));
    assert_eq!(c.get_program_resource_name(p, iface, index), name);
    let v = c.get_program_resource_i32(p, iface, index, props);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{name}");
    v
}

#[test]
fn blocks_variables_and_counters() {
    let (mut c, p) = setup();
    let u = props(
        &mut c,
        p,
        gl::UNIFORM_BLOCK,
        "U",
        &[
            gl::BUFFER_BINDING,
            gl::BUFFER_DATA_SIZE,
            gl::NUM_ACTIVE_VARIABLES,
            gl::REFERENCED_BY_VERTEX_SHADER,
            gl::REFERENCED_BY_FRAGMENT_SHADER,
        ],
    );
    assert_eq!(u, vec![3, 64, 2, 1, 0]);
    let f = props(
        &mut c,
        p,
        gl::UNIFORM,
        "U.f[0]",
        &[
            gl::TYPE,
            gl::ARRAY_SIZE,
            gl::OFFSET,
            gl::ARRAY_STRIDE,
            gl::LOCATION,
        ],
    );
    assert_eq!(f, vec![gl::FLOAT as i32, 3, 16, 16, -1]);
    // `U.f` names the same array resource as `U.f[0]`.
    assert_eq!(
        c.get_program_resource_index(p, gl::UNIFORM, "U.f"),
        c.get_program_resource_index(p, gl::UNIFORM, "U.f[0]")
    );
    let s = props(
        &mut c,
        p,
        gl::SHADER_STORAGE_BLOCK,
        "S",
        &[
            gl::BUFFER_BINDING,
            gl::BUFFER_DATA_SIZE,
            gl::NUM_ACTIVE_VARIABLES,
            gl::REFERENCED_BY_FRAGMENT_SHADER,
        ],
    );
    assert_eq!(s, vec![5, 16, 2, 1]);
    let v = props(
        &mut c,
        p,
        gl::BUFFER_VARIABLE,
        "S.v[0]",
        &[
            gl::TYPE,
            gl::ARRAY_SIZE,
            gl::OFFSET,
            gl::ARRAY_STRIDE,
            gl::TOP_LEVEL_ARRAY_SIZE,
        ],
    );
    assert_eq!(v, vec![gl::FLOAT_VEC2 as i32, 0, 8, 8, 0]);
    // The block's active variables are the buffer variables' indices.
    let s_index = c
        .get_program_resource_index(p, gl::SHADER_STORAGE_BLOCK, "S")
        .unwrap();
    let vars = c.get_program_resource_i32(
        p,
        gl::SHADER_STORAGE_BLOCK,
        s_index,
        &[gl::ACTIVE_VARIABLES],
    );
    let names: Vec<String> = vars
        .iter()
        .map(|i| c.get_program_resource_name(p, gl::BUFFER_VARIABLE, *i as u32))
        .collect();
    assert_eq!(names, vec!["S.n".to_string(), "S.v[0]".to_string()]);
    // One counter buffer at binding 1, 12 bytes long (offset 8 + 4).
    assert_eq!(
        c.get_program_interface_i32(p, gl::ATOMIC_COUNTER_BUFFER, gl::ACTIVE_RESOURCES),
        1
    );
    assert_eq!(
        c.get_program_resource_i32(
            p,
            gl::ATOMIC_COUNTER_BUFFER,
            0,
            &[
                gl::BUFFER_BINDING,
                gl::BUFFER_DATA_SIZE,
                gl::NUM_ACTIVE_VARIABLES
            ]
        ),
        vec![1, 12, 1]
    );
    let hits = props(
        &mut c,
        p,
        gl::UNIFORM,
        "hits",
        &[gl::OFFSET, gl::ATOMIC_COUNTER_BUFFER_INDEX, gl::BLOCK_INDEX],
    );
    assert_eq!(hits, vec![8, 0, -1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn inputs_outputs_and_locations() {
    let (mut c, p) = setup();
    let pos = props(
        &mut c,
        p,
        gl::PROGRAM_INPUT,
        "pos[0]",
        &[
            gl::TYPE,
            gl::ARRAY_SIZE,
            gl::LOCATION,
            gl::LOCATION_COMPONENT,
        ],
    );
    assert_eq!(pos, vec![gl::FLOAT_VEC3 as i32, 2, 2, 0]);
    let w = props(
        &mut c,
        p,
        gl::PROGRAM_INPUT,
        "w",
        &[gl::LOCATION, gl::LOCATION_COMPONENT],
    );
    assert_eq!(w, vec![1, 3]);
    let src = props(
        &mut c,
        p,
        gl::PROGRAM_OUTPUT,
        "blend_src",
        &[
            gl::LOCATION,
            gl::LOCATION_INDEX,
            gl::REFERENCED_BY_FRAGMENT_SHADER,
        ],
    );
    assert_eq!(src, vec![0, 1, 1]);
    assert_eq!(
        c.get_program_resource_location(p, gl::PROGRAM_INPUT, "pos[1]"),
        3
    );
    assert_eq!(
        c.get_program_resource_location_index(p, gl::PROGRAM_OUTPUT, "color"),
        0
    );
    let m = c.get_program_resource_location(p, gl::UNIFORM, "m");
    assert!(m >= 0);
    assert_eq!(
        c.get_uniform_location(p, "m").map(|l| l.0 as i32),
        Some(m),
        "the same location as glGetUniformLocation"
    );
    assert_eq!(c.get_program_resource_location(p, gl::UNIFORM, "nope"), -1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn interface_counts_and_errors() {
    let (mut c, p) = setup();
    let n = |c: &mut Context, iface, pname| c.get_program_interface_i32(p, iface, pname);
    assert_eq!(n(&mut c, gl::SHADER_STORAGE_BLOCK, gl::ACTIVE_RESOURCES), 1);
    assert_eq!(n(&mut c, gl::BUFFER_VARIABLE, gl::ACTIVE_RESOURCES), 2);
    assert_eq!(
        n(
            &mut c,
            gl::SHADER_STORAGE_BLOCK,
            gl::MAX_NUM_ACTIVE_VARIABLES
        ),
        2
    );
    // "S.v[0]" and its terminator.
    assert_eq!(n(&mut c, gl::BUFFER_VARIABLE, gl::MAX_NAME_LENGTH), 7);
    assert_eq!(n(&mut c, gl::VERTEX_SUBROUTINE, gl::ACTIVE_RESOURCES), 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // GL 4.3 §7.3.1 errors.
    n(&mut c, gl::ATOMIC_COUNTER_BUFFER, gl::MAX_NAME_LENGTH);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    n(&mut c, gl::UNIFORM, gl::MAX_NUM_ACTIVE_VARIABLES);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    n(&mut c, gl::TEXTURE_2D, gl::ACTIVE_RESOURCES);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    n(&mut c, gl::UNIFORM, gl::TEXTURE_2D);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.get_program_resource_index(p, gl::ATOMIC_COUNTER_BUFFER, "x");
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.get_program_resource_i32(p, gl::UNIFORM_BLOCK, 7, &[gl::BUFFER_BINDING]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "index past the list");
    c.get_program_resource_i32(p, gl::UNIFORM_BLOCK, 0, &[gl::TYPE]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no TYPE on a block");
    c.get_program_resource_i32(p, gl::UNIFORM_BLOCK, 0, &[gl::TEXTURE_2D]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "not a property");
    assert_eq!(
        c.get_program_resource_index(p, gl::UNIFORM, "U.f[1]"),
        None,
        "only element 0 names an array resource"
    );
    // An unlinked program has no resources; its locations are an error.
    let fresh = c.create_program().unwrap();
    assert_eq!(
        c.get_program_interface_i32(fresh, gl::UNIFORM, gl::ACTIVE_RESOURCES),
        0
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_program_resource_location(fresh, gl::UNIFORM, "m"), -1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A shader name is no program; an unknown name is no object.
    let sh = c.create_shader(gl::VERTEX_SHADER).unwrap();
    c.get_program_interface_i32(Program(sh.0), gl::UNIFORM, gl::ACTIVE_RESOURCES);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}
