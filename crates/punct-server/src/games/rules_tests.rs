//! One test per rule of a game on the server: seats and turns, draw
//! offers, takebacks, resignation, invites and tokens, names, clocks,
//! rematches and abandonment, each asserted on a `LiveGame` built the way
//! `create.rs` builds it (a `GameRow` with its mode, tokens and invite), with
//! no server, store or socket. A characterisation of what the code does:
//! tests marked `#[ignore = "bug: …"]` state what it should do instead.
//!
//! Moves are *fillers* of the side to move, far from everything else (as in
//! punct-core's `tests/rules.rs`): White turns a triangle at K16 (`T@K16/0`,
//! then `K16-K16/1`, `K16-K16/0`, …), Black one at O16. The tokens are
//! `w` and `b` for the online seats, `hs` for both seats at the hot seat and
//! `me` for the person playing the AI.
//!
//! Time: clocks are driven by moving the running clock's start back
//! ([`wait`]) or by setting the stored fields to fixed times and asking
//! at a chosen `now`; where a method reads the real clock, only what does
//! not depend on the exact time is asserted (a charge is right to within
//! [`SLACK`], the real time the test itself took).

use super::{
    after_flag, now_ms, parse_name, Action, End, EndReason, GameError, LiveGame, Mode, NameChar,
    Notice, Request,
};
use crate::clock::TimeControl;
use crate::error::ApiError;
use axum::http::StatusCode;
use punct_core::{Outcome, Position, Side, Variant};
use punct_store::GameRow;

const W: Side = Side::White;
const B: Side = Side::Black;

const WHITE: &str = "w";
const BLACK: &str = "b";
const HOTSEAT: &str = "hs";
const ME: &str = "me";
const CODE: &str = "the-invite-code";

/// 60 seconds each, 2 more after each move.
const BLITZ: TimeControl = TimeControl::Realtime {
    initial: 60,
    increment: 2,
};
const DAY_MS: i64 = 86_400_000;
/// How much real time a test may take between its clock readings.
const SLACK: i64 = 2_000;

/// White to move and one move from winning: its chain A8 … O12 across
/// the board is closed by [`WINNING_MOVE`] (see punct-core's
/// `connecting_column_a_to_column_q_wins`).
const WHITE_WINS_NEXT: &str = "standard:w:0:wE@A8/5,wE@D9/5,wE@G10/5,wE@J11/5,wC@N12/2";
const WINNING_MOVE: &str = "C@P13/2";

// ================================================================ helpers

/// A new game's row, as `create.rs` `new_row` writes one, with no seats.
fn row(mode: Mode, start: &Position) -> GameRow {
    let now = now_ms();
    GameRow {
        id: "g1".into(),
        variant: start.variant().name().into(),
        mode,
        start: start.to_position_string(),
        created: now,
        updated: now,
        version: 1,
        ..GameRow::default()
    }
}

fn live(row: GameRow) -> LiveGame {
    let start = Position::from_position_string(&row.start).unwrap();
    LiveGame::new(row, start).unwrap()
}

/// An online game from `start` whose two seats have their players.
fn online_from(start: Position) -> LiveGame {
    live(GameRow {
        white_token: Some(WHITE.into()),
        black_token: Some(BLACK.into()),
        ..row(Mode::Online, &start)
    })
}

/// An online game from the standard start, both seats taken.
fn online() -> LiveGame {
    online_from(Position::new(Variant::Standard))
}

/// An online game just created by `creator`: the other seat waits for
/// whoever brings the invite code.
fn waiting(creator: Side) -> LiveGame {
    let token = Some(token_of(creator).to_string());
    let (white_token, black_token) = match creator {
        Side::White => (token, None),
        Side::Black => (None, token),
    };
    live(GameRow {
        white_token,
        black_token,
        invite: Some(CODE.into()),
        ..row(Mode::Online, &Position::new(Variant::Standard))
    })
}

/// Two people at one screen: one token holds both seats.
fn hotseat() -> LiveGame {
    live(GameRow {
        white_token: Some(HOTSEAT.into()),
        black_token: Some(HOTSEAT.into()),
        ..row(Mode::Hotseat, &Position::new(Variant::Standard))
    })
}

/// A person (token `me`) against the AI playing `ai_side` at level 3.
fn against_ai(ai_side: Side) -> LiveGame {
    let me = Some(ME.to_string());
    let (white_token, black_token) = match ai_side {
        Side::White => (None, me),
        Side::Black => (me, None),
    };
    live(GameRow {
        white_token,
        black_token,
        ..row(
            Mode::Ai { level: 3, ai_side },
            &Position::new(Variant::Standard),
        )
    })
}

fn timed(mut g: LiveGame, tc: TimeControl) -> LiveGame {
    g.set_time_control(Some(tc));
    g
}

/// The filler move of the side to move (see the module docs).
fn filler(pos: &Position) -> String {
    let home = match pos.side_to_move() {
        Side::White => "K16",
        Side::Black => "O16",
    };
    match pos.top_piece(home.parse().unwrap()) {
        None => format!("T@{home}/0"),
        Some(p) => format!("{home}-{home}/{}", 1 - p.placement.rotation.min(1)),
    }
}

/// The online seat token of `side`.
fn token_of(side: Side) -> &'static str {
    match side {
        Side::White => WHITE,
        Side::Black => BLACK,
    }
}

/// Plays the side to move's filler with `token`, which must be accepted.
#[track_caller]
fn play_with(g: &mut LiveGame, token: &str) {
    let mv = filler(g.position());
    if let Err(e) = g.play(token, &mv, None) {
        panic!("{mv} with token {token:?} refused: {e}");
    }
}

/// Plays `plies` fillers in an online game, each with its seat's token.
#[track_caller]
fn play_online(g: &mut LiveGame, plies: usize) {
    for _ in 0..plies {
        let token = token_of(g.position().side_to_move());
        play_with(g, token);
    }
}

/// The AI plays its filler.
#[track_caller]
fn ai_plays(g: &mut LiveGame) {
    assert!(g.ai_to_move(), "the AI is not to move");
    let mv = filler(g.position()).parse().unwrap();
    g.play_ai(mv).unwrap();
}

/// Asserts that `action` is refused with `code` and `status` and changes
/// neither the stored row nor the moves; answers the error.
#[track_caller]
fn refused<T: std::fmt::Debug, E: Into<ApiError>>(
    g: &mut LiveGame,
    action: impl FnOnce(&mut LiveGame) -> Result<T, E>,
    code: &str,
    status: StatusCode,
) -> ApiError {
    let row = g.row.clone();
    let plies = g.game.len();
    // Through the one mapping of a game's refusals to the API's errors.
    let e: ApiError = match action(g) {
        Ok(v) => panic!("accepted ({v:?}), want {code}"),
        Err(e) => e.into(),
    };
    assert_eq!((e.code, e.status), (code, status), "{}", e.message);
    assert_eq!(g.row, row, "the refused action changed the row");
    assert_eq!(g.game.len(), plies, "the refused action changed the moves");
    e
}

const CONFLICT: StatusCode = StatusCode::CONFLICT;
const FORBIDDEN: StatusCode = StatusCode::FORBIDDEN;
const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;

/// As if `ms` had passed on the running clock: its start moved back.
fn wait(g: &mut LiveGame, ms: i64) {
    let since = g.row.clock_since.expect("no clock runs");
    g.row.clock_since = Some(since - ms);
}

/// Asserts that a stored time is `want`, less at most [`SLACK`].
#[track_caller]
fn about(ms: Option<i64>, want: i64) {
    let ms = ms.expect("no stored time");
    assert!(
        ms <= want && ms > want - SLACK,
        "{ms} ms, want about {want}"
    );
}

fn running(g: &LiveGame) -> serde_json::Value {
    g.clock_json()["running"].clone()
}

// ========================================================= turns and seats

#[test]
fn a_move_is_recorded_in_the_row_with_a_new_version() {
    let mut g = hotseat();
    assert_eq!((g.row.version, g.row.plies), (1, 0));
    play_with(&mut g, HOTSEAT);
    play_with(&mut g, HOTSEAT);
    assert_eq!(g.row.moves, "T@K16/0 T@O16/0");
    assert_eq!((g.row.version, g.row.plies), (3, 2));
    assert_eq!(g.row.finished, None);
    // The stored row replays to the same game.
    let again = LiveGame::from_row(g.row.clone()).unwrap();
    assert_eq!(again.position(), g.position());
}

#[test]
fn a_token_that_holds_no_seat_cannot_move() {
    let mut g = online();
    refused(
        &mut g,
        |g| g.play("nobody", "T@K16/0", None),
        "bad_token",
        FORBIDDEN,
    );
    // Tokens compare exactly: not even the case may differ.
    refused(
        &mut g,
        |g| g.play("W", "T@K16/0", None),
        "bad_token",
        FORBIDDEN,
    );
}

