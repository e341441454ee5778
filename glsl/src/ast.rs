//! rgl's own GLSL syntax tree. The parser module converts glsl-lang's tree into
//! this one right after parsing, so nothing outside `parse` depends on glsl-lang.
//! Every node that can be the subject of a diagnostic carries a [`SourceLoc`].

use std::sync::Arc;

use crate::span::SourceLoc;

/// An identifier with its location. The name is shared with the
/// preprocessor's interner (every use of a name points at one string).
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: Arc<str>,
    /// Where it was written.
    pub loc: SourceLoc,
}

/// A whole translation unit (one shader string after preprocessing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TranslationUnit {
    /// Top-level declarations and function definitions in source order.
    pub items: Vec<ExternalDecl>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternalDecl {
    /// A function with a body.
    Function(FunctionDef),
    /// Any declaration (variables, prototypes, blocks, precision, …).
    Declaration(Declaration),
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Its prototype.
    pub prototype: FunctionPrototype,
    /// The body statements.
    pub body: CompoundStmt,
}

/// `{ ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundStmt {
    /// Statements in order.
    pub statements: Vec<Statement>,
    /// Location of `{`.
    pub loc: SourceLoc,
}

/// A declaration (top-level or in a function body).
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// What is declared.
    pub kind: DeclarationKind,
    /// Location of the first token.
    pub loc: SourceLoc,
}

/// The kinds of declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclarationKind {
    /// `T f(params);`
    Prototype(FunctionPrototype),
    /// `T a = 1, b[2];` (also a bare `struct S { .. };` with no declarators).
    Variables(InitDeclaratorList),
    /// `precision highp float;`
    Precision(Precision, TypeSpecifier),
    /// `uniform Block { ... } name;`
    Block(Block),
    /// `invariant gl_Position;` (redeclaration of an existing variable as invariant).
    Invariant(Vec<Ident>),
    /// `layout(...) in;` and similar qualifier-only declarations.
    QualifierOnly(TypeQualifier),
}

/// A function prototype.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionPrototype {
    /// Return type with qualifiers.
    pub return_type: FullySpecifiedType,
    /// Function name.
    pub name: Ident,
    /// Parameters.
    pub parameters: Vec<ParameterDecl>,
    /// Location of the name.
    pub loc: SourceLoc,
}

/// One function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterDecl {
    /// `const`, `in`, `out`, `inout`, precision.
    pub qualifier: Option<TypeQualifier>,
    /// Parameter type.
    pub ty: TypeSpecifier,
    /// Name, absent in prototypes like `float f(float);`.
    pub name: Option<Ident>,
    /// Array suffix on the name (`float a[2]`).
    pub array: Option<ArraySpecifier>,
    /// Location.
    pub loc: SourceLoc,
}

/// `qualifiers type`
#[derive(Clone, Debug, PartialEq)]
pub struct FullySpecifiedType {
    /// Qualifiers, if any were written.
    pub qualifier: Option<TypeQualifier>,
    /// The type.
    pub ty: TypeSpecifier,
}

/// A declaration list sharing one type.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclaratorList {
    /// Shared type and qualifiers.
    pub ty: FullySpecifiedType,
    /// Each declared name; empty for `struct S {..};` or `float;`.
    pub declarators: Vec<InitDeclarator>,
}

/// One declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    /// The name.
    pub name: Ident,
    /// `[N]` after the name.
    pub array: Option<ArraySpecifier>,
    /// `= init`.
    pub initializer: Option<Initializer>,
}

/// An initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// `= expr`
    Simple(Box<Expr>),
    /// `= { a, b }` (GLSL 4.20 initializer lists; rejected with a clear error).
    List(Vec<Initializer>, SourceLoc),
}

/// `uniform Name { members } instance[N];`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Storage and layout qualifiers.
    pub qualifier: TypeQualifier,
    /// Block name.
    pub name: Ident,
    /// Members.
    pub fields: Vec<StructField>,
    /// Optional instance name.
    pub instance: Option<Ident>,
    /// Instance array size.
    pub instance_array: Option<ArraySpecifier>,
}

/// A type with optional array dimensions: `vec4`, `float[3]`, `S[]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpecifier {
    /// The base type.
    pub ty: TypeName,
    /// `[N]` written after the type.
    pub array: Option<ArraySpecifier>,
    /// Location.
    pub loc: SourceLoc,
}

/// A base type name.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeName {
    /// A built-in type keyword spelled as in GLSL (`vec4`, `sampler2DShadow`,
    /// `void`, `mat2x3`, `double`, `image2D`, …). The checker decides whether the
    /// version in use has it.
    Builtin(Arc<str>),
    /// A struct definition written in place (boxed: it is rare, and a small
    /// `TypeName` keeps the parser's stack values small).
    Struct(Box<StructSpecifier>),
    /// A user type name (a previously declared struct).
    Named(Ident),
}

/// `struct Name { fields }`
#[derive(Clone, Debug, PartialEq)]
pub struct StructSpecifier {
    /// Optional name.
    pub name: Option<Ident>,
    /// Fields.
    pub fields: Vec<StructField>,
    /// Location of `struct`.
    pub loc: SourceLoc,
}

/// A struct or block member line: `qualifiers type a, b[2];`
#[derive(Clone, Debug, PartialEq)]
pub struct StructField {
    /// Optional qualifiers (precision, layout, interpolation in blocks).
    pub qualifier: Option<TypeQualifier>,
    /// Member type.
    pub ty: TypeSpecifier,
    /// Declared names with optional array suffixes.
    pub names: Vec<(Ident, Option<ArraySpecifier>)>,
}

