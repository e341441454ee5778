//! Intrastage linking (Mesa's `link_intrastage_shaders`, `linker.cpp`): the compilation units of one stage become one
//! `hir::Module`. Arenas are copied with handle remapping (structs deduplicated,
//! globals unified by name after cross-validation, function signatures unified by
//! parameter types so a prototype in one unit resolves to the body in another),
//! then `main` is located, reachable calls are resolved, static recursion is
//! rejected, unreachable functions are dropped from the item list, geometry inputs
//! are sized from the input primitive and implicitly sized arrays from their
//! highest constant index.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::borrow::Cow;
use std::collections::VecDeque;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{
    Constant, Expr, ExprKind, Function, Item, Module, Signature, Stmt, Texture, VarMode, Variable,
    GLOBAL_INIT_FUNCTION,
};
use rgl_glsl::types::{StructArena, StructType, Type};
use rgl_glsl::{Stage, Version};

use super::types::{remap_type, type_name, types_match};
use super::usage::{self, SigRef};
use crate::error::LinkError;

/// Mesa's mode string of a variable in link messages.
pub fn mode_string(var: &Variable) -> &'static str {
    match var.mode {
        VarMode::Uniform => "uniform",
        VarMode::ShaderIn => "shader input",
        VarMode::ShaderOut => "shader output",
        VarMode::Auto | VarMode::Temporary => {
            if var.read_only {
                "global constant"
            } else {
                "global variable"
            }
        }
        VarMode::SystemValue => "shader input",
        VarMode::Shared => "shared variable",
        VarMode::ShaderStorage => "buffer variable",
        _ => "local variable",
    }
}

/// What cross-validation decided about a second declaration of a global.
#[derive(Debug, Default)]
pub struct Adopt {
    /// The declarations differ in an unrecoverable way (an error was reported).
    pub failed: bool,
    /// The existing declaration should take this (sized) type.
    pub ty: Option<Type>,
    /// The existing declaration should take this explicit location.
    pub location: Option<i32>,
    /// The existing declaration should take this binding.
    pub binding: Option<i32>,
    /// The existing declaration should take this initializer.
    pub initializer: Option<Constant>,
}

