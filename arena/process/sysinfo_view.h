/*
 * sysinfo_view.h - what sysinfo(2) answers a sandboxed bot (launcher.h):
 * the kernel's answer is the whole machine's (free memory, buffers, the
 * number of processes, the load), which one bot moves and another, in
 * another sandbox alive at once, reads exactly. The sandbox's launcher
 * intercepts the call (a seccomp user notification) and answers this view
 * instead, which carries nothing of the machine or of other bots:
 * - totalram SYSINFO_VIEW_RAM (4 GiB) and freeram half of it, constants:
 *   the bot's own memory limit would do, but the launcher does not know it,
 *   and a constant carries nothing. glibc's sysconf(_SC_PHYS_PAGES) and
 *   _SC_AVPHYS_PAGES read it (1 GiB of pages and half that), and the JVM
 *   sizes its default heap from it (a quarter: 1 GiB), as on a small
 *   machine; RLIMIT_AS and the cgroup's limit, which the JVM reads as well,
 *   stay the real bounds;
 * - sharedram, bufferram, swap, high memory 0; loads 0; procs 1;
 * - uptime: whole seconds since the sandbox's launcher (or the game's pid 1
 *   of a host) started, the bot's own time;
 * - mem_unit 1.
 * Header only, without libc: the launcher includes it.
 */
#ifndef SKIPBO_SYSINFO_VIEW_H
#define SKIPBO_SYSINFO_VIEW_H

#include <linux/sysinfo.h>

#define SYSINFO_VIEW_RAM (4ul << 30)

/* The view, uptime_s seconds after the sandbox started, into *si (every byte set). */
static inline void sysinfo_view_fill(struct sysinfo *si, long uptime_s)
{
	unsigned char *p = (unsigned char *)si;

	for (unsigned long i = 0; i < sizeof *si; i++)
		p[i] = 0;
	si->uptime = uptime_s < 0 ? 0 : uptime_s;
	si->totalram = SYSINFO_VIEW_RAM;
	si->freeram = SYSINFO_VIEW_RAM / 2;
	si->procs = 1;
	si->mem_unit = 1;
}

#endif
