// bb_runner of one slot, started inside its confinement by
// tools/remote/confined_runner.sh: it sees the slot's build directory and
// nothing of the host's data, in network, pid and IPC namespaces of its own.
local slotDir = std.extVar('MLEBENCH_SLOT_DIR');

{
  buildDirectoryPath: slotDir + '/build',
  grpcServers: [{
    listenPaths: [slotDir + '/run/runner.sock'],
    authenticationPolicy: { allow: {} },
  }],
  // /tmp is a symbolic link to the running action's own temporary directory,
  // which the worker removes afterwards (safe: one action at a time per slot);
  // TMPDIR points there too.
  // /dev/shm and /run/lock too (the agent runner's admission ledger, Squid's
  // shared memory): nothing an action leaves there reaches the next one.
  symlinkTemporaryDirectories: ['/tmp', '/dev/shm', '/run/lock'],
  setTmpdirEnvironmentVariable: true,
  // Processes an action leaves behind are killed (the slot's pid namespace
  // holds nothing else).
  cleanProcessTable: true,
  // Actions run as an unprivileged uid of the slot (cluster.sh's
  // MLEBENCH_ACTION_UID), never as bb_runner's root: root of the slot's
  // namespace holds every capability over the mount namespace that the
  // runner and every later action of the slot share (a bind mount over
  // /usr/bin/bash or the loader, a changed /bin link in the root tmpfs,
  // files in /run and /dev), may take another uid that the process table
  // cleaner, which kills only the runner's uid, leaves running, and may
  // ptrace bb_runner or read its environment. As this uid an action writes
  // only its own build directory (mode 0777, setUmask) and temporary
  // directory, and the cleaner kills whatever it leaves behind.
  runCommandsAs: {
    userId: std.parseInt(std.extVar('MLEBENCH_ACTION_UID')),
    groupId: std.parseInt(std.extVar('MLEBENCH_ACTION_UID')),
  },
}
