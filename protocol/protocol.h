/*
 * protocol.h - the bot protocol v1 (PROTOCOL.md) in C, for both ends of the pipe.
 *
 * Arena side: protocol_encode_*() turn engine data into one message line;
 * protocol_decode_hello() and protocol_decode_move() read a bot's answer and
 * say precisely what is wrong with it.
 * Bot side: protocol_parse_message() turns any arena line into plain C
 * structs; protocol_format_hello() and protocol_format_move() write the
 * answers. A C bot needs no JSON code of its own.
 *
 * Lines: every encoder and formatter replaces the contents of a caller-owned
 * struct protocol_buf with exactly one message, WITHOUT the trailing '\n'
 * (bot_write_line() and protocol_write_line() add it), NUL-terminated, len
 * excluding the NUL. Every decoder and parser takes a line without its '\n'
 * as (pointer, length) with line[len] == '\0', as bot_read_line() and
 * protocol_read_line() deliver it; a NUL byte inside the line is malformed.
 *
 * Strictness: both sides read lines with json_strict_parse() (json_strict.h):
 * RFC 8259 only, no key twice in any object, and integer fields must be
 * written as integers in their range (7, not 7.0 or 7e0); see PROTOCOL.md
 * section 1. The bot side reads a request in the exact form the arena writes
 * without a JSON tree, to the same result (protocol_fastparse.h).
 *
 * Errors: functions return 0 or a negative PROTOCOL_E* code. Decoders also
 * fill an optional struct protocol_diag with a sentence for a bot author. A
 * function that fails leaves its output struct unspecified (but still safe to
 * release) and its buffer empty.
 *
 * Threads: no static mutable state; any number of threads may use the library
 * at once on different objects. cJSON is used only through its reentrant
 * calls (never cJSON_GetErrorPtr()).
 */
#ifndef SKIPBO_PROTOCOL_H
#define SKIPBO_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

#define PROTOCOL_VERSION 1

/* Longest line a bot may send, newline excluded (== BOT_LINE_MAX in arena/process/bot.h). */
#define PROTOCOL_LINE_MAX (64 * 1024)
/* Longest line the arena sends, newline excluded. Encoders refuse to go past
 * it with PROTOCOL_ETOOLONG; real requests are a few KiB. */
#define PROTOCOL_ARENA_LINE_MAX (1024 * 1024)

/* Sizes of the fixed string fields below, NUL included. */
#define PROTOCOL_NAME_MAX 64   /* bot names, versions, authors, arena name */
#define PROTOCOL_ID_MAX 64     /* game ids */
#define PROTOCOL_KIND_MAX 16   /* fault kinds: "timeout", "illegal", ... */
#define PROTOCOL_REASON_MAX 256
#define PROTOCOL_MESSAGE_MAX 320

/* Error codes (negative). */
enum protocol_errcode {
	PROTOCOL_OK = 0,
	PROTOCOL_ENOMEM = -1,
	PROTOCOL_EINVAL = -2,     /* bad argument to an encoder (seat out of range, invalid UTF-8 in a name, ...) */
	PROTOCOL_EEOF = -3,       /* protocol_read_line(): end of input */
	PROTOCOL_EIO = -4,        /* protocol_read_line()/protocol_write_line(): stream error */
	/* a bot's line is broken: fault kind "malformed" */
	PROTOCOL_ENOTJSON = -10,  /* not JSON; diag.offset = where parsing stopped */
	PROTOCOL_ENOTOBJECT = -11,/* JSON, but not an object */
	PROTOCOL_ETRAILING = -12, /* a JSON object followed by more than whitespace; diag.offset = where */
	PROTOCOL_ETOOLONG = -13,  /* longer than PROTOCOL_LINE_MAX */
	PROTOCOL_EUTF8 = -14,     /* invalid UTF-8; diag.offset = the first bad byte */
	PROTOCOL_EDUPKEY = -15,   /* an object holds a key twice (any depth); diag.offset = the second */
	/* a well-formed object that breaks the protocol: fault kind "protocol" */
	PROTOCOL_ETYPE = -20,     /* "type" missing, not a string, or not the expected message */
	PROTOCOL_EMISSING = -21,  /* a required field is missing (named in the message) */
	PROTOCOL_EFIELD = -22,    /* a field has the wrong JSON type or is out of range (named) */
	PROTOCOL_EVALUE = -23,    /* a string field has an unknown value (the valid ones are listed) */
	PROTOCOL_EVERSION = -24,  /* the bot speaks another protocol version */
	/* a well-formed move that is not legal now: fault kind "illegal" */
	PROTOCOL_EILLEGAL = -30,
};

