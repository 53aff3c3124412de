/*
 * attack_keyring - read the organiser's session keyring (the keys in it and
 * their payloads), then clear it. attack_keyring TOKEN
 */
#include <errno.h>
#include <linux/keyctl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"

static long keyctl(int op, long a, long b, long c)
{
	return syscall(SYS_keyctl, op, a, b, c, 0);
}

void attack_main(int argc, char **argv)
{
	int32_t ids[64];
	long n = keyctl(KEYCTL_READ, KEY_SPEC_SESSION_KEYRING, (long)ids, sizeof ids);
	long bytes = 0, keys = 0;
	int err = errno;

	(void)argc;
	(void)argv;
	for (long i = 0; n > 0 && i < n / 4 && i < 64; i++) {
		char payload[512];
		long got = keyctl(KEYCTL_READ, ids[i], (long)payload, sizeof payload);

		keys++;
		if (got > 0)
			bytes += got;
	}
	if (keyctl(KEYCTL_CLEAR, KEY_SPEC_SESSION_KEYRING, 0, 0) == 0 && keys)
		attack_report("keyring", true, "cleared a session keyring of %ld key(s)", keys);
	else if (bytes)
		attack_report("keyring", true, "read %ld bytes of %ld key(s)", bytes, keys);
	else
		attack_report("keyring", false, "%ld key(s) seen, no payload read (%s)", keys,
			      n < 0 ? strerror(err) : "empty keyring");
}