#[test]
fn online_each_seat_moves_only_its_own_side() {
    let mut g = online();
    assert_eq!(g.seats(WHITE), [W]);
    assert_eq!(g.seats(BLACK), [B]);
    // White to move: Black's token is refused, naming whose turn it is.
    let e = refused(
        &mut g,
        |g| g.play(BLACK, "T@O16/0", None),
        "not_your_turn",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "white");
    assert_eq!(e.params["waiting"], false);
    play_with(&mut g, WHITE);
    // Now Black's turn: White's token is refused.
    let e = refused(
        &mut g,
        |g| g.play(WHITE, "K16-K16/1", None),
        "not_your_turn",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
    play_with(&mut g, BLACK);
    assert_eq!(g.game.len(), 2);
}

#[test]
fn at_the_hot_seat_one_token_moves_both_sides() {
    let mut g = hotseat();
    assert_eq!(g.seats(HOTSEAT), [W, B]);
    for ply in 0..4 {
        assert_eq!(
            g.position().side_to_move(),
            if ply % 2 == 0 { W } else { B }
        );
        play_with(&mut g, HOTSEAT);
    }
    assert_eq!(g.game.len(), 4);
}

#[test]
fn against_the_ai_the_person_moves_only_their_side() {
    let mut g = against_ai(B);
    assert_eq!(g.seats(ME), [W]);
    assert!(!g.ai_to_move());
    play_with(&mut g, ME);
    // The AI's turn: the person's token is refused.
    assert!(g.ai_to_move());
    let e = refused(
        &mut g,
        |g| g.play(ME, "T@O16/0", None),
        "not_your_turn",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
    ai_plays(&mut g);
    assert!(!g.ai_to_move());
    assert_eq!(g.game.len(), 2);

    // With the AI on White, it moves first.
    let g = against_ai(W);
    assert_eq!(g.seats(ME), [B]);
    assert!(g.ai_to_move());
}

#[test]
fn the_creator_may_move_before_the_invite_is_claimed_but_the_waiting_seat_may_not() {
    let mut g = waiting(W);
    assert_eq!(g.invite_open(), Some(B));
    // White's first move needs no opponent.
    play_with(&mut g, WHITE);
    // Black's turn, and nobody holds Black's seat yet.
    let e = refused(
        &mut g,
        |g| g.play(WHITE, "T@O16/0", None),
        "not_your_turn",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
    assert_eq!(e.params["waiting"], true);
    assert!(e.message.contains("has not joined yet"), "{}", e.message);
}

#[test]
fn a_move_made_for_a_stale_ply_is_refused() {
    let mut g = online();
    play_with(&mut g, WHITE);
    // The client showed the start (ply 0); one ply has been played.
    let e = refused(
        &mut g,
        |g| g.play(BLACK, "T@O16/0", Some(0)),
        "stale",
        CONFLICT,
    );
    assert_eq!(e.params["ply"], 0);
    assert_eq!(e.params["plies"], 1);
    // Ahead of the game is stale too.
    refused(
        &mut g,
        |g| g.play(BLACK, "T@O16/0", Some(2)),
        "stale",
        CONFLICT,
    );
    // The current ply is accepted.
    g.play(BLACK, "T@O16/0", Some(1)).unwrap();
    assert_eq!(g.game.len(), 2);
}

#[test]
fn a_move_that_does_not_parse_or_breaks_a_rule_is_refused() {
    let mut g = online();
    let e = refused(
        &mut g,
        |g| g.play(WHITE, "not a move", None),
        "bad_move",
        BAD_REQUEST,
    );
    assert_eq!(e.params["move"], "not a move");
    // E A2/0 = A2 A1 …: A1 is a removed corner.
    let e = refused(
        &mut g,
        |g| g.play(WHITE, "E@A2/0", None),
        "illegal_move",
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(e.reason, Some("off_board"));
    assert_eq!(e.params["move"], "E@A2/0");
}

#[test]
fn no_move_is_accepted_after_a_resignation() {
    let mut g = online();
    play_with(&mut g, WHITE);
    g.resign(BLACK).unwrap();
    refused(
        &mut g,
        |g| g.play(WHITE, "K16-K16/1", None),
        "game_over",
        CONFLICT,
    );
    // The end is checked before the token.
    refused(
        &mut g,
        |g| g.play("nobody", "K16-K16/1", None),
        "game_over",
        CONFLICT,
    );
}

#[test]
fn no_move_is_accepted_after_a_win_on_the_board() {
    let mut g = online_from(Position::from_position_string(WHITE_WINS_NEXT).unwrap());
    g.play(WHITE, WINNING_MOVE, None).unwrap();
    // Won by the position: nothing stored as a result, the status says it.
    assert!(g.is_over());
    assert_eq!(g.row.end, None);
    assert_eq!(g.row.finished, Some(Outcome::WhiteWins));
    assert_eq!(g.outcome(), Outcome::WhiteWins);
    refused(
        &mut g,
        |g| g.play(BLACK, "T@O16/0", None),
        "game_over",
        CONFLICT,
    );
}

// ============================================================= draw offers

#[test]
fn a_draw_offered_and_accepted_ends_the_game_drawn_by_agreement() {
    let mut g = online();
    play_online(&mut g, 2);
    g.draw(WHITE, Action::Propose).unwrap();
    assert_eq!(g.row.draw_offer, Some(Side::White));
    assert!(!g.is_over());
    g.draw(BLACK, Action::Accept).unwrap();
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::Draw));
    assert_eq!(g.row.end.map(|e| e.reason), Some(EndReason::Agreement));
    assert_eq!(g.row.finished, Some(Outcome::Draw));
    assert_eq!(g.row.draw_offer, None);
    assert_eq!(g.outcome(), Outcome::Draw);
    assert!(g.is_over());
    // The record states the agreement.
    let record = g.record();
    assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    assert!(record.contains("[Termination \"agreement\"]"), "{record}");
}

#[test]
fn a_declined_draw_offer_is_cleared_with_a_notice() {
    let mut g = online();
    g.draw(WHITE, Action::Propose).unwrap();
    g.draw(BLACK, Action::Decline).unwrap();
    assert_eq!(g.row.draw_offer, None);
    assert_eq!(g.notice, Some(Notice::DrawDeclined(B)));
    assert!(!g.is_over());
    // The next change clears the notice.
    play_with(&mut g, WHITE);
    assert_eq!(g.notice, None);
}

#[test]
fn a_player_cannot_answer_their_own_draw_offer() {
    let mut g = online();
    g.draw(WHITE, Action::Propose).unwrap();
    refused(
        &mut g,
        |g| g.draw(WHITE, Action::Accept),
        "own_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.draw(WHITE, Action::Decline),
        "own_offer",
        CONFLICT,
    );
    // Offering again just renews the offer.
    g.draw(WHITE, Action::Propose).unwrap();
    assert_eq!(g.row.draw_offer, Some(Side::White));
}

#[test]
fn answering_a_draw_when_none_is_offered_is_refused() {
    let mut g = online();
    refused(
        &mut g,
        |g| g.draw(BLACK, Action::Accept),
        "no_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.draw(BLACK, Action::Decline),
        "no_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.draw("nobody", Action::Propose),
        "bad_token",
        FORBIDDEN,
    );
    let e = refused(
        &mut g,
        |_| Request::Draw.action("propose"),
        "bad_action",
        BAD_REQUEST,
    );
    assert_eq!(e.params["action"], "propose");
}

#[test]
fn offering_a_draw_back_to_the_offerer_agrees_it() {
    let mut g = online();
    g.draw(WHITE, Action::Propose).unwrap();
    g.draw(BLACK, Action::Propose).unwrap();
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::Draw));
    assert_eq!(g.row.end.map(|e| e.reason), Some(EndReason::Agreement));
}

#[test]
fn playing_on_declines_the_opponents_draw_offer_but_not_ones_own() {
    let mut g = online();
    // White offers, then moves: its own offer stands for Black to answer.
    g.draw(WHITE, Action::Propose).unwrap();
    play_with(&mut g, WHITE);
    assert_eq!(g.row.draw_offer, Some(Side::White));
    // Black plays on instead of answering: the offer lapses, silently.
    play_with(&mut g, BLACK);
    assert_eq!(g.row.draw_offer, None);
    assert_eq!(g.notice, None);
    assert!(!g.is_over());
}

