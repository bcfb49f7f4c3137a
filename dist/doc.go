// Package dist spreads a run's concolic executions over machines through a
// NATS server with JetStream: the coordinator publishes each input to run
// on a work-queue stream, executors on any machine (gocolic worker, or
// goroutines of the coordinator's own process) take them with explicit
// acknowledgements, run them on the run's worker binary, which they fetch
// from an object store and check by its SHA-256, and publish what the
// execution did on a result stream, deduplicated by the item's id.
//
// A run's resources on the server (names.go): the streams
// GOCOLIC_<run>_WORK, GOCOLIC_<run>_RESULTS and GOCOLIC_<run>_INPUTS
// (the inputs the run kept, which a restarted coordinator of the same run
// id runs first), the object store
// gocolic_<run>_bin (the worker binary), and the run's entry in the
// key-value bucket gocolic_runs (its Info: the executors' spec and the
// binary's hash), which idle executors watch for runs to join. The coordinator removes
// them when its run ends; executors then leave it.
//
// The messages carry their format version in the header Gocolic-Format
// (wire.go); an executor or coordinator of another version refuses them
// with one line, leaving the item for one that understands it.
package dist
