package dist

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Embedded is a NATS server with JetStream running in this process: the
// single-machine default, which needs nothing installed.
type Embedded struct {
	srv *server.Server
}

// StartEmbedded starts a NATS server with JetStream in this process,
// keeping its streams in storeDir. With listen empty it accepts only
// in-process connections; otherwise it listens on that host:port (port 0:
// any free one) so that executors on other machines can join.
func StartEmbedded(listen, storeDir string) (*Embedded, error) {
	opts := &server.Options{
		JetStream:              true,
		StoreDir:               storeDir,
		NoSigs:                 true,
		NoLog:                  true,
		DisableJetStreamBanner: true,
		ServerName:             "gocolic",
	}
	if listen == "" {
		opts.DontListen = true
	} else {
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("-nats-listen %q: want host:port: %w", listen, err)
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("-nats-listen %q: bad port %q", listen, port)
		}
		if p == 0 {
			p = server.RANDOM_PORT
		}
		opts.Host, opts.Port = host, p
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("starting the embedded NATS server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, errors.New("starting the embedded NATS server: not ready after 10s (is the -nats-listen address in use?)")
	}
	return &Embedded{srv: srv}, nil
}

// URL returns the address executors on other machines connect to, or ""
// when the server accepts only in-process connections.
func (e *Embedded) URL() string {
	if e.srv.Addr() == nil {
		return ""
	}
	return e.srv.ClientURL()
}

// Connect opens an in-process connection to the server.
func (e *Embedded) Connect() (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.InProcessServer(e.srv), nats.Name("gocolic"), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("connecting to the embedded NATS server: %w", err)
	}
	return nc, nil
}

// awaitClients waits until at most n clients are connected, or for
// limit.
func (e *Embedded) awaitClients(n int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for e.srv.NumClients() > n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// Shutdown stops the server and waits for it.
func (e *Embedded) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// Connect connects to the NATS server at url, failing within a few
// seconds with one line when the URL is wrong or the server cannot be
// reached; once connected, it reconnects as long as the process lives.
func Connect(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.Timeout(5*time.Second), nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("connecting to the NATS server at %s: %w", url, err)
	}
	return nc, nil
}