/// Mesa's `cross_validate_globals` for one pair of declarations; `a` was seen
/// first. Reports errors into `errors` (and precision warnings into `warnings`).
#[allow(clippy::too_many_arguments)]
pub fn cross_validate(
    a: &Variable,
    sa: &StructArena,
    b: &Variable,
    sb: &StructArena,
    version: Version,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) -> Adopt {
    let mut adopt = Adopt::default();
    let mode = mode_string(b);
    let name = b.name.clone();
    if !types_match(&a.ty, sa, &b.ty, sb) {
        let mut reconciled = false;
        if let (Type::Array(ea, la), Type::Array(eb, lb)) = (&a.ty, &b.ty) {
            if types_match(ea, sa, eb, sb) && (la.is_none() || lb.is_none()) {
                reconciled = true;
                if let Some(n) = lb {
                    if *n as i64 <= a.max_array_access as i64 {
                        errors.push(LinkError::ArrayIndexTooLarge {
                            mode,
                            name: name.clone(),
                            ty: type_name(&b.ty, sb),
                            index: a.max_array_access,
                        });
                    }
                    adopt.ty = Some(b.ty.clone());
                } else if let Some(n) = la {
                    if *n as i64 <= b.max_array_access as i64 {
                        errors.push(LinkError::ArrayIndexTooLarge {
                            mode,
                            name: name.clone(),
                            ty: type_name(&a.ty, sa),
                            index: b.max_array_access,
                        });
                    }
                }
            }
        }
        if !reconciled {
            if let (Some(ba), Some(bb)) = (a.interface_block, b.interface_block) {
                let block = sb.get(bb).map(|s| s.name.clone()).unwrap_or_default();
                let _ = ba;
                errors.push(LinkError::InterfaceBlockMismatch(block));
            } else {
                errors.push(LinkError::GlobalTypeMismatch {
                    mode,
                    name,
                    ty: type_name(&b.ty, sb),
                    other: type_name(&a.ty, sa),
                });
            }
            adopt.failed = true;
            return adopt;
        }
    }
    match (a.interface_block, b.interface_block) {
        (Some(ba), Some(bb)) => {
            let (ta, tb) = (Type::Struct(ba), Type::Struct(bb));
            if !types_match(&ta, sa, &tb, sb) {
                let block = sb.get(bb).map(|s| s.name.clone()).unwrap_or_default();
                errors.push(LinkError::InterfaceBlockMismatch(block));
                adopt.failed = true;
                return adopt;
            }
        }
        (None, None) => {}
        (x, y) => {
            let h = x.or(y);
            let block = h
                .and_then(|h| if x.is_some() { sa.get(h) } else { sb.get(h) })
                .map(|s| s.name.clone())
                .unwrap_or_default();
            errors.push(LinkError::InterfaceBlockMismatch(block));
            adopt.failed = true;
            return adopt;
        }
    }
    if !b.is_builtin {
        if let Some(lb) = b.location {
            if let Some(la) = a.location {
                if la != lb {
                    errors.push(LinkError::LocationMismatch { mode, name });
                    adopt.failed = true;
                    return adopt;
                }
            } else {
                adopt.location = Some(lb);
            }
        }
        // GLSL 4.40 §4.4.1: the component is part of the declaration too.
        if a.location.is_some() && b.location.is_some() && a.component != b.component {
            errors.push(LinkError::ComponentMismatch { mode, name });
            adopt.failed = true;
            return adopt;
        }
    }
    if let Some(bb) = b.binding {
        match a.binding {
            Some(ba) if ba != bb => {
                errors.push(LinkError::BindingMismatch { mode, name });
                adopt.failed = true;
                return adopt;
            }
            Some(_) => {}
            None => adopt.binding = Some(bb),
        }
    }
    let init_a = a
        .constant_initializer
        .as_ref()
        .or(a.constant_value.as_ref());
    let init_b = b
        .constant_initializer
        .as_ref()
        .or(b.constant_value.as_ref());
    if let Some(ib) = init_b {
        match init_a {
            Some(ia) if ia != ib => {
                errors.push(LinkError::InitializerMismatch { mode, name });
                adopt.failed = true;
                return adopt;
            }
            Some(_) => {}
            None => adopt.initializer = Some(ib.clone()),
        }
    }
    if a.invariant != b.invariant {
        errors.push(LinkError::QualifierMismatch {
            mode,
            name,
            qualifier: "invariant",
        });
        adopt.failed = true;
        return adopt;
    }
    if a.centroid != b.centroid {
        errors.push(LinkError::QualifierMismatch {
            mode,
            name,
            qualifier: "centroid",
        });
        adopt.failed = true;
        return adopt;
    }
    if version.is_es() && a.interface_block.is_none() && a.precision != b.precision {
        if (a.used && b.used) || version.number >= 300 {
            errors.push(LinkError::QualifierMismatch {
                mode,
                name,
                qualifier: "precision",
            });
            adopt.failed = true;
        } else {
            warnings.push(format!(
                "declarations for {mode} `{name}` have mismatching precision qualifiers"
            ));
        }
    }
    adopt
}

/// How a unit declares an interface block: its instance name, if any, and
/// whether the instance is an array.
#[derive(Clone, Debug, PartialEq)]
struct BlockShape {
    instance: Option<String>,
    array: bool,
}

/// Interface blocks by (mode, block name): struct, instance array length and
/// declaration shape of the first declaration.
type BlockDefs = HashMap<(VarMode, String), (Handle<StructType>, Option<u32>, BlockShape)>;

/// The merged module of a stage plus what later phases need.
pub struct StageModule {
    /// The linked module.
    pub module: Module,
    /// Its version (highest of the units).
    pub version: Version,
}

/// Merges the units of one stage and runs the per-stage finishing steps. Returns
/// `None` when the stage cannot be used further (no `main`).
pub fn link_stage(
    stage: Stage,
    mut units: Vec<Cow<'_, Module>>,
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) -> Option<StageModule> {
    let version = units
        .iter()
        .filter_map(|m| m.version)
        .max_by_key(|v| v.number)
        .unwrap_or(Version::DEFAULT);
    let mut module = match units.pop() {
        Some(only) if units.is_empty() => only.into_owned(),
        last => {
            units.extend(last);
            let refs: Vec<&Module> = units.iter().map(|u| u.as_ref()).collect();
            merge_units(stage, version, &refs, errors, warnings)
        }
    };
    module.version = Some(version);
    module.stage = Some(stage);
    let Some(main) = usage::find_main(&module) else {
        errors.push(LinkError::MissingMain(stage.name()));
        return None;
    };
    let _ = main;
    resolve_calls(&module, errors);
    if stage == Stage::Geometry {
        size_geometry_inputs(&mut module, errors);
    }
    super::block_sizes::size_block_members(&mut module, errors);
    size_implicit_arrays(&mut module);
    check_builtin_array_sizes(&module, errors);
    drop_unreachable_functions(&mut module);
    Some(StageModule { module, version })
}

