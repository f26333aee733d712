//! The JSON the API shows of a game, its "state": a [`GameView`] (legal
//! moves included, written straight from the move list), a replayed
//! earlier state, the result in words, and a line for game lists.

use crate::games::{ai_name, end_text, EndReason, LiveGame, Mode};
use punct_core::{Move, Outcome, Position, Side};
use punct_store::GameRow;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Map, Value};

/// A game's JSON state: its fields, and the legal moves, which are most of
/// it (thousands at the start) and so are written straight from the move
/// list instead of through a string per move.
pub struct GameView {
    fields: Map<String, Value>,
    legal: Vec<Move>,
}

impl GameView {
    /// Sets (or adds) a field.
    pub fn set(&mut self, key: &str, value: Value) {
        self.fields.insert(key.to_string(), value);
    }

    /// Every field but the legal moves.
    pub(crate) fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// Sets (or adds) every field of `more` (a JSON object).
    fn extend(&mut self, more: Value) {
        let Value::Object(more) = more else {
            unreachable!("the fields are a JSON object")
        };
        self.fields.extend(more);
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a state always serialises")
    }

    /// The state without `legal_moves` (for spectators: a fraction of the
    /// size, and all a watcher needs).
    pub fn to_text_without_legal(&self) -> String {
        serde_json::to_string(&self.fields).expect("a state always serialises")
    }

    /// The state with the legal moves grouped in `legal_compact` instead of
    /// listed in `legal_moves`: additions as `"T/0": "B3 C4 …"` (the cells
    /// of the PÜNCT for each kind and rotation), every other move under
    /// `"moves"` (`"G5-G9/4 G5-G5/3 …"`, or `"pass"`). About a third of the
    /// size, for live sockets that ask for it.
    pub fn to_text_compact(&self) -> String {
        let groups = punct_view::compact_legal(&self.legal);
        struct Compact<'a>(
            &'a Map<String, Value>,
            &'a std::collections::BTreeMap<String, String>,
        );
        impl Serialize for Compact<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len() + 1))?;
                for (key, value) in self.0 {
                    map.serialize_entry(key, value)?;
                }
                map.serialize_entry("legal_compact", self.1)?;
                map.end()
            }
        }
        serde_json::to_string(&Compact(&self.fields, &groups)).expect("a state always serialises")
    }
}

impl Serialize for GameView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Notation<'a>(&'a Move);
        impl Serialize for Notation<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self.0)
            }
        }
        struct Notations<'a>(&'a [Move]);
        impl Serialize for Notations<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.iter().map(Notation))
            }
        }
        let mut map = serializer.serialize_map(Some(self.fields.len() + 1))?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("legal_moves", &Notations(&self.legal))?;
        map.end()
    }
}

/// The fields of a state that describe the board of `pos` (punct-view's,
/// which the page's WebAssembly build makes too), with the legal moves
/// unless `over`.
fn board_state(pos: &Position, over: bool) -> GameView {
    let (fields, legal) = punct_view::board(pos, over);
    GameView { fields, legal }
}

impl LiveGame {
    /// The whole state the page needs, legal moves included.
    pub fn view(&self) -> GameView {
        let pos = self.position();
        let mut state = board_state(pos, self.is_over());
        state.extend(json!({
            "id": self.row.id,
            "mode": self.row.mode.name(),
            "ai": match self.row.mode {
                Mode::Ai { level, ai_side } => json!({"level": level, "side": ai_side.name()}),
                _ => Value::Null,
            },
            "version": self.row.version,
            "created": self.row.created,
            "updated": self.row.updated,
            "start": self.game.start().to_position_string(),
            "moves": self.game.moves().map(|m| m.to_string()).collect::<Vec<_>>(),
            "ply": self.game.len(),
            "last_move": self.game.moves().last().map(|m| m.to_string()),
            "result": self.result_json(),
            "draw_offer": self.row.draw_offer.map(Side::name),
            "takeback_request": self.row.takeback.map(Side::name),
            "invite_open": self.invite_open().map(Side::name),
            // A seat's player may abort the game now (games' abort).
            "abortable": self.abortable(),
            "imported": self.row.imported,
            "tags": self.imported_tags(),
            // Only while a job of the AI's will answer (not while it waits
            // to retry a move it could not save).
            "ai_thinking": self.ai_to_move() && (self.ai_queued || self.ai_elsewhere),
            "notice": self.notice.map(|n| n.text()),
            "notice_code": self.notice.map(|n| n.code()),
            "notice_params": self.notice.map(|n| match n.side() {
                Some(side) => json!({"side": side.name()}),
                None => json!({}),
            }),
            "clock": self.clock_json(),
            "players": {
                "white": self.player_json(Side::White),
                "black": self.player_json(Side::Black),
            },
            "assisted": self.row.assisted,
            // The accounts holding the seats (their names are the seats'
            // names), and whether the result changes their ratings.
            "white_user": self.row.white_user,
            "black_user": self.row.black_user,
            "rated": self.row.rated,
            "rematch_offer": self.row.rematch_offer.map(Side::name),
            "rematch": self.row.rematch,
            "review": self.review_json(),
            // Phrases by code, each reader's page words them (chat.rs).
            "chat": crate::games::chat::json(&self.chat()),
        }));
        state
    }

