/*
 * The bench's PTY relay in C (bench/nodeFloor.ts): SCRIPT runs in a PTY (sh -c), and
 * its bytes go to and from the newest client of the unix socket SOCKET; "ready" on
 * stdout once it listens. The same work as the Node PTY relay beside it, so the two
 * rows say what Node itself costs one hop between a keystroke and its echo here.
 * Built by the bench with the system's cc; argv: SOCKET SCRIPT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Bytes moved per read: a PTY hands over a few KiB at once, a keystroke one. */
#define CHUNK 65536

static int write_all(int fd, const char *b, ssize_t n) {
  while (n > 0) {
    ssize_t w = write(fd, b, (size_t)n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    b += w;
    n -= w;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ptyRelay SOCKET SCRIPT\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  struct winsize ws = {.ws_row = 24, .ws_col = 80};
  int master;
  pid_t pid = forkpty(&master, NULL, NULL, &ws);
  if (pid < 0) {
    perror("forkpty");
    return 1;
  }
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", argv[2], (char *)NULL);
    _exit(127);
  }
  int lis = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  if (strlen(argv[1]) >= sizeof a.sun_path) {
    fprintf(stderr, "socket path too long\n");
    return 1;
  }
  strcpy(a.sun_path, argv[1]);
  if (lis < 0 || bind(lis, (struct sockaddr *)&a, sizeof a) < 0 || listen(lis, 8) < 0) {
    perror("listen");
    return 1;
  }
  printf("ready\n");
  fflush(stdout);
  int client = -1;
  static char buf[CHUNK];
  for (;;) {
    struct pollfd p[3] = {{lis, POLLIN, 0}, {master, POLLIN, 0}, {client, POLLIN, 0}};
    if (poll(p, client >= 0 ? 3 : 2, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (p[0].revents & POLLIN) {
      int c = accept(lis, NULL, NULL);
      if (c >= 0) {
        if (client >= 0) close(client);
        client = c;
      }
      continue; /* the fds changed: poll again */
    }
    if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = read(master, buf, sizeof buf);
      if (n <= 0 && errno != EINTR && errno != EAGAIN) return 0; /* the program ended */
      if (n > 0 && client >= 0 && write_all(client, buf, n) < 0) {
        close(client);
        client = -1;
        continue;
      }
    }
    if (client >= 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t n = read(client, buf, sizeof buf);
      if (n <= 0) {
        close(client);
        client = -1;
      } else if (write_all(master, buf, n) < 0) {
        return 1;
      }
    }
  }
}