fn merge_units(
    stage: Stage,
    version: Version,
    units: &[&Module],
    errors: &mut Vec<LinkError>,
    warnings: &mut Vec<String>,
) -> Module {
    let mut out = Module {
        version: Some(version),
        stage: Some(stage),
        ..Module::default()
    };
    let mut global_names: HashMap<String, Handle<Variable>> = HashMap::default();
    let mut func_names: HashMap<String, Handle<Function>> = HashMap::default();
    let mut multiply_defined: HashSet<String> = HashSet::default();
    // Bodies of the global-initializer functions of units without `main`; they
    // run at the start of the linked `main`, in unit order.
    let mut init_bodies: Vec<Handle<Stmt>> = Vec::new();
    // gl_FragCoord layout: (redeclared with a layout, origin_upper_left,
    // pixel_center_integer) of the units seen so far, and whether any used it.
    let mut frag_coord: Option<(bool, bool)> = None;
    let mut frag_coord_used = false;
    let mut frag_coord_reported = false;
    // gl_FragDepth depth layout of the first unit that redeclares or uses it.
    let mut frag_depth: Option<Option<rgl_glsl::hir::DepthLayout>> = None;
    let mut frag_depth_reported = false;
    // Interface blocks by (mode, block name): struct and instance array length.
    let mut block_defs: BlockDefs = HashMap::default();
    let mut block_reported: HashSet<String> = HashSet::default();
    // Initialized globals by name: the constant value of the first unit's
    // initializer (`None` if it is not constant).
    let mut init_kinds: HashMap<String, Option<Constant>> = HashMap::default();
    let mut init_reported: HashSet<String> = HashSet::default();
    check_per_vertex_units(units, errors);
    // Subroutine indices and locations are given per shader (see
    // `rgl_glsl::hir::subroutine`): one shader of a stage may declare them.
    let mut with_subroutines = units.iter().filter(|u| !u.subroutines.is_empty());
    if let Some(first) = with_subroutines.next() {
        if with_subroutines.next().is_some() {
            errors.push(LinkError::SubroutinesInSeveralShaders(stage.name()));
        }
        out.subroutines = first.subroutines.clone();
    }
    for unit in units {
        merge_layout(&mut out, unit, errors);
        if stage == Stage::Fragment {
            let uses = usage::globals(unit)
                .iter()
                .any(|v| unit.variables[*v].name == "gl_FragCoord");
            let l = &unit.layout;
            let redeclares =
                l.frag_coord_redeclared || l.origin_upper_left || l.pixel_center_integer;
            let mine = (l.origin_upper_left, l.pixel_center_integer);
            let conflict = match frag_coord {
                Some(prev) => (redeclares && prev != mine) || (!redeclares && uses),
                None => redeclares && frag_coord_used,
            };
            if conflict && !frag_coord_reported {
                errors.push(LinkError::FragCoordLayoutConflict);
                frag_coord_reported = true;
            }
            if redeclares && frag_coord.is_none() {
                frag_coord = Some(mine);
            }
            frag_coord_used |= uses;
            // ARB/AMD_conservative_depth: "If gl_FragDepth is redeclared in
            // any fragment shader in a program, it must be redeclared in all
            // fragment shaders in that program that have static assignments
            // to gl_FragDepth. All redeclarations [...] must have the same set
            // of qualifiers." (Mesa's `cross_validate_globals`.)
            let depth_uses = usage::globals(unit)
                .iter()
                .any(|v| unit.variables[*v].name == "gl_FragDepth");
            let mine = l.frag_depth_layout;
            if depth_uses || mine.is_some() {
                match frag_depth {
                    Some(first) if first != mine && !frag_depth_reported => {
                        errors.push(LinkError::FragDepthLayoutConflict);
                        frag_depth_reported = true;
                    }
                    Some(_) => {}
                    None => frag_depth = Some(mine),
                }
            }
        }
        for ext in &unit.enabled_extensions {
            if !out.enabled_extensions.contains(ext) {
                out.enabled_extensions.push(ext.clone());
            }
        }
        // Structs: deduplicate identical bodies.
        let mut struct_map: Vec<Handle<StructType>> = Vec::with_capacity(unit.structs.len());
        for (_, st) in unit.structs.iter() {
            let mut body = st.clone();
            for f in &mut body.fields {
                f.ty = remap_type(&f.ty, &struct_map);
            }
            let existing = out
                .structs
                .iter()
                .find(|(_, s)| **s == body)
                .map(|(h, _)| h);
            struct_map.push(existing.unwrap_or_else(|| out.structs.append(body)));
        }
        // Variables.
        let unit_globals: HashSet<Handle<Variable>> = usage::globals(unit).into_iter().collect();
        let initialized: HashMap<Handle<Variable>, Option<Constant>> =
            unit.initialized_globals.iter().cloned().collect();
        let mut var_map: Vec<Handle<Variable>> = Vec::with_capacity(unit.variables.len());
        let mut new_globals: HashSet<Handle<Variable>> = HashSet::default();
        for (h, v) in unit.variables.iter() {
            let mut nv = v.clone();
            nv.ty = remap_type(&nv.ty, &struct_map);
            nv.interface_block = nv
                .interface_block
                .and_then(|b| struct_map.get(b.index()).copied());
            let is_global = unit_globals.contains(&h) && v.mode != VarMode::Temporary;
            if is_global && !nv.is_builtin {
                if let Some(b) = nv.interface_block {
                    let name = out
                        .structs
                        .get(b)
                        .map(|s| s.name.clone())
                        .unwrap_or_default();
                    let is_instance =
                        matches!(super::types::without_array(&nv.ty), Type::Struct(h) if *h == b);
                    let len = if is_instance { nv.ty.array_len() } else { None };
                    // Mesa's intrastage rules: instance names are present in
                    // all declarations or in none (and equal, except for
                    // uniforms), and an instance array matches only arrays.
                    let shape = BlockShape {
                        instance: is_instance.then(|| nv.name.clone()),
                        array: is_instance && matches!(nv.ty, Type::Array(..)),
                    };
                    let key = (nv.mode, name.clone());
                    match block_defs.get(&key) {
                        Some((pb, plen, pshape)) => {
                            let sizes_differ = plen.is_some() && len.is_some() && *plen != len;
                            let shapes_differ = pshape.array != shape.array
                                || pshape.instance.is_some() != shape.instance.is_some()
                                || (nv.mode != VarMode::Uniform
                                    && pshape.instance != shape.instance);
                            if (*pb != b || sizes_differ || shapes_differ)
                                && block_reported.insert(name.clone())
                            {
                                errors.push(LinkError::InterfaceBlockMismatch(name));
                            }
                            if plen.is_none() && len.is_some() {
                                let (pb, pshape) = (*pb, pshape.clone());
                                block_defs.insert(key, (pb, len, pshape));
                            }
                        }
                        None => {
                            block_defs.insert(key, (b, len, shape));
                        }
                    }
                }
            }
            if is_global {
                // Mesa: a global initialized in two units needs constant
                // initializers in both (equal ones, checked below).
                if let Some(init) = initialized.get(&h) {
                    match (init_kinds.get(&v.name), init) {
                        (Some(Some(a)), Some(b)) => {
                            // `const` globals are compared by cross_validate.
                            if a != b
                                && nv.constant_initializer.is_none()
                                && init_reported.insert(v.name.clone())
                            {
                                errors.push(LinkError::InitializerMismatch {
                                    mode: mode_string(&nv),
                                    name: v.name.clone(),
                                });
                            }
                        }
                        (Some(_), _) => {
                            if init_reported.insert(v.name.clone()) {
                                errors
                                    .push(LinkError::MultipleNonConstInitializers(v.name.clone()));
                            }
                        }
                        (None, _) => {
                            init_kinds.insert(v.name.clone(), init.clone());
                        }
                    }
                }
            }
            if is_global {
                if let Some(&existing) = global_names.get(&v.name) {
                    let adopt = {
                        let a = &out.variables[existing];
                        cross_validate(
                            a,
                            &out.structs,
                            &nv,
                            &out.structs,
                            version,
                            errors,
                            warnings,
                        )
                    };
                    let a = &mut out.variables[existing];
                    if let Some(ty) = adopt.ty {
                        a.ty = ty;
                    }
                    if let Some(l) = adopt.location {
                        a.location = Some(l);
                    }
                    if let Some(b) = adopt.binding {
                        a.binding = Some(b);
                    }
                    if let Some(init) = adopt.initializer {
                        a.constant_initializer = Some(init);
                    }
                    a.max_array_access = a.max_array_access.max(nv.max_array_access);
                    a.used |= nv.used;
                    a.assigned |= nv.assigned;
                    var_map.push(existing);
                    continue;
                }
            }
            let loc = unit.var_locs.get(h);
            let nh = out.variables.append(nv);
            out.var_locs.insert(nh, loc);
            if is_global {
                global_names.insert(v.name.clone(), nh);
                new_globals.insert(nh);
            }
            var_map.push(nh);
        }
        let expr_offset = out.exprs.len();
        let stmt_offset = out.stmts.len();
        let map_var = |v: Handle<Variable>| var_map.get(v.index()).copied().unwrap_or(v);
        let map_expr = |e: Handle<Expr>| Handle::from_index(e.index() + expr_offset);
        let map_stmt = |s: Handle<Stmt>| Handle::from_index(s.index() + stmt_offset);
        // Functions.
        let mut sig_map: HashMap<(usize, usize), SigRef> = HashMap::default();
        let mut new_funcs: HashSet<Handle<Function>> = HashSet::default();
        for (fh, f) in unit.functions.iter() {
            if f.name == GLOBAL_INIT_FUNCTION {
                for sig in &f.signatures {
                    init_bodies.extend(sig.body.iter().map(|s| map_stmt(*s)));
                }
                continue;
            }
            let target = match func_names.get(&f.name) {
                Some(t) => *t,
                None => {
                    let t = out.functions.append(Function {
                        name: f.name.clone(),
                        signatures: Vec::new(),
                    });
                    func_names.insert(f.name.clone(), t);
                    new_funcs.insert(t);
                    t
                }
            };
            for (i, sig) in f.signatures.iter().enumerate() {
                let new_sig = Signature {
                    return_type: remap_type(&sig.return_type, &struct_map),
                    parameters: sig.parameters.iter().map(|p| map_var(*p)).collect(),
                    body: sig.body.iter().map(|s| map_stmt(*s)).collect(),
                    is_defined: sig.is_defined,
                    builtin: sig.builtin,
                };
                let param_types: Vec<Type> = new_sig
                    .parameters
                    .iter()
                    .map(|p| out.variables[*p].ty.clone())
                    .collect();
                let found = out.functions[target].signatures.iter().position(|s| {
                    s.parameters.len() == param_types.len()
                        && s.parameters
                            .iter()
                            .zip(&param_types)
                            .all(|(p, t)| out.variables[*p].ty == *t)
                });
                match found {
                    None => {
                        out.functions[target].signatures.push(new_sig);
                        let j = out.functions[target].signatures.len() - 1;
                        sig_map.insert((fh.index(), i), (target, j));
                    }
                    Some(j) => {
                        let old = &mut out.functions[target].signatures[j];
                        let old_body = old.is_defined && old.builtin.is_none();
                        let new_body = new_sig.is_defined && new_sig.builtin.is_none();
                        if old_body && new_body {
                            if multiply_defined.insert(f.name.clone()) {
                                errors.push(LinkError::MultiplyDefined(f.name.clone()));
                            }
                        } else if new_sig.is_defined && !old.is_defined {
                            *old = new_sig;
                        }
                        sig_map.insert((fh.index(), i), (target, j));
                    }
                }
            }
        }
        // Expressions and statements, in arena order so offsets stay valid.
        for (eh, e) in unit.exprs.iter() {
            let ne = remap_expr(e, &struct_map, &map_var, &map_expr);
            let nh = out.exprs.append(ne);
            out.expr_locs.insert(nh, unit.expr_locs.get(eh));
        }
        for (sh, s) in unit.stmts.iter() {
            let ns = remap_stmt(s, &map_var, &map_expr, &map_stmt, &sig_map);
            let nh = out.stmts.append(ns);
            out.stmt_locs.insert(nh, unit.stmt_locs.get(sh));
        }
        for item in &unit.items {
            match item {
                Item::Variable(v) => {
                    let nv = map_var(*v);
                    if new_globals.contains(&nv) {
                        out.items.push(Item::Variable(nv));
                    }
                }
                Item::Function(f) => {
                    let target = unit
                        .functions
                        .get(*f)
                        .and_then(|func| func_names.get(&func.name).copied());
                    if let Some(t) = target {
                        if new_funcs.remove(&t) {
                            out.items.push(Item::Function(t));
                        }
                    }
                }
            }
        }
        // Functions the unit never listed as items still need an entry.
        let mut rest: Vec<_> = new_funcs.into_iter().collect();
        rest.sort();
        out.items.extend(rest.into_iter().map(Item::Function));
    }
    if let Some(main) = usage::find_main(&out) {
        if let Some(sig) = out.functions[main.0].signatures.get_mut(main.1) {
            init_bodies.append(&mut sig.body);
            sig.body = init_bodies;
        }
    }
    out
}

