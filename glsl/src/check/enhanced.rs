//! The checker's side of GLSL 4.40 enhanced layouts (ARB_enhanced_layouts):
//! evaluates constant-expression layout values before a qualifier list is
//! resolved (§4.4), places the members of uniform blocks that use `offset` or
//! `align` (§4.4.5), and keeps the shader's transform feedback layout — the
//! current buffer, each buffer's stride and the captured byte ranges — to check
//! the `xfb_*` qualifiers (§4.4.2.1). Only the qualifiers are checked: rgl has
//! no transform feedback, so the layout is not recorded for a later stage.

use crate::ast::{self, ExprKind as AstExpr, Qualifier, TypeQualifier};
use crate::builtins::variables::limits::{
    MAX_TRANSFORM_FEEDBACK_BUFFERS, MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
};
use crate::diag::Diagnostic;
use crate::hir::{BlockPacking, MatrixLayout, ScalarValue};
use crate::span::SourceLoc;
use crate::types::{StructField, Type};

use super::lower_ctx::first_scalar;
use super::qualifiers::{
    self, DeclContext, LayoutQualifiers, LayoutValue, PlacedMember, QualifierError,
    ResolvedQualifiers,
};
use super::Checker;

const BUFFERS: usize = MAX_TRANSFORM_FEEDBACK_BUFFERS as usize;

/// One output range captured into a transform feedback buffer.
#[derive(Clone, Debug)]
struct Capture {
    buffer: u32,
    start: u32,
    end: u32,
    name: String,
    loc: SourceLoc,
}

/// The transform feedback layout declared so far in a shader.
#[derive(Clone, Debug, Default)]
pub struct XfbState {
    /// Buffer of outputs without `xfb_buffer` (`layout(xfb_buffer = N) out;`).
    current_buffer: u32,
    /// The `xfb_stride` of each buffer, once declared.
    strides: [Option<u32>; BUFFERS],
    /// Every captured range, in declaration order.
    captures: Vec<Capture>,
}

