//! `punct play` driven as a subprocess with its standard input piped (no
//! terminal: commands are read line by line and echoed after the prompt),
//! and on Linux on a pseudo-terminal too (`mod terminal`: line editing).

use punct_core::{Record, Side, Status};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

mod common;

/// Public case 6: Black wins by connection with E11-H11/1.
const BLACK_WINS: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";

/// A fresh, empty folder for one test, with `cwd` (where `punct` runs),
/// `home` and `xdg` inside.
struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let root = std::env::temp_dir().join(format!("punct-play-{}-{name}", std::process::id()));
        std::fs::remove_dir_all(&root).ok();
        for dir in ["cwd", "home", "xdg"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        Sandbox { root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// `punct play ARGS` in `cwd`, HOME and XDG_DATA_HOME inside the
    /// sandbox, an 80×24 terminal's variables.
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_punct"));
        c.arg("play")
            .args(args)
            .current_dir(self.path("cwd"))
            .env("HOME", self.path("home"))
            .env("XDG_DATA_HOME", self.path("xdg"))
            .env("COLUMNS", "80")
            .env("LINES", "24")
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    fn play(&self, args: &[&str], input: &str) -> Output {
        common::feed(self.command(args), input)
    }

    /// [`Sandbox::play`] between two people without colours (`--opponent
    /// human --ansi never` and `more`), which must succeed.
    fn human(&self, more: &[&str], input: &str) -> Output {
        let o = self.play(&human_args(more), input);
        assert!(o.status.success(), "{}", stderr(&o));
        o
    }

    /// The files under `rel`, sorted.
    fn files(&self, rel: &str) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![self.path(rel)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.root).ok();
    }
}

/// `--opponent human --ansi never` and `more`.
fn human_args<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--opponent", "human", "--ansi", "never"];
    args.extend_from_slice(more);
    args
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}
fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The one record under `dir`, and its text.
fn only_record(files: &[PathBuf]) -> (PathBuf, String) {
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    (files[0].clone(), text)
}

