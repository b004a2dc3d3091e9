//! Rewrites the constant `getelementptr` expressions of a module's instructions and global
//! initialisers into byte offsets (`getelementptr (i8, ptr @g, i64 k)`), using LLVM's own data
//! layout, and writes the module back.
//!
//! The lowering reads modules with `llvm-ir`, which keeps the source element type of a
//! `getelementptr` *instruction* but not of a constant expression; without it the indices of
//! `getelementptr ([4 x i32], ptr @s, i64 0, i64 1)` cannot be turned into an offset. After
//! this pass every constant `getelementptr` the lowering sees has one index counting bytes.
//! The rewrite keeps the module's meaning (the same addresses), so the instrumented module is
//! still the verified one.
//!
//! The same pass outlines the inline assembly the model takes for a step that does nothing
//! ([`super::asm`]).
//!
//! With [`super::edit`] (the instrumentation's), this is the code of the front end that
//! calls LLVM's C API directly; it is `unsafe` inside and safe to call.

use std::ffi::{CStr, CString};
use std::path::Path;

use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// Runs the fixed pass list on the bitcode at `input` ([`PASSES`]; `mem2reg`: locals whose
/// address is not taken become registers), canonicalises its constant GEPs, outlines its inline
/// assembly that does nothing ([`super::asm`]) and writes it to `output`.
pub fn canonicalize(input: &Path, output: &Path) -> Result<(), String> {
    // SAFETY: the module is live for the closure's call.
    in_module(input, output, |ctx, module| unsafe {
        passes_in(module)?;
        rewrite(ctx, module);
        Ok(())
    })
}

/// Runs the fixed pass list ([`PASSES`]) on the bitcode at `input` and writes it to `output`.
pub fn fixed_passes(input: &Path, output: &Path) -> Result<(), String> {
    // SAFETY: the module is live for the closure's call.
    in_module(input, output, |_, module| unsafe { passes_in(module) })
}

