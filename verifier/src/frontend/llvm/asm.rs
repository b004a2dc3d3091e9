//! Inline assembly that changes nothing a C program can see: a compiler barrier
//! (`asm volatile("" ::: "memory")`), a spin-wait hint (`pause`, `rep; nop`), a fence
//! (`mfence`, `lfence`, `sfence`) or a `nop`, without operands. Under the model's
//! sequentially consistent memory (`DESIGN.md`, "Memory model") each is a step that does
//! nothing; any other inline assembly stays unsupported.
//!
//! The pass outlines each such assembly into an internal function of its own
//! ([`HINT_PREFIX`]`k`, whose body is the assembly), so that the lowering, which reads the
//! module with `llvm-ir` (which does not give an assembly's text), knows it by its callee's
//! name, and the module `synth build` instruments and compiles still executes the
//! assembly itself (clang inlines it back).

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;
use std::collections::HashMap;

/// The name of a function that holds inline assembly the model takes for a step that does
/// nothing, followed by a number.
pub const HINT_PREFIX: &str = "__synth_asm_hint.";

/// The texts of such assembly, with their whitespace and case normalised.
const HINTS: &[&str] = &[
    "", "pause", "rep; nop", "rep;nop", "rep nop", "nop", "mfence", "lfence", "sfence",
];

/// Outlines every call of inline assembly [`is_hint`] says does nothing into a call of a
/// function of [`HINT_PREFIX`].
///
/// # Safety
/// `ctx` and `module` are live, and `module` belongs to `ctx`.
pub unsafe fn outline_hints(ctx: LLVMContextRef, module: LLVMModuleRef) {
    let mut calls = Vec::new();
    super::canonical::each_instruction(module, |i| {
        if !LLVMIsACallInst(i).is_null() {
            let callee = LLVMGetCalledValue(i);
            if !callee.is_null() && !LLVMIsAInlineAsm(callee).is_null() && is_hint(callee) {
                calls.push((i, callee));
            }
        }
    });
    // (An assembly value is unique for its text, constraints and type: one function each.)
    let mut made: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
    for (call, asm) in calls {
        let n = made.len();
        let g = *made
            .entry(asm)
            .or_insert_with(|| outline(ctx, module, asm, n));
        let callee_operand = LLVMGetNumOperands(call) as u32 - 1;
        LLVMSetOperand(call, callee_operand, g);
    }
}

/// A new internal function `HINT_PREFIX{n}` whose body calls `asm` and returns.
unsafe fn outline(
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    asm: LLVMValueRef,
    n: usize,
) -> LLVMValueRef {
    let ty = LLVMGetInlineAsmFunctionType(asm);
    let name = std::ffi::CString::new(format!("{HINT_PREFIX}{n}")).expect("no NUL");
    let f = LLVMAddFunction(module, name.as_ptr(), ty);
    LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
    let entry = LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr());
    let b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildCall2(b, ty, asm, std::ptr::null_mut(), 0, c"".as_ptr());
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    f
}

/// Whether inline assembly `asm` takes no operand, gives no result, clobbers only what
/// its constraints name (`~{...}`), and is one of [`HINTS`].
unsafe fn is_hint(asm: LLVMValueRef) -> bool {
    let ty = LLVMGetInlineAsmFunctionType(asm);
    if LLVMCountParamTypes(ty) != 0
        || LLVMGetTypeKind(LLVMGetReturnType(ty)) != LLVMTypeKind::LLVMVoidTypeKind
    {
        return false;
    }
    let text = |get: unsafe extern "C" fn(LLVMValueRef, *mut usize) -> *const std::ffi::c_char| {
        let mut len = 0usize;
        let p = get(asm, &mut len);
        if p.is_null() {
            return String::new();
        }
        let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
        String::from_utf8_lossy(bytes).into_owned()
    };
    let constraints = text(LLVMGetInlineAsmConstraintString);
    if !constraints
        .split(',')
        .filter(|c| !c.is_empty())
        .all(|c| c.starts_with("~{"))
    {
        return false;
    }
    is_hint_text(&text(LLVMGetInlineAsmAsmString))
}

/// Whether an assembly text is one of [`HINTS`] (whitespace, a trailing `;` or newline and
/// case aside).
fn is_hint_text(asm: &str) -> bool {
    let t = asm
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    let t = t.trim_end_matches(';').trim();
    HINTS.contains(&t)
}

#[cfg(test)]
mod tests {
    use super::is_hint_text;

    #[test]
    fn hints_are_known_by_their_text() {
        for t in ["", " ", "pause", "PAUSE\n", "rep; nop", "mfence;", "\tnop"] {
            assert!(is_hint_text(t), "{t:?}");
        }
        for t in [
            "movl $1, %eax",
            "lock; xaddl %0, %1",
            "int3",
            "cpuid",
            "ud2",
        ] {
            assert!(!is_hint_text(t), "{t:?}");
        }
    }
}
