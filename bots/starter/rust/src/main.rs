//! A Skip-Bo bot to start from: Rust with serde_json (Debian's
//! librust-serde-json-dev, built offline; see README.md).
//!
//! The arena starts this program and talks to it over stdin/stdout, one JSON
//! object per line (protocol/PROTOCOL.md). Anything written to stdout goes to
//! the arena, so log with `log!` (stderr) instead. Build and run:
//!
//!     cargo build --release && skipbo-arena play target/release/skipbo-starter-rust skipbo-easy
//!
//! The policy is deliberately simple: play the stock card when you can, else
//! play any non-wild card, else discard. Make it smarter in `choose()`.
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

const NAME: &str = "starter-rust";
const WILD: i64 = 0; // cards are 1..12, and 0 for the SKIP-BO wild

// eprintln! writes stderr unbuffered: every line arrives at once.
macro_rules! log {
    ($($arg:tt)*) => { eprintln!("{}: {}", NAME, format!($($arg)*)) };
}

/// One JSON object per line; flush, or the arena waits for nothing.
fn send(out: &mut impl Write, message: &Value) -> io::Result<()> {
    writeln!(out, "{}", message)?;
    out.flush()
}

/// One seat at the table, as everyone can see it.
#[allow(dead_code)] // what a smarter policy reads; this one uses the discards only
struct Player {
    stock_top: Option<i64>, // None once the stock is empty
    stock_size: i64,
    discards: Vec<Vec<i64>>, // four piles, each bottom first: the last card is the top
}

/// What this bot sees when it must move (the request's "view").
#[allow(dead_code)]
struct View {
    seat: usize,
    hand: Vec<i64>, // sorted, wilds (0) first
    players: Vec<Player>,
    building: Vec<i64>, // a pile's value: 0 = empty; the next card is value + 1, or a wild
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

impl View {
    fn new(v: &Value) -> Option<View> {
        let players = v["players"].as_array()?.iter().map(|p| Player {
            stock_top: p["stock_top"].as_i64(),
            stock_size: p["stock_size"].as_i64().unwrap_or(0),
            discards: p["discards"]
                .as_array()
                .map(|d| d.iter().map(ints).collect())
                .unwrap_or_default(),
        });
        Some(View {
            seat: v["seat"].as_u64()? as usize,
            hand: ints(&v["hand"]),
            players: players.collect(),
            building: v["building"]
                .as_array()?
                .iter()
                .filter_map(|b| b["value"].as_i64())
                .collect(),
        })
    }

    /// The top of one of my discard piles, or None when it is empty.
    fn discard_top(&self, pile: usize) -> Option<i64> {
        self.players
            .get(self.seat)?
            .discards
            .get(pile)?
            .last()
            .copied()
    }
}

/// How well card sits on one of my discard piles: 0 best (the same card or
/// one higher below it, so it can be played later), 1 an empty pile, 2 else.
fn fit(view: &View, card: i64, pile: usize) -> i32 {
    match view.discard_top(pile) {
        Some(top) if top == card || top == card + 1 => 0,
        None => 1,
        Some(_) => 2,
    }
}

/// Pick one move from the legal list. Echoing an element of it is always right.
fn choose<'a>(view: &View, legal: &'a [Value]) -> &'a Value {
    let card = |m: &Value| m["card"].as_i64().unwrap_or(WILD);
    let pile = |m: &Value| m["pile"].as_u64().unwrap_or(0) as usize;
    // 1. The stock card first: emptying your stock is how you win.
    if let Some(m) = legal
        .iter()
        .find(|m| m["action"] == "play" && m["from"] == "stock")
    {
        return m;
    }
    // 2. Any play that does not spend a wild (wilds are worth keeping).
    if let Some(m) = legal
        .iter()
        .find(|m| m["action"] == "play" && card(m) != WILD)
    {
        return m;
    }
    // 3. Discard, which ends the turn: the highest non-wild card (a wild only
    //    if nothing else is left), on the pile where it fits best.
    let rank = |c: i64| if c == WILD { -1 } else { c };
    let best = legal
        .iter()
        .filter(|m| m["action"] == "discard")
        .min_by_key(|m| (-rank(card(m)), fit(view, card(m), pile(m))));
    // 4. Nothing else is left: a pass (legal only with an empty hand).
    best.unwrap_or(&legal[0])
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    // lines() ends at EOF: the arena closed our stdin. Lines may be 1 MiB long.
    for line in stdin.lock().lines() {
        let line = line?;
        let msg: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                log!("not JSON, ignored: {}", e);
                continue;
            }
        };
        match msg["type"].as_str() {
            Some("hello") => send(
                &mut out,
                &json!({"type": "hello", "protocol": 1, "name": NAME, "version": "1.0"}),
            )?,
            Some("game_start") => log!(
                "game {}, seat {} of {}",
                msg["game"],
                msg["seat"],
                msg["players"]
            ),
            Some("request") => {
                // "events" lists what happened since our last request; this bot
                // does not read them, but a smarter one can track the game there.
                let legal = msg["legal"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                match View::new(&msg["view"]) {
                    Some(view) if !legal.is_empty() => send(
                        &mut out,
                        &json!({"type": "move", "move": choose(&view, legal)}),
                    )?,
                    _ => log!("a request I cannot read, not answered"),
                }
            }
            Some("game_end") => log!(
                "game {} over: {}, winners {}",
                msg["game"],
                msg["reason"],
                msg["winners"]
            ),
            Some("quit") => break,
            _ => {} // Any other message type is new to this bot: ignore it.
        }
    }
    Ok(())
}
