//! The semantic actions of the generated parser (`grammar.lalrpop`): the
//! per-parse context [`Cx`] the actions read token spellings and locations
//! from, and the builders of [`crate::ast`] nodes that take more than a line:
//! binary-operator chains ([`Chain`]), calls and their callees, qualifiers,
//! struct specifiers (which declare a type name for the token stream) and
//! prototypes.
//!
//! Every node gets the [`SourceLoc`] of its first token: grammar positions
//! encode token indices (see `tokens`), and a parenthesized operand starts at
//! its `(`, so `(a+b)*c` is located at `(` while `a+b` is located at `a`.
//!
//! Calls whose callee is not a name, a type or `.length` are syntax errors,
//! but the error must be reported in the order a top-down walk meets it
//! (together with the depth limit, see `depth`). The action therefore
//! records the error and leaves a marker call in the tree: a callee named by
//! [`MARKER`] followed by the index of the recorded error. Identifiers never
//! contain NUL, and a tree with a marker never leaves the parser.

use std::cell::RefCell;
use std::sync::Arc;

use super::tokens::{token_index, TypeNames};
use super::SyntaxError;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::pp::{self, Interner, Sym};
use crate::span::SourceLoc;

/// First character of the callee name of a marker call.
pub(super) const MARKER: char = '\0';

/// Per-parse state shared by the actions and the token stream.
pub(crate) struct Cx<'a> {
    tokens: &'a [pp::Token],
    symbols: &'a Interner,
    /// GLSL ES keeps layout identifiers' case (desktop lower-cases them, as
    /// desktop GLSL matches them case-insensitively).
    es: bool,
    /// Symbol of `invariant`, when the shader spells it.
    invariant: Option<Sym>,
    /// User type names in scope.
    pub types: RefCell<TypeNames>,
    /// Errors of marker calls, by marker index.
    pub deferred: RefCell<Vec<Diagnostic>>,
    /// The operands and operators of the binary-operator chains being
    /// parsed (a chain nested in an operand is finished before its parent
    /// chain goes on, so the chains share one pair of stacks).
    chains: RefCell<ChainStacks>,
}

impl<'a> Cx<'a> {
    /// A context over the preprocessed `tokens`.
    pub fn new(tokens: &'a [pp::Token], symbols: &'a Interner, es: bool) -> Self {
        Cx {
            tokens,
            symbols,
            es,
            invariant: symbols.lookup("invariant"),
            types: RefCell::new(TypeNames::default()),
            deferred: RefCell::new(Vec::new()),
            chains: RefCell::new(ChainStacks::default()),
        }
    }

    /// Location of the token at parser position `pos`.
    pub fn loc(&self, pos: u32) -> SourceLoc {
        self.tokens
            .get(token_index(pos))
            .map(|t| t.loc)
            .unwrap_or_default()
    }

    fn sym(&self, pos: u32) -> Option<Sym> {
        self.tokens.get(token_index(pos)).map(|t| t.sym)
    }

    /// The identifier (or type name) at `pos`.
    pub fn ident(&self, pos: u32) -> Ident {
        Ident {
            name: self
                .sym(pos)
                .map_or_else(|| Arc::from(""), |s| self.symbols.shared(s)),
            loc: self.loc(pos),
        }
    }

    /// An expression node located at `pos`.
    pub fn expr(&self, pos: u32, kind: ExprKind) -> Box<Expr> {
        Box::new(Expr {
            kind,
            loc: self.loc(pos),
        })
    }

    /// A statement located at `pos`.
    pub fn stmt(&self, pos: u32, kind: StatementKind) -> Box<Statement> {
        Box::new(Statement {
            kind,
            loc: self.loc(pos),
        })
    }

    /// A declaration located at `pos`.
    pub fn decl(&self, pos: u32, kind: DeclarationKind) -> Box<Declaration> {
        Box::new(Declaration {
            kind,
            loc: self.loc(pos),
        })
    }

    // -- expressions ----------------------------------------------------------

    /// Adds `op operand` (the operand starting at `pos`) to a chain of binary
    /// operators, reducing what binds at least as tightly first (all binary
    /// operators are left-associative).
    pub fn chain_push(&self, chain: Chain, op: BinaryOp, pos: u32, operand: Box<Expr>) -> Chain {
        let mut stacks = self.chains.borrow_mut();
        let (operand_base, op_base) = match chain {
            Chain::Leaf(first, start) => {
                let bases = (stacks.operands.len(), stacks.ops.len());
                stacks.operands.push((first, start));
                bases
            }
            Chain::Ops { operands, ops } => (operands, ops),
        };
        while stacks.ops.len() > op_base
            && stacks
                .ops
                .last()
                .is_some_and(|top| precedence(*top) >= precedence(op))
        {
            self.reduce_top(&mut stacks);
        }
        stacks.ops.push(op);
        stacks.operands.push((operand, pos));
        Chain::Ops {
            operands: operand_base,
            ops: op_base,
        }
    }

