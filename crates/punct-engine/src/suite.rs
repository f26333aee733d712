//! Tactical suites: files of positions that each set the side to move a
//! task (win at once, stop the opponent's win, win in two whatever the
//! opponent does), the exact check of an engine's answer, and the check
//! that a forced win or loss an engine claims is real.
//!
//! # Suite files
//!
//! One position per line: a position string (docs/NOTATION.md), then
//! optionally moves separated by spaces, the task's solutions (for a win in
//! two, every first move that wins). Blank lines and lines starting with
//! `#` are ignored, except that a comment `# kind: win-in-2` (or
//! `win-in-1`, `must-block`) names the task; without one the file name
//! does (`win_in_1…`, `must_block…`, `win_in_2…`, with `_` or `-`).
//!
//! # Claims
//!
//! [`verify_claim`] replays a `win N` or `loss N` score against the rules:
//! for a win, the engine's move is played and then *every* legal reply
//! (additions, relocations, turns in place, pass), and the side must still
//! win within the plies left: at once ([`puzzle::has_winning_move`]), in
//! two (the exhaustive prover, [`puzzle::win_in_two_at_most`]), or by a
//! longer win that a new search (`research`) claims and that is checked
//! the same way.
//! A loss is checked the other way: every move of the side to move must
//! leave the opponent such a win.
//!
//! Wins within three plies and losses within two are always decided
//! exactly. Wins within five and losses within four are decided exactly
//! unless the check's budget of [`PROOF_BUDGET`] win-in-two proofs runs
//! out first (one proof for each reply, or move, that leaves no win at
//! once). Longer claims can only be confirmed, through new searches
//! ([`SEARCH_BUDGET`]), never refuted: with more moves to go through than
//! that, they are left unconfirmed.

use crate::engine::{Score, SearchResult};
use crate::puzzle;
use crate::tactics::{first_win_among, target_cells};
use punct_core::{Move, Position, Side, Status};
use std::fmt;

// ------------------------------------------------------------ tasks

/// What the side to move must do in a suite's positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Play a move that wins at once.
    WinInOne,
    /// Leave the opponent, who threatens to win at once, no immediate win.
    MustBlock,
    /// Play a first move after which every reply leaves a win at once.
    WinInTwo,
}

impl Task {
    pub const ALL: [Task; 3] = [Task::WinInOne, Task::MustBlock, Task::WinInTwo];

