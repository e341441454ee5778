//! The GLSL IR expression operators (Mesa's `ir_expression_operation`), declared
//! once: variant, dump spelling and operand count. The printer, the constant
//! folder and the lowering passes all match on [`Op`].

macro_rules! ops {
    ($( $(#[$doc:meta])* $variant:ident = $spelling:literal, $arity:literal; )*) => {
        /// An expression operator.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $( $(#[$doc])* $variant, )*
        }

        impl Op {
            /// Every operator, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$variant,)*];

            /// How Mesa's printer spells the operator.
            pub fn spelling(self) -> &'static str {
                match self { $(Op::$variant => $spelling,)* }
            }
            /// Number of operands.
            pub fn arity(self) -> usize {
                match self { $(Op::$variant => $arity,)* }
            }
            /// Looks an operator up by its dump spelling.
            pub fn from_spelling(s: &str) -> Option<Op> {
                match s { $($spelling => Some(Op::$variant),)* _ => None }
            }
        }
    };
}

ops! {
    /// Bitwise not.
    BitNot = "~", 1;
    /// Logical not.
    LogicNot = "!", 1;
    /// Negation.
    Neg = "neg", 1;
    /// Absolute value.
    Abs = "abs", 1;
    /// Sign (-1, 0, 1).
    Sign = "sign", 1;
    /// Reciprocal.
    Rcp = "rcp", 1;
    /// Reciprocal square root.
    Rsq = "rsq", 1;
    /// Square root.
    Sqrt = "sqrt", 1;
    /// e^x.
    Exp = "exp", 1;
    /// ln x.
    Log = "log", 1;
    /// 2^x.
    Exp2 = "exp2", 1;
    /// log2 x.
    Log2 = "log2", 1;
    /// float → int.
    F2i = "f2i", 1;
    /// float → uint.
    F2u = "f2u", 1;
    /// int → float.
    I2f = "i2f", 1;
    /// float → bool.
    F2b = "f2b", 1;
    /// bool → float.
    B2f = "b2f", 1;
    /// int → bool.
    I2b = "i2b", 1;
    /// bool → int.
    B2i = "b2i", 1;
    /// uint → float.
    U2f = "u2f", 1;
    /// int → uint.
    I2u = "i2u", 1;
    /// uint → int.
    U2i = "u2i", 1;
    /// Reinterpret int bits as float.
    BitcastI2f = "bitcast_i2f", 1;
    /// Reinterpret float bits as int.
    BitcastF2i = "bitcast_f2i", 1;
    /// Reinterpret uint bits as float.
    BitcastU2f = "bitcast_u2f", 1;
    /// Reinterpret float bits as uint.
    BitcastF2u = "bitcast_f2u", 1;
    /// Round toward zero.
    Trunc = "trunc", 1;
    /// Round up.
    Ceil = "ceil", 1;
    /// Round down.
    Floor = "floor", 1;
    /// x - floor(x).
    Fract = "fract", 1;
    /// Round to nearest even.
    RoundEven = "round_even", 1;
    /// Sine.
    Sin = "sin", 1;
    /// Cosine.
    Cos = "cos", 1;
    /// Arc tangent.
    Atan = "atan", 1;
    /// Partial derivative in x.
    Dfdx = "dFdx", 1;
    /// Partial derivative in y.
    Dfdy = "dFdy", 1;
    /// `dFdxCoarse` (ARB_derivative_control): x derivative that may be shared
    /// by the invocations of a neighbourhood.
    DfdxCoarse = "dFdxCoarse", 1;
    /// `dFdxFine` (ARB_derivative_control): x derivative from the invocation's
    /// own neighbours.
    DfdxFine = "dFdxFine", 1;
    /// `dFdyCoarse` (ARB_derivative_control).
    DfdyCoarse = "dFdyCoarse", 1;
    /// `dFdyFine` (ARB_derivative_control).
    DfdyFine = "dFdyFine", 1;
    /// `packSnorm2x16`.
    PackSnorm2x16 = "packSnorm2x16", 1;
    /// `packUnorm2x16`.
    PackUnorm2x16 = "packUnorm2x16", 1;
    /// `packHalf2x16`.
    PackHalf2x16 = "packHalf2x16", 1;
    /// `unpackSnorm2x16`.
    UnpackSnorm2x16 = "unpackSnorm2x16", 1;
    /// `unpackUnorm2x16`.
    UnpackUnorm2x16 = "unpackUnorm2x16", 1;
    /// `unpackHalf2x16`.
    UnpackHalf2x16 = "unpackHalf2x16", 1;
    /// `packSnorm4x8` (GLSL 4.00 §8.4).
    PackSnorm4x8 = "packSnorm4x8", 1;
    /// `packUnorm4x8`.
    PackUnorm4x8 = "packUnorm4x8", 1;
    /// `unpackSnorm4x8`.
    UnpackSnorm4x8 = "unpackSnorm4x8", 1;
    /// `unpackUnorm4x8`.
    UnpackUnorm4x8 = "unpackUnorm4x8", 1;
    /// Clamp to [0, 1].
    Saturate = "sat", 1;
    /// Length of a vector minus one-operand noise: always 0 (Mesa's `noise`).
    Noise = "noise", 1;
    /// Is NaN (lowered form of `isnan`).
    IsNan = "isnan", 1;
    /// `.length()` of a runtime-sized array in a shader storage block (GLSL
    /// 4.30 §4.1.9, Mesa's `ssbo_unsized_array_length`): an `int` known only
    /// when the shader runs. The operand is the array itself, never loaded.
    SsboUnsizedArrayLength = "ssbo_unsized_array_length", 1;
    /// Is infinite.
    IsInf = "isinf", 1;
    /// Addition (vector ⊕ scalar allowed).
    Add = "+", 2;
    /// Subtraction.
    Sub = "-", 2;
    /// Multiplication, including matrix products until `mat_op_to_vec`.
    Mul = "*", 2;
    /// Division.
    Div = "/", 2;
    /// Modulus (`mod` for floats, `%` for integers).
    Mod = "%", 2;
    /// Component-wise less-than.
    Less = "<", 2;
    /// Component-wise greater-or-equal.
    GEqual = ">=", 2;
    /// Component-wise equality.
    Equal = "==", 2;
    /// Component-wise inequality.
    NEqual = "!=", 2;
    /// Whole-value equality (one bool).
    AllEqual = "all_equal", 2;
    /// Whole-value inequality (one bool).
    AnyNequal = "any_nequal", 2;
    /// Shift left.
    Lshift = "<<", 2;
    /// Shift right.
    Rshift = ">>", 2;
    /// Bitwise and.
    BitAnd = "&", 2;
    /// Bitwise xor.
    BitXor = "^", 2;
    /// Bitwise or.
    BitOr = "|", 2;
    /// Logical and.
    LogicAnd = "&&", 2;
    /// Logical xor.
    LogicXor = "^^", 2;
    /// Logical or.
    LogicOr = "||", 2;
    /// Dot product.
    Dot = "dot", 2;
    /// Minimum.
    Min = "min", 2;
    /// Maximum.
    Max = "max", 2;
    /// Power.
    Pow = "pow", 2;
    /// Dynamic vector component read.
    VectorExtract = "vector_extract", 2;
    /// Two-argument arc tangent.
    Atan2 = "atan2", 2;
    /// a * b + c.
    Fma = "fma", 3;
    /// Linear interpolation `mix(x, y, a)`.
    Lrp = "lrp", 3;
    /// Component select `c ? a : b`.
    Csel = "csel", 3;
    /// Dynamic vector component write.
    VectorInsert = "vector_insert", 3;
    /// Builds a vector from 2–4 scalars.
    Vector = "vector", 4;
}