#[test]
fn a_draw_cannot_be_offered_before_the_opponent_has_joined() {
    let mut g = waiting(W);
    let e = refused(
        &mut g,
        |g| g.draw(WHITE, Action::Propose),
        "no_opponent",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
}

#[test]
fn draw_actions_after_the_end_are_refused() {
    let mut g = online();
    g.draw(WHITE, Action::Propose).unwrap();
    g.resign(BLACK).unwrap();
    // Resigning cleared the offer.
    assert_eq!(g.row.draw_offer, None);
    for action in [Action::Propose, Action::Accept, Action::Decline] {
        refused(&mut g, |g| g.draw(BLACK, action), "game_over", CONFLICT);
    }
}

#[test]
fn the_ai_declines_a_draw_in_an_even_position() {
    let mut g = against_ai(B);
    play_with(&mut g, ME);
    ai_plays(&mut g);
    let version = g.row.version;
    g.draw(ME, Action::Propose).unwrap();
    // Answered at once: declined, with a notice; no offer is left pending.
    assert_eq!(g.notice, Some(Notice::AiDeclinesDraw));
    assert_eq!(g.row.draw_offer, None);
    assert!(!g.is_over());
    assert_eq!(g.row.version, version + 1);
    // Nothing to accept or decline against the AI.
    refused(&mut g, |g| g.draw(ME, Action::Accept), "no_offer", CONFLICT);
    // The next move clears the notice.
    play_with(&mut g, ME);
    assert_eq!(g.notice, None);
}

#[test]
fn at_the_hot_seat_the_side_to_move_offers_and_the_same_token_answers() {
    let mut g = hotseat();
    play_with(&mut g, HOTSEAT);
    // Black to move: the offer is Black's, the answer White's.
    g.draw(HOTSEAT, Action::Propose).unwrap();
    assert_eq!(g.row.draw_offer, Some(Side::Black));
    g.draw(HOTSEAT, Action::Accept).unwrap();
    assert_eq!(g.row.end.map(|e| e.reason), Some(EndReason::Agreement));
}

// =============================================================== takebacks

#[test]
fn an_accepted_takeback_undoes_the_askers_last_move() {
    let mut g = online();
    play_online(&mut g, 1);
    g.takeback(WHITE, Action::Propose).unwrap();
    assert_eq!(g.row.takeback, Some(Side::White));
    assert_eq!(g.game.len(), 1);
    g.takeback(BLACK, Action::Accept).unwrap();
    assert_eq!(g.game.len(), 0);
    assert_eq!(g.row.moves, "");
    assert_eq!(g.row.takeback, None);
    assert_eq!(g.position().side_to_move(), W);
}

#[test]
fn an_accepted_takeback_also_undoes_the_opponents_reply() {
    let mut g = online();
    play_online(&mut g, 4);
    // White, to move, asks after Black's reply: Black's 4th ply and
    // White's 3rd go.
    g.takeback(WHITE, Action::Propose).unwrap();
    g.takeback(BLACK, Action::Accept).unwrap();
    assert_eq!(g.game.len(), 2);
    assert_eq!(g.position().side_to_move(), W);
}

#[test]
fn a_declined_takeback_is_cleared_with_a_notice() {
    let mut g = online();
    play_online(&mut g, 2);
    g.takeback(BLACK, Action::Propose).unwrap();
    g.takeback(WHITE, Action::Decline).unwrap();
    assert_eq!(g.row.takeback, None);
    assert_eq!(g.notice, Some(Notice::TakebackDeclined(W)));
    assert_eq!(g.game.len(), 2);
}

#[test]
fn a_takeback_cannot_be_asked_before_having_moved() {
    let mut g = online();
    let e = refused(
        &mut g,
        |g| g.takeback(WHITE, Action::Propose),
        "nothing_to_take_back",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "white");
    play_with(&mut g, WHITE);
    let e = refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Propose),
        "nothing_to_take_back",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
}

#[test]
fn a_player_cannot_answer_their_own_takeback_request() {
    let mut g = online();
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Accept),
        "no_request",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Decline),
        "no_request",
        CONFLICT,
    );
    play_with(&mut g, WHITE);
    g.takeback(WHITE, Action::Propose).unwrap();
    refused(
        &mut g,
        |g| g.takeback(WHITE, Action::Accept),
        "own_request",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.takeback(WHITE, Action::Decline),
        "own_request",
        CONFLICT,
    );
    let e = refused(
        &mut g,
        |_| Request::Takeback.action("undo"),
        "bad_action",
        BAD_REQUEST,
    );
    assert_eq!(e.params["action"], "undo");
}

#[test]
fn a_takeback_request_waits_until_the_opponents_is_answered() {
    let mut g = online();
    play_online(&mut g, 2);
    g.takeback(WHITE, Action::Propose).unwrap();
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Propose),
        "pending_request",
        CONFLICT,
    );
}

#[test]
fn a_move_withdraws_a_pending_takeback_request() {
    let mut g = online();
    play_online(&mut g, 1);
    g.takeback(WHITE, Action::Propose).unwrap();
    // Black plays on instead of answering.
    play_with(&mut g, BLACK);
    assert_eq!(g.row.takeback, None);
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Accept),
        "no_request",
        CONFLICT,
    );
}

#[test]
fn a_takeback_cannot_be_asked_before_the_opponent_has_joined() {
    let mut g = waiting(W);
    play_with(&mut g, WHITE);
    refused(
        &mut g,
        |g| g.takeback(WHITE, Action::Propose),
        "no_opponent",
        CONFLICT,
    );
}

#[test]
fn against_the_ai_a_takeback_is_granted_at_once_back_to_the_persons_last_move() {
    let mut g = against_ai(B);
    play_with(&mut g, ME);
    ai_plays(&mut g);
    play_with(&mut g, ME);
    ai_plays(&mut g);
    // The AI's reply and the person's move go: back to ply 2.
    g.takeback(ME, Action::Propose).unwrap();
    assert_eq!(g.game.len(), 2);
    assert_eq!(g.row.takeback, None);
    assert!(!g.ai_to_move());
    // Before the AI answers, only the person's move goes.
    play_with(&mut g, ME);
    assert!(g.ai_to_move());
    g.takeback(ME, Action::Propose).unwrap();
    assert_eq!(g.game.len(), 2);
    assert!(!g.ai_to_move());
}

#[test]
fn against_the_ai_moving_second_nothing_is_taken_back_before_the_first_move() {
    let mut g = against_ai(W);
    ai_plays(&mut g);
    let e = refused(
        &mut g,
        |g| g.takeback(ME, Action::Propose),
        "nothing_to_take_back",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
}

#[test]
fn at_the_hot_seat_a_takeback_undoes_the_last_move_whoever_made_it() {
    let mut g = hotseat();
    let e = refused(
        &mut g,
        |g| g.takeback(HOTSEAT, Action::Propose),
        "nothing_to_take_back",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "white");
    play_with(&mut g, HOTSEAT);
    play_with(&mut g, HOTSEAT);
    play_with(&mut g, HOTSEAT);
    for plies in [2, 1, 0] {
        g.takeback(HOTSEAT, Action::Propose).unwrap();
        assert_eq!(g.game.len(), plies);
        assert_eq!(g.row.takeback, None);
    }
}

#[test]
fn a_game_ended_by_resignation_or_agreement_cannot_be_taken_back() {
    let mut g = online();
    play_online(&mut g, 2);
    g.resign(WHITE).unwrap();
    refused(
        &mut g,
        |g| g.takeback(WHITE, Action::Propose),
        "game_over",
        CONFLICT,
    );

    let mut g = online();
    play_online(&mut g, 2);
    g.takeback(WHITE, Action::Propose).unwrap();
    g.draw(WHITE, Action::Propose).unwrap();
    g.draw(BLACK, Action::Accept).unwrap();
    // The agreement cleared the request; nothing can be taken back.
    assert_eq!(g.row.takeback, None);
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Accept),
        "game_over",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.takeback(BLACK, Action::Propose),
        "game_over",
        CONFLICT,
    );
}

#[test]
fn a_game_won_on_the_board_can_be_taken_back_and_goes_on() {
    let mut g = online_from(Position::from_position_string(WHITE_WINS_NEXT).unwrap());
    g.play(WHITE, WINNING_MOVE, None).unwrap();
    assert!(g.is_over());
    // A review and a rematch offer of the ended game.
    g.row.review = Some("{}".into());
    g.rematch(BLACK, Action::Propose, "g2").unwrap();
    assert_eq!(g.row.rematch_offer, Some(Side::Black));
    g.takeback(WHITE, Action::Propose).unwrap();
    g.takeback(BLACK, Action::Accept).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.row.finished, None);
    assert_eq!(g.game.len(), 0);
    // They belonged to the ended game.
    assert_eq!(g.row.review, None);
    assert_eq!(g.row.rematch_offer, None);
}

#[test]
fn a_game_whose_rematch_has_begun_cannot_be_taken_back() {
    let mut g = online_from(Position::from_position_string(WHITE_WINS_NEXT).unwrap());
    g.play(WHITE, WINNING_MOVE, None).unwrap();
    g.rematch(BLACK, Action::Propose, "g2").unwrap();
    g.rematch(WHITE, Action::Accept, "g2").unwrap();
    assert!(g.rematch_new.is_some());
    assert_eq!(g.row.rematch.as_deref(), Some("g2"));
    // Clients follow `rematch` to the new game; the old one stays ended.
    let before = g.row.clone();
    for (token, action) in [
        (WHITE, Action::Propose),
        (BLACK, Action::Propose),
        (BLACK, Action::Accept),
    ] {
        let e = ApiError::from(g.takeback(token, action).unwrap_err());
        assert_eq!((e.status.as_u16(), e.code), (409, "game_over"));
    }
    assert!(g.is_over());
    assert_eq!(g.row, before);
}