    /// `win-in-1`, `must-block` or `win-in-2`.
    pub const fn name(self) -> &'static str {
        match self {
            Task::WinInOne => "win-in-1",
            Task::MustBlock => "must-block",
            Task::WinInTwo => "win-in-2",
        }
    }

    /// What a solved position's move does, in words.
    pub const fn goal(self) -> &'static str {
        match self {
            Task::WinInOne => "plays a move that wins at once",
            Task::MustBlock => "leaves the opponent no immediate win",
            Task::WinInTwo => "plays a first move that wins in two whatever the reply",
        }
    }

    /// The task a name stands for (`win-in-1` or `win_in_1`, any case).
    pub fn from_name(name: &str) -> Option<Task> {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        Task::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The task a file name announces: it starts with a task's name
    /// (`win_in_2.txt`, `must-block-hard.txt`).
    pub fn from_file_name(file_name: &str) -> Option<Task> {
        let name = file_name.to_ascii_lowercase().replace('_', "-");
        Task::ALL.into_iter().find(|t| name.starts_with(t.name()))
    }

    /// Whether `pos` sets this task, checked exactly (for a win in two,
    /// through the listed `solutions`: at least one is required, and each
    /// is replayed against every reply). `Err` says why not.
    pub fn check_position(self, pos: &Position, solutions: &[Move]) -> Result<(), String> {
        if pos.status().is_over() {
            return Err("the game is over".into());
        }
        let side = pos.side_to_move();
        match self {
            Task::WinInOne => {
                if !puzzle::has_winning_move(pos) {
                    return Err(format!("{side} has no move that wins at once"));
                }
            }
            Task::MustBlock => {
                if puzzle::has_winning_move(pos) {
                    return Err(format!("{side} can win at once"));
                }
                if puzzle::threats(pos).is_empty() {
                    return Err(format!("{} threatens no win", side.opponent()));
                }
                if puzzle::defences(pos).is_empty() {
                    return Err(format!("no move of {side} stops the threat"));
                }
            }
            Task::WinInTwo => {
                if puzzle::has_winning_move(pos) {
                    return Err(format!("{side} can win at once"));
                }
                if solutions.is_empty() {
                    return Err("no solution listed after the position".into());
                }
            }
        }
        for &mv in solutions {
            if !pos.is_legal(mv) {
                return Err(format!("the listed solution {mv} is not legal"));
            }
            if !solves(self, pos, mv) {
                return Err(format!(
                    "the listed solution {mv} does not do the task ({})",
                    self.goal()
                ));
            }
        }
        Ok(())
    }
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `mv`, played by the side to move in `pos`, does `task`. Exact:
/// a win in two is replayed against every legal reply. An illegal move
/// does nothing.
pub fn solves(task: Task, pos: &Position, mv: Move) -> bool {
    if pos.status().is_over() || !pos.is_legal(mv) {
        return false;
    }
    let me = pos.side_to_move();
    let mut after = pos.clone();
    after.make(mv);
    match (task, after.status()) {
        (_, Status::Won(s)) => s == me,
        (Task::WinInOne, _) => false,
        // A draw ends the game: the opponent's win is stopped.
        (Task::MustBlock, Status::Draw) => true,
        (Task::MustBlock, Status::Ongoing) => !puzzle::has_winning_move(&after),
        (Task::WinInTwo, Status::Draw) => false,
        (Task::WinInTwo, Status::Ongoing) => puzzle::refutation(&after).is_none(),
    }
}

// ------------------------------------------------------------ files

/// One position of a suite.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its line in the file, from 1.
    pub line: usize,
    pub position: Position,
    /// The moves listed after the position (may be empty).
    pub solutions: Vec<Move>,
}

/// A suite file, read.
#[derive(Clone, Debug)]
pub struct Suite {
    pub task: Task,
    pub entries: Vec<Entry>,
}

/// Reads a suite; `file_name` (the file's name, not its path) gives the
/// task when no `# kind:` line does. Errors name the line.
pub fn parse_suite(file_name: &str, text: &str) -> Result<Suite, String> {
    let mut task = None;
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if let Some(comment) = l.strip_prefix('#') {
            if let Some(kind) = comment.trim().strip_prefix("kind:") {
                let t = Task::from_name(kind).ok_or_else(|| {
                    format!(
                        "line {line}: `{}` is not a task: expected win-in-1, must-block or win-in-2",
                        kind.trim()
                    )
                })?;
                if task.is_some_and(|old| old != t) {
                    return Err(format!("line {line}: a second, different `# kind:` line"));
                }
                task = Some(t);
            }
            continue;
        }
        if l.is_empty() {
            continue;
        }
        let mut fields = l.split_whitespace();
        let text = fields.next().expect("a non-empty line has a field");
        let position = Position::from_position_string(text)
            .map_err(|e| format!("line {line}: not a position string: {e}"))?;
        if position.status().is_over() {
            return Err(format!(
                "line {line}: the game is over in this position ({})",
                position.status()
            ));
        }
        let solutions = fields
            .map(|m| {
                m.parse::<Move>()
                    .map_err(|e| format!("line {line}: `{m}` is not a move: {e}"))
            })
            .collect::<Result<Vec<Move>, String>>()?;
        entries.push(Entry {
            line,
            position,
            solutions,
        });
    }
    let task = task
        .or_else(|| Task::from_file_name(file_name))
        .ok_or("no task: add a `# kind: win-in-1` (or must-block, win-in-2) line, or name the file after its task")?;
    if entries.is_empty() {
        return Err("no positions".into());
    }
    Ok(Suite { task, entries })
}

// ------------------------------------------------------------ claims

/// What the replay of a claimed win or loss found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimCheck {
    /// Every opponent reply (or every move, for a loss) was accounted for.
    Verified,
    /// A line that shows the claim false, in words.
    Refuted(String),
    /// Neither proven nor refuted within the checker's bounds: why.
    Unconfirmed(String),
}

impl ClaimCheck {
    pub fn is_verified(&self) -> bool {
        matches!(self, ClaimCheck::Verified)
    }
}

