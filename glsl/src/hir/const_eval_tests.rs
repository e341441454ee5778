//! Data-driven tests of the constant folder: each case line is
//! `op : result type : operand, operand… => expected`, where operands are
//! `type(v v …)` and the expected value is Mesa's printed constant (or `none`
//! when the operation must not fold).

use super::*;
use crate::hir::print::format_constant;
use crate::hir::{Module, Swizzle, Variable};
use crate::types::{StructField, StructType};

const CASES: &str = r#"
# arithmetic, broadcasting, wrapping
+ : vec2 : vec2(1 2), float(0.5) => (constant vec2 (1.500000 2.500000))
- : ivec3 : int(10), ivec3(1 2 3) => (constant ivec3 (9 8 7))
+ : int : int(2147483647), int(1) => (constant int (-2147483648))
* : uint : uint(4294967295), uint(2) => (constant uint (4294967294))
/ : int : int(7), int(0) => (constant int (0))
/ : int : int(-2147483648), int(-1) => (constant int (-2147483648))
/ : int : int(-7), int(2) => (constant int (-3))
/ : uint : uint(7), uint(0) => (constant uint (0))
% : int : int(7), int(0) => (constant int (0))
% : int : int(-7), int(3) => (constant int (-1))
% : uint : uint(7), uint(3) => (constant uint (1))
% : float : float(-1.5), float(1) => (constant float (0.500000))
% : vec2 : vec2(5.5 -5.5), float(2) => (constant vec2 (1.500000 0.500000))
/ : float : float(1), float(0) => (constant float (inf))
/ : float : float(-1), float(0) => (constant float (-inf))
neg : float : float(0) => (constant float (-0.000000))
neg : uint : uint(1) => (constant uint (4294967295))
neg : int : int(-2147483648) => (constant int (-2147483648))
abs : int : int(-5) => (constant int (5))
sign : vec3 : vec3(-2 0 3) => (constant vec3 (-1.000000 0.000000 1.000000))
sign : ivec2 : ivec2(-9 4) => (constant ivec2 (-1 1))
+ : vec2 : vec2(1 2), vec3(1 2 3) => none
+ : int : int(1), float(1) => none
# matrices
* : vec2 : mat2(1 2 3 4), vec2(1 1) => (constant vec2 (4.000000 6.000000))
* : vec2 : vec2(1 1), mat2(1 2 3 4) => (constant vec2 (3.000000 7.000000))
* : mat2 : mat2(1 2 3 4), mat2(1 0 0 1) => (constant mat2 (1.000000 2.000000 3.000000 4.000000))
* : mat2 : mat2(1 2 3 4), mat2(5 6 7 8) => (constant mat2 (23.000000 34.000000 31.000000 46.000000))
* : mat2x3 : mat2x3(1 2 3 4 5 6), mat2(1 0 0 2) => (constant mat2x3 (1.000000 2.000000 3.000000 8.000000 10.000000 12.000000))
* : vec3 : mat2x3(1 2 3 4 5 6), vec2(1 1) => (constant vec3 (5.000000 7.000000 9.000000))
* : vec2 : vec3(1 1 1), mat2x3(1 2 3 4 5 6) => (constant vec2 (6.000000 15.000000))
* : mat2 : mat2(1 2 3 4), float(2) => (constant mat2 (2.000000 4.000000 6.000000 8.000000))
+ : mat2 : mat2(1 2 3 4), mat2(1 1 1 1) => (constant mat2 (2.000000 3.000000 4.000000 5.000000))
* : vec2 : mat3(1 2 3 4 5 6 7 8 9), vec2(1 1) => none
* : vec2 : vec2(2 3), vec2(4 5) => (constant vec2 (8.000000 15.000000))
dot : float : vec3(1 2 3), vec3(4 5 6) => (constant float (32.000000))
dot : float : vec3(1 2 3), vec2(4 5) => none
# comparisons
< : bvec3 : vec3(1 2 3), vec3(2 2 2) => (constant bvec3 (1 0 0))
>= : bvec2 : ivec2(1 5), ivec2(1 6) => (constant bvec2 (1 0))
== : bvec2 : uvec2(1 2), uvec2(1 3) => (constant bvec2 (1 0))
!= : bool : bool(true), bool(false) => (constant bool (1))
== : bool : float(0), float(-0) => (constant bool (1))
== : bool : float(nan), float(nan) => (constant bool (0))
all_equal : bool : vec3(1 2 3), vec3(1 2 3) => (constant bool (1))
all_equal : bool : mat2(1 2 3 4), mat2(1 2 3 5) => (constant bool (0))
any_nequal : bool : ivec2(1 2), ivec2(1 3) => (constant bool (1))
any_nequal : bool : bvec2(true false), bvec2(true false) => (constant bool (0))
# bits and shifts
<< : int : int(1), int(33) => (constant int (2))
<< : uint : uint(1), int(31) => (constant uint (2147483648))
>> : int : int(-8), uint(1) => (constant int (-4))
>> : uint : uint(4294967288), uint(1) => (constant uint (2147483644))
<< : ivec2 : ivec2(1 2), int(2) => (constant ivec2 (4 8))
& : int : int(12), int(10) => (constant int (8))
| : uvec2 : uvec2(12 1), uint(2) => (constant uvec2 (14 3))
^ : int : int(12), int(10) => (constant int (6))
~ : int : int(0) => (constant int (-1))
~ : uint : uint(0) => (constant uint (4294967295))
& : float : float(1), float(1) => none
# logic
&& : bool : bool(true), bool(false) => (constant bool (0))
|| : bool : bool(true), bool(false) => (constant bool (1))
^^ : bool : bool(true), bool(true) => (constant bool (0))
! : bvec2 : bvec2(true false) => (constant bvec2 (0 1))
! : bool : int(1) => none
# conversions and bitcasts
f2i : ivec3 : vec3(1.9 -1.9 3e10) => (constant ivec3 (1 -1 -2147483648))
f2u : uint : float(3.7) => (constant uint (3))
i2f : float : int(-3) => (constant float (-3.000000))
u2f : float : uint(4294967295) => (constant float (4.294967e+09))
f2b : bvec2 : vec2(0 -0.5) => (constant bvec2 (0 1))
b2f : vec2 : bvec2(true false) => (constant vec2 (1.000000 0.000000))
i2b : bool : int(-3) => (constant bool (1))
b2i : int : bool(true) => (constant int (1))
i2u : uint : int(-1) => (constant uint (4294967295))
u2i : int : uint(4294967295) => (constant int (-1))
bitcast_f2i : int : float(1) => (constant int (1065353216))
bitcast_f2u : uint : float(-0) => (constant uint (2147483648))
bitcast_i2f : float : int(1065353216) => (constant float (1.000000))
bitcast_u2f : float : uint(1) => (constant float (0x1p-149))
f2i : int : int(1) => none
# rounding
trunc : vec2 : vec2(1.5 -1.5) => (constant vec2 (1.000000 -1.000000))
ceil : vec2 : vec2(1.5 -1.5) => (constant vec2 (2.000000 -1.000000))
floor : vec2 : vec2(1.5 -1.5) => (constant vec2 (1.000000 -2.000000))
fract : vec2 : vec2(1.25 -1.25) => (constant vec2 (0.250000 0.750000))
round_even : vec4 : vec4(0.5 1.5 2.5 -0.5) => (constant vec4 (0.000000 2.000000 2.000000 -0.000000))
# transcendental
sqrt : float : float(16) => (constant float (4.000000))
rsq : float : float(4) => (constant float (0.500000))
rcp : float : float(0) => (constant float (inf))
rcp : float : float(4) => (constant float (0.250000))
exp : float : float(0) => (constant float (1.000000))
log : float : float(1) => (constant float (0.000000))
exp2 : float : float(10) => (constant float (1024.000000))
log2 : float : float(8) => (constant float (3.000000))
log2 : float : float(0) => (constant float (-inf))
sqrt : float : float(-1) => (constant float (-nan))
pow : float : float(2), float(10) => (constant float (1024.000000))
sin : float : float(0) => (constant float (0.000000))
cos : float : float(0) => (constant float (1.000000))
atan : float : float(1) => (constant float (0.785398))
atan2 : float : float(1), float(-1) => (constant float (2.356194))
min : vec3 : vec3(1 5 3), float(2) => (constant vec3 (1.000000 2.000000 2.000000))
max : ivec2 : ivec2(-1 7), int(0) => (constant ivec2 (0 7))
min : uint : uint(3), uint(9) => (constant uint (3))
sat : vec3 : vec3(-1 0.5 2) => (constant vec3 (0.000000 0.500000 1.000000))
dFdx : vec2 : vec2(3 4) => (constant vec2 (0.000000 0.000000))
dFdy : float : float(3) => (constant float (0.000000))
dFdxCoarse : vec2 : vec2(3 4) => (constant vec2 (0.000000 0.000000))
dFdxFine : float : float(-2) => (constant float (0.000000))
dFdyCoarse : float : float(5) => (constant float (0.000000))
dFdyFine : vec3 : vec3(1 2 3) => (constant vec3 (0.000000 0.000000 0.000000))
noise : float : vec2(3 4) => (constant float (0.000000))
isnan : bvec2 : vec2(nan 1) => (constant bvec2 (1 0))
isinf : bvec2 : vec2(inf 1) => (constant bvec2 (1 0))
# a runtime-sized array's length is known only when the shader runs
ssbo_unsized_array_length : int : int(3) => none
# ternary and vector building
fma : float : float(2), float(3), float(4) => (constant float (10.000000))
lrp : vec2 : vec2(0 10), vec2(10 20), float(0.5) => (constant vec2 (5.000000 15.000000))
lrp : vec2 : vec2(0 10), vec2(10 20), vec2(0 1) => (constant vec2 (0.000000 20.000000))
csel : vec2 : bvec2(true false), vec2(1 2), vec2(3 4) => (constant vec2 (1.000000 4.000000))
csel : int : bool(false), int(1), int(2) => (constant int (2))
csel : int : int(1), int(1), int(2) => none
vector_extract : float : vec3(1 2 3), int(1) => (constant float (2.000000))
vector_extract : float : vec3(1 2 3), int(9) => (constant float (3.000000))
vector_extract : float : vec3(1 2 3), int(-4) => (constant float (1.000000))
vector_insert : vec3 : vec3(1 2 3), float(9), int(2) => (constant vec3 (1.000000 2.000000 9.000000))
vector_insert : vec3 : vec3(1 2 3), float(9), uint(7) => (constant vec3 (1.000000 2.000000 3.000000))
vector : vec3 : float(1), float(2), float(3) => (constant vec3 (1.000000 2.000000 3.000000))
vector : bvec2 : bool(true), bool(false) => (constant bvec2 (1 0))
vector : vec3 : float(1), float(2) => none
# packing
packSnorm2x16 : uint : vec2(1 -1) => (constant uint (2147581951))
packSnorm2x16 : uint : vec2(0.5 2) => (constant uint (2147434496))
packUnorm2x16 : uint : vec2(1 0) => (constant uint (65535))
packUnorm2x16 : uint : vec2(0.5 -3) => (constant uint (32768))
packHalf2x16 : uint : vec2(1 -2) => (constant uint (3221240832))
packHalf2x16 : uint : vec2(65520 0.00000006) => (constant uint (97280))
packHalf2x16 : uint : vec2(0.000000059604645 0.000000089406967) => (constant uint (131073))
unpackSnorm2x16 : vec2 : uint(2147581951) => (constant vec2 (1.000000 -1.000000))
unpackUnorm2x16 : vec2 : uint(65535) => (constant vec2 (1.000000 0.000000))
unpackHalf2x16 : vec2 : uint(3221240832) => (constant vec2 (1.000000 -2.000000))
unpackHalf2x16 : vec2 : uint(1) => (constant vec2 (0x1p-24 0.000000))
packSnorm4x8 : uint : vec4(1 -1 0.5 0) => (constant uint (4227455))
packUnorm4x8 : uint : vec4(1 0 0.5 2) => (constant uint (4286578943))
unpackSnorm4x8 : vec4 : uint(4227455) => (constant vec4 (1.000000 -1.000000 0.503937 0.000000))
unpackUnorm4x8 : vec4 : uint(4286578943) => (constant vec4 (1.000000 0.000000 0.501961 1.000000))
# float printing
+ : float : float(1000000), float(1) => (constant float (1.000001e+06))
+ : float : float(0.0000001), float(0) => (constant float (0x1.ad7f2ap-24))
+ : float : float(-123456789), float(0) => (constant float (-1.234568e+08))
+ : float : float(0.000001), float(0) => (constant float (0.000001))
"#;