/// GLSL 4.10 §7.1 (Mesa applies it to 1.50's `gl_PerVertex`): every
/// compilation unit of a stage that uses a member of a built-in block must
/// redeclare that block the same way as the others do; a unit that uses a
/// member without redeclaring the block, when another unit redeclares it, is a
/// link error too. Checked for the output block and for the `gl_in` input.
fn check_per_vertex_units(units: &[&Module], errors: &mut Vec<LinkError>) {
    const OUT_MEMBERS: [&str; 4] = [
        "gl_Position",
        "gl_PointSize",
        "gl_ClipDistance",
        "gl_ClipVertex",
    ];
    type Redeclared<'a> = &'a Option<Vec<(String, Type)>>;
    let uses = |m: &Module, mode: VarMode, names: &[&str]| {
        usage::globals(m).into_iter().any(|v| {
            let var = &m.variables[v];
            var.is_builtin && var.mode == mode && names.contains(&var.name.as_str())
        })
    };
    type Side = (
        VarMode,
        &'static [&'static str],
        fn(&Module) -> Redeclared<'_>,
    );
    let sides: [Side; 2] = [
        (VarMode::ShaderOut, &OUT_MEMBERS, |m| {
            &m.layout.per_vertex_out
        }),
        (VarMode::ShaderIn, &["gl_in"], |m| &m.layout.per_vertex_in),
    ];
    for (mode, names, redeclared) in sides {
        let mut seen: Option<Redeclared<'_>> = None;
        for unit in units {
            let r = redeclared(unit);
            if r.is_none() && !uses(unit, mode, names) {
                continue;
            }
            match seen {
                None => seen = Some(r),
                Some(first) if first != r => {
                    errors.push(LinkError::InterfaceBlockMismatch("gl_PerVertex".into()));
                    return;
                }
                Some(_) => {}
            }
        }
    }
}