/// Most exhaustive win-in-two proofs one claim's check may use (each is
/// every first move against every reply: most take under a millisecond in
/// a release build, a few take seconds).
pub const PROOF_BUDGET: usize = 4096;
/// Most new searches one claim's check may use; also the most moves after
/// which a win in four plies or more is looked for (only a new search can
/// confirm one, and nothing refutes it).
pub const SEARCH_BUDGET: usize = 48;

/// Checks a search's `win N` or `loss N` score for `pos` (`None` for an
/// evaluation score). `research` searches a later position where the
/// exhaustive win-in-two prover cannot decide (a win claimed in more than
/// three plies); it should be the claiming engine with the same kind of
/// limits (a node limit keeps the check reproducible).
pub fn verify_claim(
    pos: &Position,
    result: &SearchResult,
    research: &mut dyn FnMut(&Position) -> SearchResult,
) -> Option<ClaimCheck> {
    verify_claim_with_budget(pos, result, research, PROOF_BUDGET)
}

/// [`verify_claim`] allowing `proofs` win-in-two proofs instead of
/// [`PROOF_BUDGET`].
pub fn verify_claim_with_budget(
    pos: &Position,
    result: &SearchResult,
    research: &mut dyn FnMut(&Position) -> SearchResult,
    proofs: usize,
) -> Option<ClaimCheck> {
    let mut checker = Checker {
        research,
        proofs,
        searches: SEARCH_BUDGET,
        hints: Vec::new(),
    };
    match result.score {
        Score::Eval(_) => None,
        _ if pos.status().is_over() => Some(ClaimCheck::Refuted("the game is already over".into())),
        Score::Win(n) => Some(checker.win_line(pos, result.best, n)),
        Score::Loss(n) => Some(checker.loss(pos, n)),
    }
}

struct Checker<'a> {
    research: &'a mut dyn FnMut(&Position) -> SearchResult,
    /// Win-in-two proofs and new searches still allowed.
    proofs: usize,
    searches: usize,
    /// Recent winning moves, tried before the full search for one.
    hints: Vec<Move>,
}

/// How a move or reply left the game, for the side `me` who wants to win.
enum After {
    Won,
    Lost(Status),
    Ongoing,
}

fn after_status(p: &Position, me: Side) -> After {
    match p.status() {
        Status::Won(s) if s == me => After::Won,
        Status::Ongoing => After::Ongoing,
        other => After::Lost(other),
    }
}