fn parse_type(name: &str) -> Type {
    let (kind, rest) = match name {
        "float" => return Type::FLOAT,
        "int" => return Type::INT,
        "uint" => return Type::UINT,
        "bool" => return Type::BOOL,
        _ if name.starts_with("mat") => {
            let dims = &name[3..];
            let (c, r) = match dims.split_once('x') {
                Some((c, r)) => (c.parse().unwrap(), r.parse().unwrap()),
                None => (dims.parse().unwrap(), dims.parse().unwrap()),
            };
            return Type::mat(c, r);
        }
        _ if name.starts_with("vec") => (ScalarKind::Float, &name[3..]),
        _ if name.starts_with("ivec") => (ScalarKind::Int, &name[4..]),
        _ if name.starts_with("uvec") => (ScalarKind::Uint, &name[4..]),
        _ if name.starts_with("bvec") => (ScalarKind::Bool, &name[4..]),
        _ => panic!("unknown type {name} in test table"),
    };
    Type::Vector(kind, rest.parse().unwrap())
}

fn parse_value(kind: ScalarKind, text: &str) -> ScalarValue {
    match kind {
        ScalarKind::Float => ScalarValue::Float(text.parse().unwrap()),
        ScalarKind::Int => ScalarValue::Int(text.parse().unwrap()),
        ScalarKind::Uint => ScalarValue::Uint(text.parse().unwrap()),
        ScalarKind::Bool => ScalarValue::Bool(text == "true"),
    }
}

