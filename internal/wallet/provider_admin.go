package wallet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator's switches of the payment providers and their health
// (issue 21: GET/POST /api/admin/providers). A provider is configured by
// the server's settings (PRIMA_EPAY_*, PRIMA_STRIPE_*, PRIMA_PAY_SANDBOX);
// the operator may switch a configured one off without a restart. A
// switched-off provider is not offered to the phone app (PayTypes) and
// refuses new orders (Topay: ErrProviderOff); the orders it already made
// still settle by their callbacks, which never read the switch.

// ErrProviderOff: a new order names a provider the operator switched off (422).
var ErrProviderOff = errors.New("pay type switched off")

// ErrNoProvider: the operator names a provider that is not configured (404).
var ErrNoProvider = errors.New("no such payment provider")

// failureOutcomes are the callback outcomes a provider's health counts as
// failures: a notice that failed its check, an order the provider would not
// make, a refund the wallet could not take back.
var failureOutcomes = []string{"refused", "create_failed", "refund_refused"}

// switchedOff are the providers the operator switched off, read on q.
func switchedOff(ctx context.Context, q db.Querier) (map[string]bool, error) {
	names, err := db.All(ctx, q, func(s db.Scanner) (string, error) {
		var n string
		return n, s.Scan(&n)
	}, `SELECT name FROM provider_switches WHERE enabled = 0`)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out, nil
}

// ProviderStatus is a provider as the console's 支付渠道 page shows it.
type ProviderStatus struct {
	Name       string `json:"name"`    // the payType ("epay_alipay")
	Title      string `json:"title"`   // what the payer sees ("支付宝")
	Gateway    string `json:"gateway"` // the notify path's name ("epay"): health is the gateway's
	Enabled    bool   `json:"enabled"`
	Configured bool   `json:"configured"`
	// LastNotifyAt is the gateway's latest notice of any outcome but
	// create_failed (null: none ever).
	LastNotifyAt *time.Time `json:"lastNotifyAt"`
	// Notifies24h and Failures24h count the last 24 hours' callbacks
	// (create_failed counts as a failure, not a notice).
	Notifies24h int64           `json:"notifies24h"`
	Failures24h int64           `json:"failures24h"`
	LastFailure *CallbackRecord `json:"lastFailure"`
}

// ProviderStatuses are the configured providers in the order the phone app
// lists them, then any the operator once switched that the server no longer
// configures (configured false: nothing to switch).
func (s *Service) ProviderStatuses(ctx context.Context) ([]ProviderStatus, error) {
	type sw struct {
		name    string
		enabled bool
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (sw, error) {
		var v sw
		var on int
		err := sc.Scan(&v.name, &on)
		v.enabled = on == 1
		return v, err
	}, `SELECT name, enabled FROM provider_switches ORDER BY name`)
	if err != nil {
		return nil, err
	}
	switches := map[string]bool{}
	for _, r := range rows {
		switches[r.name] = r.enabled
	}
	out := []ProviderStatus{}
	seen := map[string]bool{}
	for _, p := range s.Pay.Providers {
		on, ok := switches[p.Name()]
		out = append(out, ProviderStatus{Name: p.Name(), Title: p.Title(), Gateway: GatewayOf(p), Enabled: on || !ok, Configured: true})
		seen[p.Name()] = true
	}
	for _, r := range rows {
		if !seen[r.name] {
			gw, _, _ := strings.Cut(r.name, "_")
			out = append(out, ProviderStatus{Name: r.name, Title: r.name, Gateway: gw, Enabled: r.enabled})
		}
	}
	health := map[string]ProviderStatus{}
	since := s.now().Add(-24 * time.Hour).Unix()
	for i, p := range out {
		if h, ok := health[p.Gateway]; ok {
			out[i].LastNotifyAt, out[i].Notifies24h, out[i].Failures24h, out[i].LastFailure = h.LastNotifyAt, h.Notifies24h, h.Failures24h, h.LastFailure
			continue
		}
		if err := s.gatewayHealth(ctx, &out[i], since); err != nil {
			return nil, err
		}
		health[p.Gateway] = out[i]
	}
	return out, nil
}

