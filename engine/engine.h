/*
 * engine.h - the Skip-Bo rules (../shared/RULES.md, R1-R14) as a library.
 *
 * No I/O and no global mutable state: every function works on the objects it
 * is given, so any number of games may run in one process, on any threads, as
 * long as one game is not used by two threads at once.
 *
 * Errors are negative ENGINE_E* codes; engine_strerror() names them. A call
 * that fails changes nothing.
 */
#ifndef SKIPBO_ENGINE_H
#define SKIPBO_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#define ENGINE_MAX_PLAYERS 6
#define ENGINE_DISCARD_PILES 4
#define ENGINE_BUILDING_PILES 4
#define ENGINE_HAND_SIZE 5
#define ENGINE_DECK_SIZE 162
#define ENGINE_TURN_CAP 10000
/* An upper bound on the legal moves of one position (R5 sources x targets). */
#define ENGINE_MAX_MOVES 96

/* R1: a card is 1..12, or the SKIP-BO wild. */
#define CARD_SKIPBO 0
#define CARD_NONE 0xff /* "no card": an empty stock's top, for example */

/* Error codes (negative). */
enum engine_error {
	ENGINE_OK = 0,
	ENGINE_EPLAYERS = -1,     /* R2: players not in 2..6 */
	ENGINE_ESTOCK = -2,       /* R3: stock size not in 1..30 */
	ENGINE_EDECK = -3,        /* R3: players x (stock + 5) > 162 */
	ENGINE_EPARTNERSHIP = -4, /* R2: partnership needs 4 or 6 players */
	ENGINE_EDEALER = -5,      /* dealer seat out of range */
	ENGINE_ENOMEM = -6,
	ENGINE_EOVER = -7,        /* the game has ended */
	ENGINE_EKIND = -8,        /* unknown move kind or source */
	ENGINE_ENOTOWNER = -9,    /* R4/R10: pile belongs to neither you nor your partner */
	ENGINE_ENOCARD = -10,     /* no such card in hand / source pile empty */
	ENGINE_ETARGET = -11,     /* pile index out of range */
	ENGINE_EBUILD = -12,      /* R4: the building pile does not accept that card */
	ENGINE_EPASS = -13,       /* R5.4: pass only with an empty hand */
	ENGINE_ESEAT = -14,       /* seat out of range or already removed */
	ENGINE_EMATCHOVER = -15,  /* R9: the match is decided */
	ENGINE_ERUNNING = -16,    /* R9: the game given to match_record has not ended */
};

/* The rule set of one game (R2, R3, R10). */
struct game_rules {
	int players;     /* 2..6 */
	int stock_size;  /* 1..30; 0 means the R3 default for the player count */
	int partnership; /* R10: 4 or 6 players only */
	int dealer;      /* the first player is (dealer + 1) % players */
	uint64_t seed;   /* R12 */
	/*
	 * 0 (the default): keep the full event log. Non-zero: keep none, for
	 * search and benchmarks. The log costs 16 bytes per event, about 2.5
	 * events per move (1,000 to 2,500 per random game, 16 to 40 KB), in an
	 * array that starts at 1,024 events and doubles; and up to about 10% of the
	 * time of a random playout, plus the copy in game_clone.
	 */
	int no_event_log;
};

/* Fill in defaults (stock size) and check the rules. Returns 0, or a negative
 * code with a sentence for a person in reason (may be NULL). */
int game_rules_check(struct game_rules *rules, char *reason, size_t reason_size);

enum move_kind { MOVE_PLAY = 1, MOVE_DISCARD = 2, MOVE_PASS = 3 };
enum move_source { SOURCE_HAND = 1, SOURCE_STOCK = 2, SOURCE_DISCARD = 3 };

/*
 * One decision of the player to move (R5). Hand cards are named by value: a
 * hand is a multiset, so two 7s are the same move.
 *   play:    source, owner (seat whose stock/discard pile; self for the hand),
 *            pile (discard pile 0..3 when source is SOURCE_DISCARD),
 *            card (the card that moves), target (building pile 0..3)
 *   discard: card (from hand), target (own discard pile 0..3)
 *   pass:    nothing else (R5.4)
 */
struct move {
	uint8_t kind;
	uint8_t source;
	uint8_t owner;
	uint8_t pile;
	uint8_t card;
	uint8_t target;
};

/* 1 if a and b are the same move. Only the fields that mean something for the
 * kind take part: owner of a hand play, pile of a stock play, everything but
 * card and target of a discard, everything of a pass are ignored. */
