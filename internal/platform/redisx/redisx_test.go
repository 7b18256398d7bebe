package redisx

import (
	"context"
	"testing"

	"prima/internal/platform/redisx/redistest"
)

func TestDial(t *testing.T) {
	rdb, err := Dial(context.Background(), redistest.URL())
	if err != nil {
		t.Fatalf("Redis at %s is needed for this test: %v", redistest.URL(), err)
	}
	defer rdb.Close()
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
}

// A URL that parses but reaches nothing fails at Dial, not later.
func TestDialRefusesDeadServer(t *testing.T) {
	if _, err := Dial(context.Background(), "redis://127.0.0.1:1/0"); err == nil {
		t.Fatal("dial to a closed port succeeded")
	}
	if _, err := Dial(context.Background(), "http://127.0.0.1:6379"); err == nil {
		t.Fatal("dial of a non-redis URL succeeded")
	}
}