/* Names a code: "not JSON", "missing field", ... Never NULL. */
const char *protocol_strerror(int code);

/*
 * The R11 fault kinds (PROTOCOL.md section 8, "Faults"), in one list that
 * makes both the enum and its name table: a new kind is added here, and the
 * compiler names every switch on a kind that does not handle it (they have
 * no default case).
 */
#define PROTOCOL_FAULT_KIND_LIST(X) \
	X(TIMEOUT, "timeout") X(EXIT, "exit") X(CLOSED, "closed") X(MALFORMED, "malformed") \
	X(PROTOCOL, "protocol") X(ILLEGAL, "illegal") X(START, "start")
#define PROTOCOL_FAULT_KIND_ENUM_(id, name) PROTOCOL_FAULT_##id,
enum protocol_fault_kind {
	PROTOCOL_FAULT_KIND_LIST(PROTOCOL_FAULT_KIND_ENUM_)
	PROTOCOL_FAULT_KINDS
};

/* "timeout", "exit", ... indexed by enum protocol_fault_kind. */
extern const char *const protocol_fault_kind_names[PROTOCOL_FAULT_KINDS];

/* The kind called name, or -1 when name is none of them. */
int protocol_fault_kind_from_name(const char *name);

/*
 * The fault kind a decode error stands for: PROTOCOL_FAULT_MALFORMED,
 * PROTOCOL_FAULT_PROTOCOL or PROTOCOL_FAULT_ILLEGAL; -1 for codes that are
 * not a bot's fault (ENOMEM, EINVAL, EEOF, EIO, OK).
 */
int protocol_fault_kind_of(int code);

/* The name of protocol_fault_kind_of(code), NULL when it is -1. */
const char *protocol_fault_kind(int code);

/* What was wrong with a bot's line. */
struct protocol_diag {
	int code;       /* the code the decoder returned */
	size_t offset;  /* byte offset in the line (ENOTJSON, ETRAILING, EUTF8, EDUPKEY), else 0 */
	char message[PROTOCOL_MESSAGE_MAX]; /* one sentence for the bot's author, no newline */
};

/* ---- the line buffer ---------------------------------------------------- */

struct protocol_buf {
	char *data; /* NUL-terminated once anything was written; NULL before */
	size_t len; /* bytes, the NUL excluded */
	size_t cap;
};

void protocol_buf_init(struct protocol_buf *b);
/* Frees the memory; b may be initialised again. */
void protocol_buf_release(struct protocol_buf *b);

/* ---- messages shared by both sides -------------------------------------- */

/* game_start (PROTOCOL.md "game_start"). Teams follow from players and
 * partnership (R2): without partnership every seat is its own team. */
struct protocol_game_start {
	char game[PROTOCOL_ID_MAX];
	int seat;
	int players;
	char names[ENGINE_MAX_PLAYERS][PROTOCOL_NAME_MAX];
	int partnership;                /* 0 or 1 */
	int partner;                    /* -1 without partnership */
	int team[ENGINE_MAX_PLAYERS];   /* team index of each seat (0-based) */
	int teams;                      /* number of teams */
	int stock_size;                 /* the resolved R3 stock size */
	int move_ms, game_ms;           /* 0, 0: no time limits (debug mode) */
};

/* A fault as game_end reports it (R11). */
struct protocol_fault {
	int seat;
	char kind[PROTOCOL_KIND_MAX];     /* "timeout", "exit", "closed", "malformed", "protocol", "illegal", "start" */
	char reason[PROTOCOL_REASON_MAX]; /* the sentence reports show */
};

/* game_end (PROTOCOL.md "game_end"). result.status, reason, winner, winners,
 * placing, stock_left, score, turns and moves are used (both ways). */
