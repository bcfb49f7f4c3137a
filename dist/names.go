package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
)

// runsBucket lists the runs in progress on a server: key the run's id,
// value its Info. Idle executors watch it for runs to join.
const runsBucket = "gocolic_runs"

// validID is what a run id may be: it names streams and buckets.
var validID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckID returns an error when id cannot name a run.
func CheckID(id string) error {
	if !validID.MatchString(id) {
		return fmt.Errorf("run id %q: want 1 to 64 letters, digits, '-' or '_'", id)
	}
	return nil
}

// Info describes a run to the executors that join it.
type Info struct {
	Format int    `json:"format"` // Format of the run's messages
	Target string `json:"target"` // package and function, for people
	// Spec is how to run its inputs (coordinator.ExecSpec; the binary
	// and directory are each executor's own).
	Spec coordinator.ExecSpec `json:"spec"`
	// Solve, when set, says that the executors answer the run's queries
	// too, and how (-nats-solve).
	Solve *SolveSpec `json:"solve,omitempty"`
	// Binary is the SHA-256 of the worker binary, hex, checked after
	// each download.
	Binary string `json:"binary_sha256"`
}

// run names one run's resources on a server.
type run struct {
	id string
	// ackWait is the executors' consumer's AckWait when the run creates
	// it (0: defaultAckWait).
	ackWait time.Duration
	// memory keeps the run's streams in memory rather than on disk: on a
	// server embedded in the coordinator, which dies with it, the disk
	// would only slow every message down.
	memory bool
}

func (r run) workStream() string    { return "GOCOLIC_" + r.id + "_WORK" }
func (r run) resultStream() string  { return "GOCOLIC_" + r.id + "_RESULTS" }
func (r run) inputStream() string   { return "GOCOLIC_" + r.id + "_INPUTS" }
func (r run) workSubject() string   { return "gocolic." + r.id + ".work" }
func (r run) inputSubject() string  { return "gocolic." + r.id + ".input" }
func (r run) resultSubject() string { return "gocolic." + r.id + ".result" }
func (r run) binStore() string      { return "gocolic_" + r.id + "_bin" }

// executors is the durable consumer every executor of a run pulls from.
const executors = "executors"

// dedupWindow is how long the streams remember message ids: a result
// published again within it (a redelivered item run twice) is dropped
// by the server, and later ones by the coordinator.
const dedupWindow = 2 * time.Minute

// resultAge and resultBytes bound what the result stream keeps, the
// oldest dropped first: the coordinator takes each result in as it
// comes.
const (
	resultAge   = 10 * time.Minute
	resultBytes = 256 << 20
)

// inputBytes bounds the log of kept inputs; past it new ones are refused
// (a restarted coordinator replays the first ones).
const inputBytes = 1 << 30

// defaultAckWait is how long an item may go without an acknowledgement
// or a heartbeat before the server gives it to another executor.
// Executors send heartbeats every third of it while they run an item, so
// only a dead or cut-off executor lets it lapse.
const defaultAckWait = 30 * time.Second

// create makes the run's streams, buckets and consumer on the server.
func (r run) create(ctx context.Context, js jetstream.JetStream) error {
	storage := jetstream.FileStorage
	if r.memory {
		storage = jetstream.MemoryStorage
	}
	streams := []jetstream.StreamConfig{
		{Name: r.workStream(), Subjects: []string{r.workSubject()}, Retention: jetstream.WorkQueuePolicy,
			Storage: storage, Duplicates: dedupWindow},
		{Name: r.resultStream(), Subjects: []string{r.resultSubject()}, Retention: jetstream.LimitsPolicy,
			Storage: storage, Duplicates: dedupWindow, MaxAge: resultAge, MaxBytes: resultBytes, Discard: jetstream.DiscardOld},
		// The inputs the run kept, for a coordinator that restarts.
		{Name: r.inputStream(), Subjects: []string{r.inputSubject()}, Retention: jetstream.LimitsPolicy,
			Storage: storage, MaxBytes: inputBytes},
	}
	for _, sc := range streams {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return fmt.Errorf("creating stream %s: %w", sc.Name, err)
		}
	}
	wait := r.ackWait
	if wait <= 0 {
		wait = defaultAckWait
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, r.workStream(), jetstream.ConsumerConfig{
		Durable: executors, AckPolicy: jetstream.AckExplicitPolicy, AckWait: wait, MaxAckPending: -1,
	}); err != nil {
		return fmt.Errorf("creating the executors' consumer: %w", err)
	}
	if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: r.binStore(), Storage: storage}); err != nil {
		return fmt.Errorf("creating object store %s: %w", r.binStore(), err)
	}
	return nil
}

// remove deletes the run's resources and its entry in the runs bucket;
// it goes on past errors and returns the first.
func (r run) remove(ctx context.Context, js jetstream.JetStream) error {
	var errs []error
	if kv, err := js.KeyValue(ctx, runsBucket); err == nil {
		errs = append(errs, kv.Delete(ctx, r.id))
	}
	for _, s := range []string{r.workStream(), r.resultStream(), r.inputStream()} {
		errs = append(errs, ignoreNotFound(js.DeleteStream(ctx, s)))
	}
	errs = append(errs, ignoreNotFound(js.DeleteObjectStore(ctx, r.binStore())))
	return errors.Join(errs...)
}

func ignoreNotFound(err error) error {
	if errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil
	}
	return err
}

// runs opens (creating it if need be) the bucket of runs in progress.
func runs(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: runsBucket, Storage: jetstream.FileStorage})
	if err != nil {
		return nil, fmt.Errorf("opening bucket %s: %w", runsBucket, err)
	}
	return kv, nil
}

// decodeInfo decodes a run's Info, refusing another format.
func decodeInfo(id string, data []byte) (Info, error) {
	var in Info
	if err := json.Unmarshal(data, &in); err != nil {
		return Info{}, fmt.Errorf("run %s: its description does not decode: %w", id, err)
	}
	if in.Format != Format {
		return Info{}, fmt.Errorf("run %s: message format %d, this gocolic speaks %d: run the same gocolic version as the coordinator", id, in.Format, Format)
	}
	return in, nil
}