// ============================================================= resignation

#[test]
fn resigning_ends_the_game_for_the_other_side() {
    let mut g = online();
    play_online(&mut g, 1);
    g.draw(WHITE, Action::Propose).unwrap();
    g.takeback(WHITE, Action::Propose).unwrap();
    // Black, to move, resigns with an offer and a request pending.
    g.resign(BLACK).unwrap();
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::WhiteWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Resignation(Side::Black))
    );
    assert_eq!(g.row.finished, Some(Outcome::WhiteWins));
    assert_eq!(g.outcome(), Outcome::WhiteWins);
    // Pending offers and requests go with the game.
    assert_eq!(g.row.draw_offer, None);
    assert_eq!(g.row.takeback, None);
    let record = g.record();
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    assert!(
        record.contains("[Termination \"resignation:black\"]"),
        "{record}"
    );

    let mut g = online();
    g.resign(WHITE).unwrap();
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::BlackWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Resignation(Side::White))
    );
}

// ============================================================= aborting

#[test]
fn a_game_is_aborted_with_no_result_before_each_side_has_moved() {
    // Before any move, and after White's first: either seat may abort.
    for plies in [0, 1] {
        for side in [Side::White, Side::Black] {
            let mut g = online();
            play_online(&mut g, plies);
            assert!(g.abortable());
            refused(&mut g, |g| g.abort("nobody"), "bad_token", FORBIDDEN);
            g.abort(token_of(side)).unwrap();
            assert_eq!(
                g.row.end,
                Some(End {
                    outcome: Outcome::Unfinished,
                    reason: EndReason::Aborted(side)
                })
            );
            assert_eq!(g.row.finished, Some(Outcome::Unfinished));
            assert!(g.is_over() && !g.abortable());
            let record = g.record();
            assert!(record.contains("[Result \"*\"]"), "{record}");
            assert!(
                record.contains(&format!("[Termination \"aborted:{side}\"]")),
                "{record}"
            );
            refused(&mut g, |g| g.abort(WHITE), "game_over", CONFLICT);
            refused(&mut g, |g| g.resign(WHITE), "game_over", CONFLICT);
        }
    }
    // From the second ply on: too late.
    let mut g = online();
    play_online(&mut g, 2);
    assert!(!g.abortable());
    let e = refused(&mut g, |g| g.abort(BLACK), "too_late_to_abort", CONFLICT);
    assert_eq!(e.params["plies"], 2);
    // While the invite waits, against the AI and at one screen too.
    let mut g = waiting(Side::White);
    g.abort(WHITE).unwrap();
    let mut g = against_ai(Side::White);
    ai_plays(&mut g);
    g.abort(ME).unwrap();
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Aborted(Side::Black))
    );
    let mut g = hotseat();
    g.abort(HOTSEAT).unwrap();
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Aborted(Side::White))
    );
}

#[test]
fn at_the_hot_seat_the_side_to_move_resigns() {
    let mut g = hotseat();
    play_with(&mut g, HOTSEAT);
    g.resign(HOTSEAT).unwrap();
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Resignation(Side::Black))
    );
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::WhiteWins));
}

#[test]
fn resigning_after_the_end_or_without_a_seat_is_refused() {
    let mut g = online();
    refused(&mut g, |g| g.resign("nobody"), "bad_token", FORBIDDEN);
    g.resign(WHITE).unwrap();
    refused(&mut g, |g| g.resign(BLACK), "game_over", CONFLICT);
    refused(&mut g, |g| g.resign(WHITE), "game_over", CONFLICT);
}

// ======================================================== invites, tokens

#[test]
fn the_waiting_seat_is_claimed_with_the_invite_code() {
    let mut g = waiting(W);
    let version = g.row.version;
    let side = g
        .claim(CODE, "fresh".into(), Some("Bea".into()), None)
        .unwrap();
    assert_eq!(side, B);
    assert_eq!(g.row.black_token.as_deref(), Some("fresh"));
    assert_eq!(g.row.black_name.as_deref(), Some("Bea"));
    assert_eq!(g.row.invite, None);
    assert_eq!(g.invite_open(), None);
    assert_eq!(g.notice, Some(Notice::Joined(B)));
    assert_eq!(g.row.version, version + 1);
    // The new token holds Black's seat, and moves for it.
    assert_eq!(g.seats("fresh"), [B]);
    play_with(&mut g, WHITE);
    play_with(&mut g, "fresh");

    // A creator on Black leaves White's seat waiting.
    let mut g = waiting(B);
    assert_eq!(g.invite_open(), Some(W));
    assert_eq!(g.claim(CODE, "fresh".into(), None, None).unwrap(), W);
    assert_eq!(g.row.white_name, None);
}

#[test]
fn a_seat_is_claimed_only_once() {
    let mut g = waiting(W);
    g.claim(CODE, "first".into(), None, None).unwrap();
    refused(
        &mut g,
        |g| g.claim(CODE, "second".into(), None, None),
        "invite_used",
        CONFLICT,
    );
    // A used invite is said to be used whatever code comes with it.
    refused(
        &mut g,
        |g| g.claim("guess", "second".into(), None, None),
        "invite_used",
        CONFLICT,
    );
    assert_eq!(g.row.black_token.as_deref(), Some("first"));
}

#[test]
fn a_wrong_invite_code_is_refused() {
    let mut g = waiting(W);
    refused(
        &mut g,
        |g| g.claim("the-invite-codE", "t".into(), None, None),
        "bad_invite",
        FORBIDDEN,
    );
    assert_eq!(g.invite_open(), Some(B));
}

#[test]
fn games_without_an_invite_have_no_seat_to_claim() {
    for mut g in [hotseat(), against_ai(B), online()] {
        refused(
            &mut g,
            |g| g.claim(CODE, "t".into(), None, None),
            "invite_used",
            CONFLICT,
        );
    }
}

#[test]
fn a_seat_cannot_be_claimed_once_the_game_has_ended() {
    let mut g = waiting(W);
    g.resign(WHITE).unwrap();
    // The code is checked first, then the end.
    refused(
        &mut g,
        |g| g.claim("wrong", "t".into(), None, None),
        "bad_invite",
        FORBIDDEN,
    );
    refused(
        &mut g,
        |g| g.claim(CODE, "t".into(), None, None),
        "game_over",
        CONFLICT,
    );
}

#[test]
fn the_claim_does_not_ask_who_claims_so_the_creator_with_the_code_takes_the_other_seat_too() {
    // Nothing forbids it: the claim knows the code, not the claimant.
    let mut g = waiting(W);
    assert_eq!(g.claim(CODE, "second".into(), None, None).unwrap(), B);
    // The creator now holds both seats with two tokens and plays both.
    play_with(&mut g, WHITE);
    play_with(&mut g, "second");
    assert_eq!(g.game.len(), 2);
}

#[test]
fn a_renewed_token_replaces_the_old_one_in_its_seats() {
    let mut g = online();
    assert_eq!(g.renew_token(WHITE, "w2".into()).unwrap(), [W]);
    assert_eq!(g.row.white_token.as_deref(), Some("w2"));
    assert_eq!(g.row.black_token.as_deref(), Some(BLACK));
    // The old token is useless.
    assert!(g.seats(WHITE).is_empty());
    refused(
        &mut g,
        |g| g.play(WHITE, "T@K16/0", None),
        "bad_token",
        FORBIDDEN,
    );
    refused(
        &mut g,
        |g| g.renew_token(WHITE, "w3".into()),
        "bad_token",
        FORBIDDEN,
    );
    play_with(&mut g, "w2");

    // At the hot seat both seats take the new token.
    let mut g = hotseat();
    assert_eq!(g.renew_token(HOTSEAT, "hs2".into()).unwrap(), [W, B]);
    assert_eq!(g.seats("hs2"), [W, B]);
    assert!(g.seats(HOTSEAT).is_empty());
}

#[test]
fn a_token_can_be_renewed_after_the_end() {
    let mut g = online();
    g.resign(WHITE).unwrap();
    let version = g.row.version;
    assert_eq!(g.renew_token(BLACK, "b2".into()).unwrap(), [B]);
    assert_eq!(g.row.black_token.as_deref(), Some("b2"));
    assert_eq!(g.row.version, version + 1);
}

