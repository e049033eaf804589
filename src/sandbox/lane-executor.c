/*
 * The lane executor (docs/security.md, "One executor per lane"): started once
 * per parallel lane by the sandbox host, through unshare --pid --mount-proc
 * --root=<view>, as PID 1 of the lane's own PID and mount namespaces. It
 * runs one check at a time, spawning each directly (no shell, no setpriv, no
 * env) with the checks' uid and gid, no capability and no_new_privs, and
 * after each check kills every other process in its namespace (kill(-1) from
 * a namespace's init reaches them all, setsid daemons included) and reaps
 * them before it reports the exit.
 *
 * A check cannot steer it: it is non-dumpable and holds capabilities the
 * check lacks (no ptrace, no /proc/1/mem), and as its namespace's init it
 * receives no signal from inside for which it has no handler (it installs
 * none: SIGCHLD is read from a signalfd).
 *
 * Unsandboxed (flag 'g'), the same program is the gate's small spawner: no
 * namespace, no privilege change; each check leads a session of its own and
 * that process group is what is killed, as the gate's own spawns do.
 *
 * argv: executor <uid> <gid> <cgroup fds> <flags>
 *   cgroup fds: how many directory fds (3, 4, …) the host passed: the run's
 *   parent cgroup(s); a check's first act is to join its group below them.
 *   flags: 'p' bind /proc/sys and /proc/sysrq-trigger read-only (checks run
 *   as root), 'n' bring up loopback (check-network: none), 'g' unsandboxed
 *   (group mode), '-' none of these.
 *
 * stdin, frames from the host: 'R' u32 len, then NUL-ended strings: cwd,
 * path, then counts and lists: groups (paths relative to the fds), argv, env.
 * 'K': kill the running check ('T': SIGTERM its group, group mode only).
 * EOF: kill everything and exit (group mode: the running check's process
 * group).
 *
 * argv: executor idmap <check uid> <check gid> <source> <target> [...]
 *   Run once by the host before it builds the view (not a lane): binds each
 *   source at its target as an idmapped mount (open_tree, mount_setattr
 *   MOUNT_ATTR_IDMAP) on which the source's owner shows as the check's uid
 *   and gid, so a check running as a dedicated uid reads and writes the
 *   root-owned working tree as its own while every other root file stays
 *   root's. Files it creates there are the owner's on disk. Exit 0, or 1
 *   with the reason on stderr.
 * stdout, frames to the host: type u8, u32 len (little endian), bytes:
 *   'Y' ready; 'F' fatal (text); 'O'/'E' the check's stdout/stderr;
 *   'S' spawn error (errno name); 'B' boundary error (text);
 *   'X' exit ("<code> <signal>", -1 for none).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The new mount API (Linux 5.12+): not every libc wraps it, so by number (the same on every arch). */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define CG_OPEN_TREE_CLONE 1
#define CG_AT_EMPTY_PATH 0x1000
#define CG_MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define CG_MOUNT_ATTR_IDMAP 0x00100000ULL
struct cg_mount_attr {
  uint64_t attr_set;
  uint64_t attr_clr;
  uint64_t propagation;
  uint64_t userns_fd;
};

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

static int group_mode;
/* Group mode: the running check's process group, 0 between checks. */
static pid_t running_group;
static uid_t check_uid;
static gid_t check_gid;
static int ncg;

static void write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      /* The host is gone: nothing left to report to, nothing left to run for. */
      if (!group_mode) kill(-1, SIGKILL);
      else if (running_group > 0) kill(-running_group, SIGKILL);
      _exit(1);
    }
    p += n;
    len -= (size_t)n;
  }
}

static void frame(char type, const void *data, uint32_t len) {
  char head[5];
  head[0] = type;
  memcpy(head + 1, &len, 4);
  write_all(1, head, 5);
  if (len > 0) write_all(1, data, len);
}

static void frame_text(char type, const char *text) { frame(type, text, (uint32_t)strlen(text)); }

