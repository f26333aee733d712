//! `boardspace`: a re-implementation of the boardspace.net PÜNCT robot's
//! published approach, as a baseline. (Being written.)
