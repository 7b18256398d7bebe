package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"prima/internal/platform/httpx"
)

// Protocol is the WebSocket subprotocol a client asks for and the server
// echoes. The client's list also carries its token as "bearer.<token>"
// (see docs/api.md); the token is never echoed.
const Protocol = "prima.v1"

const bearerProtocol = "bearer."

// Close codes beyond the standard ones; 4000-4999 are the application's.
const (
	// CloseSessionInvalid: the token was revoked (logged out elsewhere) or
	// expired. Reconnecting with the same token will fail.
	CloseSessionInvalid websocket.StatusCode = 4001
	// CloseTooSlow: the connection fell behind and events were dropped.
	// Reconnect and refetch.
	CloseTooSlow websocket.StatusCode = 4008
)

// SessionRevokedType is the event sent to a user when one of their sessions
// is logged out; its data is {"sid": ...}, or {"all": true} when every
// session of the user ended (an operator's sign-out everywhere). The
// connections whose session it ends close with CloseSessionInvalid right
// after delivering it.
const SessionRevokedType = "session.revoked"

// Session is what the WebSocket handler needs of a signed-in session.
type Session struct {
	UserID int64
	ID     string // public session id, as in session.revoked events
}

// ErrUnauthorized marks a token that is malformed, unknown, revoked or
// expired; an Authenticator wraps it. Any other error is the server's.
var ErrUnauthorized = errors.New("realtime: token refused")

// Authenticator resolves a session token to its live session.
type Authenticator func(ctx context.Context, token string) (Session, error)

// WSOptions tune the WebSocket endpoint; zero values take the defaults.
type WSOptions struct {
	PingEvery    time.Duration // ping and session re-check interval; 25 s
	PingTimeout  time.Duration // a pong must come back within this; 10 s
	WriteTimeout time.Duration // one event must be written within this; 10 s
	MaxPerUser   int           // open connections per user on this node; 8
	// OriginHosts are hosts (host[:port]) a browser page may connect from
	// besides the request's own Host, e.g. PRIMA_PUBLIC_URL's host.
	OriginHosts []string
	// AllowOrigin, when set, is asked about an Origin (scheme://host) the
	// hosts above do not cover: the delivery lines, which operators change
	// while the server runs.
	AllowOrigin func(ctx context.Context, origin string) bool
	Log         *slog.Logger
}

// WS serves GET /api/app/ws: one user's events over a WebSocket.
type WS struct {
	broker Broker
	auth   Authenticator
	opt    WSOptions

	mu    sync.Mutex
	conns map[int64]int // open connections per user
}

// NewWS returns the WebSocket endpoint over broker.
func NewWS(broker Broker, auth Authenticator, opt WSOptions) *WS {
	if opt.PingEvery <= 0 {
		opt.PingEvery = 25 * time.Second
	}
	if opt.PingTimeout <= 0 {
		opt.PingTimeout = 10 * time.Second
	}
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = 10 * time.Second
	}
	if opt.MaxPerUser <= 0 {
		opt.MaxPerUser = 8
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return &WS{broker: broker, auth: auth, opt: opt, conns: make(map[int64]int)}
}

// Open is the number of connections user uid holds on this node.
func (h *WS) Open(uid int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns[uid]
}

// Serve is an httpx.Handler. Every refusal is an envelope answered before
// the upgrade; after it, problems end the connection with a close code.
func (h *WS) Serve(w http.ResponseWriter, r *http.Request) error {
	if !headerHasToken(r.Header, "Connection", "upgrade") || !headerHasToken(r.Header, "Upgrade", "websocket") {
		return &httpx.Error{Status: http.StatusUpgradeRequired, Tip: "请求无效", Msg: "this endpoint only speaks WebSocket (Upgrade: websocket)"}
	}
	token, err := wsToken(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	sess, err := h.auth(ctx, token)
	if errors.Is(err, ErrUnauthorized) {
		return httpx.Unauthorized("登录已失效，请重新登录", err.Error())
	}
	if err != nil {
		return httpx.Internal(err)
	}
	if err := h.checkOrigin(r); err != nil {
		return err
	}
	if !h.acquire(sess.UserID) {
		w.Header().Set("Retry-After", strconv.Itoa(int(h.opt.PingEvery.Seconds())))
		return httpx.TooMany("连接过多，请关闭其他页面后重试", "too many open connections for this user ("+strconv.Itoa(h.opt.MaxPerUser)+")")
	}
	defer h.release(sess.UserID)

	// Subscribed before the upgrade: a broker failure can still be an
	// envelope, and nothing published after the 101 can be missed.
	sub, err := h.broker.Subscribe(ctx, UserTopic(sess.UserID))
	if err != nil {
		return &httpx.Error{Status: http.StatusServiceUnavailable, Tip: "服务暂不可用", Msg: "realtime unavailable", Err: err}
	}
	defer sub.Close()

	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols: []string{Protocol},
		// The origin was checked above, with an envelope for the refusal.
		InsecureSkipVerify: true,
	})
	if err != nil {
		// Accept has answered the request itself.
		h.opt.Log.DebugContext(ctx, "websocket accept failed", "err", err)
		return nil
	}
	defer conn.CloseNow()
	h.run(ctx, conn, sub, sess, token)
	return nil
}