fn merge_layout(out: &mut Module, unit: &Module, errors: &mut Vec<LinkError>) {
    let l = &unit.layout;
    let o = &mut out.layout;
    match (o.gs_input_primitive, l.gs_input_primitive) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::GsConflictingInput),
        (None, Some(b)) => o.gs_input_primitive = Some(b),
        _ => {}
    }
    match (o.gs_output_primitive, l.gs_output_primitive) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::GsConflictingOutput),
        (None, Some(b)) => o.gs_output_primitive = Some(b),
        _ => {}
    }
    match (o.gs_max_vertices, l.gs_max_vertices) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::GsConflictingMaxVertices(a, b)),
        (None, Some(b)) => o.gs_max_vertices = Some(b),
        _ => {}
    }
    if o.gs_invocations.is_none() {
        o.gs_invocations = l.gs_invocations;
    }
    // GL 4.3 §7.3 / GLSL 4.30 §4.4.1.1: the compute units that declare a local
    // size must all declare the same one.
    match (o.cs_local_size, l.cs_local_size) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::CsConflictingLocalSize(a, b)),
        (None, Some(b)) => o.cs_local_size = Some(b),
        _ => {}
    }
    o.origin_upper_left |= l.origin_upper_left;
    o.pixel_center_integer |= l.pixel_center_integer;
    o.early_fragment_tests |= l.early_fragment_tests;
    o.frag_coord_redeclared |= l.frag_coord_redeclared;
    if o.per_vertex_out.is_none() {
        o.per_vertex_out = l.per_vertex_out.clone();
    }
    if o.per_vertex_in.is_none() {
        o.per_vertex_in = l.per_vertex_in.clone();
    }
}