#[test]
fn the_creator_renews_the_invite_and_the_old_code_claims_nothing() {
    let mut g = waiting(W);
    let version = g.row.version;
    assert_eq!(g.renew_invite(WHITE, "new-code".into()).unwrap(), B);
    assert_eq!(g.row.invite.as_deref(), Some("new-code"));
    assert_eq!(g.row.version, version + 1, "stored as a change");
    // The seat still waits, its token still unmade.
    assert_eq!(g.invite_open(), Some(B));
    assert_eq!(g.row.black_token, None);
    // The old code is refused as any wrong code is; the new one claims.
    refused(
        &mut g,
        |g| g.claim(CODE, "t".into(), None, None),
        "bad_invite",
        FORBIDDEN,
    );
    assert_eq!(g.claim("new-code", "fresh".into(), None, None).unwrap(), B);
    assert_eq!(g.seats("fresh"), [B]);

    // A creator on Black renews White's invite; again and again.
    let mut g = waiting(B);
    assert_eq!(g.renew_invite(BLACK, "one".into()).unwrap(), W);
    assert_eq!(g.renew_invite(BLACK, "two".into()).unwrap(), W);
    refused(
        &mut g,
        |g| g.claim("one", "t".into(), None, None),
        "bad_invite",
        FORBIDDEN,
    );
    assert_eq!(g.claim("two", "t".into(), None, None).unwrap(), W);
}

#[test]
fn only_a_seat_holder_renews_an_invite_and_never_with_the_code() {
    let mut g = waiting(W);
    for stranger in ["", "nobody", CODE] {
        refused(
            &mut g,
            |g| g.renew_invite(stranger, "mine".into()),
            "bad_token",
            FORBIDDEN,
        );
    }
    assert_eq!(g.row.invite.as_deref(), Some(CODE));
}

#[test]
fn once_its_seat_is_claimed_there_is_no_invite_to_renew() {
    let mut g = waiting(W);
    g.claim(CODE, "fresh".into(), None, None).unwrap();
    for token in [WHITE, "fresh"] {
        let e = refused(
            &mut g,
            |g| g.renew_invite(token, "late".into()),
            "invite_used",
            CONFLICT,
        );
        assert!(e.message.contains("claimed"), "{}", e.message);
    }
    // Nor have games of other modes one; a stranger is still a stranger.
    for (mut g, token) in [(hotseat(), HOTSEAT), (against_ai(B), ME)] {
        let e = refused(
            &mut g,
            |g| g.renew_invite(token, "x".into()),
            "invite_used",
            CONFLICT,
        );
        assert!(e.message.contains("online"), "{}", e.message);
        refused(
            &mut g,
            |g| g.renew_invite("nobody", "x".into()),
            "bad_token",
            FORBIDDEN,
        );
    }
}

#[test]
fn an_invite_is_not_renewed_after_the_end() {
    let mut g = waiting(W);
    g.resign(WHITE).unwrap();
    refused(
        &mut g,
        |g| g.renew_invite(WHITE, "late".into()),
        "game_over",
        CONFLICT,
    );
}

// =================================================================== names

#[test]
fn names_are_trimmed_and_an_empty_name_is_none() {
    assert_eq!(parse_name(None).unwrap(), None);
    assert_eq!(parse_name(Some("")).unwrap(), None);
    assert_eq!(parse_name(Some("   ")).unwrap(), None);
    assert_eq!(
        parse_name(Some("  Ada Lovelace ")).unwrap().as_deref(),
        Some("Ada Lovelace")
    );
    // Letters of any script, digits and punctuation other than quotes.
    assert_eq!(
        parse_name(Some("Jürgen (Zürich) #1")).unwrap().as_deref(),
        Some("Jürgen (Zürich) #1")
    );
}

#[test]
fn a_name_has_at_most_40_characters_not_bytes() {
    let forty = "Ü".repeat(40);
    assert_eq!(parse_name(Some(&forty)).unwrap(), Some(forty.clone()));
    // Spaces around do not count.
    assert!(parse_name(Some(&format!("  {forty}  "))).is_ok());
    let e = ApiError::from(parse_name(Some(&"Ü".repeat(41))).unwrap_err());
    assert_eq!((e.code, e.status), ("bad_name", BAD_REQUEST));
    assert_eq!(e.params["length"], 41);
    assert_eq!(e.params["max"], 40);
}

#[test]
fn control_characters_quotes_and_backslashes_are_refused_in_names() {
    for bad in [
        "a\nb",
        "a\tb",
        "tab\u{7}",
        "say \"hi\"",
        "back\\slash",
        "nul\0",
    ] {
        let (shown, why) = refused_char(bad);
        let want = if bad.contains(['"', '\\']) {
            NameChar::Quoting
        } else {
            NameChar::Control
        };
        assert_eq!(why, want, "{shown} in {bad:?}");
    }
    assert_eq!(refused_char("say \"hi\"").0, "U+0022");
    // A single quote is fine.
    assert!(parse_name(Some("O'Brien")).is_ok());
}

/// The error refusing `name` for a character: which one (as its code
/// point, also in the message and the params) and why.
#[track_caller]
fn refused_char(name: &str) -> (String, NameChar) {
    let Err(GameError::NameCharacter(c, why)) = parse_name(Some(name)) else {
        panic!(
            "{name:?} was not refused for a character: {:?}",
            parse_name(Some(name))
        );
    };
    let shown = format!("U+{:04X}", c as u32);
    let e = ApiError::from(GameError::NameCharacter(c, why));
    assert_eq!((e.code, e.status), ("bad_name", BAD_REQUEST), "{name:?}");
    assert_eq!(e.params["char"], shown.as_str(), "{name:?}");
    assert!(e.message.contains(&shown), "{name:?}: {}", e.message);
    // The refused character itself never shows in the message (it would
    // turn or hide the text around it), except a quote or backslash.
    if why != NameChar::Quoting {
        assert!(!e.message.contains(c), "{name:?}: {}", e.message);
    }
    (shown, why)
}

#[test]
fn names_are_stored_in_nfc_and_the_limit_counts_that_form() {
    // "é" as e + U+0301 is stored composed: one name, one form.
    let decomposed = "Rene\u{301}e";
    assert_eq!(
        parse_name(Some(decomposed)).unwrap().as_deref(),
        Some("Ren\u{E9}e")
    );
    // 41 characters decomposed, 40 composed: accepted, composed.
    let long = format!("{}e\u{301}", "a".repeat(39));
    assert_eq!(long.chars().count(), 41);
    let stored = parse_name(Some(&long)).unwrap().unwrap();
    assert_eq!(stored.chars().count(), 40);
    assert_eq!(stored, format!("{}\u{E9}", "a".repeat(39)));
    // Hangul jamo compose into syllables; a name already in NFC is kept.
    assert_eq!(
        parse_name(Some("\u{1112}\u{1161}\u{11AB}"))
            .unwrap()
            .as_deref(),
        Some("\u{D55C}")
    );
    assert_eq!(
        parse_name(Some("日本 Ωmega")).unwrap().as_deref(),
        Some("日本 Ωmega")
    );
    // Over the limit even composed: the count given is the composed one.
    let e = ApiError::from(parse_name(Some(&format!("{}e\u{301}", "a".repeat(40)))).unwrap_err());
    assert_eq!(e.params["length"], 41);
}

#[test]
fn bidi_controls_are_refused_in_names() {
    for c in [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
    ] {
        let (shown, why) = refused_char(&format!("Ada{c}lin"));
        assert_eq!(why, NameChar::Direction, "{shown}");
    }
    let (shown, _) = refused_char("evil\u{202E}gnp.exe");
    assert_eq!(shown, "U+202E");
    // A right-to-left script needs none of them.
    assert!(parse_name(Some("שלום")).is_ok());
    assert!(parse_name(Some("مرحبا")).is_ok());
}

#[test]
fn zero_width_and_other_invisible_characters_are_refused_in_names() {
    for c in [
        '\u{200B}',
        '\u{200C}',
        '\u{200D}',
        '\u{2060}',
        '\u{2061}',
        '\u{2062}',
        '\u{2063}',
        '\u{2064}',
        '\u{FEFF}',
        '\u{00AD}',
        '\u{180E}',
        '\u{E0041}', // a tag character (Cf)
        '\u{034F}',
        '\u{115F}',
        '\u{1160}',
        '\u{3164}',
        '\u{FFA0}',
        '\u{17B4}',
    ] {
        for name in [format!("Ad{c}a"), format!("{c}Ada"), format!("Ada{c}")] {
            let (shown, why) = refused_char(&name);
            assert_eq!(why, NameChar::Invisible, "{shown} in {name:?}");
        }
        // Alone it is refused too, never taken for an empty name.
        refused_char(&c.to_string());
    }
    // Nothing is removed silently: the first one is named.
    let (shown, _) = refused_char("A\u{200B}d\u{FEFF}a");
    assert_eq!(shown, "U+200B");
}

#[test]
fn whitespace_other_than_a_plain_space_is_refused_inside_names() {
    for c in [
        '\u{00A0}', '\u{2000}', '\u{2003}', '\u{2009}', '\u{200A}', '\u{202F}', '\u{205F}',
        '\u{3000}', '\u{1680}', '\u{2028}', '\u{2029}',
    ] {
        let (shown, why) = refused_char(&format!("Ada{c}Lovelace"));
        assert_eq!(why, NameChar::Space, "{shown}");
    }
    // Plain spaces, also several, are kept as they are.
    assert_eq!(
        parse_name(Some("Ada  Lovelace")).unwrap().as_deref(),
        Some("Ada  Lovelace")
    );
    // Whitespace around a name is trimmed, as always.
    assert_eq!(
        parse_name(Some("\u{3000}Ada\u{00A0}")).unwrap().as_deref(),
        Some("Ada")
    );
    // Control characters stay control characters.
    assert_eq!(refused_char("a\tb").1, NameChar::Control);
}