// run forwards events until the connection, the subscription or the
// session ends.
func (h *WS) run(ctx context.Context, conn *websocket.Conn, sub *Subscription, sess Session, token string) {
	// Clients send nothing, but someone must read for pongs and the close
	// handshake to be seen. A data message is refused. (conn.CloseRead
	// would do this, but it keeps the read lock on the refused message,
	// stalling its own close handshake for 5 s.)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn.SetReadLimit(4096)
	go func() {
		defer cancel()
		if _, _, err := conn.Read(ctx); err == nil {
			h.close(conn, websocket.StatusPolicyViolation, "clients send no messages")
		}
	}()
	tick := time.NewTicker(h.opt.PingEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Done():
			switch sub.Err() {
			case ErrSlowConsumer:
				h.close(conn, CloseTooSlow, "too slow, events dropped: reconnect")
			default:
				h.close(conn, websocket.StatusGoingAway, "server shutting down")
			}
			return
		case ev := <-sub.Events():
			if err := h.write(ctx, conn, ev); err != nil {
				return
			}
			if ev.Type == SessionRevokedType && revokes(ev, sess.ID) {
				h.close(conn, CloseSessionInvalid, "session revoked")
				return
			}
		case <-tick.C:
			pctx, cancel := context.WithTimeout(ctx, h.opt.PingTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
			// The session may have been revoked on a node whose event
			// never reached us, or simply expired.
			if _, err := h.auth(ctx, token); errors.Is(err, ErrUnauthorized) {
				h.close(conn, CloseSessionInvalid, "session no longer valid")
				return
			} else if err != nil {
				// Our database failing is no reason to drop the user.
				h.opt.Log.WarnContext(ctx, "websocket session re-check failed", "uid", sess.UserID, "err", err)
			}
		}
	}
}

func (h *WS) write(ctx context.Context, conn *websocket.Conn, ev Event) error {
	raw, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, h.opt.WriteTimeout)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, raw)
}

// close sends a close frame but waits no longer than a write would for the
// peer's answer: a stuck peer must not hold the handler.
func (h *WS) close(conn *websocket.Conn, code websocket.StatusCode, reason string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = conn.Close(code, reason)
	}()
	select {
	case <-done:
	case <-time.After(h.opt.WriteTimeout):
		_ = conn.CloseNow()
	}
}

// revokes reports whether a session.revoked event ends session sid: it
// names sid, or says all of the user's sessions ended ({"all": true}).
func revokes(ev Event, sid string) bool {
	var d struct {
		SID string `json:"sid"`
		All bool   `json:"all"`
	}
	if json.Unmarshal(ev.Data, &d) != nil {
		return false
	}
	return d.All || (d.SID != "" && d.SID == sid)
}

func (h *WS) acquire(uid int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conns[uid] >= h.opt.MaxPerUser {
		return false
	}
	h.conns[uid]++
	return true
}

func (h *WS) release(uid int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conns[uid]--; h.conns[uid] <= 0 {
		delete(h.conns, uid)
	}
}

// wsToken finds the session token: "bearer.<token>" beside "prima.v1" in
// Sec-WebSocket-Protocol (browsers cannot set headers on a WebSocket), or
// an Authorization: Bearer header (other clients). Never the URL: URLs end
// up in access logs and proxy logs.
func wsToken(r *http.Request) (string, error) {
	var offered, hasProto bool
	var token string
	for _, p := range headerTokens(r.Header, "Sec-WebSocket-Protocol") {
		switch {
		case p == Protocol:
			hasProto = true
		case strings.HasPrefix(p, bearerProtocol):
			offered = true
			token = p[len(bearerProtocol):]
		}
	}
	if offered && !hasProto {
		return "", httpx.BadRequest("请求无效", "Sec-WebSocket-Protocol must list "+Protocol+" beside the bearer token")
	}
	if !offered {
		if v := strings.TrimSpace(r.Header.Get("Authorization")); v != "" {
			scheme, rest, _ := strings.Cut(v, " ")
			if !strings.EqualFold(scheme, "Bearer") {
				return "", httpx.Unauthorized("登录已失效，请重新登录", "Authorization must be Bearer <token>")
			}
			token = strings.TrimSpace(rest)
		}
	}
	if token == "" {
		return "", httpx.Unauthorized("请先登录", "no session token: send Sec-WebSocket-Protocol: "+Protocol+", bearer.<token>")
	}
	return token, nil
}

// checkOrigin lets a browser connect only from a page of this site: the
// request's own host or a configured one. Requests without Origin are not
// from a browser page, and cross-site WebSocket hijacking needs one.
func (h *WS) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" {
		if strings.EqualFold(u.Host, r.Host) {
			return nil
		}
		for _, host := range h.opt.OriginHosts {
			if strings.EqualFold(u.Host, host) {
				return nil
			}
		}
		if h.opt.AllowOrigin != nil && h.opt.AllowOrigin(r.Context(), strings.ToLower(u.Scheme)+"://"+strings.ToLower(u.Host)) {
			return nil
		}
	}
	return httpx.Forbidden("请求来源不被允许", "origin "+origin+" may not open this WebSocket")
}

// headerTokens splits every value of a comma-separated header.
func headerTokens(h http.Header, key string) []string {
	var out []string
	for _, v := range h.Values(key) {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func headerHasToken(h http.Header, key, token string) bool {
	for _, t := range headerTokens(h, key) {
		if strings.EqualFold(t, token) {
			return true
		}
	}
	return false
}
