// bb_worker of one pool: fetches an action's inputs from the CAS into a build
// directory, has a runner execute it, uploads the outputs. One build
// directory per slot, each with its own runner (tools/remote/confined_runner.sh)
// that runs one action at a time and sees only its own build directory: no
// action can read another's inputs (a grade action's answers, say).
local common = import 'common.libsonnet';
local pool = std.extVar('MLEBENCH_POOL');
local slots = std.parseInt(std.extVar('MLEBENCH_POOL_SLOTS'));
local poolDir = common.dir + '/pools/' + pool;

{
  blobstore: {
    contentAddressableStorage: { grpc: { address: common.storage } },
    actionCache: { grpc: { address: common.storage } },
  },
  browserUrl: 'http://' + common.schedulerAdmin,
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  scheduler: { address: common.schedulerWorkers },
  global: common.global('worker-' + pool) + {
    // The runners run as unprivileged uids of their own (confined_runner.sh):
    // the directories the worker makes for an action (its input root, output
    // parents, stdout) must be theirs to write. Files keep their read-only modes.
    setUmask: { umask: 0 },
  },
  buildDirectories: [
    {
      native: {
        buildDirectoryPath: poolDir + '/slot-' + slot + '/build',
        cacheDirectoryPath: poolDir + '/slot-' + slot + '/cache',
        maximumCacheFileCount: 100000,
        maximumCacheSizeBytes: 4 * 1024 * 1024 * 1024,
        cacheReplacementPolicy: 'LEAST_RECENTLY_USED',
      },
      runners: [{
        endpoint: { address: 'unix://' + poolDir + '/slot-' + slot + '/run/runner.sock' },
        concurrency: 1,
        platform: { properties: [{ name: 'Pool', value: pool }] },
        workerId: { pool: pool, slot: std.toString(slot) },
      }],
    }
    for slot in std.range(0, slots - 1)
  ],
  filePool: { blockDevice: { file: { path: poolDir + '/file-pool', sizeBytes: 4 * 1024 * 1024 * 1024 } } },
  inputDownloadConcurrency: 8,
  outputUploadConcurrency: 8,
  directoryCache: {
    maximumCount: 10000,
    maximumSizeBytes: 64 * 1024 * 1024,
    cacheReplacementPolicy: 'LEAST_RECENTLY_USED',
  },
}
