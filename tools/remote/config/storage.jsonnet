// bb_storage: the cluster's CAS and action cache, on files under the cluster
// directory that survive restarts, and the one endpoint Bazel talks to
// (Bazel 4.2.3 wants CAS, action cache and execution at one address): execute
// requests go on to the scheduler.
local common = import 'common.libsonnet';
local casBytes = std.parseInt(std.extVar('MLEBENCH_CAS_SIZE_BYTES'));

local localStore(name, blocksBytes, keyMapEntries, newBlocks) = {
  'local': {
    keyLocationMapOnBlockDevice: {
      file: { path: common.dir + '/storage/' + name + '-key-location-map', sizeBytes: keyMapEntries * 64 },
    },
    keyLocationMapMaximumGetAttempts: 16,
    keyLocationMapMaximumPutAttempts: 64,
    oldBlocks: 8,
    currentBlocks: 24,
    // The action cache replaces entries: one "new" block (Buildbarn's rule).
    newBlocks: newBlocks,
    blocksOnBlockDevice: {
      source: { file: { path: common.dir + '/storage/' + name + '-blocks', sizeBytes: blocksBytes } },
      spareBlocks: 3,
    },
    persistent: {
      stateDirectoryPath: common.dir + '/storage/' + name + '-state',
      minimumEpochInterval: '60s',
    },
  },
};

{
  grpcServers: [{
    listenAddresses: [common.storage],
    authenticationPolicy: { allow: {} },
  }],
  schedulers: {
    '': { endpoint: { address: common.schedulerClients } },
  },
  contentAddressableStorage: {
    backend: localStore('cas', casBytes, 1024 * 1024, 3),
    getAuthorizer: { allow: {} },
    putAuthorizer: { allow: {} },
    findMissingAuthorizer: { allow: {} },
  },
  actionCache: {
    backend: localStore('ac', 256 * 1024 * 1024, 256 * 1024, 1),
    getAuthorizer: { allow: {} },
    putAuthorizer: { allow: {} },
  },
  executeAuthorizer: { allow: {} },
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  // Metrics: what was written to the CAS (docs/remote.md).
  global: common.global('storage') + common.metrics(common.storageMetrics),
}