#[test]
fn a_variation_selector_only_follows_a_visible_character() {
    // The heart as an emoji, a text-style digit, an ideograph's variant.
    for ok in ["Ada \u{2764}\u{FE0F}", "1\u{FE0E}", "\u{845B}\u{E0100}"] {
        assert_eq!(parse_name(Some(ok)).unwrap().as_deref(), Some(ok), "{ok:?}");
    }
    for bad in [
        "\u{FE0F}Ada",
        "Ada \u{FE0F}x",
        "A\u{FE0F}\u{FE0F}",
        "\u{E0100}",
    ] {
        let (shown, why) = refused_char(bad);
        assert_eq!(why, NameChar::Selector, "{shown} in {bad:?}");
    }
}

#[test]
fn an_online_seat_names_only_itself() {
    let mut g = online();
    g.set_name(WHITE, None, Some("Ada".into())).unwrap();
    assert_eq!(g.row.white_name.as_deref(), Some("Ada"));
    assert_eq!(g.row.black_name, None);
    assert_eq!(g.player_name(W).as_deref(), Some("Ada"));
    g.set_name(WHITE, Some(W), Some("Ada L.".into())).unwrap();
    assert_eq!(g.row.white_name.as_deref(), Some("Ada L."));
    refused(
        &mut g,
        |g| g.set_name(WHITE, Some(B), Some("Eve".into())),
        "bad_token",
        FORBIDDEN,
    );
    refused(
        &mut g,
        |g| g.set_name("nobody", None, Some("Eve".into())),
        "bad_token",
        FORBIDDEN,
    );
    // `None` clears it.
    g.set_name(WHITE, None, None).unwrap();
    assert_eq!(g.row.white_name, None);
}

#[test]
fn at_the_hot_seat_a_name_goes_on_both_seats_or_the_one_named() {
    let mut g = hotseat();
    g.set_name(HOTSEAT, None, Some("Family".into())).unwrap();
    assert_eq!(g.row.white_name.as_deref(), Some("Family"));
    assert_eq!(g.row.black_name.as_deref(), Some("Family"));
    g.set_name(HOTSEAT, Some(B), Some("Kid".into())).unwrap();
    assert_eq!(g.row.white_name.as_deref(), Some("Family"));
    assert_eq!(g.row.black_name.as_deref(), Some("Kid"));
}

#[test]
fn the_ais_seat_is_named_after_its_level_and_cannot_be_renamed() {
    let mut g = against_ai(B);
    assert_eq!(g.player_name(B).as_deref(), Some("PÜNCT AI level 3"));
    assert_eq!(g.player_name(W), None);
    refused(
        &mut g,
        |g| g.set_name(ME, Some(B), Some("HAL".into())),
        "bad_token",
        FORBIDDEN,
    );
    g.set_name(ME, None, Some("Dave".into())).unwrap();
    assert_eq!(g.player_name(W).as_deref(), Some("Dave"));
    let record = g.record();
    assert!(record.contains("[White \"Dave\"]"), "{record}");
    assert!(record.contains("[Black \"PÜNCT AI level 3\"]"), "{record}");
}

// ================================================================== clocks

#[test]
fn a_move_charges_the_time_used_and_adds_the_increment() {
    let mut g = timed(online(), BLITZ);
    // Both seats taken: White's clock runs from the start.
    assert!(g.row.clock_since.is_some());
    assert_eq!(running(&g), "white");
    wait(&mut g, 10_000);
    let before = now_ms();
    play_with(&mut g, WHITE);
    // 60 s − 10 s used + 2 s increment.
    about(g.row.white_ms, 52_000);
    assert_eq!(g.row.black_ms, Some(60_000));
    // Black's clock runs from the move.
    assert!(g.row.clock_since.unwrap() >= before);
    assert_eq!(running(&g), "black");
    assert_eq!(
        g.clock_deadline(),
        Some(g.row.clock_since.unwrap() + 60_000)
    );
}

#[test]
fn a_correspondence_clock_resets_to_the_days_per_move() {
    let mut g = timed(online(), TimeControl::Correspondence { days: 3 });
    assert_eq!(g.row.white_ms, Some(3 * DAY_MS));
    wait(&mut g, 2 * DAY_MS);
    play_with(&mut g, WHITE);
    assert_eq!(g.row.white_ms, Some(3 * DAY_MS));
    assert_eq!(running(&g), "black");
}

#[test]
fn the_clock_does_not_run_until_the_invite_is_claimed() {
    let mut g = timed(waiting(W), BLITZ);
    assert_eq!(g.row.clock_since, None);
    assert_eq!(running(&g), serde_json::Value::Null);
    assert_eq!(g.clock_deadline(), None);
    assert_eq!(g.flag_due(i64::MAX), None);
    // The creator's move before anyone joined charges nothing and adds no
    // increment.
    play_with(&mut g, WHITE);
    assert_eq!(
        (g.row.white_ms, g.row.black_ms),
        (Some(60_000), Some(60_000))
    );
    assert_eq!(g.row.clock_since, None);
    // The claim starts the clock of the side to move.
    let before = now_ms();
    g.claim(CODE, "fresh".into(), None, None).unwrap();
    assert!(g.row.clock_since.unwrap() >= before);
    assert_eq!(running(&g), "black");
}

#[test]
fn against_the_ai_and_at_the_hot_seat_the_clock_runs_from_the_start() {
    for g in [timed(against_ai(B), BLITZ), timed(hotseat(), BLITZ)] {
        assert!(g.row.clock_since.is_some(), "{:?}", g.row.mode);
        assert_eq!(running(&g), "white");
    }
    // An untimed game has no clock at all.
    let g = online();
    assert_eq!(g.clock_json(), serde_json::Value::Null);
    assert_eq!((g.row.white_ms, g.row.clock_since), (None, None));
    assert_eq!(g.flag_due(i64::MAX), None);
    assert_eq!(g.time_left(0), None);
}

#[test]
fn the_flag_is_due_at_the_deadline_and_not_before() {
    let mut g = timed(online(), BLITZ);
    // White's clock started at t = 1 000 000 ms with 45 s left.
    g.row.clock_since = Some(1_000_000);
    g.row.white_ms = Some(45_000);
    assert_eq!(g.clock_deadline(), Some(1_045_000));
    assert_eq!(g.time_left(1_010_000), Some(35_000));
    assert_eq!(g.flag_due(1_044_999), None);
    assert_eq!(g.flag_due(1_045_000), Some(W));
    assert_eq!(g.flag_due(2_000_000), Some(W));
}

#[test]
fn the_flag_ends_the_game_on_time_for_the_opponent() {
    let mut g = timed(online(), BLITZ);
    play_online(&mut g, 1);
    g.draw(WHITE, Action::Propose).unwrap();
    g.flag(B);
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::WhiteWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Time(Side::Black))
    );
    assert_eq!(g.row.finished, Some(Outcome::WhiteWins));
    assert_eq!(g.row.black_ms, Some(0));
    assert_eq!(g.row.clock_since, None);
    assert_eq!(g.row.draw_offer, None);
    assert!(g.is_over());
    assert_eq!(g.flag_due(i64::MAX), None);
    assert_eq!(g.clock_deadline(), None);
    // A request that comes after is told the game ended on time.
    refused(
        &mut g,
        |g| g.play(BLACK, "T@O16/0", None),
        "game_over",
        CONFLICT,
    );
    let over = g.clone().play(BLACK, "T@O16/0", None).unwrap_err();
    let e = ApiError::from(after_flag(&g, over));
    assert_eq!((e.code, e.status), ("time_out", CONFLICT));
    assert_eq!(e.params["side"], "black");
    // Other ends are left as they are.
    let mut resigned = online();
    resigned.resign(WHITE).unwrap();
    let e = resigned.resign(BLACK).unwrap_err();
    assert_eq!(ApiError::from(after_flag(&resigned, e)).code, "game_over");
}

#[test]
fn a_move_after_the_flag_fell_is_refused_and_leaves_the_flag_to_fall() {
    let mut g = timed(online(), BLITZ);
    wait(&mut g, 60_000);
    let e = refused(
        &mut g,
        |g| g.play(WHITE, "T@K16/0", None),
        "time_out",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "white");
    // The move does not end the game: the flag (its timer) does.
    assert!(!g.is_over());
    assert_eq!(g.flag_due(now_ms()), Some(W));
}