fn remap_expr(
    e: &Expr,
    struct_map: &[Handle<StructType>],
    map_var: &dyn Fn(Handle<Variable>) -> Handle<Variable>,
    map_expr: &dyn Fn(Handle<Expr>) -> Handle<Expr>,
) -> Expr {
    let kind = match &e.kind {
        ExprKind::Constant(c) => ExprKind::Constant(c.clone()),
        ExprKind::VarRef(v) => ExprKind::VarRef(map_var(*v)),
        ExprKind::ArrayRef(a, i) => ExprKind::ArrayRef(map_expr(*a), map_expr(*i)),
        ExprKind::RecordRef(a, f) => ExprKind::RecordRef(map_expr(*a), *f),
        ExprKind::Swizzle(a, s) => ExprKind::Swizzle(map_expr(*a), *s),
        ExprKind::Operation(op, args) => {
            ExprKind::Operation(*op, args.iter().map(|a| map_expr(*a)).collect())
        }
        ExprKind::Texture(t) => ExprKind::Texture(Box::new(Texture {
            op: t.op,
            sampler: map_expr(t.sampler),
            coordinate: t.coordinate.map(map_expr),
            offset: t.offset.map(map_expr),
            projector: t.projector.map(map_expr),
            shadow_comparator: t.shadow_comparator.map(map_expr),
            lod: t.lod.map(map_expr),
            grad: t.grad.map(|(a, b)| (map_expr(a), map_expr(b))),
        })),
    };
    Expr {
        kind,
        ty: remap_type(&e.ty, struct_map),
    }
}