impl Checker<'_> {
    /// Resolves a qualifier list in `context` (see
    /// [`qualifiers::resolve_qualifiers`]), first evaluating its non-literal
    /// layout values when enhanced layouts allow them.
    pub fn resolve_qualifiers(
        &mut self,
        qualifier: Option<&TypeQualifier>,
        context: DeclContext,
    ) -> (ResolvedQualifiers, Vec<Diagnostic>) {
        self.evaluate_layout_values(qualifier);
        let env = self.qualifier_env();
        qualifiers::resolve_qualifiers(qualifier, context, &env)
    }

    fn evaluate_layout_values(&mut self, qualifier: Option<&TypeQualifier>) {
        self.layout_values.clear();
        let Some(list) = qualifier else { return };
        if !self.qualifier_env().has_enhanced_layouts() {
            return;
        }
        for q in &list.qualifiers {
            let Qualifier::Layout(items, _) = q else {
                continue;
            };
            for item in items {
                let Some(expr) = item.value.as_deref() else {
                    continue;
                };
                if matches!(expr.kind, AstExpr::IntConst(_) | AstExpr::UintConst(_)) {
                    continue;
                }
                let value = self.layout_value(expr);
                self.layout_values.push((expr.loc, value));
            }
        }
    }

    /// GLSL 4.40 §4.4: a layout value is an integral constant expression.
    fn layout_value(&mut self, expr: &ast::Expr) -> LayoutValue {
        let Some((value, ty)) = self.constant_expression(expr) else {
            return LayoutValue::NotConstant;
        };
        if ty.is_error() {
            return LayoutValue::NotConstant;
        }
        if !ty.is_scalar() || !ty.scalar_kind().is_some_and(|k| k.is_integer()) {
            return LayoutValue::NotIntegral;
        }
        match value.as_ref().and_then(first_scalar) {
            Some(ScalarValue::Int(i)) => LayoutValue::Int(i64::from(i)),
            Some(ScalarValue::Uint(u)) => LayoutValue::Int(i64::from(u as i32)),
            _ => LayoutValue::NotConstant,
        }
    }

    /// Member rules of a shader storage block: only the last member may be an
    /// unsized array (ARB_shader_storage_buffer_object, GLSL 4.30 §4.3.7);
    /// `offset`/`align` (GLSL 4.40 §4.4.5) need std140 or std430, and the
    /// members are placed with that layout's rules.
    pub fn check_buffer_block_members(
        &mut self,
        block: &ast::Block,
        layout: &LayoutQualifiers,
        packing: BlockPacking,
        matrix_layout: MatrixLayout,
        fields: &mut [StructField],
    ) {
        // GLSL ES 3.10 §4.1.9: "If an array is declared as the last member of
        // a shader storage block and the size is not specified at
        // compile-time, it is sized at run-time. In all other cases, arrays
        // are sized only at compile-time." Desktop GLSL (4.30 §4.1.9) lets the
        // other members be implicitly sized: the linker sizes them from the
        // highest constant index (link/src/linker/block_sizes.rs), as Mesa's
        // array sizing in the linker does.
        let last = fields.len().saturating_sub(1);
        for (i, field) in fields.iter().enumerate() {
            if self.version.is_es() && i != last && matches!(field.ty, Type::Array(_, None)) {
                self.error_at(
                    block.name.loc,
                    QualifierError::UnsizedNotLast(field.name.clone()),
                );
            }
        }
        self.place_uniform_block(block, layout, packing, matrix_layout, fields);
    }

    /// Places the members of a uniform or shader storage block that uses
    /// `offset` or `align` (GLSL 4.40 §4.4.5) and stores each member's std140
    /// (or, for a std430 buffer block, std430) offset in its qualifiers;
    /// reports those qualifiers in a block that is neither. Uniform blocks
    /// cannot be std430 (rejected with the qualifiers).
    pub fn place_uniform_block(
        &mut self,
        block: &ast::Block,
        layout: &LayoutQualifiers,
        packing: BlockPacking,
        matrix_layout: MatrixLayout,
        fields: &mut [StructField],
    ) {
        let members_explicit = fields
            .iter()
            .any(|f| f.qualifiers.offset.is_some() || f.qualifiers.align.is_some());
        if layout.align.is_none() && !members_explicit {
            return;
        }
        if !matches!(packing, BlockPacking::Std140 | BlockPacking::Std430) {
            let word = if fields.iter().any(|f| f.qualifiers.offset.is_some()) {
                "offset"
            } else {
                "align"
            };
            self.error_at(block.name.loc, QualifierError::ExplicitLayoutPacking(word));
            return;
        }
        let member_loc = |name: &str| {
            block
                .fields
                .iter()
                .flat_map(|f| f.names.iter())
                .find(|(ident, _)| *ident.name == *name)
                .map_or(block.name.loc, |(ident, _)| ident.loc)
        };
        let members: Vec<PlacedMember<'_>> = fields
            .iter()
            .map(|f| {
                let matrix = match f.qualifiers.matrix_layout {
                    MatrixLayout::Inherited => matrix_layout,
                    other => other,
                };
                PlacedMember {
                    name: &f.name,
                    ty: &f.ty,
                    qualifiers: &f.qualifiers,
                    row_major: matrix == MatrixLayout::RowMajor,
                    loc: member_loc(&f.name),
                }
            })
            .collect();
        let mut diags = Vec::new();
        let offsets = qualifiers::place_block_members(
            &members,
            layout.align,
            packing == BlockPacking::Std430,
            &self.module.structs,
            &mut diags,
        );
        self.extend_diags(diags);
        if let Some(offsets) = offsets {
            for (field, offset) in fields.iter_mut().zip(offsets) {
                field.qualifiers.offset = Some(offset);
            }
        }
    }

    /// GLSL 4.40 §4.4.1: "If a block has no block-level location layout
    /// qualifier, it is required that either all or none of its members have
    /// a location layout qualifier, or a compile-time error results."
    pub fn check_member_locations(
        &mut self,
        block: &ast::Block,
        layout: &LayoutQualifiers,
        fields: &[StructField],
        per_vertex: bool,
    ) {
        if fields.iter().all(|f| f.qualifiers.location.is_none()) {
            return;
        }
        // GLSL 4.50 §4.4.1: a block array needing locations per element
        // takes its location on the block only; for arrayed interfaces
        // (geometry inputs) the per-vertex outer array is stripped first.
        let dimensions = block
            .instance_array
            .as_ref()
            .map_or(0, |a| a.dimensions.len());
        if dimensions > usize::from(per_vertex) {
            self.error_at(
                block.name.loc,
                QualifierError::BlockArrayMemberLocation(block.name.name.to_string()),
            );
            return;
        }
        if layout.location.is_some() {
            return;
        }
        if let Some(missing) = fields.iter().find(|f| f.qualifiers.location.is_none()) {
            let loc = block
                .fields
                .iter()
                .flat_map(|f| f.names.iter())
                .find(|(ident, _)| *ident.name == *missing.name)
                .map_or(block.name.loc, |(ident, _)| ident.loc);
            self.error_at(
                loc,
                QualifierError::BlockMemberLocationMissing(missing.name.clone()),
            );
        }
    }

    fn error_at(&mut self, loc: SourceLoc, error: QualifierError) {
        self.extend_diags(vec![Diagnostic::error(loc, error)]);
    }

    /// `layout(xfb_buffer = N, xfb_stride = S) out;` (already checked for its
    /// form): sets the current buffer and the buffer's stride.
    pub fn xfb_default_output(&mut self, layout: &LayoutQualifiers, loc: SourceLoc) {
        if let Some(buffer) = layout.xfb_buffer {
            self.xfb.current_buffer = buffer;
        }
        if let Some(stride) = layout.xfb_stride {
            let buffer = layout.xfb_buffer.unwrap_or(self.xfb.current_buffer);
            self.xfb_stride(buffer, stride, loc);
        }
    }

    /// An output variable with `xfb_*` qualifiers.
    pub fn xfb_output_variable(
        &mut self,
        layout: &LayoutQualifiers,
        name: &str,
        ty: &Type,
        loc: SourceLoc,
    ) {
        let buffer = layout.xfb_buffer.unwrap_or(self.xfb.current_buffer);
        if let Some(stride) = layout.xfb_stride {
            self.xfb_stride(buffer, stride, loc);
        }
        if let Some(offset) = layout.xfb_offset {
            self.xfb_capture(buffer, offset, ty, name, loc);
        }
    }

    /// An output block: its members take the block's buffer (a member's own
    /// `xfb_buffer` must match it); with a block `xfb_offset` every member is
    /// captured in order, otherwise only members with their own `xfb_offset`.
    /// Each element of a block array follows the previous one.
    pub fn xfb_output_block(
        &mut self,
        layout: &LayoutQualifiers,
        fields: &[StructField],
        elements: u32,
        loc: SourceLoc,
    ) {
        let buffer = layout.xfb_buffer.unwrap_or(self.xfb.current_buffer);
        if let Some(stride) = layout.xfb_stride {
            self.xfb_stride(buffer, stride, loc);
        }
        for f in fields {
            if let Some(member) = f.qualifiers.xfb_buffer.filter(|&b| b != buffer) {
                self.error_at(
                    loc,
                    QualifierError::XfbBufferMemberMismatch {
                        member,
                        block: buffer,
                    },
                );
            }
        }
        if layout.xfb_offset.is_none() && fields.iter().all(|f| f.qualifiers.xfb_offset.is_none()) {
            return;
        }
        let mut cursor = layout.xfb_offset;
        for element in 0..elements.max(1) {
            for f in fields {
                let Some(offset) = f.qualifiers.xfb_offset.or(cursor) else {
                    continue;
                };
                let size = self.xfb_capture(buffer, offset, &f.ty, &f.name, loc);
                if cursor.is_some() {
                    cursor = size.and_then(|s| offset.checked_add(s));
                }
            }
            if element == 0 && cursor.is_none() {
                // Members placed only by their own offsets cannot repeat.
                break;
            }
        }
    }

    fn xfb_stride(&mut self, buffer: u32, stride: u32, loc: SourceLoc) {
        let Some(slot) = self.xfb.strides.get_mut(buffer as usize) else {
            return;
        };
        match *slot {
            Some(old) if old != stride => self.error_at(
                loc,
                QualifierError::XfbStrideMismatch {
                    buffer,
                    old,
                    new: stride,
                },
            ),
            _ => *slot = Some(stride),
        }
    }

    /// Records `[offset, offset + size)` of buffer `buffer`; returns the size.
    fn xfb_capture(
        &mut self,
        buffer: u32,
        offset: u32,
        ty: &Type,
        name: &str,
        loc: SourceLoc,
    ) -> Option<u32> {
        if ty.is_error() {
            return None;
        }
        if !offset.is_multiple_of(4) {
            self.error_at(loc, QualifierError::XfbOffsetAlignment(offset));
            return None;
        }
        let Some(size) = qualifiers::xfb_size(ty, &self.module.structs) else {
            self.error_at(loc, QualifierError::XfbOffsetUnsized);
            return None;
        };
        let end = offset.checked_add(size)?;
        let overlap = self
            .xfb
            .captures
            .iter()
            .find(|c| c.buffer == buffer && c.start < end && offset < c.end)
            .map(|c| c.name.clone());
        if let Some(other) = overlap {
            self.error_at(
                loc,
                QualifierError::XfbOverlap {
                    name: name.to_string(),
                    offset,
                    other,
                    buffer,
                },
            );
        }
        self.xfb.captures.push(Capture {
            buffer,
            start: offset,
            end,
            name: name.to_string(),
            loc,
        });
        Some(size)
    }

    /// End of the shader: every captured range fits its buffer's stride, and
    /// an implicit stride (the end of the last range) stays within
    /// gl_MaxTransformFeedbackInterleavedComponents * 4 bytes.
    pub fn finish_xfb(&mut self) {
        let limit = MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS as u32 * 4;
        let captures = std::mem::take(&mut self.xfb.captures);
        let mut implicit: [Option<(u32, SourceLoc)>; BUFFERS] = [None; BUFFERS];
        for c in &captures {
            let Some(&stride) = self.xfb.strides.get(c.buffer as usize) else {
                continue;
            };
            match stride {
                Some(stride) if c.end > stride => self.error_at(
                    c.loc,
                    QualifierError::XfbStrideOverflow {
                        name: c.name.clone(),
                        offset: c.start,
                        size: c.end - c.start,
                        stride,
                        buffer: c.buffer,
                    },
                ),
                Some(_) => {}
                None => {
                    let slot = &mut implicit[c.buffer as usize];
                    if slot.is_none_or(|(end, _)| c.end > end) {
                        *slot = Some((c.end, c.loc));
                    }
                }
            }
        }
        for (buffer, slot) in implicit.iter().enumerate() {
            if let Some((end, loc)) = *slot {
                if end > limit {
                    self.error_at(
                        loc,
                        QualifierError::XfbImplicitStrideTooLarge {
                            buffer: buffer as u32,
                            value: end,
                            limit,
                        },
                    );
                }
            }
        }
        self.xfb.captures = captures;
    }
}