fn check_record(path: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["record", "check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_record_goes_to_the_data_dir_and_never_to_the_current_dir() {
    let s = Sandbox::new("datadir");
    let data = s.path("data");
    let o = s.human(
        &["--data-dir", data.to_str().unwrap()],
        "C@B7/2\nR@F2/0\nquit\n",
    );
    let out = stdout(&o);
    let (path, rec) = only_record(&s.files("data"));
    assert_eq!(path.parent().unwrap(), data.join("records"));
    let name = path.file_name().unwrap().to_str().unwrap();
    // <date>-<time>.pgn
    assert!(
        name.len() == "20260101-120000.pgn".len()
            && name.ends_with(".pgn")
            && name.as_bytes()[8] == b'-',
        "{name}"
    );
    assert!(rec.contains("1. C@B7/2 R@F2/0 *"), "{rec}");
    check_record(&path);
    assert!(
        out.contains(&format!("Record saved to {}", path.display())),
        "{out}"
    );
    assert!(
        out.contains(&format!("punct play --from {}", path.display())),
        "{out}"
    );
    assert!(s.files("cwd").is_empty(), "{:?}", s.files("cwd"));
    assert!(s.files("xdg").is_empty());
    // Piped input is echoed after the prompt.
    assert!(out.contains("White to move> C@B7/2\n"), "{out}");
    assert!(out.contains("Black to move> R@F2/0\n"), "{out}");
}

#[test]
fn without_data_dir_records_go_under_xdg_data_home_even_when_the_input_just_ends() {
    let s = Sandbox::new("xdg");
    // No `quit`: the input ends after a move.
    let o = s.human(&[], "E@C5/2\n");
    let (path, rec) = only_record(&s.files("xdg"));
    assert_eq!(path.parent().unwrap(), s.path("xdg").join("punct/records"));
    assert!(rec.contains("1. E@C5/2 *"), "{rec}");
    assert!(stdout(&o).contains("Record saved to"), "{}", stdout(&o));
    assert!(s.files("cwd").is_empty());
    assert!(s.files("home").is_empty());

    // Nothing played: nothing saved, and it says so.
    let s = Sandbox::new("nothing");
    let o = s.human(&[], "help\nquit\n");
    assert!(stdout(&o).contains("Nothing was played: no record saved."));
    assert_eq!(
        stdout(&o).matches("Nothing was played").count(),
        1,
        "{}",
        stdout(&o)
    );
    assert!(s.files("").is_empty(), "{:?}", s.files(""));
}

#[test]
fn record_flag_chooses_the_file_and_makes_its_folder() {
    let s = Sandbox::new("recordflag");
    let path = s.path("elsewhere/deeper/game.pgn");
    s.human(&["--record", path.to_str().unwrap()], "C@B7/2\nquit\n");
    let rec = std::fs::read_to_string(&path).unwrap();
    assert!(rec.contains("1. C@B7/2 *"), "{rec}");
    assert!(s.files("cwd").is_empty());
    assert!(s.files("xdg").is_empty());
}

#[test]
fn every_line_fits_80_columns_and_the_board_19_lines() {
    let s = Sandbox::new("width");
    let o = s.human(
        &[],
        &format!("{}\nhelp\nmoves B7\nquit\n", BLACK_WINS.replace(' ', "\n")),
    );
    let out = stdout(&o);
    for line in out.lines() {
        // Paths may be long; everything else fits.
        if !line.contains(s.root.to_str().unwrap()) {
            assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
        }
    }
    // Each drawing: the column letters over and under the board, 19 lines
    // in all, then the state.
    let lines: Vec<&str> = out.lines().collect();
    let letters = "A   B   C   D   E   F   G   H   I   J   K   L   M   N   O   P   Q";
    let tops: Vec<usize> = (0..lines.len().saturating_sub(19))
        .filter(|&i| lines[i].trim() == letters && lines[i + 18].trim() == letters)
        .collect();
    assert!(tops.len() > 10);
    for &t in &tops {
        assert!(lines[t + 19].starts_with("Move ") || lines[t + 19].starts_with("Game over"));
    }
    // The full board on request: wider than 80 columns.
    let o = s.human(&["--board", "full"], "quit\n");
    assert!(stdout(&o).lines().any(|l| l.chars().count() > 80));
    let o = s.human(&[], "board full\nboard compact\nboard huge\nquit\n");
    let out = stdout(&o);
    // One full drawing (its column letters over and under the board).
    assert_eq!(out.matches("A    B    C    D").count(), 2, "{out}");
    assert!(out.contains("`board compact`, `board full` or `board auto`."));
}

#[test]
fn the_end_says_who_joined_which_sides() {
    let s = Sandbox::new("connection");
    let data = s.path("data");
    let o = s.human(
        &["--data-dir", data.to_str().unwrap()],
        &format!("{}\nquit\n", BLACK_WINS.replace(' ', "\n")),
    );
    let out = stdout(&o);
    let game = punct_core::Game::replay(
        punct_core::Position::new(punct_core::Variant::Standard),
        &punct_core::parse_moves(BLACK_WINS).unwrap(),
    )
    .unwrap();
    let c = game.position().connection(Side::Black).unwrap();
    let words = format!(
        "Black wins: connected {} and {}.",
        c.sides.0.name(),
        c.sides.1.name()
    );
    assert!(out.contains(&words), "{out}");
    assert!(!out.contains("Game over: black wins"), "{out}");
    let (path, rec) = only_record(&s.files("data"));
    assert!(rec.contains("[Result \"0-1\"]"), "{rec}");
    check_record(&path);
    // Said once, and the record's place once: `quit` after the end adds nothing.
    assert_eq!(out.matches(&words).count(), 1);
    assert_eq!(out.matches("Record saved to").count(), 1, "{out}");
    // A finished game is not offered to be continued.
    assert!(!out.contains("--from"), "{out}");
}

#[test]
fn a_game_from_a_record_goes_on_and_a_finished_one_says_how_it_ended() {
    let s = Sandbox::new("from");
    let data = s.path("data");
    let data_arg = data.to_str().unwrap();
    s.human(&["--data-dir", data_arg], "C@B7/2\nR@F2/0\nquit\n");
    let (first, first_text) = only_record(&s.files("data"));
    s.human(
        &["--data-dir", data_arg, "--from", first.to_str().unwrap()],
        "C@P15/2\nquit\n",
    );
    let files = s.files("data");
    assert_eq!(files.len(), 2, "{files:?}");
    assert_eq!(std::fs::read_to_string(&first).unwrap(), first_text);
    let second = files.iter().find(|f| **f != first).unwrap();
    let rec = std::fs::read_to_string(second).unwrap();
    assert!(rec.contains("1. C@B7/2 R@F2/0 2. C@P15/2 *"), "{rec}");

    // A random game's record: over by a chain or by the central count.
    let random = s.path("random.pgn");
    let o = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["random-game", "--seed", "3"])
        .output()
        .unwrap();
    std::fs::write(&random, &o.stdout).unwrap();
    let game = Record::parse(&stdout(&o)).unwrap().replay().unwrap();
    let pos = game.position();
    let name = |side: Side| {
        if side == Side::White {
            "White"
        } else {
            "Black"
        }
    };
    let counts = format!(
        "White {}, Black {}",
        pos.central_count(Side::White),
        pos.central_count(Side::Black)
    );
    let words = match pos.status() {
        Status::Won(side) => match pos.connection(side) {
            Some(c) => format!(
                "{} wins: connected {} and {}.",
                name(side),
                c.sides.0.name(),
                c.sides.1.name()
            ),
            None => format!("{} wins on the central count: {counts}.", name(side)),
        },
        Status::Draw => format!("A draw: the central count is tied, {counts}."),
        Status::Ongoing => panic!("a random game is played to its end"),
    };
    let o = s.play(
        &[
            "--ansi",
            "never",
            "--data-dir",
            data_arg,
            "--from",
            random.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&words), "{}", stdout(&o));

    // --from with a position: refused.
    let o = s.play(
        &["--from", random.to_str().unwrap(), "--moves", "C@B7/2"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let o = s.play(&["--from", s.path("missing.pgn").to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

#[test]
fn resign_asks_first() {
    let s = Sandbox::new("resign");
    let path = s.path("r.pgn");
    let o = s.human(
        &["--record", path.to_str().unwrap()],
        "C@B7/2\nresign\n\nresign\nno\nresign\ny\nC@P15/2\nquit\n",
    );
    let out = stdout(&o);
    assert_eq!(
        out.matches("Resign the game as Black? (y/N) ").count(),
        3,
        "{out}"
    );
    assert_eq!(out.matches("Not resigned: play on.").count(), 2, "{out}");
    assert!(out.contains("Black resigns: White wins."), "{out}");
    assert!(out.contains("The game is over"), "{out}");
    let rec = std::fs::read_to_string(&path).unwrap();
    assert!(rec.contains("[Result \"1-0\"]"), "{rec}");
    assert!(rec.contains("[Termination \"black resigned\"]"), "{rec}");
    assert!(rec.contains("1. C@B7/2 1-0"), "{rec}");
}

/// A resignation is final (`undo` says so), and `new` starts another game
/// once one is over, with a record of its own; the record's place is said
/// on a line of its own.
#[test]
fn a_resignation_is_final_and_new_starts_another_game() {
    let s = Sandbox::new("new");
    let o = s.human(
        &[],
        "C@B7/2\nnew\nresign\ny\nundo\nC@P15/2\nnew\nC@B3/0\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("The game goes on: `resign` first, or `quit`."),
        "{out}"
    );
    assert!(
        out.contains("A resignation is final: `new` starts another game."),
        "{out}"
    );
    assert!(
        out.contains("The game is over: `new`, `undo`, `save` or `quit`."),
        "{out}"
    );
    assert!(out.contains("A new game."), "{out}");
    assert!(out.lines().any(|l| l.starts_with("Record: ")), "{out}");
    let files = s.files("xdg/punct/records");
    assert_eq!(files.len(), 2, "one record per game: {files:?}");
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let resigned = texts
        .iter()
        .find(|t| t.contains("black resigned"))
        .expect("the resigned game");
    assert!(resigned.contains("1. C@B7/2 1-0"), "{resigned}");
    let second = texts
        .iter()
        .find(|t| !t.contains("resigned"))
        .expect("the new game");
    assert!(second.contains("1. C@B3/0"), "{second}");
}

#[test]
fn hint_speaks_of_cells_ahead_not_centipawns() {
    let s = Sandbox::new("hint");
    let o = s.human(
        &[
            "--think",
            "50",
            "--record",
            s.path("h.pgn").to_str().unwrap(),
        ],
        "C@B7/2\nhint\nquit\n",
    );
    let out = stdout(&o);
    let hint = out
        .lines()
        .find_map(|l| l.split_once("Hint: ").map(|(_, h)| h))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        hint.ends_with("cells ahead in the connection race.")
            || hint.ends_with("About even in the connection race.")
            || hint.contains("wins by force"),
        "{hint}"
    );
    assert!(!hint.contains("cp "), "{hint}");
    // The suggested move is legal here.
    let mv: punct_core::Move = hint.split('.').next().unwrap().parse().unwrap();
    let mut pos = punct_core::Position::new(punct_core::Variant::Standard);
    pos.play("C@B7/2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(mv), "{mv}");
}

/// Reads a child's standard output as it comes, until `marker` has been
/// seen `times` times; returns everything read so far.
fn read_until(child: &mut Child, seen: &mut String, marker: &str, times: usize) {
    let out = child.stdout.as_mut().unwrap();
    let mut buf = [0u8; 4096];
    while seen.matches(marker).count() < times {
        let n = out.read(&mut buf).unwrap();
        assert!(n > 0, "output ended before {marker:?}: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_record_and_says_where() {
    let s = Sandbox::new("sigint");
    let data = s.path("data");
    let mut child = s
        .command(&human_args(&["--data-dir", data.to_str().unwrap()]))
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"C@B7/2\n").unwrap();
    stdin.flush().unwrap();
    let mut seen = String::new();
    // Black's prompt: the move is played and kept, input is awaited.
    read_until(&mut child, &mut seen, "Black to move> ", 1);
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut rest)
        .unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{seen}{rest}");
    let (path, rec) = only_record(&s.files("data"));
    assert!(rec.contains("1. C@B7/2 *"), "{rec}");
    assert!(
        rest.contains(&format!("Interrupted. Record saved to {}", path.display())),
        "{rest}"
    );
    assert!(rest.contains("punct play --from"), "{rest}");
    assert!(s.files("cwd").is_empty());
}

/// `punct play` on a pseudo-terminal: read with line editing (rustyline)
/// as at a person's terminal, not line by line as from a pipe.
#[cfg(target_os = "linux")]
mod terminal {
    use super::*;
    use std::ffi::CStr;
    use std::fs::{File, OpenOptions};
    use std::os::fd::FromRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::process::CommandExt;
    use std::sync::mpsc::{channel, Receiver};
    use std::time::{Duration, Instant};

    /// A child on the slave side of a new pseudo-terminal of `cols`×`rows`
    /// (its controlling terminal, as a shell's would be).
    struct Pty {
        master: File,
        child: Child,
        chunks: Receiver<Vec<u8>>,
        /// All the output so far, `\r\n` read as `\n`.
        seen: String,
    }

    impl Pty {
        fn spawn(mut command: Command, cols: u16, rows: u16) -> Pty {
            // SAFETY: plain calls on a descriptor this function owns; the
            // name buffer is large and NUL-terminated by ptsname_r.
            let (master, path) = unsafe {
                let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
                assert!(fd >= 0, "posix_openpt");
                let master = File::from_raw_fd(fd);
                assert_eq!(libc::grantpt(fd), 0);
                assert_eq!(libc::unlockpt(fd), 0);
                let mut name = [0 as libc::c_char; 256];
                assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0);
                let size = libc::winsize {
                    ws_row: rows,
                    ws_col: cols,
                    ws_xpixel: 0,
                    ws_ypixel: 0,
                };
                assert_eq!(libc::ioctl(fd, libc::TIOCSWINSZ, &size), 0);
                let path = CStr::from_ptr(name.as_ptr()).to_str().unwrap().to_string();
                (master, path)
            };
            let slave = OpenOptions::new()
                .read(true)
                .write(true)
                .custom_flags(libc::O_NOCTTY)
                .open(&path)
                .unwrap();
            command
                .env("TERM", "xterm")
                .stdin(slave.try_clone().unwrap())
                .stdout(slave.try_clone().unwrap())
                .stderr(slave);
            // SAFETY: only async-signal-safe calls between fork and exec.
            unsafe {
                command.pre_exec(|| {
                    if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            let child = command.spawn().unwrap();
            // The slave's copies in `command` close with it: the master
            // then reads the end of the output when the child is gone.
            drop(command);
            let mut reader = master.try_clone().unwrap();
            let (send, chunks) = channel();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                // EIO once the child and its terminal are gone.
                while let Ok(n @ 1..) = reader.read(&mut buf) {
                    if send.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            });
            Pty {
                master,
                child,
                chunks,
                seen: String::new(),
            }
        }

        /// Types `keys` at once, as fast typing or a paste does.
        fn type_ahead(&mut self, keys: &str) {
            self.master.write_all(keys.as_bytes()).unwrap();
        }

        /// Reads the output until `marker` has been seen `times` times
        /// (false after ten seconds or at the end of the output).
        fn wait_for(&mut self, marker: &str, times: usize) -> bool {
            let deadline = Instant::now() + Duration::from_secs(10);
            while self.seen.matches(marker).count() < times {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.chunks.recv_timeout(left) {
                    Ok(chunk) => {
                        let text = String::from_utf8_lossy(&chunk).replace("\r\n", "\n");
                        self.seen.push_str(&text);
                    }
                    Err(_) => return false,
                }
            }
            true
        }

        /// Ends the child if it is still there and reads what is left.
        fn finish(mut self) -> String {
            let deadline = Instant::now() + Duration::from_secs(10);
            while self.child.try_wait().unwrap().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            self.child.kill().ok();
            self.child.wait().unwrap();
            while let Ok(chunk) = self.chunks.recv_timeout(Duration::from_millis(200)) {
                self.seen
                    .push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
            }
            self.seen
        }
    }

    /// The lines as a person sees them on the screen: `\r` goes back to the
    /// start of the line, the line editor's cursor moves (`ESC[nC`) and
    /// clearing (`ESC[K`) are followed, other escape sequences dropped.
    fn screen_lines(text: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line: Vec<char> = Vec::new();
        let mut col = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\n' => {
                    lines.push(line.drain(..).collect());
                    col = 0;
                }
                '\r' => col = 0,
                '\x1b' if chars.peek() == Some(&'[') => {
                    chars.next();
                    let mut param = String::new();
                    // Parameters, then a final byte in @..~.
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            match d {
                                'C' => col += param.parse::<usize>().unwrap_or(1),
                                'K' => line.truncate(col),
                                _ => {}
                            }
                            break;
                        }
                        param.push(d);
                    }
                }
                c => {
                    if line.len() < col {
                        line.resize(col, ' ');
                    }
                    if col < line.len() {
                        line[col] = c;
                    } else {
                        line.push(c);
                    }
                    col += 1;
                }
            }
        }
        lines.push(line.into_iter().collect());
        lines
    }

    /// Typed right after `resign`, before its question shows, the answer
    /// still counts (it was lost: the line editor dropped what it had read
    /// past the end of the line).
    #[test]
    fn a_y_typed_ahead_after_resign_is_the_answer() {
        let s = Sandbox::new("pty-resign");
        let record = s.path("r.pgn");
        let command = s.command(&human_args(&["--record", record.to_str().unwrap()]));
        let mut pty = Pty::spawn(command, 80, 24);
        assert!(pty.wait_for("White to move> ", 1), "{}", pty.seen);
        pty.type_ahead("C@B7/2\r");
        assert!(pty.wait_for("Black to move> ", 1), "{}", pty.seen);
        pty.type_ahead("resign\ry\r");
        let answered = pty.wait_for("Black resigns: White wins.", 1);
        pty.type_ahead("quit\r");
        let out = pty.finish();
        assert!(answered, "the typed-ahead y was lost:\n{out}");
        let rec = std::fs::read_to_string(&record).unwrap();
        assert!(rec.contains("[Termination \"black resigned\"]"), "{rec}");
        assert!(!out.contains("Not resigned"), "{out}");
    }

    /// In an 80×24 terminal `--board auto` draws the compact board, and the
    /// board, the state lines and the prompt fit on the screen.
    #[test]
    fn at_80_by_24_the_compact_board_and_the_prompt_fit_the_screen() {
        let s = Sandbox::new("pty-size");
        let command = s.command(&human_args(&[
            "--record",
            s.path("r.pgn").to_str().unwrap(),
            "--moves",
            "C@B7/2 R@F2/0",
        ]));
        let mut pty = Pty::spawn(command, 80, 24);
        assert!(pty.wait_for("White to move> ", 1), "{}", pty.seen);
        pty.type_ahead("quit\r");
        let out = pty.finish();
        let lines = screen_lines(&out);
        let letters = "A   B   C   D   E   F   G   H   I   J   K   L   M   N   O   P   Q";
        let top = lines
            .iter()
            .position(|l| l.trim() == letters)
            .unwrap_or_else(|| panic!("no compact board:\n{out}"));
        let prompt = lines
            .iter()
            .position(|l| l.starts_with("White to move> "))
            .unwrap();
        assert_eq!(lines[top + 18].trim(), letters, "{out}");
        assert!(
            lines[top + 19].starts_with("Move 2: White to move."),
            "{out}"
        );
        // The board's first line still on the screen with the prompt.
        assert!(prompt - top < 24, "{} lines:\n{out}", prompt - top + 1);
        for line in &lines[top..=prompt] {
            assert!(line.chars().count() <= 80, "{line}");
        }
        // A7 (a dot of White's C piece) under the A, on the line of row 7.
        let a = lines[top].find('A').unwrap();
        let a7 = lines[top..prompt]
            .iter()
            .find(|l| l.starts_with("7 "))
            .unwrap_or_else(|| panic!("{out}"));
        assert_eq!(a7.chars().nth(a), Some('W'), "{a7}");
    }
}
