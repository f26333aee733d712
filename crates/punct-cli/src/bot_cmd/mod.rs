//! `punct bot`: plays as a bot account on a PÜNCT server with any engine
//! that speaks the engine protocol (docs/PROTOCOL.md), or a built-in one.
//! It signs in with the account's API token, opens the account's event
//! stream (docs/API.md, bots), optionally keeps a seek open in the lobby,
//! and plays every game the stream announces, each on a thread of its own
//! (`game.rs`) sharing the one engine. Challenges offered to the bot are
//! accepted or declined by `--challenges` and `--max-games`. A dropped stream is opened again
//! after a pause that doubles up to 30 s. The engine is the match
//! runner's (`match_cmd::players`): the same handshake, the same faults.

mod client;
mod game;

use crate::match_cmd::players::{self, Contestant, External, Spec, StartError};
use crate::match_cmd::{fault_text, parse_options};
use crate::{bad_input, failed, Failure, VariantArg};
use clap::Args;
use client::{Client, Line};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[derive(Args)]
pub struct BotArgs {
    /// The server: http://HOST:PORT
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot account's API token (made on the account page); better
    /// given in the environment than on the command line
    #[arg(
        long,
        env = "PUNCT_BOT_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    token: String,
    /// The engine: `cmd:PROGRAM ARGS…` (any engine speaking the protocol)
    /// or a built-in one (`level1` … `level4`, `builtin:level4`; see `punct engines`)
    #[arg(long, value_name = "SPEC")]
    engine: String,
    /// An engine option, sent as `setoption` (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    option: Vec<String>,
    /// Keep a seek open in the lobby while no game is played: minutes and
    /// increment in seconds (`5+3`), days per move (`3d`), or `untimed`
    #[arg(long, value_name = "CLOCK")]
    seek: Option<String>,
    /// The seek's variant
    #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
    variant: VariantArg,
    /// The seek's colour for the bot: white, black or random
    #[arg(long, default_value = "random")]
    side: String,
    /// A rated seek
    #[arg(long)]
    rated: bool,
    /// Thinking time per move (ms) in games without a real-time clock
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    movetime: u64,
    /// Stop after this many games have finished (default: play on)
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Make the token's account a bot first (allowed only before its
    /// first game)
    #[arg(long)]
    upgrade: bool,
    /// Which challenges to accept: all, casual, rated or none (the others
    /// are declined)
    #[arg(long, value_enum, default_value_t = Accepting::All)]
    challenges: Accepting,
    /// Games played at once, at most: a challenge that comes while this
    /// many are going on is declined
    #[arg(long, default_value_t = 1, value_name = "N")]
    max_games: usize,
}

/// The challenges `punct bot` accepts (`--challenges`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Accepting {
    All,
    Casual,
    Rated,
    None,
}

impl Accepting {
    /// Why a challenge that is `rated` or not is declined, if it is.
    fn refuses(self, rated: bool) -> Option<&'static str> {
        match (self, rated) {
            (Accepting::All, _) | (Accepting::Casual, false) | (Accepting::Rated, true) => None,
            (Accepting::None, _) => Some("it accepts no challenges"),
            (Accepting::Casual, true) => Some("it accepts casual challenges only"),
            (Accepting::Rated, false) => Some("it accepts rated challenges only"),
        }
    }
}

/// The engine all games share, with the game it last played (a new game
/// starts with `newgame`); `None` once `punct bot` is stopping.
pub struct Player {
    engine: Box<dyn Contestant + Send>,
    name: String,
    game: Option<String>,
}

pub type Engine = Arc<Mutex<Option<Player>>>;

/// What the game threads and the event stream's reader tell the main loop.
pub enum Msg {
    /// A line of event stream number `.0`.
    Event(u64, Value),
    /// Event stream number `.0` ended, and why.
    Ended(u64, String),
    /// A game's thread is done.
    GameDone(String),
    /// The engine failed: `punct bot` stops with this message.
    Fatal(String),
}

/// A line of progress, on standard error.
pub fn say(text: &str) {
    eprintln!("punct bot: {text}");
}