struct protocol_game_end {
	char game[PROTOCOL_ID_MAX];
	int players;
	struct game_result result;
	int n_faults;
	struct protocol_fault faults[ENGINE_MAX_PLAYERS];
};

/* ---- arena side: encoding ----------------------------------------------- */

/* {"type":"hello","protocol":1,"arena":...}. arena: UTF-8, < PROTOCOL_NAME_MAX bytes. */
int protocol_encode_hello(struct protocol_buf *b, const char *arena);

/* From the struct; partner, team and teams are derived from seat, players and
 * partnership (R2; those fields of gs are not read). names[s] for s < players
 * must be UTF-8: a name cut inside a character is refused (EINVAL). */
int protocol_encode_game_start(struct protocol_buf *b, const struct protocol_game_start *gs);

/* Everything one request carries. All pointers are borrowed for the call. */
struct protocol_request_args {
	const char *game;
	uint32_t turn;               /* the current turn number (view->turn) */
	uint32_t move;               /* this decision's number in the game, from 1 (game_result.moves + 1) */
	int64_t move_ms, bank_ms;    /* what the bot has for this move and what is left of its bank; 0, 0 = no limits */
	const struct seat_view *view;/* game_view() for the requested seat */
	/*
	 * The raw engine events (game_events()) since this seat's previous request
	 * in this game, oldest first; for the first request, since the start.
	 * The encoder redacts each with event_for_seat(ev, view->seat) itself,
	 * merges consecutive draws by one seat into one "draw" event, and leaves
	 * out EVENT_END. May be NULL when n_events is 0.
	 */
	const struct event *events;
	size_t n_events;
	/* fault[s]: the fault kind that removed seat s, for "removed" events;
	 * NULL (or the whole array NULL) writes "unknown". */
	const char *const *fault;
	const struct move *legal;    /* game_legal_moves() */
	int n_legal;
	/* 1: the compact form (PROTOCOL.md "Compact requests") for a bot whose
	 * hello asked for it: moves as arrays, and the discards, when legal[]
	 * ends with exactly those of every hand card on each of the seat's
	 * piles (R4), left out with "discard_any":true. Discards that are
	 * anything else (never from game_legal_moves()) are refused (EINVAL). */
	int compact;
};

int protocol_encode_request(struct protocol_buf *b, const struct protocol_request_args *req);

/* From the struct. n_faults entries of faults (seat, kind, reason, all UTF-8)
 * are written; winners come from result.winners. */
int protocol_encode_game_end(struct protocol_buf *b, const struct protocol_game_end *ge);

/* {"type":"quit"} */
int protocol_encode_quit(struct protocol_buf *b);

/* ---- arena side: decoding the bot's answers ----------------------------- */

/* Features a bot may ask for in its hello ("features", PROTOCOL.md "hello"). */
#define PROTOCOL_FEATURE_COMPACT_LEGAL 1u /* "compact_legal": compact requests */

struct protocol_bot_hello {
	int protocol;
	unsigned features;               /* PROTOCOL_FEATURE_* it asked for */
	char name[PROTOCOL_NAME_MAX];
	char version[PROTOCOL_NAME_MAX]; /* "" when absent */
	char author[PROTOCOL_NAME_MAX];  /* "" when absent */
};

/*
 * The bot's hello. "protocol" must be PROTOCOL_VERSION (else EVERSION) and
 * "name" a non-empty string; "version" and "author" are optional strings.
 * Strings longer than PROTOCOL_NAME_MAX - 1 bytes are refused (EFIELD).
 * "features", if present, must be an array of strings: the known ones set
 * their bit in features, unknown ones are ignored.
 */
int protocol_decode_hello(const char *line, size_t len, struct protocol_bot_hello *out,
			  struct protocol_diag *diag);

/*
 * The bot's answer to a request: {"type":"move","move":{...}}. The move must
 * be one of legal[0..n_legal-1]; on success *out is a copy of that element (so
 * an answer without the optional "card" gets it filled in). When the move is
 * well-formed but not in the list, the code is PROTOCOL_EILLEGAL and the
 * message says why: with g (the game, to move, may be NULL) the reason from
 * game_check_move(), otherwise "not among the N legal moves".
 */
int protocol_decode_move(const char *line, size_t len, const struct move *legal, int n_legal,
			 const struct game *g, struct move *out, struct protocol_diag *diag);