    /// The expression of a finished chain.
    pub fn chain_finish(&self, chain: Chain) -> Box<Expr> {
        match chain {
            Chain::Leaf(expr, _) => expr,
            Chain::Ops { operands, ops } => {
                let mut stacks = self.chains.borrow_mut();
                while stacks.ops.len() > ops {
                    self.reduce_top(&mut stacks);
                }
                match stacks.operands.pop() {
                    Some((expr, _)) if stacks.operands.len() == operands => expr,
                    // A chain always holds one more operand than operators.
                    _ => self.expr(0, ExprKind::IntConst(0)),
                }
            }
        }
    }

    /// Combines the two topmost operands with the topmost operator.
    fn reduce_top(&self, stacks: &mut ChainStacks) {
        let (Some(op), Some((rhs, _)), Some((lhs, start))) = (
            stacks.ops.pop(),
            stacks.operands.pop(),
            stacks.operands.pop(),
        ) else {
            return;
        };
        let node = self.expr(start, ExprKind::Binary(op, lhs, rhs));
        stacks.operands.push((node, start));
    }

    /// A call `callee(args)` whose callee starts at `pos`.
    #[allow(
        clippy::vec_box,
        reason = "the generated parser's value stack holds boxed nodes (a small stack slot per symbol); the action receives them as they are"
    )]
    pub fn call(&self, pos: u32, callee: FunId, args: Vec<Box<Expr>>) -> Box<Expr> {
        let target = match callee {
            FunId::Type(ty) => {
                return self.expr(pos, ExprKind::Call(Callee::Type(ty), unbox(args)));
            }
            FunId::Expr(target) => target,
        };
        let target = *target;
        match target.kind {
            ExprKind::Variable(name) => {
                self.expr(pos, ExprKind::Call(Callee::Name(name), unbox(args)))
            }
            ExprKind::Field(object, method) if &*method.name == "length" && args.is_empty() => {
                self.expr(pos, ExprKind::MethodLength(object))
            }
            ExprKind::Field(_, method) => self.marker(
                pos,
                Diagnostic::error(
                    method.loc,
                    SyntaxError::UnknownMethod {
                        name: method.name.to_string(),
                    },
                ),
            ),
            ExprKind::Index(..) => {
                let loc = target.loc;
                match indexed_callee(target) {
                    Some(callee) => self.expr(pos, ExprKind::Call(callee, unbox(args))),
                    None => self.marker(pos, Diagnostic::error(loc, SyntaxError::InvalidCallee)),
                }
            }
            _ => self.marker(
                pos,
                Diagnostic::error(target.loc, SyntaxError::InvalidCallee),
            ),
        }
    }

    /// A marker call standing for a deferred `error`.
    fn marker(&self, pos: u32, error: Diagnostic) -> Box<Expr> {
        let mut deferred = self.deferred.borrow_mut();
        let name = Arc::from(format!("{MARKER}{}", deferred.len()));
        deferred.push(error);
        let loc = self.loc(pos);
        self.expr(
            pos,
            ExprKind::Call(Callee::Name(Ident { name, loc }), Vec::new()),
        )
    }

    // -- types and qualifiers ---------------------------------------------------

    /// A built-in type keyword at `pos`.
    pub fn builtin_type(&self, pos: u32) -> TypeName {
        TypeName::Builtin(
            self.sym(pos)
                .map_or_else(|| Arc::from(""), |s| self.symbols.shared(s)),
        )
    }

    /// `struct name? { fields }` starting at `pos`; declares the name as a
    /// type for the tokens that follow.
    pub fn struct_specifier(
        &self,
        pos: u32,
        name: Option<Ident>,
        fields: Vec<StructField>,
    ) -> TypeName {
        if let Some(sym) = name.as_ref().and_then(|n| self.symbols.lookup(&n.name)) {
            self.types.borrow_mut().add(sym);
        }
        TypeName::Struct(Box::new(StructSpecifier {
            name,
            fields,
            loc: self.loc(pos),
        }))
    }

    /// `precise` at `pos`, or nothing for the `precise` the token stream adds
    /// after `invariant` (it shares the `invariant` token's position).
    pub fn precise(&self, pos: u32) -> Option<Qualifier> {
        if self.invariant.is_some() && self.sym(pos) == self.invariant {
            None
        } else {
            Some(Qualifier::Precise(self.loc(pos)))
        }
    }

    /// `name` or `name = value` inside `layout(...)`.
    pub fn layout_item(&self, mut name: Ident, value: Option<Box<Expr>>) -> LayoutItem {
        if !self.es && name.name.bytes().any(|b| b.is_ascii_uppercase()) {
            name.name = Arc::from(name.name.to_ascii_lowercase());
        }
        LayoutItem { name, value }
    }

    /// `shared` inside `layout(...)` (a keyword, so not an identifier).
    pub fn shared_layout_item(&self, pos: u32) -> LayoutItem {
        LayoutItem {
            name: Ident {
                name: Arc::from("shared"),
                loc: self.loc(pos),
            },
            value: None,
        }
    }

    /// A qualifier list starting at `pos`.
    pub fn qualifier(
        &self,
        pos: u32,
        invariant: Option<u32>,
        specs: Vec<Option<Qualifier>>,
    ) -> Box<TypeQualifier> {
        let mut qualifiers = Vec::with_capacity(specs.len() + 1);
        if let Some(at) = invariant {
            qualifiers.push(Qualifier::Invariant(self.loc(at)));
        }
        qualifiers.extend(specs.into_iter().flatten());
        Box::new(TypeQualifier {
            qualifiers,
            loc: self.loc(pos),
        })
    }

    /// A function prototype; `f(void)` declares no parameters.
    #[allow(
        clippy::vec_box,
        clippy::boxed_local,
        reason = "the generated parser's value stack holds boxed nodes (a small stack slot per symbol); the action receives them as they are"
    )]
    pub fn prototype(
        &self,
        return_type: Box<FullySpecifiedType>,
        name: Ident,
        parameters: Vec<Box<ParameterDecl>>,
    ) -> Box<FunctionPrototype> {
        let mut parameters = unbox(parameters);
        if let [only] = parameters.as_slice() {
            if only.qualifier.is_none()
                && only.name.is_none()
                && only.ty.array.is_none()
                && matches!(&only.ty.ty, TypeName::Builtin(t) if &**t == "void")
            {
                parameters.clear();
            }
        }
        // `subroutine R T(..);` declares the subroutine type `T`, a type name
        // from here on (Mesa's parser adds it to the symbol table as a type).
        let declares_subroutine_type = return_type.qualifier.as_ref().is_some_and(|q| {
            q.qualifiers
                .iter()
                .any(|q| matches!(q, Qualifier::Subroutine(types, _) if types.is_empty()))
        });
        if declares_subroutine_type {
            if let Some(sym) = self.symbols.lookup(&name.name) {
                self.types.borrow_mut().add(sym);
            }
        }
        let loc = name.loc;
        Box::new(FunctionPrototype {
            return_type: *return_type,
            name,
            parameters,
            loc,
        })
    }
}