fn remap_stmt(
    s: &Stmt,
    map_var: &dyn Fn(Handle<Variable>) -> Handle<Variable>,
    map_expr: &dyn Fn(Handle<Expr>) -> Handle<Expr>,
    map_stmt: &dyn Fn(Handle<Stmt>) -> Handle<Stmt>,
    sig_map: &HashMap<(usize, usize), SigRef>,
) -> Stmt {
    let block = |b: &Vec<Handle<Stmt>>| b.iter().map(|s| map_stmt(*s)).collect::<Vec<_>>();
    match s {
        Stmt::Declare(v) => Stmt::Declare(map_var(*v)),
        Stmt::Assign {
            lhs,
            rhs,
            write_mask,
        } => Stmt::Assign {
            lhs: map_expr(*lhs),
            rhs: map_expr(*rhs),
            write_mask: *write_mask,
        },
        Stmt::Call {
            function,
            signature,
            return_deref,
            args,
        } => {
            let (function, signature) = sig_map
                .get(&(function.index(), *signature))
                .copied()
                .unwrap_or((*function, *signature));
            Stmt::Call {
                function,
                signature,
                return_deref: return_deref.map(map_expr),
                args: args.iter().map(|a| map_expr(*a)).collect(),
            }
        }
        Stmt::Return(e) => Stmt::Return(e.map(map_expr)),
        Stmt::Discard(e) => Stmt::Discard(e.map(map_expr)),
        Stmt::If {
            condition,
            then_block,
            else_block,
        } => Stmt::If {
            condition: map_expr(*condition),
            then_block: block(then_block),
            else_block: block(else_block),
        },
        Stmt::Loop { body } => Stmt::Loop { body: block(body) },
        Stmt::Break => Stmt::Break,
        Stmt::Continue => Stmt::Continue,
        Stmt::EmitVertex => Stmt::EmitVertex,
        Stmt::EndPrimitive => Stmt::EndPrimitive,
    }
}

/// Reachable calls must have bodies; the reachable call graph must be acyclic.
/// Unreachable functions are dropped from the item list.
fn resolve_calls(module: &Module, errors: &mut Vec<LinkError>) {
    let usage = usage::analyze(module);
    let mut reported: HashSet<Handle<Function>> = HashSet::default();
    for &(f, i) in &usage.reachable {
        let Some(func) = module.functions.get(f) else {
            continue;
        };
        let defined = func
            .signatures
            .get(i)
            .is_some_and(|s| s.is_defined || s.builtin.is_some());
        if !defined && reported.insert(f) {
            errors.push(LinkError::UnresolvedFunction(func.name.clone()));
        }
    }
    for sig in recursive_signatures(&usage) {
        errors.push(LinkError::StaticRecursion(prototype(module, sig)));
    }
}

/// Drops functions `main` never reaches from the item list (Mesa drops them).
pub fn drop_unreachable_functions(module: &mut Module) {
    let usage = usage::analyze(module);
    let live: HashSet<Handle<Function>> = usage.reachable.iter().map(|(f, _)| *f).collect();
    module.items.retain(|item| match item {
        Item::Function(f) => live.contains(f),
        Item::Variable(_) => true,
    });
}

/// Mesa's recursion check: repeatedly remove nodes without callers or without
/// callees; whatever remains lies on a cycle.
fn recursive_signatures(usage: &usage::Usage) -> Vec<SigRef> {
    let nodes = &usage.reachable;
    let index: HashMap<SigRef, usize> = nodes.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut edges: HashSet<(usize, usize)> = HashSet::default();
    for (a, b) in &usage.calls {
        if let (Some(&x), Some(&y)) = (index.get(a), index.get(b)) {
            edges.insert((x, y));
        }
    }
    let n = nodes.len();
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(x, y) in &edges {
        callees[x].push(y);
        callers[y].push(x);
    }
    let mut indeg: Vec<usize> = callers.iter().map(Vec::len).collect();
    let mut outdeg: Vec<usize> = callees.iter().map(Vec::len).collect();
    let mut removed = vec![false; n];
    let mut queue: VecDeque<usize> = (0..n)
        .filter(|&i| indeg[i] == 0 || outdeg[i] == 0)
        .collect();
    while let Some(i) = queue.pop_front() {
        if removed[i] {
            continue;
        }
        removed[i] = true;
        for &y in &callees[i] {
            if !removed[y] {
                indeg[y] -= 1;
                if indeg[y] == 0 {
                    queue.push_back(y);
                }
            }
        }
        for &x in &callers[i] {
            if !removed[x] {
                outdeg[x] -= 1;
                if outdeg[x] == 0 {
                    queue.push_back(x);
                }
            }
        }
    }
    (0..n).filter(|&i| !removed[i]).map(|i| nodes[i]).collect()
}

