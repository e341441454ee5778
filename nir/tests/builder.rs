//! Builder test: a shader is built through the public builder API (typed opcode
//! methods, constants, derefs, intrinsics, `insert_if`, `insert_loop`, jumps, cursors)
//! and its printed form is compared with `tests/builder/built.nir` (`BLESS=1` rewrites
//! it). The result must validate and round-trip.

mod common;

use rgl_nir::builder::{Builder, Cursor};
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::*;

fn build() -> Shader {
    let mut shader = Shader::new(Stage::Fragment);
    let mut out = Variable::new(
        "color",
        VarMode::ShaderOut,
        Type::Vector(BaseType::Float, 4),
    );
    out.location = 4;
    let out = shader.add_global(out);
    let main = shader.add_function("main", true);
    shader.functions[main].is_entrypoint = true;
    let func = shader.functions[main].body.as_mut().expect("body");
    let entry = func.blocks_in_order()[0];
    let mut b = Builder::new(func, Cursor::EndOf(entry));
    let one = b.imm_f32(1.0);
    let two = b.imm_f32(2.0);
    let sum = b.fadd([one, two]);
    let v = b.vec4([sum, one, two, sum]);
    let fc = b
        .intrinsic(
            IntrinsicOp::load_frag_coord,
            vec![],
            0,
            vec![],
            Some((4, 32)),
        )
        .expect("def");
    let prod = b.fmul([v, fc]);
    let deref = b.deref_var(out, VarMode::ShaderOut, Type::Vector(BaseType::Float, 4));
    b.intrinsic(
        IntrinsicOp::store_deref,
        vec![deref, prod],
        4,
        vec![0xf, 0],
        None,
    );
    // Insert an if before the store: the store moves to the block after the if.
    let store = b.func.block_instrs(entry).last().copied().expect("store");
    b.cursor = Cursor::Before(store);
    let cond = b.flt([one, two]);
    let (then_block, _else_block) = b.insert_if(cond).expect("if");
    let after_if = b.cursor;
    b.cursor = Cursor::EndOf(then_block);
    b.intrinsic(IntrinsicOp::discard, vec![], 0, vec![], None);
    b.cursor = after_if;
    let body = b.insert_loop().expect("loop");
    b.cursor = Cursor::EndOf(body);
    let z = b.undef(1, 32);
    let _ = b.fneg([z]);
    b.jump(JumpKind::Break);
    shader
}

#[test]
fn builder_output() {
    let shader = build();
    rgl_nir::validate::validate(&shader).expect("built shader validates");
    let printed = rgl_nir::print::print_shader(&shader);
    let path = common::tests_dir().join("builder/built.nir");
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if printed != expected {
        if common::bless() {
            std::fs::write(&path, &printed).expect("bless");
        } else {
            panic!(
                "builder output differs:\n{}",
                common::diff(&expected, &printed)
            );
        }
    }
    let again = rgl_nir::reader::parse_shader(&printed).map(|s| rgl_nir::print::print_shader(&s));
    assert_eq!(again.as_deref(), Ok(printed.as_str()));
}