/// Binding strength of a binary operator (GLSL §5.1, higher binds tighter).
fn precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 10,
        BinaryOp::Add | BinaryOp::Sub => 9,
        BinaryOp::Shl | BinaryOp::Shr => 8,
        BinaryOp::Less | BinaryOp::Greater | BinaryOp::LessEqual | BinaryOp::GreaterEqual => 7,
        BinaryOp::Equal | BinaryOp::NotEqual => 6,
        BinaryOp::BitAnd => 5,
        BinaryOp::BitXor => 4,
        BinaryOp::BitOr => 3,
        BinaryOp::And => 2,
        BinaryOp::Xor => 1,
        BinaryOp::Or => 0,
    }
}

/// Moves boxed nodes into a plain vector.
pub(super) fn unbox<T>(items: Vec<Box<T>>) -> Vec<T> {
    items.into_iter().map(|b| *b).collect()
}

/// A chain of unary expressions joined by binary operators, reduced by
/// precedence as it grows. Each operand keeps the position of its first token.
pub(crate) enum Chain {
    /// One operand, no operator yet.
    Leaf(Box<Expr>, u32),
    /// Operands and operators on [`Cx`]'s chain stacks from these depths up.
    Ops {
        /// Depth of the operand stack where this chain starts.
        operands: usize,
        /// Depth of the operator stack where this chain starts.
        ops: usize,
    },
}

impl Chain {
    /// A chain of one operand starting at `pos`.
    pub fn leaf(pos: u32, expr: Box<Expr>) -> Chain {
        Chain::Leaf(expr, pos)
    }
}

/// The stacks of the [`Chain`]s in progress: per chain, always one more
/// operand than operators, and operator precedence strictly increasing
/// upwards.
#[derive(Default)]
struct ChainStacks {
    operands: Vec<(Box<Expr>, u32)>,
    ops: Vec<BinaryOp>,
}

/// What a call calls, before it is checked.
pub(crate) enum FunId {
    /// A type: a constructor.
    Type(Box<TypeSpecifier>),
    /// A postfix expression: a function name or `x.length`.
    Expr(Box<Expr>),
}

/// `name[i][j](args)`: a call through an element of a subroutine uniform array
/// (GLSL 4.00 §6.1.2). The grammar's `function_identifier` is a postfix
/// expression there; the callee is kept as a type specifier `name[i][j]`, the
/// shape of an array constructor, and the checker decides which it is. `None`
/// when the indexed value is not a plain name.
pub(super) fn indexed_callee(target: Expr) -> Option<Callee> {
    let loc = target.loc;
    let mut dims = Vec::new();
    let mut node = target;
    loop {
        match node.kind {
            ExprKind::Index(base, index) => {
                dims.push(Some(index));
                node = *base;
            }
            ExprKind::Variable(name) if !dims.is_empty() => {
                dims.reverse();
                return Some(Callee::Type(Box::new(TypeSpecifier {
                    loc: name.loc,
                    ty: TypeName::Named(name),
                    array: Some(ArraySpecifier {
                        dimensions: dims,
                        loc,
                    }),
                })));
            }
            _ => return None,
        }
    }
}
