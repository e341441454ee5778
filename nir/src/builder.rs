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
}

impl<'f> Builder<'f> {
    /// A builder at `cursor`.
    pub fn new(func: &'f mut FunctionImpl, cursor: Cursor) -> Builder<'f> {
        Builder { func, cursor }
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
    pub fn alu(&mut self, op: Opcode, srcs: Vec<AluSrc>, num_components: u8) -> Def {
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
            exact: false,
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
        let srcs = srcs.iter().map(|d| AluSrc::new(*d)).collect();
        self.alu(op, srcs, comps)
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

/// Instructions built with a def always get one; this is only reached if the arena
/// misbehaves, and yields a handle the validator will reject rather than panicking.
fn unreachable_def() -> Def {
    use crate::arena::EntityRef;
    Def::new(u32::MAX as usize)
}
