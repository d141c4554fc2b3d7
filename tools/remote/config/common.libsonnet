// Settings shared by the cluster's processes. Every value comes from an
// environment variable that tools/remote/cluster.sh sets (Buildbarn's binaries
// expose the environment to Jsonnet as external variables).
{
  dir: std.extVar('MLEBENCH_CLUSTER_DIR'),
  storage: '127.0.0.1:' + std.extVar('MLEBENCH_STORAGE_PORT'),
  schedulerClients: '127.0.0.1:' + std.extVar('MLEBENCH_SCHEDULER_CLIENT_PORT'),
  schedulerWorkers: '127.0.0.1:' + std.extVar('MLEBENCH_SCHEDULER_WORKER_PORT'),
  schedulerAdmin: '127.0.0.1:' + std.extVar('MLEBENCH_SCHEDULER_ADMIN_PORT'),
  schedulerMetrics: '127.0.0.1:' + std.extVar('MLEBENCH_SCHEDULER_METRICS_PORT'),
  storageMetrics: '127.0.0.1:' + std.extVar('MLEBENCH_STORAGE_METRICS_PORT'),
  // Prometheus metrics at http://<address>/metrics.
  metrics(address): {
    diagnosticsHttpServer: {
      httpServers: [{ listenAddresses: [address], authenticationPolicy: { allow: {} } }],
      enablePrometheus: true,
    },
  },
  // An agent's output (a submission, its logs and kept code) can be large.
  maximumMessageSizeBytes: 64 * 1024 * 1024,
  // Logs go to standard error, which cluster.sh keeps in <dir>/logs.
  global(name): {},
}
