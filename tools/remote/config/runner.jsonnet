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
}