impl Checker<'_> {
    /// Whether the side to move in `p` (ongoing) can win at once; exact.
    fn wins_at_once(&mut self, p: &mut Position) -> bool {
        if let Some(h) = first_win_among(p, &self.hints) {
            // The win found goes first next time.
            self.hints.retain(|&m| m != h);
            self.hints.insert(0, h);
            return true;
        }
        if !puzzle::has_winning_move(p) {
            return false;
        }
        if let Some(&w) = puzzle::winning_moves(p).first() {
            self.hints.insert(0, w);
            self.hints.truncate(8);
        }
        true
    }

    /// `first` wins for the side to move in `pos` within `n` plies, every
    /// reply considered.
    fn win_line(&mut self, pos: &Position, first: Move, n: u32) -> ClaimCheck {
        let me = pos.side_to_move();
        if !pos.is_legal(first) {
            return ClaimCheck::Refuted(format!("{first} is not legal"));
        }
        let mut after = pos.clone();
        after.make(first);
        match after_status(&after, me) {
            After::Won => return ClaimCheck::Verified,
            After::Lost(s) => return ClaimCheck::Refuted(format!("{first} ends the game: {s}")),
            After::Ongoing => {}
        }
        if n <= 1 {
            return ClaimCheck::Refuted(format!("{first} does not win at once"));
        }
        if n == 3 {
            // The prover's own replay of every reply, exact and fast.
            return match puzzle::refutation(&after) {
                None => ClaimCheck::Verified,
                Some(r) => ClaimCheck::Refuted(format!("{first} {r}: no win at once after it")),
            };
        }
        let rest = n - 2;
        let mut pending = Vec::new();
        for r in after.legal_moves() {
            let undo = after.make(r);
            let settled = match after_status(&after, me) {
                After::Won => Ok(()),
                After::Lost(s) => Err(format!("{r}: the game ends: {s}")),
                After::Ongoing if rest == 0 => Err(format!("{r}: the game goes on")),
                After::Ongoing if self.wins_at_once(&mut after) => Ok(()),
                After::Ongoing if rest == 1 => Err(format!("{r}: no win at once after it")),
                After::Ongoing => {
                    pending.push(r);
                    Ok(())
                }
            };
            after.unmake(undo);
            if let Err(why) = settled {
                return ClaimCheck::Refuted(format!("{first} {why}"));
            }
        }
        match self.each_wins(&after, me, pending, rest) {
            ClaimCheck::Verified => ClaimCheck::Verified,
            ClaimCheck::Refuted(why) => ClaimCheck::Refuted(format!("{first} {why}")),
            ClaimCheck::Unconfirmed(why) => ClaimCheck::Unconfirmed(format!("{first} {why}")),
        }
    }

    /// After each of `moves` (by the side to move in `base`), `attacker`
    /// wins within `k` plies. Those most likely to stop it (moves onto the
    /// attacker's near chains) are checked first: a false claim is refuted
    /// sooner.
    fn each_wins(
        &mut self,
        base: &Position,
        attacker: Side,
        mut moves: Vec<Move>,
        k: u32,
    ) -> ClaimCheck {
        let total = moves.len();
        if k >= 4 && total > SEARCH_BUDGET {
            // Nothing can refute a longer win here, and each move may need
            // a new search to confirm it: too many to try.
            return ClaimCheck::Unconfirmed(format!(
                "…: {total} moves leave no win at once, too many to confirm a win in {k} plies after each"
            ));
        }
        let near = puzzle::reach_cells(base, attacker, 4);
        moves.sort_by_key(|&m| (target_cells(base, m) & near).is_empty());
        let mut unsure = None;
        for (i, m) in moves.into_iter().enumerate() {
            if self.proofs == 0 && self.searches == 0 {
                return ClaimCheck::Unconfirmed(format!(
                    "…: {} of {total} moves left unchecked, the check's budget spent",
                    total - i
                ));
            }
            let mut p = base.clone();
            p.make(m);
            match self.wins_within(&p, k) {
                ClaimCheck::Verified => {}
                ClaimCheck::Refuted(why) => return ClaimCheck::Refuted(format!("{m}: {why}")),
                ClaimCheck::Unconfirmed(why) => {
                    unsure.get_or_insert(format!("{m}: {why}"));
                }
            }
        }
        unsure.map_or(ClaimCheck::Verified, ClaimCheck::Unconfirmed)
    }

    /// The side to move in `p` (ongoing, no win at once) wins within `k`
    /// plies, `k` ≥ 2.
    fn wins_within(&mut self, p: &Position, k: u32) -> ClaimCheck {
        // Exhaustive: some first move after which every reply leaves a win
        // at once (three plies).
        if k >= 3 && self.proofs > 0 {
            self.proofs -= 1;
            match puzzle::win_in_two_at_most(p, 0) {
                None => return ClaimCheck::Verified,
                Some(_) if k == 3 => {
                    return ClaimCheck::Refuted("no win in two (exhaustive)".into());
                }
                Some(_) => {}
            }
        }
        // Longer wins (and a win on the opponent's own last move, at k = 2:
        // the last piece of its reserve, a second pass): a new search must
        // claim one, checked the same way.
        if self.searches == 0 {
            return ClaimCheck::Unconfirmed("the check's budget is spent".into());
        }
        self.searches -= 1;
        let found = (self.research)(p);
        if let Score::Win(j) = found.score {
            if j <= k && self.win_line(p, found.best, j).is_verified() {
                return ClaimCheck::Verified;
            }
        }
        ClaimCheck::Unconfirmed(format!(
            "no win at once{}, and a new search claims none in {k} plies ({})",
            if k >= 3 { " or in two" } else { "" },
            found.score
        ))
    }

    /// The side to move in `pos` loses within `n` plies whatever it plays.
    fn loss(&mut self, pos: &Position, n: u32) -> ClaimCheck {
        let me = pos.side_to_move();
        let them = me.opponent();
        if n == 2 {
            // Exact: the moves after which the opponent cannot win at once.
            return match puzzle::defences(pos).first() {
                None => ClaimCheck::Verified,
                Some(d) => ClaimCheck::Refuted(format!("{d} leaves no win at once")),
            };
        }
        let mut p = pos.clone();
        let mut pending = Vec::new();
        for m in pos.legal_moves() {
            let undo = p.make(m);
            let settled = match after_status(&p, them) {
                After::Won => Ok(()),
                After::Lost(s) => Err(format!("{m} ends the game: {s}")),
                After::Ongoing if n <= 1 => Err(format!("{m}: the game goes on")),
                After::Ongoing if self.wins_at_once(&mut p) => Ok(()),
                After::Ongoing => {
                    pending.push(m);
                    Ok(())
                }
            };
            p.unmake(undo);
            if let Err(why) = settled {
                return ClaimCheck::Refuted(why);
            }
        }
        self.each_wins(pos, them, pending, n - 1)
    }
}

