package rewards

import (
	"fmt"
	"net/http"
	"strings"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// CodesHandler serves the redemption-code calls (docs/api.md,
// *Redemption codes*).
type CodesHandler struct{ s *Codes }

// NewCodesHandler wraps s.
func NewCodesHandler(s *Codes) *CodesHandler { return &CodesHandler{s: s} }

type exchangeBody struct {
	Code *string `json:"code"`
}

// Exchange is POST /api/app/code/exchange {code}: any signed-in user, a
// guest too (a guest's account is as much theirs to keep as a registered
// one, and the per-code-per-user row bounds what any account can take).
func (h *CodesHandler) Exchange(w http.ResponseWriter, r *http.Request) error {
	var b exchangeBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	if b.Code == nil || *b.Code == "" {
		return httpx.Invalid("请输入兑换码", "code is required")
	}
	red, err := h.s.Redeem(r.Context(), httpx.UserID(r.Context()), httpx.ClientIP(r), *b.Code)
	if err != nil {
		return codeErrs.Map(err)
	}
	return httpx.OK(w, red)
}

// Records is GET /api/app/code/records: the caller's redemptions.
func (h *CodesHandler) Records(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	list, total, err := h.s.Records(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, httpx.NewPage(list, total, num, size))
}

type batchBody struct {
	Name   string `json:"name"`
	Reward *struct {
		Coins    int64 `json:"coins"`
		VIPLevel int   `json:"vipLevel"`
		VIPDays  int   `json:"vipDays"`
		Coupons  int   `json:"coupons"`
	} `json:"reward"`
	Count       *int64 `json:"count"`
	UsesPerCode *int64 `json:"usesPerCode"`
	ExpiresAt   int64  `json:"expiresAt"`
}

// AdminCreateBatch is POST /api/admin/codes/batches: the batch and, this
// once only, its plain codes.
func (h *CodesHandler) AdminCreateBatch(w http.ResponseWriter, r *http.Request) error {
	var b batchBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	if b.Reward == nil {
		return httpx.Invalid("缺少参数 reward", "reward is required")
	}
	if b.Count == nil || *b.Count < 1 || *b.Count > MaxBatchCodes {
		return httpx.Invalid("参数 count 无效", "count must be 1-10000")
	}
	uses := int64(1)
	if b.UsesPerCode != nil {
		uses = *b.UsesPerCode
	}
	if uses < 1 || uses > MaxUsesPerCode {
		return httpx.Invalid("参数 usesPerCode 无效", "usesPerCode must be 1-1000000")
	}
	batch, codes, err := h.s.CreateBatch(r.Context(), audit.ActorFrom(r), NewBatch{
		Name:        b.Name,
		Reward:      wallet.Reward{Coins: b.Reward.Coins, VIPLevel: b.Reward.VIPLevel, VIPDays: b.Reward.VIPDays, Coupons: b.Reward.Coupons},
		Count:       int(*b.Count),
		UsesPerCode: int(uses),
		ExpiresAt:   b.ExpiresAt,
	})
	if err != nil {
		return codeErrs.Map(err)
	}
	// Accept: text/csv answers the codes as a file to hand to a printer or
	// a partner; the batch is made either way, and either answer is the
	// only copy of its codes.
	if strings.Contains(r.Header.Get("Accept"), "text/csv") {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="codes-batch-%d.csv"`, batch.ID))
		var b strings.Builder
		b.WriteString("code\n")
		for _, c := range codes {
			b.WriteString(c + "\n")
		}
		_, err := w.Write([]byte(b.String()))
		return err
	}
	return httpx.OK(w, map[string]any{"batch": batch, "codes": codes})
}

// AdminBatches is GET /api/admin/codes/batches?cursor&pageSize: a keyset
// page, newest first (nextCursor opens the next).
func (h *CodesHandler) AdminBatches(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	keys, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	var after int64
	if keys != nil {
		after = keys[0]
	}
	list, err := h.s.Batches(r.Context(), after, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, httpx.NewKeyPage(list, size, func(b Batch) []int64 { return []int64{b.ID} }))
}

type idBody struct {
	ID *int64 `json:"id"`
}

// AdminDisableBatch is POST /api/admin/codes/batches/disable {id}.
func (h *CodesHandler) AdminDisableBatch(w http.ResponseWriter, r *http.Request) error {
	var b idBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	if err := h.s.DisableBatch(r.Context(), audit.ActorFrom(r), id); err != nil {
		return codeErrs.Map(err)
	}
	return httpx.OK(w, map[string]any{"id": id, "disabled": true})
}
