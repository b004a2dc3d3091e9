//! The verifier crate of synth: the front end (C through clang's LLVM IR), the thread IR, the
//! concrete interpreter, the verification engines (`explicit`, `imc`) with the independent
//! IVR checker (`check`), and stateless exploration (`explore`).

pub mod art;
pub mod cases;
pub mod check;
pub mod encode;
pub mod engine;
pub mod explicit;
pub mod explore;
pub(crate) mod footprint;
pub mod frontend;
pub mod imc;
pub mod interp;
pub mod ir;
pub mod ivr;
pub(crate) mod liveness;
pub mod memory;
pub mod pretty;
pub(crate) mod read_holds;
pub mod scheduler;
pub mod scope;
pub mod semantics;
pub mod smt;
pub mod unavoidable;
pub mod witness;