static int read_full(int fd, void *buf, size_t len) {
  char *p = buf;
  while (len > 0) {
    ssize_t n = read(fd, p, len);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR) continue;
      return 0;
    }
    p += n;
    len -= (size_t)n;
  }
  return 1;
}

/*
 * Kills every process of the namespace but this one, and reaps them all:
 * kill(-1) succeeds while anything (a zombie included) is left.
 */
static void kill_all_and_reap(pid_t leader, int *leader_status, int *leader_done) {
  while (kill(-1, SIGKILL) == 0) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid == leader && !*leader_done) {
      *leader_status = status;
      *leader_done = 1;
    }
    /* Not yet ours (still dying under a dying parent): let them be reparented. */
    if (pid < 0 && errno == ECHILD) usleep(1000);
  }
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    if (pid == leader && !*leader_done) {
      *leader_status = status;
      *leader_done = 1;
    }
  }
}

static const char *errno_code(int e) {
  switch (e) {
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case ENOEXEC: return "ENOEXEC";
    case ENOTDIR: return "ENOTDIR";
    case E2BIG: return "E2BIG";
    case ENOMEM: return "ENOMEM";
    case EAGAIN: return "EAGAIN";
    case EPERM: return "EPERM";
    case ETXTBSY: return "ETXTBSY";
    default: return "EUNKNOWN";
  }
}

/* In the child: what went wrong before exec, as "<stage>\0<errno>", then exit. */
static void child_fail(int errfd, char stage, int e) {
  int code = e;
  ssize_t ignored = write(errfd, &stage, 1);
  ignored = write(errfd, &code, sizeof code);
  (void)ignored;
  _exit(127);
}

static void drop_everything(int errfd) {
  /* The bounding set first: dropping it needs CAP_SETPCAP, which the uid change takes. */
  for (int cap = 0; cap <= 63; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) child_fail(errfd, 'c', errno);
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  if (setgroups(0, NULL) != 0) child_fail(errfd, 'u', errno);
  if (setresgid(check_gid, check_gid, check_gid) != 0) child_fail(errfd, 'u', errno);
  if (setresuid(check_uid, check_uid, check_uid) != 0) child_fail(errfd, 'u', errno);
  /* From root to root no capability goes by itself: clear every set. */
  struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &head, data) != 0) child_fail(errfd, 'c', errno);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(errfd, 'c', errno);
}

struct request {
  char *buf;
  char *cwd;
  char *path;
  char **groups;
  int ngroups;
  char **argv;
  char **envp;
};

/* Splits a run frame's payload; 0 when malformed. */
static int parse_request(char *buf, uint32_t len, struct request *r) {
  char *end = buf + len;
  char *p = buf;
  char *fields[2];
  for (int i = 0; i < 2; i++) {
    char *z = memchr(p, 0, (size_t)(end - p));
    if (!z) return 0;
    fields[i] = p;
    p = z + 1;
  }
  r->cwd = fields[0];
  r->path = fields[1];
  char **lists[3];
  int counts[3];
  for (int l = 0; l < 3; l++) {
    char *z = memchr(p, 0, (size_t)(end - p));
    if (!z) return 0;
    long n = strtol(p, NULL, 10);
    if (n < 0 || n > 100000) return 0;
    p = z + 1;
    char **list = calloc((size_t)n + 1, sizeof(char *));
    if (!list) return 0;
    for (long i = 0; i < n; i++) {
      char *zz = memchr(p, 0, (size_t)(end - p));
      if (!zz) return 0;
      list[i] = p;
      p = zz + 1;
    }
    lists[l] = list;
    counts[l] = (int)n;
  }
  r->groups = lists[0];
  r->ngroups = counts[0];
  r->argv = lists[1];
  r->envp = lists[2];
  return counts[1] > 0 && r->ngroups == ncg;
}

static void free_request(struct request *r) {
  free(r->groups);
  free(r->argv);
  free(r->envp);
  free(r->buf);
}

static int sigfd;
static sigset_t child_mask;

