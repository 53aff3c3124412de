/*
 * attack_tcp - talk to the world: connect to 127.0.0.1:PORT, where the test
 * listens (a helper, a database, another bot's server would do as well).
 * attack_tcp TOKEN PORT
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	addr.sin_port = htons((uint16_t)(argc > 2 ? atoi(argv[2]) : 0));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0)
		attack_report("tcp", true, "connected to 127.0.0.1:%d", ntohs(addr.sin_port));
	else
		attack_report("tcp", false, "127.0.0.1:%d: %s", ntohs(addr.sin_port), strerror(errno));
	if (fd >= 0)
		close(fd);
}
