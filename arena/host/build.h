/*
 * build.h - a submission's build: the manifest's shell line run by /bin/sh
 * in the sandbox (sandbox.h) with the submission's tree as its writable
 * working directory (arena/HOSTING.md, "The pipeline").
 *
 * The build sees the system's directories read-only, its tree writable, a
 * private /tmp, and the toolchain's files below (read-only); no network (a
 * network namespace of its own), no other submission. Its limits
 * (host_config.h): build_seconds of wall time (then it is killed),
 * build_cpu_seconds of CPU (RLIMIT_CPU), build_memory_mb (RLIMIT_AS, and
 * the sandbox's cgroup where there is one), build_processes (RLIMIT_NPROC
 * in the sandbox's user namespace, and the cgroup), and build_disk_mb for
 * the tree: each file by RLIMIT_FSIZE, the whole tree measured every 250 ms
 * and the build killed past it. Its stdout and stderr go, merged, to the
 * log, which holds at most BUILD_LOG_MAX bytes with its first line (the
 * build's line), a line saying where it was cut, and the reason of a
 * failure as its last line.
 *
 * When the host runs as root the sandbox runs as a uid of its own: the
 * tree's directories are opened to it (mode 0777) for the build only, then
 * closed again (0755) and everything in the tree given back to the host's
 * uid, so no later sandbox can change what was built.
 */
#ifndef SKIPBO_HOST_BUILD_H
#define SKIPBO_HOST_BUILD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bot.h"
#include "host_config.h"
#include "sandbox.h"
#include "strlist.h"

#define BUILD_LOG_MAX (1024 * 1024)
/* The PATH of builds and checks: system directories only, which every sandbox sees. */
#define BUILD_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * What every build gets besides the system: the environment (PATH, the Go,
 * Cargo and Java settings that keep them offline and inside the limits,
 * and CFLAGS and LDLIBS for the C kit) and the files of the project's
 * protocol and engine libraries, shown read-only.
 */
struct build_toolchain {
	struct strlist env;     /* "KEY=VALUE" */
	struct strlist visible; /* absolute paths */
	char note[512];         /* "" or why the C kit cannot build here */
};

/*
 * Find the C libraries for the program arena (skipbo-arena): installed
 * (`pkg-config skipbo`), else the build tree that holds arena
 * (build/protocol, build/engine and the source's headers, found through
 * build/CMakeCache.txt). Without either, note says so and C builds fail at
 * the compiler. 0, or -ENOMEM.
 */
int build_toolchain_find(const char *arena, struct build_toolchain *tc);
void build_toolchain_release(struct build_toolchain *tc);

/*
 * Run line in tree (absolute, canonical) as above, its output into log.
 * 0 when it exited with status 0. -EINTR when *stop became true (it was
 * killed). Otherwise a negative code with why, a sentence for the author:
 * "the build ran past 300 s (build_seconds in host.jsonc)", "the build
 * exited with status 2: see build.log", ...
 */
/*
 * Start spec's program as a build runs: its cwd (a submission's tree,
 * absolute, canonical) opened to the sandbox's uid (as root) and bound
 * writable, in a sandbox of mode (SANDBOX_ON, or SANDBOX_AUTO: unsandboxed
 * where none can be made; never sealed, as it runs alone), at the lowest
 * priority (bot_spec.idle). Sets spec->sandbox, cwd_writable and idle. 0
 * with *b running, or a negative code with why. Either way
 * build_sandbox_end() must follow.
 */
int build_sandbox_start(struct bot_spec *spec, enum sandbox_mode mode, struct sandbox **sb,
			struct bot **b, char *why, size_t why_size);

/* Kill b (NULL is fine), close sb and give the tree back to the host (as root): 0, or
 * the negative code of a tree it could not take back. */
int build_sandbox_end(const char *tree, struct bot *b, struct sandbox *sb);

/*
 * The clock of build_seconds. A build runs at SCHED_IDLE: it gets a CPU only
 * when one is idle, so on a machine kept busy it would fail its wall-time
 * limit having never run. This clock counts only the moments in which the
 * machine had at least 2% of its CPUs idle (/proc/stat), so a build that
 * sleeps or spins for ever still meets the limit, and one the games keep
 * from running is not blamed for it. build_clock_over() also holds once the
 * wall time passes BUILD_CLOCK_WALL_TIMES times the limit, so no build holds
 * its place for ever.
 */
#define BUILD_CLOCK_WALL_TIMES 10
struct build_clock {
	int64_t start_us, last_us, counted_us;
	unsigned long long idle, total;
};
void build_clock_start(struct build_clock *bc);
/* Whether limit_s seconds have been counted (or ten times it in wall time). */
bool build_clock_over(struct build_clock *bc, int limit_s);

/*
 * The floor of a build at SCHED_IDLE. On a machine kept busy by work other
 * than the league's games a SCHED_IDLE build may get no CPU for minutes.
 * The build is watched in spells of BUILD_FLOOR_SPELL_S seconds; when one
 * ends with the build's process tree having had less than 1% of the wall
 * time in CPU while the machine had less than 2% of its CPU time idle (the
 * measure of build_clock), the build was starved and not merely asleep: its
 * every process moves to SCHED_OTHER at nice BUILD_FLOOR_NICE for the rest
 * of the build (proc_tree_leave_idle). Games that keep the machine busy
 * leave it idle between their moves, so a build beside them alone is not
 * moved. Nice 19 and not the host's priority: a nice-19 task still gets
 * some 1.5% of a CPU that a nice-0 task wants (arena/HOSTING.md, "Builds
 * beside the games").
 */
#define BUILD_FLOOR_SPELL_S 60
#define BUILD_FLOOR_NICE 19
enum build_floor_verdict { BUILD_FLOOR_KEEP, BUILD_FLOOR_RAISE };

/*
 * The rule alone, for one spell: its wall time, the build's CPU time in it
 * (µs), the machine's idle and total CPU time in it (/proc/stat's units;
 * total 0 when unknown). BUILD_FLOOR_RAISE only for a spell of at least
 * BUILD_FLOOR_SPELL_S in which the build had less than 1% of the wall time
 * and the machine less than 2% idle.
 */
enum build_floor_verdict build_floor_judge(int64_t wall_us, int64_t cpu_us,
					   unsigned long long idle, unsigned long long total);

struct build_floor {
	pid_t root;
	int64_t start_us, cpu_us;
	unsigned long long idle, total;
	bool done; /* moved, or could not be: never tried again */
};
/* Start watching the tree of root (bot_pid() of the build). */
void build_floor_start(struct build_floor *bf, pid_t root);
/*
 * Called while the build runs: at the end of each spell, judge it, and on
 * BUILD_FLOOR_RAISE move the tree. 1 when it moved the tree now, a negative
 * code when it could not (-EPERM: the host is neither root nor allowed by
 * its RLIMIT_NICE), 0 otherwise; with a sentence for the build's log in
 * note when not 0.
 */
int build_floor_check(struct build_floor *bf, char *note, size_t note_size);

int build_run(const char *tree, const char *line, const char *log,
	      const struct host_config *config, const struct build_toolchain *tc,
	      const atomic_bool *stop, char *why, size_t why_size);

#endif
