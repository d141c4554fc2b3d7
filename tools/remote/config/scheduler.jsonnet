// bb_scheduler: queues actions by their platform properties (Bazel >= 4.1
// sends them in the Action) and hands them to the workers of that platform.
local common = import 'common.libsonnet';

{
  clientGrpcServers: [{
    listenAddresses: [common.schedulerClients],
    authenticationPolicy: { allow: {} },
  }],
  workerGrpcServers: [{
    listenAddresses: [common.schedulerWorkers],
    authenticationPolicy: { allow: {} },
  }],
  adminHttpServers: [{
    listenAddresses: [common.schedulerAdmin],
    authenticationPolicy: { allow: {} },
  }],
  browserUrl: 'http://' + common.schedulerAdmin,
  contentAddressableStorage: { grpc: { address: common.storage } },
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  // Metrics: cluster.sh waits for each pool's workers there.
  global: common.global('scheduler') + common.metrics(common.schedulerMetrics),
  executeAuthorizer: { allow: {} },
  modifyDrainsAuthorizer: { allow: {} },
  killOperationsAuthorizer: { allow: {} },
  actionRouter: {
    simple: {
      platformKeyExtractor: { action: {} },
      invocationKeyExtractors: [{ correlatedInvocationsId: {} }, { toolInvocationId: {} }],
      initialSizeClassAnalyzer: {
        // Bazel 4.2.3 sends no timeout with actions other than tests, so
        // this one bounds an agent's run: a day (upstream's limit) plus an
        // hour (docs/remote.md, "Timeouts for long agent runs").
        defaultExecutionTimeout: '90000s',
        maximumExecutionTimeout: '90000s',
      },
    },
  },
  // An action whose platform no worker offers fails after this, with
  // "No workers exist for instance name prefix ..." (instead of waiting).
  platformQueueWithNoWorkersTimeout: '60s',
  predeclaredPlatformQueues: [
    {
      instanceNamePrefix: '',
      platform: { properties: [{ name: 'Pool', value: pool }] },
      sizeClasses: [0],
    }
    for pool in std.split(std.extVar('MLEBENCH_POOLS'), ',')
  ],
}
