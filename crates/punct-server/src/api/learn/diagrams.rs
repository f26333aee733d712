//! The rules page's diagrams as JSON (`GET /api/learn/diagrams`): each
//! diagram of `punct_learn::diagrams` with its state, the moves it draws
//! and the claims its caption makes (the page words them from its
//! catalogue, `rules.diagram.<id>`).

use super::{played_state, Route};
use crate::api::http::json_text;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use punct_learn::diagrams::{Claim, Diagram, ShownMove, DIAGRAMS};
use punct_learn::words;
use serde_json::{json, Value};
use std::sync::OnceLock;

pub(super) fn routes() -> Vec<Route> {
    vec![Route::get(
        "/api/learn/diagrams",
        crate::api::Limit::Bucket(crate::limits::Kind::Read),
        list,
    )]
}

fn claim_json(claim: Claim) -> Value {
    match claim {
        Claim::Legal(m) => json!({"claim": "legal", "move": m}),
        Claim::Illegal(m, reason) => json!({"claim": "illegal", "move": m, "reason": reason}),
        Claim::Status(s) => json!({"claim": "status", "status": s}),
        Claim::Connected(side, a, b) => {
            json!({"claim": "connected", "side": side, "sides": [a, b]})
        }
        Claim::Central(w, b) => json!({"claim": "central", "white": w, "black": b}),
        Claim::Covered(cell, level) => {
            json!({"claim": "covered", "cell": cell, "level": level})
        }
        Claim::Bridge(cell, level) => json!({"claim": "bridge", "cell": cell, "level": level}),
        Claim::Visible(cell, side) => json!({"claim": "visible", "cell": cell, "side": side}),
        Claim::Piece(cell, side, kind, level) => json!({
            "claim": "piece", "cell": cell, "side": side,
            "kind": kind.to_string(), "level": level,
        }),
        Claim::CentralHexagon(cells) => {
            json!({"claim": "central_hexagon", "cells": words(cells)})
        }
        Claim::Reserve(side, count) => {
            json!({"claim": "reserve", "side": side, "count": count})
        }
        Claim::ToMove(side) => json!({"claim": "to_move", "side": side}),
    }
}

/// What the page draws and what the caption claims.
fn diagram_json(d: &Diagram) -> Result<Value, String> {
    let pos = d.position()?;
    let show: Vec<Value> = d.shown_moves(&pos)?.iter().map(shown_json).collect();
    Ok(json!({
        "id": d.id,
        "section": d.section,
        "variant": d.variant.name(),
        "moves": words(d.moves),
        "position": pos.to_position_string(),
        "view": if d.view.is_empty() { Value::Null } else { json!(words(d.view)) },
        "lines": d.lines,
        "marks": d.marks.iter()
            .map(|(mark, cells)| json!({"mark": mark, "cells": words(cells)}))
            .collect::<Vec<_>>(),
        "show": show,
        "claims": d.claims.iter().map(|&c| claim_json(c)).collect::<Vec<_>>(),
        "state": played_state(&pos, d.last_move(), false),
    }))
}

fn shown_json(m: &ShownMove) -> Value {
    json!({
        "move": m.text,
        "legal": m.illegal.is_none(),
        "reason": m.illegal,
        "side": m.side.name(),
        "kind": m.kind.to_string(),
        "from": m.from.map(|c| c.to_string()),
        "to": m.to.to_string(),
        "rotation": m.rotation,
        "cells": m.cells.map(|cs| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
    })
}

/// Every diagram, built once.
fn answer() -> &'static Result<String, String> {
    static ANSWER: OnceLock<Result<String, String>> = OnceLock::new();
    ANSWER.get_or_init(|| {
        let diagrams = DIAGRAMS
            .iter()
            .map(diagram_json)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(json!({ "diagrams": diagrams }).to_string())
    })
}

async fn list() -> Response {
    match answer() {
        Ok(text) => json_text(StatusCode::OK, text.clone()),
        Err(e) => crate::error::ApiError::internal(e.clone()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_diagram_is_shown() {
        assert!(super::answer().is_ok());
    }
}