fn parse_operand(text: &str) -> (Constant, Type) {
    let (ty, values) = text.trim().split_once('(').unwrap();
    let ty = parse_type(ty);
    let kind = ty.scalar_kind().unwrap();
    let values = values
        .trim_end_matches(')')
        .split_whitespace()
        .map(|v| parse_value(kind, v))
        .collect();
    (Constant::Components(values), ty)
}

fn run_case(line: &str) -> String {
    let (lhs, _) = line.split_once("=>").unwrap();
    let mut parts = lhs.splitn(3, " : ");
    let op_name = parts.next().unwrap().trim();
    let op = Op::from_spelling(op_name).unwrap_or_else(|| panic!("unknown op {op_name}"));
    let result_ty = parse_type(parts.next().unwrap().trim());
    let operands: Vec<_> = parts
        .next()
        .unwrap()
        .split(", ")
        .map(parse_operand)
        .collect();
    let module = Module::default();
    match fold_operation(op, &result_ty, &operands) {
        Some(value) => format!(
            "{lhs}=> {}",
            format_constant(&module, &value, &result_ty).trim_end()
        ),
        None => format!("{lhs}=> none"),
    }
}

#[test]
fn fold_table() {
    let mut failures = Vec::new();
    for line in CASES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let got = run_case(line);
        if got != line {
            failures.push(format!("expected: {line}\n     got: {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fold case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Builds a module with a struct, a const array, a uniform with an
/// initializer and expressions over them, and checks `evaluate` on each.
#[test]
fn evaluate_dereferences() {
    let mut m = Module::default();
    let st = m.structs.append(StructType {
        name: "S".into(),
        fields: vec![
            StructField {
                name: "a".into(),
                ty: Type::FLOAT,
                qualifiers: Default::default(),
            },
            StructField {
                name: "b".into(),
                ty: Type::Vector(ScalarKind::Int, 2),
                qualifiers: Default::default(),
            },
        ],
        is_interface: false,
    });
    let arr_ty = Type::Array(Box::new(Type::Vector(ScalarKind::Float, 2)), Some(2));
    let f = |x: f32| ScalarValue::Float(x);
    let arr_value = Constant::Aggregate(vec![
        Constant::Components(smallvec::smallvec![f(1.0), f(2.0)]),
        Constant::Components(smallvec::smallvec![f(3.0), f(4.0)]),
    ]);
    let mut arr = Variable::new("arr", arr_ty.clone(), VarMode::Auto);
    arr.read_only = true;
    arr.constant_value = Some(arr_value);
    let arr = m.variables.append(arr);
    let mut uni = Variable::new("u", Type::FLOAT, VarMode::Uniform);
    uni.constant_value = Some(Constant::Components(smallvec::smallvec![f(5.0)]));
    uni.constant_initializer = uni.constant_value.clone();
    let uni = m.variables.append(uni);

    let mut add = |kind: ExprKind, ty: Type| m.exprs.append(Expr { kind, ty });
    let arr_ref = add(ExprKind::VarRef(arr), arr_ty.clone());
    let one = add(
        ExprKind::Constant(Constant::Components(smallvec::smallvec![ScalarValue::Int(
            1
        )])),
        Type::INT,
    );
    let two = add(
        ExprKind::Constant(Constant::Components(smallvec::smallvec![
            ScalarValue::Uint(2)
        ])),
        Type::UINT,
    );
    let elem = add(
        ExprKind::ArrayRef(arr_ref, one),
        Type::Vector(ScalarKind::Float, 2),
    );
    let out_of_range = add(
        ExprKind::ArrayRef(arr_ref, two),
        Type::Vector(ScalarKind::Float, 2),
    );
    let comp = add(ExprKind::ArrayRef(elem, one), Type::FLOAT);
    let swiz = add(
        ExprKind::Swizzle(
            elem,
            Swizzle {
                components: [1, 1, 0, 0],
                len: 3,
            },
        ),
        Type::Vector(ScalarKind::Float, 3),
    );
    let uni_ref = add(ExprKind::VarRef(uni), Type::FLOAT);
    let uses_uniform = add(
        ExprKind::Operation(Op::Add, smallvec::smallvec![comp, uni_ref]),
        Type::FLOAT,
    );
    let record_value = Constant::Aggregate(vec![
        Constant::Components(smallvec::smallvec![f(0.5)]),
        Constant::Components(smallvec::smallvec![
            ScalarValue::Int(7),
            ScalarValue::Int(8)
        ]),
    ]);
    let record = add(ExprKind::Constant(record_value.clone()), Type::Struct(st));
    let field = add(
        ExprKind::RecordRef(record, 1),
        Type::Vector(ScalarKind::Int, 2),
    );
    let record2 = add(ExprKind::Constant(record_value), Type::Struct(st));
    let same = add(
        ExprKind::Operation(Op::AllEqual, smallvec::smallvec![record, record2]),
        Type::BOOL,
    );
    let arrays_differ = add(
        ExprKind::Operation(Op::AnyNequal, smallvec::smallvec![arr_ref, arr_ref]),
        Type::BOOL,
    );
    let bad_shape = add(
        ExprKind::Constant(Constant::Components(smallvec::smallvec![f(1.0)])),
        Type::Vector(ScalarKind::Float, 2),
    );

    let cases = [
        (arr_ref, "(constant (array vec2 2) ((constant vec2 (1.000000 2.000000)) (constant vec2 (3.000000 4.000000)) ))"),
        (elem, "(constant vec2 (3.000000 4.000000))"),
        (out_of_range, "none"),
        (comp, "(constant float (4.000000))"),
        (swiz, "(constant vec3 (4.000000 4.000000 3.000000))"),
        (uni_ref, "none"),
        (uses_uniform, "none"),
        (field, "(constant ivec2 (7 8))"),
        (record, "(constant S ((a (constant float (0.500000)) )(b (constant ivec2 (7 8)) )))"),
        (same, "(constant bool (1))"),
        (arrays_differ, "(constant bool (0))"),
        (bad_shape, "none"),
    ];
    let mut failures = Vec::new();
    for (expr, expected) in cases {
        let got = match evaluate(&m, expr) {
            Some(value) => format_constant(&m, &value, &m.exprs[expr].ty)
                .trim_end()
                .to_string(),
            None => "none".to_string(),
        };
        if got != expected {
            failures.push(format!("{expr:?}: expected {expected}\n got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every operator has at least one folding case in the table above.
#[test]
fn table_covers_every_op() {
    let covered: std::collections::HashSet<&str> = CASES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(" : ").next())
        .collect();
    let missing: Vec<&str> = Op::ALL
        .iter()
        .map(|op| op.spelling())
        .filter(|s| !covered.contains(s))
        .collect();
    assert!(
        missing.is_empty(),
        "ops without a folding case: {missing:?}"
    );
}