// gatewayHealth fills p's health from the callbacks of its gateway.
func (s *Service) gatewayHealth(ctx context.Context, p *ProviderStatus, since int64) error {
	ph := db.Placeholders(len(failureOutcomes))
	fails := make([]any, len(failureOutcomes))
	for i, o := range failureOutcomes {
		fails[i] = o
	}
	var last int64
	err := s.db.QueryRow(ctx, `SELECT created_at FROM payment_callbacks WHERE provider = ? AND outcome <> 'create_failed'
		ORDER BY created_at DESC LIMIT 1`, p.Gateway).Scan(&last)
	switch {
	case errors.Is(db.NotFound(err), db.ErrNotFound):
	case err != nil:
		return err
	default:
		t := time.Unix(last, 0).UTC()
		p.LastNotifyAt = &t
	}
	args := append(append([]any{}, fails...), p.Gateway, since)
	if err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(CASE WHEN outcome <> 'create_failed' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN outcome IN (`+ph+`) THEN 1 ELSE 0 END), 0)
		FROM payment_callbacks WHERE provider = ? AND created_at >= ?`, args...).Scan(&p.Notifies24h, &p.Failures24h); err != nil {
		return err
	}
	var c CallbackRecord
	var at int64
	err = s.db.QueryRow(ctx, `SELECT id, provider, order_no, outcome, detail, created_at FROM payment_callbacks
		WHERE provider = ? AND outcome IN (`+ph+`) ORDER BY created_at DESC, id DESC LIMIT 1`, append([]any{p.Gateway}, fails...)...).
		Scan(&c.ID, &c.Provider, &c.OrderNo, &c.Outcome, &c.Detail, &at)
	switch {
	case errors.Is(db.NotFound(err), db.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	c.CreatedAt = time.Unix(at, 0).UTC()
	p.LastFailure = &c
	return nil
}

// SwitchProvider turns configured provider name on or off, audited
// ("provider.switch", before and after) in the same transaction. Switching
// it to what it is changes nothing and writes nothing (changed false).
func (s *Service) SwitchProvider(ctx context.Context, actor audit.Actor, name string, enabled bool) (changed bool, err error) {
	if s.Pay.provider(name) == nil {
		return false, ErrNoProvider
	}
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// The row first (a provider without one is on), then its lock: two
		// operators switching at once serialise on it, and the second reads
		// what the first left.
		if _, err := tx.Exec(ctx, `INSERT INTO provider_switches (name, enabled, updated_at) VALUES (?, 1, ?) ON CONFLICT (name) DO NOTHING`,
			name, now.Unix()); err != nil {
			return err
		}
		var was int
		if err := tx.QueryRow(ctx, `SELECT enabled FROM provider_switches WHERE name = ?`+tx.ForUpdate(), name).Scan(&was); err != nil {
			return err
		}
		if (was == 1) == enabled {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE provider_switches SET enabled = ?, updated_by = ?, updated_at = ? WHERE name = ? AND enabled = ?`,
			db.BoolInt(enabled), actor.UID, now.Unix(), name, was); err != nil {
			return err
		}
		changed = true
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "provider.switch", TargetType: "provider", TargetID: name,
			Before: map[string]bool{"enabled": was == 1}, After: map[string]bool{"enabled": enabled}}, now)
	})
	return changed, err
}

// AdminProviders is GET /api/admin/providers -> [ProviderStatus].
func (h *Handler) AdminProviders(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.ProviderStatuses(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

// AdminSwitchProvider is POST /api/admin/providers {name, enabled} ->
// {provider: ProviderStatus, changed}.
func (h *Handler) AdminSwitchProvider(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Name    string `json:"name"`
		Enabled *bool  `json:"enabled"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	switch {
	case b.Name == "":
		return httpx.Invalid("缺少参数 name", "name is required")
	case len(b.Name) > 40 || strings.Trim(b.Name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "":
		return httpx.Invalid("参数 name 无效", "name is a payType: lower-case letters, digits and _")
	case b.Enabled == nil:
		return httpx.Invalid("缺少参数 enabled", "enabled (true or false) is required")
	}
	changed, err := h.s.SwitchProvider(r.Context(), audit.ActorFrom(r), b.Name, *b.Enabled)
	if errors.Is(err, ErrNoProvider) {
		return httpx.NotFound("支付渠道不存在", fmt.Sprintf("no configured provider %q", b.Name))
	}
	if err != nil {
		return err
	}
	list, err := h.s.ProviderStatuses(r.Context())
	if err != nil {
		return err
	}
	for _, p := range list {
		if p.Name == b.Name {
			return httpx.OK(w, map[string]any{"provider": p, "changed": changed})
		}
	}
	return httpx.NotFound("支付渠道不存在", "provider vanished")
}
