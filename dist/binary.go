package dist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go/jetstream"
)

// binName is the worker binary's name in the run's object store.
const binName = "worker"

// fileSHA256 returns the SHA-256 of the file at path, hex.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// putBinary stores the worker binary at path in the run's object store
// and returns its SHA-256.
func putBinary(ctx context.Context, js jetstream.JetStream, r run, path string) (string, error) {
	sum, err := fileSHA256(path)
	if err != nil {
		return "", fmt.Errorf("the worker binary: %w", err)
	}
	obs, err := js.ObjectStore(ctx, r.binStore())
	if err != nil {
		return "", fmt.Errorf("opening object store %s: %w", r.binStore(), err)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("the worker binary: %w", err)
	}
	defer f.Close()
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: binName}, f); err != nil {
		return "", fmt.Errorf("storing the worker binary: %w", err)
	}
	return sum, nil
}

// fetchBinary downloads run r's worker binary into dir, unless a copy
// with the SHA-256 want is there already, and returns its path. A
// download whose hash is not want is removed and refused.
func fetchBinary(ctx context.Context, js jetstream.JetStream, r run, want, dir string) (string, error) {
	path := filepath.Join(dir, "worker-"+want)
	if sum, err := fileSHA256(path); err == nil && sum == want {
		return path, nil
	}
	obs, err := js.ObjectStore(ctx, r.binStore())
	if err != nil {
		return "", fmt.Errorf("run %s: opening its worker binary's store: %w", r.id, err)
	}
	tmp := path + ".part"
	if err := obs.GetFile(ctx, binName, tmp); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("run %s: downloading its worker binary: %w", r.id, err)
	}
	sum, err := fileSHA256(tmp)
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	if sum != want {
		os.Remove(tmp)
		return "", fmt.Errorf("run %s: the worker binary's SHA-256 is %s, the run says %s: not running it", r.id, sum, want)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("run %s: the worker binary: %w", r.id, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("run %s: the worker binary: %w", r.id, err)
	}
	return path, nil
}