int move_equal(const struct move *a, const struct move *b);

/* R4: 1 if card (1..12 or CARD_SKIPBO) may go on a building pile of value
 * `value` (0 = empty, else 1..11: a pile at 12 is completed at once), else 0.
 * Anything out of those ranges is refused. Inline because the engine's move
 * check and the bots' searches ask it millions of times per second. */
static inline int building_pile_accepts(int value, int card)
{
	/* value + 1 is then 1..12, so card needs no range check of its own. */
	return value >= 0 && value < 12 && (card == CARD_SKIPBO || card == value + 1);
}

enum event_kind {
	EVENT_TURN = 1,    /* seat begins a turn; turn = turn number */
	EVENT_DRAW,        /* seat draws card (one event per card) from the draw pile */
	EVENT_PLAY,        /* seat plays card (source/owner/pile) to target; value = what it counts as */
	EVENT_STOCK_TOP,   /* owner's stock top is card: after the deal (turn 0), then after each stock play */
	EVENT_COMPLETE,    /* building pile target reached 12 and went to the completed heap (R4) */
	EVENT_DISCARD,     /* seat discards card onto own pile target; the turn ends */
	EVENT_PASS,        /* seat ends the turn with an empty hand (R5.4) */
	EVENT_REFILL,      /* draw pile rebuilt: source 1 = completed heap, 2 = building piles (R6); count cards */
	EVENT_REMOVED,     /* seat removed for a fault (R11) */
	EVENT_END,         /* the game ended: seat = winner (0xff: none), value = enum end_reason */
};

struct event {
	uint8_t kind;
	uint8_t seat;
	uint8_t source, owner, pile; /* as in struct move */
	uint8_t card;                /* CARD_NONE when hidden from the viewer */
	uint8_t target;
	uint8_t value;
	uint32_t count; /* REFILL: cards in the new draw pile; DRAW: 1 */
	uint32_t turn;
}; /* 16 bytes, no padding: events may be compared and hashed byte for byte */

/*
 * What seat `viewer` may see of ev (R13): every event is public except a draw
 * by another seat, whose card becomes CARD_NONE. Writes the redacted copy to
 * out and returns 1.
 */
int event_for_seat(const struct event *ev, int viewer, struct event *out);

/* The view of one seat (R13). Holds nothing that seat may not see. */
struct seat_view {
	int seat, players, partnership, partner; /* partner: -1 without partnership */
	int to_move;                             /* seat whose turn it is */
	uint32_t turn;                           /* turns started so far, from 1 */
	int hand_size;
	uint8_t hand[ENGINE_HAND_SIZE]; /* own hand, sorted ascending (SKIP-BO first) */
	int stock_size[ENGINE_MAX_PLAYERS];
	uint8_t stock_top[ENGINE_MAX_PLAYERS]; /* CARD_NONE when the stock is empty */
	int others_hand_size[ENGINE_MAX_PLAYERS];
	int removed[ENGINE_MAX_PLAYERS];       /* R11 */
	int discard_size[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES];
	uint8_t discard[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES][ENGINE_DECK_SIZE]; /* bottom first */
	int building_value[ENGINE_BUILDING_PILES]; /* 0 = empty, else 1..12 */
	int building_size[ENGINE_BUILDING_PILES];
	int draw_size, completed_size;
};

enum game_status { GAME_RUNNING = 0, GAME_WON = 1, GAME_STALEMATE = 2 };
enum end_reason {
	END_NONE = 0,
	END_STOCK_EMPTIED, /* R7 / R10 */
	END_STALEMATE,     /* R7: 2 x n turns without a play and no refill possible */
	END_TURN_CAP,      /* R7: 10,000 turns */
	END_FORFEIT,       /* R11: one player or team left after faults */
};

struct game_result {
	int status;                           /* enum game_status */
	int reason;                           /* enum end_reason */
	int winner;                           /* winning seat (lowest seat of the team), -1 if none */
	int winners[ENGINE_MAX_PLAYERS];      /* 1 for each seat on the winning side */
	int placing[ENGINE_MAX_PLAYERS];      /* R7: 1 = best; ties share a placing */
	int stock_left[ENGINE_MAX_PLAYERS];
	int score[ENGINE_MAX_PLAYERS];        /* R8: per seat; in partnership each partner carries the team score */
	uint32_t turns;
	uint32_t moves;
};

struct game;

