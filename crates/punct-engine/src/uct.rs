//! `uct`: plain UCT with uniform random playouts, the generic game-AI
//! baseline. (Being written.)