/* One check, from fork to the exit frame. Returns 0 when the host is gone. */
static int run_check(struct request *r) {
  int out[2], err[2], ctl[2];
  if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(ctl, O_CLOEXEC)) {
    frame_text('B', "cannot create the check's pipes");
    return 1;
  }
  pid_t leader = fork();
  if (leader < 0) {
    close(out[0]); close(out[1]); close(err[0]); close(err[1]); close(ctl[0]); close(ctl[1]);
    frame_text('B', "cannot fork the check");
    return 1;
  }
  if (leader == 0) {
    /* A session and group of its own: its kill 0 reaches only itself. */
    setsid();
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
      child_fail(ctl[1], 'p', errno);
    /* Into its groups before anything runs: nothing it starts is outside the caps. */
    for (int i = 0; i < r->ngroups; i++) {
      int fd = openat(3 + i, r->groups[i], O_WRONLY | O_CLOEXEC);
      if (fd < 0 || write(fd, "0", 1) != 1) child_fail(ctl[1], 'g', errno);
      close(fd);
    }
    if (chdir(r->cwd) != 0) child_fail(ctl[1], 'd', errno);
    if (!group_mode) drop_everything(ctl[1]);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    execve(r->path, r->argv, r->envp);
    child_fail(ctl[1], 'x', errno);
  }
  running_group = leader;
  close(out[1]);
  close(err[1]);
  close(ctl[1]);
  char stage = 0;
  int code = 0;
  ssize_t got;
  do got = read(ctl[0], &stage, 1); while (got < 0 && errno == EINTR);
  if (got == 1) read_full(ctl[0], &code, sizeof code);
  close(ctl[0]);

  int status = 0, done = 0, alive = 1;
  int fds_open[2] = {1, 1};
  int host_gone = 0;
  struct timespec drain_from = {0, 0};
  char buf[65536];
  while (fds_open[0] || fds_open[1] || alive) {
    struct pollfd p[4] = {
        {fds_open[0] ? out[0] : -1, POLLIN, 0},
        {fds_open[1] ? err[0] : -1, POLLIN, 0},
        {sigfd, POLLIN, 0},
        {host_gone ? -1 : 0, POLLIN, 0},
    };
    int timeout = -1;
    if (!alive) {
      /* Everyone is dead: a pipe still open is held outside the lane (passed over a socket). */
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      long waited = (now.tv_sec - drain_from.tv_sec) * 1000 + (now.tv_nsec - drain_from.tv_nsec) / 1000000;
      if (waited >= 1000) break;
      timeout = (int)(1000 - waited);
    }
    int n = poll(p, 4, timeout);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) break;
    for (int i = 0; i < 2; i++) {
      if (!fds_open[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(i == 0 ? out[0] : err[0], buf, sizeof buf);
      if (k > 0) frame(i == 0 ? 'O' : 'E', buf, (uint32_t)k);
      else if (k == 0 || errno != EINTR) fds_open[i] = 0;
    }
    if (p[2].revents & POLLIN) {
      struct signalfd_siginfo si;
      while (read(sigfd, &si, sizeof si) == sizeof si) {}
      int st;
      pid_t pid;
      while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        if (pid == leader) {
          status = st;
          done = 1;
        }
      }
    }
    if (p[3].revents & (POLLIN | POLLHUP | POLLERR)) {
      /* Only 'K' comes while a check runs (the host sends one request per lane at a time). */
      char head[5];
      if (!read_full(0, head, 5) || (head[0] != 'K' && head[0] != 'T')) host_gone = 1;
      /* Unsandboxed, the gate is gone (even SIGKILLed): its running check's group goes too. */
      if (host_gone && group_mode) {
        if (alive) kill(-leader, SIGKILL);
        return 0;
      }
      if (!group_mode) kill(-1, SIGKILL);
      else if (!host_gone && alive) kill(-leader, head[0] == 'T' ? SIGTERM : SIGKILL);
    }
    if (alive && done) {
      /* The check ended with its leader: nothing it started outlives it. */
      if (group_mode) kill(-leader, SIGKILL); /* what it left in its group */
      else kill_all_and_reap(leader, &status, &done);
      alive = 0;
      running_group = 0;
      clock_gettime(CLOCK_MONOTONIC, &drain_from);
    }
  }
  close(out[0]);
  close(err[0]);
  if (host_gone) return 0;
  if (stage != 0) {
    if (stage == 'x') {
      frame_text('S', errno_code(code));
    } else {
      char msg[200];
      const char *what = stage == 'g'   ? "cannot join the check's cgroup"
                         : stage == 'd' ? "cannot enter the working directory"
                         : stage == 'u' ? "cannot change to the check's user"
                         : stage == 'c' ? "cannot drop the check's privileges"
                                        : "cannot set up the check's stdio";
      snprintf(msg, sizeof msg, "%s: %s", what, strerror(code));
      frame_text('B', msg);
    }
    return 1;
  }
  char exit_text[40];
  if (WIFEXITED(status)) snprintf(exit_text, sizeof exit_text, "%d -1", WEXITSTATUS(status));
  else snprintf(exit_text, sizeof exit_text, "-1 %d", WIFSIGNALED(status) ? WTERMSIG(status) : 9);
  frame_text('X', exit_text);
  return 1;
}

