// A Skip-Bo bot to start from: Go, standard library only (encoding/json).
//
// The arena starts this program and talks to it over stdin/stdout, one JSON
// object per line (protocol/PROTOCOL.md). Anything written to stdout goes to
// the arena, so log with logf() (stderr) instead. Build and run (README.md):
//
//	go build -o /tmp/mybot . && skipbo-arena play /tmp/mybot skipbo-easy
//
// The policy is deliberately simple: play the stock card when you can, else
// play any non-wild card, else discard. Make it smarter in choose().
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

const name = "starter-go"
const wild = 0 // cards are 1..12, and 0 for the SKIP-BO wild

// Move is one element of a request's "legal" list (PROTOCOL.md 4.1). Raw
// keeps the arena's own bytes: echoing them back is always a legal answer.
type Move struct {
	Action string          `json:"action"` // "play", "discard" or "pass"
	From   string          `json:"from"`   // for a play: "hand", "stock" or "discard"
	Seat   int             `json:"seat"`   // whose stock or discard pile a play takes from
	Pile   int             `json:"pile"`   // a discard pile, 0..3
	Card   int             `json:"card"`
	To     int             `json:"to"` // a building pile, 0..3
	Raw    json.RawMessage `json:"-"`
}

// Player is one seat at the table, as everyone can see it.
type Player struct {
	Seat      int     `json:"seat"`
	StockSize int     `json:"stock_size"`
	StockTop  *int    `json:"stock_top"` // nil once the stock is empty
	HandSize  int     `json:"hand_size"`
	Discards  [][]int `json:"discards"` // four piles, each bottom first: the last card is the top
	Removed   bool    `json:"removed"`
}

// View is what this bot sees when it must move (the request's "view").
type View struct {
	Seat     int      `json:"seat"`
	Partner  *int     `json:"partner"` // nil without partnership
	Hand     []int    `json:"hand"`    // sorted, wilds (0) first
	Players  []Player `json:"players"`
	Building []struct {
		Value int `json:"value"` // 0 = empty; the next card is value + 1, or a wild
		Size  int `json:"size"`
	} `json:"building"`
	DrawPile int `json:"draw_pile"`
}

// Message is any line from the arena; fields a type does not use stay empty.
type Message struct {
	Type    string            `json:"type"`
	Game    string            `json:"game"`
	Seat    int               `json:"seat"`
	Players int               `json:"players"`
	Reason  string            `json:"reason"`
	Winners []int             `json:"winners"`
	View    View              `json:"view"`
	Legal   []json.RawMessage `json:"legal"`
	// "events" lists what happened since our last request; this bot does
	// not read them, but a smarter one can track the game there.
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, name+": "+format+"\n", args...)
}

// send writes one JSON object per line and flushes, or the arena waits for nothing.
func send(out *bufio.Writer, line string) {
	out.WriteString(line + "\n")
	out.Flush()
}

// discardTop is the top of one of my discard piles, or -1 when it is empty.
func discardTop(v *View, pile int) int {
	d := v.Players[v.Seat].Discards[pile]
	if len(d) == 0 {
		return -1
	}
	return d[len(d)-1]
}

// fit says how well card sits on one of my discard piles: 0 best (the same
// card or one higher below it, so it can be played later), 1 empty, 2 else.
func fit(v *View, card, pile int) int {
	top := discardTop(v, pile)
	if top == card || top == card+1 {
		return 0
	}
	if top < 0 {
		return 1
	}
	return 2
}

// choose picks one move from the legal list; returns its index.
func choose(v *View, legal []Move) int {
	// 1. The stock card first: emptying your stock is how you win.
	for i, m := range legal {
		if m.Action == "play" && m.From == "stock" {
			return i
		}
	}
	// 2. Any play that does not spend a wild (wilds are worth keeping).
	for i, m := range legal {
		if m.Action == "play" && m.Card != wild {
			return i
		}
	}
	// 3. Discard, which ends the turn: the highest non-wild card (a wild
	//    only if nothing else is left), on the pile where it fits best.
	best := -1
	rank := func(card int) int { // wilds rank lowest
		if card == wild {
			return -1
		}
		return card
	}
	for i, m := range legal {
		if m.Action != "discard" {
			continue
		}
		if best < 0 || rank(m.Card) > rank(legal[best].Card) ||
			(m.Card == legal[best].Card && fit(v, m.Card, m.Pile) < fit(v, m.Card, legal[best].Pile)) {
			best = i
		}
	}
	// 4. Nothing else is left: a pass (legal only with an empty hand).
	if best < 0 {
		return 0
	}
	return best
}

func main() {
	in := bufio.NewReader(os.Stdin) // lines may be long (up to 1 MiB): no fixed buffer
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var msg Message
			if jerr := json.Unmarshal(line, &msg); jerr != nil {
				logf("ignoring a line: %v", jerr)
			} else if !handle(out, &msg) {
				return
			}
		}
		if err == io.EOF { // the arena closed our stdin
			return
		} else if err != nil {
			logf("reading stdin: %v", err)
			os.Exit(1)
		}
	}
}

// handle answers one message; false at "quit".
func handle(out *bufio.Writer, msg *Message) bool {
	switch msg.Type {
	case "hello":
		send(out, `{"type":"hello","protocol":1,"name":"`+name+`","version":"1.0"}`)
	case "game_start":
		logf("game %s, seat %d of %d", msg.Game, msg.Seat, msg.Players)
	case "request":
		legal := make([]Move, len(msg.Legal))
		for i, raw := range msg.Legal {
			if err := json.Unmarshal(raw, &legal[i]); err != nil {
				logf("a legal move I cannot read: %v", err)
			}
			legal[i].Raw = raw
		}
		if len(legal) > 0 {
			send(out, `{"type":"move","move":`+string(legal[choose(&msg.View, legal)].Raw)+`}`)
		}
	case "game_end":
		logf("game %s over: %s, winners %v", msg.Game, msg.Reason, msg.Winners)
	case "quit":
		return false
	}
	// Any other message type is new to this bot: ignore it.
	return true
}
