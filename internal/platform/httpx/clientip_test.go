package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestParseTrustedProxies(t *testing.T) {
	ps, err := ParseTrustedProxies(" 10.1.2.3/8, 192.168.1.1 ,::1,2001:db8::/32,, ::ffff:172.16.0.1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.168.1.1/32", "::1/128", "2001:db8::/32", "172.16.0.1/32"}
	if len(ps) != len(want) {
		t.Fatalf("got %v", ps)
	}
	for i, p := range ps {
		if p.String() != want[i] {
			t.Errorf("prefix %d: %s, want %s", i, p, want[i])
		}
	}
	if ps, err := ParseTrustedProxies(""); err != nil || len(ps) != 0 {
		t.Errorf("empty: %v %v", ps, err)
	}
	for _, bad := range []string{"proxy.local", "10.0.0.0/33", "10.0.0.1,x", "fe80::1%eth0/64"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestClientIP(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 2001:db8::/32, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, peer  string
		xff         []string
		realIP      string
		want        string
		wantTrusted bool
	}{
		{name: "untrusted peer, headers ignored", peer: "203.0.113.5:1000", xff: []string{"198.51.100.7"}, realIP: "198.51.100.8", want: "203.0.113.5"},
		{name: "untrusted IPv6 loopback", peer: "[::1]:1000", realIP: "198.51.100.8", want: "::1"},
		{name: "trusted, X-Real-IP", peer: "10.0.0.1:1000", realIP: "198.51.100.8", want: "198.51.100.8", wantTrusted: true},
		{name: "trusted, garbage X-Real-IP", peer: "10.0.0.1:1000", realIP: "<script>", want: "10.0.0.1", wantTrusted: true},
		{name: "trusted, X-Real-IP with spaces", peer: "127.0.0.1:1000", realIP: " 198.51.100.8 ", want: "198.51.100.8", wantTrusted: true},
		{name: "spoofed left hop skipped", peer: "10.0.0.1:1000", xff: []string{"1.1.1.1, 198.51.100.7"}, want: "198.51.100.7", wantTrusted: true},
		{name: "trusted hops skipped", peer: "10.0.0.1:1000", xff: []string{"198.51.100.7, 10.0.0.2, 10.9.9.9"}, want: "198.51.100.7", wantTrusted: true},
		{name: "all hops trusted: leftmost", peer: "10.0.0.1:1000", xff: []string{"10.0.0.3,10.0.0.2"}, want: "10.0.0.3", wantTrusted: true},
		{name: "garbage rightmost hop", peer: "10.0.0.1:1000", xff: []string{"198.51.100.7, garbage"}, want: "10.0.0.1", wantTrusted: true},
		{name: "garbage rightmost hop, X-Real-IP", peer: "10.0.0.1:1000", xff: []string{"garbage"}, realIP: "198.51.100.8", want: "198.51.100.8", wantTrusted: true},
		{name: "garbage left of the client", peer: "10.0.0.1:1000", xff: []string{"garbage, 198.51.100.7"}, want: "198.51.100.7", wantTrusted: true},
		{name: "several headers", peer: "10.0.0.1:1000", xff: []string{"1.1.1.1", "198.51.100.7"}, want: "198.51.100.7", wantTrusted: true},
		{name: "X-Forwarded-For wins over X-Real-IP", peer: "10.0.0.1:1000", xff: []string{"198.51.100.7"}, realIP: "198.51.100.8", want: "198.51.100.7", wantTrusted: true},
		{name: "hop with a port", peer: "10.0.0.1:1000", xff: []string{"198.51.100.7:5555"}, want: "198.51.100.7", wantTrusted: true},
		{name: "IPv6 proxy and client", peer: "[2001:db8::1]:443", xff: []string{"2a00:1450::1, 2001:db8::2"}, want: "2a00:1450::1", wantTrusted: true},
		{name: "IPv6 hop with a port", peer: "[2001:db8::1]:443", xff: []string{"[2a00:1450::1]:443"}, want: "2a00:1450::1", wantTrusted: true},
		{name: "IPv4-mapped peer", peer: "[::ffff:10.0.0.1]:80", realIP: "198.51.100.8", want: "198.51.100.8", wantTrusted: true},
		{name: "IPv4-mapped hop", peer: "10.0.0.1:80", xff: []string{"::ffff:198.51.100.7"}, want: "198.51.100.7", wantTrusted: true},
		{name: "zoned hop is garbage", peer: "10.0.0.1:80", xff: []string{"fe80::1%eth0"}, want: "10.0.0.1", wantTrusted: true},
		{name: "zoned peer", peer: "[fe80::1%eth0]:80", realIP: "198.51.100.8", want: "fe80::1"},
		{name: "huge header", peer: "10.0.0.1:80", realIP: strings.Repeat("9", 5000), want: "10.0.0.1", wantTrusted: true},
		{name: "peer without a port", peer: "203.0.113.5", want: "203.0.113.5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.peer
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if c.realIP != "" {
				r.Header.Set("X-Real-IP", c.realIP)
			}
			var got string
			var fromProxy bool
			RealIP(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				got, fromProxy = ClientIP(r), FromTrustedProxy(r)
			})).ServeHTTP(httptest.NewRecorder(), r)
			if got != c.want || fromProxy != c.wantTrusted {
				t.Fatalf("ClientIP %q trusted %v, want %q %v", got, fromProxy, c.want, c.wantTrusted)
			}
		})
	}
}

// With no proxies configured, or without RealIP at all, headers never count.
func TestClientIPDefaults(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:4000"
	r.Header.Set("X-Real-IP", "198.51.100.8")
	r.Header.Set("X-Forwarded-For", "198.51.100.9")
	if got := ClientIP(r); got != "127.0.0.1" || FromTrustedProxy(r) {
		t.Fatalf("without RealIP: %q", got)
	}
	var got string
	RealIP(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = ClientIP(r) })).ServeHTTP(httptest.NewRecorder(), r)
	if got != "127.0.0.1" {
		t.Fatalf("no trusted proxies: %q", got)
	}
}

// Every value httpx keeps on a request's context survives the others being
// set after it: signing in must not hide who the client is, nor the reverse.
func TestContextValuesKeepApart(t *testing.T) {
	trusted, _ := ParseTrustedProxies("127.0.0.1")
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:4000"
	r.Header.Set("X-Forwarded-For", "198.51.100.9")
	var (
		ip, id   string
		viaProxy bool
		p        Principal
		signedIn bool
	)
	h := Chain(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		ip, viaProxy, id = ClientIP(r), FromTrustedProxy(r), RequestID(r.Context())
		p, signedIn = PrincipalFrom(r.Context())
	}), RealIP(trusted), WithRequestID, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), Principal{UID: 7, Role: RoleOwner})))
		})
	})
	h.ServeHTTP(httptest.NewRecorder(), r)
	if ip != "198.51.100.9" || !viaProxy {
		t.Errorf("signed in, the client is %q (via proxy %v), want 198.51.100.9 via the proxy", ip, viaProxy)
	}
	if !signedIn || p.UID != 7 || !p.IsOperator() {
		t.Errorf("principal %+v %v", p, signedIn)
	}
	if id == "" {
		t.Error("the request id was lost")
	}
}
