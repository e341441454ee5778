//! Order and duplicate rules of a qualifier list. Before GLSL 4.20 (and without
//! GL_ARB_shading_language_420pack) qualifiers come in a fixed order:
//! `invariant interpolation [layout] centroid storage precision`, each at most
//! once; parameters are `const in/out/inout precision`.
//!
//! Mesa checks this in its right-recursive grammar, so each qualifier is checked
//! against the qualifiers that follow it and the errors of later qualifiers come
//! first; [`check_order`] walks the list backwards to report in the same order.

use crate::ast::{Qualifier, Storage, TypeQualifier};
use crate::diag::Diagnostic;

use super::{QualifierEnv, QualifierError};

/// Category of one qualifier word for the order rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Invariant,
    Precise,
    Interpolation,
    Layout,
    Auxiliary,
    Storage,
    Precision,
    /// Memory qualifiers and `subroutine`: no order rule of their own.
    Other,
}

/// The category of a qualifier.
pub(super) fn kind(qualifier: &Qualifier) -> Kind {
    match qualifier {
        Qualifier::Storage(storage, _) => match storage {
            Storage::Centroid | Storage::Sample | Storage::Patch => Kind::Auxiliary,
            Storage::Const
            | Storage::In
            | Storage::Out
            | Storage::InOut
            | Storage::Uniform
            | Storage::Buffer
            | Storage::Shared
            | Storage::Attribute
            | Storage::Varying => Kind::Storage,
            Storage::Other(_) => Kind::Other,
        },
        Qualifier::Layout(..) => Kind::Layout,
        Qualifier::Precision(..) => Kind::Precision,
        Qualifier::Interpolation(..) => Kind::Interpolation,
        Qualifier::Invariant(_) => Kind::Invariant,
        Qualifier::Precise(_) => Kind::Precise,
        Qualifier::Subroutine(..) => Kind::Other,
    }
}

/// What the qualifiers to the right of the current one contain.
#[derive(Clone, Copy, Debug, Default)]
struct Rest {
    invariant: bool,
    precise: bool,
    interpolation: bool,
    layout: bool,
    auxiliary: bool,
    storage: bool,
    precision: bool,
    /// Any qualifier other than a precision qualifier.
    any_flag: bool,
    /// `in` or `inout` (the ES 3.00 `invariant in` rule).
    input: bool,
    constant: bool,
    direction: bool,
}

impl Rest {
    fn add(&mut self, qualifier: &Qualifier) {
        let k = kind(qualifier);
        match k {
            Kind::Invariant => self.invariant = true,
            Kind::Precise => self.precise = true,
            Kind::Interpolation => self.interpolation = true,
            Kind::Layout => self.layout = true,
            Kind::Auxiliary => self.auxiliary = true,
            Kind::Storage => self.storage = true,
            Kind::Precision => self.precision = true,
            Kind::Other => {}
        }
        if k != Kind::Precision {
            self.any_flag = true;
        }
        if let Qualifier::Storage(storage, _) = qualifier {
            match storage {
                Storage::In | Storage::InOut => {
                    self.input = true;
                    self.direction = true;
                }
                Storage::Out => self.direction = true,
                Storage::Const => self.constant = true,
                _ => {}
            }
        }
    }
}

/// Location of a qualifier.
pub(super) fn qualifier_loc(qualifier: &Qualifier) -> crate::span::SourceLoc {
    match qualifier {
        Qualifier::Storage(_, loc)
        | Qualifier::Layout(_, loc)
        | Qualifier::Precision(_, loc)
        | Qualifier::Interpolation(_, loc)
        | Qualifier::Invariant(loc)
        | Qualifier::Precise(loc)
        | Qualifier::Subroutine(_, loc) => *loc,
    }
}

/// Order and duplicate rules of a declaration's qualifier list.
pub(super) fn check_order(
    list: &TypeQualifier,
    env: &QualifierEnv<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    let relaxed = env.has_420pack();
    let mut rest = Rest::default();
    for qualifier in list.qualifiers.iter().rev() {
        let loc = qualifier_loc(qualifier);
        let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
        match kind(qualifier) {
            Kind::Precise => {
                if rest.precise {
                    error(QualifierError::DuplicatePrecise);
                }
            }
            Kind::Invariant => {
                if rest.invariant {
                    error(QualifierError::DuplicateInvariant);
                }
                if !relaxed && rest.precise {
                    error(QualifierError::InvariantAfterPrecise);
                }
                if env.version.at_least(420, 300) && rest.input {
                    error(QualifierError::InvariantOnInput);
                }
            }
            Kind::Interpolation => {
                if rest.interpolation {
                    error(QualifierError::DuplicateInterpolation);
                }
                if !relaxed && (rest.precise || rest.invariant) {
                    error(QualifierError::InterpolationOrder);
                }
            }
            Kind::Layout => {
                if !relaxed && rest.layout {
                    error(QualifierError::DuplicateLayouts);
                }
            }
            Kind::Auxiliary => {
                if rest.auxiliary {
                    error(QualifierError::DuplicateAuxiliary);
                }
                if !relaxed && (rest.precise || rest.invariant || rest.interpolation || rest.layout)
                {
                    error(QualifierError::AuxiliaryOrder);
                }
            }
            Kind::Storage => {
                if rest.storage {
                    error(QualifierError::DuplicateStorage);
                }
                if !relaxed
                    && (rest.precise
                        || rest.invariant
                        || rest.interpolation
                        || rest.layout
                        || rest.auxiliary)
                {
                    error(QualifierError::StorageOrder);
                }
            }
            Kind::Precision => {
                if rest.precision {
                    error(QualifierError::DuplicatePrecision);
                }
                if !relaxed && rest.any_flag {
                    error(QualifierError::PrecisionOrder);
                }
            }
            Kind::Other => {}
        }
        rest.add(qualifier);
    }
}

/// Order and duplicate rules of a parameter's qualifier list
/// (`[const] [in|out|inout] [precision]`). Words the parameter grammar does not
/// accept are reported by the caller.
pub(super) fn check_parameter_order(
    list: &TypeQualifier,
    env: &QualifierEnv<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    let relaxed = env.has_420pack();
    let mut rest = Rest::default();
    for qualifier in list.qualifiers.iter().rev() {
        let loc = qualifier_loc(qualifier);
        let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
        match qualifier {
            Qualifier::Storage(Storage::Const, _) if rest.constant => {
                error(QualifierError::DuplicateConst);
            }
            Qualifier::Precise(_) if rest.precise => {
                error(QualifierError::DuplicatePrecise);
            }
            Qualifier::Storage(Storage::In | Storage::Out | Storage::InOut, _) => {
                if rest.direction {
                    error(QualifierError::DuplicateDirection);
                }
                if !relaxed && rest.constant {
                    error(QualifierError::DirectionOrder);
                }
            }
            Qualifier::Precision(..) => {
                if rest.precision {
                    error(QualifierError::DuplicatePrecision);
                }
                if !relaxed && rest.any_flag {
                    error(QualifierError::PrecisionOrder);
                }
            }
            _ => {}
        }
        rest.add(qualifier);
    }
}