/* A new game, dealt (R3). Returns NULL and sets *err (if err) on bad rules or no memory. */
struct game *game_new(const struct game_rules *rules, int *err);
void game_free(struct game *g);
/* Deep copy (event log included), for search. NULL when out of memory. */
struct game *game_clone(const struct game *g);

const struct game_rules *game_rules(const struct game *g);
int game_to_move(const struct game *g);   /* -1 once the game is over */
int game_status(const struct game *g);    /* enum game_status */
void game_result(const struct game *g, struct game_result *out);

/* Legal moves of the player to move: writes up to ENGINE_MAX_MOVES, returns the count (0 once over).
 * Each distinct move once: plays from the own stock and discard piles, the partner's (R10), the hand,
 * then the discards, or the pass (README.md gives the exact order). No allocation. */
int game_legal_moves(const struct game *g, struct move *out);
/* 0 if m is legal now, else the reason code (nothing changes). */
int game_check_move(const struct game *g, const struct move *m);
/* Apply a legal move; refuses an illegal one with its reason code and changes nothing. */
int game_apply(struct game *g, const struct move *m);
/* R11: remove seat for a fault: its turns are skipped, its cards stay, it places last. If it was
 * to move, the next seat's turn begins; if one side remains, it wins (END_FORFEIT). Returns 0,
 * ENGINE_ESEAT (out of range or already removed) or ENGINE_EOVER. */
int game_remove_seat(struct game *g, int seat);
/* R11: remove every seat with removed[seat] set at once (faults at the start, which count as
 * simultaneous): then if one side remains it wins, and if none does the game ends with no
 * winner and no score (END_FORFEIT, a stalemate's status). Seats already removed are
 * skipped. Returns 0 or ENGINE_EOVER. */
int game_remove_seats(struct game *g, const uint8_t removed[ENGINE_MAX_PLAYERS]);

/* Fills out with what seat (0..players-1) may see (R13); about 4 KB, no allocation. */
void game_view(const struct game *g, int seat, struct seat_view *out);

/* The full event log, oldest first. The pointer is valid until the next call that changes g.
 * With rules.no_event_log it is empty (NULL, *count = 0). */
const struct event *game_events(const struct game *g, size_t *count);
/* 1 if memory ran out while logging, so the log stops short of the game (which went on). */
int game_log_truncated(const struct game *g);
/* The deck order after the shuffle, before the deal (R12): deck[0] is the top card. */
void game_initial_deck(const struct game *g, uint8_t deck[ENGINE_DECK_SIZE]);

const char *engine_strerror(int code);
const char *end_reason_name(int reason);  /* "stock_emptied", "stalemate", "turn_cap", "forfeit" */

/*
 * R12: the generator, public so that other programs can reproduce a deal
 * (README.md gives the exact algorithm). xoshiro256**; rng_seed fills its
 * state with four successive rng_splitmix64 outputs started at seed.
 */
struct rng { uint64_t s[4]; };
/* One splitmix64 step: advances *state and returns the next output. */
uint64_t rng_splitmix64(uint64_t *state);
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), unbiased by rejection; 0 when bound <= 1. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Fisher-Yates from the last index down: for i = n-1..1, swap i with rng_below(i+1). */
void rng_shuffle(struct rng *r, uint8_t *cards, size_t n);

/* R9: a match of games until a side reaches 500 points. */
struct match_state {
	struct game_rules rules; /* the rules of the next game (dealer and seed advance) */
	uint64_t seed;           /* the match seed; game k is dealt from match_game_seed(seed, k) */
	int games;
	int total[ENGINE_MAX_PLAYERS];
	int over;
	int winner;              /* seat (lowest of the team), -1 while running */
};
#define MATCH_TARGET 500
/*
 * Starts a match from the rules of its first game: rules->dealer deals game 0
 * and rules->seed is the match seed. Returns 0 or a game_rules_check code.
 */
int match_init(struct match_state *m, const struct game_rules *rules, char *reason, size_t reason_size);
/* Add a finished game's scores; moves the dealer one seat left and derives the next seed.
 * Returns 0, ENGINE_EMATCHOVER once decided, ENGINE_ERUNNING for an unfinished game. */
int match_record(struct match_state *m, const struct game_result *r);
/* The seed of game k (from 0) of a match: the first splitmix64 output started at
 * match_seed + k * 0x9e3779b97f4a7c15 (mod 2^64). */
uint64_t match_game_seed(uint64_t match_seed, int k);

#endif