/// `int f(int, vec2)` for messages.
fn prototype(module: &Module, (f, i): SigRef) -> String {
    let Some(func) = module.functions.get(f) else {
        return String::new();
    };
    let Some(sig) = func.signatures.get(i) else {
        return func.name.clone();
    };
    let params: Vec<String> = sig
        .parameters
        .iter()
        .filter_map(|p| module.variables.get(*p))
        .map(|p| type_name(&p.ty, &module.structs))
        .collect();
    format!(
        "{} {}({})",
        type_name(&sig.return_type, &module.structs),
        func.name,
        params.join(", ")
    )
}

/// Geometry inputs are arrays of one element per input vertex.
fn size_geometry_inputs(module: &mut Module, errors: &mut Vec<LinkError>) {
    let Some(prim) = module.layout.gs_input_primitive else {
        return;
    };
    let n = prim.vertex_count();
    let mut resized = HashSet::default();
    for h in usage::globals(module) {
        let var = &mut module.variables[h];
        if var.mode != VarMode::ShaderIn {
            continue;
        }
        match &var.ty {
            Type::Array(elem, None) => {
                var.ty = Type::Array(elem.clone(), Some(n));
                resized.insert(h);
            }
            Type::Array(_, Some(m)) if *m != n => {
                errors.push(LinkError::GsInputSize(var.name.clone(), *m, n));
            }
            _ => {}
        }
    }
    retype_refs(module, &resized);
}

/// Built-in arrays sized by their accesses may not exceed the implementation
/// limits the front end reports (`gl_MaxTextureCoords`, `gl_MaxClipDistances`),
/// `gl_in[].gl_ClipDistance` included.
fn check_builtin_array_sizes(module: &Module, errors: &mut Vec<LinkError>) {
    use rgl_glsl::builtins::variables::limits as fe;
    let clip_limit = fe::MAX_CLIP_DISTANCES;
    let member_too_large = module
        .structs
        .iter()
        .filter(|(_, s)| s.is_interface && s.name == "gl_PerVertex")
        .flat_map(|(_, s)| s.fields.iter())
        .filter(|f| f.name == "gl_ClipDistance")
        .any(|f| {
            f.ty.array_len()
                .is_some_and(|n| n as i64 > clip_limit as i64)
        });
    if member_too_large {
        errors.push(LinkError::BuiltinArrayTooLarge(
            "gl_ClipDistance",
            "gl_MaxClipDistances",
            clip_limit.max(0) as u32,
        ));
    }
    for v in usage::globals(module) {
        let var = &module.variables[v];
        if !var.is_builtin {
            continue;
        }
        let (name, limit_name, limit) = match var.name.as_str() {
            "gl_TexCoord" => ("gl_TexCoord", "gl_MaxTextureCoords", fe::MAX_TEXTURE_COORDS),
            "gl_ClipDistance" => (
                "gl_ClipDistance",
                "gl_MaxClipDistances",
                fe::MAX_CLIP_DISTANCES,
            ),
            _ => continue,
        };
        if let Some(n) = var.ty.array_len() {
            if n as i64 > limit as i64 {
                errors.push(LinkError::BuiltinArrayTooLarge(
                    name,
                    limit_name,
                    limit.max(0) as u32,
                ));
            }
        }
    }
}

/// Implicitly sized arrays take `max_array_access + 1` elements; the runtime-sized
/// last member of a shader storage block (GLSL 4.30 §4.3.7) stays unsized.
fn size_implicit_arrays(module: &mut Module) {
    let mut resized = HashSet::default();
    let Module {
        variables, structs, ..
    } = module;
    for (h, var) in variables.iter_mut() {
        // Only the last member of a storage block is runtime-sized; its other
        // unsized members (unnamed-block member variables) are sized here.
        if var.mode == rgl_glsl::hir::VarMode::ShaderStorage
            && var
                .interface_block
                .and_then(|b| structs.get(b))
                .and_then(|s| s.fields.last())
                .is_none_or(|f| f.name == var.name)
        {
            continue;
        }
        if let Type::Array(elem, None) = &var.ty {
            let len = (var.max_array_access.max(0) as u32).saturating_add(1);
            var.ty = Type::Array(elem.clone(), Some(len));
            resized.insert(h);
        }
    }
    retype_refs(module, &resized);
}

fn retype_refs(module: &mut Module, resized: &HashSet<Handle<Variable>>) {
    if resized.is_empty() {
        return;
    }
    let Module {
        exprs, variables, ..
    } = module;
    for (_, e) in exprs.iter_mut() {
        if let ExprKind::VarRef(v) = e.kind {
            if resized.contains(&v) {
                if let Some(var) = variables.get(v) {
                    e.ty = var.ty.clone();
                }
            }
        }
    }
}
