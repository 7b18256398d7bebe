//go:build cluster

package clustertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/operator"
	"prima/internal/platform/blob/s3test"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
	"prima/internal/wallet/wallettest"
)

// proc is one process of the cluster.
type proc struct {
	name string
	addr string // listen address ("" for the worker)
	args []string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func (p *proc) start(t *testing.T, bin string, env []string) {
	t.Helper()
	p.log = &syncBuffer{}
	p.cmd = exec.Command(bin, p.args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	p.done = make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(p.done) }()
}

func (p *proc) stop(sig syscall.Signal) {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// waitReady polls url until it answers 200.
func waitReady(t *testing.T, p *proc, url string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			t.Fatalf("%s exited at start:\n%s", p.name, p.log.String())
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s not ready at %s:\n%s", p.name, url, p.log.String())
}

var client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 200, MaxConnsPerHost: 0}}

type envelope struct {
	Code int             `json:"code"`
	Tip  string          `json:"tip"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

// call sends one API call and answers the status and envelope (status 0:
// the connection failed).
func call(method, base, path, token string, body any, hdr map[string]string) (int, envelope) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("X-App-Client", "devID=clustertest000000001;ver=1.1.3;dev=ios;h5=1")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, envelope{Msg: err.Error()}
	}
	defer resp.Body.Close()
	var env envelope
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &env)
	return resp.StatusCode, env
}

// mixedLoad is one user's loop until ctx ends: browse, play, search,
// purchase, top up and pay through the sandbox's notify, look at the
// wallet. phase keeps idempotency keys apart between load phases.
func mixedLoad(ctx context.Context, rec *recorder, base string, sb *wallet.Sandbox, f wallettest.Fixture, w int, phase string, paid *sync.Map) {
	u := f.Users[w]
	for i := 0; ctx.Err() == nil; i++ {
		v := f.Videos[(w+i)%len(f.Videos)]
		switch i % 8 {
		case 0, 1:
			s, env := call("GET", base, fmt.Sprintf("/api/app/vid/info?id=%d", v), u.Token, nil, nil)
			rec.add("browse", s, env)
		case 2:
			s, env := call("POST", base, "/api/app/vid/play", u.Token, map[string]any{"id": v}, nil)
			rec.add("play", s, env)
		case 3:
			s, env := call("GET", base, "/api/app/search?kind=video&q=gold", u.Token, nil, nil)
			rec.add("search", s, env)
		case 4:
			s, env := call("POST", base, "/api/app/vid/buy", u.Token, map[string]any{"id": v, "idempotencyKey": fmt.Sprintf("buy-%s-%d-%d", phase, w, i)}, nil)
			rec.add("purchase", s, env)
		case 5:
			s, env := call("POST", base, "/api/app/mine/topay", u.Token, map[string]any{"productType": "coins", "productID": f.Package,
				"payType": "sandbox", "idempotencyKey": fmt.Sprintf("topay-%s-%d-%d", phase, w, i)}, nil)
			rec.add("topup", s, env)
			if s != 200 {
				continue
			}
			var o wallet.Order
			_ = json.Unmarshal(env.Data, &o)
			form := url.Values{"orderNo": {o.OrderNo}, "amount": {fmt.Sprint(o.Amount)}, "currency": {"CNY"}, "status": {"paid"},
				"tradeNo": {"T" + o.OrderNo}, "ts": {fmt.Sprint(time.Now().Unix())}}
			form.Set("sign", sb.Sign(form))
			resp, err := client.Post(base+"/api/pay/callback/sandbox", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
			if err != nil {
				rec.add("notify", 0, envelope{})
				continue
			}
			resp.Body.Close()
			rec.add("notify", resp.StatusCode, envelope{})
			if resp.StatusCode == 200 {
				paid.Store(o.OrderNo, true)
			}
		default:
			s, env := call("GET", base, "/api/app/mine/wallet", u.Token, nil, nil)
			rec.add("wallet", s, env)
		}
	}
}

// recorder counts every answer of the load by operation and status, and
// when each 5xx or failed connection happened.
type recorder struct {
	start  time.Time
	mu     sync.Mutex
	counts map[string]int    // "op status"
	tips   map[string]string // the first tip of each "op status" of 4xx
	bad    []time.Duration
	badOps []string
	total  atomic.Int64
}

func newRecorder() *recorder {
	return &recorder{start: time.Now(), counts: map[string]int{}, tips: map[string]string{}}
}

func (r *recorder) add(op string, status int, env envelope) {
	r.total.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	k := fmt.Sprintf("%s %d", op, status)
	r.counts[k]++
	if status >= 400 && status < 500 && r.tips[k] == "" {
		r.tips[k] = env.Tip
	}
	if status == 0 || status >= 500 {
		r.bad = append(r.bad, time.Since(r.start))
		r.badOps = append(r.badOps, fmt.Sprintf("%s %d at %.1fs", op, status, time.Since(r.start).Seconds()))
	}
}

// TestCluster is the cluster under a fault (issue 22 §2): see doc.go and
// docs/deploy.md, *The cluster*.
func TestCluster(t *testing.T) {
	bin := os.Getenv("PRIMA_CLUSTER_BIN")
	if bin == "" {
		t.Fatal("PRIMA_CLUSTER_BIN: the prima binary to run (deploy/cluster-test sets it)")
	}
	seconds := 120
	if s := os.Getenv("PRIMA_CLUSTER_SECONDS"); s != "" {
		seconds, _ = strconv.Atoi(s)
	}
	run := time.Duration(seconds) * time.Second
	killAt, backAt := run/4, run/2
	ctx := context.Background()
	var report strings.Builder
	say := func(format string, a ...any) {
		line := fmt.Sprintf(format, a...)
		report.WriteString(line + "\n")
		t.Log(line)
	}

	// The services: a fresh PostgreSQL database, a Redis of our own,
	// versitygw as S3.
	pgURL := dbtest.URL(t, db.Postgres)
	redisAddr := freeAddr(t)
	redis := &proc{name: "redis", args: []string{"--bind", "127.0.0.1", "--port", strings.Split(redisAddr, ":")[1], "--save", "", "--appendonly", "no"}}
	redis.start(t, "redis-server", nil)
	defer redis.stop(syscall.SIGTERM)
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", redisAddr); err == nil {
			c.Close()
			break
		}
		if i > 100 {
			t.Fatalf("redis did not start: %s", redis.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s3 := s3test.Start(t).Config(t, "media")
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	secret := hex.EncodeToString(raw)
	common := []string{"-database-url", pgURL, "-redis-url", "redis://" + redisAddr + "/0", "-secret", secret,
		"-s3-endpoint", s3.Endpoint, "-s3-bucket", s3.Bucket, "-s3-access-key", s3.AccessKey, "-s3-secret-key", s3.SecretKey,
		"-s3-region", s3.Region, "-s3-prefix", s3.Prefix, "-trusted-proxies", "127.0.0.1/32", "-pay-sandbox", "-shutdown-drain", "3s", "-log-level", "warn"}

	// Migrate once, then three API-only nodes and one worker.
	if out, err := exec.Command(bin, append([]string{"migrate", "-data-dir", t.TempDir()}, common...)...).CombinedOutput(); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	var nodes []*proc
	for i := range 3 {
		addr := freeAddr(t)
		p := &proc{name: fmt.Sprintf("n%d", i+1), addr: addr,
			args: append([]string{"serve", "-listen", addr, "-workers", "0", "-data-dir", t.TempDir()}, common...)}
		p.start(t, bin, nil)
		defer p.stop(syscall.SIGTERM)
		nodes = append(nodes, p)
	}
	worker := &proc{name: "worker", args: append([]string{"worker", "-workers", "2", "-data-dir", t.TempDir()}, common...)}
	worker.start(t, bin, nil)
	defer worker.stop(syscall.SIGTERM)
	for _, n := range nodes {
		waitReady(t, n, "http://"+n.addr+"/readyz")
	}
	lbAddr := freeAddr(t)
	cfg, _ := filepath.Abs("../haproxy.cfg")
	lb := &proc{name: "haproxy", args: []string{"-f", cfg, "-db"}}
	lb.start(t, "haproxy", []string{"PRIMA_LB_LISTEN=" + lbAddr, "PRIMA_NODE1=" + nodes[0].addr, "PRIMA_NODE2=" + nodes[1].addr, "PRIMA_NODE3=" + nodes[2].addr})
	defer lb.stop(syscall.SIGTERM)
	base := "http://" + lbAddr
	waitReady(t, lb, base+"/readyz")
	nodeURL := func(i int) string { return "http://" + nodes[i].addr }

	// An operator, users with income and payout accounts, gold videos, a
	// coin package (wallettest.Setup, through the balancer).
	admin := exec.Command(bin, append([]string{"admin", "create", "-account", "ops_cluster", "-data-dir", t.TempDir()}, common...)...)
	admin.Stdin = strings.NewReader("Cluster-pass-1\n")
	if out, err := admin.CombinedOutput(); err != nil {
		t.Fatalf("admin create: %v\n%s", err, out)
	}
	ops := signIn(t, base, "ops_cluster", "Cluster-pass-1")
	sb := wallet.NewSandbox(secret, base)
	tg := &wallettest.Target{Base: func() string { return base }, Ops: ops, Sign: func(v url.Values) string { return sb.Sign(v) }}
	const users = 24
	f := wallettest.Setup(t, tg, users, 30)
	clip := filepath.Join(t.TempDir(), "clip.mp4")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine",
		"-t", "3", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-c:a", "aac", "-shortest", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	clipBytes, _ := os.ReadFile(clip)
	say("cluster: 3 serve nodes (API only) + 1 worker on PostgreSQL, Redis, versitygw (S3), HAProxy %s in front", lbAddr)
	say("load: %d users, %s; n2 killed (SIGKILL) at %s, started again at %s", users, run, killAt, backAt)

	rec := newRecorder()
	lctx, cancel := context.WithTimeout(ctx, run)
	defer cancel()
	var wg sync.WaitGroup

	// The fault: n2 dies at killAt and comes back at backAt on the same address.
	var killedAt time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(killAt)
		killedAt = time.Since(rec.start)
		_ = nodes[1].cmd.Process.Signal(syscall.SIGKILL)
		<-nodes[1].done
		time.Sleep(backAt - killAt)
		nodes[1].start(t, bin, nil)
	}()

	// Mixed load through the balancer.
	var paid sync.Map
	for w := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mixedLoad(lctx, rec, base, sb, f, w, "a", &paid)
		}()
	}

	// Chat across nodes: a reader holds a WebSocket on n1 (or n3) and its
	// peer sends through the other one; every accepted message must arrive.
	var (
		chatMu   sync.Mutex
		chatSent []int64  // ids of accepted messages
		chatGot  sync.Map // ids a reader's WebSocket announced
	)
	for pair, side := range [][2]int{{0, 2}, {2, 0}} {
		reader, writer := f.Users[pair*2], f.Users[pair*2+1]
		wsNode, sendNode := side[0], side[1]
		conn := dialWS(t, nodeURL(wsNode), reader.Token)
		defer conn.CloseNow()
		wg.Add(2)
		go func() {
			defer wg.Done()
			for {
				_, data, err := conn.Read(ctx)
				if err != nil {
					return
				}
				var ev struct {
					Type string `json:"type"`
					Data struct {
						ID int64 `json:"id"`
					} `json:"data"`
				}
				if json.Unmarshal(data, &ev) == nil && ev.Type == "message.new" {
					chatGot.Store(ev.Data.ID, true)
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; lctx.Err() == nil; i++ {
				s, env := call("POST", nodeURL(sendNode), "/api/app/message/send", writer.Token,
					map[string]any{"uid": reader.UID, "kind": "text", "text": fmt.Sprintf("hello %d-%d", pair, i), "clientId": fmt.Sprintf("c%d-%d", pair, i)}, nil)
				rec.add("chat", s, env)
				var m struct {
					ID int64 `json:"id"`
				}
				if s == 200 && json.Unmarshal(env.Data, &m) == nil {
					chatMu.Lock()
					chatSent = append(chatSent, m.ID)
					chatMu.Unlock()
				}
				time.Sleep(2500 * time.Millisecond) // under 30 a minute
			}
			time.Sleep(3 * time.Second) // the last ones' way across
			conn.Close(websocket.StatusNormalClosure, "")
		}()
	}

	// Uploads through the balancer, transcoded by the worker.
	var assets []int64
	var assetOwner []string
	var amu sync.Mutex
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; lctx.Err() == nil; i++ {
			u := f.Users[i%users]
			id, s := upload(base, u.Token, clipBytes)
			rec.add("upload", s, envelope{})
			if s == 200 {
				amu.Lock()
				assets, assetOwner = append(assets, id), append(assetOwner, u.Token)
				amu.Unlock()
			}
			time.Sleep(4 * time.Second)
		}
	}()
	wg.Wait()
	waitReady(t, nodes[1], nodeURL(1)+"/readyz")

	// What the load saw.
	var keys []string
	for k := range rec.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	say("requests: %d in %s (%.0f/s)", rec.total.Load(), run, float64(rec.total.Load())/run.Seconds())
	for _, k := range keys {
		say("  %-16s %6d  %s", k, rec.counts[k], rec.tips[k])
	}
	inFlight, outside := 0, 0
	for i, at := range rec.bad {
		if at >= killedAt && at < killedAt+3*time.Second {
			inFlight++
			continue
		}
		outside++
		t.Errorf("5xx or failed connection outside the kill: %s", rec.badOps[i])
	}
	say("5xx / failed connections: %d within 3 s of the kill (requests in flight on n2), %d at other times", inFlight, outside)

	// Sessions: every user's token works on every node.
	okSessions := 0
	for _, u := range f.Users {
		for i := range nodes {
			if s, _ := call("GET", nodeURL(i), "/api/app/mine/info", u.Token, nil, nil); s == 200 {
				okSessions++
			} else {
				t.Errorf("user %d's session on n%d: %d", u.UID, i+1, s)
			}
		}
	}
	say("sessions valid on every node: %d of %d (users x nodes)", okSessions, users*len(nodes))

	delivered := 0
	for _, id := range chatSent {
		if _, ok := chatGot.Load(id); ok {
			delivered++
		}
	}
	say("messages across nodes: %d sent through one node, %d announced on the recipient's WebSocket on another", len(chatSent), delivered)
	if len(chatSent) == 0 || delivered != len(chatSent) {
		t.Errorf("messages: %d sent, %d delivered", len(chatSent), delivered)
	}

	// Rate limits are global: 20 failed logins per address in 10 minutes,
	// counted across nodes (round robin straight to each).
	var codes []int
	for i := range 24 {
		s, _ := call("POST", nodeURL(i%3), "/api/app/mine/login/h5", "", map[string]any{"account": fmt.Sprintf("nobody%d", i), "passWord": "wrong123",
			"sysType": "h5"}, map[string]string{"X-Forwarded-For": "203.0.113.77"})
		codes = append(codes, s)
	}
	first429 := -1
	for i, c := range codes {
		if c == 429 {
			first429 = i
			break
		}
	}
	say("rate limit across nodes: the address's failed logins refused from attempt %d on (limit 20, spread over 3 nodes)", first429+1)
	if first429 != 20 {
		t.Errorf("failed logins across nodes: %v (want 401 x20 then 429)", codes)
	}

	// Uploads: every one transcoded, playable from every node.
	playable := 0
	for i, id := range assets {
		master := ""
		for try := 0; try < 300; try++ {
			s, env := call("GET", base, fmt.Sprintf("/api/app/vid/uploadStatic?id=%d", id), assetOwner[i], nil, nil)
			var a struct {
				State  string `json:"state"`
				Master string `json:"master"`
				Error  string `json:"error"`
			}
			_ = json.Unmarshal(env.Data, &a)
			if s == 200 && a.State == "ready" {
				master = a.Master
				break
			}
			if a.State == "failed" {
				t.Errorf("upload %d failed: %s", id, a.Error)
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if master == "" {
			t.Errorf("upload %d not ready", id)
			continue
		}
		everywhere := true
		for n := range nodes {
			resp, err := client.Get(nodeURL(n) + master)
			if err != nil {
				everywhere = false
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "#EXTM3U") {
				everywhere = false
				t.Errorf("upload %d's playlist on n%d: %d", id, n+1, resp.StatusCode)
			}
		}
		if everywhere {
			playable++
		}
	}
	say("uploads: %d made during the load, %d transcoded and playable from all 3 nodes", len(assets), playable)

	// A rolling upgrade: each node in turn stopped (SIGTERM: it finishes
	// what it is serving) and replaced by the new build while the load
	// runs. No request may fail: the balancer sends new ones elsewhere.
	newBin := os.Getenv("PRIMA_CLUSTER_NEW_BIN")
	if newBin == "" {
		newBin = bin
	}
	rec2 := newRecorder()
	rctx, rcancel := context.WithCancel(ctx)
	var rwg sync.WaitGroup
	for w := range users {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			mixedLoad(rctx, rec2, base, sb, f, w, "b", &paid)
		}()
	}
	var swapped []string
	for i, n := range nodes {
		time.Sleep(3 * time.Second)
		t0 := time.Now()
		n.stop(syscall.SIGTERM)
		n.start(t, newBin, nil)
		waitReady(t, n, nodeURL(i)+"/readyz")
		swapped = append(swapped, fmt.Sprintf("%s %.1fs", n.name, time.Since(t0).Seconds()))
	}
	time.Sleep(4 * time.Second) // the last one back in the balancer's rotation
	rcancel()
	rwg.Wait()
	say("rolling upgrade (each node stopped with SIGTERM, replaced, back in rotation: %s): %d requests in %.0fs",
		strings.Join(swapped, ", "), rec2.total.Load(), time.Since(rec2.start).Seconds())
	var failed []string
	for k, c := range rec2.counts {
		if strings.HasSuffix(k, " 0") || strings.Contains(k, " 5") {
			failed = append(failed, fmt.Sprintf("%s x%d", k, c))
		}
	}
	sort.Strings(failed)
	say("  failed requests during the upgrade: %d %v", len(rec2.bad), failed)
	if len(rec2.bad) > 0 {
		t.Errorf("requests failed during the rolling upgrade: %v", rec2.badOps)
	}

	// Jobs: each ran exactly once.
	d, err := db.Open(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rows, err := d.Query(ctx, `SELECT kind, state, COUNT(*), MAX(attempt) FROM jobs GROUP BY kind, state ORDER BY kind, state`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var kind, state string
		var n, maxAttempt int
		if err := rows.Scan(&kind, &state, &n, &maxAttempt); err != nil {
			t.Fatal(err)
		}
		say("jobs: %-22s %-10s %4d (most attempts %d)", kind, state, n, maxAttempt)
		if state == "succeeded" && maxAttempt != 1 || state == "dead" || state == "retryable" {
			t.Errorf("job kind %s: %d %s, most attempts %d", kind, n, state, maxAttempt)
		}
	}
	rows.Close()

	// Money: the ledger's invariants and every paid order credited once.
	n := 0
	paid.Range(func(any, any) bool { n++; return true })
	wallettest.Verify(t, d)
	out, err := exec.Command(bin, "wallet", "check", "-data-dir", t.TempDir(), "-database-url", pgURL).CombinedOutput()
	if err != nil {
		t.Errorf("prima wallet check: %v\n%s", err, out)
	}
	say("money: %d top-ups paid through the balancer; %s", n, strings.TrimSpace(string(out)))

	path := filepath.Join(filepath.Dir(bin), "cluster-report.txt")
	_ = os.WriteFile(path, []byte(report.String()), 0o644)
	fmt.Print("\n" + report.String())
	if t.Failed() {
		for _, p := range append(nodes, worker) {
			t.Logf("--- %s log:\n%s", p.name, tail(p.log.String(), 3000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// signIn makes the operator's console session (enrolling TOTP).
func signIn(t *testing.T, base, account, password string) string {
	t.Helper()
	s, env := call("POST", base, "/api/admin/session", "", map[string]string{"account": account, "passWord": password, "code": ""}, nil)
	if s != http.StatusPreconditionRequired {
		t.Fatalf("console sign-in: %d %s", s, env.Tip)
	}
	var enrol struct {
		Enrol struct {
			Ticket string `json:"ticket"`
			Secret string `json:"secret"`
		} `json:"enrol"`
	}
	_ = json.Unmarshal(env.Data, &enrol)
	code, err := operator.Code(enrol.Enrol.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s, env = call("POST", base, "/api/admin/session/enrol", "", map[string]string{"ticket": enrol.Enrol.Ticket, "code": code}, nil)
	var signed struct {
		Token string `json:"token"`
	}
	_ = json.Unmarshal(env.Data, &signed)
	if s != 200 || signed.Token == "" {
		t.Fatalf("console enrolment: %d %s", s, env.Tip)
	}
	return signed.Token
}

func dialWS(t *testing.T, base, token string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/api/app/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatalf("websocket on %s: %v", base, err)
	}
	c.SetReadLimit(1 << 20)
	return c
}

// upload sends a video through uploadStatic and answers its asset id.
func upload(base, token string, clip []byte) (int64, int) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "clip.mp4")
	_, _ = fw.Write(clip)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/app/vid/uploadStatic", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-App-Client", "devID=clustertest000000001;ver=1.1.3;dev=ios;h5=1")
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	var env envelope
	_ = json.NewDecoder(resp.Body).Decode(&env)
	var a struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(env.Data, &a)
	return a.ID, resp.StatusCode
}
