//! The verifier crate of synth: the C front end, the thread IR, and the concrete interpreter.
//! Later issues add the ART verifier (`imc`) and stateless exploration (`explore`).

pub mod art;
pub mod check;
pub mod encode;
pub mod engine;
pub mod explicit;
pub mod explore;
pub mod frontend;
pub mod imc;
pub mod interp;
pub mod ir;
pub mod ivr;
pub mod pretty;
pub mod semantics;
pub mod smt;
pub mod witness;
