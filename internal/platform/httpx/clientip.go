package httpx

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
)

// ParseTrustedProxies reads PRIMA_TRUSTED_PROXIES: comma-separated CIDRs
// (a bare address counts as a single host). Empty means no proxy is trusted.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is not a CIDR or an IP address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

type peerInfo struct {
	ip      string
	trusted bool // the peer is one of the operator's proxies
}

type clientIPKey struct{}

// RealIP resolves each request's client address once and keeps it on the
// context for ClientIP. The peer (RemoteAddr) is the client unless it is
// one of the trusted proxies; then X-Forwarded-For is read from the right,
// skipping trusted hops, and the first untrusted hop is the client (every
// hop to its left was written by the client and proves nothing). Without
// X-Forwarded-For, X-Real-IP is used. A header value that is not an IP
// address is ignored, never passed on.
//
// With no trusted proxies (the default) no header is believed, so a client
// cannot choose its own address and slip per-IP limits.
func RealIP(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			info := resolveClientIP(r, trusted)
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey{}, info)))
		})
	}
}

// ClientIP is the request's client address as RealIP resolved it. Without
// RealIP in the chain (a handler tested alone) it is the peer address:
// headers are never believed by default.
func ClientIP(r *http.Request) string {
	if info, ok := r.Context().Value(clientIPKey{}).(peerInfo); ok {
		return info.ip
	}
	host, _ := peerAddr(r)
	return host
}

// FromTrustedProxy reports whether the request came through one of the
// operator's proxies, so other forwarded headers (X-Forwarded-Proto) may be
// believed.
func FromTrustedProxy(r *http.Request) bool {
	info, _ := r.Context().Value(clientIPKey{}).(peerInfo)
	return info.trusted
}

// peerAddr is RemoteAddr's host and its parsed address, if it is one.
func peerAddr(r *http.Request) (string, netip.Addr) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host, netip.Addr{}
	}
	a = a.Unmap().WithZone("")
	return a.String(), a
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseHop reads one X-Forwarded-For entry: an address, optionally with a
// port ("1.2.3.4:5", "[::1]:5"), as some proxies write it.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil && ap.Addr().Zone() == "" {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

var warnUntrustedOnce sync.Once

func resolveClientIP(r *http.Request, trusted []netip.Prefix) peerInfo {
	host, peer := peerAddr(r)
	if !isTrusted(peer, trusted) {
		if peer.IsValid() && (peer.IsLoopback() || peer.IsPrivate()) &&
			(r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("X-Real-Ip") != "") {
			// Most likely a proxy the operator forgot to name: every client
			// would share its address. Say so once, not on every request.
			warnUntrustedOnce.Do(func() {
				slog.Warn("ignoring X-Forwarded-For/X-Real-IP from a peer that is not a trusted proxy; set PRIMA_TRUSTED_PROXIES if it is yours", "peer", host)
			})
		}
		return peerInfo{ip: host}
	}
	info := peerInfo{ip: host, trusted: true}
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		hops := strings.Split(strings.Join(xff, ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			a, ok := parseHop(hops[i])
			if !ok {
				break // garbage: nothing left of it can be trusted either
			}
			info.ip = a.String()
			if !isTrusted(a, trusted) {
				return info
			}
		}
		if info.ip != host {
			return info // every hop was a trusted proxy: the leftmost is the client
		}
	}
	if a, ok := parseHop(r.Header.Get("X-Real-Ip")); ok {
		info.ip = a.String()
	}
	return info
}
