package messaging

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/realtime"
)

// unlimited lets every send through: the benchmark measures the send, not
// the per-sender rate limit (30 a minute) that would refuse it.
type unlimited struct{}

func (unlimited) Allow(context.Context, string, int, time.Duration) (bool, time.Duration, error) {
	return true, 0, nil
}

// BenchmarkSend measures whole direct-message sends per second (clientId
// lookup, both block directions, the message row, both conversation rows,
// commit, the realtime hand-off), 8 senders at a time each writing to
// their own peer, against the floor of the same run: a transaction that
// only inserts the message row ("bare-insert").
// go test ./internal/messaging -run '^$' -bench Send -benchtime 3000x
func BenchmarkSend(b *testing.B) {
	for _, c := range []struct {
		name string
		e    db.Engine
		bare bool
	}{{"sqlite", db.SQLite, false}, {"sqlite-bare-insert", db.SQLite, true}, {"postgres", db.Postgres, false}, {"postgres-bare-insert", db.Postgres, true}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			d := dbtest.Open(b, c.e)
			const senders = 8
			people := fakePeople{}
			for u := int64(1); u <= 2*senders; u++ {
				people[u] = Person{UID: u, Name: fmt.Sprint(u)}
			}
			broker := realtime.NewMemory(0)
			defer broker.Close()
			s := NewService(d, unlimited{}, people, nil, broker)
			var next, who atomic.Int64
			b.SetParallelism(senders)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				// RunParallel starts senders x GOMAXPROCS goroutines: they share the
				// senders, and sender w writes to peer w+senders.
				w := (who.Add(1)-1)%senders + 1
				for pb.Next() {
					i := next.Add(1)
					in := SendInput{UID: w + senders, Kind: KindText, Text: "你好，这是一条私信", ClientID: fmt.Sprintf("b-%d-%d", w, i)}
					var err error
					if c.bare {
						err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
							_, err := insertMessage(ctx, tx, Message{From: w, To: in.UID, Kind: in.Kind, Text: in.Text, ClientID: in.ClientID}, time.Now().Unix())
							return err
						})
					} else {
						_, err = s.Send(ctx, w, in)
					}
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