/// The seek's clock from `--seek`: `M+S`, `Nd` or `untimed`.
fn seek_clock(text: &str) -> Result<Value, Failure> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        bad_input(format!(
            "--seek `{text}`: expected minutes+increment (`5+3`, `0.5+1`), days per move \
             (`3d`) or `untimed`"
        ))
    };
    if t == "untimed" || t == "none" {
        return Ok(Value::Null);
    }
    if let Some(days) = t.strip_suffix('d') {
        let days: u32 = days.trim().parse().map_err(|_| bad())?;
        return Ok(json!({"type": "correspondence", "days": days}));
    }
    let (minutes, inc) = t.split_once('+').unwrap_or((&t, "0"));
    let minutes: f64 = minutes.trim().parse().map_err(|_| bad())?;
    let inc: u32 = inc.trim().parse().map_err(|_| bad())?;
    if !(minutes.is_finite() && minutes > 0.0) {
        return Err(bad());
    }
    Ok(json!({"type": "realtime", "initial": (minutes * 60.0).round() as u64, "increment": inc}))
}

/// Starts the engine of `--engine` (its handshake done, options sent).
fn start_engine(spec: &str, options: &[(String, String)]) -> Result<Player, Failure> {
    let spec = spec.trim();
    let spec = spec.strip_prefix("builtin:").unwrap_or(spec);
    match Spec::parse("--engine", spec).map_err(bad_input)? {
        Spec::Builtin(name) => {
            let b = players::builtin(&name, rand_seed(), options).map_err(bad_input)?;
            Ok(Player {
                name: b.engine.name(),
                engine: Box::new(b),
                game: None,
            })
        }
        Spec::External(argv) => {
            let ext = External::start(&argv, options).map_err(|e| match e {
                StartError::Spawn(m) | StartError::Options(m) => {
                    bad_input(format!("--engine: {m}"))
                }
                StartError::Fault(f) => failed(format!(
                    "--engine: `{}` failed the protocol's handshake: {}",
                    argv.join(" "),
                    fault_text(&f)
                )),
            })?;
            Ok(Player {
                name: ext.name.clone(),
                engine: Box::new(ext),
                game: None,
            })
        }
    }
}

/// A seed for a built-in engine's random choices: games differ.
fn rand_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Signs in: the account's name, upgraded to a bot with `--upgrade`; an
/// error for an address that is no PÜNCT server, a refused token or an
/// account that is not a bot.
fn sign_in(client: &Client, upgrade: bool) -> Result<String, Failure> {
    let me = client.get("/api/bot/account").map_err(|f| match &f {
        client::Failure::Unreachable(why) => failed(why.clone()),
        client::Failure::Refused { status: 401, .. } => {
            failed(format!("the server refused the token: {}", f.text()))
        }
        _ => failed(format!(
            "{} does not answer as a PÜNCT server with the bots' API: {}",
            client.base(),
            f.text()
        )),
    })?;
    let name = me["user"]["name"].as_str().unwrap_or("?").to_string();
    if me["user"]["bot"] == true {
        return Ok(name);
    }
    if !upgrade {
        return Err(failed(format!(
            "the account {name} is not a bot: run once with --upgrade to make it one (allowed \
             only before its first game)"
        )));
    }
    client
        .post("/api/bot/account/upgrade", None)
        .map_err(|f| failed(format!("making {name} a bot: {}", f.text())))?;
    say(&format!("{name} is a bot account now"));
    Ok(name)
}