    /// The state after the first `ply` plies (for replaying), marked
    /// `"replay": true` with the game's full length in `"plies_total"`;
    /// `None` past the end.
    pub fn view_at(&self, ply: usize) -> Option<GameView> {
        let total = self.game.len();
        if ply > total {
            return None;
        }
        let mut past = self.clone();
        while past.game.len() > ply {
            past.game.undo();
        }
        if ply < total {
            // What happened later (a resignation, an offer) is not shown yet.
            past.row.end = None;
            past.row.draw_offer = None;
            past.row.takeback = None;
            past.notice = None;
        }
        let mut state = past.view();
        state.set("replay", json!(true));
        state.set("ai_thinking", json!(false));
        state.set("plies_total", json!(total));
        Some(state)
    }

    /// The post-game analysis (review.rs): null while the game goes on
    /// or when it has no moves, `{"status": "pending"}` until it is done.
    fn review_json(&self) -> Value {
        if !self.is_over() || self.game.is_empty() {
            return Value::Null;
        }
        match self
            .row
            .review
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok())
        {
            Some(Value::Object(mut review)) => {
                review.insert("status".into(), json!("done"));
                Value::Object(review)
            }
            _ => json!({"status": "pending"}),
        }
    }

    /// Who plays `side`: a name (or null), whether it is the AI, and
    /// whether a bot account holds the seat.
    fn player_json(&self, side: Side) -> Value {
        json!({
            "name": self.player_name(side),
            "ai": self.ai_side() == Some(side),
            "bot": self.bots[side.index()],
        })
    }

    /// The result with its reason, or null while the game goes on.
    fn result_json(&self) -> Value {
        if !self.is_over() {
            return Value::Null;
        }
        let outcome = self.outcome();
        let winner = match outcome {
            Outcome::WhiteWins => json!("white"),
            Outcome::BlackWins => json!("black"),
            _ => Value::Null,
        };
        if let Some(end) = self.row.end {
            let mut result = json!({
                "score": outcome.token(),
                "winner": winner,
                "reason": end.reason.kind(),
                "text": end_text(end),
            });
            if let EndReason::Aborted(side) = end.reason {
                // Who aborted: the page says so.
                result["side"] = json!(side.name());
            }
            return result;
        }
        punct_view::board_result(self.position()).unwrap_or(Value::Null)
    }

    /// A line for game lists.
    pub fn summary(row: &GameRow) -> Value {
        let ongoing = row.finished.is_none();
        let player = |side: Side, name: &Option<String>| match row.mode {
            Mode::Ai { level, ai_side } if ai_side == side => {
                json!({"name": ai_name(level), "ai": true})
            }
            _ => json!({"name": name, "ai": false}),
        };
        // Whoever moved first, plus the plies played since.
        let first_white = row.start.split(':').nth(1) != Some("b");
        let white_to_move = first_white == (row.plies % 2 == 0);
        json!({
            "players": {
                "white": player(Side::White, &row.white_name),
                "black": player(Side::Black, &row.black_name),
            },
            "to_move": if ongoing { json!(if white_to_move { "white" } else { "black" }) } else { Value::Null },
            "invite_open": row.mode == Mode::Online && row.invite.is_some(),
            "white_user": row.white_user,
            "black_user": row.black_user,
            "rated": row.rated,
            "id": row.id,
            "variant": row.variant,
            "mode": row.mode.name(),
            "ai": match row.mode {
                Mode::Ai { level, ai_side } => json!({"level": level, "side": ai_side.name()}),
                _ => Value::Null,
            },
            "ply": row.plies,
            "status": if ongoing { "ongoing" } else { "over" },
            "result": row.finished.map(Outcome::token),
            "created": row.created,
            "updated": row.updated,
            "clock": crate::clock::summary_json(row),
        })
    }
}