/// Counts of claims and what their checks found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub claimed: usize,
    pub verified: usize,
    pub refuted: usize,
    pub unconfirmed: usize,
}

impl Tally {
    /// Counts one claim's verdict.
    pub fn add(&mut self, v: &ClaimCheck) {
        self.claimed += 1;
        match v {
            ClaimCheck::Verified => self.verified += 1,
            ClaimCheck::Refuted(_) => self.refuted += 1,
            ClaimCheck::Unconfirmed(_) => self.unconfirmed += 1,
        }
    }
}

impl std::ops::AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        self.claimed += other.claimed;
        self.verified += other.verified;
        self.refuted += other.refuted;
        self.unconfirmed += other.unconfirmed;
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} claimed, {} verified, {} refuted",
            self.claimed, self.verified, self.refuted
        )?;
        if self.unconfirmed > 0 {
            write!(f, ", {} unconfirmed", self.unconfirmed)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE_CHAIN: &str = "wC@B2/0,wC@B5/0,wE@B7/3,wE@C10/4,wE@F13/4";
    const BLACK_AWAY: &str = "bE@N8/0,bE@O11/0,bT@M10/0,bT@P14/0";

    fn at(text: &str) -> Position {
        Position::from_position_string(text).unwrap()
    }

    fn claim(best: &str, score: Score) -> SearchResult {
        let best: Move = best.parse().unwrap();
        SearchResult {
            best,
            score,
            depth: 1,
            nodes: 1,
            pv: vec![best],
        }
    }

    fn no_research(_: &Position) -> SearchResult {
        panic!("no new search expected")
    }

    #[test]
    fn tasks_come_from_a_kind_line_or_the_file_name() {
        let pos = format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1");
        let s = parse_suite("win_in_1.txt", &format!("# made by hand\n\n{pos}\n")).unwrap();
        assert_eq!(
            (s.task, s.entries.len(), s.entries[0].line),
            (Task::WinInOne, 1, 3)
        );
        let s = parse_suite("mine.txt", &format!("# kind: must-block\n{pos} L@J17/1\n")).unwrap();
        assert_eq!(s.task, Task::MustBlock);
        assert_eq!(s.entries[0].solutions, vec!["L@J17/1".parse().unwrap()]);
        assert!(parse_suite("mine.txt", &pos)
            .unwrap_err()
            .starts_with("no task"));
        let e = parse_suite("win-in-2.txt", &format!("{pos}\nstandard:x\n")).unwrap_err();
        assert!(e.starts_with("line 2: not a position string"), "{e}");
        let e = parse_suite("win_in_2.txt", &format!("{pos} Q@Z99/9\n")).unwrap_err();
        assert!(e.starts_with("line 1: `Q@Z99/9` is not a move"), "{e}");
        let e = parse_suite("x.txt", "# kind: mate-in-3\n").unwrap_err();
        assert!(e.contains("line 1: `mate-in-3` is not a task"), "{e}");
        assert_eq!(
            parse_suite("win_in_1.txt", "# only\n").unwrap_err(),
            "no positions"
        );
    }

    #[test]
    fn answers_are_checked_by_the_rules() {
        let white = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        let win: Move = "L@J17/1".parse().unwrap();
        let other: Move = "T@L6/0".parse().unwrap();
        assert!(solves(Task::WinInOne, &white, win));
        assert!(!solves(Task::WinInOne, &white, other));
        assert!(Task::WinInOne.check_position(&white, &[win]).is_ok());
        assert!(Task::WinInOne.check_position(&white, &[other]).is_err());
        let black = at(&format!("standard:b:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        assert!(Task::MustBlock.check_position(&black, &[]).is_ok());
        assert!(solves(
            Task::MustBlock,
            &black,
            "J16-J16/0".parse().unwrap()
        ));
        assert!(!solves(Task::MustBlock, &black, other));
        assert!(Task::WinInTwo
            .check_position(&black, &[])
            .unwrap_err()
            .contains("no solution listed"));
    }

    #[test]
    fn a_win_in_one_claim_is_checked_at_once() {
        let white = at(&format!("standard:w:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        let v = verify_claim(&white, &claim("L@J17/1", Score::Win(1)), &mut no_research);
        assert_eq!(v, Some(ClaimCheck::Verified));
        let v = verify_claim(&white, &claim("T@L6/0", Score::Win(1)), &mut no_research);
        assert!(matches!(v, Some(ClaimCheck::Refuted(_))), "{v:?}");
        assert_eq!(
            verify_claim(&white, &claim("T@L6/0", Score::Eval(3)), &mut no_research),
            None
        );
    }

    /// From the shipped puzzles: Black wins in two with T@N16/0 and nothing
    /// else.
    const BLACK_WINS_IN_TWO: &str = "standard:b:0:wC@B9/0,wT@C2/0,bE@D4/2,wR@D7/5,bE@E3/2,bL@E5/3,bT@F2/1,wM@F3/2,wL@G5/2,bE@I6/1,bR@I7/4,bC@I8/2,wE@J3/2,bL@M9/1,bT@O11/0,bC@P13/1,bR@P16/2,wT@P17/1,bE@D4/4^1,wL@D7/5^1,wE@F3/2^1,wE@F5/4^1,bM@G4/5^1,wC@F3/2^2,wR@F5/4^2,bM@F4/0^3";

    #[test]
    fn a_win_in_two_claim_is_replayed_against_every_reply() {
        let pos = at(BLACK_WINS_IN_TWO);
        for n in [3, 5] {
            let v = verify_claim(&pos, &claim("T@N16/0", Score::Win(n)), &mut no_research);
            assert_eq!(v, Some(ClaimCheck::Verified), "win {n}");
        }
        assert!(solves(Task::WinInTwo, &pos, "T@N16/0".parse().unwrap()));
        assert!(Task::WinInTwo
            .check_position(&pos, &["T@N16/0".parse().unwrap()])
            .is_ok());
        // Another first move: a reply leaves no win at once.
        let v = verify_claim(&pos, &claim("T@L6/0", Score::Win(3)), &mut no_research);
        assert!(
            matches!(&v, Some(ClaimCheck::Refuted(why)) if why.starts_with("T@L6/0 ")),
            "{v:?}"
        );
        assert!(!solves(Task::WinInTwo, &pos, "T@L6/0".parse().unwrap()));
        // Too short a claim is false even with the right move.
        let v = verify_claim(&pos, &claim("T@N16/0", Score::Win(1)), &mut no_research);
        assert!(matches!(v, Some(ClaimCheck::Refuted(_))), "{v:?}");
    }

    #[test]
    fn a_loss_in_two_holds_only_when_no_move_defends() {
        // Black can turn its C in place over White's last cells.
        let black = at(&format!("standard:b:0:{WHITE_CHAIN},{BLACK_AWAY},bC@J16/1"));
        let v = verify_claim(&black, &claim("T@L6/0", Score::Loss(2)), &mut no_research);
        assert!(matches!(v, Some(ClaimCheck::Refuted(_))), "{v:?}");
        // Here no move stops every threat.
        let lost = crate::fixtures::every_move_allows_a_win();
        let any = lost.legal_moves()[0].to_string();
        let v = verify_claim(&lost, &claim(&any, Score::Loss(2)), &mut no_research);
        assert_eq!(v, Some(ClaimCheck::Verified));
    }
}