/// Array dimensions, outermost first.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySpecifier {
    /// `None` for `[]`.
    pub dimensions: Vec<Option<Box<Expr>>>,
    /// Location of the first `[`.
    pub loc: SourceLoc,
}

/// A list of qualifiers in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeQualifier {
    /// Each qualifier word or layout group.
    pub qualifiers: Vec<Qualifier>,
    /// Location of the first qualifier.
    pub loc: SourceLoc,
}

/// One qualifier.
#[derive(Clone, Debug, PartialEq)]
pub enum Qualifier {
    /// A storage qualifier.
    Storage(Storage, SourceLoc),
    /// `layout(...)`
    Layout(Vec<LayoutItem>, SourceLoc),
    /// `highp` / `mediump` / `lowp`
    Precision(Precision, SourceLoc),
    /// `smooth` / `flat` / `noperspective`
    Interpolation(Interpolation, SourceLoc),
    /// `invariant`
    Invariant(SourceLoc),
    /// `precise` (GLSL 4.00; rejected)
    Precise(SourceLoc),
    /// `subroutine` (GLSL 4.00 §4.3.9, ARB_shader_subroutine), with the type
    /// list of `subroutine(T1, T2)`; empty for a bare `subroutine`.
    Subroutine(Vec<TypeSpecifier>, SourceLoc),
}

/// Storage qualifier words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// `const`
    Const,
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout`
    InOut,
    /// `centroid`
    Centroid,
    /// `sample` (4.00)
    Sample,
    /// `patch` (4.00)
    Patch,
    /// `uniform`
    Uniform,
    /// `buffer` (4.30)
    Buffer,
    /// `shared` (4.30)
    Shared,
    /// `attribute`
    Attribute,
    /// `varying`
    Varying,
    /// Memory qualifiers (`coherent`, `volatile`, `restrict`, `readonly`, `writeonly`).
    Other(&'static str),
}

/// One `layout(...)` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutItem {
    /// Identifier, lower-cased as written (`location`, `std140`, `shared`).
    pub name: Ident,
    /// `= value`, when given.
    pub value: Option<Box<Expr>>,
}

/// Precision qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// `highp`
    High,
    /// `mediump`
    Medium,
    /// `lowp`
    Low,
}

/// Interpolation qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// `smooth`
    Smooth,
    /// `flat`
    Flat,
    /// `noperspective`
    NoPerspective,
}

/// An expression with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Location of the operator or first token, as Mesa reports it.
    pub loc: SourceLoc,
}

/// Expression kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A name.
    Variable(Ident),
    /// An `int` literal; hex/octal literals above `i32::MAX` are already wrapped.
    IntConst(i32),
    /// A `uint` literal.
    UintConst(u32),
    /// A `bool` literal.
    BoolConst(bool),
    /// A `float` literal.
    FloatConst(f32),
    /// A `double` literal (`1.0lf`, GLSL 4.00; rejected).
    DoubleConst(f64),
    /// Prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// Infix operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)` or a constructor `vec4(args)` / `float[2](a, b)`.
    Call(Callee, Vec<Expr>),
    /// `a.b` (field, swizzle, or `.length()` when followed by a call).
    Field(Box<Expr>, Ident),
    /// `a.length()`
    MethodLength(Box<Expr>),
    /// `a++`
    PostInc(Box<Expr>),
    /// `a--`
    PostDec(Box<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function name (may also name a struct type: a struct constructor).
    Name(Ident),
    /// A type, for constructors (`vec3(...)`, `float[2](...)`).
    Type(Box<TypeSpecifier>),
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `++a`
    PreInc,
    /// `--a`
    PreDec,
    /// `+a`
    Plus,
    /// `-a`
    Minus,
    /// `!a`
    Not,
    /// `~a`
    Complement,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `^^`
    Xor,
    /// `&&`
    And,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `<=`
    LessEqual,
    /// `>=`
    GreaterEqual,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::Xor => "^^",
            BinaryOp::And => "&&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::BitAnd => "&",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::Greater => ">",
            BinaryOp::LessEqual => "<=",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        }
    }
}

/// Assignment operators; `Op(b)` is `a b= c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Assign,
    /// `+=`, `<<=`, … as the underlying binary operator.
    Op(BinaryOp),
}

/// A statement with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// What it is.
    pub kind: StatementKind,
    /// Location of its first token.
    pub loc: SourceLoc,
}

/// Statement kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    /// A declaration.
    Declaration(Declaration),
    /// `expr;` or `;`
    Expr(Option<Expr>),
    /// `if (c) a else b`
    If(Box<Expr>, Box<Statement>, Option<Box<Statement>>),
    /// `switch (e) { body }`
    Switch(Box<Expr>, Vec<Statement>),
    /// `case e:`
    Case(Box<Expr>),
    /// `default:`
    Default,
    /// `while (cond) body`
    While(Condition, Box<Statement>),
    /// `do body while (cond);`
    DoWhile(Box<Statement>, Box<Expr>),
    /// `for (init; cond; step) body`
    For(
        Box<ForInit>,
        Option<Condition>,
        Option<Box<Expr>>,
        Box<Statement>,
    ),
    /// `continue;`
    Continue,
    /// `break;`
    Break,
    /// `return;` / `return e;`
    Return(Option<Box<Expr>>),
    /// `discard;`
    Discard,
    /// `{ ... }`
    Compound(CompoundStmt),
}

/// The condition of `while`/`for`: an expression or a declaration
/// (`while (bool b = f())`).
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// `(expr)`
    Expr(Box<Expr>),
    /// `(type name = init)`
    Declaration(FullySpecifiedType, Ident, Box<Initializer>),
}

/// The first clause of `for`.
#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    /// An expression statement (possibly empty).
    Expr(Option<Expr>),
    /// A declaration.
    Declaration(Declaration),
}