#[test]
fn the_ais_move_after_its_flag_fell_ends_the_game_on_time() {
    let mut g = timed(against_ai(B), BLITZ);
    play_with(&mut g, ME);
    wait(&mut g, 61_000);
    ai_plays(&mut g);
    // Its move is not played; it lost on time.
    assert_eq!(g.game.len(), 1);
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::WhiteWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Time(Side::Black))
    );
    assert_eq!(g.row.black_ms, Some(0));
    assert!(!g.ai_to_move());
}

#[test]
fn a_takeback_restarts_the_clock_of_the_side_then_to_move() {
    let mut g = timed(online(), BLITZ);
    wait(&mut g, 10_000);
    play_with(&mut g, WHITE);
    about(g.row.white_ms, 52_000);
    g.takeback(WHITE, Action::Propose).unwrap();
    // Black's clock ran 5 s before it accepted.
    wait(&mut g, 5_000);
    let before = now_ms();
    g.takeback(BLACK, Action::Accept).unwrap();
    // Times are not given back: Black is charged its 5 s, White keeps
    // what it had after its move, and White's clock runs from now.
    about(g.row.black_ms, 55_000);
    about(g.row.white_ms, 52_000);
    assert_eq!(g.position().side_to_move(), W);
    assert!(g.row.clock_since.unwrap() >= before);
    assert_eq!(running(&g), "white");

    // Against the AI, the same at once.
    let mut g = timed(against_ai(B), BLITZ);
    play_with(&mut g, ME);
    ai_plays(&mut g);
    wait(&mut g, 4_000);
    let before = now_ms();
    g.takeback(ME, Action::Propose).unwrap();
    about(g.row.white_ms, 62_000 - 4_000);
    assert!(g.row.clock_since.unwrap() >= before);
    assert_eq!(running(&g), "white");
}

#[test]
fn the_end_of_the_game_stops_the_clock_and_charges_the_running_side() {
    let mut g = timed(online(), BLITZ);
    wait(&mut g, 7_000);
    g.resign(BLACK).unwrap();
    about(g.row.white_ms, 53_000);
    assert_eq!(g.row.black_ms, Some(60_000));
    assert_eq!(g.row.clock_since, None);
    assert_eq!(running(&g), serde_json::Value::Null);
    assert_eq!(g.flag_due(i64::MAX), None);

    // A win on the board stops it too.
    let start = Position::from_position_string(WHITE_WINS_NEXT).unwrap();
    let mut g = timed(online_from(start), BLITZ);
    g.play(WHITE, WINNING_MOVE, None).unwrap();
    assert!(g.is_over());
    assert_eq!(g.row.clock_since, None);
    assert_eq!(g.clock_deadline(), None);
}

// ================================================================ rematch

#[test]
fn a_rematch_cannot_be_offered_while_the_game_goes_on() {
    let mut g = online();
    for action in [Action::Propose, Action::Accept, Action::Decline] {
        refused(
            &mut g,
            |g| g.rematch(WHITE, action, "g2"),
            "game_on",
            CONFLICT,
        );
    }
}

#[test]
fn an_online_rematch_offered_and_accepted_swaps_colours_and_keeps_tokens() {
    let mut g = timed(online(), BLITZ);
    g.set_name(WHITE, None, Some("Ada".into())).unwrap();
    g.set_name(BLACK, None, Some("Bea".into())).unwrap();
    play_online(&mut g, 3);
    g.resign(BLACK).unwrap();

    g.rematch(WHITE, Action::Propose, "g2").unwrap();
    assert_eq!(g.rematch_new, None);
    assert_eq!(g.row.rematch_offer, Some(Side::White));
    g.rematch(BLACK, Action::Accept, "g2").unwrap();
    let new = g.rematch_new.take().unwrap();
    // The new game: colours, tokens and names swapped, same settings.
    assert_eq!(new.id, "g2");
    assert_eq!((new.mode, new.variant.as_str()), (Mode::Online, "standard"));
    assert_eq!(new.white_token.as_deref(), Some(BLACK));
    assert_eq!(new.black_token.as_deref(), Some(WHITE));
    assert_eq!(new.white_name.as_deref(), Some("Bea"));
    assert_eq!(new.black_name.as_deref(), Some("Ada"));
    assert_eq!(new.clock, g.row.clock);
    // Both clocks full, whatever was left on the old game's.
    let full = g.time_control().map(|tc| tc.initial_ms());
    assert_eq!((new.white_ms, new.black_ms), (full, full));
    assert_eq!(new.invite, None);
    assert_eq!((new.moves.as_str(), new.plies, new.version), ("", 0, 1));
    assert_eq!((new.end, new.finished), (None, None));
    let next = LiveGame::from_row(new).unwrap();
    assert_eq!(next.seats(WHITE), [B]);
    assert_eq!(next.seats(BLACK), [W]);
    assert_eq!(next.row.mode, Mode::Online);
    // The old game points to it (both are stored in one transaction).
    assert_eq!(g.row.rematch_offer, None);
    assert_eq!(g.row.rematch.as_deref(), Some("g2"));
    // Only one rematch.
    let e = refused(
        &mut g,
        |g| g.rematch(WHITE, Action::Propose, "g3"),
        "rematch_started",
        CONFLICT,
    );
    assert_eq!(e.params["game"], "g2");
}

#[test]
fn offering_a_rematch_back_to_the_offerer_starts_it() {
    let mut g = online();
    g.resign(WHITE).unwrap();
    g.rematch(WHITE, Action::Propose, "g2").unwrap();
    g.rematch(BLACK, Action::Propose, "g2").unwrap();
    assert!(g.rematch_new.is_some());
    assert_eq!(g.row.rematch.as_deref(), Some("g2"));
}

#[test]
fn a_declined_rematch_clears_the_offer_with_a_notice() {
    let mut g = online();
    g.resign(WHITE).unwrap();
    g.rematch(WHITE, Action::Propose, "g2").unwrap();
    g.rematch(BLACK, Action::Decline, "g2").unwrap();
    assert_eq!(g.row.rematch_offer, None);
    assert_eq!(g.notice, Some(Notice::RematchDeclined(B)));
    assert_eq!(
        (g.rematch_new.as_ref(), g.row.rematch.as_ref()),
        (None, None)
    );
}

#[test]
fn a_rematch_offer_is_answered_by_the_other_player_only() {
    let mut g = online();
    g.resign(WHITE).unwrap();
    refused(
        &mut g,
        |g| g.rematch(BLACK, Action::Accept, "g2"),
        "no_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.rematch(BLACK, Action::Decline, "g2"),
        "no_offer",
        CONFLICT,
    );
    g.rematch(WHITE, Action::Propose, "g2").unwrap();
    refused(
        &mut g,
        |g| g.rematch(WHITE, Action::Propose, "g2"),
        "own_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.rematch(WHITE, Action::Accept, "g2"),
        "no_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.rematch(WHITE, Action::Decline, "g2"),
        "no_offer",
        CONFLICT,
    );
    refused(
        &mut g,
        |g| g.rematch("nobody", Action::Accept, "g2"),
        "bad_token",
        FORBIDDEN,
    );
    let e = refused(
        &mut g,
        |_| Request::Rematch.action("again"),
        "bad_action",
        BAD_REQUEST,
    );
    assert_eq!(e.params["action"], "again");
}

#[test]
fn against_the_ai_a_rematch_starts_at_once_with_the_ai_on_the_other_side() {
    let mut g = against_ai(B);
    g.resign(ME).unwrap();
    g.rematch(ME, Action::Propose, "g2").unwrap();
    let new = g.rematch_new.take().unwrap();
    assert_eq!(
        new.mode,
        Mode::Ai {
            level: 3,
            ai_side: W
        }
    );
    assert_eq!(new.white_token, None);
    assert_eq!(new.black_token.as_deref(), Some(ME));
    let next = LiveGame::from_row(new).unwrap();
    assert_eq!(next.ai_side(), Some(W));
    assert_eq!(next.seats(ME), [B]);
    assert!(next.ai_to_move());
    assert_eq!(g.row.rematch.as_deref(), Some("g2"));
}

#[test]
fn at_the_hot_seat_a_rematch_starts_at_once() {
    let mut g = hotseat();
    g.resign(HOTSEAT).unwrap();
    g.rematch(HOTSEAT, Action::Propose, "g2").unwrap();
    let new = g.rematch_new.take().unwrap();
    assert_eq!(new.mode, Mode::Hotseat);
    assert_eq!(new.white_token.as_deref(), Some(HOTSEAT));
    assert_eq!(new.black_token.as_deref(), Some(HOTSEAT));
}

#[test]
fn a_second_rematch_is_refused_once_one_began() {
    let mut g = hotseat();
    g.resign(HOTSEAT).unwrap();
    g.rematch(HOTSEAT, Action::Propose, "g2").unwrap();
    let e = refused(
        &mut g,
        |g| g.rematch(HOTSEAT, Action::Propose, "g3"),
        "rematch_started",
        CONFLICT,
    );
    assert_eq!(e.params["game"], "g2");
}

// ============================================================= abandonment

/// The online real-time game that abandonment is for, two plies in.
fn abandonable() -> LiveGame {
    let mut g = timed(online(), BLITZ);
    play_online(&mut g, 2);
    g
}