static void fatal(const char *what) {
  char msg[300];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
  frame_text('F', msg);
  _exit(1);
}

static void read_only(const char *path, int optional) {
  if (optional && access(path, F_OK) != 0) return;
  if (mount(path, path, NULL, MS_BIND, NULL) != 0 ||
      mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
    char what[120];
    snprintf(what, sizeof what, "cannot protect %s", path);
    fatal(what);
  }
}

static int idmap_fail(const char *what, const char *path) {
  fprintf(stderr, "%s %s: %s\n", what, path, strerror(errno));
  return 1;
}

/* A user namespace whose only mapping is owner -> check (uid and gid), as an fd; -1 on error. */
static int owner_userns(uid_t owner, gid_t gowner) {
  int up[2], go[2];
  if (pipe2(up, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) return -1;
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    /*
     * It only has to exist while the parent maps it and opens it. It says
     * which pid it has in the /proc the host sees (the host is PID 1 of a
     * namespace below that /proc's: fork's pid would name someone else).
     */
    close(up[0]);
    close(go[1]);
    char self[32] = {0};
    if (unshare(CLONE_NEWUSER) != 0 || readlink("/proc/self", self, sizeof self - 1) <= 0) _exit(1);
    ssize_t ignored = write(up[1], self, strlen(self));
    close(up[1]);
    char c;
    ignored = read(go[0], &c, 1);
    (void)ignored;
    _exit(0);
  }
  close(up[1]);
  close(go[0]);
  char pid[32] = {0};
  ssize_t got = read(up[0], pid, sizeof pid - 1);
  close(up[0]);
  int ns = -1;
  int ok = got > 0 && strspn(pid, "0123456789") == (size_t)got;
  if (!ok) errno = ESRCH;
  char path[80], map[64];
  const char *files[2] = {"uid_map", "gid_map"};
  unsigned long from[2] = {owner, gowner}, to[2] = {check_uid, check_gid};
  for (int i = 0; i < 2 && ok; i++) {
    snprintf(path, sizeof path, "/proc/%s/%s", pid, files[i]);
    int n = snprintf(map, sizeof map, "%lu %lu 1\n", from[i], to[i]);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, map, (size_t)n) != n) ok = 0;
    if (fd >= 0) close(fd);
  }
  if (ok) {
    snprintf(path, sizeof path, "/proc/%s/ns/user", pid);
    ns = open(path, O_RDONLY | O_CLOEXEC);
  }
  int e = errno;
  close(go[1]);
  waitpid(child, NULL, 0);
  errno = e;
  return ns;
}