/* ---- bot side ------------------------------------------------------------ */

enum protocol_msg_type {
	PROTOCOL_MSG_UNKNOWN = 0, /* a type this library does not know: ignore it */
	PROTOCOL_MSG_HELLO,
	PROTOCOL_MSG_GAME_START,
	PROTOCOL_MSG_REQUEST,
	PROTOCOL_MSG_GAME_END,
	PROTOCOL_MSG_QUIT,
};

struct protocol_arena_hello {
	int protocol;
	char arena[PROTOCOL_NAME_MAX];
};

struct protocol_request {
	char game[PROTOCOL_ID_MAX];
	uint32_t turn, move;
	int64_t move_ms, bank_ms;  /* 0, 0: no limits */
	/* The seat's view (R13), as game_view() would give it: turn, players,
	 * partnership and partner are filled in too, others_hand_size holds every
	 * seat's hand size (own included), discard piles bottom first. */
	struct seat_view view;
	/* Events since this bot's previous request, redacted as event_for_seat()
	 * does: a merged "draw" comes back as one EVENT_DRAW per card (card
	 * CARD_NONE when hidden). Events of types this library does not know are
	 * skipped. Owned by the enclosing struct protocol_message. */
	struct event *events;
	size_t n_events;
	/* fault[s]: the kind from a "removed" event for seat s, else "". */
	char fault[ENGINE_MAX_PLAYERS][PROTOCOL_KIND_MAX];
	/* The legal moves as game_legal_moves() gives them; owner is the bot's
	 * own seat for hand plays, discards and a pass. */
	int n_legal;
	struct move legal[ENGINE_MAX_MOVES];
	int compact;               /* the arena sent the compact form (same legal[] as the ordinary one) */
};

/* One parsed arena message: type says which member is filled. */
struct protocol_message {
	int type;                     /* enum protocol_msg_type */
	char type_name[32];           /* the "type" string as sent (truncated), also for unknown types */
	struct protocol_arena_hello hello;
	struct protocol_game_start game_start;
	struct protocol_request request;
	struct protocol_game_end game_end;
	size_t events_cap;            /* internal: capacity of request.events */
	struct json_pool *pool;       /* internal: the memory of the line's JSON tree */
};

void protocol_message_init(struct protocol_message *m);
/* Frees request.events and the parser's memory; m may be initialised again. */
void protocol_message_release(struct protocol_message *m);

/*
 * Parse one arena line (up to PROTOCOL_ARENA_LINE_MAX bytes) into m, reusing
 * its memory. An object with an unknown "type" returns 0 with type
 * PROTOCOL_MSG_UNKNOWN; unknown fields and event types are ignored. Names and
 * fault strings longer than their fields are cut at a character boundary; a
 * game id that does not fit is an error. Errors are the decode codes above,
 * with diag as for the arena side, and leave m->type PROTOCOL_MSG_UNKNOWN.
 */
int protocol_parse_message(struct protocol_message *m, const char *line, size_t len,
			   struct protocol_diag *diag);

/* {"type":"hello","protocol":1,"name":...,"version":...,"author":...}.
 * name is required; version and author may be NULL (left out). */
int protocol_format_hello(struct protocol_buf *b, const char *name, const char *version,
			  const char *author);
/* The same, asking for the PROTOCOL_FEATURE_* bits in features ("features":[...],
 * left out when 0). protocol_parse_message() reads either form of request. */
int protocol_format_hello_features(struct protocol_buf *b, const char *name, const char *version,
				   const char *author, unsigned features);

/* {"type":"move","move":{...}} for m in the move encoding (card always written). */
int protocol_format_move(struct protocol_buf *b, const struct move *m);

/*
 * Line I/O for bots on stdio. protocol_read_line() reads one line into b
 * without its '\n' (a final line without '\n' counts); PROTOCOL_EEOF at the
 * end of input, PROTOCOL_EIO on a read error. protocol_write_line() writes
 * b->data, '\n', and flushes; PROTOCOL_EIO on error (e.g. the arena is gone).
 */
int protocol_read_line(FILE *in, struct protocol_buf *b);
int protocol_write_line(FILE *out, const struct protocol_buf *b);

#endif
