/*
 * cmd_host.c - `skipbo-arena host account`: the accounts of a hosted
 * competition (accounts.h, arena/HOSTING.md). A token is printed once, on
 * stdout alone, so `... > token-file` keeps it and nothing else.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "accounts.h"
#include "commands.h"
#include "names.h"
#include "options.h"

static const char host_usage[] =
	"usage: skipbo-arena host account add [--worker] DIR NAME\n"
	"       skipbo-arena host account revoke DIR NAME\n"
	"       skipbo-arena host account list DIR\n"
	"\n"
	"The accounts of the competition hosted in DIR (arena/HOSTING.md), kept in\n"
	"DIR/accounts.jsonl (mode 0600). The server that takes submissions is not\n"
	"part of this version.\n"
	"\n"
	"  account add     make an account and print its token on stdout, once: only\n"
	"                  its SHA-256 is stored, so a lost token is replaced by a\n"
	"                  revoke and a new add\n"
	"  account revoke  refuse the account's token from now on\n"
	"  account list    the accounts: name, role, state and times (never a hash)\n"
	"\n"
	"options:\n"
	"      --worker          the account of a machine that works for the host,\n"
	"                        not of an author (account add)\n"
	"  -h, --help            this text\n"
	"\n"
	"Names are " NAMES_RULE ".\n"
	"Exit status: 0 on success, 1 when refused or on an error, 2 on bad usage.\n";

static const struct option host_options[] = {
	{ "worker", no_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	OPTIONS_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 },
};

static int account_add(const char *dir, const char *name, bool worker)
{
	enum account_role role = worker ? ACCOUNT_WORKER : ACCOUNT_AUTHOR;
	char err[1024], token[ACCOUNTS_TOKEN_LEN + 1];
	struct accounts as;

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account add: %s", err);
		return 1;
	}
	if (accounts_add(&as, name, role, token, err, sizeof(err)) < 0) {
		warnx("host account add: %s", err);
		accounts_release(&as);
		return 1;
	}
	printf("%s\n", token);
	fflush(stdout);
	explicit_bzero(token, sizeof(token));
	fprintf(stderr, "skipbo-arena: host account add: %s \"%s\" added; the token above is "
		"shown only this once: hand it to its owner, who keeps it in a file only they "
		"can read (chmod 600), never on a command line\n", account_role_name(role), name);
	accounts_release(&as);
	return 0;
}

static int account_revoke(const char *dir, const char *name)
{
	struct accounts as;
	char err[1024];
	int ret = 1;

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account revoke: %s", err);
		return 1;
	}
	if (accounts_revoke(&as, name, err, sizeof(err)) < 0)
		warnx("host account revoke: %s", err);
	else {
		printf("revoked \"%s\": its token is refused from now on\n", name);
		ret = 0;
	}
	accounts_release(&as);
	return ret;
}

static int account_list(const char *dir)
{
	struct accounts as;
	char err[1024];

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account list: %s", err);
		return 1;
	}
	if (as.n == 0)
		printf("no accounts in %s (skipbo-arena host account add %s NAME adds one)\n", dir,
		       dir);
	else
		printf("%-24s %-7s %-8s %-21s %s\n", "name", "role", "state", "added", "revoked");
	for (size_t i = 0; i < as.n; i++) {
		const struct account *a = &as.a[i];

		printf("%-24s %-7s %-8s %-21s %s\n", a->name, account_role_name(a->role),
		       a->revoked ? "revoked" : "live", a->added, a->revoked ? a->revoked : "-");
	}
	accounts_release(&as);
	return 0;
}

/* `host account VERB ...` with argv after "account". */
static int host_account(int argc, char **argv, bool worker)
{
	const char *verb = argc > 0 ? argv[0] : "";
	int want = strcmp(verb, "list") == 0 ? 2 : 3;

	if (strcmp(verb, "add") && strcmp(verb, "revoke") && strcmp(verb, "list")) {
		warnx("host account: expected add, revoke or list (see \"skipbo-arena host "
		      "--help\")");
		return 2;
	}
	if (argc != want) {
		warnx("host account %s: expected DIR%s", verb, want == 3 ? " NAME" : "");
		return 2;
	}
	if (worker && strcmp(verb, "add")) {
		warnx("host account %s: --worker is an option of \"account add\" only", verb);
		return 2;
	}
	if (strcmp(verb, "add") == 0)
		return account_add(argv[1], argv[2], worker);
	if (strcmp(verb, "revoke") == 0)
		return account_revoke(argv[1], argv[2]);
	return account_list(argv[1]);
}

int cmd_host(int argc, char **argv)
{
	bool worker = false;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", host_options, NULL)) != -1) {
		switch (c) {
		case 'w':
			worker = true;
			break;
		case 'h':
			fputs(host_usage, stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			return options_bad_usage(host_usage, host_options, argv);
		}
	}
	if (optind >= argc || strcmp(argv[optind], "account") != 0) {
		warnx("host: expected \"account\" (the server of a hosted competition is not part "
		      "of this version; see \"skipbo-arena host --help\")");
		return 2;
	}
	return host_account(argc - optind - 1, argv + optind + 1, worker);
}
