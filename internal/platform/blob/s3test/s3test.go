// Package s3test runs a real S3-compatible server (versitygw) on loopback
// for tests, so the S3 store is tested against the protocol, not a mock.
//
// The binary is not vendored: `make versitygw` (and .ci/run) build it into
// the user cache dir. A missing binary fails the test rather than skipping
// it, so a CI machine without it cannot pass by testing less.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"prima/internal/platform/blob"
)

// Version is the versitygw release the tests run against.
const Version = "v1.8.0"

const (
	accessKey = "prima-test"
	secretKey = "prima-test-secret-key"
)

// Binary finds versitygw: $PRIMA_VERSITYGW, else the cache path the Makefile
// builds into ($XDG_CACHE_HOME or ~/.cache, then prima/versitygw-<version>/).
func Binary() (string, error) {
	if p := os.Getenv("PRIMA_VERSITYGW"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("PRIMA_VERSITYGW=%s: %w", p, err)
		}
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(cache, "prima", "versitygw-"+Version, "versitygw")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("versitygw not found at %s (%v); build it with `make versitygw` or "+
			"`GOBIN=%s go install github.com/versity/versitygw/cmd/versitygw@%s` (about 90 s), "+
			"or point PRIMA_VERSITYGW at a binary", p, err, filepath.Dir(p), Version)
	}
	return p, nil
}

// Server is a running versitygw.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	client   *minio.Client
}

// Start runs versitygw over a temporary folder until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--port", addr, "--quiet", "posix", t.TempDir())
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+accessKey, "ROOT_SECRET_KEY="+secretKey)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("versitygw: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			t.Fatalf("versitygw exited at start: %s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw did not listen on %s: %s", addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(accessKey, secretKey, ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	return &Server{Endpoint: "http://" + addr, client: client}
}

// Config makes a fresh bucket and returns the settings that reach it.
func (s *Server) Config(t testing.TB, prefix string) blob.S3Config {
	t.Helper()
	var raw [6]byte
	_, _ = rand.Read(raw[:])
	bucket := "prima-" + hex.EncodeToString(raw[:])
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{}); err != nil {
		t.Fatalf("make bucket: %v", err)
	}
	return blob.S3Config{Endpoint: s.Endpoint, Bucket: bucket, AccessKey: accessKey, SecretKey: secretKey, Region: "us-east-1", Prefix: prefix}
}

// Store makes a fresh bucket and an S3 store on it.
func (s *Server) Store(t testing.TB, prefix string) *blob.S3 {
	t.Helper()
	st, err := blob.NewS3(s.Config(t, prefix))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

// Client is a plain S3 client of the server, for tests that look behind
// the store (e.g. at the prefix it writes under).
func (s *Server) Client() *minio.Client { return s.client }

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// syncBuffer collects the server's output for failure messages.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
