//! The rules page's diagrams (`GET /api/learn/diagrams`, docs/API.md)
//! against the rules crate: every diagram's position is reached by legal
//! moves from the empty board, the state the page draws is that position,
//! and every claim its caption makes holds (a move legal, a move illegal
//! for the reason named, a piece covered or a bridge, a side connected, the
//! central count). Every diagram has its caption in the English catalogue.
//! The real binary over loopback.

mod common;

use common::Server;
use punct_core::{Cell, Edge, Kind, Move, Position, Side, Status, Variant};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};

fn cell(v: &Value) -> Cell {
    v.as_str()
        .unwrap_or_else(|| panic!("{v} is not a cell name"))
        .parse()
        .unwrap_or_else(|e| panic!("{v}: {e:?}"))
}

fn side(name: &str) -> Side {
    match name {
        "white" => Side::White,
        "black" => Side::Black,
        other => panic!("`{other}` is not a side"),
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing from {v}"))
}

/// The piece with its PÜNCT on `punct` at `level`: its cells and kind.
fn piece_at(pos: &Position, punct: Cell, level: u8) -> punct_core::PieceView {
    *pos.pieces()
        .iter()
        .find(|p| p.placement.punct == punct && p.placement.level == level)
        .unwrap_or_else(|| panic!("no piece has its PÜNCT on {punct} at level {level}"))
}

/// Covered: a dot of another piece lies higher on one of its cells.
fn is_covered(pos: &Position, p: &punct_core::PieceView) -> bool {
    p.cells
        .iter()
        .any(|&c| pos.stack(c).iter().any(|d| d.level > p.placement.level))
}

/// A bridge: on some cell of it the dot right under it is missing.
fn is_bridge(pos: &Position, p: &punct_core::PieceView) -> bool {
    let level = p.placement.level;
    level > 0
        && p.cells
            .iter()
            .any(|&c| !pos.stack(c).iter().any(|d| d.level + 1 == level))
}

fn edge_named(name: &str) -> Edge {
    Edge::PAIRS
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .find(|e| e.name() == name)
        .unwrap_or_else(|| panic!("`{name}` is not a side of the board"))
}

/// Checks one claim of diagram `id` in `pos`.
fn check_claim(id: &str, pos: &Position, claim: &Value) {
    let what = format!("diagram {id}, claim {claim}");
    match str_of(claim, "claim") {
        "legal" => {
            let mv: Move = str_of(claim, "move").parse().unwrap();
            assert_eq!(pos.check_move(mv), Ok(()), "{what}");
            assert!(pos.legal_moves().contains(&mv), "{what}: not generated");
        }
        "illegal" => {
            let mv: Move = str_of(claim, "move").parse().unwrap();
            let err = pos
                .check_move(mv)
                .expect_err(&format!("{what}: the move is legal"));
            assert_eq!(err.code(), str_of(claim, "reason"), "{what}: {err}");
            assert!(!pos.legal_moves().contains(&mv), "{what}: generated");
        }
        "status" => assert_eq!(pos.status().word(), str_of(claim, "status"), "{what}"),
        "connected" => {
            let s = side(str_of(claim, "side"));
            let c = pos
                .connection(s)
                .unwrap_or_else(|| panic!("{what}: not connected"));
            let names = claim["sides"].as_array().unwrap();
            let want: BTreeSet<&str> = names.iter().map(|n| n.as_str().unwrap()).collect();
            let got: BTreeSet<&str> = [c.sides.0.name(), c.sides.1.name()].into();
            assert_eq!(got, want, "{what}");
            // The chain really touches both sides.
            for n in names {
                let e = edge_named(n.as_str().unwrap());
                assert!(c.cells.cells().any(|x| e.contains(x)), "{what}: {n}");
            }
        }
        "central" => {
            assert_eq!(
                (
                    pos.central_count(Side::White),
                    pos.central_count(Side::Black)
                ),
                (
                    claim["white"].as_u64().unwrap() as u32,
                    claim["black"].as_u64().unwrap() as u32
                ),
                "{what}"
            );
        }
        "covered" => {
            let p = piece_at(
                pos,
                cell(&claim["cell"]),
                claim["level"].as_u64().unwrap() as u8,
            );
            assert!(is_covered(pos, &p), "{what}");
        }
        "bridge" => {
            let p = piece_at(
                pos,
                cell(&claim["cell"]),
                claim["level"].as_u64().unwrap() as u8,
            );
            assert!(is_bridge(pos, &p), "{what}");
            assert_ne!(p.kind, Kind::T, "{what}: a triangle never bridges");
        }
        "visible" => {
            let want = match str_of(claim, "side") {
                "none" => None,
                s => Some(side(s)),
            };
            assert_eq!(pos.visible_side(cell(&claim["cell"])), want, "{what}");
        }
        "piece" => {
            let p = piece_at(
                pos,
                cell(&claim["cell"]),
                claim["level"].as_u64().unwrap() as u8,
            );
            assert_eq!(p.side, side(str_of(claim, "side")), "{what}");
            assert_eq!(p.kind.to_string(), str_of(claim, "kind"), "{what}");
        }
        "central_hexagon" => {
            let cells: HashSet<Cell> = claim["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(cell)
                .collect();
            let central: HashSet<Cell> = Cell::all().filter(|c| c.is_central()).collect();
            assert_eq!(cells, central, "{what}");
            assert_eq!(cells.len(), 19, "{what}");
        }
        "reserve" => assert_eq!(
            pos.reserve_total(side(str_of(claim, "side"))) as u64,
            claim["count"].as_u64().unwrap(),
            "{what}"
        ),
        "to_move" => {
            assert_eq!(pos.status(), Status::Ongoing, "{what}");
            assert_eq!(pos.side_to_move(), side(str_of(claim, "side")), "{what}");
        }
        other => panic!("{what}: unknown claim `{other}`"),
    }
}

/// The English catalogue (the rules page's texts are in it).
fn rules_catalogue() -> serde_json::Map<String, Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/i18n/en.json");
    let text = std::fs::read_to_string(path).expect("the rules page's English catalogue");
    match serde_json::from_str(&text).expect("the catalogue is JSON") {
        Value::Object(m) => m,
        other => panic!("the catalogue is not an object: {other}"),
    }
}

#[test]
fn every_diagram_is_legal_and_shows_what_its_caption_says() {
    let server = Server::start();
    let (status, headers, text) = server.get_text("/api/learn/diagrams");
    assert_eq!(status, 200, "{text}");
    let ctype = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(ctype.starts_with("application/json"), "{ctype}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let diagrams = body["diagrams"].as_array().expect("a list of diagrams");
    assert!(diagrams.len() >= 12, "{} diagrams", diagrams.len());
    let catalogue = rules_catalogue();
    let mut ids = HashSet::new();
    let mut reasons = HashSet::new();
    for d in diagrams {
        let id = str_of(d, "id");
        assert!(ids.insert(id.to_string()), "diagram {id} twice");
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "id {id}"
        );

        // Reached by legal moves from the empty board.
        let variant: Variant = str_of(d, "variant").parse().unwrap();
        let mut pos = Position::new(variant);
        for m in d["moves"].as_array().unwrap() {
            let mv: Move = m.as_str().unwrap().parse().unwrap();
            pos.play(mv)
                .unwrap_or_else(|e| panic!("diagram {id}: {mv} is illegal: {e}"));
        }
        assert_eq!(str_of(d, "position"), pos.to_position_string(), "{id}");
        let again = Position::from_position_string(str_of(d, "position")).unwrap();
        assert_eq!(again, pos, "diagram {id}: the position string reads back");

        // The state the page draws is that position, without the legal moves.
        let state = &d["state"];
        assert_eq!(str_of(state, "position"), pos.to_position_string(), "{id}");
        assert!(
            state.get("legal_moves").is_none(),
            "diagram {id} lists moves"
        );
        let pieces = state["pieces"].as_array().unwrap();
        assert_eq!(pieces.len(), pos.pieces().len(), "{id}");
        for p in pieces {
            let view = piece_at(&pos, cell(&p["punct"]), p["level"].as_u64().unwrap() as u8);
            assert_eq!(str_of(p, "side"), view.side.name(), "{id}: {p}");
            assert_eq!(str_of(p, "kind"), view.kind.to_string(), "{id}: {p}");
            assert_eq!(
                p["bridge"].as_bool().unwrap(),
                is_bridge(&pos, &view),
                "{id}: {p}"
            );
        }
        let stacked: usize = state["stacks"]
            .as_object()
            .unwrap()
            .values()
            .map(|s| s.as_array().unwrap().len())
            .sum();
        assert_eq!(
            stacked,
            3 * pos.pieces().len(),
            "{id}: every dot in a stack"
        );
        match pos.status() {
            Status::Ongoing => assert!(state["result"].is_null(), "{id}"),
            Status::Won(s) => {
                assert_eq!(state["result"]["winner"], s.name(), "{id}");
                if let Some(c) = pos.connection(s) {
                    let chain: HashSet<Cell> = state["result"]["chain"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(cell)
                        .collect();
                    let want: HashSet<Cell> = c.cells.cells().collect();
                    assert_eq!(chain, want, "{id}: the chain drawn");
                }
            }
            Status::Draw => assert!(state["result"]["winner"].is_null(), "{id}"),
        }
        if !state["last_move"].is_null() {
            let moves = d["moves"].as_array().unwrap();
            assert_eq!(Some(&state["last_move"]), moves.last(), "{id}");
        }

        // What it frames and marks is on the board.
        if !d["view"].is_null() {
            assert!(!d["view"].as_array().unwrap().is_empty(), "{id}");
            d["view"].as_array().unwrap().iter().for_each(|c| {
                cell(c);
            });
        }
        if !d["lines"].is_null() {
            cell(&d["lines"]);
        }
        for m in d["marks"].as_array().unwrap() {
            assert!(
                [
                    "highlight",
                    "covered",
                    "gap",
                    "counted-white",
                    "counted-black"
                ]
                .contains(&str_of(m, "mark")),
                "{id}: {m}"
            );
            m["cells"].as_array().unwrap().iter().for_each(|c| {
                cell(c);
            });
        }

        // Every claim holds.
        let claims = d["claims"].as_array().unwrap();
        assert!(!claims.is_empty(), "diagram {id} claims nothing");
        for claim in claims {
            check_claim(id, &pos, claim);
            if claim["claim"] == "illegal" {
                reasons.insert(str_of(claim, "reason").to_string());
            }
        }

        // Every move drawn is claimed, and drawn as what it is.
        for s in d["show"].as_array().unwrap() {
            let text = str_of(s, "move");
            let claim = claims
                .iter()
                .find(|c| c["move"] == text)
                .unwrap_or_else(|| panic!("diagram {id}: {text} is drawn but not claimed"));
            let mv: Move = text.parse().unwrap();
            let check = pos.check_move(mv);
            assert_eq!(s["legal"].as_bool(), Some(check.is_ok()), "{id}: {s}");
            assert_eq!(claim["claim"] == "legal", check.is_ok(), "{id}: {s}");
            match check {
                Ok(()) => assert!(s["reason"].is_null(), "{id}: {s}"),
                Err(e) => assert_eq!(s["reason"], e.code(), "{id}: {s}"),
            }
            assert_eq!(str_of(s, "side"), pos.side_to_move().name(), "{id}");
            let (kind, to, rotation) = match mv {
                Move::Add {
                    kind,
                    punct,
                    rotation,
                } => (kind, punct, rotation),
                Move::Relocate { from, to, rotation } => {
                    assert_eq!(cell(&s["from"]), from, "{id}: {s}");
                    (pos.top_piece(from).unwrap().kind, to, rotation)
                }
                Move::Pass => panic!("{id}: a pass is drawn"),
            };
            assert_eq!(str_of(s, "kind"), kind.to_string(), "{id}: {s}");
            assert_eq!(cell(&s["to"]), to, "{id}: {s}");
            assert_eq!(s["rotation"].as_u64(), Some(rotation as u64), "{id}: {s}");
        }

        // The caption and its section's title are in the catalogue.
        for key in [
            format!("rules.diagram.{id}"),
            format!("rules.{}.title", str_of(d, "section")),
        ] {
            let text = catalogue.get(&key).and_then(Value::as_str).unwrap_or("");
            assert!(!text.trim().is_empty(), "no English text for {key}");
        }
    }

    // The page explains the rules a move most often breaks.
    for reason in [
        "add_in_centre",
        "first_piece_in_centre",
        "add_on_occupied",
        "not_in_line",
        "unchanged",
        "off_board",
        "punct_on_opponent",
        "triangle_bridge",
        "punct_over_empty",
        "covered",
    ] {
        assert!(reasons.contains(reason), "no diagram shows {reason}");
    }
}

#[test]
fn the_diagrams_cover_every_part_of_the_rules() {
    let server = Server::start();
    let (status, body) = server.get("/api/learn/diagrams");
    assert_eq!(status, 200, "{body}");
    let diagrams = body["diagrams"].as_array().unwrap();
    let claims: Vec<&Value> = diagrams
        .iter()
        .flat_map(|d| d["claims"].as_array().unwrap())
        .collect();
    let has = |kind: &str| claims.iter().any(|c| c["claim"] == kind);
    for kind in [
        "legal",
        "illegal",
        "covered",
        "bridge",
        "connected",
        "central",
        "central_hexagon",
        "piece",
    ] {
        assert!(has(kind), "no diagram claims {kind}");
    }
    // Both variants, a finished game of each kind of ending, every kind of
    // piece on the board.
    let variants: HashSet<&str> = diagrams.iter().map(|d| str_of(d, "variant")).collect();
    assert_eq!(variants, HashSet::from(["standard", "basic"]));
    let reasons: HashSet<&str> = diagrams
        .iter()
        .filter_map(|d| d["state"]["result"]["reason"].as_str())
        .collect();
    assert_eq!(reasons, HashSet::from(["connection", "central count"]));
    let kinds: HashSet<&str> = diagrams
        .iter()
        .flat_map(|d| d["state"]["pieces"].as_array().unwrap())
        .map(|p| str_of(p, "kind"))
        .collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    // Only GET.
    let (status, _, _) = server.request("POST", "/api/learn/diagrams");
    assert_eq!(status, 405);
}
