package operator

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"

	"prima/internal/platform/httpx"
)

// Handler serves the console's own calls and gates every /api/admin route.
type Handler struct {
	s     *Service
	allow []netip.Prefix
}

// NewHandler returns the console handlers over s. allow is the optional
// address allowlist (PRIMA_ADMIN_ALLOW): empty lets every address in.
func NewHandler(s *Service, allow []netip.Prefix) *Handler { return &Handler{s: s, allow: allow} }

type callerKey struct{}

// CallerFrom is the console caller of ctx, set by the gate; ok is false
// outside /api/admin.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// AllowList refuses, with 403, every request from an address outside the
// allowlist; with no allowlist it is next itself. It wraps the whole of
// /api/admin (the sign-in too), so an outside address learns nothing of it.
// The address is the client's as httpx.ClientIP resolves it (through the
// trusted proxies only).
func (h *Handler) AllowList(next http.Handler) http.Handler {
	if len(h.allow) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.allowed(httpx.ClientIP(r)) {
			httpx.WriteError(w, r, errs.Map(ErrAddressRefused))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (h *Handler) allowed(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range h.allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Gate lets a request through to next only as access says: a console
// session or an API key (401 without one, or with any other token, a
// phone-app token too), of a role the route opens to (403 "没有权限"), not
// an API key where only a session will do (403), and with a fresh step-up
// where the route asks for one (403 with data {stepUp: true}). Every
// request made with an API key is audited (apikey.use), let through or not. The caller
// goes on the context (CallerFrom; httpx.PrincipalFrom answers its uid and
// console role, so audit.ActorFrom names the operator). A public route
// passes as it is.
func (h *Handler) Gate(access Access, next httpx.Handler) httpx.Handler {
	if access.public {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := h.caller(r)
		if err != nil {
			return errs.Map(err)
		}
		var refusal error
		switch {
		case !access.Allows(c.Role):
			refusal = errs.Map(ErrForbidden)
		case c.KeyID != 0 && access.session:
			refusal = errs.Map(ErrKeyRefused)
		case access.stepUp && c.StepUpUntil <= h.s.now().Unix():
			refusal = stepUpAnswer(ErrStepUp)
		}
		if c.KeyID != 0 {
			// Every use of an API key is audited, refused ones too, before
			// anything else happens: a use that cannot be recorded fails.
			if err := h.s.KeyUsed(r.Context(), r, c, refusal == nil); err != nil {
				return httpx.Internal(err)
			}
		}
		if refusal != nil {
			return refusal
		}
		ctx := httpx.WithPrincipal(r.Context(), httpx.Principal{UID: c.UID, Role: c.Role})
		ctx = context.WithValue(ctx, callerKey{}, c)
		return next(w, r.WithContext(ctx))
	}
}

// caller resolves the request's bearer token.
func (h *Handler) caller(r *http.Request) (Caller, error) {
	token := bearer(r)
	if token == "" {
		return Caller{}, ErrNoCredential
	}
	c, err := h.s.Authenticate(r.Context(), token)
	if err != nil && !errors.Is(err, ErrSessionInvalid) {
		// The database failed while checking the token: ours, not the
		// caller's, and it must not send the console to its sign-in page.
		return Caller{}, httpx.Internal(err)
	}
	return c, err
}

// bearer is the credential of the Authorization header ("" when none).
func bearer(r *http.Request) string {
	v := strings.TrimSpace(r.Header.Get("Authorization"))
	scheme, rest, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return v // any other scheme is a token that will be refused
	}
	return strings.TrimSpace(rest)
}