pub fn run(args: BotArgs) -> Result<(), Failure> {
    let base = client::server_url(&args.server).map_err(bad_input)?;
    if args.token.trim().is_empty() {
        return Err(bad_input("--token: the API token is empty"));
    }
    let seek = args.seek.as_deref().map(seek_clock).transpose()?;
    if !matches!(args.side.as_str(), "white" | "black" | "random") {
        return Err(bad_input(format!(
            "--side `{}`: expected white, black or random",
            args.side
        )));
    }
    if args.games == Some(0) {
        return Err(bad_input("--games must be at least 1"));
    }
    if args.max_games == 0 {
        return Err(bad_input("--max-games must be at least 1"));
    }
    let options = parse_options("--option", &args.option)?;
    let player = start_engine(&args.engine, &options)?;
    say(&format!("engine: {}", player.name));
    let client = Arc::new(Client::new(base, args.token.trim().to_string()));
    let name = sign_in(&client, args.upgrade)?;
    say(&format!("signed in to {} as {name}", client.base()));
    let engine: Engine = Arc::new(Mutex::new(Some(player)));
    let (tell, heard) = mpsc::channel();
    let ctx = Arc::new(game::Ctx {
        client: client.clone(),
        engine: engine.clone(),
        movetime: args.movetime,
        tell: tell.clone(),
    });
    let seek_body = seek.map(|clock| {
        json!({
            "clock": clock,
            "variant": punct_core::Variant::from(args.variant).to_string(),
            "rated": args.rated,
            "side": args.side,
        })
    });
    let mut main = Main {
        client,
        ctx,
        tell,
        seek: seek_body,
        games: args.games,
        playing: HashSet::new(),
        finished: HashSet::new(),
        accepting: args.challenges,
        max_games: args.max_games,
        open_seek: None,
    };
    let outcome = main.serve(&heard);
    // The engine goes with `punct bot` (`quit`, then killed if need be).
    drop(engine.lock().unwrap_or_else(|e| e.into_inner()).take());
    outcome
}

struct Main {
    client: Arc<Client>,
    ctx: Arc<game::Ctx>,
    tell: mpsc::Sender<Msg>,
    seek: Option<Value>,
    games: Option<u64>,
    /// Games announced and not yet finished.
    playing: HashSet<String>,
    finished: HashSet<String>,
    accepting: Accepting,
    max_games: usize,
    /// The seek of `--seek` while it is open.
    open_seek: Option<String>,
}

