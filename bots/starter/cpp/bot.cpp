// A Skip-Bo bot to start from: C++17 with nlohmann/json (Debian
// nlohmann-json3-dev, header only).
//
// The arena starts this program and talks to it over stdin/stdout, one JSON
// object per line (protocol/PROTOCOL.md). Anything written to stdout goes to
// the arena, so log with log() (stderr) instead. Build and run (README.md):
//
//     g++ -std=c++17 -O2 bot.cpp -o /tmp/mybot && skipbo-arena play /tmp/mybot skipbo-easy
//
// The policy is deliberately simple: play the stock card when you can, else
// play any non-wild card, else discard. Make it smarter in choose().
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

static const char *const NAME = "starter-cpp";
static const int WILD = 0; // cards are 1..12, and 0 for the SKIP-BO wild

template <typename... Args> static void log(const Args &...args)
{
	std::cerr << NAME << ":";
	((std::cerr << ' ' << args), ...);
	std::cerr << std::endl; // endl flushes
}

// One JSON object per line; flush, or the arena waits for nothing.
static void send(const json &message)
{
	std::cout << message.dump() << std::endl;
}

// One seat at the table, as everyone can see it.
struct Player {
	int seat = 0, stock_size = 0, hand_size = 0;
	std::optional<int> stock_top; // empty once the stock is empty
	std::vector<std::vector<int>> discards; // four piles, each bottom first: back() is the top
	bool removed = false;
};

// What this bot sees when it must move (the request's "view").
struct View {
	int seat = 0;
	std::vector<int> hand; // sorted, wilds (0) first
	std::vector<Player> players;
	std::vector<int> building; // a pile's value: 0 = empty; the next card is value + 1, or a wild
	int draw_pile = 0;

	explicit View(const json &v) : seat(v.at("seat")), hand(v.at("hand").get<std::vector<int>>())
	{
		for (const json &p : v.at("players")) {
			Player pl;
			pl.seat = p.at("seat");
			pl.stock_size = p.at("stock_size");
			if (!p.at("stock_top").is_null())
				pl.stock_top = p.at("stock_top").get<int>();
			pl.hand_size = p.value("hand_size", 0);
			pl.discards = p.at("discards").get<std::vector<std::vector<int>>>();
			pl.removed = p.value("removed", false);
			players.push_back(pl);
		}
		for (const json &b : v.at("building"))
			building.push_back(b.at("value"));
		draw_pile = v.value("draw_pile", 0);
	}

	const Player &me() const { return players.at(seat); }

	// The top of one of my discard piles, or -1 when it is empty.
	int discard_top(int pile) const
	{
		const std::vector<int> &d = me().discards.at(pile);
		return d.empty() ? -1 : d.back();
	}
};

// How well card sits on one of my discard piles: 0 best (the same card or one
// higher below it, so it can be played later), 1 an empty pile, 2 else.
static int fit(const View &view, int card, int pile)
{
	int top = view.discard_top(pile);
	if (top == card || top == card + 1)
		return 0;
	return top < 0 ? 1 : 2;
}

// Pick one move from the legal list. Echoing an element of it is always right.
static const json &choose(const View &view, const json &legal)
{
	// 1. The stock card first: emptying your stock is how you win.
	for (const json &m : legal)
		if (m.at("action") == "play" && m.at("from") == "stock")
			return m;
	// 2. Any play that does not spend a wild (wilds are worth keeping).
	for (const json &m : legal)
		if (m.at("action") == "play" && m.at("card") != WILD)
			return m;
	// 3. Discard, which ends the turn: the highest non-wild card (a wild only
	//    if nothing else is left), on the pile where it fits best.
	const json *best = nullptr;
	auto rank = [](int card) { return card == WILD ? -1 : card; };
	for (const json &m : legal) {
		if (m.at("action") != "discard")
			continue;
		int card = m.at("card"), pile = m.at("pile");
		if (!best || rank(card) > rank(best->at("card")) ||
		    (card == best->at("card") && fit(view, card, pile) < fit(view, card, best->at("pile"))))
			best = &m;
	}
	// 4. Nothing else is left: a pass (legal only with an empty hand).
	return best ? *best : legal.at(0);
}

int main()
{
	std::ios::sync_with_stdio(false);
	std::string line; // std::getline grows as needed: lines may be up to 1 MiB
	while (std::getline(std::cin, line)) { // ends at EOF: the arena closed our stdin
		json msg = json::parse(line, nullptr, false);
		if (msg.is_discarded() || !msg.is_object()) {
			log("not a JSON object, ignored:", line.substr(0, 80));
			continue;
		}
		std::string type = msg.value("type", "");
		try {
			if (type == "hello") {
				send({{"type", "hello"}, {"protocol", 1}, {"name", NAME}, {"version", "1.0"}});
			} else if (type == "game_start") {
				log("game", msg.at("game").get<std::string>(), "seat", msg.at("seat").get<int>(), "of",
				    msg.at("players").get<int>());
			} else if (type == "request") {
				// "events" lists what happened since our last request; this bot
				// does not read them, but a smarter one can track the game there.
				View view(msg.at("view"));
				send({{"type", "move"}, {"move", choose(view, msg.at("legal"))}});
			} else if (type == "game_end") {
				log("game", msg.at("game").get<std::string>(), "over:", msg.value("reason", "?"));
			} else if (type == "quit") {
				break;
			}
			// Any other message type is new to this bot: ignore it.
		} catch (const json::exception &e) {
			log("a", type, "message I cannot read:", e.what());
		}
	}
	return 0;
}
