//! The instruction builder: creates instructions and inserts them at a [`Cursor`]
//! (before/after an instruction, start/end of a block). Typed per-opcode ALU methods
//! (`b.fadd([x, y])`) are generated from the opcode table in `opcodes.rs`.

use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use crate::opcodes::Opcode;

/// An insertion point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cursor {
    /// Before an instruction.
    Before(Instr),
    /// After an instruction.
    After(Instr),
    /// Start of a block (before its phis, use `after_phis` for the first non-phi).
    StartOf(Block),
    /// End of a block (after its jump, if any: callers insert before jumps).
    EndOf(Block),
}

/// Builds instructions into a function body at a moving cursor.
pub struct Builder<'f> {
    /// The body being edited.
    pub func: &'f mut FunctionImpl,
    /// Where the next instruction goes; advanced past every inserted instruction.
    pub cursor: Cursor,
    /// Mark every ALU instruction built as `exact` (Mesa's `nir_builder::exact`, set
    /// while building code for `precise`/`invariant` values).
    pub exact: bool,
}

impl<'f> Builder<'f> {
    /// A builder at `cursor`.
    pub fn new(func: &'f mut FunctionImpl, cursor: Cursor) -> Builder<'f> {
        Builder {
            func,
            cursor,
            exact: false,
        }
    }

    /// Cursor after the phis of `block`.
    pub fn after_phis(func: &FunctionImpl, block: Block) -> Cursor {
        let mut cursor = Cursor::StartOf(block);
        for instr in func.block_instrs(block) {
            if matches!(func.instrs[instr].kind, InstrKind::Phi(_)) {
                cursor = Cursor::After(instr);
            } else {
                break;
            }
        }
        cursor
    }

    /// Inserts a detached instruction at the cursor and moves the cursor after it.
    pub fn insert(&mut self, instr: Instr) -> Instr {
        match self.cursor {
            Cursor::Before(i) => self.func.link_instr_before(i, instr),
            Cursor::After(i) => self.func.link_instr_after(i, instr),
            Cursor::StartOf(b) => self.func.link_instr_at_start(b, instr),
            Cursor::EndOf(b) => self.func.link_instr_at_end(b, instr),
        }
        self.cursor = Cursor::After(instr);
        instr
    }

    /// Creates and inserts an instruction; returns its def (if any).
    pub fn build(&mut self, kind: InstrKind, def: Option<(u8, u8)>) -> Option<Def> {
        let instr = self.func.create_instr(kind, def);
        self.insert(instr);
        self.func.instrs[instr].def
    }

    /// Builds an ALU instruction from explicit sources (swizzles included) with
    /// `num_components` destination components; the bit size follows the opcode table.
    pub fn alu(
        &mut self,
        op: Opcode,
        srcs: impl IntoIterator<Item = AluSrc>,
        num_components: u8,
    ) -> Def {
        let srcs: AluSrcs = srcs.into_iter().collect();
        let info = op.info();
        let bits = if info.output_type.bits != 0 {
            info.output_type.bits
        } else {
            info.input_types
                .iter()
                .zip(&srcs)
                .find(|(t, _)| t.bits == 0)
                .and_then(|(_, s)| self.func.defs.get(s.def).map(|d| d.bit_size))
                .unwrap_or(32)
        };
        let comps = if info.output_size != 0 {
            info.output_size
        } else {
            num_components
        };
        let kind = InstrKind::Alu(Alu {
            op,
            srcs,
            exact: self.exact,
        });
        self.build(kind, Some((comps, bits)))
            .unwrap_or_else(unreachable_def)
    }

    /// Builds an ALU instruction on whole defs (identity swizzles); a per-component
    /// result takes the component count of the widest per-component source.
    pub fn alu_defs(&mut self, op: Opcode, srcs: &[Def]) -> Def {
        let info = op.info();
        let comps = info
            .input_sizes
            .iter()
            .zip(srcs)
            .filter(|(size, _)| **size == 0)
            .filter_map(|(_, d)| self.func.defs.get(*d).map(|d| d.num_components))
            .max()
            .unwrap_or(1);
        self.alu(op, srcs.iter().map(|d| AluSrc::new(*d)), comps)
    }

    /// Builds an ALU instruction with an explicit destination shape (`comps`
    /// components of `bits` bits) and `exact` flag.
    pub fn alu_sized(
        &mut self,
        op: Opcode,
        srcs: impl IntoIterator<Item = AluSrc>,
        exact: bool,
        comps: u8,
        bits: u8,
    ) -> Def {
        let srcs: AluSrcs = srcs.into_iter().collect();
        let exact = exact || self.exact;
        self.build(InstrKind::Alu(Alu { op, srcs, exact }), Some((comps, bits)))
            .unwrap_or_else(unreachable_def)
    }

    /// `mov` of component `c` of `v` (Mesa's `nir_channel`): a scalar of `v`'s bit
    /// size.
    pub fn channel(&mut self, v: Def, c: u8) -> Def {
        let bits = self.func.defs.get(v).map_or(32, |d| d.bit_size);
        self.alu_sized(Opcode::mov, [swizzled(v, c)], false, 1, bits)
    }

    /// Component `index` (a dynamic scalar integer) of vector `v`, as Mesa's
    /// `nir_vector_extract` does it: a `bcsel` chain over the components.
    pub fn vector_extract(&mut self, v: Def, index: Def) -> Def {
        self.vector_extract_from(None, v, index, 0)
    }

    /// Continues a [`Self::vector_extract`] chain over several vectors laid end to end
    /// (the slots of a compact array): the components of `v` are elements `first..`
    /// of the whole, and `acc` is the chain built over the elements before them
    /// (`None` when `v` holds element 0). Returns the new end of the chain.
    pub fn vector_extract_from(&mut self, acc: Option<Def>, v: Def, index: Def, first: u32) -> Def {
        let (n, bits) = self
            .func
            .defs
            .get(v)
            .map_or((1, 32), |d| (d.num_components, d.bit_size));
        let mut acc = acc;
        for c in 0..n {
            let chan = swizzled(v, c);
            acc = Some(match acc {
                None => self.alu_sized(Opcode::mov, [chan], false, 1, bits),
                Some(prev) => {
                    let k = self.imm_i32((first + u32::from(c)) as i32);
                    let is = self.alu_sized(
                        Opcode::ieq,
                        [AluSrc::new(index), AluSrc::new(k)],
                        false,
                        1,
                        1,
                    );
                    self.alu_sized(
                        Opcode::bcsel,
                        [AluSrc::new(is), chan, AluSrc::new(prev)],
                        false,
                        1,
                        bits,
                    )
                }
            });
        }
        acc.unwrap_or_else(unreachable_def)
    }

    /// `v` with component `index` (a dynamic scalar integer) replaced by the scalar
    /// `s`, as Mesa's `nir_vector_insert` does it: one `bcsel` between `v` and `s`
    /// on `index == (first, first + 1, ...)`. `first` is the element number of
    /// `v`'s component 0 when `v` is one slot of a longer array (0 otherwise).
    pub fn vector_insert(&mut self, v: Def, s: Def, index: Def, first: u32) -> Def {
        let (n, bits) = self
            .func
            .defs
            .get(v)
            .map_or((1, 32), |d| (d.num_components, d.bit_size));
        let lanes = self.load_const(
            32,
            (0..u64::from(n)).map(|c| u64::from(first) + c).collect(),
        );
        let is = self.alu_sized(
            Opcode::ieq,
            [splat(index, n), AluSrc::new(lanes)],
            false,
            n,
            1,
        );
        let s = if self.func.defs.get(s).is_some_and(|d| d.num_components == 1) {
            s
        } else {
            self.channel(s, 0)
        };
        self.alu_sized(
            Opcode::bcsel,
            [AluSrc::new(is), splat(s, n), AluSrc::new(v)],
            false,
            n,
            bits,
        )
    }

    /// `load_const` of raw per-component bits.
    pub fn load_const(&mut self, bit_size: u8, values: Vec<u64>) -> Def {
        let comps = values.len().clamp(1, 16) as u8;
        let values = values
            .into_iter()
            .map(|v| v & crate::opcodes::mask(bit_size))
            .collect();
        self.build(InstrKind::LoadConst(values), Some((comps, bit_size)))
            .unwrap_or_else(unreachable_def)
    }

    /// A 32-bit float constant.
    pub fn imm_f32(&mut self, v: f32) -> Def {
        self.load_const(32, vec![u64::from(v.to_bits())])
    }

    /// A 32-bit integer constant.
    pub fn imm_i32(&mut self, v: i32) -> Def {
        self.load_const(32, vec![u64::from(v as u32)])
    }

    /// An undefined value.
    pub fn undef(&mut self, num_components: u8, bit_size: u8) -> Def {
        self.build(InstrKind::Undef, Some((num_components, bit_size)))
            .unwrap_or_else(unreachable_def)
    }

    /// An intrinsic; `dest` gives the destination shape when the intrinsic has one.
    pub fn intrinsic(
        &mut self,
        op: IntrinsicOp,
        srcs: Vec<Def>,
        num_components: u8,
        indices: Vec<u32>,
        dest: Option<(u8, u8)>,
    ) -> Option<Def> {
        let mut indices = indices;
        indices.resize(op.info().indices.len(), 0);
        let kind = InstrKind::Intrinsic(Intrinsic {
            op,
            srcs,
            num_components,
            indices,
        });
        self.build(kind, dest)
    }

    /// `deref_var &var`.
    pub fn deref_var(&mut self, var: VarId, mode: VarMode, ty: Type) -> Def {
        let kind = InstrKind::Deref(Deref {
            kind: DerefKind::Var(var),
            mode,
            ty,
        });
        self.build(kind, Some((1, 32)))
            .unwrap_or_else(unreachable_def)
    }

    /// A jump.
    pub fn jump(&mut self, kind: JumpKind) -> Instr {
        let instr = self.func.create_instr(InstrKind::Jump(kind), None);
        self.insert(instr)
    }

    /// Splits the block at the cursor: instructions after the cursor move to a new
    /// block inserted after the current block's cf node. Returns (current, new) blocks.
    fn split_at_cursor(&mut self) -> Option<(Block, Block)> {
        let (block, first_moved) = match self.cursor {
            Cursor::Before(i) => (self.func.instr_block(i)?, Some(i)),
            Cursor::After(i) => (self.func.instr_block(i)?, self.func.instr_next(i)),
            Cursor::StartOf(b) => (b, self.func.blocks[b].first),
            Cursor::EndOf(b) => (b, None),
        };
        let node = self.func.blocks[block].cf?;
        let new_block = self.func.insert_block_after(node);
        let mut cur = first_moved;
        while let Some(i) = cur {
            cur = self.func.instr_next(i);
            self.func.remove_instr(i);
            self.func.link_instr_at_end(new_block, i);
        }
        Some((block, new_block))
    }

    /// Inserts `if cond { } else { }` at the cursor, splitting the block. Returns the
    /// (then, else) blocks and leaves the cursor at the start of the block after the if.
    /// Returns `None` when the cursor is in the end block or a detached instruction.
    pub fn insert_if(&mut self, cond: Def) -> Option<(Block, Block)> {
        let (block, after) = self.split_at_cursor()?;
        let node = self.func.blocks[block].cf?;
        let if_node = self.func.insert_cf_after(
            node,
            CfKind::If {
                cond,
                then_list: CfList::default(),
                else_list: CfList::default(),
            },
        );
        let then_block = self.func.push_block(CfParent::Then(if_node));
        let else_block = self.func.push_block(CfParent::Else(if_node));
        self.func.recompute_cfg();
        self.cursor = Cursor::StartOf(after);
        Some((then_block, else_block))
    }

    /// Inserts `loop { }` at the cursor, splitting the block. Returns the body block and
    /// leaves the cursor at the start of the block after the loop.
    pub fn insert_loop(&mut self) -> Option<Block> {
        let (block, after) = self.split_at_cursor()?;
        let node = self.func.blocks[block].cf?;
        let loop_node = self.func.insert_cf_after(
            node,
            CfKind::Loop {
                body: CfList::default(),
            },
        );
        let body = self.func.push_block(CfParent::Loop(loop_node));
        self.func.recompute_cfg();
        self.cursor = Cursor::StartOf(after);
        Some(body)
    }
}

/// The `vecN` opcode gathering `n` scalars (2..=4), as Mesa's `nir_op_vec(n)`.
pub fn vec_opcode(n: u8) -> Option<Opcode> {
    match n {
        2 => Some(Opcode::vec2),
        3 => Some(Opcode::vec3),
        4 => Some(Opcode::vec4),
        _ => None,
    }
}

/// A source reading component `c` of `v` as its component 0.
fn swizzled(v: Def, c: u8) -> AluSrc {
    let mut src = AluSrc::new(v);
    src.swizzle[0] = c;
    src
}

/// A source reading scalar `v` in every one of `n` components (identity for `n == 1`).
fn splat(v: Def, n: u8) -> AluSrc {
    let mut src = AluSrc::new(v);
    if n > 1 {
        src.swizzle = [0; 16];
    }
    src
}

/// Instructions built with a def always get one; this is only reached if the arena
/// misbehaves, and yields a handle the validator will reject rather than panicking.
fn unreachable_def() -> Def {
    use crate::arena::EntityRef;
    Def::new(u32::MAX as usize)
}