impl Main {
    /// The event stream, opened again whenever it drops, until `--games`
    /// games have finished or something fails for good.
    fn serve(&mut self, heard: &mpsc::Receiver<Msg>) -> Result<(), Failure> {
        let mut pause = Duration::from_secs(1);
        let mut number = 0u64;
        loop {
            number += 1;
            match self.client.stream("/api/bot/stream/event") {
                Ok(lines) => {
                    pause = Duration::from_secs(1);
                    let tell = self.tell.clone();
                    thread::spawn(move || loop {
                        match lines.next() {
                            Line::Json(v) => {
                                if tell.send(Msg::Event(number, v)).is_err() {
                                    return;
                                }
                            }
                            Line::End(why) => {
                                let _ = tell.send(Msg::Ended(number, why));
                                return;
                            }
                        }
                    });
                    say("listening for games");
                    if self.playing.is_empty() {
                        self.post_seek()?;
                    }
                    if let Some(done) = self.listen(heard, number)? {
                        return Ok(done);
                    }
                }
                Err(f) if f.is_refusal_of_the_token() => {
                    return Err(failed(format!(
                        "the server refused the token: {}",
                        f.text()
                    )))
                }
                Err(f) => say(&format!(
                    "the event stream: {}; trying again in {} s",
                    f.text(),
                    pause.as_secs()
                )),
            }
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(30));
        }
    }

    /// Handles what comes until event stream `number` ends (`None`: open
    /// it again) or `punct bot` is done (`Some`).
    fn listen(&mut self, heard: &mpsc::Receiver<Msg>, number: u64) -> Result<Option<()>, Failure> {
        loop {
            let msg = heard
                .recv()
                .map_err(|_| failed("internal error: the messages' channel closed"))?;
            match msg {
                Msg::Event(n, event) if n == number => {
                    if self.event(&event)? {
                        return Ok(Some(()));
                    }
                }
                Msg::Ended(n, why) if n == number => {
                    say(&format!("the event stream ended ({why}); opening it again"));
                    return Ok(None);
                }
                Msg::Event(..) | Msg::Ended(..) => {} // an earlier stream's
                Msg::GameDone(id) => {
                    self.playing.remove(&id);
                }
                Msg::Fatal(e) => return Err(failed(e)),
            }
        }
    }

    /// One event; true when `--games` games have finished.
    fn event(&mut self, event: &Value) -> Result<bool, Failure> {
        let game = &event["game"];
        let id = game["id"].as_str().unwrap_or("").to_string();
        match event["type"].as_str() {
            Some("gameStart") if !id.is_empty() => {
                if self.finished.contains(&id) || !self.playing.insert(id.clone()) {
                    return Ok(false);
                }
                // The seek became this game, or gives way to it.
                self.cancel_seek();
                say(&format!(
                    "game {id}: playing {} against {}{}",
                    game["side"].as_str().unwrap_or("?"),
                    game["opponent"]["name"].as_str().unwrap_or("someone"),
                    if game["opponent"]["bot"] == true {
                        " (a bot)"
                    } else {
                        ""
                    }
                ));
                let ctx = self.ctx.clone();
                thread::spawn(move || game::play(ctx, id));
            }
            Some("gameFinish") if !id.is_empty() => {
                self.playing.remove(&id);
                if !self.finished.insert(id.clone()) {
                    return Ok(false);
                }
                let result = &game["result"];
                say(&format!(
                    "game {id}: over, {} ({})",
                    result["score"].as_str().unwrap_or("?"),
                    result["text"].as_str().unwrap_or("")
                ));
                if self.games.is_some_and(|n| self.finished.len() as u64 >= n) {
                    say("done");
                    return Ok(true);
                }
                if self.playing.is_empty() {
                    self.post_seek()?;
                }
            }
            Some("challenge") => self.answer(&event["challenge"]),
            // Kinds this version does not know, and `challengeCanceled`.
            _ => {}
        }
        Ok(false)
    }

    /// Accepts or declines a challenge offered to the bot, by
    /// `--challenges` and `--max-games`; a failed answer is said.
    fn answer(&mut self, challenge: &Value) {
        let Some(id) = challenge["id"].as_str() else {
            return;
        };
        let who = challenge["name"].as_str().unwrap_or("someone");
        let rated = challenge["rated"] == true;
        let why = self.accepting.refuses(rated).or_else(|| {
            (self.playing.len() >= self.max_games)
                .then_some("it is playing as many games as it may")
        });
        let (what, path) = match why {
            Some(why) => {
                say(&format!("challenge {id} from {who}: declined ({why})"));
                ("declining", format!("/api/bot/challenge/{id}/decline"))
            }
            None => {
                say(&format!(
                    "challenge {id} from {who}: accepted ({})",
                    if rated { "rated" } else { "casual" }
                ));
                ("accepting", format!("/api/bot/challenge/{id}/accept"))
            }
        };
        if let Err(f) = self.client.post(&path, Some(&json!({}))) {
            say(&format!("challenge {id}: {what} it: {}", f.text()));
        }
    }

    /// Withdraws the seek of `--seek` if it is open (a game has begun).
    fn cancel_seek(&mut self) {
        let Some(seek) = self.open_seek.take() else {
            return;
        };
        // 404: it became the game that began, or went with a stream.
        let _ = self
            .client
            .post("/api/bot/seek/cancel", Some(&json!({ "seek": seek })));
    }

    /// Opens the seek of `--seek`, if any; a refusal of the seek itself
    /// (a bad clock) ends `punct bot`, others are said.
    fn post_seek(&mut self) -> Result<(), Failure> {
        let Some(body) = &self.seek else {
            return Ok(());
        };
        match self.client.post("/api/bot/seek", Some(body)) {
            Ok(answer) => {
                let seek = answer["seek"].as_str().unwrap_or("?").to_string();
                say(&format!("seeking a game (seek {seek})"));
                self.open_seek = Some(seek);
                Ok(())
            }
            Err(f @ client::Failure::Refused { status: 400, .. }) => Err(bad_input(format!(
                "--seek: the server refuses it: {}",
                f.text()
            ))),
            Err(f) => {
                say(&format!("seeking a game: {}", f.text()));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeks_are_read() {
        assert_eq!(
            seek_clock("5+3").ok(),
            Some(json!({"type": "realtime", "initial": 300, "increment": 3}))
        );
        assert_eq!(
            seek_clock("0.5").ok(),
            Some(json!({"type": "realtime", "initial": 30, "increment": 0}))
        );
        assert_eq!(
            seek_clock("3d").ok(),
            Some(json!({"type": "correspondence", "days": 3}))
        );
        assert_eq!(seek_clock("untimed").ok(), Some(Value::Null));
        assert!(seek_clock("fast").is_err());
        assert!(seek_clock("0+3").is_err());
    }
}