static int idmap_main(int argc, char **argv) {
  if (argc < 6 || (argc - 4) % 2 != 0) {
    fprintf(stderr, "usage: executor idmap <uid> <gid> <source> <target> [...]\n");
    return 1;
  }
  check_uid = (uid_t)strtoul(argv[2], NULL, 10);
  check_gid = (gid_t)strtoul(argv[3], NULL, 10);
  for (int i = 4; i + 1 < argc; i += 2) {
    const char *source = argv[i], *target = argv[i + 1];
    /* Not recursive: as a plain bind, nothing mounted below the source comes along. */
    int tree = (int)syscall(SYS_open_tree, AT_FDCWD, source, CG_OPEN_TREE_CLONE | O_CLOEXEC);
    if (tree < 0) return idmap_fail("cannot clone", source);
    struct stat st;
    if (fstat(tree, &st) != 0) return idmap_fail("cannot stat", source);
    int ns = owner_userns(st.st_uid, st.st_gid);
    if (ns < 0) return idmap_fail("cannot make a user namespace for", source);
    struct cg_mount_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.attr_set = CG_MOUNT_ATTR_IDMAP;
    attr.userns_fd = (uint64_t)ns;
    if (syscall(SYS_mount_setattr, tree, "", CG_AT_EMPTY_PATH, &attr, sizeof attr) != 0)
      return idmap_fail("cannot idmap", source);
    if (syscall(SYS_move_mount, tree, "", AT_FDCWD, target, CG_MOVE_MOUNT_F_EMPTY_PATH) != 0)
      return idmap_fail("cannot mount the idmapped tree at", target);
    close(ns);
    close(tree);
  }
  return 0;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (argc >= 2 && strcmp(argv[1], "idmap") == 0) return idmap_main(argc, argv);
  if (argc != 5) {
    frame_text('F', "usage: executor <uid> <gid> <cgroup fds> <flags>");
    return 1;
  }
  check_uid = (uid_t)strtoul(argv[1], NULL, 10);
  check_gid = (gid_t)strtoul(argv[2], NULL, 10);
  ncg = atoi(argv[3]);
  const char *flags = argv[4];
  group_mode = strchr(flags, 'g') != NULL;
  if (!group_mode && getpid() != 1) {
    frame_text('F', "the executor must be PID 1 of its namespace");
    return 1;
  }
  /* Only the cgroup fds stay open, and no check inherits them. */
  for (int fd = 3; fd < 3 + ncg; fd++) {
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) fatal("missing a cgroup directory fd");
  }
  for (int fd = 3 + ncg; fd < 256; fd++) close(fd);
  /* A check running as root owns a fresh /proc's sysctls (kernel.core_pattern runs as root). */
  if (strchr(flags, 'p')) {
    read_only("/proc/sys", 0);
    read_only("/proc/sysrq-trigger", 1);
  }
  if (strchr(flags, 'n')) {
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) != 0) fatal("cannot read the loopback interface");
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0) fatal("cannot bring up the loopback interface");
    close(s);
  }
  /* Not steerable: no ptrace and no /proc/1/mem for anyone without CAP_SYS_PTRACE. */
  if (!group_mode && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    fatal("cannot make the executor non-dumpable");
  if (!group_mode && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fatal("cannot set no_new_privs");
  sigemptyset(&child_mask);
  sigaddset(&child_mask, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child_mask, NULL);
  sigfd = signalfd(-1, &child_mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sigfd < 0) fatal("cannot watch for child exits");
  frame('Y', NULL, 0);
  for (;;) {
    char head[5];
    if (!read_full(0, head, 5)) break;
    uint32_t len;
    memcpy(&len, head + 1, 4);
    if (head[0] == 'K' || head[0] == 'T') continue; /* no check running: nothing to kill */
    if (head[0] != 'R' || len > (64u << 20)) {
      frame_text('F', "malformed request");
      break;
    }
    struct request r;
    memset(&r, 0, sizeof r);
    r.buf = malloc(len + 1);
    if (!r.buf || !read_full(0, r.buf, len)) break;
    r.buf[len] = 0;
    if (!parse_request(r.buf, len, &r)) {
      free_request(&r);
      frame_text('F', "malformed request");
      break;
    }
    int host_here = run_check(&r);
    free_request(&r);
    if (!host_here) break;
  }
  int st = 0, d = 0;
  if (!group_mode) kill_all_and_reap(-1, &st, &d);
  return 0;
}