/// Reads the bitcode at `input` into a context of its own, calls `f` on it and writes the
/// module to `output`.
fn in_module(
    input: &Path,
    output: &Path,
    f: impl FnOnce(LLVMContextRef, LLVMModuleRef) -> Result<(), String>,
) -> Result<(), String> {
    let cin = CString::new(input.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
    let cout = CString::new(output.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: every LLVM object is created here, used only while the context lives, and the
    // context (with the module it owns) is disposed before returning.
    unsafe {
        let ctx = LLVMContextCreate();
        let r = read(ctx, &cin).and_then(|module| {
            let r =
                f(ctx, module).and_then(|()| match LLVMWriteBitcodeToFile(module, cout.as_ptr()) {
                    0 => Ok(()),
                    _ => Err(format!("cannot write {}", output.to_string_lossy())),
                });
            LLVMDisposeModule(module);
            r
        });
        LLVMContextDispose(ctx);
        r
    }
}

/// The module of the bitcode file at `input`, in `ctx`.
unsafe fn read(ctx: LLVMContextRef, input: &CStr) -> Result<LLVMModuleRef, String> {
    let mut buf: LLVMMemoryBufferRef = std::ptr::null_mut();
    let mut msg: *mut std::ffi::c_char = std::ptr::null_mut();
    if LLVMCreateMemoryBufferWithContentsOfFile(input.as_ptr(), &mut buf, &mut msg) != 0 {
        return Err(take_message(msg));
    }
    let mut module: LLVMModuleRef = std::ptr::null_mut();
    let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
    LLVMDisposeMemoryBuffer(buf);
    if failed {
        return Err("cannot parse the bitcode".into());
    }
    Ok(module)
}

/// The fixed pass list of LLVM's: `mem2reg`. The jumps over blocks that only choose a way
/// are threaded after it ([`super::jumps`]).
const PASSES: &std::ffi::CStr = c"mem2reg";

/// Runs the fixed pass list [`PASSES`] on `module` (LLVM's new pass manager, as `opt
/// -passes=...`), then threads jumps ([`super::jumps`]).
unsafe fn passes_in(module: LLVMModuleRef) -> Result<(), String> {
    use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
    use llvm_sys::transforms::pass_builder::*;
    let options = LLVMCreatePassBuilderOptions();
    let err = LLVMRunPasses(module, PASSES.as_ptr(), std::ptr::null_mut(), options);
    LLVMDisposePassBuilderOptions(options);
    if err.is_null() {
        // (A module the rewrite left alone is not checked again: LLVM's verifier also
        // rejects debug information that `opt` would only drop.)
        return match super::jumps::thread_jumps(module) {
            0 => Ok(()),
            _ => verified(module),
        };
    }
    let msg = LLVMGetErrorMessage(err);
    let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeErrorMessage(msg);
    Err(s)
}

/// `Ok` where `module` is well formed (LLVM's verifier), else what is wrong with it.
unsafe fn verified(module: LLVMModuleRef) -> Result<(), String> {
    use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
    let mut msg: *mut std::ffi::c_char = std::ptr::null_mut();
    let broken = LLVMVerifyModule(
        module,
        LLVMVerifierFailureAction::LLVMReturnStatusAction,
        &mut msg,
    ) != 0;
    let text = take_message(msg);
    match broken {
        false => Ok(()),
        true => Err(format!("the front end's passes broke the module: {text}")),
    }
}

/// Canonicalises the constant GEPs of `module` and outlines its inline assembly that does
/// nothing.
unsafe fn rewrite(ctx: LLVMContextRef, module: LLVMModuleRef) {
    let dl = LLVMGetModuleDataLayout(module);
    each_instruction(module, |i| {
        let n = LLVMGetNumOperands(i);
        for k in 0..n.max(0) as u32 {
            let op = LLVMGetOperand(i, k);
            if let Some(new) = rebuild(ctx, dl, op) {
                LLVMSetOperand(i, k, new);
            }
        }
    });
    let mut g = LLVMGetFirstGlobal(module);
    while !g.is_null() {
        let init = LLVMGetInitializer(g);
        if !init.is_null() {
            if let Some(new) = fold_aggregate(ctx, dl, init) {
                LLVMSetInitializer(g, new);
            }
        }
        g = LLVMGetNextGlobal(g);
    }
    super::asm::outline_hints(ctx, module);
}

/// Calls `f` on every instruction of `module`'s functions, in order (`f` may change the
/// instruction's operands, not add or remove instructions).
pub(super) unsafe fn each_instruction(module: LLVMModuleRef, mut f: impl FnMut(LLVMValueRef)) {
    let mut func = LLVMGetFirstFunction(module);
    while !func.is_null() {
        let mut bb = LLVMGetFirstBasicBlock(func);
        while !bb.is_null() {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                f(i);
                i = LLVMGetNextInstruction(i);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        func = LLVMGetNextFunction(func);
    }
}

unsafe fn take_message(msg: *mut std::ffi::c_char) -> String {
    if msg.is_null() {
        return "unknown LLVM error".into();
    }
    let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeMessage(msg);
    s
}

fn is_gep_expr(v: LLVMValueRef) -> bool {
    // SAFETY: `v` is a live value of the module.
    unsafe {
        !v.is_null()
            && !LLVMIsAConstantExpr(v).is_null()
            && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMGetElementPtr
    }
}

/// The root and byte offset of a chain of constant GEPs with constant indices.
unsafe fn offset_of(dl: LLVMTargetDataRef, v: LLVMValueRef) -> Option<(LLVMValueRef, i64)> {
    if !is_gep_expr(v) {
        return Some((v, 0));
    }
    let (root, mut off) = offset_of(dl, LLVMGetOperand(v, 0))?;
    let mut ty = LLVMGetGEPSourceElementType(v);
    let n = LLVMGetNumOperands(v) as u32;
    for k in 1..n {
        let idx = LLVMGetOperand(v, k);
        if LLVMIsAConstantInt(idx).is_null() {
            return None;
        }
        let i = LLVMConstIntGetSExtValue(idx);
        if k == 1 {
            off += i * LLVMABISizeOfType(dl, ty) as i64;
            continue;
        }
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMStructTypeKind => {
                off += LLVMOffsetOfElement(dl, ty, i as u32) as i64;
                ty = LLVMStructGetTypeAtIndex(ty, i as u32);
            }
            LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                let e = LLVMGetElementType(ty);
                off += i * LLVMABISizeOfType(dl, e) as i64;
                ty = e;
            }
            _ => return None,
        }
    }
    Some((root, off))
}

/// The byte-offset form of a constant GEP, if `v` is one not already in that form.
unsafe fn fold(
    ctx: LLVMContextRef,
    dl: LLVMTargetDataRef,
    v: LLVMValueRef,
) -> Option<LLVMValueRef> {
    if !is_gep_expr(v) {
        return None;
    }
    let i8t = LLVMInt8TypeInContext(ctx);
    let canonical = LLVMGetGEPSourceElementType(v) == i8t
        && LLVMGetNumOperands(v) == 2
        && !is_gep_expr(LLVMGetOperand(v, 0));
    if canonical {
        return None;
    }
    let (root, off) = offset_of(dl, v)?;
    if off == 0 {
        return Some(root);
    }
    let i64t = LLVMInt64TypeInContext(ctx);
    let mut idx = [LLVMConstInt(i64t, off as u64, 1)];
    Some(LLVMConstGEP2(i8t, root, idx.as_mut_ptr(), 1))
}

/// A constant expression with its GEPs (also inside conversions and arithmetic:
/// `ptrtoint (getelementptr ...)`) in byte-offset form; `None` when nothing changes.
unsafe fn rebuild(
    ctx: LLVMContextRef,
    dl: LLVMTargetDataRef,
    v: LLVMValueRef,
) -> Option<LLVMValueRef> {
    if v.is_null() || LLVMIsAConstantExpr(v).is_null() {
        return None;
    }
    use LLVMOpcode::*;
    match LLVMGetConstOpcode(v) {
        LLVMGetElementPtr => fold(ctx, dl, v),
        op @ (LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMTrunc) => {
            let a = rebuild(ctx, dl, LLVMGetOperand(v, 0))?;
            let t = LLVMTypeOf(v);
            Some(match op {
                LLVMPtrToInt => LLVMConstPtrToInt(a, t),
                LLVMIntToPtr => LLVMConstIntToPtr(a, t),
                LLVMBitCast => LLVMConstBitCast(a, t),
                _ => LLVMConstTrunc(a, t),
            })
        }
        op @ (LLVMAdd | LLVMSub | LLVMMul | LLVMXor) => {
            let (x, y) = (LLVMGetOperand(v, 0), LLVMGetOperand(v, 1));
            let (nx, ny) = (rebuild(ctx, dl, x), rebuild(ctx, dl, y));
            if nx.is_none() && ny.is_none() {
                return None;
            }
            let (x, y) = (nx.unwrap_or(x), ny.unwrap_or(y));
            Some(match op {
                LLVMAdd => LLVMConstAdd(x, y),
                LLVMSub => LLVMConstSub(x, y),
                LLVMMul => LLVMConstMul(x, y),
                _ => LLVMConstXor(x, y),
            })
        }
        _ => None,
    }
}

/// Rewrites the constant GEPs inside an initialiser (struct and array constants are
/// rebuilt); `None` when nothing changes.
unsafe fn fold_aggregate(
    ctx: LLVMContextRef,
    dl: LLVMTargetDataRef,
    v: LLVMValueRef,
) -> Option<LLVMValueRef> {
    if let Some(new) = rebuild(ctx, dl, v) {
        return Some(new);
    }
    let is_struct = !LLVMIsAConstantStruct(v).is_null();
    let is_array = !LLVMIsAConstantArray(v).is_null();
    if !is_struct && !is_array {
        return None;
    }
    let n = LLVMGetNumOperands(v) as u32;
    let mut elems: Vec<LLVMValueRef> = (0..n).map(|k| LLVMGetOperand(v, k)).collect();
    let mut changed = false;
    for e in elems.iter_mut() {
        if let Some(new) = fold_aggregate(ctx, dl, *e) {
            *e = new;
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    let ty = LLVMTypeOf(v);
    Some(if is_struct && LLVMGetStructName(ty).is_null() {
        LLVMConstStructInContext(ctx, elems.as_mut_ptr(), n, LLVMIsPackedStruct(ty))
    } else if is_struct {
        LLVMConstNamedStruct(ty, elems.as_mut_ptr(), n)
    } else {
        LLVMConstArray2(LLVMGetElementType(ty), elems.as_mut_ptr(), n as u64)
    })
}
