//! A game: a start position and the moves played from it, with undo.

use crate::check::IllegalMove;
use crate::moves::Move;
use crate::position::{Position, Undo, Variant};

/// A move that could not be played while replaying a list of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based ply (half-move) of the game.
    pub ply: usize,
    pub mv: Move,
    pub reason: IllegalMove,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ply {}: `{}` is illegal: {}",
            self.ply, self.mv, self.reason
        )
    }
}

impl std::error::Error for ReplayError {}

#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    history: Vec<(Move, Undo)>,
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    pub fn from_position(start: Position) -> Game {
        Game {
            position: start.clone(),
            start,
            history: Vec::new(),
        }
    }

    /// The game from `start` after `moves`, each checked.
    pub fn replay(start: Position, moves: &[Move]) -> Result<Game, ReplayError> {
        let mut game = Game::from_position(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|reason| ReplayError {
                ply: i + 1,
                mv,
                reason,
            })?;
        }
        Ok(game)
    }

    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.position
    }
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|(m, _)| *m)
    }
    pub fn len(&self) -> usize {
        self.history.len()
    }
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let undo = self.position.play(mv)?;
        self.history.push((mv, undo));
        Ok(())
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let (mv, undo) = self.history.pop()?;
        self.position.unmake(undo);
        Some(mv)
    }
}