#[test]
fn the_win_is_claimed_once_the_opponent_has_been_away_for_the_time_set() {
    let mut g = abandonable();
    let mut asked = None;
    g.abandon(
        WHITE,
        |side| {
            asked = Some(side);
            Some(30_000)
        },
        30_000,
    )
    .unwrap();
    // The opponent's absence was asked about.
    assert_eq!(asked, Some(B));
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::WhiteWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Abandonment(Side::Black))
    );
    assert_eq!(g.row.finished, Some(Outcome::WhiteWins));
    assert_eq!(g.row.clock_since, None);
    assert!(g.is_over());

    // Black claiming against White.
    let mut g = abandonable();
    g.abandon(BLACK, |_| Some(90_000), 30_000).unwrap();
    assert_eq!(g.row.end.map(|e| e.outcome), Some(Outcome::BlackWins));
    assert_eq!(
        g.row.end.map(|e| e.reason),
        Some(EndReason::Abandonment(Side::White))
    );
}

#[test]
fn the_win_by_abandonment_is_refused_while_the_opponent_is_connected_or_not_away_long_enough() {
    let mut g = abandonable();
    let e = refused(
        &mut g,
        |g| g.abandon(WHITE, |_| None, 30_000),
        "not_abandoned",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
    assert_eq!(e.params["after"], 30);
    // A millisecond short.
    let e = refused(
        &mut g,
        |g| g.abandon(WHITE, |_| Some(29_999), 30_000),
        "not_abandoned",
        CONFLICT,
    );
    assert_eq!(e.params["seconds"], 1);
    let e = refused(
        &mut g,
        |g| g.abandon(WHITE, |_| Some(10_000), 30_000),
        "not_abandoned",
        CONFLICT,
    );
    assert_eq!(e.params["seconds"], 20);
}

#[test]
fn abandonment_is_for_online_games_with_a_real_time_clock_only() {
    let mut ai = timed(against_ai(B), BLITZ);
    let e = refused(
        &mut ai,
        |g| g.abandon(ME, |_| Some(i64::MAX), 1),
        "not_online",
        CONFLICT,
    );
    assert_eq!(e.params["mode"], "ai");
    let mut hs = timed(hotseat(), BLITZ);
    refused(
        &mut hs,
        |g| g.abandon(HOTSEAT, |_| Some(i64::MAX), 1),
        "not_online",
        CONFLICT,
    );
    let mut untimed = online();
    refused(
        &mut untimed,
        |g| g.abandon(WHITE, |_| Some(i64::MAX), 1),
        "no_clock",
        CONFLICT,
    );
    let mut correspondence = timed(online(), TimeControl::Correspondence { days: 1 });
    let e = refused(
        &mut correspondence,
        |g| g.abandon(WHITE, |_| Some(i64::MAX), 1),
        "no_clock",
        CONFLICT,
    );
    assert!(e.message.contains("correspondence"), "{}", e.message);
}

#[test]
fn abandonment_needs_an_opponent_who_joined() {
    let mut g = timed(waiting(W), BLITZ);
    let e = refused(
        &mut g,
        |g| g.abandon(WHITE, |_| Some(i64::MAX), 1),
        "no_opponent",
        CONFLICT,
    );
    assert_eq!(e.params["side"], "black");
}

#[test]
fn abandonment_after_the_end_or_without_a_seat_is_refused() {
    let mut g = abandonable();
    refused(
        &mut g,
        |g| g.abandon("nobody", |_| Some(i64::MAX), 1),
        "bad_token",
        FORBIDDEN,
    );
    g.resign(BLACK).unwrap();
    refused(
        &mut g,
        |g| g.abandon(WHITE, |_| Some(i64::MAX), 1),
        "game_over",
        CONFLICT,
    );
}

// ================================================================ actions

#[test]
fn each_request_reads_its_own_action_words() {
    assert_eq!(Request::Draw.action("offer"), Ok(Action::Propose));
    assert_eq!(Request::Rematch.action("offer"), Ok(Action::Propose));
    assert_eq!(Request::Takeback.action("request"), Ok(Action::Propose));
    for request in [Request::Draw, Request::Takeback, Request::Rematch] {
        assert_eq!(request.action("accept"), Ok(Action::Accept));
        assert_eq!(request.action("decline"), Ok(Action::Decline));
    }
    // Another request's word for proposing is not this one's, and words
    // are read exactly.
    for (request, word) in [
        (Request::Takeback, "offer"),
        (Request::Draw, "request"),
        (Request::Rematch, "Accept"),
    ] {
        let e = ApiError::from(request.action(word).unwrap_err());
        assert_eq!((e.code, e.status), ("bad_action", BAD_REQUEST));
        assert_eq!(e.params["action"], word);
        assert!(e.message.contains(request.actions()), "{}", e.message);
    }
}

#[test]
fn every_notice_has_its_own_code_the_side_it_names_and_english() {
    let codes: std::collections::HashSet<&str> = Notice::ALL.iter().map(|n| n.code()).collect();
    assert_eq!(codes.len(), Notice::ALL.len());
    assert_eq!(Notice::Joined(B).text(), "black has joined");
    assert_eq!(Notice::DrawDeclined(W).text(), "white declines the draw");
    assert_eq!(Notice::TakebackDeclined(B).side(), Some(B));
    assert_eq!(Notice::AiBusy.side(), None);
    assert_eq!(Notice::AiDeclinesDraw.text(), "the AI declines the draw");
}

// ================================================================ accounts

fn account(id: &str) -> super::Account {
    super::Account {
        id: id.into(),
        name: format!("{id}_name"),
    }
}

/// A rated game waiting for its second player, created by account `a`.
fn rated_waiting() -> LiveGame {
    let mut g = waiting(W);
    g.row.rated = true;
    g.seat_account(W, &account("a"));
    g
}

#[test]
fn a_rated_games_seat_is_for_an_account_and_not_its_creators() {
    let mut g = rated_waiting();
    refused(
        &mut g,
        |g| g.claim(CODE, "t".into(), None, None),
        "rated_needs_account",
        StatusCode::FORBIDDEN,
    );
    refused(
        &mut g,
        |g| g.claim(CODE, "t".into(), None, Some(&account("a"))),
        "own_game",
        StatusCode::CONFLICT,
    );
    assert_eq!(
        g.claim(
            CODE,
            "t".into(),
            Some("ignored".into()),
            Some(&account("b"))
        )
        .unwrap(),
        B
    );
    assert_eq!(g.user(B), Some("b"));
    // The seat shows the account's name, not the one typed.
    assert_eq!(g.player_name(B).as_deref(), Some("b_name"));
}

#[test]
fn an_accounts_seat_keeps_its_accounts_name() {
    let mut g = online();
    g.seat_account(W, &account("a"));
    refused(
        &mut g,
        |g| g.set_name(WHITE, None, Some("Mallory".into())),
        "account_name",
        StatusCode::CONFLICT,
    );
    g.set_name(BLACK, None, Some("Bea".into())).unwrap();
}

#[test]
fn seats_played_signed_out_are_attached_once_and_never_at_the_hot_seat() {
    let mut g = against_ai(B);
    refused(
        &mut g,
        |g| g.attach("nope", &account("a")),
        "bad_token",
        StatusCode::FORBIDDEN,
    );
    assert_eq!(g.attach(ME, &account("a")).unwrap(), vec![W]);
    assert_eq!(g.user(W), Some("a"));
    // Held already: nothing more to attach, not even to another account.
    assert_eq!(g.attach(ME, &account("b")).unwrap(), vec![]);
    assert_eq!(g.user(W), Some("a"));
    let mut g = hotseat();
    assert_eq!(g.attach(HOTSEAT, &account("a")).unwrap(), vec![]);
    assert_eq!((g.user(W), g.user(B)), (None, None));
}

#[test]
fn a_deleted_accounts_seats_show_deleted() {
    let mut g = online();
    g.seat_account(B, &account("a"));
    let version = g.row.version;
    assert!(!g.forget_account("someone else"));
    assert_eq!(g.row.version, version, "nothing changed");
    assert!(g.forget_account("a"));
    assert_eq!(g.player_name(B).as_deref(), Some(super::DELETED_NAME));
    assert_eq!(g.user(B), Some("a"), "still the account's game");
}

#[test]
fn a_rated_games_rematch_is_rated_between_the_same_accounts_colours_swapped() {
    let mut g = online();
    g.row.rated = true;
    g.seat_account(W, &account("a"));
    g.seat_account(B, &account("b"));
    g.resign(WHITE).unwrap();
    g.rematch(WHITE, Action::Propose, "r1").unwrap();
    g.rematch(BLACK, Action::Accept, "r1").unwrap();
    let new = g.rematch_new.as_ref().expect("the rematch's row");
    assert!(new.rated);
    assert_eq!(
        (new.white_user.as_deref(), new.black_user.as_deref()),
        (Some("b"), Some("a"))
    );
}
